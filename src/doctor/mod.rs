//! `hookrun doctor`'s parts: `examine` reads the files behind each
//! registration, `judge` says what is wrong with it (pure), `fire` runs its
//! command the way the agent would, `report` holds and renders the
//! outcome.

pub(crate) mod codex_trust;
pub(crate) mod examine;
pub(crate) mod fire;
pub mod judge;
pub mod report;

pub use judge::{Facts, canaries_failed, program_of, promised, wiring};
pub use report::{
    CODES, CanaryResult, Layer, Problem, Registration, Report, expected, render_command_hooks,
    render_text, scope_name,
};
