//! hookrun's own block: the answer to an event when hookrun itself failed
//! (a broken config, a mistyped flag, an unreadable event), in the caller's
//! shape wherever the event, or the command line, says what that is; and
//! whether hookrun's own failure blocks at all.

use crate::cli::RunArgs;
use crate::config::FailMode;
use crate::error::{Error, ExitStatus};
use crate::event::{self, Event};
use crate::output;
use crate::rendered::Rendered;

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
    // An event that cannot be read from stdin is answered as one that
    // cannot be read as an event.
    let raw = event::read_stdin(crate::config::Limits::default().max_event_bytes, timeout)
        .unwrap_or_default();
    let answer = unevaluated_answer(&raw, e, forced_event, forced_dialect);
    output::emit(&answer);
    answer.exit_code
}

/// hookrun's answer to an event it holds (`raw`) but did not evaluate
/// because of `e` (`forward` without an answer from its server, a server
/// that is overloaded or stopping): where `e` blocks, the block in the
/// caller's shape as far as the event or the command line says what that
/// is; else the error as `run` reports it.
pub(crate) fn unevaluated_answer(
    raw: &[u8],
    e: &Error,
    forced_event: Option<&str>,
    forced_dialect: Option<crate::dialect::Dialect>,
) -> Rendered {
    if !e.blocks() {
        return output::error_answer(e);
    }
    match crate::dialect::read_event_as(raw, forced_event, forced_dialect)
        .ok()
        .map(Box::new)
        .or_else(|| named_only(forced_event, forced_dialect))
    {
        Some(event) => own_block(&event, e),
        None => unread_answer(e, forced_dialect),
    }
}

/// hookrun's error for an event that could not be read: a block in the
/// shape of the dialect `--dialect` named, where the error blocks; without
/// `--dialect` there is no dialect to answer in, and the block is Claude
/// Code's `decision: "block"` (`output::error_answer`).
pub(super) fn unread_answer(e: &Error, dialect: Option<crate::dialect::Dialect>) -> Rendered {
    match dialect {
        Some(d) if e.blocks() => crate::dialect::render_unread_block(d, &e.to_string()),
        _ => output::error_answer(e),
    }
}

/// An event that could not be read, as far as the command line names it:
/// with both `--event` and `--dialect` a block can still be given in the
/// caller's shape (an adapter that always passes both, as deputy's does,
/// gets its own answer even for an event too large to read).
pub(super) fn named_only(
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
pub(super) fn own_block(event: &Event, e: &Error) -> Rendered {
    crate::dialect::render_own_block(event, &own_reason(e))
}

/// The reason of hookrun's own failure: the error (file, line, key and fix
/// for a config); `decision::own_failure` says what it did about it.
pub(super) fn own_reason(e: &Error) -> String {
    format!("hookrun: {e}")
}

/// Whether hookrun's own failure on an event blocks it (where the event
/// can block): unless the user chose `--on-error allow`, it does; a guard
/// that asked to fail closed (`fail_mode = "closed"` in a layer that could
/// be read, `--fail-mode closed`) keeps it blocking even then.
pub(crate) fn own_errors_block(args: &RunArgs, config_closed: bool) -> bool {
    args.on_error.blocks() || config_closed || args.fail_mode == Some(FailMode::Closed)
}
