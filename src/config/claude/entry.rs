//! What parsing one Claude Code settings file works with: its context, the
//! problem an entry can have, and typed readers of a handler's fields.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::config::model::{Hook, LoadOptions};
use crate::diagnostic::{Code, Diagnostic};
use crate::wording::kind_of;

/// A problem with one entry: its code and what is wrong.
pub(super) type Problem = (Code, String);

/// Parsing one settings file: where, its text, and what it has kept so far.
pub(super) struct Ctx<'a> {
    pub(super) path: &'a Path,
    pub(super) text: &'a str,
    pub(super) options: LoadOptions,
    /// How the file's agent reads it.
    pub(super) rules: crate::config::readers::ShapeRules,
    pub(super) plugin_root: Option<PathBuf>,
    pub(super) policy: bool,
    pub(super) hooks: Vec<Hook>,
    pub(super) notices: Vec<Diagnostic>,
    pub(super) warnings: Vec<Diagnostic>,
    /// The first invalid entry under a guard event: the file is ignored.
    pub(super) guard_problem: Option<String>,
    /// Events a group of which asks for its hooks one after another.
    pub(super) sequential: Vec<String>,
}

pub(super) fn wrong_type(key: &str, value: &Value, expected: &str) -> Problem {
    (
        Code::WrongType,
        format!("has a `{key}` that is {}, not {expected}", kind_of(value)),
    )
}

pub(super) fn opt_str(h: &Map<String, Value>, key: &str) -> Result<Option<String>, Problem> {
    match h.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(wrong_type(key, other, "a string")),
    }
}

pub(super) fn opt_bool(h: &Map<String, Value>, key: &str) -> Result<bool, Problem> {
    match h.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(wrong_type(key, other, "a boolean")),
    }
}
