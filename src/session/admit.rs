//! Whether an event reaches the hooks at all: read and parsed, and not
//! refused (a closed guard left without hooks, runaway nesting, a forced
//! `--event` nothing listens to). `run` and `serve` share it so that both
//! refuse the same inputs the same way.

use super::audit_line;
use super::block::{named_only, own_block, unread_answer};
use crate::cli::RunArgs;
use crate::config::Config;
use crate::error::Error;
use crate::event::Event;
use crate::rendered::Rendered;

/// Nesting depth past which `run` refuses to start: a config that runs
/// `hookrun run` on itself would otherwise fork without end.
const MAX_DEPTH: u32 = 8;

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
/// reading (`read` gives the raw bytes) and parsing the event, then
/// [`refusal_of`]. Every refusal blocks where a guard fails closed, and
/// every refused event leaves an audit line.
///
/// # Errors
/// The refusal, with the event when it was read.
pub(crate) fn admit(
    config: &Config,
    args: &RunArgs,
    depth: u32,
    read: impl FnOnce() -> Result<Vec<u8>, Error>,
) -> Result<Event, Refusal> {
    let blocks = super::block::own_errors_block(args, config.any_closed);
    let event = match read()
        .and_then(|raw| crate::dialect::read_event_as(raw, args.event.as_deref(), args.dialect))
    {
        Ok(e) => e,
        Err(e) => {
            // A refused event is an event too: it leaves a line.
            audit_line::write_unfinished(config, args.event.as_deref(), &e);
            return Err(Refusal {
                error: e.closed_if(blocks),
                event: named_only(args.event.as_deref(), args.dialect),
                dialect: args.dialect,
            });
        }
    };
    match refusal_of(config, args, depth, &event) {
        None => Ok(event),
        Some(e) => {
            audit_line::write_unfinished(config, Some(&event.name), &e);
            Err(Refusal {
                error: e.closed_if(blocks),
                event: Some(Box::new(event)),
                dialect: args.dialect,
            })
        }
    }
}

/// Why a read event may not reach the hooks, if it may not: a config left
/// without hooks under a closed guard, the nesting check, or a forced
/// `--event` name that nothing listens to.
fn refusal_of(config: &Config, args: &RunArgs, depth: u32, event: &Event) -> Option<Error> {
    if config.hooks.is_empty() && !config.off && config.any_closed && config.unreadable.is_empty() {
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
    }
}
