//! An event's session, what `run` and `serve` share around the pipeline:
//! the config loaded for a run (`load`), whether the event reaches the
//! hooks (`admit`), its evaluation with hookrun's own failures on top
//! (`handle`), its audit line (`audit_line`) and what its telemetry
//! carries (`observed`), and hookrun's own block when it failed before
//! the hooks could answer (`block`). `usage` and
//! `builtin` answer with that block too, and `doctor` names the variable
//! that leaves only the built-ins.

mod admit;
mod audit_line;
mod block;
mod handle;
mod load;
mod observed;

pub(crate) use admit::admit;
pub(crate) use block::{block_unread_event, own_errors_block, unevaluated_answer};
pub(crate) use handle::{Observe, handle};
pub(crate) use load::BUILTINS_ONLY_VAR;
pub(crate) use load::{
    drop_registrations, for_dialect, for_event, load_config, no_config_warning, warnings,
};
