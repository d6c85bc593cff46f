//! `redact-secrets`: replaces secrets with `[REDACTED]` in a tool's output,
//! keeping the output's JSON shape (only string values change). Also used
//! to scrub the audit log before it is written.

use std::sync::OnceLock;

use super::guard::{Entry, Guard, Verdict, options};
use crate::event::Event;
use serde::Deserialize;
use serde_json::Value;

/// The replacement text.
pub const REDACTED: &str = "[REDACTED]";

/// The default secret shapes. Word boundaries keep prose such as
/// `ask-the-user` or `sk-learn` untouched.
const DEFAULT_PATTERNS: &[&str] = &[
    // AWS access key ids.
    r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b",
    // Anthropic keys (before OpenAI's, which share the `sk-` prefix).
    r"\bsk-ant-[A-Za-z0-9_-]{20,}",
    // OpenAI keys.
    r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}",
    r"\bsk-[A-Za-z0-9]{20,}",
    // GitHub tokens.
    r"\bgh[pousr]_[A-Za-z0-9]{36,}\b",
    r"\bgithub_pat_[A-Za-z0-9_]{22,}",
    // Slack tokens.
    r"\bxox[abposr]-[A-Za-z0-9-]{10,}",
    // Stripe keys.
    r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}",
    // Google API keys.
    r"\bAIza[0-9A-Za-z_-]{35}",
    // JWTs.
    r"\beyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+",
    // PEM private keys, whole blocks.
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----",
];

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

/// A compiled set of secret shapes.
#[derive(Debug)]
pub struct Redactor {
    set: regex::RegexSet,
    patterns: Vec<regex::Regex>,
}

impl Redactor {
    /// # Errors
    /// A pattern that does not compile.
    pub fn new(o: Options) -> Result<Self, String> {
        let mut sources: Vec<String> = o
            .patterns
            .unwrap_or_else(|| DEFAULT_PATTERNS.iter().map(|s| (*s).to_owned()).collect());
        sources.extend(o.extra_patterns);
        let patterns = sources
            .iter()
            .map(|p| {
                regex::Regex::new(p).map_err(|e| format!("pattern `{p}` is not a valid regex: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let set = regex::RegexSet::new(&sources).map_err(|e| e.to_string())?;
        Ok(Redactor { set, patterns })
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
                patterns: Vec::new(),
            },
        })
    }

    /// Redacts one text; returns how many secrets were replaced.
    #[must_use]
    pub fn text(&self, s: &str) -> (String, usize) {
        if !self.set.is_match(s) {
            return (s.to_owned(), 0);
        }
        let mut out = s.to_owned();
        let mut count = 0;
        for re in &self.patterns {
            let n = re.find_iter(&out).count();
            if n > 0 {
                count += n;
                out = re.replace_all(&out, REDACTED).into_owned();
            }
        }
        (out, count)
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

/// The registry entry of `redact-secrets`.
pub const ENTRY: Entry = Entry {
    name: "redact-secrets",
    summary: "replaces secrets in the tool output with `[REDACTED]`",
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
