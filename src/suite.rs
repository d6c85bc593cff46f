//! Policy test files for `hookrun test` (TOML), and checking one case's
//! evaluation against its expectations. Pure: running is the pipeline's job.
//!
//! ```toml
//! config = "../hooks.example.toml"   # or a list; relative to this file
//! project_dir = ".."                 # CLAUDE_PROJECT_DIR; default: this file's directory
//! timeout = 30                       # seconds a case may take (caps every hook's timeout)
//!
//! [[case]]
//! name = "rm -rf / is denied"
//! event = { hook_event_name = "PreToolUse", tool_name = "Bash", tool_input = { command = "rm -rf /" } }
//! files = { "notes.txt" = "fixture" } # written into the case's temporary cwd
//! expect = { decision = "deny", reason = "root|home", ran = ["guard-rm"] }
//! # also: contexts, updated_input, updated_tool_output, not_ran, continue,
//! # exit_code, system_message
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::decision::Decision;
use crate::error::{ConfigProblem, Error, Location, line_col};
use crate::events::Family;

/// A parsed test file.
#[derive(Debug)]
pub struct Suite {
    pub path: PathBuf,
    pub configs: Vec<PathBuf>,
    pub project_dir: PathBuf,
    pub timeout: std::time::Duration,
    pub cases: Vec<Case>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSuite {
    config: OneOrMany,
    project_dir: Option<PathBuf>,
    timeout: Option<f64>,
    #[serde(default, rename = "case")]
    cases: Vec<Case>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(PathBuf),
    Many(Vec<PathBuf>),
}

/// One test case.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub name: String,
    /// The event, partial: common fields are filled in. Strings may use
    /// `{tmp}` (the case's working directory) and `{project}`.
    pub event: toml::Table,
    /// Files written into the case's working directory first.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    #[serde(default)]
    pub expect: Expect,
}

/// What a case expects; everything is optional.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// `allow`, `deny`, `ask`, `defer`, `block` or `none`.
    pub decision: Option<String>,
    /// A regex searched in the reasons.
    pub reason: Option<String>,
    /// Regexes that must each match some context.
    pub contexts: Option<Vec<String>>,
    /// The rewritten tool input, exactly.
    pub updated_input: Option<toml::Table>,
    /// The rewritten tool output (`updatedToolOutput` or
    /// `updatedMCPToolOutput`), exactly.
    pub updated_tool_output: Option<toml::Value>,
    /// Hooks (by name or command) that must have run / must not have run.
    pub ran: Option<Vec<String>>,
    pub not_ran: Option<Vec<String>>,
    #[serde(rename = "continue")]
    pub continue_: Option<bool>,
    pub exit_code: Option<u8>,
    /// A regex searched in the system message.
    pub system_message: Option<String>,
}

/// Reads a test file.
///
/// # Errors
/// The file cannot be read or is not a valid test file.
pub fn load(path: &Path) -> Result<Suite, Error> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::ConfigRead {
        path: path.to_owned(),
        source,
    })?;
    let raw: RawSuite = toml::from_str(&text).map_err(|e| {
        let (line, column) = e.span().map(|s| line_col(&text, s.start)).unzip();
        Error::Config(Box::new(ConfigProblem {
            code: crate::config::Code::Syntax,
            at: Location {
                path: path.to_owned(),
                line,
                column,
            },
            key: None,
            message: e.message().to_owned(),
            fix: None,
        }))
    })?;
    let dir = crate::dirs::dir_of(path);
    let configs = match raw.config {
        OneOrMany::One(p) => vec![dir.join(p)],
        OneOrMany::Many(ps) => ps.into_iter().map(|p| dir.join(p)).collect(),
    };
    let secs = raw
        .timeout
        .filter(|t| t.is_finite() && *t > 0.0)
        .unwrap_or(60.0);
    Ok(Suite {
        path: path.to_owned(),
        configs,
        // Absolute: hooks run in the case's temporary directory.
        project_dir: absolute(&raw.project_dir.map_or_else(|| dir.clone(), |p| dir.join(p))),
        timeout: std::time::Duration::from_secs_f64(secs),
        cases: raw.cases,
    })
}

fn absolute(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| {
        std::env::current_dir()
            .map(|d| d.join(p))
            .unwrap_or_else(|_| p.to_owned())
    })
}

/// The case's event as JSON, with `{tmp}` and `{project}` replaced.
#[must_use]
pub fn event_of(case: &Case, tmp: &str, project: &str) -> Map<String, Value> {
    let value = serde_json::to_value(&case.event).unwrap_or(Value::Null);
    match substitute(value, tmp, project) {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

fn substitute(v: Value, tmp: &str, project: &str) -> Value {
    match v {
        Value::String(s) => Value::String(s.replace("{tmp}", tmp).replace("{project}", project)),
        Value::Array(a) => {
            Value::Array(a.into_iter().map(|x| substitute(x, tmp, project)).collect())
        }
        Value::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, x)| (k, substitute(x, tmp, project)))
                .collect(),
        ),
        other => other,
    }
}

/// What a case observed, in the terms of its expectations.
#[derive(Debug, Clone)]
pub struct Observed<'a> {
    pub family: Family,
    pub decision: &'a Decision,
    pub exit_code: u8,
    pub system_message: String,
    /// Names and commands of the hooks that ran.
    pub ran: Vec<(String, String)>,
}

/// The decision word of an observed result.
#[must_use]
pub fn decision_word(family: Family, d: &Decision) -> String {
    if let Some(r) = &d.request {
        return r
            .get("behavior")
            .and_then(Value::as_str)
            .unwrap_or("none")
            .to_owned();
    }
    match (family, d.permission) {
        (Family::PreTool | Family::Generic, Some(p)) => p.as_str().to_owned(),
        _ if d.blocked => "block".to_owned(),
        _ => "none".to_owned(),
    }
}

/// Compares an observation with the expectations; each returned line is
/// one difference, empty when the case passes.
#[must_use]
pub fn compare(expect: &Expect, seen: &Observed<'_>) -> Vec<String> {
    let mut diffs = Vec::new();
    let d = seen.decision;
    if let Some(want) = &expect.decision {
        let got = decision_word(seen.family, d);
        if &got != want {
            diffs.push(format!("decision: expected {want:?}, got {got:?}"));
        }
    }
    let reasons = d.reasons.join("\n");
    if let Some(pattern) = &expect.reason {
        if !regex_finds(pattern, &reasons, &mut diffs, "reason") {
            diffs.push(format!("reason: /{pattern}/ not found in {reasons:?}"));
        }
    }
    for pattern in expect.contexts.iter().flatten() {
        if !d
            .contexts
            .iter()
            .any(|c| regex_finds(pattern, c, &mut Vec::new(), "context"))
        {
            diffs.push(format!(
                "contexts: no context matches /{pattern}/ (contexts: {:?})",
                d.contexts
            ));
        }
    }
    if let Some(want) = &expect.updated_input {
        let want = serde_json::to_value(want).unwrap_or(Value::Null);
        let got = d.updated_input.clone().map_or(Value::Null, Value::Object);
        if want != got {
            diffs.push(format!("updated_input: expected {want}, got {got}"));
        }
    }
    if let Some(want) = &expect.updated_tool_output {
        let want = serde_json::to_value(want).unwrap_or(Value::Null);
        let got = d
            .specific
            .get("updatedToolOutput")
            .or_else(|| d.specific.get("updatedMCPToolOutput"))
            .cloned()
            .unwrap_or(Value::Null);
        if want != got {
            diffs.push(format!("updated_tool_output: expected {want}, got {got}"));
        }
    }
    let ran = |name: &str| seen.ran.iter().any(|(n, c)| n == name || c == name);
    for name in expect.ran.iter().flatten() {
        if !ran(name) {
            let names: Vec<&str> = seen.ran.iter().map(|(n, _)| n.as_str()).collect();
            diffs.push(format!("ran: `{name}` did not run (ran: {names:?})"));
        }
    }
    for name in expect.not_ran.iter().flatten() {
        if ran(name) {
            diffs.push(format!("not_ran: `{name}` ran"));
        }
    }
    if let Some(want) = expect.continue_ {
        let got = !d.prevent_continuation;
        if want != got {
            diffs.push(format!("continue: expected {want}, got {got}"));
        }
    }
    if let Some(want) = expect.exit_code {
        if want != seen.exit_code {
            diffs.push(format!(
                "exit_code: expected {want}, got {}",
                seen.exit_code
            ));
        }
    }
    if let Some(pattern) = &expect.system_message {
        if !regex_finds(pattern, &seen.system_message, &mut diffs, "system_message") {
            diffs.push(format!(
                "system_message: /{pattern}/ not found in {:?}",
                seen.system_message
            ));
        }
    }
    diffs
}

fn regex_finds(pattern: &str, text: &str, diffs: &mut Vec<String>, what: &str) -> bool {
    match fancy_regex::Regex::new(pattern) {
        Ok(re) => re.is_match(text).unwrap_or(false),
        Err(e) => {
            diffs.push(format!("{what}: /{pattern}/ is not a valid regex: {e}"));
            true
        }
    }
}
