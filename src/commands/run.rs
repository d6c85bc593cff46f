//! `hookrun run`: one event read from stdin, handled by the session
//! (`crate::session`: config, refusals, evaluation, audit line), its answer
//! written by `output`, and the per-hook report where `--report` asks.

use crate::cli::RunArgs;
use crate::error::{Error, ExitStatus};
use crate::event::{self, Event};
use crate::output;
use crate::session;

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
pub(crate) fn execute(args: &RunArgs) -> Result<ExitStatus, Error> {
    crate::os::on_event_stack(crate::os::main_stack(), |stack| {
        event::limit_to_stack(stack);
        execute_here(args)
    })
}

fn execute_here(args: &RunArgs) -> Result<ExitStatus, Error> {
    let started = std::time::Instant::now();
    let config = match session::load_config(args) {
        Ok(c) => c,
        Err(e) => {
            let e = e.closed_if(session::own_errors_block(args, false));
            if !e.blocks() {
                return Err(e);
            }
            return Ok(session::block_unread_event(
                &e,
                args.event.as_deref(),
                args.dialect,
                stdin_timeout(args),
            ));
        }
    };
    let depth = crate::launch::inherited_depth();
    let event = match session::admit(&config, args, depth, || {
        event::read_stdin(config.limits.max_event_bytes, stdin_timeout(args))
    }) {
        Ok(e) => e,
        Err(refusal) => {
            let answer = refusal.answer();
            output::emit(&answer);
            return Ok(answer.exit_code);
        }
    };
    for w in session::warnings(&config, &event) {
        output::diagnostic(&w);
    }
    run_event(&config, &event, args, depth, started)
}

fn stdin_timeout(args: &RunArgs) -> std::time::Duration {
    args.stdin_timeout.max(std::time::Duration::from_millis(1))
}

fn run_event(
    config: &crate::config::Config,
    event: &Event,
    args: &RunArgs,
    depth: u32,
    started: std::time::Instant,
) -> Result<ExitStatus, Error> {
    let settings = crate::telemetry::settings_here(config);
    let observe = settings
        .as_ref()
        .map(|s| session::Observe { audit: s.logs });
    let telemetry = settings.and_then(crate::telemetry::Once::begin);
    let handled = session::handle(config, event, args, depth, started, observe)?;
    let rendered = handled.rendered;
    output::emit(&rendered);
    if let (Some(path), Some(eval)) = (args.report.as_deref(), &handled.eval) {
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
    // After the answer is out: the export can delay `run`'s exit by at
    // most its `export_timeout`, and never its decision.
    if let (Some(telemetry), Some(mut observed)) = (telemetry, handled.observed) {
        observed.parent = crate::telemetry::parent_from_env();
        telemetry.finish(observed);
    }
    Ok(rendered.exit_code)
}
