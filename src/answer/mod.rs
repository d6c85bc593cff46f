//! One hook's answer: its run (exit status, stdout, stderr) read exactly as
//! Claude Code reads a command hook's result (docs/semantics.md, "Reading
//! answers"). Pure.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::exec::{HookRun, RunStatus};
use crate::wording::fmt_secs;

mod parse;
#[cfg(test)]
mod tests;
pub(crate) mod verdict;

pub(crate) use parse::js_trim;
use parse::{Parsed, parse_stdout};

/// Claude Code's classification of one hook run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Success,
    Blocking,
    NonBlockingError,
    /// Timed out: the answer is discarded.
    Cancelled,
}

/// Why a hook failed, for `fail_mode` and for reports. Each kind is named
/// distinctly in messages.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Failure {
    TimedOut {
        seconds: f64,
    },
    SpawnFailed {
        message: String,
    },
    /// Could not be run for a reason found before spawning.
    NotRun {
        message: String,
    },
    Signaled {
        signal: String,
    },
    ExitCode {
        code: i32,
    },
    InvalidJson {
        message: String,
    },
    WrongEventName {
        message: String,
    },
    MissingScript,
    /// A built-in hook could not do its job.
    Builtin {
        message: String,
    },
    /// A handler that is not a process (an http hook) gave no answer its
    /// rules accept.
    Handler {
        message: String,
    },
    /// The hook cannot be evaluated on this machine (a judgement with no
    /// model to ask): hookrun's own failure, which the trust rule decides,
    /// whatever the hook's fail mode.
    Unavailable {
        message: String,
    },
}

impl Failure {
    /// The failure's kind without its details, for texts where the details
    /// are already given (a hook's notice carries the JSON parse error).
    #[must_use]
    pub fn headline(&self) -> String {
        match self {
            Failure::InvalidJson { .. } => "printed invalid JSON".to_owned(),
            Failure::WrongEventName { .. } => "answered for the wrong event".to_owned(),
            other => other.describe(),
        }
    }

    /// A short phrase for reasons and notices: "timed out after 10s", ...
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Failure::TimedOut { seconds } => format!("timed out after {}", fmt_secs(*seconds)),
            Failure::SpawnFailed { message } => format!("could not start: {message}"),
            Failure::NotRun { message } => format!("was not run: {message}"),
            Failure::Signaled { signal } => format!("was killed by {signal}"),
            Failure::ExitCode { code: 126 } => "exited 126 (command not executable)".to_owned(),
            Failure::ExitCode { code: 127 } => "exited 127 (command not found)".to_owned(),
            Failure::ExitCode { code } => format!("exited {code}"),
            Failure::InvalidJson { message } | Failure::WrongEventName { message } => {
                format!("{}: {message}", self.headline())
            }
            Failure::MissingScript => {
                "exited 2 because its script appears to be missing".to_owned()
            }
            Failure::Builtin { message } => format!("failed: {message}"),
            Failure::Unavailable { message } => format!("cannot be evaluated here: {message}"),
            Failure::Handler { message } => format!("failed: {message}"),
        }
    }
}

/// One hook's answer.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    pub outcome: Outcome,
    /// The block text as Claude Code renders it (`[<cmd>]: <stderr>` for exit
    /// 2, the JSON reason otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocking_error: Option<String>,
    /// The schema-valid JSON object, with a `hookSpecificOutput` for another
    /// event already removed where Claude Code removes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub json: Option<Map<String, Value>>,
    /// Trimmed stdout of an exit-0 run that was not JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plain_stdout: Option<String>,
    /// What the user is told about a non-blocking error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    /// Set when the run counts as a failure for `fail_mode`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
    /// The exit code, or 1 for a hook killed by a signal (as Claude Code).
    #[serde(skip)]
    pub status: Option<i32>,
    #[serde(skip)]
    pub raw_stdout: String,
    #[serde(skip)]
    pub stderr: String,
}

/// Events where Claude Code reads an exit 2 with empty stdout and a "no such
/// file" or "can't open" stderr as a missing script, a non-blocking error,
/// so that a missing Stop hook cannot loop forever.
const MISSING_SCRIPT_EVENTS: &[&str] = &["Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"];
/// Events where an exit 2 whose JSON cannot be processed still blocks.
const GUARD_EVENTS: &[&str] = &["PreToolUse", "PermissionRequest", "PreSkillShellCommand"];

/// Reads one finished run for `event` (canonical name). `label` is the
/// hook's command as Claude Code quotes it in block texts.
#[must_use]
pub fn classify(event: &str, label: &str, run: &HookRun) -> Answer {
    let stdout = String::from_utf8_lossy(&run.stdout.bytes).into_owned();
    let stderr = String::from_utf8_lossy(&run.stderr.bytes).into_owned();
    let mut answer = Answer {
        outcome: Outcome::Success,
        blocking_error: None,
        json: None,
        plain_stdout: None,
        notice: None,
        failure: None,
        status: None,
        raw_stdout: String::new(),
        stderr: String::new(),
    };
    let status = match &run.status {
        RunStatus::TimedOut => {
            answer.outcome = Outcome::Cancelled;
            answer.failure = Some(Failure::TimedOut {
                seconds: run.duration.as_secs_f64(),
            });
            return answer;
        }
        RunStatus::SpawnFailed(message) => {
            answer.outcome = Outcome::NonBlockingError;
            answer.notice = Some(format!(
                "Error occurred while executing hook command: {message}"
            ));
            answer.failure = Some(Failure::SpawnFailed {
                message: message.clone(),
            });
            answer.status = Some(1);
            return answer;
        }
        RunStatus::Signaled(sig) => {
            answer.failure = Some(Failure::Signaled {
                signal: crate::os::signal_name(*sig),
            });
            1
        }
        RunStatus::Exited(code) => *code,
    };
    answer.status = Some(status);
    let exit2_block = |stderr: &str| {
        format!(
            "[{label}]: {}",
            if stderr.is_empty() {
                "No stderr output"
            } else {
                stderr
            }
        )
    };
    let mut parsed = parse_stdout(&stdout);
    if let Parsed::Invalid(message) = &parsed {
        if status != 2 {
            let mut text = message.clone();
            if status != 0 && !js_trim(&stderr).is_empty() {
                text.push_str(&format!(
                    "\n\nHook exited {status} with stderr:\n{}",
                    js_trim(&stderr)
                ));
            }
            answer.outcome = Outcome::NonBlockingError;
            answer.notice = Some(text);
            answer.failure.get_or_insert(Failure::InvalidJson {
                message: message.clone(),
            });
            answer.raw_stdout = stdout;
            answer.stderr = stderr;
            return answer;
        }
        parsed = Parsed::Plain;
    }
    match parsed {
        Parsed::Async => {
            if status == 2 {
                answer.outcome = Outcome::Blocking;
                answer.blocking_error = Some(exit2_block(&stderr));
            } else if status != 0 {
                answer.outcome = Outcome::NonBlockingError;
                answer.notice = Some(format!(
                    "Announced async, then failed with status code {status}"
                ));
                answer
                    .failure
                    .get_or_insert(Failure::ExitCode { code: status });
            }
        }
        Parsed::Json(obj) => match process_json(event, obj) {
            Ok((obj, blocking)) => {
                answer.blocking_error =
                    blocking.or_else(|| (status == 2).then(|| exit2_block(&stderr)));
                answer.outcome = if answer.blocking_error.is_some() {
                    Outcome::Blocking
                } else {
                    Outcome::Success
                };
                if status != 0 && status != 2 {
                    answer
                        .failure
                        .get_or_insert(Failure::ExitCode { code: status });
                }
                answer.json = Some(obj);
            }
            Err(message) => {
                if status == 2 && GUARD_EVENTS.contains(&event) {
                    answer.outcome = Outcome::Blocking;
                    answer.blocking_error = Some(format!(
                        "[{label}]: blocked (exit 2); its output could not be processed"
                    ));
                } else {
                    answer.outcome = Outcome::NonBlockingError;
                    answer.notice = Some(format!("Failed to run: {message}"));
                    answer.failure = Some(Failure::WrongEventName { message });
                }
            }
        },
        Parsed::Plain | Parsed::Invalid(_) => match status {
            0 => answer.plain_stdout = Some(js_trim(&stdout).to_owned()),
            2 if MISSING_SCRIPT_EVENTS.contains(&event)
                && js_trim(&stdout).is_empty()
                && looks_missing(&stderr) =>
            {
                answer.outcome = Outcome::NonBlockingError;
                answer.notice = Some(format!(
                    "Hook script appears to be missing — \"{label}\" exited 2 with: {stderr}. Treating as non-blocking."
                ));
                answer.failure = Some(Failure::MissingScript);
            }
            2 => {
                answer.outcome = Outcome::Blocking;
                answer.blocking_error = Some(exit2_block(&stderr));
            }
            code => {
                answer.outcome = Outcome::NonBlockingError;
                let err = js_trim(&stderr);
                answer.notice = Some(format!(
                    "Failed with non-blocking status code: {}",
                    if err.is_empty() {
                        "No stderr output"
                    } else {
                        err
                    }
                ));
                answer.failure.get_or_insert(Failure::ExitCode { code });
            }
        },
    }
    answer.raw_stdout = stdout;
    answer.stderr = stderr;
    answer
}

/// The failure a run shows by itself, whatever a dialect's reading made of
/// it: an exit other than 0 and 2, a death by a signal, a timeout, a hook
/// that could not start, or, on exit 0, stdout that opens a JSON object and is not one (whether
/// the object is valid is each dialect's reading).
/// Several agents read some of these as an answer (Gemini CLI an exit 1 as a
/// warning, Cursor an exit 3 as an allow); a hook whose `fail_mode` is
/// `"closed"` fails on them in every dialect alike.
#[must_use]
pub(crate) fn failure_of_run(run: &HookRun) -> Option<Failure> {
    match &run.status {
        RunStatus::TimedOut => Some(Failure::TimedOut {
            seconds: run.duration.as_secs_f64(),
        }),
        RunStatus::SpawnFailed(message) => Some(Failure::SpawnFailed {
            message: message.clone(),
        }),
        RunStatus::Signaled(sig) => Some(Failure::Signaled {
            signal: crate::os::signal_name(*sig),
        }),
        RunStatus::Exited(0) => {
            let stdout = String::from_utf8_lossy(&run.stdout.bytes);
            let text = js_trim(&stdout);
            if !text.starts_with('{') {
                return None;
            }
            serde_json::from_str::<Value>(text)
                .err()
                .map(|e| Failure::InvalidJson {
                    message: format!("stdout is not a JSON object: {e}"),
                })
        }
        RunStatus::Exited(2) => None,
        RunStatus::Exited(code) => Some(Failure::ExitCode { code: *code }),
    }
}

fn looks_missing(stderr: &str) -> bool {
    let lower = stderr.to_lowercase();
    lower.contains("no such file") || lower.contains("can't open")
}

/// Claude Code's processing of a JSON answer: drops a `hookSpecificOutput`
/// for another event next to a block, rejects one for another event otherwise, and computes
/// the blocking error. Returns the cleaned object and the block text.
fn process_json(
    event: &str,
    mut obj: Map<String, Value>,
) -> Result<(Map<String, Value>, Option<String>), String> {
    let hso_event = obj
        .get("hookSpecificOutput")
        .and_then(|h| h.get("hookEventName"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let block = obj.get("decision").and_then(Value::as_str) == Some("block");
    if let Some(name) = &hso_event
        && name != event
    {
        if block && event != "PermissionRequest" {
            obj.remove("hookSpecificOutput");
        } else {
            return Err(format!(
                "Hook returned incorrect event name: expected '{event}' but got '{name}'"
            ));
        }
    }
    let nonempty = |v: Option<&Value>| {
        v.and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let mut blocking = None;
    if block {
        blocking =
            Some(nonempty(obj.get("reason")).unwrap_or_else(|| "Blocked by hook".to_owned()));
    }
    if matches!(
        event,
        "PreToolUse" | "PreSkillShellCommand" | "PreModelSwitch"
    ) && let Some(hso) = obj.get("hookSpecificOutput")
        && hso.get("permissionDecision").and_then(Value::as_str) == Some("deny")
    {
        blocking = Some(
            nonempty(hso.get("permissionDecisionReason"))
                .or_else(|| nonempty(obj.get("reason")))
                .unwrap_or_else(|| "Blocked by hook".to_owned()),
        );
    }
    Ok((obj, blocking))
}
