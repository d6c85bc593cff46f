//! The agents hookrun speaks to, below every module that names one: the
//! dialects' list (`dialect`), the agents `install` registers hookrun with
//! (`installable`), and where each keeps its hooks (`location`). A leaf,
//! so that events, configs and installs name an agent without the
//! dialects' code.

mod dialect;
mod installable;
pub(crate) mod location;

pub use dialect::Dialect;
pub(crate) use dialect::dialects;
pub(crate) use installable::{Agent, Scope};
