//! What `doctor` needs of each agent to fire a canary the way that agent
//! would: how the agent starts a hook's command (`Launch`), the event it
//! sends (`payload`, one function per dialect beside its other code) and
//! how it reads the answer (`judge`). Canaries are strings inside events:
//! nothing here runs a tool.

use std::path::Path;

use serde_json::Value;

use hookrun_guards::{CanaryTool, Expect};

/// A canary event in one agent's shape; `None` where the agent has no
/// such event or tool.
pub(crate) type Payload = fn(&Fired<'_>) -> Option<Value>;

/// How an agent starts a hook's command, on macOS and Linux.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Launch {
    /// The program and its flag before the command text.
    pub shell: Shell,
    /// Variables the agent sets to the project directory.
    pub project_vars: &'static [&'static str],
    /// Variables the agent replaces in the command text itself (already
    /// shell-quoted) before the shell sees it.
    pub substituted: &'static [&'static str],
    /// Where the command runs: the project, or the event's `cwd`.
    pub cwd: Cwd,
}

/// The shell an agent hands a command to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shell {
    /// `/bin/sh -c`, whatever `$SHELL` is.
    BinSh,
    /// `bash -c`, found on PATH.
    Bash,
    /// `$SHELL -lc` (a login shell; `/bin/sh` when `$SHELL` is unset).
    UserLogin,
}

impl Shell {
    /// The program and flag, `$SHELL` read from `shell_var`.
    #[must_use]
    pub(crate) fn argv(self, shell_var: Option<&str>) -> (String, &'static str) {
        match self {
            Shell::BinSh => ("/bin/sh".to_owned(), "-c"),
            Shell::Bash => ("bash".to_owned(), "-c"),
            Shell::UserLogin => (
                shell_var
                    .filter(|s| !s.is_empty())
                    .unwrap_or("/bin/sh")
                    .to_owned(),
                "-lc",
            ),
        }
    }
}

/// The working directory an agent gives a hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cwd {
    Project,
    EventCwd,
}

/// One canary, in the words the dialect's `payload` needs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fired<'a> {
    /// The agent's own name of the event.
    pub agent_event: &'a str,
    pub tool: CanaryTool,
    /// The shell command, or the absolute path the tool reads.
    pub input: &'a str,
    pub output: Option<&'a str>,
    /// The session's working directory the event names (a scratch one).
    pub cwd: &'a Path,
}

/// What the agent makes of a hook's answer to a canary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Got {
    Blocked,
    Allowed,
    Redacted,
    /// The output goes on to the model as it was.
    Unchanged,
    /// Neither an answer nor a block: what the agent does then is its
    /// failure rule, never a guard's decision.
    Failed(String),
}

impl Got {
    /// Whether this is what `expect` asks for.
    #[must_use]
    pub(crate) fn holds(&self, expect: Expect) -> bool {
        matches!(
            (self, expect),
            (Got::Blocked, Expect::Blocked)
                | (Got::Allowed, Expect::Allowed)
                | (Got::Redacted, Expect::Redacted)
        )
    }

    #[must_use]
    pub(crate) fn shown(&self) -> String {
        match self {
            Got::Blocked => "blocked".to_owned(),
            Got::Allowed => "allowed".to_owned(),
            Got::Redacted => "redacted".to_owned(),
            Got::Unchanged => "not redacted".to_owned(),
            Got::Failed(why) => format!("failed: {why}"),
        }
    }
}

/// How an agent reads a blocking answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reads {
    /// Exit 2 blocks (Codex: only with a reason on stderr).
    pub exit_2_needs_stderr: bool,
    /// The JSON key path of the replaced tool output, where the agent
    /// takes one.
    pub replaced_output: Option<&'static [&'static str]>,
}

/// Whether an answer's JSON denies, in any of the shapes the agents read:
/// `permissionDecision` (top level or in `hookSpecificOutput`),
/// `decision: "deny" | "block"`, Cursor's `permission`.
fn denies(v: &Value) -> bool {
    let is = |v: Option<&Value>, words: &[&str]| {
        v.and_then(Value::as_str)
            .is_some_and(|s| words.contains(&s))
    };
    is(v.get("permissionDecision"), &["deny"])
        || is(
            v.get("hookSpecificOutput")
                .and_then(|h| h.get("permissionDecision")),
            &["deny"],
        )
        || is(v.get("decision"), &["deny", "block"])
        || is(v.get("permission"), &["deny"])
}

/// What the agent makes of the answer (exit code, stdout, stderr) to a
/// canary that expects `expect`, where `secret` is the text a redaction
/// must remove.
#[must_use]
pub(crate) fn judge(
    reads: Reads,
    expect: Expect,
    code: Option<i32>,
    stdout: &str,
    stderr: &str,
    secret: &str,
) -> Got {
    let json: Option<Value> = serde_json::from_str(stdout.trim()).ok();
    match code {
        Some(2) if !reads.exit_2_needs_stderr || !stderr.trim().is_empty() => {
            return Got::Blocked;
        }
        Some(0) => {}
        Some(n) => {
            let first = stderr.lines().next().unwrap_or("").trim();
            return Got::Failed(format!("exit {n}{}", shown_line(first)));
        }
        None => return Got::Failed("killed by a signal or timed out".to_owned()),
    }
    if !stdout.trim().is_empty() && json.is_none() {
        return Got::Failed("stdout is not JSON".to_owned());
    }
    let json = json.unwrap_or(Value::Null);
    if denies(&json) {
        return Got::Blocked;
    }
    if expect != Expect::Redacted {
        return Got::Allowed;
    }
    let Some(path) = reads.replaced_output else {
        return Got::Unchanged;
    };
    let mut at = &json;
    for key in path {
        at = at.get(key).unwrap_or(&Value::Null);
    }
    let text = at.to_string();
    if !at.is_null() && !text.contains(secret) && text.contains("[REDACTED:") {
        Got::Redacted
    } else {
        Got::Unchanged
    }
}

fn shown_line(line: &str) -> String {
    if line.is_empty() {
        String::new()
    } else {
        format!(": {line}")
    }
}

/// The tool's own name and its input object, for the agents whose
/// payloads carry `tool_name` and `tool_input` (Claude Code, Codex,
/// Gemini CLI, Cursor): `names` is (shell, read), `path_key` the read
/// tool's path field.
#[must_use]
pub(crate) fn tool(fired: &Fired<'_>, names: (&str, &str), path_key: &str) -> (String, Value) {
    match fired.tool {
        CanaryTool::Shell => (
            names.0.to_owned(),
            serde_json::json!({ "command": fired.input }),
        ),
        CanaryTool::Read => {
            let mut input = serde_json::Map::new();
            input.insert(path_key.to_owned(), Value::String(fired.input.to_owned()));
            (names.1.to_owned(), Value::Object(input))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const READS: Reads = Reads {
        exit_2_needs_stderr: false,
        replaced_output: Some(&["hookSpecificOutput", "updatedToolOutput"]),
    };

    #[test]
    fn answers_are_read_as_the_agent_reads_them() {
        let j = |code, out: &str, err: &str, expect| judge(READS, expect, code, out, err, "ghp_x");
        assert_eq!(j(Some(2), "", "no", Expect::Blocked), Got::Blocked);
        assert_eq!(
            j(
                Some(0),
                r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#,
                "",
                Expect::Blocked
            ),
            Got::Blocked
        );
        assert_eq!(
            j(Some(0), r#"{"decision":"deny"}"#, "", Expect::Blocked),
            Got::Blocked
        );
        assert_eq!(j(Some(0), "", "", Expect::Allowed), Got::Allowed);
        assert!(matches!(
            j(Some(127), "", "sh: hookrun: not found", Expect::Blocked),
            Got::Failed(w) if w.contains("127") && w.contains("not found")
        ));
        assert_eq!(
            j(
                Some(0),
                r#"{"hookSpecificOutput":{"updatedToolOutput":"T=[REDACTED:github-token]"}}"#,
                "",
                Expect::Redacted
            ),
            Got::Redacted
        );
        assert_eq!(j(Some(0), "{}", "", Expect::Redacted), Got::Unchanged);
        let codex = Reads {
            exit_2_needs_stderr: true,
            ..READS
        };
        assert!(matches!(
            judge(codex, Expect::Blocked, Some(2), "", "", "s"),
            Got::Failed(_)
        ));
    }
}
