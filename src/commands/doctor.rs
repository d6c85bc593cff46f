//! `hookrun doctor`: finds hookrun's registrations in every agent's
//! settings, judges their wiring (`doctor`), and fires each promised
//! guard's canaries through the registered command the way its agent
//! runs it.

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::cli::{DoctorArgs, DoctorFormat, DoctorScope};
use crate::config::{self, Code, Config, Found, LoadOptions, Source};
use crate::dialect::canary::{Cwd, Fired, Got, Launch, Reads};
use crate::doctor::{self, CanaryResult, Facts, Layer, Problem, Registration, Report};
use crate::error::{Error, ExitStatus};
use crate::install::agent::{Agent, Scope};
use crate::install::location::Homes;
use crate::lint::installed::{self, model_events};
use crate::output;

/// Past this a canary's run is a hang: generous, since hookrun answers in
/// milliseconds and the user's own hooks may be slow.
/// How `run` loads a config when the agent starts it: no `--fail-mode`,
/// formats detected.
const OPTIONS: LoadOptions = LoadOptions {
    explicit: false,
    default_fail_mode: crate::config::FailMode::Open,
    format: None,
};

const CANARY_LIMIT: Duration = Duration::from_secs(60);

/// Runs `doctor`: exit 0 when every registration is sound and every
/// canary holds, 1 otherwise.
///
/// # Errors
/// The working directory cannot be read, or a scratch directory cannot
/// be made.
pub fn execute(args: &DoctorArgs) -> Result<ExitStatus, Error> {
    let project = config::project_dir()
        .ok_or_else(|| Error::Usage("cannot read the current directory".into()))?;
    let homes = Homes::from_env();
    let found: Vec<installed::Registration> = installed::registrations(&project, &homes)
        .into_iter()
        .filter(|r| args.agent.is_empty() || args.agent.contains(&r.agent))
        .filter(|r| match args.scope {
            None => true,
            Some(DoctorScope::User) => r.scope == Scope::User,
            Some(DoctorScope::Project) => r.scope != Scope::User,
        })
        .collect();
    let groups = group(&found);
    let scratch = tempfile::Builder::new()
        .prefix("hookrun-doctor-")
        .tempdir()
        .map_err(|source| Error::Io {
            what: "cannot make a scratch directory".into(),
            source,
        })?;
    let mut report = Report {
        problems: unreadable_settings(&project, &homes, &args.agent),
        agents: Vec::new(),
        registrations: Vec::new(),
        canaries: Vec::new(),
        skipped: Vec::new(),
        command_hooks: Vec::new(),
        ok: false,
    };
    let registered: Vec<Agent> = Agent::ALL
        .into_iter()
        .filter(|a| found.iter().any(|r| r.agent == *a))
        .collect();
    let path_var = std::env::var_os("PATH");
    report.agents = doctor::agents::probe(&registered, path_var.as_deref(), &project)?;
    report
        .problems
        .extend(doctor::version_problems(&report.agents));
    let mut plans: Vec<(usize, Plan)> = Vec::new();
    for g in &groups {
        let (reg, plan) = examine(g, &project, args.no_hooks, &mut report);
        plans.push((report.registrations.len(), plan));
        report.registrations.push(reg);
    }
    if !args.no_hooks && !report.command_hooks.is_empty() && args.format == DoctorFormat::Text {
        let mut s = String::from(
            "the canaries reach these command hooks of yours (they run; `--no-hooks` skips them):\n",
        );
        for h in &report.command_hooks {
            s.push_str("  ");
            s.push_str(h);
            s.push('\n');
        }
        output::print(&s);
    }
    for (i, plan) in plans {
        let mut results = fire(
            &plan,
            &project,
            scratch.path(),
            args.no_hooks,
            &mut report.skipped,
        );
        if results.iter().any(|c| !c.holds) {
            let failed: Vec<String> = results
                .iter()
                .filter(|c| !c.holds)
                .map(|c| format!("{} `{}` ({}, got {})", c.guard, c.canary, c.expected, c.got))
                .collect();
            report.registrations[i].problems.push(Problem::new(
                "D009",
                format!("the guards do not hold through this command: {}", failed.join("; ")),
                "fix the problems above, then run `hookrun doctor` again; `hookrun explain --run` shows what each hook answers",
            ));
        }
        report.canaries.append(&mut results);
    }
    report.ok = report.healthy();
    match args.format {
        DoctorFormat::Text => output::print(&doctor::render_text(&report)),
        DoctorFormat::Json => {
            let text = serde_json::to_string_pretty(&report).unwrap_or_default();
            output::print(&format!("{text}\n"));
        }
    }
    Ok(u8::from(!report.ok))
}

/// D010 for each agent's JSON settings file that does not parse: its
/// registrations cannot be seen (and the agent may skip the file).
fn unreadable_settings(project: &Path, homes: &Homes, agents: &[Agent]) -> Vec<Problem> {
    let mut out: Vec<Problem> = Vec::new();
    for agent in Agent::ALL {
        if !agents.is_empty() && !agents.contains(&agent) {
            continue;
        }
        for file in crate::install::location::hook_files(agent, project, homes) {
            if file.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let why = match std::fs::read(&file) {
                Err(e) => e.to_string(),
                Ok(bytes) => match serde_json::from_slice::<serde_json::Value>(&bytes) {
                    Ok(_) => continue,
                    Err(e) => e.to_string(),
                },
            };
            let p = Problem::new(
                "D010",
                format!(
                    "`{}` cannot be read as JSON ({why}): no registration in it can be seen",
                    file.display()
                ),
                format!(
                    "fix it (`hookrun check {}` names the line), then run `hookrun doctor` again",
                    crate::shell_word::word(&file.display().to_string())
                ),
            );
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// The registrations of one handler command in one file, on each event.
struct Group<'a> {
    regs: Vec<&'a installed::Registration>,
}

fn group(found: &[installed::Registration]) -> Vec<Group<'_>> {
    let mut out: Vec<Group<'_>> = Vec::new();
    for r in found {
        match out.iter_mut().find(|g| {
            let f = g.regs[0];
            f.agent == r.agent && f.file == r.file && f.command == r.command
        }) {
            Some(g) => g.regs.push(r),
            None => out.push(Group { regs: vec![r] }),
        }
    }
    out
}

/// What to fire through one registration.
struct Plan {
    agent: Agent,
    scope: Scope,
    file: PathBuf,
    command: String,
    /// (agent's event, model event, guard, canary)
    canaries: Vec<(String, &'static str, crate::builtin::Canary)>,
}

/// Judges one registration, and plans its canaries.
fn examine(
    g: &Group<'_>,
    project: &Path,
    no_hooks: bool,
    report: &mut Report,
) -> (Registration, Plan) {
    let first = g.regs[0];
    let agent = first.agent;
    let events: Vec<String> = g.regs.iter().map(|r| r.event.clone()).collect();
    let models: Vec<(String, String)> = g
        .regs
        .iter()
        .flat_map(|r| {
            model_events(agent, &r.event)
                .into_iter()
                .map(|m| (r.event.clone(), m))
        })
        .collect();
    let model_names: Vec<String> = models.iter().map(|(_, m)| m.clone()).collect();
    let fail_safe_missing_on: Vec<String> = g
        .regs
        .iter()
        .filter(|r| {
            model_events(agent, &r.event).iter().any(|m| {
                crate::install::fail_safe::fail_closed(agent, m)
                    .is_some_and(|(_, want)| r.fail_safe.as_ref() != Some(&want))
            })
        })
        .map(|r| r.event.clone())
        .collect();
    let facts = Facts {
        agent,
        scope: first.scope,
        command: &first.command,
        model_events: &model_names,
        fail_safe_missing_on,
        program_found: program_found(agent, &doctor::program_of(&first.command), project),
        reinstall: installed::install_command(first, project),
    };
    let mut problems = doctor::wiring(&facts);
    let files: Vec<Found> = match &first.config {
        Some(c) => vec![Found {
            path: c.clone(),
            source: Source::Explicit,
        }],
        None => config::discover_for(&[], Some(project)),
    };
    let layers = layers_of(&files);
    let options = OPTIONS;
    let paths = config::paths(&files);
    // What the user wrote, every hook seen (as `check` reads it): what the
    // config promises.
    let (promised, findings) = config::load_for_check(&paths, None, options);
    for f in findings
        .iter()
        .filter(|f| f.severity == crate::diagnostic::Severity::Error)
    {
        problems.push(Problem::new(
            "D008",
            format!("{}: {}", f.file.display(), f.message),
            format!(
                "fix the config, then run `hookrun check {}`",
                f.file.display()
            ),
        ));
    }
    for f in files.iter().filter(|f| !f.path.is_file()) {
        if f.source == Source::Explicit || f.source == Source::Env {
            problems.push(Problem::new(
                "D008",
                format!("`{}` does not exist: every event fails", f.path.display()),
                format!("create it (`hookrun init`), or run {}", facts.reinstall),
            ));
        }
    }
    config_problems(&promised, &files, project, agent, &mut problems);
    let mut canaries = Vec::new();
    for (theirs, model) in &models {
        for (guard, c) in doctor::promised(&promised, model) {
            canaries.push((theirs.clone(), guard, c));
        }
    }
    if !no_hooks {
        let loaded = effective(&files, options);
        let homes = Homes::from_env();
        // As `run` evaluates it for this agent: hooks read from the agent's
        // own files are the agent's to run.
        let effective = config::for_agent(&loaded, agent.dialect(), project, &homes);
        for hook in &effective.hooks {
            let reached = models.iter().any(|(_, m)| hook.listens_to(m));
            if reached
                && matches!(hook.action, crate::config::Action::Command { .. })
                && !hook.runs_hookrun()
            {
                let named = hook
                    .name
                    .as_ref()
                    .map(|n| format!("{n}: "))
                    .unwrap_or_default();
                let line = format!("{named}{} ({})", hook.label(), hook.origin.file.display());
                if !report.command_hooks.contains(&line) {
                    report.command_hooks.push(line);
                }
            }
        }
    }
    let trust = if layers.iter().all(|l| l.trust == "trusted") {
        "trusted"
    } else {
        "untrusted"
    };
    let reg = Registration {
        agent: agent.as_str(),
        scope: doctor::scope_name(first.scope),
        file: first.file.clone(),
        events,
        command: first.command.clone(),
        config_layers: layers,
        trust,
        problems,
    };
    let plan = Plan {
        agent,
        scope: first.scope,
        file: first.file.clone(),
        command: first.command.clone(),
        canaries,
    };
    (reg, plan)
}

/// The config `run` would use with these files, as far as it can be
/// loaded (for the hooks the canaries reach).
fn effective(files: &[Found], options: LoadOptions) -> Config {
    config::load_found(files, options).unwrap_or_default()
}

/// Each file's source and trust.
fn layers_of(files: &[Found]) -> Vec<Layer> {
    let (trust, _) = config::trust::TrustList::load();
    files
        .iter()
        .map(|f| {
            let source = match f.source {
                Source::Explicit => "explicit",
                Source::User => "user",
                Source::Env => "env",
                Source::ClaudeLayers => "claude-settings",
                Source::Project => "project",
            };
            let state = match std::fs::read(&f.path) {
                Err(_) => "missing",
                Ok(bytes) if f.source == Source::Project && !trust.allows(&f.path, &bytes) => {
                    "untrusted"
                }
                Ok(_) => "trusted",
            };
            Layer {
                path: f.path.clone(),
                source,
                trust: state,
            }
        })
        .collect()
}

/// D005–D007 from the lints `check` runs on the same files: an event no
/// registration receives (W019), a hook run twice (W018, W016), an
/// untrusted project file's dropped guards (W015).
fn config_problems(
    promised: &Config,
    files: &[Found],
    project: &Path,
    agent: Agent,
    out: &mut Vec<Problem>,
) {
    let lints = crate::lint::lint(promised, project);
    for d in &lints {
        let code = match d.code {
            Code::EventNotRegistered => "D005",
            Code::AgentRunsTwice | Code::RunsTwice => "D006",
            _ => continue,
        };
        let p = Problem::new(
            code,
            format!("{}: {}", d.file.display(), d.message),
            d.fix
                .clone()
                .unwrap_or_else(|| "see `hookrun check`".to_owned()),
        );
        if !out.contains(&p) {
            out.push(p);
        }
    }
    for f in files.iter().filter(|f| f.source == Source::Project) {
        let dropped = config::untrusted_findings(&f.path, OPTIONS);
        if dropped.is_empty() {
            continue;
        }
        let what: Vec<String> = dropped.iter().map(|d| d.message.clone()).collect();
        out.push(Problem::new(
            "D007",
            format!(
                "`{}` is not trusted, so {} drops: {}",
                f.path.display(),
                crate::config::agent_own::agent_name(agent),
                what.join("; ")
            ),
            format!(
                "read it, then run `hookrun trust {}`",
                crate::shell_word::word(&f.path.display().to_string())
            ),
        ));
    }
}

/// Whether the agent's own shell finds `program` (`command -v`), started
/// the way the agent starts a hook: a login shell may set another PATH
/// than the one `doctor` runs with.
fn program_found(agent: Agent, program: &str, project: &Path) -> bool {
    let (launch, _, _) = agent_parts(agent);
    let probe = format!("command -v -- {}", crate::shell_word::word(program));
    let shell_var = std::env::var("SHELL").ok();
    let (shell, flag) = launch.shell.argv(shell_var.as_deref());
    let mut cmd = Command::new(shell);
    cmd.arg(flag)
        .arg(probe)
        .current_dir(project)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    for var in launch.project_vars {
        cmd.env(var, project);
    }
    cmd.status().is_ok_and(|s| s.success())
}

/// Each agent's way of running a command, its payloads and how it reads
/// the answer: its dialect module's.
fn agent_parts(agent: Agent) -> (Launch, Reads, crate::dialect::canary::Payload) {
    use crate::dialect::{claude, codex, copilot, cursor, gemini};
    match agent {
        Agent::Claude => (claude::LAUNCH, claude::READS, claude::canary_payload),
        Agent::Codex => (codex::LAUNCH, codex::READS, codex::canary_payload),
        Agent::Gemini => (gemini::LAUNCH, gemini::READS, gemini::canary_payload),
        Agent::Cursor => (cursor::LAUNCH, cursor::READS, cursor::canary_payload),
        Agent::Copilot => (copilot::LAUNCH, copilot::READS, copilot::canary_payload),
    }
}

/// Fires a plan's canaries, each through the registered command.
fn fire(
    plan: &Plan,
    project: &Path,
    scratch: &Path,
    no_hooks: bool,
    skipped: &mut Vec<String>,
) -> Vec<CanaryResult> {
    let (launch, reads, payload) = agent_parts(plan.agent);
    let secret = crate::builtin::redact::CANARY_TOKEN_LINE
        .split_once('=')
        .map_or("", |(_, t)| t);
    let mut out = Vec::new();
    for (event, guard, c) in &plan.canaries {
        let what = format!(
            "{} ({}) {event} {guard} `{}`",
            plan.agent.as_str(),
            doctor::scope_name(plan.scope),
            c.input
        );
        if c.expect == crate::builtin::Expect::Redacted && reads.replaced_output.is_none() {
            skipped.push(format!(
                "{what}: {} cannot replace a tool's output, so no hook can redact it there",
                crate::config::agent_own::agent_name(plan.agent)
            ));
            continue;
        }
        let input = match c.tool {
            crate::builtin::CanaryTool::Shell => c.input.to_owned(),
            crate::builtin::CanaryTool::Read => scratch.join(c.input).display().to_string(),
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
                crate::config::agent_own::agent_name(plan.agent)
            ));
            continue;
        };
        let got = match run_as_agent(launch, &plan.command, project, scratch, &body, no_hooks) {
            Ok((code, stdout, stderr)) => {
                crate::dialect::canary::judge(reads, c.expect, code, &stdout, &stderr, secret)
            }
            Err(why) => Got::Failed(why),
        };
        out.push(CanaryResult {
            agent: plan.agent.as_str(),
            scope: doctor::scope_name(plan.scope),
            file: plan.file.clone(),
            event: event.clone(),
            guard,
            canary: c.input,
            expected: doctor::expected(c.expect),
            holds: got.holds(c.expect),
            got: got.shown(),
        });
    }
    out
}

/// Runs `command` as the agent would, with `event` on stdin: its shell,
/// working directory, project variables and text substitutions.
fn run_as_agent(
    launch: Launch,
    command: &str,
    project: &Path,
    scratch: &Path,
    event: &serde_json::Value,
    no_hooks: bool,
) -> Result<(Option<i32>, String, String), String> {
    let mut text = command.to_owned();
    let quoted = crate::shell_word::word(&project.display().to_string());
    for var in launch.substituted {
        text = text
            .replace(&format!("${{{var}}}"), &quoted)
            .replace(&format!("${var}"), &quoted);
    }
    let shell_var = std::env::var("SHELL").ok();
    let (program, flag) = launch.shell.argv(shell_var.as_deref());
    let mut cmd = Command::new(&program);
    cmd.arg(flag)
        .arg(&text)
        .current_dir(match launch.cwd {
            Cwd::Project => project,
            Cwd::EventCwd => scratch,
        })
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("GEMINI_PROJECT_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for var in launch.project_vars {
        cmd.env(var, project);
    }
    if no_hooks {
        cmd.env(crate::commands::run::BUILTINS_ONLY_VAR, "1");
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start `{program}`: {e}"))?;
    let body = event.to_string();
    let mut stdin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(s) = stdin.as_mut() {
            let _ = s.write_all(body.as_bytes());
        }
    });
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(o) = stdout.as_mut() {
            let _ = o.read_to_string(&mut s);
        }
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(e) = stderr.as_mut() {
            let _ = e.read_to_string(&mut s);
        }
        s
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if started.elapsed() > CANARY_LIMIT => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(format!("cannot wait for `{program}`: {e}")),
        }
    };
    let _ = writer.join();
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    Ok((status.and_then(|s| s.code()), stdout, stderr))
}
