//! One admitted event evaluated for `run` and `serve`: the config the
//! event's agent gets run, the pipeline, its audit line, and hookrun's own
//! failures (layers that could not be loaded, a lost audit line) answered
//! on top of what the hooks decided.

use super::audit_line;
use super::block::{own_block, own_reason};
use crate::agent::Agent;
use crate::cli::RunArgs;
use crate::config::{self, Config};
use crate::error::Error;
use crate::event::Event;
use crate::output;
use crate::pipeline::{self, Evaluation};
use crate::rendered::Rendered;

/// One handled event: its answer, its evaluation (`None` when hookrun's
/// own failure answered instead) and, where telemetry asked for it, what
/// its export carries.
pub(crate) struct Handled {
    pub eval: Option<Evaluation>,
    pub rendered: Rendered,
    pub observed: Option<crate::telemetry::Observed>,
}

/// Whether to build the event's telemetry (`Handled::observed`), and its
/// audit record for the log record.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Observe {
    pub audit: bool,
}

/// Evaluates one event and writes its audit line: what `run` and `serve`
/// share. hookrun's own failure while evaluating (no runtime, no audit
/// line written) is reported, and blocks unless `--on-error allow`; the
/// evaluation is `None` when there was none to report.
///
/// # Errors
/// An interruption, or hookrun's own failure under `--on-error allow`.
pub(crate) fn handle(
    config: &Config,
    event: &Event,
    args: &RunArgs,
    depth: u32,
    started: std::time::Instant,
    observe: Option<Observe>,
) -> Result<Handled, Error> {
    let blocks = super::block::own_errors_block(args, config.any_closed);
    let config = &*config_for(config, event, args);
    let mut ctx = pipeline::Context::from_env(depth);
    ctx.own_errors_block = blocks;
    let eval = match pipeline::evaluate(config, event, &ctx) {
        Ok(eval) => eval,
        Err(e) => {
            // Interrupted (SIGTERM while a hook ran) or hookrun's own
            // failure: the event still leaves its one line.
            audit_line::write_unfinished(config, Some(&event.name), &e);
            let e = e.closed_if(blocks);
            if !e.blocks() {
                return Err(e);
            }
            let rendered = own_block(event, &e);
            let observed = observe
                .map(|o| super::observed::of_failure(event, &e, &rendered, started, o.audit));
            return Ok(Handled {
                eval: None,
                rendered,
                observed,
            });
        }
    };
    let mut own = OwnFailures::default();
    own.unevaluated(config, blocks, &eval);
    own.audit(config, event, &eval, started.elapsed(), blocks);
    let rendered = own.answer(event, &eval);
    let observed = observe
        .map(|o| super::observed::of_evaluation(config, event, &eval, &rendered, started, o.audit));
    Ok(Handled {
        eval: Some(eval),
        rendered,
        observed,
    })
}

/// The config the event is evaluated with: what its agent does not run
/// itself (`load::for_event`); an agent run through the registration of
/// another whose settings files it also runs (Cursor's event under
/// `--dialect claude`) leaves out what it runs from that agent's files.
fn config_for<'a>(
    config: &'a Config,
    event: &Event,
    args: &RunArgs,
) -> std::borrow::Cow<'a, Config> {
    let via = |agent: Agent| {
        let registered = Agent::of(args.dialect?)?;
        (crate::dialect::setup(agent).quirks.also_runs == Some(registered)).then_some(registered)
    };
    match Agent::of(event.dialect).and_then(|a| Some((a, via(a)?))) {
        Some((agent, via)) => crate::install::agent_own::for_agent_via(
            config,
            agent,
            via,
            &config::project_dir().unwrap_or_default(),
            &crate::install::location::Homes::from_env(),
        ),
        None => super::load::for_event(config, event),
    }
}

/// hookrun's own failures added on top of what the hooks answered: what
/// they decided stands (a deny wins, a Stop blocks only once).
#[derive(Default)]
struct OwnFailures {
    /// Reasons that block the event, as hookrun's own failure.
    failures: Vec<String>,
    /// Lines for stderr beside the answer.
    stderr: Vec<String>,
    /// hookrun's error, answered instead of the hooks' decision.
    plain_error: Option<Error>,
}

impl OwnFailures {
    /// Config layers that could not be loaded (`unevaluated_block`).
    fn unevaluated(&mut self, config: &Config, blocks: bool, eval: &Evaluation) {
        let Some(e) = unevaluated_block(config, blocks) else {
            return;
        };
        if e.blocks() {
            self.failures.push(own_reason(&e));
        } else if eval.decision.blocked {
            self.stderr.push(format!("hookrun: {e}"));
        } else {
            self.plain_error = Some(e);
        }
    }

    /// Writes the event's audit line, where the config keeps a log; a line
    /// that cannot be written blocks unless `--on-error allow`.
    fn audit(
        &mut self,
        config: &Config,
        event: &Event,
        eval: &Evaluation,
        took: std::time::Duration,
        blocks: bool,
    ) {
        let Some(path) = &config.audit_log else {
            return;
        };
        let record = audit_line::of_evaluation(eval, config, event, took);
        match crate::audit::append(path, config.audit_key_file.as_deref(), record) {
            Ok(None) => {}
            Ok(Some(notice)) => self.stderr.push(format!("hookrun: {notice}")),
            Err(why) if blocks => {
                self.failures.push(own_reason(&Error::Internal(format!(
                    "no audit line written: {why}"
                ))));
            }
            Err(why) => self.stderr.push(format!("hookrun: {why}")),
        }
    }

    /// The event's answer: the hooks' own, hookrun's error, or the hooks'
    /// decision with hookrun's failures merged in and rendered again.
    fn answer(self, event: &Event, eval: &Evaluation) -> Rendered {
        let mut rendered = if self.failures.is_empty() {
            match &self.plain_error {
                Some(e) => output::error_answer(e),
                None => eval.rendered.clone(),
            }
        } else {
            let mut d = eval.decision.clone();
            for reason in self.failures {
                crate::decision::own_failure(
                    &mut d,
                    &event.name,
                    eval.family,
                    &event.fields,
                    reason,
                );
            }
            crate::dialect::protocol(event.dialect).render(event, eval.family, &d, &eval.notices)
        };
        rendered.stderr.extend(self.stderr);
        rendered
    }
}

/// The error for config layers that could not be loaded (`--config a.toml
/// --config missing.toml`, a trusted project file with a syntax error):
/// hookrun could not evaluate everything the user configured. The event was
/// still evaluated with the readable layers; this decides what the failure
/// adds: a block (`Error::blocks`) unless `--on-error allow` (and even then
/// where the readable layers fail closed), else hookrun's error (exit 1)
/// unless the readable layers block. The one place that decides it.
fn unevaluated_block(config: &Config, blocks: bool) -> Option<Error> {
    if config.unreadable.is_empty() {
        return None;
    }
    let failures: Vec<String> = config
        .unreadable
        .iter()
        .map(|u| {
            if u.path.as_os_str().is_empty() {
                u.error.to_string()
            } else {
                format!("{} (fix that file, or remove it)", u.error)
            }
        })
        .collect();
    let ran = if config.files.is_empty() {
        "no config file could be loaded"
    } else {
        "only the other config files' hooks ran"
    };
    let e = Error::Unevaluated(format!(
        "the config could not be fully evaluated ({ran}): {}",
        failures.join("; ")
    ));
    Some(e.closed_if(blocks))
}
