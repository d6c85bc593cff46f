//! hookrun's own TOML format (documented key by key in
//! `hooks.example.toml`). Strict on purpose: an unknown key, a wrong type or
//! a matcher that does not compile is an error naming the file, line, column
//! and key, because a typo must never silently disable a guard.

use std::path::Path;

use super::layer::Layer;
use super::model::{
    Action, FailMode, Hook, LoadOptions, Origin, dedup_key, looks_like_millis, positive_msg,
    timeout_from_secs,
};
use super::readers::ForeignFiles;
use super::toml_raw::{OnFailure, OneOrMany, RawFile, RawHook};
use super::toml_shape;
use crate::diagnostic::{Code, Diagnostic};
use crate::error::{ConfigProblem, Error, Location, line_col};
use crate::matcher::Matcher;

type ErrAt<'a> = dyn Fn(Code, Option<std::ops::Range<usize>>, Option<String>, String) -> Error + 'a;

/// The keys that make a hook one kind or another; exactly one is given.
const KIND_KEYS: &[&str] = &["command", "builtin", "http", "prompt", "agent", "mcp_tool"];

/// A hook's action: exactly one kind (a command in shell or exec form, a
/// built-in, an http request, a prompt, an agent or an MCP tool), with
/// every key that belongs to another kind refused.
fn action_of(
    h: &RawHook,
    key: &str,
    span: std::ops::Range<usize>,
    err_at: &ErrAt<'_>,
) -> Result<Action, Error> {
    let kinds: Vec<(&str, Option<std::ops::Range<usize>>)> = [
        h.command.as_ref().map(toml::Spanned::span),
        h.builtin.as_ref().map(toml::Spanned::span),
        h.http.as_ref().map(toml::Spanned::span),
        h.prompt.as_ref().map(toml::Spanned::span),
        h.agent.as_ref().map(toml::Spanned::span),
        h.mcp_tool.as_ref().map(toml::Spanned::span),
    ]
    .into_iter()
    .zip(KIND_KEYS)
    .filter_map(|(span, kind)| span.map(|s| (*kind, Some(s))))
    .collect();
    let (kind, kind_span) = match kinds.as_slice() {
        [] => {
            return Err(err_at(
                Code::MissingCommand,
                Some(span),
                Some(format!("{key}.command")),
                "missing `command` (a shell command, or the program when `args` is given), `builtin`, `http`, `prompt`, `agent` or `mcp_tool`"
                    .into(),
            ));
        }
        [one] => one.clone(),
        [_, (second, at), ..] => {
            return Err(err_at(
                Code::WrongShape,
                at.clone(),
                Some(format!("{key}.{second}")),
                format!(
                    "a hook has one of {}, not several",
                    KIND_KEYS
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
    };
    // Each key that belongs to some kinds only, and which.
    let owned: [(&str, bool, &[&str]); 10] = [
        ("args", h.args.is_some(), &["command"]),
        ("async", h.is_async, &["command"]),
        ("env", !h.env.is_empty(), &["command"]),
        ("options", h.options.is_some(), &["builtin"]),
        ("mode", h.mode.is_some(), &["builtin"]),
        ("headers", h.headers.is_some(), &["http"]),
        ("allowed_env_vars", h.allowed_env_vars.is_some(), &["http"]),
        ("model", h.model.is_some(), &["prompt", "agent"]),
        ("provider", h.provider.is_some(), &["prompt"]),
        (
            "continue_on_block",
            h.continue_on_block.is_some(),
            &["prompt"],
        ),
    ];
    if let Some((what, _, kinds)) = owned
        .iter()
        .find(|(_, given, kinds)| *given && !kinds.contains(&kind))
    {
        let owners = kinds
            .iter()
            .map(|k| format!("{k} hooks"))
            .collect::<Vec<_>>()
            .join(" and ");
        return Err(err_at(
            Code::WrongShape,
            None,
            Some(format!("{key}.{what}")),
            format!(
                "`{what}` applies only to {owners}, and this is {} {kind} hook",
                if matches!(kind, "agent" | "http" | "mcp_tool") {
                    "an"
                } else {
                    "a"
                }
            ),
        ));
    }
    let text_of = |value: Option<&toml::Spanned<String>>| -> Result<String, Error> {
        let value = value.map(|v| v.get_ref().clone()).unwrap_or_default();
        if value.trim().is_empty() {
            return Err(err_at(
                Code::MissingCommand,
                kind_span.clone(),
                Some(format!("{key}.{kind}")),
                format!("`{kind}` may not be empty"),
            ));
        }
        Ok(value)
    };
    match kind {
        "command" => Ok(Action::Command {
            command: text_of(h.command.as_ref())?,
            args: h.args.clone(),
        }),
        "builtin" => match &h.builtin {
            Some(name) => builtin_action(h, name, key, err_at),
            None => Err(missing_kind(kind, key, kind_span, err_at)),
        },
        "http" => {
            let url = h
                .http
                .as_ref()
                .map(|u| u.get_ref().clone())
                .unwrap_or_default();
            http_action(h, url, key, kind_span, err_at)
        }
        "prompt" => Ok(Action::Prompt {
            prompt: text_of(h.prompt.as_ref())?,
            model: h.model.clone(),
            provider: h.provider.unwrap_or_default(),
            continue_on_block: h.continue_on_block.unwrap_or(false),
        }),
        "agent" => Ok(Action::Agent {
            prompt: text_of(h.agent.as_ref())?,
            model: h.model.clone(),
        }),
        _ => {
            let Some(call) = &h.mcp_tool else {
                return Err(missing_kind(kind, key, kind_span, err_at));
            };
            let call = call.get_ref();
            for (what, value) in [("server", &call.server), ("tool", &call.tool)] {
                if value.trim().is_empty() {
                    return Err(err_at(
                        Code::MissingCommand,
                        kind_span.clone(),
                        Some(format!("{key}.mcp_tool.{what}")),
                        format!("`mcp_tool.{what}` may not be empty"),
                    ));
                }
            }
            Ok(Action::McpTool {
                server: call.server.clone(),
                tool: call.tool.clone(),
                input: call.input.clone(),
            })
        }
    }
}

/// The error for a kind key found and then not there: cannot happen with
/// the kinds read above, and is an error rather than a panic if it does.
fn missing_kind(
    kind: &str,
    key: &str,
    span: Option<std::ops::Range<usize>>,
    err_at: &ErrAt<'_>,
) -> Error {
    err_at(
        Code::MissingCommand,
        span,
        Some(format!("{key}.{kind}")),
        format!("`{kind}` could not be read"),
    )
}

/// A built-in hook's action: its options checked by the guard.
fn builtin_action(
    h: &RawHook,
    name: &toml::Spanned<String>,
    key: &str,
    err_at: &ErrAt<'_>,
) -> Result<Action, Error> {
    let options = match &h.options {
        Some(o) => serde_json::to_value(o.get_ref()).unwrap_or(serde_json::Value::Null),
        None => serde_json::Value::Null,
    };
    let span = h
        .options
        .as_ref()
        .map_or_else(|| name.span(), toml::Spanned::span);
    crate::builtin::Builtin::new(name.get_ref(), options, h.mode.unwrap_or_default())
        .map(|b| Action::Builtin(std::sync::Arc::new(b)))
        .map_err(|why| {
            err_at(
                Code::BadBuiltin,
                Some(span),
                Some(format!("{key}.builtin")),
                why,
            )
        })
}

/// An `http` hook's action: its URL checked.
fn http_action(
    h: &RawHook,
    url: String,
    key: &str,
    span: Option<std::ops::Range<usize>>,
    err_at: &ErrAt<'_>,
) -> Result<Action, Error> {
    if let Err(why) = crate::config::model::check_url(&url) {
        return Err(err_at(
            Code::WrongType,
            span,
            Some(format!("{key}.http")),
            format!("`http` {url:?} is not a URL hookrun can POST to: {why}"),
        ));
    }
    Ok(Action::Http {
        url,
        headers: h
            .headers
            .iter()
            .flatten()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        allowed_env_vars: h.allowed_env_vars.clone().unwrap_or_default(),
    })
}

/// One `[mcp_servers.NAME]`: exactly one of `command` (stdio) and `url`
/// (streamable HTTP), each with only its own keys.
fn mcp_server_of(
    name: &str,
    raw: &super::toml_raw::RawMcpServer,
    path: &Path,
) -> Result<super::model::McpServer, String> {
    use super::model::McpTransport;
    let pairs = |m: &Option<std::collections::BTreeMap<String, String>>| {
        m.iter()
            .flatten()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect::<Vec<_>>()
    };
    let transport = match (&raw.command, &raw.url) {
        (Some(command), None) => {
            if raw.headers.is_some() {
                return Err("`headers` applies only to a server with a `url`".into());
            }
            if command.trim().is_empty() {
                return Err("`command` may not be empty".into());
            }
            McpTransport::Stdio {
                command: command.clone(),
                args: raw.args.clone().unwrap_or_default(),
                env: pairs(&raw.env),
            }
        }
        (None, Some(url)) => {
            if raw.args.is_some() || raw.env.is_some() {
                return Err("`args` and `env` apply only to a server with a `command`".into());
            }
            crate::config::model::check_url(url)
                .map_err(|why| format!("`url` {url:?} is not a server URL: {why}"))?;
            McpTransport::Http {
                url: url.clone(),
                headers: pairs(&raw.headers),
            }
        }
        (Some(_), Some(_)) => {
            return Err(
                "a server has `command` (stdio) or `url` (streamable HTTP), not both".into(),
            );
        }
        (None, None) => {
            return Err("a server needs `command` (stdio) or `url` (streamable HTTP)".into());
        }
    };
    Ok(super::model::McpServer {
        name: name.to_owned(),
        transport,
        file: path.to_owned(),
    })
}

/// Where a key of a table is written (the first line from the table's
/// header to the next header that starts with its last name), else the
/// table.
fn key_span(text: &str, table: std::ops::Range<usize>, key: &str) -> std::ops::Range<usize> {
    let name = key.rsplit('.').next().unwrap_or(key);
    let body = text.get(table.start..).unwrap_or("");
    let mut offset = 0;
    for (i, line) in body.split_inclusive('\n').enumerate() {
        let trimmed = line.trim_start();
        if i > 0 && trimmed.starts_with('[') {
            break;
        }
        if trimmed
            .strip_prefix(name)
            .is_some_and(|rest| rest.trim_start().starts_with(['=', '.']))
        {
            let start = table.start + offset + (line.len() - trimmed.len());
            return start..start + name.len();
        }
        offset += line.len();
    }
    table
}

pub(super) fn load(path: &Path, text: &str, options: LoadOptions) -> Result<Layer, Error> {
    let (layer, mut errors) = load_all(path, text, options);
    if errors.is_empty() {
        Ok(layer)
    } else {
        Err(errors.swap_remove(0))
    }
}

/// As [`load`], with every error found rather than the first (for
/// `check`): a syntax error stops the parse, so it comes alone; else every
/// unknown key and wrong type of each part of the file, and when the shape
/// is right every invalid value of each hook. The first error is the one
/// [`load`] reports. The layer holds the hooks that are valid, so `check`
/// still lints them.
pub(super) fn load_all(path: &Path, text: &str, options: LoadOptions) -> (Layer, Vec<Error>) {
    let err_at =
        |code: Code, span: Option<std::ops::Range<usize>>, key: Option<String>, message: String| {
            let (line, column) = span.map(|s| line_col(text, s.start)).unzip();
            Error::Config(Box::new(ConfigProblem {
                code,
                at: Location {
                    path: path.to_owned(),
                    line,
                    column,
                },
                key,
                message,
                fix: None,
            }))
        };
    let table = match toml::de::DeTable::parse(text) {
        Ok(table) => table,
        Err(e) => {
            let error = err_at(Code::Syntax, e.span(), None, e.message().to_owned());
            return (Layer::default(), vec![error]);
        }
    };
    let raw: RawFile =
        match serde_path_to_error::deserialize(toml::de::Deserializer::from(table.clone())) {
            Ok(raw) => raw,
            Err(e) => {
                let mut errors = vec![shape_error(e, "", &err_at)];
                for more in toml_shape::every_error(table) {
                    let more = match more {
                        toml_shape::Failure::File(e) => shape_error(e, "", &err_at),
                        toml_shape::Failure::Hook(i, e) => {
                            shape_error(e, &format!("hooks[{i}]."), &err_at)
                        }
                    };
                    if !errors.iter().any(|e| same_problem(e, &more)) {
                        errors.push(more);
                    }
                }
                return (Layer::default(), errors);
            }
        };
    let mut errors = Vec::new();
    let audit_log = raw
        .defaults
        .audit_log
        .as_ref()
        .map(|p| crate::dirs::dir_of(path).join(p));
    let audit_key_file = raw
        .defaults
        .audit_key_file
        .as_ref()
        .map(|p| crate::dirs::dir_of(path).join(p));
    let order_by_event = raw
        .events
        .iter()
        .filter_map(|(e, v)| {
            v.order
                .map(|o| (crate::events::canonical_name(e).to_owned(), o))
        })
        .collect();
    let index = crate::error::LineIndex::new(text);
    let config_dir = super::placeholder::config_dir(path);
    let mut layer = Layer {
        audit_log,
        audit_key_file,
        order: raw.defaults.order,
        order_by_event,
        limits: raw.limits,
        disable_all: raw.disable_all_hooks,
        closed_default: raw.defaults.fail_mode == Some(FailMode::Closed),
        ..Layer::default()
    };
    if let Some(t) = raw.telemetry {
        let span = t.span();
        match super::telemetry_table::TelemetryTable::of_raw(t.into_inner(), path) {
            Ok(table) => layer.telemetry = Some(table),
            Err((key, why)) => {
                let at = key_span(text, span, &key);
                errors.push(err_at(Code::WrongShape, Some(at), Some(key), why));
            }
        }
    }
    for (name, server) in &raw.mcp_servers {
        match mcp_server_of(name, server.get_ref(), path) {
            Ok(s) => layer.mcp_servers.push(s),
            Err(why) => errors.push(err_at(
                Code::WrongShape,
                Some(server.span()),
                Some(format!("mcp_servers.{name}")),
                why,
            )),
        }
    }
    let default_timeout = match raw.defaults.timeout {
        Some(t) => {
            let d = timeout_from_secs(*t.get_ref());
            if d.is_none() {
                errors.push(err_at(
                    Code::BadTimeout,
                    Some(t.span()),
                    Some("defaults.timeout".into()),
                    positive_msg(*t.get_ref()),
                ));
            }
            d
        }
        None => None,
    };
    let default_fail_mode = raw.defaults.fail_mode.unwrap_or(options.default_fail_mode);
    for (i, spanned) in raw.hooks.into_iter().enumerate() {
        // One hook's first invalid value; the next hooks are still read.
        let hook = (|| -> Result<Hook, Error> {
            let key = format!("hooks[{i}]");
            let span = spanned.span();
            let h = spanned.into_inner();
            let events: Vec<String> = match h.event.get_ref() {
                OneOrMany::One(e) => vec![e.clone()],
                OneOrMany::Many(es) => es.clone(),
            };
            if events.is_empty() || events.iter().any(|e| e.trim().is_empty()) {
                return Err(err_at(
                    Code::WrongType,
                    Some(h.event.span()),
                    Some(format!("{key}.event")),
                    "an event name may not be empty".into(),
                ));
            }
            let events: Vec<String> = events
                .iter()
                .map(|e| crate::events::canonical_name(e).to_owned())
                .collect();
            if let Some((message, fix)) =
                events.iter().find_map(|e| not_an_event(e, options.foreign))
            {
                let (line, column) = line_col(text, h.event.span().start);
                return Err(Error::Config(Box::new(ConfigProblem {
                    code: Code::NoSuchEvent,
                    at: Location {
                        path: path.to_owned(),
                        line: Some(line),
                        column: Some(column),
                    },
                    key: Some(format!("{key}.event")),
                    message,
                    fix,
                })));
            }
            let action = super::placeholder::expand(
                action_of(&h, &key, span.clone(), &err_at)?,
                &config_dir,
            );
            let matcher = match h.matcher {
                Some(m) => {
                    let syntax = h
                        .matcher_syntax
                        .or(raw.defaults.matcher_syntax)
                        .unwrap_or_default();
                    let compiled = Matcher::with_syntax(m.get_ref(), syntax);
                    // Only events with a matcher field read the matcher; on the
                    // others it is ignored (a lint for `check`, not an error).
                    let readers = events
                        .iter()
                        .filter_map(|e| crate::events::info(e))
                        .filter(|i| i.query_field.is_some());
                    for info in readers {
                        if let Some(why) = compiled.regex_error(info.names) {
                            return Err(err_at(
                                Code::BadRegex,
                                Some(m.span()),
                                Some(format!("{key}.matcher")),
                                format!(
                                    "matcher `{}` is not a list of names and not a valid regex: {why}",
                                    m.get_ref()
                                ),
                            ));
                        }
                    }
                    Some(compiled)
                }
                None => None,
            };
            let timeout = match h.timeout {
                Some(t) => {
                    let secs = *t.get_ref();
                    let d = timeout_from_secs(secs).ok_or_else(|| {
                        err_at(
                            Code::BadTimeout,
                            Some(t.span()),
                            Some(format!("{key}.timeout")),
                            positive_msg(secs),
                        )
                    })?;
                    if looks_like_millis(secs) {
                        let d = Diagnostic::new(
                            Code::MillisTimeout,
                            path,
                            format!(
                                "`timeout` is {secs} seconds; that looks like milliseconds (timeouts are in seconds)"
                            ),
                        );
                        let d = d
                            .at(Some(line_col(text, t.span().start)))
                            .key(format!("{key}.timeout"));
                        layer.warnings.push(d.fix(format!(
                            "write `timeout = {}` for {} seconds",
                            secs / 1000.0,
                            secs / 1000.0
                        )));
                    }
                    Some(d)
                }
                None => default_timeout,
            };
            let env: Vec<(String, String)> = h.env.into_iter().collect();
            let dedup_key = dedup_key(&action, None, h.if_rule.as_deref(), None, &env, "");
            Ok(Hook {
                name: h.name,
                events,
                matcher,
                action,
                timeout,
                fail_mode: match h.on_failure {
                    Some(OnFailure::Block) => FailMode::Closed,
                    Some(OnFailure::Continue) => FailMode::Open,
                    None => h.fail_mode.unwrap_or(default_fail_mode),
                },
                fail_mode_from_on_failure: h.on_failure.is_some(),
                fail_mode_explicit: h.fail_mode.is_some()
                    || h.on_failure.is_some()
                    || raw.defaults.fail_mode.is_some()
                    || options.explicit,
                input: h.input,
                is_async: h.is_async,
                env,
                if_rule: h.if_rule,
                origin: Origin {
                    file: path.to_owned(),
                    key,
                    line_col: Some(index.line_col(span.start)),
                    plugin_root: None,
                    policy: false,
                    untrusted: false,
                },
                dedup_key,
            })
        })();
        match hook {
            Ok(hook) => layer.hooks.push(hook),
            Err(e) => errors.push(e),
        }
    }
    (layer, errors)
}

/// A finding from serde's error at `prefix` + its path.
fn shape_error<E: serde::de::Error + Into<toml::de::Error>>(
    e: serde_path_to_error::Error<E>,
    prefix: &str,
    err_at: &ErrAt<'_>,
) -> Error {
    // `Spanned` fields add an internal segment to the path; drop it.
    let key = e
        .path()
        .to_string()
        .replace(".$__serde_spanned_private_value", "");
    let key = format!("{prefix}{key}");
    let key = key.trim_end_matches('.').to_owned();
    let inner: toml::de::Error = e.into_inner().into();
    let message = inner.message().replace("expected f64", "expected a number");
    let code = if message.starts_with("unknown field") {
        Code::UnknownKey
    } else if message.contains("missing field `command`") {
        Code::MissingCommand
    } else if message.starts_with("missing field") {
        Code::WrongShape
    } else {
        Code::WrongType
    };
    let fix = unknown_field_fix(&message);
    let mut err = err_at(
        code,
        inner.span(),
        (!key.is_empty()).then_some(key),
        message,
    );
    if let Error::Config(problem) = &mut err {
        problem.fix = fix;
    }
    err
}

fn same_problem(a: &Error, b: &Error) -> bool {
    match (a, b) {
        (Error::Config(a), Error::Config(b)) => a.key == b.key && a.message == b.message,
        _ => false,
    }
}

/// "did you mean `timeout`?" for serde's "unknown field `timout`, expected
/// one of `a`, `b`".
fn unknown_field_fix(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    let (field, expected) = rest.split_once('`')?;
    let candidates: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    crate::suggest::nearest(field, candidates).map(|n| format!("did you mean `{n}`?"))
}

/// Why `name` cannot be an event of hookrun's TOML, and the fix: TOML
/// names events as hookrun's model does (Claude Code's names, the
/// agent-only events of `events::AGENT_ONLY`, pydantic-deep's snake_case
/// tool events and its lifecycle events). A name that is another agent's own for one of those
/// (`BeforeTool`, `preToolUse`, `beforeShellExecution`) is refused with the
/// name to write, never guessed: one TOML file means one thing under every
/// agent. Any other name would match no event of any agent, so its hooks
/// would silently never run.
fn not_an_event(name: &str, foreign: &dyn ForeignFiles) -> Option<(String, Option<String>)> {
    if crate::events::known(name).is_some() || crate::events::PYDANTIC_LIFECYCLE.contains(&name) {
        return None;
    }
    let foreign = foreign.model_name_of(name);
    if let Some((agent, ours)) = foreign {
        return Some((
            format!(
                "`{name}` is {agent}'s name for `{ours}`; hookrun TOML names events as Claude Code does, for every agent"
            ),
            Some(format!("write `event = \"{ours}\"`")),
        ));
    }
    let near = crate::events::nearest(name).or_else(|| {
        crate::suggest::nearest(name, crate::events::AGENT_ONLY.iter().map(|e| e.name))
    });
    Some((
        format!("`{name}` is no agent's event: its hooks would never run"),
        near.map(|n| format!("did you mean `{n}`?")),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> LoadOptions {
        LoadOptions {
            explicit: false,
            default_fail_mode: FailMode::Open,
            format: None,
            foreign: crate::dialect::convert::HOOKS_FILES,
        }
    }

    fn error_of(text: &str) -> String {
        match load(Path::new("h.toml"), text, opts()) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("expected an error"),
        }
    }

    #[test]
    fn unknown_key_names_file_line_and_key() {
        let msg = error_of("[[hooks]]\nevent = \"Stop\"\ncommand = \"true\"\ntimout = 5\n");
        assert!(msg.contains("h.toml:4:1"), "{msg}");
        assert!(msg.contains("timout"), "{msg}");
    }

    #[test]
    fn bad_regex_and_bad_timeout_are_errors() {
        let msg =
            error_of("[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"(\"\ncommand = \"true\"\n");
        assert!(
            msg.contains("h.toml:3:11") && msg.contains("hooks[0].matcher"),
            "{msg}"
        );
        let msg = error_of("[[hooks]]\nevent = \"Stop\"\ncommand = \"true\"\ntimeout = 0\n");
        assert!(
            msg.contains("hooks[0].timeout") && msg.contains(":4:"),
            "{msg}"
        );
    }

    #[test]
    fn missing_command_is_an_error() {
        let msg = error_of("[[hooks]]\nevent = \"Stop\"\n");
        assert!(msg.contains("hooks[0].command"), "{msg}");
    }

    #[test]
    fn events_lists_aliases_and_millis_warning() {
        let layer = load(
            Path::new("h.toml"),
            "[defaults]\nfail_mode = \"closed\"\n[[hooks]]\nevent = [\"pre_tool_use\", \"Stop\"]\ncommand = \"true\"\ntimeout = 30000\n",
            opts(),
        )
        .unwrap();
        assert_eq!(layer.hooks[0].events, ["PreToolUse", "Stop"]);
        assert_eq!(layer.hooks[0].fail_mode, FailMode::Closed);
        assert_eq!(layer.warnings.len(), 1);
    }
}
