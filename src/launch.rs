//! How a selected hook becomes something to run: shell or exec form,
//! placeholders, environment, working directory and timeout, as Claude
//! Code launches a command hook.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::config::{Action, Hook};
use crate::event::Event;
use crate::events;
use crate::exec::{ExecSpec, Program};

/// Set for every hook: how deeply `hookrun run` is nested.
pub(crate) const DEPTH_VAR: &str = "HOOKRUN_DEPTH";

/// Set for every hook beside `HOOKRUN_DEPTH`: the pid of the hookrun that
/// started it, so that a nested hookrun trusts the depth only when that
/// process is really one of its ancestors.
pub(crate) const PARENT_VAR: &str = "HOOKRUN_PARENT";

/// The variables every process hookrun starts for a hook gets, so that a
/// hookrun it runs in turn knows how deeply it is nested.
#[must_use]
pub(crate) fn nesting_env(depth: u32) -> [(String, String); 2] {
    [
        (DEPTH_VAR.to_owned(), (depth + 1).to_string()),
        (PARENT_VAR.to_owned(), std::process::id().to_string()),
    ]
}

/// How deeply this hookrun is nested in hookrun runs: `HOOKRUN_DEPTH` when
/// `HOOKRUN_PARENT` names one of this process's ancestors, else 0. A depth
/// inherited from elsewhere (a project's settings can set environment
/// variables for hooks) is not self-recursion and must not turn the guards
/// off. Where the OS cannot tell ancestry, the depth is trusted.
#[must_use]
pub(crate) fn inherited_depth() -> u32 {
    let Some(depth) = std::env::var(DEPTH_VAR)
        .ok()
        .and_then(|d| d.trim().parse::<u32>().ok())
    else {
        return 0;
    };
    let parent = std::env::var(PARENT_VAR)
        .ok()
        .and_then(|p| p.trim().parse::<u32>().ok());
    match parent.map(crate::os::is_ancestor) {
        Some(Some(true) | None) => depth,
        Some(Some(false)) | None => 0,
    }
}
pub(crate) fn timeout_of(hook: &Hook, event: &Event) -> Duration {
    if let Some(t) = hook.timeout {
        return t;
    }
    // Claude Code's defaults for a judgement, on every event.
    match hook.action {
        crate::config::Action::Prompt { .. } => return Duration::from_secs(30),
        crate::config::Action::Agent { .. } => return Duration::from_secs(60),
        _ => {}
    }
    if let Some(t) = crate::dialect::protocol(event.dialect).default_timeout(&event.name) {
        return t;
    }
    if event.name == "SessionEnd"
        && let Some(ms) = std::env::var("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS")
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
    {
        return Duration::from_millis(ms.max(1));
    }
    events::default_timeout(&event.name)
}

/// The hook's working directory: the event's `cwd` when it exists, else
/// hookrun's own.
pub(crate) fn hook_cwd(event: &Event) -> PathBuf {
    let cwd = PathBuf::from(event.str_field("cwd"));
    if !cwd.as_os_str().is_empty() && cwd.is_dir() {
        return cwd;
    }
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"))
}

pub(crate) fn spec_for(
    hook: &Hook,
    event: &Event,
    cwd: &Path,
    project_dir: &str,
    depth: u32,
) -> Option<ExecSpec> {
    let Action::Command { command, args } = &hook.action else {
        return None;
    };
    let plugin_root = hook
        .origin
        .plugin_root
        .as_ref()
        .map(|p| p.display().to_string());
    let substitute = |s: &str| {
        let mut s = s.replace("${CLAUDE_PROJECT_DIR}", project_dir);
        if let Some(root) = &plugin_root {
            s = s.replace("${CLAUDE_PLUGIN_ROOT}", root);
        }
        s
    };
    let speaks = crate::dialect::protocol(hook.input.unwrap_or(event.dialect));
    let program = match (args, speaks.shell()) {
        (None, None) => Program::Shell(command.clone()),
        (None, Some((shell, mut flags))) => {
            flags.push(command.clone());
            Program::Exec {
                program: shell,
                args: flags,
            }
        }
        (Some(args), _) => Program::Exec {
            program: substitute(command),
            args: args.iter().map(|a| substitute(a)).collect(),
        },
    };
    let filter = speaks.env_filter();
    let mut env: Vec<(String, String)> = match filter {
        Some(keep) => std::env::vars().filter(|(k, _)| keep(k)).collect(),
        None => Vec::new(),
    };
    env.extend(nesting_env(depth));
    env.extend(speaks.hook_env(project_dir));
    env.extend(hook.env.iter().cloned());
    Some(ExecSpec {
        input: Arc::clone(&event.bytes),
        program,
        cwd: cwd.to_owned(),
        env,
        clear_env: filter.is_some(),
        timeout: timeout_of(hook, event),
    })
}
