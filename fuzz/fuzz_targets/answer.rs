//! The hook-answer reader: any exit status with any stdout and stderr is
//! classified, for every event kind, without a panic.
#![no_main]
use std::time::Duration;

use hookrun::internals::exec::{Captured, HookRun, RunStatus};
use libfuzzer_sys::fuzz_target;

const EVENTS: [&str; 8] = [
    "PreToolUse",
    "PostToolUse",
    "PermissionRequest",
    "UserPromptSubmit",
    "Stop",
    "SessionStart",
    "Notification",
    "PreCompact",
];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let split = rest.iter().position(|&b| b == 0xff).unwrap_or(rest.len());
    let (stdout, stderr) = rest.split_at(split);
    let status = match selector % 5 {
        0 => RunStatus::Exited(0),
        1 => RunStatus::Exited(2),
        2 => RunStatus::Exited(i32::from(selector)),
        3 => RunStatus::Signaled(9),
        _ => RunStatus::TimedOut,
    };
    let run = HookRun {
        status,
        stdout: Captured {
            bytes: stdout.to_vec(),
            dropped: u64::from(selector & 1),
        },
        stderr: Captured {
            bytes: stderr.to_vec(),
            dropped: 0,
        },
        leaked: selector & 2 != 0,
        duration: Duration::from_millis(1),
        started: std::time::Instant::now(),
        pid: None,
        in_process: false,
    };
    let event = EVENTS[usize::from(selector >> 4) % EVENTS.len()];
    let answer = hookrun::internals::answer::classify(event, "fuzz-hook", &run);
    if let Some(failure) = &answer.failure {
        let _ = failure.describe();
    }
});
