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
//!
//! [[case]]
//! name = "Gemini's shell tool is guarded too"
//! dialect = "gemini"                 # as `run --dialect`; default: recognised
//! event = "BeforeTool"               # the agent's own event name…
//! fields = { tool_name = "run_shell_command", tool_input = { command = "rm -rf /" } }
//! expect = { decision = "deny" }
//! # also: contexts, updated_input, updated_tool_output, not_ran, continue,
//! # exit_code, system_message
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::error::{ConfigProblem, Error, Location, line_col};

mod compare;
pub(crate) use compare::{Expect, Observed, compare, said};

/// A parsed test file.
#[derive(Debug)]
pub(crate) struct Suite {
    pub path: PathBuf,
    pub configs: Vec<PathBuf>,
    pub project_dir: PathBuf,
    pub timeout: std::time::Duration,
    pub cases: Vec<Case>,
    /// Each case's line (its `[[case]]` header), where the file writes
    /// every case as one.
    pub case_lines: Vec<Option<usize>>,
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
pub(crate) struct Case {
    pub name: String,
    /// The event: its fields, partial (common fields are filled in), or
    /// only its name, any agent's own (`BeforeTool`), with the other
    /// fields in `fields`. Strings may use `{tmp}` (the case's working
    /// directory) and `{project}`.
    pub event: EventSpec,
    /// The event's other fields when `event` is a name.
    #[serde(default)]
    pub fields: toml::Table,
    /// The caller's dialect, as `run --dialect` takes it: the event is read
    /// and the answer rendered as that agent's [default: recognised from
    /// the event].
    pub dialect: Option<crate::dialect::Dialect>,
    /// Files written into the case's working directory first.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    #[serde(default)]
    pub expect: Expect,
}

/// A case's `event`: a table of fields, or a name.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub(crate) enum EventSpec {
    Name(String),
    Fields(toml::Table),
}

/// Reads a test file.
///
/// # Errors
/// The file cannot be read or is not a valid test file.
pub(crate) fn load(path: &Path) -> Result<Suite, Error> {
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
        .unwrap_or(60.0)
        // A larger value would overflow `Duration`; this is the hook-timeout cap.
        .min(2_147_483.647);
    Ok(Suite {
        path: path.to_owned(),
        configs,
        // Absolute: hooks run in the case's temporary directory.
        project_dir: absolute(&raw.project_dir.map_or_else(|| dir.clone(), |p| dir.join(p))),
        timeout: std::time::Duration::from_secs_f64(secs),
        case_lines: case_lines(&text, raw.cases.len()),
        cases: raw.cases,
    })
}

/// The line of each `[[case]]` header, in order; unknown for every case
/// when the headers do not account for all of them (an inline array).
fn case_lines(text: &str, cases: usize) -> Vec<Option<usize>> {
    let headers: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            let l = l.trim();
            l.strip_prefix("[[")
                .and_then(|r| r.split_once("]]"))
                .is_some_and(|(name, rest)| {
                    name.trim() == "case"
                        && (rest.trim().is_empty() || rest.trim().starts_with('#'))
                })
        })
        .map(|(i, _)| i + 1)
        .collect();
    if headers.len() == cases {
        headers.into_iter().map(Some).collect()
    } else {
        vec![None; cases]
    }
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
pub(crate) fn event_of(case: &Case, tmp: &str, project: &str) -> Map<String, Value> {
    let table = match &case.event {
        EventSpec::Fields(t) => t.clone(),
        EventSpec::Name(name) => {
            let mut t = case.fields.clone();
            t.insert("hook_event_name".into(), toml::Value::String(name.clone()));
            t
        }
    };
    let value = serde_json::to_value(&table).unwrap_or(Value::Null);
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
