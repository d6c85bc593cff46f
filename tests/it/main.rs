//! Integration tests: the real `hookrun` binary, real hook processes.

mod support;

mod agent_configs;
mod audit;
mod audit_chain;
mod bad_input;
mod builtins;
mod check;
mod config_errors;
mod convert;
mod dialects;
mod discovery;
mod escapes;
mod exit_codes;
mod explain;
mod faults;
mod golden;
mod guard_args;
mod guard_categories;
mod guard_cost;
mod guard_paths_shell;
mod guard_removals;
mod guard_structure;
mod json_answers;
mod merge;
mod no_silent_allow;
mod policy_test;
mod process;
mod properties;
mod redact_corpus;
mod redact_gen;
mod redact_rules;
mod report;
mod serve;
mod serve_strict;
mod signals;
