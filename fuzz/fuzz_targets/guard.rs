//! `dangerous-commands` on any text: parsing and checking never panic,
//! whatever the quoting, nesting or here-docs, and any argv is checked too.
#![no_main]
use hookrun_guards::dangerous::{DangerousCommands, Options};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(guard) = DangerousCommands::new(Options::default()) else {
        return;
    };
    let _ = guard.check(&text);
    let argv: Vec<String> = text.split('\0').map(str::to_owned).collect();
    let _ = guard.check_argv(&argv);
});
