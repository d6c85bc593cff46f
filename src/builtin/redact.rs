//! `redact-secrets`: replaces secrets with `[REDACTED:<rule>]` in a tool's output,
//! keeping the output's JSON shape (only string values change). Also used
//! to scrub the audit log before it is written.

use std::sync::OnceLock;

use super::guard::{Entry, Guard, Verdict, options};
use super::secret_rules::{Check, RULES, accepts};
use crate::event::Event;
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

/// One compiled rule: its regex, the name in its marker (none for custom
/// patterns) and how its matches are checked.
#[derive(Debug)]
struct Compiled {
    re: regex::Regex,
    marker: String,
    check: Check,
}

/// A compiled set of secret shapes.
#[derive(Debug)]
pub struct Redactor {
    set: regex::RegexSet,
    rules: Vec<Compiled>,
}

fn compile(p: &str) -> Result<regex::Regex, String> {
    regex::Regex::new(p).map_err(|e| format!("pattern `{p}` is not a valid regex: {e}"))
}

impl Redactor {
    /// # Errors
    /// A pattern that does not compile.
    pub fn new(o: Options) -> Result<Self, String> {
        let mut rules = Vec::new();
        match o.patterns {
            None => {
                for r in RULES {
                    rules.push(Compiled {
                        re: compile(r.pattern)?,
                        marker: format!("[REDACTED:{}]", r.name),
                        check: r.check,
                    });
                }
            }
            Some(ps) => {
                for p in ps {
                    rules.push(custom(&p)?);
                }
            }
        }
        for p in o.extra_patterns {
            rules.push(custom(&p)?);
        }
        let set = regex::RegexSet::new(rules.iter().map(|r| r.re.as_str()))
            .map_err(|e| e.to_string())?;
        Ok(Redactor { set, rules })
    }

    /// The default redactor, compiled once.
    #[must_use]
    pub fn default_set() -> &'static Redactor {
        static R: OnceLock<Redactor> = OnceLock::new();
        R.get_or_init(|| match Redactor::new(Options::default()) {
            Ok(r) => r,
            // The defaults are constants checked by tests.
            Err(_) => Redactor {
                set: regex::RegexSet::empty(),
                rules: Vec::new(),
            },
        })
    }

    /// The secrets found in a text: byte ranges, sorted, not overlapping,
    /// each with the marker that replaces it.
    #[must_use]
    pub fn find(&self, s: &str) -> Vec<(std::ops::Range<usize>, &str)> {
        let mut found: Vec<(std::ops::Range<usize>, usize)> = Vec::new();
        for i in self.set.matches(s).iter() {
            let Some(rule) = self.rules.get(i) else {
                continue;
            };
            for caps in rule.re.captures_iter(s) {
                let Some(m) = caps.name("s").or_else(|| caps.get(0)) else {
                    continue;
                };
                let range = unquote(s, m.range());
                let value = s.get(range.clone()).unwrap_or_default();
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
        if !self.set.is_match(s) {
            return (s.to_owned(), 0);
        }
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

fn custom(p: &str) -> Result<Compiled, String> {
    Ok(Compiled {
        re: compile(p)?,
        marker: REDACTED.to_owned(),
        check: Check::Shape,
    })
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

/// The registry entry of `redact-secrets`.
pub const ENTRY: Entry = Entry {
    name: "redact-secrets",
    summary: "replaces secrets in the tool output with `[REDACTED:<rule>]`",
    build: |o| Ok(Box::new(Redactor::new(options("redact-secrets", o)?)?)),
};

impl Guard for Redactor {
    fn evaluate(&self, event: &Event, _project: &std::path::Path) -> Verdict {
        if event.name != "PostToolUse" {
            return Verdict::Pass;
        }
        let Some(mut out) = event.fields.get("tool_response").cloned() else {
            return Verdict::Pass;
        };
        let count = self.value(&mut out);
        if count == 0 {
            return Verdict::Pass;
        }
        let field = if event
            .str_field("tool_name")
            .to_ascii_lowercase()
            .starts_with("mcp__")
        {
            "updatedMCPToolOutput"
        } else {
            "updatedToolOutput"
        };
        Verdict::Rewrite {
            field,
            value: out,
            count,
        }
    }
}
