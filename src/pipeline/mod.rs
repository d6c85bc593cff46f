//! One event through the whole pipeline, without printing: select → launch
//! → exec → answer → decision → render. `run`, `explain --run` and `test`
//! all go through `evaluate`, so what they show is what `run` does.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::answer::{self, Answer, Failure};
mod audit_record;
mod chain;

use crate::builtin::{Builtin, Verdict};
use crate::config::{Action, Config, Hook, Order};
use crate::decision::{self, Decision, Input};
use crate::error::Error;
use crate::event::Event;
use crate::events::Family;
use crate::exec::{self, ExecLimits, ExecSpec, HookRun, RunStatus};
use crate::launch::{hook_cwd, spec_for, timeout_of};
use crate::os::{self, LiveGroups, Stop};
use crate::rendered::Rendered;
use crate::report::{self, Ran};
use crate::select::{self, Plan, Selected};
use chain::run_chain;

/// Where and how hooks run, beyond the config.
#[derive(Debug, Clone)]
pub struct Context {
    /// `CLAUDE_PROJECT_DIR` for the hooks.
    pub project_dir: String,
    /// How deeply `hookrun run` is nested (`HOOKRUN_DEPTH`).
    pub depth: u32,
    /// An upper bound on every hook's timeout (`test`'s per-case limit).
    pub timeout_cap: Option<Duration>,
}

impl Context {
    /// The context of a hookrun started by an agent: `CLAUDE_PROJECT_DIR`
    /// kept if set, else the current directory.
    #[must_use]
    pub fn from_env(depth: u32) -> Self {
        let project_dir = std::env::var("CLAUDE_PROJECT_DIR")
            .ok()
            .filter(|p| !p.is_empty())
            .or_else(|| {
                std::env::current_dir()
                    .ok()
                    .map(|p| p.display().to_string())
            })
            .unwrap_or_default();
        Context {
            project_dir,
            depth,
            timeout_cap: None,
        }
    }
}

/// Everything that happened for one event.
#[derive(Debug)]
pub struct Evaluation {
    pub family: Family,
    pub plan: Plan,
    /// The synchronous hooks, in config order, with their runs and answers.
    pub selected: Vec<Selected>,
    pub runs: Vec<HookRun>,
    pub answers: Vec<Answer>,
    /// Async hooks started: position and pid (or why they could not start).
    pub started_async: Vec<(usize, Result<u32, String>)>,
    pub decision: Decision,
    pub notices: Vec<String>,
    pub rendered: Rendered,
}

impl Evaluation {
    /// The merge inputs of the synchronous hooks, in config order.
    #[must_use]
    pub fn inputs<'a>(&'a self, config: &Config) -> Vec<Input<'a>> {
        self.selected
            .iter()
            .zip(&self.answers)
            .map(|(sel, a)| {
                let hook = &config.hooks[sel.hook];
                Input {
                    name: hook.display_name(),
                    label: hook.label(),
                    fail_mode: hook.fail_mode,
                    answer: a,
                }
            })
            .collect()
    }

    /// The `fail_mode_from_on_failure` flags matching `inputs`.
    #[must_use]
    pub fn on_failure_flags(&self, config: &Config) -> Vec<bool> {
        self.selected
            .iter()
            .map(|s| config.hooks[s.hook].fail_mode_from_on_failure)
            .collect()
    }

    /// The per-hook report (`run --report`, `explain --format json`).
    #[must_use]
    pub fn report(&self, config: &Config, event: &Event) -> serde_json::Value {
        let mut rows: Vec<Ran<'_>> = self
            .selected
            .iter()
            .enumerate()
            .map(|(i, sel)| Ran {
                position: sel.position,
                hook: sel.hook,
                run: self.runs.get(i),
                answer: self.answers.get(i),
                is_async: false,
                async_pid: None,
            })
            .collect();
        for (position, result) in &self.started_async {
            let hook = self
                .plan
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
        report::build(
            config,
            &event.name,
            &self.plan,
            &rows,
            &self.decision,
            &self.notices,
            self.rendered.exit_code,
        )
    }
}

/// Runs one event through the pipeline.
///
/// # Errors
/// Only hookrun's own failures: the runtime cannot start, or hookrun was
/// interrupted (every running hook is then killed).
pub fn evaluate(config: &Config, event: &Event, ctx: &Context) -> Result<Evaluation, Error> {
    let plan = select::select(config, event);
    let family = event.info.map_or(Family::Generic, |i| i.family);
    let mut eval = Evaluation {
        family,
        plan,
        selected: Vec::new(),
        runs: Vec::new(),
        answers: Vec::new(),
        started_async: Vec::new(),
        decision: Decision::default(),
        notices: Vec::new(),
        rendered: Rendered {
            stdout: String::new(),
            stderr: Vec::new(),
            exit_code: 0,
        },
    };
    let chained = match config.order_of(&event.name) {
        Order::Parallel => {
            run_parallel(config, event, ctx, &mut eval)?;
            None
        }
        order => Some(run_chain(config, event, ctx, order, &mut eval)?),
    };
    eval.decision = decision::merge(
        &event.name,
        family,
        &event.fields,
        &eval.inputs(config),
        &eval.on_failure_flags(config),
    );
    if let Some(chain) = chained {
        chain.apply(&event.name, &mut eval.decision);
    }

    let mut notices: Vec<String> = config.notices.iter().map(ToString::to_string).collect();
    notices.extend(eval.plan.notices.iter().cloned());
    for (sel, run) in eval.selected.iter().zip(&eval.runs) {
        notices.extend(run_notices(&config.hooks[sel.hook], run, config));
    }
    for (position, result) in &eval.started_async {
        if let Err(e) = result {
            notices.push(format!(
                "async hook `{}` could not start: {e}",
                config.hooks[*position].display_name()
            ));
        }
    }
    eval.rendered =
        crate::dialect::protocol(event.dialect).render(event, family, &eval.decision, &notices);
    eval.notices = notices;
    Ok(eval)
}

/// The spec of a command hook, with its stdin and the context's cap.
fn spec_of(hook: &Hook, event: &Event, ctx: &Context, input: Arc<Vec<u8>>) -> Option<ExecSpec> {
    let cwd = hook_cwd(event);
    spec_for(hook, event, &cwd, &ctx.project_dir, ctx.depth).map(|mut s| {
        if let Some(cap) = ctx.timeout_cap {
            s.timeout = s.timeout.min(cap);
        }
        s.input = input;
        s
    })
}

/// What a hook reads on stdin: the caller's bytes when it speaks the
/// caller's dialect, else the event as its own dialect wants it.
fn stdin_for(hook: &Hook, event: &Event) -> Arc<Vec<u8>> {
    let wanted = hook.input.unwrap_or(event.dialect);
    if wanted == event.dialect && !event.dialect.is_claude_like() {
        return Arc::clone(&event.raw);
    }
    crate::dialect::protocol(wanted)
        .payload(event)
        .map_or_else(|| Arc::clone(&event.bytes), Arc::new)
}

/// Reads a run by the rules of the dialect the hook speaks.
fn read_answer(hook: &Hook, event: &Event, run: &HookRun, ctx: &Context) -> Answer {
    let timeout = timeout_of(hook, event).min(ctx.timeout_cap.unwrap_or(Duration::MAX));
    let reading = crate::dialect::Reading {
        timeout_secs: timeout.as_secs_f64(),
        fail_mode_explicit: hook.fail_mode_explicit,
    };
    let mut a = crate::dialect::protocol(hook.input.unwrap_or(event.dialect)).classify(
        &event.name,
        &hook.label(),
        run,
        &reading,
    );
    if let Some(Failure::TimedOut { seconds }) = &mut a.failure {
        *seconds = timeout.as_secs_f64();
    }
    a
}

/// All hooks at once; answers kept in config order.
fn run_parallel(
    config: &Config,
    event: &Event,
    ctx: &Context,
    eval: &mut Evaluation,
) -> Result<(), Error> {
    // Async hooks start first and are never waited for.
    for sel in &eval.plan.selected {
        let hook = &config.hooks[sel.hook];
        if hook.is_async && sel.not_run.is_none() {
            if let Some(s) = spec_of(hook, event, ctx, stdin_for(hook, event)) {
                eval.started_async
                    .push((sel.position, exec::spawn_async(&s, &s.input)));
            }
        } else {
            eval.selected.push(sel.clone());
        }
    }
    let selected = &eval.selected;
    let specs: Vec<Option<ExecSpec>> = selected
        .iter()
        .map(|sel| {
            let hook = &config.hooks[sel.hook];
            if sel.not_run.is_some() {
                None
            } else {
                spec_of(hook, event, ctx, stdin_for(hook, event))
            }
        })
        .collect();
    // Built-ins run in-process while the command hooks run.
    let builtins = || -> Vec<Option<(HookRun, Answer)>> {
        selected
            .iter()
            .map(|sel| {
                let hook = &config.hooks[sel.hook];
                match (&sel.not_run, &hook.action) {
                    (None, Action::Builtin(b)) => Some(run_builtin(
                        b,
                        &hook.display_name(),
                        event,
                        Path::new(&ctx.project_dir),
                    )),
                    _ => None,
                }
            })
            .collect()
    };
    let (mut runs, builtin_results) = run_specs(&specs, event, config, builtins)?;
    let answers = selected
        .iter()
        .zip(runs.iter_mut())
        .zip(builtin_results)
        .map(|((sel, run), builtin)| {
            let hook = &config.hooks[sel.hook];
            match (&sel.not_run, builtin) {
                (Some(why), _) => not_run_answer(why),
                (None, Some((r, a))) => {
                    *run = r;
                    a
                }
                (None, None) => read_answer(hook, event, run, ctx),
            }
        })
        .collect();
    eval.runs = runs;
    eval.answers = answers;
    Ok(())
}

/// Runs the sync hooks concurrently inside a small runtime that also
/// watches for SIGINT and SIGTERM: on either, every running hook group is
/// terminated before hookrun exits.
fn run_specs<T>(
    specs: &[Option<ExecSpec>],
    event: &Event,
    config: &Config,
    meanwhile: impl FnOnce() -> T,
) -> Result<(Vec<HookRun>, T), Error> {
    let to_run: Vec<ExecSpec> = specs.iter().flatten().cloned().collect();
    let limits = ExecLimits {
        max_output_bytes: config.limits.max_output_bytes,
        leak_grace: config.limits.leak_grace,
    };
    let (results, extra) = if to_run.is_empty() {
        (Vec::new(), meanwhile())
    } else {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(Error::Runtime)?;
        let live = LiveGroups::default();
        let _ = event;
        let outcome = rt.block_on(async {
            let mut termination = os::Termination::watch();
            tokio::select! {
                done = exec::run_all(to_run, limits, &live, meanwhile) => Ok(done),
                interruption = termination.recv() => Err(interruption),
            }
        });
        match outcome {
            Ok(done) => done,
            Err(interruption) => {
                live.signal_all(Stop::Terminate);
                std::thread::sleep(Duration::from_millis(100));
                live.signal_all(Stop::Kill);
                drop(rt);
                return Err(Error::Interrupted {
                    name: interruption.name,
                    signal: interruption.number,
                });
            }
        }
    };
    let mut results = results.into_iter();
    let runs = specs
        .iter()
        .map(|spec| match spec {
            Some(_) => results.next().unwrap_or_else(placeholder_run),
            None => placeholder_run(),
        })
        .collect();
    Ok((runs, extra))
}

/// Runs a built-in in-process. Its answer is written as the JSON a command
/// hook would print and read by the same classifier, so a built-in merges
/// exactly like the equivalent script.
fn run_builtin(b: &Builtin, label: &str, event: &Event, project: &Path) -> (HookRun, Answer) {
    let started = std::time::Instant::now();
    let verdict = b.evaluate(event, project);
    let (json, status) = crate::builtin::answer_json(b, label, &event.name, &verdict);
    let stdout = json
        .map(|j| serde_json::Value::Object(j).to_string())
        .unwrap_or_default();
    let run = HookRun {
        status: RunStatus::Exited(status),
        stdout: exec::Captured {
            bytes: stdout.into_bytes(),
            dropped: 0,
        },
        stderr: exec::Captured::default(),
        leaked: false,
        duration: started.elapsed(),
        pid: None,
    };
    let mut a = answer::classify(&event.name, label, &run);
    if let Verdict::Failed(message) = verdict {
        a.outcome = answer::Outcome::NonBlockingError;
        a.notice = Some(message.clone());
        a.failure = Some(Failure::Builtin { message });
    }
    (run, a)
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
    let mut a = answer::classify("", "", &placeholder_run());
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
            crate::wording::fmt_secs(config.limits.leak_grace.as_secs_f64())
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
