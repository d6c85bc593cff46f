//! The validated hook configuration, and loading it from layered files.
//!
//! Two wire formats feed one model: hookrun's TOML (`toml_file.rs`, strict:
//! unknown keys are errors) and Claude Code's settings JSON (`claude.rs`,
//! loaded by Claude Code's own lenient rules, with every drop reported).
//! After loading, nothing invalid can reach the executor: matchers are
//! compiled, timeouts are durations, commands are non-empty.

mod claude;
mod discover;
pub(crate) mod json_locate;
mod layer;
mod model;
pub use crate::diagnostic::{Code, Diagnostic, Severity};
pub use claude::GUARD_EVENTS;
mod toml_file;
mod toml_raw;

use crate::dialect::id::Dialect;
use std::path::{Path, PathBuf};

use crate::error::Error;

pub use discover::{Discovery, discover};
use layer::Layer;
pub use model::{Action, Config, FailMode, Hook, Limits, LoadOptions, Order, Origin};
/// Loads and layers config files in order (spec 1.2: hook lists appended;
/// `disableAllHooks` takes the last value set; dedup happens per event).
///
/// # Errors
/// A file that is missing, unreadable or does not parse; an invalid TOML file.
pub fn load(paths: &[PathBuf], options: LoadOptions) -> Result<Config, Error> {
    let mut config = Config::default();
    let mut disable_all: Option<bool> = None;
    let mut policy_disable = false;
    let mut closed_default = false;
    for path in paths {
        let layer = read_layer(path, options)?;
        closed_default |= layer.closed_default;
        if let Some(d) = layer.disable_all {
            disable_all = Some(d);
            if layer.policy {
                policy_disable = d;
            }
        }
        if let Some(a) = layer.audit_log {
            config.audit_log = Some(a);
        }
        if let Some(k) = layer.audit_key_file {
            config.audit_key_file = Some(k);
        }
        if let Some(o) = layer.order {
            config.order = o;
        }
        config.order_by_event.extend(layer.order_by_event);
        if let Some(l) = layer.limits {
            l.apply(&mut config.limits);
        }
        config.hooks.extend(layer.hooks);
        config.notices.extend(layer.notices);
        config.warnings.extend(layer.warnings);
        config.files.push(path.clone());
    }
    if policy_disable {
        config.hooks.clear();
    } else if disable_all == Some(true) {
        config.hooks.retain(|h| h.origin.policy);
    }
    config.off = policy_disable || disable_all == Some(true);
    config.any_closed = options.default_fail_mode == FailMode::Closed
        || closed_default
        || config.hooks.iter().any(|h| h.fail_mode == FailMode::Closed);
    if config.hooks.is_empty() && !config.off {
        config.notices.push(no_hooks(&config.files));
    }
    Ok(config)
}

/// The notice for a config that defines no hook at all (an empty file, `{}`,
/// a file caught empty mid-save): every event would pass unguarded without
/// a word. Turning hookrun off on purpose is said with the off switch.
#[must_use]
pub fn no_hooks(files: &[PathBuf]) -> Diagnostic {
    let file = files.last().cloned().unwrap_or_default();
    let read = match files {
        [] => "no config file was found".to_owned(),
        [_] => "this file defines no hook".to_owned(),
        _ => format!(
            "none of the config files ({}) defines a hook",
            files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Diagnostic::new(
        Code::NoHooks,
        file,
        format!(
            "{read}: nothing guards this event; set `disable_all_hooks = true` (TOML) or `\"disableAllHooks\": true` (JSON) to turn hooks off on purpose"
        ),
    )
}

/// The JSON Schema of hookrun's TOML config.
#[must_use]
pub fn toml_schema() -> serde_json::Value {
    toml_raw::schema()
}

/// Reads and parses one file.
fn read_layer(path: &Path, options: LoadOptions) -> Result<Layer, Error> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::ConfigRead {
        path: path.to_owned(),
        source,
    })?;
    if text.trim().is_empty() {
        // An empty file (often one caught mid-save) defines no hook, in any
        // format: said by `load`, never a parse error that fails open.
        return Ok(Layer::default());
    }
    if is_toml(path, &text) {
        return toml_file::load(path, &text, options);
    }
    match crate::dialect::convert::agent_of_file(path, &text, options.format) {
        Ok(agent) if agent.is_claude_like() => {
            let mut layer = claude::load(path, &text, options)?;
            if crate::dialect::convert::ignores_if(agent) {
                drop_if(path, &text, agent, &mut layer);
            }
            Ok(layer)
        }
        Ok(agent) => match crate::dialect::convert::read_foreign(&text, agent) {
            Some(foreign) => foreign_layer(path, &text, foreign, options),
            None => claude::load(path, &text, options),
        },
        Err(why) => foreign_layer(path, &text, Err(why), options),
    }
}

/// An agent that reads its hooks file in Claude Code's shape but ignores
/// `if` (Codex) runs such a hook on every match, and so does hookrun, said.
fn drop_if(path: &Path, text: &str, agent: Dialect, layer: &mut Layer) {
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

/// Another agent's hooks file (Gemini CLI's settings, Cursor's
/// `hooks.json`): loaded as the hookrun TOML it converts to, with every hook
/// and finding pointed back at its key and line in the original file.
fn foreign_layer(
    path: &Path,
    text: &str,
    foreign: Result<crate::dialect::convert::Foreign, String>,
    options: LoadOptions,
) -> Result<Layer, Error> {
    let problem = |message: String, key: Option<String>| {
        let at = key
            .as_deref()
            .and_then(|k| json_locate::locate(text, k))
            .map(|o| crate::error::line_col(text, o));
        Error::Config(Box::new(crate::error::ConfigProblem {
            code: Code::WrongShape,
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
    let foreign = foreign.map_err(|m| problem(m, None))?;
    // The key of the original entry behind the TOML's `hooks[N]`.
    let original = |key: &str| -> Option<String> {
        let rest = key.strip_prefix("hooks[")?;
        let (n, tail) = rest.split_once(']')?;
        let origin = foreign.origins.get(n.parse::<usize>().ok()?)?;
        Some(format!("{origin}{tail}"))
    };
    let mut layer = toml_file::load(path, &foreign.toml, options).map_err(|e| match e {
        Error::Config(p) => {
            let key = p.key.as_deref().and_then(original);
            problem(
                format!("{} (read as a {} hooks file)", p.message, foreign.agent),
                key,
            )
        }
        other => other,
    })?;
    let locate =
        |key: &str| json_locate::locate(text, key).map(|o| crate::error::line_col(text, o));
    for (hook, key) in layer.hooks.iter_mut().zip(&foreign.origins) {
        hook.origin.key.clone_from(key);
        hook.origin.line_col = locate(key);
    }
    for d in layer.notices.iter_mut().chain(layer.warnings.iter_mut()) {
        let key = d.key.as_deref().and_then(original);
        let at = key.as_deref().and_then(locate);
        d.key = key;
        d.line = at.map(|(l, _)| l);
        d.column = at.map(|(_, c)| c);
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

/// Loads every file for `check`: a file that cannot be used becomes a
/// finding instead of stopping the load, every drop and lint of the loaders
/// is a finding, and `disableAllHooks` is not applied, so every hook is
/// seen.
#[must_use]
pub fn load_for_check(paths: &[PathBuf], options: LoadOptions) -> (Config, Vec<Diagnostic>) {
    let mut config = Config::default();
    let mut findings = Vec::new();
    let mut off = false;
    for path in paths {
        match read_layer(path, options) {
            Ok(layer) => {
                off |= layer.disable_all == Some(true);
                config.hooks.extend(layer.hooks);
                findings.extend(layer.notices);
                findings.extend(layer.warnings);
            }
            Err(Error::Config(p)) => {
                let mut d =
                    Diagnostic::new(p.code, path, p.message.clone()).at(p.at.line.zip(p.at.column));
                d.key = p.key.clone();
                d.fix = p.fix.clone();
                findings.push(d);
            }
            Err(e) => findings.push(Diagnostic::new(Code::Unreadable, path, e.to_string())),
        }
        config.files.push(path.clone());
    }
    let broken = findings.iter().any(|f| f.severity == Severity::Error);
    if config.hooks.is_empty() && !off && !broken && !paths.is_empty() {
        findings.push(no_hooks(&config.files));
    }
    (config, findings)
}

fn is_toml(path: &Path, text: &str) -> bool {
    match path.extension().and_then(|e| e.to_str()) {
        Some("toml") => true,
        Some("json") => false,
        _ => !text.trim_start().starts_with('{'),
    }
}
