//! `doctor`'s judgement, pure: the problems of one registration's wiring
//! from what was found about it, which canaries a config promises, and
//! the report as data. `commands::doctor` finds the files, resolves the
//! program on PATH, loads the configs and fires the canaries; `agents`
//! asks each agent's launcher its version, `tested` is what it is judged by.

pub(crate) mod agents;
pub(crate) mod tested;

use std::path::PathBuf;

use serde::Serialize;

use crate::builtin::{Canary, Expect};
use crate::config::{Action, Config};
use crate::install::agent::{Agent, Scope};
use crate::install::fail_safe::fail_closed;

/// Every problem code `doctor` reports, with what it means: stable, and
/// listed in docs/doctor.md.
pub const CODES: &[(&str, &str)] = &[
    (
        "D001",
        "the registered command's program is not found (not on PATH, or no such file)",
    ),
    (
        "D002",
        "a machine-specific path in a project's shared settings file",
    ),
    ("D003", "a Copilot CLI registration without `--event`"),
    (
        "D004",
        "a registration on a blocking event without the agent's own fail-safe",
    ),
    (
        "D005",
        "an event the config has hooks on that no registration reading it receives",
    ),
    ("D006", "a hook that runs twice"),
    (
        "D007",
        "an untrusted project config: its guards or rewrites are dropped",
    ),
    ("D008", "a config the registration reads cannot be loaded"),
    (
        "D010",
        "an agent's settings file that is not valid JSON: what it registers cannot be seen",
    ),
    (
        "D009",
        "a canary got what the guard promises against (a block, an allow or a redaction failed)",
    ),
    (
        "D012",
        "an agent version hookrun has not been tested with, or one that cannot be read",
    ),
];

/// One thing wrong with a registration, and the command that fixes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub code: &'static str,
    pub message: String,
    pub fix: String,
}

impl Problem {
    #[must_use]
    pub fn new(code: &'static str, message: impl Into<String>, fix: impl Into<String>) -> Self {
        Problem {
            code,
            message: message.into(),
            fix: fix.into(),
        }
    }
}

/// One config file a registration reads, and how far it is trusted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Layer {
    pub path: PathBuf,
    /// Where discovery found it: `explicit` (`--config`), `user`, `env`
    /// (`$HOOKRUN_CONFIG`), `claude-settings` or `project`.
    pub source: &'static str,
    /// `trusted` (the user's own file, or a project file on the trust
    /// list), `untrusted` (a project file that may only add guards) or
    /// `missing`.
    pub trust: &'static str,
}

/// One hookrun registration: the command of one handler in one settings
/// file, on the events it is registered for.
#[derive(Debug, Clone, Serialize)]
pub struct Registration {
    pub agent: &'static str,
    pub scope: &'static str,
    pub file: PathBuf,
    pub events: Vec<String>,
    pub command: String,
    pub config_layers: Vec<Layer>,
    /// `trusted` when every layer is, else `untrusted`.
    pub trust: &'static str,
    pub problems: Vec<Problem>,
}

/// One canary fired through one registration.
#[derive(Debug, Clone, Serialize)]
pub struct CanaryResult {
    pub agent: &'static str,
    pub scope: &'static str,
    pub file: PathBuf,
    /// The agent's own name of the event.
    pub event: String,
    pub guard: &'static str,
    /// The command or file name inside the event.
    pub canary: &'static str,
    pub expected: &'static str,
    pub got: String,
    pub holds: bool,
}

/// Everything `doctor` found.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Problems of no one registration (D010, D012).
    pub problems: Vec<Problem>,
    /// The installed version of each agent that has a registration.
    pub agents: Vec<agents::AgentVersion>,
    pub registrations: Vec<Registration>,
    pub canaries: Vec<CanaryResult>,
    /// Canaries that could not be fired, and why (an agent with no shape
    /// for the event, an agent that cannot replace a tool's output).
    pub skipped: Vec<String>,
    /// The user's own command hooks the canaries reach (empty with
    /// `--no-hooks`).
    pub command_hooks: Vec<String>,
    pub ok: bool,
}

impl Report {
    /// Exit 0 only when no registration has a problem and every canary
    /// holds; with no registration at all there is nothing that guards.
    #[must_use]
    pub fn healthy(&self) -> bool {
        !self.registrations.is_empty()
            && self.problems.is_empty()
            && self.registrations.iter().all(|r| r.problems.is_empty())
            && self.canaries.iter().all(|c| c.holds)
    }
}

/// The scope's name, as `install --scope` takes it.
#[must_use]
pub fn scope_name(scope: Scope) -> &'static str {
    match scope {
        Scope::User => "user",
        Scope::Project => "project",
        Scope::Local => "local",
    }
}

/// The program word of a command (quotes removed): what the shell looks
/// for on PATH, or a path.
#[must_use]
pub fn program_of(command: &str) -> String {
    if let Some(quoted) = command.strip_prefix('\'') {
        return quoted.split('\'').next().unwrap_or("").to_owned();
    }
    crate::lint::installed::unquote(command.split(' ').next().unwrap_or(""))
}

/// The `--config` word of a command, as written.
fn config_word(command: &str) -> Option<&str> {
    command.split_once(" --config ").map(|(_, w)| w.trim())
}

/// What was found about one registration, beyond its command.
#[derive(Debug, Clone)]
pub struct Facts<'a> {
    pub agent: Agent,
    pub scope: Scope,
    pub command: &'a str,
    /// hookrun's names of the events it is registered for.
    pub model_events: &'a [String],
    /// The agent's events whose handler lacks the fail-safe key `install`
    /// writes there (`install::fail_safe`).
    pub fail_safe_missing_on: Vec<String>,
    /// Whether the program word resolves to an executable.
    pub program_found: bool,
    /// The `install` command that rewrites this registration.
    pub reinstall: String,
}

/// The problems of one registration's own wiring (D001–D004).
#[must_use]
pub fn wiring(f: &Facts<'_>) -> Vec<Problem> {
    let mut out = Vec::new();
    let program = program_of(f.command);
    let agent = f.agent.as_str();
    if !f.program_found {
        out.push(Problem::new(
            "D001",
            format!(
                "`{program}` is not found where {} runs this command{}: {}",
                crate::config::agent_own::agent_name(f.agent),
                if program.contains('/') {
                    ""
                } else {
                    " (not on PATH)"
                },
                if fail_closed(f.agent, "PreToolUse").is_some() {
                    "every event fails; the agent's fail-safe blocks what it covers, and the rest goes through unguarded"
                } else {
                    "every event fails and the guard is off"
                }
            ),
            if f.scope == Scope::Project {
                "put hookrun on PATH as `hookrun` (docs/packaging.md), then run hookrun doctor again".to_owned()
            } else {
                format!(
                    "put hookrun on PATH, or run {} from the hookrun you mean to use",
                    f.reinstall
                )
            },
        ));
    }
    if f.scope == Scope::Project {
        let local = if crate::install::location::has_local(f.agent) {
            "local"
        } else {
            "user"
        };
        let fix = format!(
            "run `hookrun install --agent {agent} --scope project` with hookrun on PATH and the config inside the project, or register this machine's paths with `--scope {local}`"
        );
        if let Err(why) = crate::install::portable::check_program(f.agent, f.scope, &program, None)
        {
            out.push(Problem::new("D002", why, fix.clone()));
        }
        if let Some(word) = config_word(f.command) {
            let path = crate::lint::installed::unquote(word);
            if path.starts_with('/') || path.starts_with('~') {
                out.push(Problem::new(
                    "D002",
                    format!(
                        "the project's shared settings name the config as `{path}`, a path on this machine only: on any other machine hookrun cannot read it"
                    ),
                    fix,
                ));
            }
        }
    }
    if crate::install::agent::names_event(f.agent) && !f.command.contains(" --event ") {
        out.push(Problem::new(
            "D003",
            "Copilot CLI's payloads name no event and this command gives none (`--event`): every event fails with exit 1",
            format!("run {}", f.reinstall),
        ));
    }
    if !f.fail_safe_missing_on.is_empty() && !f.command.contains("--on-error allow") {
        let key = f
            .model_events
            .iter()
            .find_map(|e| fail_closed(f.agent, e))
            .map_or("onFailure", |(k, _)| k);
        out.push(Problem::new(
            "D004",
            format!(
                "the handler for {} has no `{key}`: if hookrun cannot start, is killed or times out, {} lets the call through",
                f.fail_safe_missing_on.join(", "),
                crate::config::agent_own::agent_name(f.agent)
            ),
            format!("run {}", f.reinstall),
        ));
    }
    out
}

/// The canaries of each guard `config` promises on `model_event`: an
/// enforcing built-in listening to the event whose matcher admits the
/// canary's tool. Hooks that run hookrun itself are not guards.
#[must_use]
pub fn promised(config: &Config, model_event: &str) -> Vec<(&'static str, Canary)> {
    let mut out: Vec<(&'static str, Canary)> = Vec::new();
    let Some(info) = crate::events::known(model_event) else {
        return out;
    };
    for hook in &config.hooks {
        let Action::Builtin(b) = &hook.action else {
            continue;
        };
        if b.mode != crate::builtin::Mode::Enforce || !hook.listens_to(model_event) {
            continue;
        }
        let Some(entry) = crate::builtin::REGISTRY.iter().find(|e| e.name == b.name) else {
            continue;
        };
        for c in entry.canaries.iter().filter(|c| c.event == model_event) {
            let tool = match c.tool {
                crate::builtin::CanaryTool::Shell => "Bash",
                crate::builtin::CanaryTool::Read => "Read",
            };
            let admits = hook
                .matcher
                .as_ref()
                .is_none_or(|m| m.matches(info.names, tool).0);
            let dup = out
                .iter()
                .any(|(n, o)| *n == entry.name && o.input == c.input);
            if admits && !dup {
                out.push((entry.name, *c));
            }
        }
    }
    out
}

/// D012 for each agent whose installed version hookrun is not tested
/// with, or whose version cannot be read: the agent's, not one
/// registration's, so reported once at the top level.
#[must_use]
pub fn version_problems(found: &[agents::AgentVersion]) -> Vec<Problem> {
    found
        .iter()
        .filter_map(|a| a.untested.as_ref())
        .map(|(message, fix)| Problem::new("D012", message.clone(), fix.clone()))
        .collect()
}

/// The text report.
#[must_use]
pub fn render_text(r: &Report) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    for p in &r.problems {
        let _ = writeln!(s, "{}: {}\n  fix: {}", p.code, p.message, p.fix);
    }
    for a in &r.agents {
        let _ = writeln!(s, "agent {}: {}", a.agent, a.note);
    }
    if r.registrations.is_empty() {
        s.push_str("no hookrun registration found in any agent's settings: nothing runs hookrun (run `hookrun install --agent AGENT`)\n");
    }
    for reg in &r.registrations {
        let _ = writeln!(
            s,
            "{} ({}) {} [{}]\n  command: {}",
            reg.agent,
            reg.scope,
            reg.file.display(),
            reg.events.join(", "),
            reg.command
        );
        for l in &reg.config_layers {
            let _ = writeln!(
                s,
                "  reads: {} ({}, {})",
                l.path.display(),
                l.source,
                l.trust
            );
        }
        if reg.config_layers.is_empty() {
            s.push_str("  reads: no config file\n");
        }
        for p in &reg.problems {
            let _ = writeln!(s, "  {}: {}\n    fix: {}", p.code, p.message, p.fix);
        }
    }
    if !r.canaries.is_empty() {
        s.push_str("canaries:\n");
    }
    for c in &r.canaries {
        let _ = writeln!(
            s,
            "  {} {} ({}) {} {} `{}`: expected {}, got {}",
            if c.holds { "ok  " } else { "FAIL" },
            c.agent,
            c.scope,
            c.event,
            c.guard,
            c.canary,
            c.expected,
            c.got
        );
    }
    for why in &r.skipped {
        let _ = writeln!(s, "  skipped: {why}");
    }
    let problems: usize = r.problems.len()
        + r.registrations
            .iter()
            .map(|r| r.problems.len())
            .sum::<usize>();
    let failed = r.canaries.iter().filter(|c| !c.holds).count();
    let _ = writeln!(
        s,
        "{} registration(s), {problems} problem(s), {} of {} canaries held: {}",
        r.registrations.len(),
        r.canaries.len() - failed,
        r.canaries.len(),
        if r.ok {
            "guarded"
        } else {
            "NOT guarded as configured"
        }
    );
    s
}

/// What a canary expects, as shown.
#[must_use]
pub fn expected(e: Expect) -> &'static str {
    e.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(agent: Agent, scope: Scope, command: &str) -> Facts<'_> {
        Facts {
            agent,
            scope,
            command,
            model_events: &[],
            fail_safe_missing_on: Vec::new(),
            program_found: true,
            reinstall: "`hookrun install`".to_owned(),
        }
    }

    #[test]
    fn wiring_problems_each_have_their_code() {
        let codes = |f: &Facts<'_>| wiring(f).iter().map(|p| p.code).collect::<Vec<_>>();
        assert!(
            codes(&facts(
                Agent::Claude,
                Scope::Project,
                "hookrun run --dialect claude"
            ))
            .is_empty()
        );
        assert_eq!(
            codes(&facts(
                Agent::Claude,
                Scope::Project,
                "/home/u/.npm/bin/hookrun run --dialect claude"
            )),
            ["D002"]
        );
        assert_eq!(
            codes(&facts(
                Agent::Codex,
                Scope::Project,
                "hookrun run --dialect codex --config /home/u/h.toml"
            )),
            ["D002"]
        );
        assert!(
            codes(&facts(
                Agent::Codex,
                Scope::User,
                "/opt/hookrun run --dialect codex --config /home/u/h.toml"
            ))
            .is_empty()
        );
        assert_eq!(
            codes(&facts(
                Agent::Copilot,
                Scope::User,
                "hookrun run --dialect copilot"
            )),
            ["D003"]
        );
        let mut missing = facts(Agent::Claude, Scope::User, "hookrun run --dialect claude");
        missing.fail_safe_missing_on = vec!["PreToolUse".to_owned()];
        assert_eq!(codes(&missing), ["D004"]);
        missing.program_found = false;
        assert_eq!(codes(&missing), ["D001", "D004"]);
        assert_eq!(
            program_of("'/opt/my tools/hookrun' run"),
            "/opt/my tools/hookrun"
        );
        assert_eq!(program_of("hookrun run"), "hookrun");
    }
}
