//! What the pipeline works with and produces: where hooks run (`Context`)
//! and everything that happened for one event (`Evaluation`).

use std::time::Duration;

use crate::answer::Answer;
use crate::config::Config;
use crate::decision::{Decision, Input};
use crate::event::Event;
use crate::events::Family;
use crate::exec::HookRun;
use crate::rendered::Rendered;
use crate::report::{self, Ran};
use crate::select::{Plan, Selected};

/// Where and how hooks run, beyond the config.
#[derive(Debug, Clone)]
pub(crate) struct Context {
    /// `CLAUDE_PROJECT_DIR` for the hooks.
    pub project_dir: String,
    /// How deeply `hookrun run` is nested (`HOOKRUN_DEPTH`).
    pub depth: u32,
    /// An upper bound on every hook's timeout (`test`'s per-case limit).
    pub timeout_cap: Option<Duration>,
    /// Whether what hookrun cannot evaluate (a handler type it cannot run)
    /// blocks the event: `--on-error block`, the default.
    pub own_errors_block: bool,
}

impl Context {
    /// The context of a hookrun started by an agent: `CLAUDE_PROJECT_DIR`
    /// kept if set, else the current directory.
    #[must_use]
    pub(crate) fn from_env(depth: u32) -> Self {
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
            own_errors_block: true,
        }
    }
}

/// Everything that happened for one event.
#[derive(Debug)]
pub(crate) struct Evaluation {
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
    /// What untrusted project hooks answered that was dropped, one notice
    /// per hook (also among `notices`).
    pub ignored: Vec<String>,
    pub rendered: Rendered,
}

impl Evaluation {
    /// The merge inputs of the synchronous hooks, in config order.
    #[must_use]
    pub(crate) fn inputs<'a>(&'a self, config: &Config) -> Vec<Input<'a>> {
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
                    on_failure_note: hook.action.on_failure_note(),
                }
            })
            .collect()
    }

    /// The `fail_mode_from_on_failure` flags matching `inputs`.
    #[must_use]
    pub(crate) fn on_failure_flags(&self, config: &Config) -> Vec<bool> {
        self.selected
            .iter()
            .map(|s| config.hooks[s.hook].fail_mode_from_on_failure)
            .collect()
    }

    /// The per-hook report (`run --report`, `explain --format json`).
    #[must_use]
    pub(crate) fn report(&self, config: &Config, event: &Event) -> serde_json::Value {
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
