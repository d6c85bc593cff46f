//! One file per subcommand. Each only wires the pipeline stages together
//! and hands the result to `output`; none has logic of its own.

pub(crate) mod audit;
pub(crate) mod builtin;
pub(crate) mod check;
pub(crate) mod config;
pub(crate) mod convert;
pub(crate) mod doctor;
pub(crate) mod explain;
pub(crate) mod forward;
pub(crate) mod init;
pub(crate) mod install;
mod install_move;
pub(crate) mod meta;
pub(crate) mod run;
pub(crate) mod serve;
pub(crate) mod test;
pub(crate) mod trust;
pub(crate) mod usage;
