//! The guards judged in-process, one test binary: each module one guard or
//! one family of rules, through the registry and the `Call` the engine builds.

mod support;

mod guard_args;
mod guard_cost;
mod guard_expansions;
mod guard_r_code;
mod guard_r_cost;
mod guard_r_paths;
mod guard_removals;
mod guard_shell_flow;
mod guard_structure;
mod redact_corpus;
mod redact_gen;
mod redact_rules;
