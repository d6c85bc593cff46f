//! One event as `run` handles it, for both of `serve`'s transports: the
//! stdin loop and the HTTP server.

use std::sync::Arc;

use crate::cli::RunArgs;
use crate::config::Config;
use crate::error::Error;
use crate::event::Line;
use crate::rendered::Rendered;

/// Where an event's span and log record go: the server's export, with
/// the caller's trace context (an HTTP request's `traceparent`).
#[derive(Debug, Clone)]
pub(super) struct Tracing {
    pub export: crate::telemetry::Server,
    pub parent: Option<(String, Option<String>)>,
}

/// [`one`] on a blocking thread with the stack the deepest event needs (it
/// runs its own small runtime), then the ended async hooks collected. A
/// thread that died is hookrun's own internal error, a block where own
/// errors block. `held` (the HTTP server's place for the event) is kept
/// until the evaluation ends, even when no one waits for it any more.
pub(super) async fn on_thread<H: Send + 'static>(
    config: Arc<Config>,
    args: RunArgs,
    depth: u32,
    line: Line,
    found_none: bool,
    (held, tracing): (H, Option<Tracing>),
) -> Result<(Option<Evaluated>, Rendered), Error> {
    let closed = crate::session::own_errors_block(&args, config.any_closed);
    let outcome = tokio::task::spawn_blocking(move || {
        let _held = held;
        crate::os::on_event_stack(crate::os::BLOCKING_STACK, |stack| {
            crate::event::limit_to_stack(stack);
            one(&config, &args, depth, line, found_none, tracing)
        })
    })
    .await;
    crate::exec::reap_async();
    outcome.unwrap_or_else(|e| {
        Err(Error::Internal(format!("the event was not handled: {e}")).closed_if(closed))
    })
}

/// What an evaluated event came to, for the HTTP server's metrics.
#[derive(Debug, Clone)]
pub(super) struct Evaluated {
    /// The model's name of the event.
    pub event: String,
    /// The caller's dialect, as the event was read.
    pub dialect: crate::dialect::Dialect,
    /// `Decision::outcome`: allow, deny, ask, defer, block, none.
    pub decision: &'static str,
    /// How long each hook that ran took.
    pub hooks: Vec<std::time::Duration>,
}

/// One event, as `run` would handle it: the same refusals (`run::admit`),
/// the same lints on stderr, the same evaluation and audit line, and the
/// same warning first when no config file was found (`found_none`); with
/// what it came to when its hooks were evaluated.
fn one(
    config: &Config,
    args: &RunArgs,
    depth: u32,
    line: Line,
    found_none: bool,
    tracing: Option<Tracing>,
) -> Result<(Option<Evaluated>, Rendered), Error> {
    let (evaluated, mut rendered) = one_found(config, args, depth, line, tracing)?;
    if found_none {
        let warning = format!("hookrun: {}", crate::session::no_config_warning());
        rendered.stderr.insert(0, warning);
    }
    Ok((evaluated, rendered))
}

fn one_found(
    config: &Config,
    args: &RunArgs,
    depth: u32,
    line: Line,
    tracing: Option<Tracing>,
) -> Result<(Option<Evaluated>, Rendered), Error> {
    let started = std::time::Instant::now();
    let admitted = crate::session::admit(config, args, depth, || match line {
        Line::Complete(bytes) => Ok(bytes),
        Line::TooLarge => Err(crate::event::too_large(config.limits.max_event_bytes)),
    });
    let event = match admitted {
        Ok(e) => e,
        Err(refusal) => return Ok((None, refusal.answer())),
    };
    let observe = tracing.as_ref().map(|t| crate::session::Observe {
        audit: t.export.logs(),
    });
    let handled = crate::session::handle(config, &event, args, depth, started, observe)?;
    if let (Some(tracing), Some(mut observed)) = (tracing, handled.observed) {
        observed.parent = tracing.parent;
        tracing.export.record(&observed);
    }
    let (eval, mut rendered) = (handled.eval, handled.rendered);
    let lints = crate::session::warnings(config, &event)
        .into_iter()
        .map(|w| format!("hookrun: {w}"));
    rendered.stderr.splice(0..0, lints);
    let evaluated = eval.map(|e| Evaluated {
        event: event.name.clone(),
        dialect: event.dialect,
        decision: e.decision.outcome(),
        hooks: e.runs.iter().map(|r| r.duration).collect(),
    });
    Ok((evaluated, rendered))
}
