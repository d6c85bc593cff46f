//! Whether Codex will run each hookrun registration of a `hooks.json`
//! (D011). Codex runs a hook of the user's or a project's own files only
//! once the user has reviewed it: it keeps, in the user's
//! `$CODEX_HOME/config.toml`, a table per hook,
//!
//! ```toml
//! [hooks.state."/abs/path/hooks.json:pre_tool_use:0:0"]
//! trusted_hash = "sha256:…"
//! enabled = true
//! ```
//!
//! keyed by the file (its real path), the event's snake-case label, the
//! matcher group's and the handler's positions. A hook with no entry was never reviewed;
//! one whose stored hash is not the hash of what the file says now has
//! changed since; either way Codex skips it (unless started with
//! `--dangerously-bypass-hook-trust`), and it skips one with
//! `enabled = false` always. A project's `.codex/` is not loaded at all
//! unless the project is trusted (`[projects."<root>"] trust_level =
//! "trusted"`, the root being the git work tree's, else the directory).
//!
//! The hash is Codex's own (Codex CLI 0.171.0, the version
//! `scripts/live_agents/versions.py` pins, checked against its
//! `hooks/list`): SHA-256 of the compact JSON, keys sorted, of
//! `{event_name, matcher, hooks: [the one handler, normalised]}`.
//! [`statuses`] is pure; [`skipped`] reads the two files (`doctor`
//! names what it finds D011).

/// The variable that moves Codex's user directory (`~/.codex`), where
/// its `config.toml` keeps the review of each hook.
pub(crate) const HOME_VAR: &str = "CODEX_HOME";

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

pub(crate) use crate::dialect::setup::Skipped;
use crate::dirs::Homes;

/// Codex's events, as `hooks.json` names them, with the label its keys
/// and hashes use. Codex ignores any other event name.
const EVENTS: &[(&str, &str)] = &[
    ("PreToolUse", "pre_tool_use"),
    ("PermissionRequest", "permission_request"),
    ("PostToolUse", "post_tool_use"),
    ("PreCompact", "pre_compact"),
    ("PostCompact", "post_compact"),
    ("SessionStart", "session_start"),
    ("SessionEnd", "session_end"),
    ("UserPromptSubmit", "user_prompt_submit"),
    ("SubagentStart", "subagent_start"),
    ("SubagentStop", "subagent_stop"),
    ("Stop", "stop"),
];

/// What Codex does with one hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Status {
    /// Its stored hash is the current one: it runs.
    Trusted,
    /// No stored hash: never reviewed.
    Untrusted,
    /// A stored hash of another content: changed since it was trusted.
    Modified,
    /// `enabled = false`: Codex never runs it, trusted or not.
    Disabled,
}

/// One hookrun handler of a `hooks.json`, as Codex sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HookTrust {
    /// Its `[hooks.state."…"]` key.
    pub(crate) key: String,
    /// The handler's command.
    pub(crate) command: String,
    /// The hash Codex computes of it now.
    pub(crate) current_hash: String,
    pub(crate) status: Status,
}

/// The trust status of each hookrun registration in `hooks` (the parsed
/// `hooks_path`), judged against the user's `config_toml` text. A handler
/// Codex cannot hash (a timeout that is not a whole number, a handler of
/// another type) is left out: Codex rejects or skips it for reasons of
/// its own, which other checks name.
///
/// # Errors
/// `config_toml` is not TOML: Codex's trust state cannot be read.
pub(crate) fn statuses(
    hooks_path: &Path,
    hooks: &Value,
    config_toml: &str,
    registers: &dyn Fn(&str) -> bool,
) -> Result<Vec<HookTrust>, String> {
    let config: toml::Table = toml::from_str(config_toml).map_err(|e| e.to_string())?;
    Ok(statuses_in(hooks_path, hooks, &config, registers))
}

/// [`statuses`] against the parsed `config.toml`.
fn statuses_in(
    hooks_path: &Path,
    hooks: &Value,
    config: &toml::Table,
    registers: &dyn Fn(&str) -> bool,
) -> Vec<HookTrust> {
    let state = config
        .get("hooks")
        .and_then(|h| h.get("state"))
        .and_then(toml::Value::as_table);
    let mut out = Vec::new();
    let Some(events) = hooks.get("hooks").and_then(Value::as_object) else {
        return out;
    };
    for (event, groups) in events {
        let Some((_, label)) = EVENTS.iter().find(|(name, _)| name == event) else {
            continue;
        };
        let Some(groups) = groups.as_array() else {
            continue;
        };
        for (gi, group) in groups.iter().enumerate() {
            let matcher = group.get("matcher").and_then(Value::as_str);
            let handlers = group.get("hooks").and_then(Value::as_array);
            for (hi, handler) in handlers.into_iter().flatten().enumerate() {
                let Some(handler) = handler.as_object() else {
                    continue;
                };
                let Some(command) = handler.get("command").and_then(Value::as_str) else {
                    continue;
                };
                if !registers(command) {
                    continue;
                }
                let Some(current_hash) = current_hash(label, matcher, handler) else {
                    continue;
                };
                let key = format!("{}:{label}:{gi}:{hi}", hooks_path.display());
                let entry = state.and_then(|s| s.get(&key));
                let stored = entry
                    .and_then(|e| e.get("trusted_hash"))
                    .and_then(toml::Value::as_str);
                let enabled = entry
                    .and_then(|e| e.get("enabled"))
                    .and_then(toml::Value::as_bool);
                let status = match stored {
                    _ if enabled == Some(false) => Status::Disabled,
                    Some(h) if h == current_hash => Status::Trusted,
                    Some(_) => Status::Modified,
                    None => Status::Untrusted,
                };
                out.push(HookTrust {
                    key,
                    command: command.to_owned(),
                    current_hash,
                    status,
                });
            }
        }
    }
    out
}

/// The hash Codex compares with a hook's `trusted_hash`: the event's
/// label, the group's matcher (not on `user_prompt_submit` and `stop`,
/// whose matchers Codex ignores) and the handler with its timeout as
/// Codex applies it (600 s when unset, at least 1; `session_end` 1 s when
/// unset, held between 1 and 3), `async` and `statusMessage`.
/// `commandWindows` is not part of it. `None` for a handler Codex would
/// not run as a command.
pub(crate) fn current_hash(
    label: &str,
    matcher: Option<&str>,
    handler: &Map<String, Value>,
) -> Option<String> {
    if handler.get("type").and_then(Value::as_str) != Some("command") {
        return None;
    }
    let command = handler.get("command")?.as_str()?;
    let timeout = match handler.get("timeout") {
        None | Some(Value::Null) => None,
        Some(t) => Some(t.as_u64()?),
    };
    let timeout = if label == "session_end" {
        timeout.unwrap_or(1).clamp(1, 3)
    } else {
        timeout.unwrap_or(600).max(1)
    };
    let is_async = match handler.get("async") {
        None | Some(Value::Null) => false,
        Some(a) => a.as_bool()?,
    };
    let mut normalized = Map::new();
    normalized.insert("async".into(), Value::Bool(is_async));
    normalized.insert("command".into(), Value::String(command.to_owned()));
    if let Some(m) = handler.get("statusMessage").and_then(Value::as_str) {
        normalized.insert("statusMessage".into(), Value::String(m.to_owned()));
    }
    normalized.insert("timeout".into(), Value::from(timeout));
    normalized.insert("type".into(), Value::String("command".into()));
    // Keys in sorted order: serde_json keeps insertion order here.
    let mut identity = Map::new();
    identity.insert("event_name".into(), Value::String(label.to_owned()));
    identity.insert(
        "hooks".into(),
        Value::Array(vec![Value::Object(normalized)]),
    );
    if let Some(m) = matcher.filter(|_| !matches!(label, "user_prompt_submit" | "stop")) {
        identity.insert("matcher".into(), Value::String(m.to_owned()));
    }
    let bytes = serde_json::to_vec(&Value::Object(identity)).ok()?;
    let hex: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Some(format!("sha256:{hex}"))
}

/// Whether the user's config trusts the project `root`.
pub(crate) fn project_trusted(config: &toml::Table, root: &Path) -> bool {
    let Some(projects) = config.get("projects").and_then(toml::Value::as_table) else {
        return false;
    };
    let canonical = root.canonicalize().ok();
    projects.iter().any(|(path, entry)| {
        let p = Path::new(path);
        (p == root || canonical.as_deref() == Some(p) || p.canonicalize().ok() == canonical)
            && entry.get("trust_level").and_then(toml::Value::as_str) == Some("trusted")
    })
}

/// The project root Codex keys a project's trust by: the git work tree
/// holding `dir`, else `dir` itself.
pub(crate) fn project_root(dir: &Path) -> PathBuf {
    dir.ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(dir)
        .to_path_buf()
}

/// For hookrun's registration `command` in the hooks file `file` (`registers`
/// tells a registration's command from another):
/// each of its hooks Codex will not run. Nothing for a file that is not
/// Codex's `hooks.json` or cannot be read (D010 says so), or a
/// `config.toml` that is not TOML (Codex itself stops at it: `codex`
/// does not start).
#[must_use]
pub(crate) fn skipped(
    file: &Path,
    command: &str,
    homes: &Homes,
    registers: &dyn Fn(&str) -> bool,
) -> Vec<Skipped> {
    let mut out = Vec::new();
    if file.file_name().is_none_or(|n| n != "hooks.json") {
        return out;
    }
    let Some(codex_home) = homes.dir(Some(HOME_VAR), ".codex") else {
        return out;
    };
    let config_path = codex_home.join("config.toml");
    let Some(hooks) = std::fs::read(file)
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
    else {
        return out;
    };
    let config_toml = match std::fs::read_to_string(&config_path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(_) => return out,
    };
    let Ok(config) = toml::from_str::<toml::Table>(&config_toml) else {
        return out;
    };
    let shown = config_path.display();
    // Codex keys a hook by the real path of its file (through symlinks).
    let real = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let keyed = real(file);
    let in_user_dir = keyed.parent() == Some(real(&codex_home).as_path());
    if !in_user_dir {
        let dir = keyed.parent().and_then(Path::parent).unwrap_or(&keyed);
        let root = project_root(dir);
        if !project_trusted(&config, &root) {
            out.push(Skipped::new(
                format!(
                    "Codex does not load `{}` at all: the project `{}` is not trusted (no `trust_level = \"trusted\"` under `[projects.\"{}\"]` in `{shown}`)",
                    file.display(),
                    root.display(),
                    root.display()
                ),
                format!(
                    "start `codex` in `{}` and trust the project when it asks, then trust the hooks it lists for review (`/hooks`); then run `hookrun doctor` again",
                    root.display()
                ),
            ));
            return out;
        }
    }
    let Ok(found) = statuses(&keyed, &hooks, &config_toml, registers) else {
        return out;
    };
    let review = "start `codex`, and trust the hook in its review (the \"Hooks need review\" prompt, or `/hooks`); then run `hookrun doctor` again";
    for h in found.into_iter().filter(|h| h.command == command) {
        let (why, fix) = match h.status {
            Status::Trusted => continue,
            Status::Untrusted => (
                format!("it was never reviewed: `{shown}` holds no `trusted_hash` for it"),
                review.to_owned(),
            ),
            Status::Modified => (
                format!(
                    "it changed since it was trusted and is waiting to be trusted again (its `trusted_hash` in `{shown}` is not {})",
                    h.current_hash
                ),
                review.to_owned(),
            ),
            Status::Disabled => (
                format!("it is disabled (`enabled = false` in `{shown}`)"),
                format!(
                    "enable it in Codex's `/hooks`, or delete `enabled = false` from `[hooks.state.\"{}\"]` in `{shown}`; then run `hookrun doctor` again",
                    h.key
                ),
            ),
        };
        out.push(Skipped::new(
            format!("Codex skips the hook `{}`: {why}", h.key),
            fix,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registers(command: &str) -> bool {
        crate::install::agent::is_registration(command, crate::agent::Agent::Codex)
    }

    /// Hashes Codex CLI 0.171.0 reported (`hooks/list`, `currentHash`)
    /// for these handlers.
    #[test]
    fn the_hash_is_codexs_own() {
        let cases: &[(&str, Option<&str>, Value, &str)] = &[
            (
                "pre_tool_use",
                Some("Bash"),
                serde_json::json!({"type": "command", "command": "echo hi", "timeout": 30}),
                "sha256:65f88c378f287741bd683c759c7306a773bbb410594d61f7a39b723f8ab8eb45",
            ),
            (
                "stop",
                None,
                serde_json::json!({"type": "command", "command": "echo stop"}),
                "sha256:236335e9e512004a0f5f42af65a07ea9059bd9a23dbb68286ed57fecf2b69ddf",
            ),
            (
                "pre_tool_use",
                None,
                serde_json::json!({"type": "command", "command": "hookrun run --dialect codex", "timeout": 15}),
                "sha256:8b8e5130afa86947fd0a36ead89e676f3ec25885cbc4951b53e3c5831517b565",
            ),
            (
                "post_tool_use",
                None,
                serde_json::json!({"type": "command", "command": "hookrun run --dialect codex", "timeout": 15}),
                "sha256:bd859d79a3cea00d81ef7fa3408be7a289b608b09f47d7fcf22d0fec37f40a49",
            ),
            // Held at 3 s, and 1 s when unset.
            (
                "session_end",
                None,
                serde_json::json!({"type": "command", "command": "b", "timeout": 15}),
                "sha256:a710376cd632fd4765ceb37250acbdb78cd4a232e0296b5b3c157f04a3eb628a",
            ),
            (
                "session_end",
                Some("Bash"),
                serde_json::json!({"type": "command", "command": "a"}),
                "sha256:1ec4d917d2b01eeff2adfc50881a4947ad7a59200f32ef110f71519188e94d97",
            ),
            // A matcher Codex ignores is not hashed; an empty one is.
            (
                "user_prompt_submit",
                Some("Bash"),
                serde_json::json!({"type": "command", "command": "echo UserPromptSubmit"}),
                "sha256:743ba7e2ae9eb1598441def7bc593add4241e493fe567b28567db3c2b82b1a71",
            ),
            (
                "pre_tool_use",
                Some(""),
                serde_json::json!({"type": "command", "command": "empty"}),
                "sha256:92d9f4de3e0069d4b2c7154f28adfcb991e9e416240c60eaa3ce62ec9576631d",
            ),
            // Timeout 0 is 1; `async` and `statusMessage` count.
            (
                "pre_tool_use",
                None,
                serde_json::json!({"type": "command", "command": "nomatch", "timeout": 0, "statusMessage": "hi", "async": true}),
                "sha256:cfcaf1075d38d62b3c2313dbbd5156f66ffa4c851423d3afbce32f25682d562a",
            ),
            // `commandWindows` and unknown keys do not.
            (
                "pre_tool_use",
                None,
                serde_json::json!({"type": "command", "command": "cw", "commandWindows": "x"}),
                "sha256:d1a56d210dc8f37d3f13ceb63d8d44101528ce83f25263d8c18ffaa8603dae8e",
            ),
            (
                "pre_tool_use",
                None,
                serde_json::json!({"type": "command", "command": "unknownfields", "foo": "bar"}),
                "sha256:b5d924aacc9dbce0ff6d1b1769daa7f17358452c289f45d412e9c13a21a0556f",
            ),
            // Escapes as serde_json writes them, non-ASCII as is.
            (
                "pre_tool_use",
                None,
                serde_json::json!({"type": "command", "command": "\u{e9} \"q\" \n/\t\u{1f}"}),
                "sha256:78e5b87a1e79e471f78a47dd6c7608bd09ff3b9ac9a5e75af7fe1ebaace8bdb3",
            ),
        ];
        for (label, matcher, handler, want) in cases {
            let got = current_hash(label, *matcher, handler.as_object().expect("object"));
            assert_eq!(got.as_deref(), Some(*want), "{label} {handler}");
        }
    }

    /// The key is the file, the event's label and the positions; each
    /// state is read from the user's `config.toml`.
    #[test]
    fn each_hookrun_handler_gets_its_status() {
        let reg = "hookrun run --dialect codex";
        let hooks = serde_json::json!({"hooks": {
            "PreToolUse": [
                {"hooks": [{"type": "command", "command": "echo other"}]},
                {"hooks": [
                    {"type": "command", "command": "echo other"},
                    {"type": "command", "command": reg, "timeout": 15},
                ]},
            ],
            "PostToolUse": [{"hooks": [{"type": "command", "command": reg, "timeout": 15}]}],
            "Notification": [{"hooks": [{"type": "command", "command": reg}]}],
        }});
        let path = Path::new("/w/.codex/hooks.json");
        let pre = "/w/.codex/hooks.json:pre_tool_use:1:1";
        let post = "/w/.codex/hooks.json:post_tool_use:0:0";
        let status = |config: &str| -> Vec<(String, Status)> {
            statuses(path, &hooks, config, &registers)
                .expect("toml")
                .into_iter()
                .map(|h| (h.key, h.status))
                .collect()
        };
        assert_eq!(
            status(""),
            [
                (pre.to_owned(), Status::Untrusted),
                (post.to_owned(), Status::Untrusted)
            ]
        );
        let config = format!(
            "[hooks.state.\"{pre}\"]\ntrusted_hash = \"sha256:8b8e5130afa86947fd0a36ead89e676f3ec25885cbc4951b53e3c5831517b565\"\n\
             [hooks.state.\"{post}\"]\ntrusted_hash = \"sha256:8b8e5130afa86947fd0a36ead89e676f3ec25885cbc4951b53e3c5831517b565\"\n"
        );
        assert_eq!(
            status(&config),
            [
                (pre.to_owned(), Status::Trusted),
                (post.to_owned(), Status::Modified)
            ]
        );
        let disabled = config.replacen("trusted_hash", "enabled = false\ntrusted_hash", 1);
        assert_eq!(status(&disabled)[0].1, Status::Disabled);
        assert!(statuses(path, &hooks, "not = [toml", &registers).is_err());
    }
}
