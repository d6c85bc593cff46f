//! Steady-state cost of the built-in hooks, next to the cost of spawning a
//! `true` hook the way hookrun does (`/bin/sh -c true`), in the same run.
//!
//!     cargo bench --bench builtins

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use hookrun::internals::builtin::{Builtin, Mode};
use hookrun_guards::Context;

fn event(json: &str) -> hookrun::internals::event::Event {
    hookrun::internals::dialect::read_event(json.as_bytes(), None).expect("event")
}

/// Commands of the kind agents run all day (one iteration of the `typical`
/// benchmarks evaluates all ten; `scripts/bench-builtin` divides).
const TYPICAL: &[&str] = &[
    "git status",
    "cargo test --workspace 2>&1 | tail -n 40",
    "ls -la src/",
    "rg -n 'fn main' --type rust",
    "npm run build && npm test",
    "cd web && pnpm install --frozen-lockfile",
    "python3 -m pytest -q tests/ -k 'not slow'",
    "git add -A && git commit -m 'Fix parser: handle rm -rf in strings' && git push",
    "find . -name '*.rs' -newer Cargo.toml | xargs wc -l",
    "cat <<'EOF' > notes.md\n# Notes\nDo not run rm -rf / here.\nEOF",
];

/// An R script of the kind an agent runs through deputy's `run_r_code`.
const R_SCRIPT: &str = r#"library(dplyr)
df <- readr::read_csv("data/input.csv")
out <- file.path("output", "summary")
dir.create(out, recursive = TRUE, showWarnings = FALSE)
res <- df |> group_by(group) |> summarise(m = mean(value), n = n())
readr::write_csv(res, file.path(out, "by_group.csv"))
model <- lm(value ~ x + z, data = df)
saveRDS(model, file.path(out, "model.rds"))
status <- system("git status --porcelain", intern = TRUE)
unlink(file.path(out, "tmp"), recursive = TRUE)
"#;

fn builtins(c: &mut Criterion) {
    let shell = event(
        r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd src && FOO=1 git status && rm -rf ./build | tee log.txt"}}"#,
    );
    let write = event(
        r#"{"hook_event_name":"PreToolUse","tool_name":"Write","cwd":"/tmp","tool_input":{"file_path":"src/main.rs","content":"fn main() {}"}}"#,
    );
    let post = event(
        r#"{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{},"tool_response":{"stdout":"total 8\ndrwxr-xr-x 2 u u 4096 .\n","stderr":""}}"#,
    );
    let dangerous =
        Builtin::new("dangerous-commands", serde_json::Value::Null, Mode::Enforce).unwrap();
    let paths = Builtin::new("protect-paths", serde_json::Value::Null, Mode::Enforce).unwrap();
    let redact = Builtin::new("redact-secrets", serde_json::Value::Null, Mode::Enforce).unwrap();
    let project = Path::new("/tmp");
    c.bench_function("builtin dangerous-commands", |b| {
        b.iter(|| dangerous.evaluate(black_box(&shell), &Context::new(project, String::new)))
    });
    c.bench_function("builtin protect-paths", |b| {
        b.iter(|| paths.evaluate(black_box(&write), &Context::new(project, String::new)))
    });
    c.bench_function("builtin redact-secrets", |b| {
        b.iter(|| redact.evaluate(black_box(&post), &Context::new(project, String::new)))
    });
    // Typical shell commands an agent runs, one evaluation each, in turn.
    let typical: Vec<_> = TYPICAL
        .iter()
        .map(|cmd| {
            event(
                &serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                    "cwd": "/tmp", "tool_input": {"command": cmd}})
                .to_string(),
            )
        })
        .collect();
    c.bench_function(
        "builtin dangerous-commands, typical commands (10 commands)",
        |b| {
            b.iter(|| {
                for e in &typical {
                    black_box(
                        dangerous.evaluate(black_box(e), &Context::new(project, String::new)),
                    );
                }
            });
        },
    );
    c.bench_function(
        "builtin protect-paths, typical commands (10 commands)",
        |b| {
            b.iter(|| {
                for e in &typical {
                    black_box(paths.evaluate(black_box(e), &Context::new(project, String::new)));
                }
            });
        },
    );
    // deputy's `run_r_code`: an ordinary analysis script, read as R.
    let r_code = event(
        &serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "run_r_code",
            "cwd": "/tmp", "tool_input": {"code": R_SCRIPT}})
        .to_string(),
    );
    c.bench_function("builtin dangerous-commands, R code", |b| {
        b.iter(|| dangerous.evaluate(black_box(&r_code), &Context::new(project, String::new)))
    });
    c.bench_function("builtin protect-paths, R code", |b| {
        b.iter(|| paths.evaluate(black_box(&r_code), &Context::new(project, String::new)))
    });
    // Loading a rule set: what a fresh `hookrun run` pays per guard.
    for name in ["dangerous-commands", "protect-paths", "redact-secrets"] {
        c.bench_function(&format!("load {name}"), |b| {
            b.iter(|| Builtin::new(black_box(name), serde_json::Value::Null, Mode::Enforce))
        });
    }
    c.bench_function("spawn /bin/sh -c true", |b| {
        b.iter(|| {
            std::process::Command::new("/bin/sh")
                .args(["-c", "true"])
                .status()
                .expect("sh")
        });
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(3));
    targets = builtins
}
criterion_main!(benches);
