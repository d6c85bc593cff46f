//! Lints of what a hook runs: scripts that are missing or not executable,
//! guards that exit 1 but never 2, Stop hooks that can loop, handlers that
//! hookrun will not run, and plugin paths in settings hooks.

use std::path::{Path, PathBuf};

use super::invocation;
use super::words;
use crate::config::{Action, Code, Diagnostic, Hook};

/// Programs that run a script named by their first non-option argument.
const INTERPRETERS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "python", "python3", "node", "ruby", "perl", "deno", "bun",
];

pub(super) fn lint_action(hook: &Hook, project_dir: &Path, out: &mut Vec<Diagnostic>) {
    let (command, args) = match &hook.action {
        Action::Unsupported { kind } => {
            let d = hook.diagnostic(
                Code::Unsupported,
                format!(
                    "hookrun does not run {kind}s: `run` skips this hook (Claude Code would run it)"
                ),
            );
            out.push(d.fix("replace it with a command hook, or keep Claude Code running it"));
            return;
        }
        Action::Command { command, args } => (command, args),
        Action::Http {
            headers,
            allowed_env_vars,
            ..
        } => {
            lint_headers(hook, headers, allowed_env_vars, out);
            return;
        }
        Action::Builtin(_)
        | Action::Prompt { .. }
        | Action::Agent { .. }
        | Action::McpTool { .. } => return,
    };
    let words: Vec<String> = match args {
        Some(a) => std::iter::once(command.clone())
            .chain(a.iter().cloned())
            .collect(),
        None => words::split(command, &words::Vars::new(project_dir, &hook.origin.file)),
    };
    let mentions = |needle: &str| {
        command.contains(needle) || args.iter().flatten().any(|a| a.contains(needle))
    };
    if hook.origin.plugin_root.is_none()
        && (mentions("${CLAUDE_PLUGIN_ROOT}") || mentions("${CLAUDE_PLUGIN_DATA}"))
    {
        let d = hook.diagnostic(
            Code::PluginRootInSettings,
            "the command names `${CLAUDE_PLUGIN_ROOT}`, which only plugin hooks have: Claude Code refuses to run it, and so does hookrun",
        );
        out.push(d.fix("use `$CLAUDE_PROJECT_DIR` or an absolute path"));
        return;
    }
    invocation::lint(hook, &words, project_dir, out);
    let script = script_of(&words, project_dir);
    let mut text = command.clone();
    if let Some((path, direct)) = &script {
        // On an event that can block, a script that cannot start is a
        // guard that never runs: an error, not a warning.
        let guards = hook
            .events
            .iter()
            .any(|e| crate::decision::event_can_block(e));
        let (missing, not_executable) = if guards {
            (Code::GuardScriptMissing, Code::GuardScriptNotExecutable)
        } else {
            (Code::ScriptMissing, Code::ScriptNotExecutable)
        };
        match std::fs::metadata(path) {
            Err(_) => {
                let d = hook.diagnostic(
                    missing,
                    format!(
                        "hook script `{}` does not exist (resolved against the project directory `{}`)",
                        path.display(),
                        project_dir.display()
                    ),
                );
                out.push(d.fix("fix the path; `$CLAUDE_PROJECT_DIR/...` keeps it independent of the working directory"));
            }
            Ok(meta) => {
                if *direct && !crate::os::is_executable(&meta) {
                    let d = hook.diagnostic(
                        not_executable,
                        format!(
                            "hook script `{}` is not executable, so the hook fails with exit 126",
                            path.display()
                        ),
                    );
                    out.push(d.fix(format!("chmod +x {}", path.display())));
                }
                if meta.is_file() && meta.len() <= 1024 * 1024 {
                    text.push('\n');
                    text.push_str(&std::fs::read_to_string(path).unwrap_or_default());
                }
            }
        }
    }
    let blocks = has(
        &text,
        r"\bexit\s+2\b|exit\(\s*2\s*\)|exitCode\s*=\s*2|\bdeny\b|\bblock\b",
    );
    if hook
        .events
        .iter()
        .any(|e| e == "PreToolUse" || e == "PermissionRequest")
        && has(&text, r"\bexit\s+1\b|exit\(\s*1\s*\)|exitCode\s*=\s*1")
        && !blocks
    {
        let d = hook.diagnostic(
            Code::GuardExit1,
            "this guard exits 1 but never 2: exit 1 is a non-blocking error, so the tool call goes ahead",
        );
        out.push(d.fix("exit 2 (with the reason on stderr) to block"));
    }
    if hook
        .events
        .iter()
        .any(|e| e == "Stop" || e == "SubagentStop")
        && blocks
        && !text.contains("stop_hook_active")
    {
        let d = hook.diagnostic(
            Code::StopLoop,
            "this Stop hook can block but never reads `stop_hook_active`, so it can keep Claude working in a loop",
        );
        out.push(d.fix("exit 0 when the event's `stop_hook_active` is true"));
    }
}

fn has(text: &str, pattern: &str) -> bool {
    fancy_regex::Regex::new(pattern)
        .ok()
        .and_then(|re| re.is_match(text).ok())
        .unwrap_or(false)
}

/// The script a command runs, and whether it is run directly (and so must be
/// executable): the first word when it is a path, or the first non-option
/// argument of an interpreter.
fn script_of(words: &[String], project_dir: &Path) -> Option<(PathBuf, bool)> {
    let first = words.first()?;
    let program = first.rsplit('/').next().unwrap_or(first);
    let (word, direct) = if INTERPRETERS.contains(&program) {
        let arg = words[1..].iter().find(|w| !w.starts_with('-'))?;
        if words[1..].iter().any(|w| w == "-c" || w == "-e") {
            return None;
        }
        (arg, false)
    } else {
        (first, true)
    };
    if !word.contains('/') || word.contains("$(") || word.contains('`') {
        return None;
    }
    let dir = project_dir.display().to_string();
    let expanded = word
        .replace("${CLAUDE_PROJECT_DIR}", &dir)
        .replace("$CLAUDE_PROJECT_DIR", &dir);
    let expanded = match expanded.strip_prefix("~/") {
        Some(rest) => format!("{}/{rest}", std::env::var("HOME").unwrap_or_default()),
        None => expanded,
    };
    if expanded.contains('$') {
        return None;
    }
    // Drop `.` components so messages show `scripts/x.sh`, not `././scripts/x.sh`.
    let joined: PathBuf = project_dir
        .join(expanded)
        .components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect();
    Some((joined, direct))
}

/// W022: a header of an http hook that names a variable its
/// `allowed_env_vars` does not list, which is sent empty.
fn lint_headers(
    hook: &Hook,
    headers: &[(String, String)],
    allowed: &[String],
    out: &mut Vec<Diagnostic>,
) {
    for (name, value) in headers {
        let mut missing = Vec::new();
        crate::config::fill_header_vars(value, &mut |v| {
            if !allowed.iter().any(|a| a == v) {
                missing.push(v.to_owned());
            }
            String::new()
        });
        for v in missing {
            let d = hook.diagnostic(
                Code::HeaderVarNotAllowed,
                format!(
                    "header `{name}` names `${v}`, which `allowed_env_vars` does not list: it is sent empty"
                ),
            );
            out.push(d.fix(format!(
                "add \"{v}\" to `allowed_env_vars` (`allowedEnvVars` in Claude Code settings)"
            )));
        }
    }
}
