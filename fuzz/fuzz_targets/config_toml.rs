//! The TOML config loader: any file gives a config or a diagnostic.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "config_common.rs"]
mod common;

fuzz_target!(|data: &[u8]| common::load("hooks.toml", data));
