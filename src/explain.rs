//! Why each configured hook does or does not run for an event, and (with
//! `--run`) what each answered and how the merge got to the decision. Pure:
//! built from the config, the event, the plan and an evaluation.

use serde::Serialize;
use serde_json::Value;

use crate::answer::{Answer, Outcome};
use crate::config::Config;
use crate::decision::{self, Decision};
use crate::event::Event;
use crate::exec::{HookRun, RunStatus};
use crate::launch::timeout_of;
use crate::pipeline::Evaluation;
use crate::select::{Plan, Skip};

/// The whole explanation.
#[derive(Debug, Serialize)]
pub(crate) struct Explanation {
    pub event: String,
    pub known_event: bool,
    /// The matcher field and its value, when the event has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query_field: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    pub config_files: Vec<String>,
    pub hooks: Vec<Row>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub merge_steps: Vec<Step>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultView>,
    pub notices: Vec<String>,
}

/// One configured hook.
#[derive(Debug, Serialize)]
pub(crate) struct Row {
    pub index: usize,
    pub name: String,
    pub location: String,
    pub key: String,
    pub matched: bool,
    /// Why it matched or not, in words.
    pub why: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    pub plan: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ran: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<Answer>,
}

/// The decision after merging the hooks up to one of them.
#[derive(Debug, Serialize)]
pub(crate) struct Step {
    pub after: usize,
    pub name: String,
    pub summary: String,
    pub decision: Decision,
}

/// What `run` would print.
#[derive(Debug, Serialize)]
pub(crate) struct ResultView {
    pub exit_code: u8,
    pub stdout: String,
    pub stderr: Vec<String>,
}

/// Explains `event` against `config`, with the runs of `eval` when given.
#[must_use]
pub(crate) fn explain(
    config: &Config,
    event: &Event,
    plan: &Plan,
    eval: Option<&Evaluation>,
) -> Explanation {
    let names = event.info.map_or(crate::events::NameSet::Wide, |i| i.names);
    let hooks = plan
        .considered
        .iter()
        .map(|c| {
            let hook = &config.hooks[c.hook];
            let (_, why) =
                crate::matcher::explain(hook.matcher.as_ref(), names, plan.query.as_deref());
            let location = match hook.origin.line_col {
                Some((l, col)) => format!("{}:{l}:{col}", hook.origin.file.display()),
                None => hook.origin.file.display().to_string(),
            };
            let ran = eval.and_then(|e| {
                let i = e.selected.iter().position(|s| s.position == c.hook)?;
                Some((e.runs.get(i)?, e.answers.get(i)?))
            });
            let started_async =
                eval.and_then(|e| e.started_async.iter().find(|(p, _)| *p == c.hook));
            Row {
                index: c.hook,
                name: hook.display_name(),
                location,
                key: hook.origin.key.clone(),
                matched: c.matched,
                why,
                skipped: c
                    .skip
                    .as_ref()
                    .filter(|s| !matches!(s, Skip::NoMatch))
                    .map(|s| skip_text(s, config)),
                plan: plan_text(config, c.hook, event),
                ran: ran.map(|(run, answer)| ran_text(run, answer)).or_else(|| {
                    started_async.map(|(_, r)| match r {
                        Ok(pid) => format!(
                            "started in the background (pid {pid}); not waited for, not merged"
                        ),
                        Err(e) => format!("could not start: {e}"),
                    })
                }),
                answer: ran.map(|(_, a)| a.clone()),
            }
        })
        .collect();
    let merge_steps = eval.map(|e| steps(config, event, e)).unwrap_or_default();
    Explanation {
        event: event.name.clone(),
        known_event: event.info.is_some(),
        query_field: event.info.and_then(|i| i.query_field),
        query: plan.query.clone(),
        config_files: config
            .files
            .iter()
            .map(|f| f.display().to_string())
            .collect(),
        hooks,
        merge_steps,
        result: eval.map(|e| ResultView {
            exit_code: e.rendered.exit_code,
            stdout: e.rendered.stdout.clone(),
            stderr: e.rendered.stderr.clone(),
        }),
        notices: config
            .quiet_notices
            .iter()
            .map(ToString::to_string)
            .chain(eval.map_or_else(|| plan.notices.clone(), |e| e.notices.clone()))
            .collect(),
    }
}

fn skip_text(skip: &Skip, config: &Config) -> String {
    match skip {
        Skip::NoMatch => "does not match".to_owned(),
        Skip::Duplicate { runs_as } => format!(
            "identical to #{runs_as} ({}): runs once, at #{runs_as}'s position, with the settings of the last copy",
            config.hooks[*runs_as].display_name()
        ),
        Skip::IfRule { rule } => format!("its `if` rule `{rule}` does not admit this call"),
        Skip::IfOnNonToolEvent { rule } => {
            format!("it has an `if` rule (`{rule}`), and `if` never runs on a non-tool event")
        }
        Skip::Unsupported { kind } => format!("hookrun does not run {kind}s"),
        Skip::HttpOnStart => {
            "an http hook never runs on SessionStart or Setup (as in Claude Code)".to_owned()
        }
    }
}

fn plan_text(config: &Config, index: usize, event: &Event) -> String {
    let hook = &config.hooks[index];
    let program = crate::pipeline::describe(&hook.action);
    let timeout = crate::wording::fmt_secs(timeout_of(hook, event).as_secs_f64());
    let fail = match hook.fail_mode {
        crate::config::FailMode::Open => "fail_mode open",
        crate::config::FailMode::Closed => "fail_mode closed",
    };
    let mode = if hook.is_async {
        " · async (not waited for, not merged)"
    } else {
        ""
    };
    let rule = hook
        .if_rule
        .as_ref()
        .map(|r| format!(" · `if` rule `{r}` admits this call"))
        .unwrap_or_default();
    format!("{program} · timeout {timeout} · {fail}{mode}{rule}")
}

fn ran_text(run: &HookRun, answer: &Answer) -> String {
    let ms = run.duration.as_secs_f64() * 1000.0;
    let how = match &run.status {
        // A built-in has no process and no exit status.
        _ if run.in_process => format!("in-process after {ms:.2} ms"),
        // A request (http, a model API, an MCP call) has no exit status.
        RunStatus::Exited(_) if run.pid.is_none() => format!("answered after {ms:.0} ms"),
        RunStatus::Exited(code) => format!("exit {code} after {ms:.0} ms"),
        RunStatus::Signaled(sig) => format!(
            "killed by {} after {ms:.0} ms",
            crate::os::signal_name(*sig)
        ),
        RunStatus::TimedOut => format!("timed out, killed after {ms:.0} ms"),
        RunStatus::SpawnFailed(e) => format!("did not start: {e}"),
    };
    let outcome = match answer.outcome {
        Outcome::Success => "success".to_owned(),
        Outcome::Blocking => format!(
            "blocking: {}",
            answer.blocking_error.as_deref().unwrap_or("")
        ),
        Outcome::NonBlockingError => format!(
            "non-blocking error: {}",
            answer
                .notice
                .clone()
                .or_else(|| answer
                    .failure
                    .as_ref()
                    .map(crate::answer::Failure::describe))
                .unwrap_or_default()
        ),
        Outcome::Cancelled => "cancelled (answer discarded)".to_owned(),
    };
    let json = answer
        .json
        .as_ref()
        .map(|j| format!(" · answer {}", Value::Object(j.clone())))
        .unwrap_or_default();
    format!("{how} → {}{json}", outcome.trim_end())
}

/// The decision after each hook, merging in config order.
fn steps(config: &Config, event: &Event, eval: &Evaluation) -> Vec<Step> {
    let inputs = eval.inputs(config);
    let flags = eval.on_failure_flags(config);
    (0..inputs.len())
        .map(|i| {
            let d = decision::merge(
                &event.name,
                eval.family,
                &event.fields,
                &inputs[..=i],
                &flags[..=i],
            );
            Step {
                after: eval.selected[i].position,
                name: inputs[i].name.clone(),
                summary: d.summary(),
                decision: d,
            }
        })
        .collect()
}
