//! What keeps a project's registration working on every machine that
//! checks the project out: no absolute path in it. The config is named
//! relative to the project directory the agent gives its hooks at run
//! time, and hookrun by the plain word `hookrun` (found on PATH); a path
//! only this machine has is refused there, with the files it may go in.

use std::path::Path;

use super::agent::{Agent, Scope};
use crate::dialect::location::has_local;

/// How the agent names the project directory to a hook's command line,
/// as shell text to put before a relative path (its dialect's
/// `Setup::project_anchor`); `None` where the agent runs hooks in the
/// project directory and names it in no variable, so a relative path is
/// already relative to the project.
#[must_use]
pub(crate) fn project_anchor(agent: Agent) -> Option<&'static str> {
    crate::dialect::setup(agent).project_anchor
}

/// The config as the command names it: relative to the project (anchored
/// by `project_anchor`) when it is inside `project`; else its absolute
/// path, which only user and local scope may hold. `project` and
/// `config` are absolute, links resolved.
///
/// # Errors
/// Project scope and a config outside the project: why, and where such a
/// registration can go instead.
pub(crate) fn config_word(
    agent: Agent,
    scope: Scope,
    project: &Path,
    config: &Path,
) -> Result<String, String> {
    if scope != Scope::User {
        if let Ok(rel) = config.strip_prefix(project) {
            let rel = hookrun_sh::word::word(&rel.display().to_string());
            return Ok(match project_anchor(agent) {
                Some(anchor) => format!("{anchor}/{rel}"),
                None => rel,
            });
        }
    }
    if scope == Scope::Project {
        return Err(format!(
            "`{}` is outside the project: the project's settings file is shared with everyone who checks the project out, and this path exists on this machine only. Move the config into the project, or {}",
            config.display(),
            elsewhere(agent)
        ));
    }
    Ok(hookrun_sh::word::word(&config.display().to_string()))
}

/// Refuses, at project scope, a program word that is not the plain
/// `hookrun` (a path to this machine's binary).
///
/// # Errors
/// Why, and where such a registration can go instead.
pub(crate) fn check_program(
    agent: Agent,
    scope: Scope,
    program: &str,
    why: Option<&str>,
) -> Result<(), String> {
    if scope != Scope::Project || program == "hookrun" {
        return Ok(());
    }
    Err(format!(
        "the command would name hookrun as {program}, a path on this machine only{}, in the project's shared settings file, where it fails (exit 127) on any other machine and the guard is off. Put this hookrun first on PATH as `hookrun`, or {}",
        why.map(|w| format!(" ({w})")).unwrap_or_default(),
        elsewhere(agent)
    ))
}

/// Where a machine-specific registration can go for this agent.
fn elsewhere(agent: Agent) -> String {
    if has_local(agent) {
        "register it in this machine's own settings: `--scope local` (`.claude/settings.local.json`, this machine's only) or `--scope user`".to_owned()
    } else {
        format!(
            "register it in your user settings with `--scope user` ({} has no project settings file of one machine's own)",
            agent.as_str()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_in_the_project_is_named_from_the_agents_project_dir() {
        let p = Path::new("/w/app");
        let word = |agent, config: &str| config_word(agent, Scope::Project, p, Path::new(config));
        assert_eq!(
            word(Agent::Claude, "/w/app/hookrun.toml").as_deref(),
            Ok("\"$CLAUDE_PROJECT_DIR\"/hookrun.toml")
        );
        assert_eq!(
            word(Agent::Gemini, "/w/app/my policies/h.toml").as_deref(),
            Ok("$GEMINI_PROJECT_DIR/'my policies/h.toml'")
        );
        assert_eq!(
            word(Agent::Codex, "/w/app/ci/h.toml").as_deref(),
            Ok("ci/h.toml")
        );
        let outside = word(Agent::Cursor, "/w/other/h.toml").expect_err("outside");
        assert!(outside.contains("--scope user"), "{outside}");
        let outside = word(Agent::Claude, "/w/other/h.toml").expect_err("outside");
        assert!(outside.contains("--scope local"), "{outside}");
        assert_eq!(
            config_word(Agent::Claude, Scope::Local, p, Path::new("/w/other/h.toml")).as_deref(),
            Ok("/w/other/h.toml")
        );
        assert_eq!(
            config_word(Agent::Codex, Scope::User, p, Path::new("/w/app/h.toml")).as_deref(),
            Ok("/w/app/h.toml")
        );
    }

    #[test]
    fn only_the_plain_word_is_portable() {
        assert!(check_program(Agent::Claude, Scope::Project, "hookrun", None).is_ok());
        assert!(check_program(Agent::Claude, Scope::Project, "/opt/hookrun", None).is_err());
        assert!(check_program(Agent::Claude, Scope::Local, "/opt/hookrun", None).is_ok());
        assert!(check_program(Agent::Copilot, Scope::User, "/opt/hookrun", None).is_ok());
    }
}
