//! The agents hookrun speaks to, below every module that names one: the
//! dialects' list (`dialect`) and the agents `install` registers hookrun
//! with (`installable`), generated from it. A leaf,
//! so that events, configs and installs name an agent without the
//! dialects' code.

mod dialect;
mod installable;

pub use dialect::Dialect;
pub(crate) use dialect::dialects;
pub(crate) use installable::{Agent, Scope};
