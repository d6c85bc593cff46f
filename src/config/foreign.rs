//! Hooks files of other agents, read into hookrun's model: Gemini CLI's
//! settings, Cursor's and Copilot's hook files as the hooks their readers
//! find in them, and Codex's Claude-shaped file without the `if` it ignores.
//!
//! Which agent a file belongs to and what its entries mean is each agent's
//! own knowledge, kept with its dialect, which sits above config (it
//! renders decisions, reads runs, and loads configs itself). So config
//! defines what it needs of such a reader ([`ForeignFiles`]) and the
//! dialect layer supplies it in [`LoadOptions`]: dependency inversion, with
//! no registration at a distance and nothing global, so every caller of
//! `config::load` says which readers it loads with. What a reader finds is
//! plain data ([`Foreign`]), validated here into hooks exactly as a TOML
//! file's are, each pointed at its key and line in the original file.

use std::path::Path;

use super::json_locate;
use super::layer::Layer;
use super::model::LoadOptions;
use super::model::{
    Action, FailMode, Hook, Order, Origin, dedup_key, looks_like_millis, timeout_from_secs,
};
use crate::agent::Dialect;
use crate::diagnostic::{Code, Diagnostic};
use crate::error::Error;
use crate::matcher::{Matcher, Syntax};

/// An agent that reads its hooks file in Claude Code's shape but ignores
/// `if` (Codex) runs such a hook on every match, and so does hookrun, said.
pub(super) fn drop_if(path: &Path, text: &str, agent: Dialect, layer: &mut Layer) {
    for hook in &mut layer.hooks {
        if hook.if_rule.take().is_some() {
            let key = format!("{}.if", hook.origin.key);
            let at = json_locate::locate(text, &key).map(|o| crate::error::line_col(text, o));
            layer.warnings.push(
                Diagnostic::new(
                    Code::AgentIgnoresKey,
                    path,
                    format!(
                        "{} ignores `if`: this hook runs on every event its matcher selects",
                        agent.as_str()
                    ),
                )
                .at(at)
                .key(key),
            );
        }
    }
}

/// What config needs of the readers of other agents' hooks files.
pub trait ForeignFiles: Sync {
    /// The agent whose format a JSON hooks file is in: `forced`
    /// (`--config-format`), else what its path or content says; Claude
    /// Code's shape when nothing says otherwise.
    ///
    /// # Errors
    /// The content fits several formats, or the agent has no hooks file.
    fn agent_of_file(
        &self,
        path: &Path,
        text: &str,
        forced: Option<Dialect>,
    ) -> Result<Dialect, String>;

    /// Whether an agent whose file has Claude Code's shape ignores `if`.
    fn ignores_if(&self, agent: Dialect) -> bool;

    /// The hooks in a file of an agent whose format is not Claude Code's;
    /// `None` for text that is not JSON (the Claude Code reader reports
    /// where it breaks).
    fn read(&self, agent: Dialect, text: &str) -> Option<Result<Foreign, String>>;

    /// The agent (as its users name it) whose own name for an event of the
    /// model `name` is, and the model's name: what a TOML file that names
    /// an event so is told to write instead.
    fn model_name_of(&self, name: &str) -> Option<(&'static str, &'static str)>;
}

impl std::fmt::Debug for dyn ForeignFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ForeignFiles")
    }
}

/// A foreign agent's hooks file as its reader found it: for `run`,
/// `check`, `explain` and `test` the hooks of the model, for `convert` the
/// hookrun TOML they are written as.
#[derive(Debug)]
pub struct Foreign {
    /// The agent the file belongs to.
    pub agent: Dialect,
    /// Its matchers are regexes (Gemini CLI's unanchored ones).
    pub regex_matchers: bool,
    /// Events (the model's names) whose hooks the agent runs one after
    /// another.
    pub sequential: Vec<String>,
    /// The hooks, in file order.
    pub hooks: Vec<ForeignHook>,
    /// Entries that could not be carried over.
    pub skipped: Vec<Skipped>,
}

/// One hook of another agent's file, in the model's terms.
#[derive(Debug)]
pub struct ForeignHook {
    /// Its JSON key, e.g. `hooks.BeforeTool[0].hooks[1]`.
    pub key: String,
    pub name: Option<String>,
    /// The model's name of its event.
    pub event: String,
    pub matcher: Option<String>,
    pub action: ForeignAction,
    /// In seconds; `None`: the event's default.
    pub timeout: Option<f64>,
    /// The agent blocks when the hook fails (Cursor's `failClosed`).
    pub fail_closed: bool,
    pub env: Vec<(String, String)>,
}

/// What one hook runs.
#[derive(Debug)]
pub enum ForeignAction {
    /// A shell command, which expects its agent's payload and answers.
    Command(String),
    /// `hookrun builtin NAME …`: the built-in again (reading the model);
    /// its options and its mode unless `enforce`.
    Builtin {
        name: String,
        options: Option<toml::Value>,
        mode: Option<String>,
    },
}

/// An entry of another agent's hooks file that is not carried over.
#[derive(Debug)]
pub struct Skipped {
    /// Its JSON key, e.g. `hooks.BeforeTool[0].hooks[1]`.
    pub key: String,
    /// Why, e.g. "no `command`: not converted".
    pub why: String,
    /// The entry is an event the agent does not know (the agent skips it too).
    pub unknown_event: bool,
}

/// Another agent's hooks file (Gemini CLI's settings, Cursor's and
/// Copilot's hook files) as a layer: each hook its reader found validated
/// as a TOML hook is, every hook and finding pointed at its key and line in
/// the original file.
pub(super) fn layer(
    path: &Path,
    text: &str,
    foreign: Result<Foreign, String>,
    options: LoadOptions,
) -> Result<Layer, Error> {
    let locate =
        |key: &str| json_locate::locate(text, key).map(|o| crate::error::line_col(text, o));
    let problem = |code: Code, message: String, key: Option<String>| {
        let at = key.as_deref().and_then(locate);
        Error::Config(Box::new(crate::error::ConfigProblem {
            code,
            at: crate::error::Location {
                path: path.to_owned(),
                line: at.map(|(l, _)| l),
                column: at.map(|(_, c)| c),
            },
            key,
            message,
            fix: None,
        }))
    };
    let foreign = foreign.map_err(|m| problem(Code::WrongShape, m, None))?;
    let mut layer = Layer {
        order_by_event: foreign
            .sequential
            .iter()
            .map(|e| {
                (
                    crate::events::canonical_name(e).to_owned(),
                    Order::Sequential,
                )
            })
            .collect(),
        ..Layer::default()
    };
    let config_dir = super::placeholder::config_dir(path);
    let mut errors = Vec::new();
    for h in &foreign.hooks {
        let fail = |code: Code, message: String, what: &str| {
            problem(
                code,
                format!(
                    "{message} (read as a {} hooks file)",
                    foreign.agent.as_str()
                ),
                Some(format!("{}{what}", h.key)),
            )
        };
        let origin = Origin {
            file: path.to_owned(),
            line_col: locate(&h.key),
            key: h.key.clone(),
            plugin_root: None,
            policy: false,
            untrusted: false,
        };
        match hook(h, &foreign, options, &config_dir, origin, &fail) {
            Ok(hook) => {
                if let Some(secs) = h.timeout.filter(|s| looks_like_millis(*s)) {
                    layer.warnings.push(
                        Diagnostic::new(
                            Code::MillisTimeout,
                            path,
                            format!(
                                "`timeout` is {secs} seconds; that looks like milliseconds (timeouts are in seconds)"
                            ),
                        )
                        .at(locate(&h.key))
                        .key(h.key.clone())
                        .fix(format!(
                            "write `timeout = {}` for {} seconds",
                            secs / 1000.0,
                            secs / 1000.0
                        )),
                    );
                }
                layer.hooks.push(hook);
            }
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors.swap_remove(0));
    }
    for skipped in foreign.skipped {
        let code = if skipped.unknown_event {
            Code::UnknownEvent
        } else {
            Code::Unsupported
        };
        let at = locate(&skipped.key);
        layer.warnings.push(
            Diagnostic::new(code, path, skipped.why)
                .at(at)
                .key(skipped.key),
        );
    }
    Ok(layer)
}

/// One hook of the file in the model; `fail` makes the error for a key
/// under the hook's.
fn hook(
    h: &ForeignHook,
    file: &Foreign,
    options: LoadOptions,
    config_dir: &Path,
    origin: Origin,
    fail: &dyn Fn(Code, String, &str) -> Error,
) -> Result<Hook, Error> {
    let action = match &h.action {
        ForeignAction::Command(command) if command.trim().is_empty() => {
            return Err(fail(
                Code::MissingCommand,
                "`command` may not be empty".into(),
                ".command",
            ));
        }
        ForeignAction::Command(command) => Action::Command {
            command: command.clone(),
            args: None,
        },
        ForeignAction::Builtin {
            name,
            options,
            mode,
        } => {
            let mode = match mode {
                None => crate::builtin::Mode::default(),
                Some(m) => serde_json::from_value(serde_json::Value::String(m.clone()))
                    .map_err(|e| fail(Code::WrongType, e.to_string(), ".mode"))?,
            };
            let options = options.as_ref().map_or(serde_json::Value::Null, |o| {
                serde_json::to_value(o).unwrap_or(serde_json::Value::Null)
            });
            crate::builtin::Builtin::new(name, options, mode)
                .map(|b| Action::Builtin(std::sync::Arc::new(b)))
                .map_err(|why| fail(Code::BadBuiltin, why, ".builtin"))?
        }
    };
    let action = super::placeholder::expand(action, config_dir);
    let events = vec![crate::events::canonical_name(&h.event).to_owned()];
    let matcher = match &h.matcher {
        Some(m) => {
            let syntax = if file.regex_matchers {
                Syntax::Regex
            } else {
                Syntax::default()
            };
            let compiled = Matcher::with_syntax(m, syntax);
            let readers = events
                .iter()
                .filter_map(|e| crate::events::info(e))
                .filter(|i| i.query_field.is_some());
            for info in readers {
                if let Some(why) = compiled.regex_error(info.names) {
                    return Err(fail(
                        Code::BadRegex,
                        format!(
                            "matcher `{m}` is not a list of names and not a valid regex: {why}"
                        ),
                        ".matcher",
                    ));
                }
            }
            Some(compiled)
        }
        None => None,
    };
    let timeout = match h.timeout {
        Some(secs) => Some(timeout_from_secs(secs).ok_or_else(|| {
            fail(
                Code::BadTimeout,
                super::toml_file::positive_msg(secs),
                ".timeout",
            )
        })?),
        None => None,
    };
    let input = matches!(h.action, ForeignAction::Command(_)).then_some(file.agent);
    let dedup_key = dedup_key(&action, None, None, None, &h.env, "");
    Ok(Hook {
        name: h.name.clone(),
        events,
        matcher,
        action,
        timeout,
        fail_mode: if h.fail_closed {
            FailMode::Closed
        } else {
            options.default_fail_mode
        },
        fail_mode_from_on_failure: false,
        fail_mode_explicit: h.fail_closed || options.explicit,
        input,
        is_async: false,
        env: h.env.clone(),
        if_rule: None,
        origin,
        dedup_key,
    })
}
