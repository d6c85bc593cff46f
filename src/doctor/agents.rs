//! Which version of each agent is installed, found as a person starting
//! it would find it (its launcher on PATH, `--version`), and whether
//! hookrun is tested with it (`tested`). A probe that hangs, fails or
//! prints no version never holds `doctor` up: each runs in its own
//! process group with a timeout, all at once.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use super::tested::{self, How};
use crate::error::Error;
use crate::exec::{self, ExecLimits, ExecSpec, HookRun, Program, RunStatus};
use crate::install::agent::Agent;
use crate::os;

/// Past this `--version` is a hang. Generous: Gemini CLI's launcher
/// loads its whole bundle first, which took 5 s on a busy 2-core machine,
/// and the agents are asked all at once.
pub(crate) const PROBE_LIMIT: Duration = Duration::from_secs(30);

/// Sets the probe's limit in whole seconds, for a machine slower than
/// [`PROBE_LIMIT`] allows for (or a test that must not wait for it).
pub(crate) const PROBE_LIMIT_VAR: &str = "HOOKRUN_DOCTOR_VERSION_TIMEOUT";

/// The probe's limit: `$HOOKRUN_DOCTOR_VERSION_TIMEOUT` seconds when set to
/// a positive whole number, else [`PROBE_LIMIT`].
fn probe_limit() -> Duration {
    std::env::var(PROBE_LIMIT_VAR)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&n| n > 0)
        .map_or(PROBE_LIMIT, Duration::from_secs)
}

/// What a version probe may print that is kept: a version is one line.
const PROBE_OUTPUT: usize = 16 * 1024;

/// One agent's installed version, as reported.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct AgentVersion {
    pub agent: &'static str,
    /// The launcher looked for on PATH.
    pub program: &'static str,
    /// Where it was found; `null` when it is not on PATH.
    pub path: Option<PathBuf>,
    /// The first version-looking word `--version` printed.
    pub version: Option<String>,
    /// Whether `version` is one hookrun is tested with; `null` when no
    /// version was read.
    pub tested: Option<bool>,
    pub tested_versions: &'static [&'static str],
    /// `live` or `fixtures`.
    pub tested_by: How,
    /// What was found, in words.
    pub note: String,
    /// Why this is D012 (message, fix), when it is.
    #[serde(skip)]
    pub untested: Option<(String, String)>,
}

/// Probes each agent's launcher on `path_var` (doctor's own PATH: the one
/// the user starts the agent with), all at once, from `cwd`.
///
/// # Errors
/// The runtime cannot start, or hookrun was interrupted (the probes are
/// stopped first).
pub(crate) fn probe(
    agents: &[Agent],
    path_var: Option<&OsStr>,
    cwd: &Path,
) -> Result<Vec<AgentVersion>, Error> {
    let found: Vec<(Agent, Option<PathBuf>)> = agents
        .iter()
        .map(|&a| (a, os::find_on_path(tested::of(a).program, path_var)))
        .collect();
    let specs: Vec<ExecSpec> = found
        .iter()
        .filter_map(|(_, p)| p.as_ref())
        .map(|p| ExecSpec {
            program: Program::Exec {
                program: p.display().to_string(),
                args: vec!["--version".to_owned()],
            },
            input: Arc::new(Vec::new()),
            cwd: cwd.to_path_buf(),
            env: Vec::new(),
            clear_env: false,
            timeout: probe_limit(),
        })
        .collect();
    let mut runs = run(specs)?.into_iter();
    Ok(found
        .into_iter()
        .map(|(agent, path)| {
            let run = path.as_ref().and_then(|_| runs.next());
            judge(agent, path, run.as_ref())
        })
        .collect())
}

/// Runs the probes to their end or timeout; stdin is empty and closed.
fn run(specs: Vec<ExecSpec>) -> Result<Vec<HookRun>, Error> {
    let limits = ExecLimits {
        max_output_bytes: PROBE_OUTPUT,
        leak_grace: Duration::from_secs(1),
    };
    exec::run_blocking(specs, limits)
}

/// The first version-looking word of `text`: digits with at least one
/// dot (`2.1.332`, `0.171.0`, Cursor's dated `2025.09.18`), a `v` before
/// it dropped, a pre-release or build suffix (`-7ae6800`, `-beta.1`) kept,
/// punctuation after it (`1.0.102.`) not.
#[must_use]
pub(crate) fn parse_version(text: &str) -> Option<String> {
    let re = regex::Regex::new(
        r"(?:^|[^0-9A-Za-z.])[vV]?(\d+(?:\.\d+)+(?:[-+][0-9A-Za-z]+(?:[.-][0-9A-Za-z]+)*)?)",
    )
    .ok()?;
    re.captures(text)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str().to_owned())
}

/// The first line of a probe's output, shortened, for a message.
fn first_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let mut shown: String = line.chars().take(80).collect();
    if shown.len() < line.len() {
        shown.push('…');
    }
    shown
}

/// What one probe's run says about the agent.
fn judge(agent: Agent, path: Option<PathBuf>, run: Option<&HookRun>) -> AgentVersion {
    let row = tested::of(agent);
    let name = crate::install::agent_own::agent_name(agent);
    let program = row.program;
    let tested_list = if row.versions.is_empty() {
        "none".to_owned()
    } else {
        row.versions.join(", ")
    };
    let mut out = AgentVersion {
        agent: agent.as_str(),
        program,
        path: path.clone(),
        version: None,
        tested: None,
        tested_versions: row.versions,
        tested_by: row.how,
        note: String::new(),
        untested: None,
    };
    let (Some(path), Some(run)) = (path, run) else {
        out.note = format!("`{program}` is not on PATH: {name}'s version is not checked");
        return out;
    };
    let shown = path.display();
    let unreadable = match &run.status {
        RunStatus::Exited(0) => {
            let version = parse_version(&String::from_utf8_lossy(&run.stdout.bytes))
                .or_else(|| parse_version(&String::from_utf8_lossy(&run.stderr.bytes)));
            match version {
                Some(v) => {
                    out.version = Some(v);
                    None
                }
                None => Some(format!(
                    "printed no version (`{}`)",
                    first_line(if run.stdout.bytes.is_empty() {
                        &run.stderr.bytes
                    } else {
                        &run.stdout.bytes
                    })
                )),
            }
        }
        RunStatus::Exited(code) => {
            let err = first_line(&run.stderr.bytes);
            Some(if err.is_empty() {
                format!("exited with {code}")
            } else {
                format!("exited with {code}: {err}")
            })
        }
        RunStatus::Signaled(sig) => Some(format!("was killed by {}", os::signal_name(*sig))),
        RunStatus::TimedOut => Some(format!(
            "did not answer within {} s and was killed",
            probe_limit().as_secs()
        )),
        RunStatus::SpawnFailed(why) => Some(format!("could not be started: {why}")),
    };
    if let Some(why) = unreadable {
        out.note = format!("`{shown} --version` {why}");
        out.untested = Some((
            format!(
                "`{shown} --version` {why}: which {name} this is cannot be told, so it is not known to be one hookrun is tested with (tested: {tested_list})"
            ),
            format!(
                "make `{program} --version` print its version in your shell, then run `hookrun doctor` again"
            ),
        ));
        return out;
    }
    let version = out.version.clone().unwrap_or_default();
    let tested = row.versions.contains(&version.as_str());
    out.tested = Some(tested);
    if tested {
        out.note = format!("{name} {version} ({shown}): tested ({})", row.how.as_str());
        return out;
    }
    out.note = format!(
        "{name} {version} ({shown}): not tested (tested: {tested_list}, {})",
        row.how.as_str()
    );
    let fix = if row.versions.is_empty() {
        format!(
            "hookrun's {name} support rests on {}: check that a denied call is blocked in a real {name} session; a hookrun release that lists {name} {version} as tested removes this",
            row.basis
        )
    } else {
        format!(
            "use {name} {tested_list}, the version{} hookrun's {} tests run, or a hookrun release that lists {version} as tested; until then check that a denied call is blocked in a real {name} session",
            if row.versions.len() == 1 { "" } else { "s" },
            row.how.as_str()
        )
    };
    out.untested = Some((
        format!(
            "{name} {version} is a version hookrun has not been tested with (tested: {tested_list})"
        ),
        fix,
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_is_the_first_version_looking_word() {
        for (text, want) in [
            ("2.1.332 (Claude Code)\n", Some("2.1.332")),
            ("codex-cli 0.171.0\n", Some("0.171.0")),
            ("0.61.0\n", Some("0.61.0")),
            (
                "GitHub Copilot CLI 1.0.102.\nRun 'copilot update' to check for updates.\n",
                Some("1.0.102"),
            ),
            ("2025.09.18-7ae6800\n", Some("2025.09.18-7ae6800")),
            (
                "cursor-agent v2025.11.25-d5b3271",
                Some("2025.11.25-d5b3271"),
            ),
            ("1.2.0-beta.1, built today", Some("1.2.0-beta.1")),
            ("tool 3 of 4 (x86_64) 1.5", Some("1.5")),
            ("garbage", None),
            ("", None),
            ("version 7", None),
            ("abc1.2.3", None),
        ] {
            assert_eq!(parse_version(text).as_deref(), want, "{text:?}");
        }
    }

    #[test]
    fn only_an_executable_file_on_path_is_found() {
        use std::os::unix::fs::PermissionsExt as _;
        let a = tempfile::tempdir().expect("dir");
        let b = tempfile::tempdir().expect("dir");
        std::fs::write(a.path().join("claude"), "").expect("write");
        std::fs::create_dir(a.path().join("codex")).expect("dir");
        let exe = b.path().join("claude");
        std::fs::write(&exe, "#!/bin/sh\n").expect("write");
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let path = std::env::join_paths([a.path(), b.path()]).expect("join");
        assert_eq!(os::find_on_path("claude", Some(&path)), Some(exe));
        assert_eq!(os::find_on_path("codex", Some(&path)), None);
        assert_eq!(os::find_on_path("claude", None), None);
    }
}
