//! Hooks files of other agents, read into hookrun's model: Gemini CLI's
//! settings, Cursor's and Copilot's hook files as the hooks their readers
//! find in them, and Codex's Claude-shaped file without the `if` it ignores.
//!
//! The readers are the dialect layer's (`readers.rs` says why).

use std::path::Path;

use super::json_locate;
use super::layer::Layer;
use super::model::LoadOptions;
use super::model::{
    Action, FailMode, Hook, Order, Origin, dedup_key, looks_like_millis, positive_msg,
    timeout_from_secs,
};
use super::readers::{Foreign, ForeignAction, ForeignHook};
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
        policy: options.foreign.is_managed(path),
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
            policy: layer.policy,
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
        ForeignAction::Unsupported(kind) => Action::Unsupported { kind: kind.clone() },
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
        Some(secs) => Some(
            timeout_from_secs(secs)
                .ok_or_else(|| fail(Code::BadTimeout, positive_msg(secs), ".timeout"))?,
        ),
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
