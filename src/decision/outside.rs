//! The "outside-REPL" events: Notification, SessionEnd,
//! PreCompact, ConfigChange, Elicitation, WorktreeCreate, ... Claude Code reads
//! their hooks differently: blocked = exit 2 or `decision: "block"`, and the
//! raw stdout of a successful hook is the output.

use serde_json::Value;

use super::merger::{Merger, nonempty};
use super::model::{Input, Permission};
use crate::answer::js_trim;

impl Merger<'_> {
    /// How Claude Code's outside-REPL executor reads an answer.
    pub(super) fn outside(&mut self, input: &Input<'_>) {
        let a = input.answer;
        if self.event == "Notification" {
            return;
        }
        let json = a.json.as_ref();
        let status = a.status.unwrap_or(1);
        let json_block =
            json.and_then(|j| j.get("decision")).and_then(Value::as_str) == Some("block");
        let blocked = status == 2 || json_block;
        let output = if json_block {
            json.and_then(|j| nonempty(j.get("reason")))
                .unwrap_or_else(|| a.stderr.clone())
        } else if status == 0 {
            a.raw_stdout.clone()
        } else {
            a.stderr.clone()
        };
        if let Some(msg) = json.and_then(|j| nonempty(j.get("systemMessage")))
            && matches!(self.event, "CwdChanged" | "FileChanged" | "DirectoryAdded")
        {
            self.d.system_messages.push(msg);
        }
        let hso = json
            .and_then(|j| j.get("hookSpecificOutput"))
            .and_then(Value::as_object);
        match self.event {
            "PreCompact" | "ConfigChange" if blocked => {
                let reason = if self.event == "PreCompact" {
                    format!("[{}]: {output}", input.label)
                } else {
                    output.clone()
                };
                self.block(Permission::Deny, reason);
            }
            "PreCompact" => {
                let text = js_trim(&a.raw_stdout);
                if status == 0 && !text.is_empty() {
                    self.d.compaction_text.push(text.to_owned());
                }
            }
            "Elicitation" | "ElicitationResult" => {
                let decline =
                    hso.and_then(|h| h.get("action")).and_then(Value::as_str) == Some("decline");
                if blocked || decline {
                    self.block(
                        Permission::Deny,
                        if output.is_empty() {
                            "declined by hook".into()
                        } else {
                            output.clone()
                        },
                    );
                } else if let Some(h) = hso
                    && h.contains_key("action")
                    && !self.d.specific.contains_key("action")
                {
                    for key in ["action", "content"] {
                        if let Some(v) = h.get(key) {
                            self.d.specific.insert(key.into(), v.clone());
                        }
                    }
                }
            }
            "WorktreeCreate"
                if status == 0 && !blocked && !self.d.specific.contains_key("worktreePath") =>
            {
                let path = hso
                    .and_then(|h| nonempty(h.get("worktreePath")))
                    .or_else(|| last_line(&a.raw_stdout));
                if let Some(p) = path {
                    self.d
                        .specific
                        .insert("worktreePath".into(), Value::String(p));
                }
            }
            "CwdChanged" | "FileChanged" => self.pass_through(hso),
            _ => {}
        }
        if status != 0 && !blocked && a.failure.is_none() {
            self.d
                .system_messages
                .push(format!("[{}] failed: {output}", input.label));
        }
    }
}

/// The last non-empty line of a text, ANSI escapes removed.
fn last_line(text: &str) -> Option<String> {
    text.lines()
        .rev()
        .map(strip_ansi)
        .find(|l| !l.trim().is_empty())
        .map(|l| l.trim().to_owned())
}

fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.next() == Some('[') {
                for n in chars.by_ref() {
                    if n.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}
