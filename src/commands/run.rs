//! `hookrun run`: config → event → select → exec → answer → decision → output.

use std::sync::Arc;
use std::time::Duration;

use crate::answer::{self, Answer, Failure};
use crate::cli::RunArgs;
use crate::config::{self, Config, Discovery, FailMode, Hook, LoadOptions};
use crate::decision::{self, Input};
use crate::error::Error;
use crate::event::{self, Event};
use crate::events::Family;
use crate::exec::{self, ExecLimits, ExecSpec, HookRun, LiveGroups, RunStatus};
use crate::launch::{DEPTH_VAR, hook_cwd, spec_for, timeout_of};
use crate::output;
use crate::report::{self, Ran};
use crate::select::{self, Plan};

/// Nesting depth past which `run` refuses to start: a config that runs
/// `hookrun run` on itself would otherwise fork without end.
const MAX_DEPTH: u32 = 8;

/// Runs one event and returns the exit code. Never panics on bad input:
/// every problem becomes a message and an exit code.
#[must_use]
pub fn execute(args: &RunArgs) -> u8 {
    let cli_closed = args.fail_mode == Some(FailMode::Closed);
    let config = match load_config(args) {
        Ok(c) => c,
        Err(e) => return fail(&e, cli_closed),
    };
    for w in &config.warnings {
        output::diagnostic(&format!("warning: {w}"));
    }
    let depth = std::env::var(DEPTH_VAR)
        .ok()
        .and_then(|d| d.parse::<u32>().ok())
        .unwrap_or(0);
    if depth >= MAX_DEPTH {
        let e = Error::Event(format!(
            "hookrun run is nested {depth} deep; a configured hook probably runs `hookrun run` on the same config"
        ));
        return fail(&e, config.any_closed);
    }
    let event = match event::read_capped(std::io::stdin().lock(), config.limits.max_event_bytes)
        .and_then(|raw| event::parse(&raw, args.event.as_deref()))
    {
        Ok(e) => e,
        Err(e) => return fail(&e, config.any_closed),
    };
    match run_event(&config, &event, depth, args.report.as_deref()) {
        Ok(code) => code,
        Err(e) => fail(&e, false),
    }
}

fn fail(e: &Error, closed: bool) -> u8 {
    let block = closed && e.blocks_when_closed();
    output::error(&e.to_string(), block);
    if block { 2 } else { e.exit_code() }
}

fn load_config(args: &RunArgs) -> Result<Config, Error> {
    let (paths, discovery) = config::discover(&args.configs);
    let options = LoadOptions {
        default_fail_mode: args.fail_mode.unwrap_or(FailMode::Open),
    };
    let mut config = config::load(&paths, options)?;
    if discovery == Discovery::ClaudeLayers {
        // Claude Code's settings register hookrun itself; running that
        // registration again would recurse.
        config.hooks.retain(|h| !is_self_registration(h));
    }
    if paths.is_empty() {
        output::diagnostic(
            "warning: no config found (no --config, $HOOKRUN_CONFIG, ./hookrun.toml or Claude Code settings); nothing to run",
        );
    }
    if let Some(v) = args.max_event_bytes {
        config.limits.max_event_bytes = v;
    }
    if let Some(v) = args.max_output_bytes {
        config.limits.max_output_bytes = v;
    }
    Ok(config)
}

fn is_self_registration(hook: &Hook) -> bool {
    let label = hook.label();
    let mut words = label.split_whitespace();
    let program = words.next().unwrap_or("");
    program.rsplit('/').next() == Some("hookrun") && words.next() == Some("run")
}

fn run_event(
    config: &Config,
    event: &Event,
    depth: u32,
    report_path: Option<&std::path::Path>,
) -> Result<u8, Error> {
    let plan = select::select(config, event);
    let cwd = hook_cwd(event);
    let project_dir = std::env::var("CLAUDE_PROJECT_DIR")
        .ok()
        .filter(|p| !p.is_empty())
        .or_else(|| {
            std::env::current_dir()
                .ok()
                .map(|p| p.display().to_string())
        })
        .unwrap_or_default();

    // Async hooks start first and are never waited for.
    let mut async_pids: Vec<(usize, Result<u32, String>)> = Vec::new();
    let mut sync: Vec<&select::Selected> = Vec::new();
    for sel in &plan.selected {
        let hook = &config.hooks[sel.hook];
        if hook.is_async && sel.not_run.is_none() {
            if let Some(spec) = spec_for(hook, event, &cwd, &project_dir, depth) {
                async_pids.push((sel.position, exec::spawn_async(&spec, &event.bytes)));
            }
        } else {
            sync.push(sel);
        }
    }
    let specs: Vec<(usize, Option<ExecSpec>)> = sync
        .iter()
        .map(|sel| {
            let spec = if sel.not_run.is_some() {
                None
            } else {
                spec_for(&config.hooks[sel.hook], event, &cwd, &project_dir, depth)
            };
            (sel.position, spec)
        })
        .collect();
    let runs = run_specs(&specs, event, config)?;

    // Read each answer, in config order.
    let mut answers: Vec<Answer> = Vec::with_capacity(sync.len());
    for (sel, run) in sync.iter().zip(&runs) {
        let hook = &config.hooks[sel.hook];
        let mut a = match &sel.not_run {
            Some(why) => not_run_answer(why),
            None => answer::classify(&event.name, &hook.label(), run),
        };
        if let Some(Failure::TimedOut { seconds }) = &mut a.failure {
            *seconds = timeout_of(hook, event).as_secs_f64();
        }
        answers.push(a);
    }
    let inputs: Vec<Input<'_>> = sync
        .iter()
        .zip(&answers)
        .map(|(sel, a)| {
            let hook = &config.hooks[sel.hook];
            Input {
                name: hook.display_name(),
                label: hook.label(),
                fail_mode: hook.fail_mode,
                answer: a,
            }
        })
        .collect();
    let on_failure: Vec<bool> = sync
        .iter()
        .map(|s| config.hooks[s.hook].fail_mode_from_on_failure)
        .collect();
    let family = event.info.map_or(Family::Generic, |i| i.family);
    let decision = decision::merge(&event.name, family, &event.fields, &inputs, &on_failure);

    let mut notices: Vec<String> = config.notices.iter().map(ToString::to_string).collect();
    notices.extend(plan.notices.iter().cloned());
    for (sel, run) in sync.iter().zip(&runs) {
        let hook = &config.hooks[sel.hook];
        notices.extend(run_notices(hook, run, config));
    }
    for (position, result) in &async_pids {
        if let Err(e) = result {
            notices.push(format!(
                "async hook `{}` could not start: {e}",
                config.hooks[*position].display_name()
            ));
        }
    }
    let rendered = output::render(&event.name, family, &decision, &notices);
    output::emit(&rendered);

    if let Some(path) = report_path {
        let ran = ran_rows(&plan, &sync, &runs, &answers, &async_pids);
        let value = report::build(
            config,
            &event.name,
            &plan,
            &ran,
            &decision,
            &notices,
            rendered.exit_code,
        );
        if let Err(source) = output::write_report(path, &value) {
            // The decision is already out; a lost report is reported, not fatal.
            output::diagnostic(
                &Error::Report {
                    path: path.to_owned(),
                    source,
                }
                .to_string(),
            );
        }
    }
    Ok(rendered.exit_code)
}

fn ran_rows<'a>(
    plan: &Plan,
    sync: &[&select::Selected],
    runs: &'a [HookRun],
    answers: &'a [Answer],
    async_pids: &[(usize, Result<u32, String>)],
) -> Vec<Ran<'a>> {
    let mut rows: Vec<Ran<'a>> = sync
        .iter()
        .enumerate()
        .map(|(i, sel)| Ran {
            position: sel.position,
            hook: sel.hook,
            run: runs.get(i),
            answer: answers.get(i),
            is_async: false,
            async_pid: None,
        })
        .collect();
    for (position, result) in async_pids {
        let hook = plan
            .selected
            .iter()
            .find(|s| s.position == *position)
            .map_or(*position, |s| s.hook);
        rows.push(Ran {
            position: *position,
            hook,
            run: None,
            answer: None,
            is_async: true,
            async_pid: result.as_ref().ok().copied(),
        });
    }
    rows
}

/// Runs the sync hooks concurrently inside a small runtime that also
/// watches for SIGINT and SIGTERM: on either, every running hook group is
/// terminated before hookrun exits.
fn run_specs(
    specs: &[(usize, Option<ExecSpec>)],
    event: &Event,
    config: &Config,
) -> Result<Vec<HookRun>, Error> {
    let to_run: Vec<ExecSpec> = specs.iter().filter_map(|(_, s)| s.clone()).collect();
    let limits = ExecLimits {
        max_output_bytes: config.limits.max_output_bytes,
        leak_grace: config.limits.leak_grace,
    };
    let mut results = if to_run.is_empty() {
        Vec::new()
    } else {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(Error::Runtime)?;
        let live = LiveGroups::default();
        let input = Arc::clone(&event.bytes);
        let outcome = rt.block_on(async {
            use tokio::signal::unix::{SignalKind, signal};
            let mut term = signal(SignalKind::terminate()).ok();
            let mut int = signal(SignalKind::interrupt()).ok();
            tokio::select! {
                runs = exec::run_all(to_run, input, limits, &live) => Ok(runs),
                () = recv(&mut term) => Err(("SIGTERM", 15)),
                () = recv(&mut int) => Err(("SIGINT", 2)),
            }
        });
        match outcome {
            Ok(runs) => runs,
            Err((name, signal)) => {
                live.signal_all(exec::unix::Sig::SIGTERM);
                std::thread::sleep(Duration::from_millis(100));
                live.signal_all(exec::unix::Sig::SIGKILL);
                drop(rt);
                return Err(Error::Interrupted { name, signal });
            }
        }
    }
    .into_iter();
    Ok(specs
        .iter()
        .map(|(_, spec)| match spec {
            Some(_) => results.next().unwrap_or_else(placeholder_run),
            None => placeholder_run(),
        })
        .collect())
}

async fn recv(sig: &mut Option<tokio::signal::unix::Signal>) {
    match sig {
        Some(s) => {
            s.recv().await;
        }
        None => std::future::pending().await,
    }
}

fn placeholder_run() -> HookRun {
    HookRun {
        status: RunStatus::SpawnFailed("not run".into()),
        stdout: exec::Captured::default(),
        stderr: exec::Captured::default(),
        leaked: false,
        duration: Duration::ZERO,
        pid: None,
    }
}

fn not_run_answer(why: &str) -> Answer {
    let run = placeholder_run();
    let mut a = answer::classify("", "", &run);
    a.notice = Some(format!("Failed to run: {why}"));
    a.failure = Some(Failure::NotRun {
        message: why.to_owned(),
    });
    a
}

/// Notices about how a hook ran that do not change its answer.
fn run_notices(hook: &Hook, run: &HookRun, config: &Config) -> Vec<String> {
    let mut notices = Vec::new();
    let name = hook.display_name();
    if run.leaked {
        notices.push(format!(
            "hook `{name}` exited but a background process kept its output open; its process group was killed after {}, and the output read until then was used",
            answer::fmt_secs(config.limits.leak_grace.as_secs_f64())
        ));
    }
    for (stream, captured) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        if captured.dropped > 0 {
            notices.push(format!(
                "hook `{name}` wrote {} bytes to {stream}; only the first {} were kept",
                captured.bytes.len() as u64 + captured.dropped,
                captured.bytes.len()
            ));
        }
    }
    notices
}
