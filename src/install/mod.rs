//! Registering hookrun in an agent's own settings file, pure: which events
//! a config needs in the agent's names and with what timeout (`events`),
//! the key asking the agent to block when hookrun cannot answer
//! (`fail_safe`), where the file is (`location`), how the command names
//! hookrun (`program`: a pure rule, and `detect`, which reads this process
//! and PATH for it), what keeps a project's registration free of this
//! machine's paths (`portable`), the JSON edit itself (`shape`), and
//! reading and writing the text without disturbing the rest of it
//! (`text`). `commands::install` does the file I/O.

pub mod agent;
pub mod agent_own;
pub mod events;
pub mod fail_safe;
pub use crate::agent::location;
pub mod portable;
pub(crate) mod program;
pub mod shape;
pub mod text;

pub use agent::{Agent, Invocation, Scope, command, is_registration, run_args};
