//! What `doctor` learns from the files: each registration's facts (its
//! program, fail-safe keys, the configs it reads and their trust), the
//! problems `check`'s lints find in those configs, and the canaries the
//! configs promise. Nothing here runs a process but the `command -v`
//! probe `fire` makes.

use std::path::Path;

use super::fire::{self, Plan};
use super::judge::{self, Facts};
use super::report::{self, Layer, Problem, Registration, Report};
use crate::config::{self, Code, Config, Found, LoadOptions, Source};
use crate::install::agent::Agent;
use crate::install::location::Homes;
use crate::lint::installed::{self, model_events};

/// How `run` loads a config when the agent starts it: no `--fail-mode`,
/// formats detected.
const OPTIONS: LoadOptions = LoadOptions {
    explicit: false,
    default_fail_mode: crate::config::FailMode::Open,
    format: None,
    foreign: crate::dialect::convert::HOOKS_FILES,
};

/// D010 for each agent's JSON settings file that does not parse: its
/// registrations cannot be seen (and the agent may skip the file).
pub(crate) fn unreadable_settings(project: &Path, homes: &Homes, agents: &[Agent]) -> Vec<Problem> {
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
                    hookrun_sh::word::word(&file.display().to_string())
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
pub(crate) struct Group<'a> {
    pub(crate) regs: Vec<&'a installed::Registration>,
}

pub(crate) fn group(found: &[installed::Registration]) -> Vec<Group<'_>> {
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

/// Judges one registration, and plans its canaries.
///
/// # Errors
/// hookrun was interrupted while probing for the program.
pub(crate) fn examine(
    g: &Group<'_>,
    project: &Path,
    no_hooks: bool,
    report: &mut Report,
) -> Result<(Registration, Plan), crate::error::Error> {
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
        // An `http` handler runs no program.
        program_found: first.http
            || fire::program_found(agent, &judge::program_of(&first.command), project)?,
        reinstall: installed::install_command(first, project),
    };
    let mut problems = judge::wiring(&facts);
    if let Some((url, token_env)) = crate::install::agent::server_of(&first.command)
        && let Err(why) = super::server::ready(&url, token_env.as_deref())
    {
        problems.push(Problem::new(
            "D013",
            format!(
                "the policy server {url} cannot answer this registration: {why}; every event fails{}",
                if facts.fail_safe_missing_on.len() < g.regs.len() {
                    ", and the agent's fail-safe blocks what it covers"
                } else {
                    " and the guard is off"
                }
            ),
            format!(
                "start it (`hookrun serve --http ADDR`, docs/serve.md), or run {}",
                facts.reinstall
            ),
        ));
    }
    problems.extend(unreviewed(
        agent,
        &first.file,
        &first.command,
        &Homes::from_env(),
    ));
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
        for (guard, c) in judge::promised(&promised, model) {
            canaries.push((theirs.clone(), guard, c));
        }
    }
    if !no_hooks {
        let loaded = effective(&files, options);
        let homes = Homes::from_env();
        // As `run` evaluates it for this agent: hooks read from the agent's
        // own files are the agent's to run.
        let effective =
            crate::install::agent_own::for_agent(&loaded, agent.dialect(), project, &homes);
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
        scope: report::scope_name(first.scope),
        file: first.file.clone(),
        events,
        command: first.command.clone(),
        config_layers: layers,
        trust,
        problems,
    };
    // An `http` handler's events are fired through this hookrun's
    // `forward`, which posts them as the agent would.
    let fired = match first.http.then(|| std::env::current_exe().ok()).flatten() {
        Some(exe) => first.command.replacen(
            "hookrun",
            &hookrun_sh::word::word(&exe.display().to_string()),
            1,
        ),
        None => first.command.clone(),
    };
    let plan = Plan {
        agent,
        scope: first.scope,
        file: first.file.clone(),
        command: fired,
        canaries,
    };
    Ok((reg, plan))
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
                crate::install::agent_own::agent_name(agent),
                what.join("; ")
            ),
            format!(
                "read it, then run `hookrun trust {}`",
                hookrun_sh::word::word(&f.path.display().to_string())
            ),
        ));
    }
}

/// D011 for a registration of `agent` in `file`: each of its hooks the
/// agent will not run, where it runs only hooks the user reviewed (its
/// dialect's `Quirks::hook_review`, which reads the agent's trust state).
fn unreviewed(agent: Agent, file: &Path, command: &str, homes: &Homes) -> Vec<Problem> {
    let quirks = crate::dialect::setup(agent).quirks;
    if let Some(lock) = quirks.machine_lock.and_then(|lock| lock()) {
        return vec![Problem::new("D011", lock.message, lock.fix)];
    }
    let Some(review) = quirks.hook_review else {
        return Vec::new();
    };
    review(file, command, homes, &|c| {
        crate::install::agent::is_registration(c, agent)
    })
    .into_iter()
    .map(|s| Problem::new("D011", s.message, s.fix))
    .collect()
}
