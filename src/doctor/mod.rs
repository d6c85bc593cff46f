//! `hookrun doctor`'s parts: `examine` reads the files behind each
//! registration, `judge` says what is wrong with it (pure), `fire` runs its
//! command the way the agent would, `agents` asks each agent's launcher
//! its version (`tested` is what it is judged by), `report` holds and
//! renders the outcome.

pub(crate) mod agents;
pub(crate) mod codex_trust;
pub(crate) mod examine;
pub(crate) mod fire;
pub mod judge;
pub mod report;
pub(crate) mod tested;

pub use judge::{Facts, canaries_failed, program_of, promised, version_problems, wiring};
pub use report::{
    CODES, CanaryResult, Layer, Problem, Registration, Report, expected, render_command_hooks,
    render_text, scope_name,
};
