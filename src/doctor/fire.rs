//! Running what the agent would run: the registered command in the agent's
//! own shell, working directory and environment, with a canary event on
//! stdin; and the `command -v` probe for its program. Every process goes
//! through `exec`, so a canary that hangs is stopped with its whole process
//! tree, as a hook would be.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::report::{self, CanaryResult};
use crate::dialect::canary::{Cwd, Fired, Got, Launch, Reads};
use crate::error::Error;
use crate::exec::{self, ExecLimits, ExecSpec, Program, RunStatus};
use crate::install::agent::{Agent, Scope};

/// What to fire through one registration.
pub(crate) struct Plan {
    pub(crate) agent: Agent,
    pub(crate) scope: Scope,
    pub(crate) file: PathBuf,
    pub(crate) command: String,
    /// (agent's event, guard, canary)
    pub(crate) canaries: Vec<(String, &'static str, hookrun_guards::Canary)>,
}

/// Past this a canary's run is a hang: generous, since hookrun answers in
/// milliseconds and the user's own hooks may be slow.
const CANARY_LIMIT: Duration = Duration::from_secs(60);

/// Past this the shell's `command -v` is a hang (a login shell's profile
/// that waits for input, say).
const PROBE_LIMIT: Duration = Duration::from_secs(15);

/// What a canary's answer may hold: far more than any answer hookrun gives.
const LIMITS: ExecLimits = ExecLimits {
    max_output_bytes: 1 << 20,
    leak_grace: Duration::from_millis(500),
};

/// Each agent's way of running a command, its payloads and how it reads
/// the answer: its dialect module's.
pub(crate) fn agent_parts(agent: Agent) -> (Launch, Reads, crate::dialect::canary::Payload) {
    let setup = crate::dialect::setup(agent);
    (setup.launch, setup.reads, setup.canary_payload)
}

/// Whether the agent's own shell finds `program` (`command -v`), started
/// the way the agent starts a hook: a login shell may set another PATH
/// than the one `doctor` runs with.
///
/// # Errors
/// hookrun was interrupted.
pub(crate) fn program_found(agent: Agent, program: &str, project: &Path) -> Result<bool, Error> {
    let (launch, _, _) = agent_parts(agent);
    let probe = format!("command -v -- {}", hookrun_sh::word::word(program));
    let spec = as_agent(
        launch,
        probe,
        project,
        project,
        Vec::new(),
        false,
        PROBE_LIMIT,
    );
    let runs = exec::run_blocking(vec![spec], LIMITS)?;
    Ok(runs
        .first()
        .is_some_and(|r| r.status == RunStatus::Exited(0)))
}

/// Fires a plan's canaries, each through the registered command; a canary
/// this agent has no shape for goes to `skipped`, with why.
///
/// # Errors
/// hookrun was interrupted.
pub(crate) fn fire(
    plan: &Plan,
    project: &Path,
    scratch: &Path,
    no_hooks: bool,
    skipped: &mut Vec<String>,
) -> Result<Vec<CanaryResult>, Error> {
    let (launch, reads, payload) = agent_parts(plan.agent);
    let secret = hookrun_guards::CANARY_TOKEN_LINE
        .split_once('=')
        .map_or("", |(_, t)| t);
    let mut out = Vec::new();
    for (event, guard, c) in &plan.canaries {
        let what = format!(
            "{} ({}) {event} {guard} `{}`",
            plan.agent.as_str(),
            report::scope_name(plan.scope),
            c.input
        );
        if c.expect == hookrun_guards::Expect::Redacted && reads.replaced_output.is_none() {
            skipped.push(format!(
                "{what}: {} cannot replace a tool's output, so no hook can redact it there",
                crate::install::agent_own::agent_name(plan.agent)
            ));
            continue;
        }
        let input = match c.tool {
            hookrun_guards::CanaryTool::Shell => c.input.to_owned(),
            hookrun_guards::CanaryTool::Read => scratch.join(c.input).display().to_string(),
        };
        let fired = Fired {
            agent_event: event,
            tool: c.tool,
            input: &input,
            output: c.output,
            cwd: scratch,
        };
        let Some(body) = payload(&fired) else {
            skipped.push(format!(
                "{what}: {} has no tool of this kind",
                crate::install::agent_own::agent_name(plan.agent)
            ));
            continue;
        };
        let text = substituted(launch, &plan.command, project);
        let cwd = match launch.cwd {
            Cwd::Project => project,
            Cwd::EventCwd => scratch,
        };
        let spec = as_agent(
            launch,
            text,
            project,
            cwd,
            body.to_string().into_bytes(),
            no_hooks,
            CANARY_LIMIT,
        );
        let runs = exec::run_blocking(vec![spec], LIMITS)?;
        let got = match runs.first().map(|r| (&r.status, r)) {
            None => Got::Failed("the command's run was lost".to_owned()),
            Some((RunStatus::SpawnFailed(why), _)) => Got::Failed(why.clone()),
            Some((status, run)) => {
                let code = match status {
                    RunStatus::Exited(code) => Some(*code),
                    _ => None,
                };
                let stdout = String::from_utf8_lossy(&run.stdout.bytes);
                let stderr = String::from_utf8_lossy(&run.stderr.bytes);
                crate::dialect::canary::judge(reads, c.expect, code, &stdout, &stderr, secret)
            }
        };
        out.push(CanaryResult {
            agent: plan.agent.as_str(),
            scope: report::scope_name(plan.scope),
            file: plan.file.clone(),
            event: event.clone(),
            guard,
            canary: c.input,
            expected: report::expected(c.expect),
            holds: got.holds(c.expect),
            got: got.shown(),
        });
    }
    Ok(out)
}

/// The command text after the agent's own substitutions of its project
/// variables (`${CLAUDE_PROJECT_DIR}`-style text the agent fills in
/// before the shell sees it).
fn substituted(launch: Launch, command: &str, project: &Path) -> String {
    let mut text = command.to_owned();
    let quoted = hookrun_sh::word::word(&project.display().to_string());
    for var in launch.substituted {
        text = text
            .replace(&format!("${{{var}}}"), &quoted)
            .replace(&format!("${var}"), &quoted);
    }
    text
}

/// `text` run as the agent runs a hook command: its shell and flag, the
/// project variables it sets (and none it does not: an outer agent's are
/// removed), with `input` on stdin.
fn as_agent(
    launch: Launch,
    text: String,
    project: &Path,
    cwd: &Path,
    input: Vec<u8>,
    no_hooks: bool,
    timeout: Duration,
) -> ExecSpec {
    let shell_var = std::env::var("SHELL").ok();
    let (shell, flag) = launch.shell.argv(shell_var.as_deref());
    let project_text = project.display().to_string();
    let mut env: Vec<(String, String)> = std::env::vars()
        .filter(|(k, _)| k != "CLAUDE_PROJECT_DIR" && k != "GEMINI_PROJECT_DIR")
        .collect();
    for var in launch.project_vars {
        env.push(((*var).to_owned(), project_text.clone()));
    }
    if no_hooks {
        env.push((crate::session::BUILTINS_ONLY_VAR.to_owned(), "1".to_owned()));
    }
    ExecSpec {
        program: Program::Exec {
            program: shell,
            args: vec![flag.to_string(), text],
        },
        input: Arc::new(input),
        cwd: cwd.to_path_buf(),
        env,
        clear_env: true,
        timeout,
    }
}
