//! `hookrun run`: config → event → select → exec → answer → decision → output.

use crate::cli::RunArgs;
use crate::config::{self, Config, FailMode, LoadOptions, Source};
use crate::error::{Error, ExitStatus};
use crate::event::{self, Event};
use crate::output;
use crate::pipeline;
use crate::rendered::Rendered;

mod audit_line;

/// Nesting depth past which `run` refuses to start: a config that runs
/// `hookrun run` on itself would otherwise fork without end.
const MAX_DEPTH: u32 = 8;

/// Runs one event and returns the exit code. Never panics on bad input:
/// every problem becomes an `Error`, answered as a block where a guard fails
/// closed, in the caller's shape.
///
/// The event is handled on a thread whose stack fits the deepest event
/// hookrun reads, not on the main thread, whose stack the user's
/// `ulimit -s` sets (`os::on_event_stack`).
///
/// # Errors
/// An interruption, or hookrun's own error where no guard fails closed.
pub fn execute(args: &RunArgs) -> Result<ExitStatus, Error> {
    crate::os::on_event_stack(crate::os::main_stack(), |stack| {
        event::limit_to_stack(stack);
        execute_here(args)
    })
}

fn execute_here(args: &RunArgs) -> Result<ExitStatus, Error> {
    let started = std::time::Instant::now();
    let config = match load_config(args) {
        Ok(c) => c,
        Err(e) => {
            let e = e.closed_if(own_errors_block(args, false));
            if !e.blocks() {
                return Err(e);
            }
            return Ok(block_unread_event(
                &e,
                args.event.as_deref(),
                args.dialect,
                stdin_timeout(args),
            ));
        }
    };
    let depth = crate::launch::inherited_depth();
    let event = match admit(&config, args, depth, || {
        event::read_stdin(config.limits.max_event_bytes, stdin_timeout(args))
    }) {
        Ok(e) => e,
        Err(refusal) => {
            let answer = refusal.answer();
            output::emit(&answer);
            return Ok(answer.exit_code);
        }
    };
    for w in warnings(&config, &event) {
        output::diagnostic(&w);
    }
    run_event(&config, &event, args, depth, started)
}

/// Whether hookrun's own failure on an event blocks it (where the event
/// can block): unless the user chose `--on-error allow`, it does; a guard
/// that asked to fail closed (`fail_mode = "closed"` in a layer that could
/// be read, `--fail-mode closed`) keeps it blocking even then.
pub(crate) fn own_errors_block(args: &RunArgs, config_closed: bool) -> bool {
    args.on_error.blocks() || config_closed || args.fail_mode == Some(FailMode::Closed)
}

fn stdin_timeout(args: &RunArgs) -> std::time::Duration {
    args.stdin_timeout.max(std::time::Duration::from_millis(1))
}

/// An event `admit` refused: the error (closed where a guard fails closed)
/// and the event when it could be read, so that the block is in the
/// caller's shape.
pub(crate) struct Refusal {
    pub(crate) error: Error,
    pub(crate) event: Option<Box<Event>>,
    /// The caller's dialect when `--dialect` named it.
    pub(crate) dialect: Option<crate::dialect::Dialect>,
}

impl Refusal {
    /// What the caller gets: a block in its dialect when the event was read
    /// and a guard fails closed; otherwise hookrun's error answer.
    pub(crate) fn answer(&self) -> Rendered {
        match &self.event {
            Some(event) if self.error.blocks() => own_block(event, &self.error),
            _ => unread_answer(&self.error, self.dialect),
        }
    }
}

/// Everything between a loaded config and an event the hooks may see:
/// reading (`read` gives the raw bytes) and parsing the event, a config left
/// without hooks under a closed guard, the nesting check, and a forced
/// `--event` name that nothing listens to. `run` and `serve` share it so
/// that both refuse the same inputs the same way: every refusal blocks where
/// a guard fails closed, and every refused event leaves an audit line.
///
/// # Errors
/// The refusal, with the event when it was read.
pub(crate) fn admit(
    config: &Config,
    args: &RunArgs,
    depth: u32,
    read: impl FnOnce() -> Result<Vec<u8>, Error>,
) -> Result<Event, Refusal> {
    let event = match read()
        .and_then(|raw| crate::dialect::read_event_as(raw, args.event.as_deref(), args.dialect))
    {
        Ok(e) => e,
        Err(e) => {
            // A refused event is an event too: it leaves a line.
            audit_unfinished(config, args.event.as_deref(), &e);
            return Err(Refusal {
                error: e.closed_if(own_errors_block(args, config.any_closed)),
                event: named_only(args.event.as_deref(), args.dialect),
                dialect: args.dialect,
            });
        }
    };
    let problem = if config.hooks.is_empty()
        && !config.off
        && config.any_closed
        && config.unreadable.is_empty()
    {
        // A closed guard whose config lost every hook (emptied, caught
        // mid-save) must not let events through.
        Some(Error::NoHooks(
            crate::config::no_hooks(&config.files).to_string(),
        ))
    } else if depth >= MAX_DEPTH {
        Some(Error::Nested { depth })
    } else if let Some(forced) = &args.event
        && event.info.is_none()
        && !config.hooks.iter().any(|h| h.events.contains(&event.name))
    {
        // A typo in `--event` would otherwise match nothing and allow.
        let near = crate::events::nearest(forced)
            .map(|n| format!("; did you mean `{n}`?"))
            .unwrap_or_default();
        Some(Error::Usage(format!(
            "--event `{forced}` is no agent's event name, and no hook is configured under it{near}"
        )))
    } else {
        None
    };
    match problem {
        None => Ok(event),
        Some(e) => {
            audit_unfinished(config, Some(&event.name), &e);
            Err(Refusal {
                error: e.closed_if(own_errors_block(args, config.any_closed)),
                event: Some(Box::new(event)),
                dialect: args.dialect,
            })
        }
    }
}

/// The audit line of an event that ended before the hooks' decision (a
/// refusal, an interruption, hookrun's own failure): the error, the event
/// name when known and, for a signal, `"interrupted": "SIGTERM"` (or the
/// signal's name). A line that cannot be written is said on stderr: the
/// event's own error is what its answer reports.
fn audit_unfinished(config: &Config, event: Option<&str>, e: &Error) {
    let Some(path) = &config.audit_log else {
        return;
    };
    let mut record = serde_json::Map::new();
    record.insert("time".into(), crate::clock::now_rfc3339().into());
    if let Some(name) = event {
        record.insert("event".into(), name.into());
    }
    if let Error::Interrupted { name, .. } = e {
        record.insert("interrupted".into(), (*name).into());
    }
    record.insert("error".into(), e.to_string().into());
    match crate::audit::append(path, config.audit_key_file.as_deref(), record) {
        Ok(None) => {}
        Ok(Some(why)) | Err(why) => output::diagnostic(&why),
    }
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

/// The block for an error that came before the event was read (a broken
/// config, a mistyped flag): the event is read now, with the default size
/// cap, so that the block is in the caller's shape. Only an event that
/// cannot be read at all gets the plain block every caller reads.
pub(crate) fn block_unread_event(
    e: &Error,
    forced_event: Option<&str>,
    forced_dialect: Option<crate::dialect::Dialect>,
    timeout: std::time::Duration,
) -> ExitStatus {
    let event = event::read_stdin(crate::config::Limits::default().max_event_bytes, timeout)
        .and_then(|raw| crate::dialect::read_event_as(raw, forced_event, forced_dialect));
    let answer = match event
        .ok()
        .map(Box::new)
        .or_else(|| named_only(forced_event, forced_dialect))
    {
        Some(event) => own_block(&event, e),
        None => unread_answer(e, forced_dialect),
    };
    output::emit(&answer);
    answer.exit_code
}

/// hookrun's error for an event that could not be read: a block in the
/// shape of the dialect `--dialect` named, where the error blocks; without
/// `--dialect` there is no dialect to answer in, and the block is Claude
/// Code's `decision: "block"` (`output::error_answer`).
fn unread_answer(e: &Error, dialect: Option<crate::dialect::Dialect>) -> Rendered {
    match dialect {
        Some(d) if e.blocks() => crate::dialect::render_unread_block(d, &e.to_string()),
        _ => output::error_answer(e),
    }
}

/// An event that could not be read, as far as the command line names it:
/// with both `--event` and `--dialect` a block can still be given in the
/// caller's shape (an adapter that always passes both, as deputy's does,
/// gets its own answer even for an event too large to read).
fn named_only(
    forced_event: Option<&str>,
    forced_dialect: Option<crate::dialect::Dialect>,
) -> Option<Box<Event>> {
    let (name, dialect) = (forced_event?, forced_dialect?);
    crate::dialect::read_event_as(&b"{}"[..], Some(name), Some(dialect))
        .ok()
        .map(Box::new)
}

/// hookrun's own block in the event's dialect: what went wrong, and that
/// the block is hookrun's because of it.
fn own_block(event: &Event, e: &Error) -> Rendered {
    crate::dialect::render_own_block(event, &own_reason(e))
}

/// The reason of hookrun's own failure: the error (file, line, key and fix
/// for a config); `decision::own_failure` says what it did about it.
pub(crate) fn own_reason(e: &Error) -> String {
    format!("hookrun: {e}")
}

/// The error for a run that found no config file at all.
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

/// The error for config layers that could not be loaded (`--config a.toml
/// --config missing.toml`, a trusted project file with a syntax error):
/// hookrun could not evaluate everything the user configured. The event was
/// still evaluated with the readable layers; this decides what the failure
/// adds: a block (`Error::blocks`) unless `--on-error allow` (and even then
/// where the readable layers fail closed), else hookrun's error (exit 1)
/// unless the readable layers block. The one place that decides it.
pub(crate) fn unevaluated_block(config: &Config, blocks: bool) -> Option<Error> {
    if config.unreadable.is_empty() {
        return None;
    }
    let failures: Vec<String> = config
        .unreadable
        .iter()
        .map(|u| {
            if u.path.as_os_str().is_empty() {
                u.error.to_string()
            } else {
                format!("{} (fix that file, or remove it)", u.error)
            }
        })
        .collect();
    let ran = if config.files.is_empty() {
        "no config file could be loaded"
    } else {
        "only the other config files' hooks ran"
    };
    let e = Error::Unevaluated(format!(
        "the config could not be fully evaluated ({ran}): {}",
        failures.join("; ")
    ));
    Some(e.closed_if(blocks))
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

/// The variable `doctor --no-hooks` sets so that its canaries reach only
/// the built-in guards: `run` then drops every command hook of the config.
pub const BUILTINS_ONLY_VAR: &str = "HOOKRUN_BUILTINS_ONLY";

fn builtins_only() -> bool {
    std::env::var_os(BUILTINS_ONLY_VAR).is_some_and(|v| v == "1")
}

pub(crate) fn load_config(args: &RunArgs) -> Result<Config, Error> {
    let found = config::discover(&args.configs);
    let options = LoadOptions {
        explicit: args.fail_mode.is_some(),
        default_fail_mode: args.fail_mode.unwrap_or(FailMode::Open),
        format: args.config_format,
    };
    let mut config = config::load_found(&found, options)?;
    drop_registrations(&mut config, &found);
    if builtins_only() {
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
    if found.is_empty() {
        output::diagnostic(&no_config_warning());
        // Run as a hook with nothing to run: what the user meant to run
        // cannot be evaluated (the trust rule decides).
        config.unreadable.push(config::Unreadable {
            path: std::path::PathBuf::new(),
            error: std::sync::Arc::new(Error::NoHooks(no_config_error())),
        });
    }
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
    Ok(config)
}

/// The config as the event's agent gets it run: without the hooks that
/// agent runs itself from its own files (`config::agent_own`). What `run`,
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
    config::for_agent(
        config,
        dialect,
        &project,
        &crate::install::location::Homes::from_env(),
    )
}

fn run_event(
    config: &Config,
    event: &Event,
    args: &RunArgs,
    depth: u32,
    started: std::time::Instant,
) -> Result<ExitStatus, Error> {
    let (eval, rendered) = handle(config, event, args, depth, started)?;
    output::emit(&rendered);
    if let (Some(path), Some(eval)) = (args.report.as_deref(), eval) {
        if let Err(source) = output::write_report(path, &eval.report(config, event)) {
            // The decision is already out; a lost report is reported, not fatal.
            output::diagnostic(
                &Error::Report {
                    path: path.to_owned(),
                    source,
                }
                .to_string(),
            );
        }
    }
    Ok(rendered.exit_code)
}

/// Evaluates one event and writes its audit line: what `run` and `serve`
/// share. hookrun's own failure while evaluating (no runtime, no audit
/// line written) is reported, and blocks unless `--on-error allow`; the
/// evaluation is `None` when there was none to report.
///
/// # Errors
/// An interruption, or hookrun's own failure under `--on-error allow`.
pub(crate) fn handle(
    config: &Config,
    event: &Event,
    args: &RunArgs,
    depth: u32,
    started: std::time::Instant,
) -> Result<(Option<pipeline::Evaluation>, crate::rendered::Rendered), Error> {
    let blocks = own_errors_block(args, config.any_closed);
    let config = &*if args.dialect == Some(crate::dialect::Dialect::Claude)
        && event.dialect == crate::dialect::Dialect::Cursor
    {
        config::agent_own::for_cursor_via_claude(
            config,
            &config::project_dir().unwrap_or_default(),
            &crate::install::location::Homes::from_env(),
        )
    } else {
        for_event(config, event)
    };
    let mut ctx = pipeline::Context::from_env(depth);
    ctx.own_errors_block = blocks;
    let eval = match pipeline::evaluate(config, event, &ctx) {
        Ok(eval) => eval,
        Err(e) => {
            // Interrupted (SIGTERM while a hook ran) or hookrun's own
            // failure: the event still leaves its one line.
            audit_unfinished(config, Some(&event.name), &e);
            let e = e.closed_if(blocks);
            if !e.blocks() {
                return Err(e);
            }
            return Ok((None, own_block(event, &e)));
        }
    };
    // hookrun's own failures added on top of what the hooks answered: what
    // they decided stands (a deny wins, a Stop blocks only once).
    let mut failures: Vec<String> = Vec::new();
    let mut stderr: Vec<String> = Vec::new();
    let mut plain_error = None;
    if let Some(e) = unevaluated_block(config, blocks) {
        if e.blocks() {
            failures.push(own_reason(&e));
        } else if eval.decision.blocked {
            stderr.push(format!("hookrun: {e}"));
        } else {
            plain_error = Some(e);
        }
    }
    if let Some(path) = &config.audit_log {
        let record = eval.audit_record(config, event, started.elapsed());
        match crate::audit::append(path, config.audit_key_file.as_deref(), record) {
            Ok(None) => {}
            Ok(Some(notice)) => stderr.push(format!("hookrun: {notice}")),
            Err(why) if blocks => {
                failures.push(own_reason(&Error::Internal(format!(
                    "no audit line written: {why}"
                ))));
            }
            Err(why) => stderr.push(format!("hookrun: {why}")),
        }
    }
    let mut rendered = if failures.is_empty() {
        match &plain_error {
            Some(e) => output::error_answer(e),
            None => eval.rendered.clone(),
        }
    } else {
        let mut d = eval.decision.clone();
        for reason in failures {
            crate::decision::own_failure(&mut d, &event.name, eval.family, &event.fields, reason);
        }
        crate::dialect::protocol(event.dialect).render(event, eval.family, &d, &eval.notices)
    };
    rendered.stderr.extend(stderr);
    Ok((Some(eval), rendered))
}
