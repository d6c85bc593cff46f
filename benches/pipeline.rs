//! Micro-benchmarks of the pure stages: config loading, matching (selection
//! among 1 000 hooks) and merging.
//!
//!     cargo bench --bench pipeline

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use hookrun::internals::config::{self, FailMode, LoadOptions};

fn pipeline(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("hooks.toml");
    let mut toml = String::new();
    for i in 0..999 {
        toml.push_str(&format!(
            "[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"Tool{i}\"\ncommand = \"true {i}\"\n\n"
        ));
    }
    toml.push_str("[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"Bash\"\ncommand = \"true\"\n");
    std::fs::write(&path, toml).expect("write config");
    let options = LoadOptions {
        explicit: false,
        default_fail_mode: FailMode::Open,
        format: None,
        foreign: hookrun::internals::convert::HOOKS_FILES,
    };
    c.bench_function("load 1000-hook TOML config", |b| {
        b.iter(|| config::load(black_box(std::slice::from_ref(&path)), options).expect("load"))
    });

    let config = config::load(std::slice::from_ref(&path), options).expect("load");
    let event = hookrun::internals::dialect::read_event(
        br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#,
        None,
    )
    .expect("event");
    c.bench_function("select 1 of 1000 hooks", |b| {
        b.iter(|| hookrun::internals::select::select(black_box(&config), black_box(&event)))
    });

    let answers: Vec<hookrun::internals::answer::Answer> = (0..10)
        .map(|i| {
            let out = format!(r#"{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"{}","additionalContext":"c{i}"}}}}"#, if i == 7 { "deny" } else { "allow" });
            let run = hookrun::internals::exec::HookRun {
                status: hookrun::internals::exec::RunStatus::Exited(0),
                stdout: hookrun::internals::exec::Captured { bytes: out.into_bytes(), dropped: 0 },
                stderr: hookrun::internals::exec::Captured::default(),
                leaked: false,
                duration: std::time::Duration::from_millis(1),
                started: std::time::Instant::now(),
                pid: None,
                in_process: false,
            };
            hookrun::internals::answer::classify("PreToolUse", "cmd", &run)
        })
        .collect();
    let inputs: Vec<hookrun::internals::decision::Input<'_>> = answers
        .iter()
        .enumerate()
        .map(|(i, a)| hookrun::internals::decision::Input {
            name: format!("h{i}"),
            label: format!("h{i}"),
            fail_mode: FailMode::Open,
            answer: a,
            on_failure_note: None,
        })
        .collect();
    c.bench_function("merge 10 answers", |b| {
        b.iter(|| {
            hookrun::internals::decision::merge(
                "PreToolUse",
                hookrun::internals::events::Family::PreTool,
                black_box(&event.fields),
                black_box(&inputs),
                &[],
            )
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(2));
    targets = pipeline
}
criterion_main!(benches);
