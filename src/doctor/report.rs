//! `doctor`'s report as data: its problems (their codes are listed in
//! docs/doctor.md's table), each registration and canary result, and the
//! text a user reads.

use std::path::PathBuf;

use serde::Serialize;

use crate::install::agent::Scope;
use hookrun_guards::Expect;

/// One thing wrong with a registration, and the command that fixes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Problem {
    pub code: &'static str,
    pub message: String,
    pub fix: String,
}

impl Problem {
    #[must_use]
    pub(crate) fn new(
        code: &'static str,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        Problem {
            code,
            message: message.into(),
            fix: fix.into(),
        }
    }
}

/// One config file a registration reads, and how far it is trusted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Layer {
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
pub(crate) struct Registration {
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
pub(crate) struct CanaryResult {
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
pub(crate) struct Report {
    /// Problems of no one registration (D010, D012).
    pub problems: Vec<Problem>,
    /// The installed version of each agent that has a registration.
    pub agents: Vec<super::agents::AgentVersion>,
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
    pub(crate) fn healthy(&self) -> bool {
        !self.registrations.is_empty()
            && self.problems.is_empty()
            && self.registrations.iter().all(|r| r.problems.is_empty())
            && self.canaries.iter().all(|c| c.holds)
    }
}

/// The scope's name, as `install --scope` takes it.
#[must_use]
pub(crate) fn scope_name(scope: Scope) -> &'static str {
    match scope {
        Scope::User => "user",
        Scope::Project => "project",
        Scope::Local => "local",
    }
}

/// What `doctor` lists before it fires: the user's own command hooks the
/// canaries will reach.
#[must_use]
pub(crate) fn render_command_hooks(hooks: &[String]) -> String {
    let mut s = String::from(
        "the canaries reach these command hooks of yours (they run; `--no-hooks` skips them):\n",
    );
    for h in hooks {
        s.push_str("  ");
        s.push_str(h);
        s.push('\n');
    }
    s
}

/// The text report.
#[must_use]
pub(crate) fn render_text(r: &Report) -> String {
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
pub(crate) fn expected(e: Expect) -> &'static str {
    e.as_str()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    /// Every `Dnnn` code in doctor's source has a row in docs/doctor.md's
    /// table, and every row names a code doctor can report: the table is
    /// the codes' one list.
    #[test]
    fn the_docs_table_lists_exactly_the_codes_doctor_reports() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let code = regex::Regex::new(r#""(D\d{3})""#).expect("regex");
        let mut in_source = BTreeSet::new();
        for entry in std::fs::read_dir(root.join("src/doctor")).expect("src/doctor") {
            let text = std::fs::read_to_string(entry.expect("entry").path()).expect("source");
            in_source.extend(code.captures_iter(&text).map(|c| c[1].to_owned()));
        }
        let row = regex::Regex::new(r"(?m)^\| (D\d{3}) \|").expect("regex");
        let docs = std::fs::read_to_string(root.join("docs/doctor.md")).expect("docs/doctor.md");
        let in_docs: BTreeSet<String> = row.captures_iter(&docs).map(|c| c[1].to_owned()).collect();
        assert!(in_source.len() >= 12, "{in_source:?}");
        assert_eq!(in_source, in_docs);
    }
}
