//! The config an event is evaluated with: discovered and loaded as `run`
//! and `serve` read it, without hookrun's own registrations, with the
//! command line's overrides, and cut to what the event's agent does not run
//! itself; its lints as the event's stderr lines.

use crate::cli::RunArgs;
use crate::config::{self, Config, FailMode, LoadOptions, Source};
use crate::error::Error;
use crate::event::Event;
use crate::output;

/// The variable `doctor --no-hooks` sets so that its canaries reach only
/// the built-in guards: `run` then drops every command hook of the config.
pub(crate) const BUILTINS_ONLY_VAR: &str = "HOOKRUN_BUILTINS_ONLY";

fn builtins_only() -> bool {
    std::env::var_os(BUILTINS_ONLY_VAR).is_some_and(|v| v == "1")
}

/// The config `run` evaluates its event with (and `serve` each of its
/// events, reloaded as it changes).
///
/// # Errors
/// The config cannot be loaded at all (a layer that cannot be read is
/// kept among `Config::unreadable` instead).
pub(crate) fn load_config(args: &RunArgs) -> Result<Config, Error> {
    let found = config::discover(&args.configs);
    let options = LoadOptions {
        explicit: args.fail_mode.is_some(),
        default_fail_mode: args.fail_mode.unwrap_or(FailMode::Open),
        format: args.config_format,
        foreign: crate::dialect::convert::HOOKS_FILES,
    };
    let mut config = config::load_found(&found, options)?;
    drop_registrations(&mut config, &found);
    if builtins_only() {
        keep_builtins_only(&mut config);
    }
    if found.is_empty() {
        output::diagnostic(&no_config_warning());
        // Run as a hook with nothing to run: what the user meant to run
        // cannot be evaluated (the trust rule decides).
        config.unreadable.push(config::Unreadable {
            path: std::path::PathBuf::new(),
            error: std::sync::Arc::new(Error::NoHooks(no_config_error())),
        });
    }
    apply_overrides(&mut config, args);
    Ok(config)
}

/// Drops every command hook ([`BUILTINS_ONLY_VAR`]), and says so.
fn keep_builtins_only(config: &mut Config) {
    let before = config.hooks.len();
    config
        .hooks
        .retain(|h| matches!(h.action, config::Action::Builtin(_)));
    let dropped = before - config.hooks.len();
    if dropped > 0 {
        // Never a quiet switch: set anywhere but by `doctor --no-hooks`,
        // it would turn guards off, so every answer says it.
        config.notices.push(crate::diagnostic::Diagnostic::new(
            crate::diagnostic::Code::BuiltinsOnly,
            config.files.first().cloned().unwrap_or_default(),
            format!(
                "{BUILTINS_ONLY_VAR}=1 is set: {dropped} command hook(s) of the config were not run (only `hookrun doctor --no-hooks` should set it)"
            ),
        ));
    }
}

/// What the command line sets over the files: the audit log and its key,
/// and the limits.
fn apply_overrides(config: &mut Config, args: &RunArgs) {
    if let Some(p) = &args.audit_log {
        config.audit_log = Some(p.clone());
    }
    if let Some(k) = &args.audit_key_file {
        config.audit_key_file = Some(k.clone());
    }
    if let Some(v) = args.max_event_bytes {
        config.limits.max_event_bytes = v;
    }
    if let Some(v) = args.max_output_bytes {
        config.limits.max_output_bytes = v;
    }
}

/// Leaves out hookrun's own registrations read from Claude Code's
/// discovered settings: running one again would recurse. What `run`,
/// `explain` and `config` share.
pub(crate) fn drop_registrations(config: &mut Config, found: &[config::Found]) {
    let claude_layers: Vec<&std::path::Path> = found
        .iter()
        .filter(|f| f.source == Source::ClaudeLayers)
        .map(|f| f.path.as_path())
        .collect();
    config
        .hooks
        .retain(|h| !(claude_layers.contains(&h.origin.file.as_path()) && h.runs_hookrun()));
}

/// The config as the event's agent gets it run: without the hooks that
/// agent runs itself from its own files (`install::agent_own`). What `run`,
/// `serve`, `explain`, `test` and `config` all evaluate.
pub(crate) fn for_event<'a>(config: &'a Config, event: &Event) -> std::borrow::Cow<'a, Config> {
    for_dialect(config, event.dialect)
}

/// [`for_event`] for a dialect, in the session's project directory
/// (`$CLAUDE_PROJECT_DIR`, else the current one).
pub(crate) fn for_dialect(
    config: &Config,
    dialect: crate::dialect::Dialect,
) -> std::borrow::Cow<'_, Config> {
    let project = config::project_dir().unwrap_or_default();
    crate::install::agent_own::for_agent(
        config,
        dialect,
        &project,
        &crate::install::location::Homes::from_env(),
    )
}

/// The error for a run that found no config file: where discovery looked,
/// and how to write one.
fn no_config_error() -> String {
    format!(
        "no config file found (no --config; looked for {}), so nothing the user configured could be run; `hookrun init` writes a starter hookrun.toml here (`hookrun init ~/.config/hookrun` for every project)",
        config::looked_for().join(", ")
    )
}

/// The warning for a run that found no config file at all.
pub(crate) fn no_config_warning() -> String {
    format!(
        "warning: no config file found (looked for {}); `hookrun init` writes one",
        config::looked_for().join(", ")
    )
}

/// The config's lints as stderr lines for this event. An agent that reads a
/// block's whole stderr as the reason the model sees would show these lints
/// to the model: for it they stay with `check`.
pub(crate) fn warnings(config: &Config, event: &Event) -> Vec<String> {
    if crate::dialect::protocol(event.dialect).stderr_is_reason() {
        return Vec::new();
    }
    config
        .warnings
        .iter()
        .map(|w| format!("warning: {w}"))
        .collect()
}
