//! `redact-secrets`: replaces secrets with `[REDACTED:<rule>]` in a tool's output,
//! keeping the output's JSON shape (only string values change). Also used
//! to scrub the audit log before it is written.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind};
use regex::bytes::{Regex, RegexBuilder};

use crate::guard::{Call, Context, Entry, Guard, Verdict, options};
use secret_rules::{Check, RULES, accepts};
use serde::Deserialize;
use serde_json::Value;

/// The replacement text of a custom pattern; a default rule's replacement
/// names it: `[REDACTED:github-token]`.
pub const REDACTED: &str = "[REDACTED]";

/// Options of `redact-secrets`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Regexes that replace the default secret shapes.
    pub patterns: Option<Vec<String>>,
    /// Regexes added to them.
    #[serde(default)]
    pub extra_patterns: Vec<String>,
}

/// One rule: its regex, compiled the first time a text holds one of its
/// anchors (custom patterns are compiled at once, so that a bad one is an
/// error when the config is loaded), the name in its marker (none for
/// custom patterns) and how its matches are checked.
#[derive(Debug)]
struct Compiled {
    pattern: &'static str,
    re: OnceLock<Option<Regex>>,
    marker: String,
    check: Check,
}

impl Compiled {
    /// The regex, compiled on first use. The default rules are ASCII
    /// shapes, compiled without Unicode classes (several times cheaper to
    /// build: a secret's characters are ASCII, and `\b`, `\s`, `(?i)` read
    /// as ASCII find the same secrets); a pattern that fails is skipped,
    /// which tests rule out for the defaults.
    fn regex(&self) -> Option<&Regex> {
        self.re
            .get_or_init(|| RegexBuilder::new(self.pattern).unicode(false).build().ok())
            .as_ref()
    }
}

/// A set of secret shapes. Which rules can match a text is told first by
/// one pass for every rule's anchors (`secret_rules::Rule::anchors`), so
/// that ordinary text costs neither compiling nor running any regex: this
/// is what keeps loading the guard, and scrubbing each audit line, cheap.
#[derive(Debug)]
pub struct Redactor {
    rules: Vec<Compiled>,
    /// The anchors of every default rule, in rule order.
    anchor_words: Vec<&'static str>,
    /// Their automaton, ignoring ASCII case, built on first use.
    anchors: OnceLock<Option<AhoCorasick>>,
    /// For each anchor, the rule it belongs to.
    anchor_rule: Vec<usize>,
    /// Rules without anchors (custom patterns): tried on every text.
    unanchored: Vec<usize>,
}

fn compile(p: &str) -> Result<Regex, String> {
    Regex::new(p).map_err(|e| format!("pattern `{p}` is not a valid regex: {e}"))
}

impl Redactor {
    /// # Errors
    /// A pattern that does not compile.
    pub fn new(o: Options) -> Result<Self, String> {
        let mut rules = Vec::new();
        let mut anchors = Vec::new();
        let mut anchor_rule = Vec::new();
        let mut unanchored = Vec::new();
        if o.patterns.is_none() {
            for r in RULES {
                for a in r.anchors {
                    anchors.push(*a);
                    anchor_rule.push(rules.len());
                }
                rules.push(Compiled {
                    pattern: r.pattern,
                    re: OnceLock::new(),
                    marker: format!("[REDACTED:{}]", r.name),
                    check: r.check,
                });
            }
        }
        for p in o.patterns.into_iter().flatten().chain(o.extra_patterns) {
            unanchored.push(rules.len());
            rules.push(Compiled {
                pattern: "",
                re: OnceLock::from(Some(compile(&p)?)),
                marker: REDACTED.to_owned(),
                check: Check::Shape,
            });
        }
        Ok(Redactor {
            rules,
            anchor_words: anchors,
            anchors: OnceLock::new(),
            anchor_rule,
            unanchored,
        })
    }

    /// The default redactor, built once (its rules compile as texts need
    /// them).
    #[must_use]
    pub fn default_set() -> &'static Redactor {
        static R: OnceLock<Redactor> = OnceLock::new();
        R.get_or_init(|| match Redactor::new(Options::default()) {
            Ok(r) => r,
            // The defaults are constants checked by tests.
            Err(_) => Redactor {
                rules: Vec::new(),
                anchor_words: Vec::new(),
                anchors: OnceLock::new(),
                anchor_rule: Vec::new(),
                unanchored: Vec::new(),
            },
        })
    }

    /// The anchors' automaton: a contiguous NFA, the quickest kind to
    /// build, for a few dozen short words (the guard is built in every
    /// process; most processes scan no text with it).
    fn automaton(&self) -> Option<&AhoCorasick> {
        self.anchors
            .get_or_init(|| {
                (!self.anchor_words.is_empty())
                    .then(|| {
                        AhoCorasick::builder()
                            .ascii_case_insensitive(true)
                            .kind(Some(AhoCorasickKind::ContiguousNFA))
                            .build(&self.anchor_words)
                            .ok()
                    })
                    .flatten()
            })
            .as_ref()
    }

    /// The rules that may match `s`, in rule order.
    fn candidates(&self, s: &str) -> Vec<usize> {
        let mut hit = vec![false; self.rules.len()];
        for &i in &self.unanchored {
            hit[i] = true;
        }
        if let Some(ac) = self.automaton() {
            for m in ac.find_overlapping_iter(s) {
                if let Some(&i) = self.anchor_rule.get(m.pattern().as_usize()) {
                    hit[i] = true;
                }
            }
        }
        hit.iter()
            .enumerate()
            .filter_map(|(i, &h)| h.then_some(i))
            .collect()
    }

    /// The secrets found in a text: byte ranges, sorted, not overlapping,
    /// each with the marker that replaces it.
    #[must_use]
    pub fn find(&self, s: &str) -> Vec<(std::ops::Range<usize>, &str)> {
        let mut found: Vec<(std::ops::Range<usize>, usize)> = Vec::new();
        for i in self.candidates(s) {
            let Some(rule) = self.rules.get(i) else {
                continue;
            };
            let Some(re) = rule.regex() else {
                continue;
            };
            for caps in re.captures_iter(s.as_bytes()) {
                let Some(m) = caps.name("s").or_else(|| caps.get(0)) else {
                    continue;
                };
                let range = unquote(s, m.range());
                // Byte-level matches of ASCII shapes start and end at ASCII
                // bytes; a range that would split a character is dropped.
                let Some(value) = s.get(range.clone()) else {
                    continue;
                };
                if !range.is_empty() && accepts(rule.check, value) {
                    found.push((range, i));
                }
            }
        }
        // Earlier start first; at one start, the longer match, then the
        // earlier rule.
        found.sort_by(|a, b| {
            a.0.start
                .cmp(&b.0.start)
                .then(b.0.end.cmp(&a.0.end))
                .then(a.1.cmp(&b.1))
        });
        let mut merged: Vec<(std::ops::Range<usize>, usize)> = Vec::new();
        for (r, i) in found {
            match merged.last_mut() {
                Some((last, _)) if r.start < last.end => last.end = last.end.max(r.end),
                _ => merged.push((r, i)),
            }
        }
        merged
            .into_iter()
            .filter_map(|(r, i)| Some((r, self.rules.get(i)?.marker.as_str())))
            .collect()
    }

    /// Redacts one text; returns how many secrets were replaced.
    #[must_use]
    pub fn text(&self, s: &str) -> (String, usize) {
        let found = self.find(s);
        if found.is_empty() {
            return (s.to_owned(), 0);
        }
        let mut out = String::with_capacity(s.len());
        let mut at = 0;
        for (r, marker) in &found {
            out.push_str(s.get(at..r.start).unwrap_or_default());
            out.push_str(marker);
            at = r.end;
        }
        out.push_str(s.get(at..).unwrap_or_default());
        (out, found.len())
    }

    /// Redacts every string (keys included) inside a JSON value, in place.
    pub fn value(&self, v: &mut Value) -> usize {
        match v {
            Value::String(s) => {
                let (new, n) = self.text(s);
                if n > 0 {
                    *s = new;
                }
                n
            }
            Value::Array(a) => a.iter_mut().map(|x| self.value(x)).sum(),
            Value::Object(m) => {
                let mut n = 0;
                let keys: Vec<String> = m.keys().cloned().collect();
                for k in keys {
                    let (new_key, kn) = self.text(&k);
                    n += kn;
                    if let Some(mut val) = m.shift_remove(&k) {
                        n += self.value(&mut val);
                        m.insert(new_key, val);
                    }
                }
                n
            }
            _ => 0,
        }
    }
}

/// The range inside matching quotes around a value (`"hunter2"` → `hunter2`).
fn unquote(s: &str, r: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let b = s.as_bytes();
    if r.len() >= 2 {
        let (first, last) = (b.get(r.start), b.get(r.end - 1));
        if first == last && matches!(first, Some(b'"' | b'\'')) {
            return r.start + 1..r.end - 1;
        }
    }
    r
}

/// `doctor`'s proof that the guard holds: a made-up GitHub token in a
/// shell command's output reaches the model redacted.
const CANARIES: &[crate::guard::Canary] = {
    use crate::guard::{Canary, CanaryTool::Shell, Expect};
    &[Canary {
        event: "PostToolUse",
        tool: Shell,
        input: "env",
        output: Some(CANARY_TOKEN_LINE),
        expect: Expect::Redacted,
    }]
};

/// A made-up token of GitHub's shape, in the output `doctor` fires.
pub const CANARY_TOKEN_LINE: &str = "GH_TOKEN=ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789";

/// The registry entry of `redact-secrets`.
pub const ENTRY: Entry = Entry {
    name: "redact-secrets",
    summary: "replaces secrets in the tool output with `[REDACTED:<rule>]`",
    example: " --mode warn",
    canaries: CANARIES,
    build: |o| Ok(Box::new(Redactor::new(options("redact-secrets", o)?)?)),
};

impl Guard for Redactor {
    fn evaluate(&self, call: &Call<'_>, _ctx: &Context<'_>) -> Verdict {
        if call.event != "PostToolUse" {
            return Verdict::Pass;
        }
        let Some(mut output) = call.output.cloned() else {
            return Verdict::Pass;
        };
        let count = self.value(&mut output);
        if count == 0 {
            return Verdict::Pass;
        }
        Verdict::Rewrite { output, count }
    }

    fn only_rewrites(&self) -> bool {
        true
    }
}

mod secret_rules;
#[cfg(test)]
mod tests;
