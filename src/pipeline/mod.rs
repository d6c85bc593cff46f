//! One event through the whole pipeline, without printing: select → launch
//! → exec → answer → decision → render. `run`, `explain --run` and `test`
//! all go through `evaluate`, so what they show is what `run` does.

use std::path::Path;

mod chain;
mod handler;
mod hooks;
mod http;
mod judge;
pub(crate) use judge::unavailable as judge_unavailable;
mod mcp;
pub(crate) use mcp::shutdown as mcp_shutdown;
mod model;
mod replies;
mod restrict;
mod rewrites;

use crate::config::{Config, Order};
use crate::decision::{self, Decision};
use crate::error::Error;
use crate::event::Event;
use crate::events::Family;
use crate::rendered::Rendered;
use crate::select::{self};
use chain::run_chain;
pub(crate) use handler::describe;
use hooks::{guard_only, run_notices, stdin_for};
pub(crate) use model::{Context, Evaluation};

/// Runs one event through the pipeline.
///
/// # Errors
/// Only hookrun's own failures: the runtime cannot start, or hookrun was
/// interrupted (every running hook is then killed).
pub(crate) fn evaluate(config: &Config, event: &Event, ctx: &Context) -> Result<Evaluation, Error> {
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
        ignored: Vec::new(),
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
    unavailable_to_unevaluated(config, &mut eval);
    merge_into(config, event, chained.as_ref(), &mut eval);
    if rewrites::judge_rewritten_input(config, event, Path::new(&ctx.project_dir), &mut eval) {
        merge_into(config, event, chained.as_ref(), &mut eval);
    }
    if !eval.plan.unevaluated.is_empty() {
        cannot_evaluate(config, event, ctx, &mut eval);
    }
    eval.decision.hook_exit_codes = eval
        .runs
        .iter()
        .filter(|r| !r.in_process && r.pid.is_some())
        .map(|r| match r.status {
            crate::exec::RunStatus::Exited(code) => code,
            crate::exec::RunStatus::TimedOut => 124,
            crate::exec::RunStatus::Signaled(_) | crate::exec::RunStatus::SpawnFailed(_) => 1,
        })
        .collect();

    let mut notices: Vec<String> = config.notices.iter().map(ToString::to_string).collect();
    notices.extend(eval.plan.notices.iter().cloned());
    notices.extend(eval.ignored.iter().cloned());
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
    if eval.rendered.exit_code == 0 {
        // Only beside an exit 0: after a block some agents read the whole
        // stderr as the reason (Codex) or as the hook's answer (Gemini CLI).
        eval.rendered.stderr.extend(
            config
                .quiet_notices
                .iter()
                .map(|n| crate::dialect::notice_line(&n.to_string())),
        );
    }
    eval.notices = notices;
    Ok(eval)
}

/// Hooks that ran but could not be evaluated on this machine (a judgement
/// with no model to ask) join those `select` could not run: their
/// answers are unknown, which the trust rule decides, not their fail mode.
fn unavailable_to_unevaluated(config: &Config, eval: &mut Evaluation) {
    for (sel, answer) in eval.selected.iter().zip(eval.answers.iter_mut()) {
        if let Some(crate::answer::Failure::Unavailable { message }) = &answer.failure {
            let hook = &config.hooks[sel.hook];
            eval.plan.unevaluated.push(format!(
                "{} `{}`: {message}, so this event was not fully evaluated",
                hook.origin.file.display(),
                hook.origin.key
            ));
            answer.failure = None;
            answer.notice = None;
        }
    }
}

/// Hooks that match but that hookrun cannot run: their answers are
/// unknown, so the event blocks where it can (the trust rule:
/// `decision::own_failure`) unless the user chose `--on-error allow`;
/// either way each is said.
fn cannot_evaluate(config: &Config, event: &Event, ctx: &Context, eval: &mut Evaluation) {
    let what = eval.plan.unevaluated.join("; ");
    if ctx.own_errors_block || config.any_closed {
        let reason = format!("hookrun: {what}");
        decision::own_failure(
            &mut eval.decision,
            &event.name,
            eval.family,
            &event.fields,
            reason,
        );
    } else {
        eval.plan
            .notices
            .push(format!("{what}; let through because of `--on-error allow`"));
    }
}

/// Merges every answer of `eval` into its decision, then what a chain
/// decided on top.
fn merge_into(config: &Config, event: &Event, chain: Option<&chain::Chain>, eval: &mut Evaluation) {
    eval.decision = decision::merge(
        &event.name,
        eval.family,
        &event.fields,
        &eval.inputs(config),
        &eval.on_failure_flags(config),
    );
    if let Some(chain) = chain {
        chain.apply(&event.name, &mut eval.decision);
    }
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
            if let Some(started) = handler::start_async(hook, event, ctx, stdin_for(hook, event)) {
                eval.started_async.push((sel.position, started));
            }
        } else {
            eval.selected.push(sel.clone());
        }
    }
    let jobs = eval
        .selected
        .iter()
        .map(|sel| {
            handler::job_of(
                &config.hooks[sel.hook],
                sel.not_run.as_deref(),
                event,
                ctx,
                config,
            )
        })
        .collect();
    let ran = handler::run_jobs(jobs, event, ctx, config)?;
    let mut ignored = Vec::new();
    let (runs, answers) = eval
        .selected
        .iter()
        .zip(ran)
        .map(|(sel, (run, answer))| {
            let (answer, notice) = guard_only(&config.hooks[sel.hook], answer, &event.name);
            ignored.extend(notice);
            (run, answer)
        })
        .unzip();
    eval.ignored = ignored;
    eval.runs = runs;
    eval.answers = answers;
    Ok(())
}
