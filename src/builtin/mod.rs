//! Built-in hooks: guardrails that run in-process, cost no process, and
//! answer exactly like a command hook would, so they merge, report and
//! audit like any hook.
//!
//! | name | events | what it does |
//! | --- | --- | --- |
//! | `dangerous-commands` | PreToolUse, PermissionRequest | denies shell commands that destroy a system |
//! | `protect-paths` | PreToolUse, PermissionRequest | denies reads/writes of sensitive files, traversal, writes outside roots |
//! | `redact-secrets` | PostToolUse | replaces secrets in the tool output with `[REDACTED]` |
//! | `log-tools` | any | one line per tool call, to stderr or a file |
//!
//! `mode = "warn"` turns any of them into shadow mode: it reports what it
//! would have done, and allows.

pub mod dangerous;
pub mod log_tools;
pub mod paths;
pub mod redact;
pub mod shell;

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::event::Event;

/// The built-in hooks, by name.
pub const NAMES: &[&str] = &[
    "dangerous-commands",
    "protect-paths",
    "redact-secrets",
    "log-tools",
];

/// Shell tools of every agent (lowercased): Claude Code `Bash`,
/// pydantic-deep `execute`, deputy `run_bash`/`bash`, Gemini
/// `run_shell_command`, Codex `shell`/`exec_command`, Cursor terminals.
const SHELL_TOOLS: &[&str] = &[
    "bash",
    "execute",
    "run_bash",
    "tool_run_bash",
    "run_shell_command",
    "shell",
    "exec_command",
    "local_shell",
    "container.exec",
    "run_terminal_cmd",
    "terminal",
];
/// File tools that read.
const READ_TOOLS: &[&str] = &[
    "read",
    "read_file",
    "notebookread",
    "read_many_files",
    "view",
    "glob",
    "grep",
    "ls",
    "list_directory",
];
/// File tools that write.
const WRITE_TOOLS: &[&str] = &[
    "write",
    "edit",
    "multiedit",
    "notebookedit",
    "write_file",
    "edit_file",
    "hashline_edit",
    "multi_edit",
    "replace",
    "create_file",
    "str_replace_editor",
    "str_replace_based_edit_tool",
    "apply_patch",
    "delete_file",
];
/// Keys that hold a path in file tools' inputs.
const PATH_KEYS: &[&str] = &[
    "file_path",
    "path",
    "notebook_path",
    "absolute_path",
    "filePath",
    "target_file",
    "dir_path",
];

/// Enforce (the default) or only report.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    Deserialize,
    Serialize,
    schemars::JsonSchema,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    #[default]
    Enforce,
    Warn,
}

#[derive(Debug)]
enum Kind {
    DangerousCommands(dangerous::DangerousCommands),
    ProtectPaths(paths::ProtectPaths),
    RedactSecrets(redact::Redactor),
    LogTools(log_tools::Options),
}

/// A configured built-in hook.
#[derive(Debug)]
pub struct Builtin {
    pub name: &'static str,
    pub mode: Mode,
    /// The options as given, for reports and dedup.
    pub options: Value,
    kind: Kind,
}

/// What a built-in concluded for one event.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Nothing to say.
    Pass,
    /// Deny (or block) with this reason.
    Deny(String),
    /// Replace the tool output (`field` is `updatedToolOutput` or
    /// `updatedMCPToolOutput`), `count` secrets redacted.
    Rewrite {
        field: &'static str,
        value: Value,
        count: usize,
    },
    /// The built-in could not do its job (e.g. its log file is unwritable).
    Failed(String),
}

impl Builtin {
    /// Builds a built-in from its name and options.
    ///
    /// # Errors
    /// An unknown name (with the nearest one), unknown or invalid options.
    pub fn new(name: &str, options: Value, mode: Mode) -> Result<Self, String> {
        let Some(&known) = NAMES.iter().find(|n| **n == name) else {
            let hint = crate::suggest::nearest(name, NAMES.iter().copied())
                .map(|n| format!("; did you mean `{n}`?"))
                .unwrap_or_default();
            return Err(format!(
                "unknown built-in `{name}` (known: {}){hint}",
                NAMES.join(", ")
            ));
        };
        let opts = if options.is_null() {
            Value::Object(Map::new())
        } else {
            options.clone()
        };
        let bad = |e: serde_json::Error| format!("invalid options for `{known}`: {e}");
        let kind = match known {
            "dangerous-commands" => Kind::DangerousCommands(dangerous::DangerousCommands::new(
                serde_json::from_value(opts).map_err(bad)?,
            )?),
            "protect-paths" => Kind::ProtectPaths(paths::ProtectPaths::new(
                serde_json::from_value(opts).map_err(bad)?,
            )),
            "redact-secrets" => Kind::RedactSecrets(redact::Redactor::new(
                serde_json::from_value(opts).map_err(bad)?,
            )?),
            _ => Kind::LogTools(serde_json::from_value(opts).map_err(bad)?),
        };
        Ok(Builtin {
            name: known,
            mode,
            options,
            kind,
        })
    }

    /// Evaluates the built-in for an event. `project` is the project
    /// directory (traversal and relative roots).
    #[must_use]
    pub fn evaluate(&self, event: &Event, project: &Path) -> Verdict {
        let tool = event.str_field("tool_name").to_ascii_lowercase();
        let guard_event = matches!(event.name.as_str(), "PreToolUse" | "PermissionRequest");
        let empty = Map::new();
        let input = event.tool_input().unwrap_or(&empty);
        match &self.kind {
            Kind::DangerousCommands(rules) => {
                let top = event.fields.get("command");
                if !guard_event && top.is_none() {
                    return Verdict::Pass;
                }
                if top.is_none() && !SHELL_TOOLS.contains(&tool.as_str()) {
                    return Verdict::Pass;
                }
                let command = input.get("command").or_else(|| input.get("cmd")).or(top);
                let why = match command {
                    Some(Value::String(line)) => rules.check(line),
                    Some(Value::Array(argv)) => {
                        let argv: Vec<String> = argv
                            .iter()
                            .filter_map(|a| a.as_str().map(str::to_owned))
                            .collect();
                        rules.check_argv(&argv)
                    }
                    _ => None,
                };
                why.map_or(Verdict::Pass, |w| {
                    Verdict::Deny(format!("dangerous command: {w}"))
                })
            }
            Kind::ProtectPaths(rules) => {
                if !guard_event {
                    return Verdict::Pass;
                }
                let access = if READ_TOOLS.contains(&tool.as_str()) {
                    paths::Access::Read
                } else if WRITE_TOOLS.contains(&tool.as_str()) {
                    paths::Access::Write
                } else {
                    return Verdict::Pass;
                };
                let cwd = Path::new(event.str_field("cwd"));
                let cwd = if cwd.is_absolute() {
                    cwd.to_path_buf()
                } else {
                    project.join(cwd)
                };
                for p in paths_of(&tool, input) {
                    if let Some(why) = rules.check(&p, access, &cwd, project) {
                        return Verdict::Deny(why);
                    }
                }
                Verdict::Pass
            }
            Kind::RedactSecrets(r) => {
                if event.name != "PostToolUse" {
                    return Verdict::Pass;
                }
                let Some(mut out) = event.fields.get("tool_response").cloned() else {
                    return Verdict::Pass;
                };
                let count = r.value(&mut out);
                if count == 0 {
                    return Verdict::Pass;
                }
                let field = if tool.starts_with("mcp__") {
                    "updatedMCPToolOutput"
                } else {
                    "updatedToolOutput"
                };
                Verdict::Rewrite {
                    field,
                    value: out,
                    count,
                }
            }
            Kind::LogTools(o) => {
                let preview = o.preview.unwrap_or(100);
                log_tools::write(o, &log_tools::line(event, preview))
                    .map_or_else(Verdict::Failed, |()| Verdict::Pass)
            }
        }
    }
}

/// Every path a file tool's input names.
fn paths_of(tool: &str, input: &Map<String, Value>) -> Vec<String> {
    let mut out: Vec<String> = PATH_KEYS
        .iter()
        .filter_map(|k| input.get(*k).and_then(Value::as_str).map(str::to_owned))
        .collect();
    for key in ["paths", "file_paths"] {
        if let Some(Value::Array(a)) = input.get(key) {
            out.extend(a.iter().filter_map(|v| v.as_str().map(str::to_owned)));
        }
    }
    if tool == "apply_patch" {
        let patch = input
            .get("input")
            .or_else(|| input.get("patch"))
            .and_then(Value::as_str)
            .unwrap_or("");
        for line in patch.lines() {
            for prefix in [
                "*** Add File: ",
                "*** Update File: ",
                "*** Delete File: ",
                "*** Move to: ",
            ] {
                if let Some(p) = line.strip_prefix(prefix) {
                    out.push(p.trim().to_owned());
                }
            }
        }
    }
    out
}

/// The answer JSON a command hook would print for this verdict, the exit
/// status it would have, and, in warn mode, the report instead of the act.
#[must_use]
pub fn answer_json(
    b: &Builtin,
    label: &str,
    event: &str,
    verdict: &Verdict,
) -> (Option<Map<String, Value>>, i32) {
    let warn = b.mode == Mode::Warn;
    let obj = match verdict {
        Verdict::Pass | Verdict::Failed(_) => return (None, 0),
        Verdict::Deny(why) if warn => {
            json!({"systemMessage": format!("[{label}] would block (mode = \"warn\"): {why}")})
        }
        Verdict::Rewrite { count, .. } if warn => {
            json!({"systemMessage": format!("[{label}] would redact {count} secret(s) in the tool output (mode = \"warn\")")})
        }
        Verdict::Deny(why) => {
            let reason = format!("[{label}] {why}");
            match event {
                "PreToolUse" | "PreSkillShellCommand" => json!({"hookSpecificOutput": {
                    "hookEventName": event, "permissionDecision": "deny", "permissionDecisionReason": reason}}),
                "PermissionRequest" => json!({"hookSpecificOutput": {
                    "hookEventName": event, "decision": {"behavior": "deny", "message": reason}}}),
                _ => json!({"decision": "block", "reason": reason}),
            }
        }
        Verdict::Rewrite { field, value, .. } => {
            json!({"hookSpecificOutput": {"hookEventName": event, *field: value}})
        }
    };
    (obj.as_object().cloned(), 0)
}
