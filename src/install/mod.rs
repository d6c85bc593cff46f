//! Registering hookrun in an agent's own settings file, pure: which events
//! a config needs in the agent's names and with what timeout (`events`),
//! the key asking the agent to block when hookrun cannot answer
//! (`fail_safe`), where the file is (`location`), how the command names
//! hookrun (`program`: a pure rule, and `detect`, which reads this process
//! and PATH for it), what keeps a project's registration free of this
//! machine's paths (`portable`), the JSON edit itself (`shape`), and
//! reading and writing the text without disturbing the rest of it
//! (`text`). `commands::install` does the file I/O.

pub(crate) mod agent;
pub(crate) mod agent_own;
pub(crate) mod events;
pub(crate) mod fail_safe;
pub(crate) use crate::dialect::location;
pub(crate) mod portable;
pub(crate) mod program;
pub(crate) mod shape;
pub(crate) mod text;

pub(crate) use agent::{Agent, Invocation, Scope, Server, command};
