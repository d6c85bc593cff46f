//! `hookrun doctor`'s parts: `examine` reads the files behind each
//! registration, `judge` says what is wrong with it (pure), `fire` runs its
//! command the way the agent would, `agents` asks each agent's launcher
//! its version (`tested` is what it is judged by), `server` asks a policy
//! server a registration hands its events to whether it answers, `report`
//! holds and renders the outcome.

pub(crate) mod agents;
pub(crate) mod examine;
pub(crate) mod fire;
pub(crate) mod judge;
pub(crate) mod report;
pub(crate) mod server;
pub(crate) mod tested;

pub(crate) use judge::{canaries_failed, version_problems};
pub(crate) use report::{Report, render_command_hooks, render_text};
