//! One file per subcommand. Each only wires the pipeline stages together
//! and hands the result to `output`; none has logic of its own.

pub mod audit;
pub mod builtin;
pub mod check;
pub mod config;
pub mod convert;
pub mod doctor;
pub mod explain;
pub mod init;
pub mod install;
mod install_move;
pub mod meta;
pub mod run;
pub mod serve;
pub mod test;
pub mod trust;
pub mod usage;
