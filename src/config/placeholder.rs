//! `${HOOKRUN_CONFIG_DIR}`: the absolute directory of the TOML file that
//! defines a hook, substituted into its `command` and `args` when the file
//! is read. Scripts named through it are found next to the config, wherever
//! the config is copied and whichever project the agent runs in; a path
//! relative to the project would break as soon as the config is shared.

use std::path::{Path, PathBuf};

use super::model::Action;

/// The placeholder, as written in a config.
pub(crate) const CONFIG_DIR: &str = "${HOOKRUN_CONFIG_DIR}";

/// The absolute directory of a config file, links resolved where possible,
/// so that the command names one stable path.
#[must_use]
pub(crate) fn config_dir(path: &Path) -> PathBuf {
    let dir = crate::dirs::dir_of(path);
    std::fs::canonicalize(&dir)
        .or_else(|_| std::path::absolute(&dir))
        .unwrap_or(dir)
}

/// The action with the placeholder replaced by `dir`. A shell command gets
/// the directory quoted for the shell when it holds anything but plain path
/// characters (write the placeholder unquoted: `${HOOKRUN_CONFIG_DIR}/x.sh`);
/// an exec-form program and its arguments get it verbatim, as no shell
/// reads them.
#[must_use]
pub(crate) fn expand(action: Action, dir: &Path) -> Action {
    let Action::Command { command, args } = action else {
        return action;
    };
    let plain = dir.display().to_string();
    match args {
        None if command.contains(CONFIG_DIR) => Action::Command {
            command: command.replace(CONFIG_DIR, &hookrun_sh::word::word(&plain)),
            args: None,
        },
        None => Action::Command {
            command,
            args: None,
        },
        Some(args) => Action::Command {
            command: command.replace(CONFIG_DIR, &plain),
            args: Some(args.iter().map(|a| a.replace(CONFIG_DIR, &plain)).collect()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(action: &Action) -> (String, Option<Vec<String>>) {
        match action {
            Action::Command { command, args } => (command.clone(), args.clone()),
            _ => panic!("not a command"),
        }
    }

    #[test]
    fn shell_form_quotes_only_when_needed() {
        let a = Action::Command {
            command: "${HOOKRUN_CONFIG_DIR}/guard.sh --x".into(),
            args: None,
        };
        assert_eq!(
            command(&expand(a.clone(), Path::new("/etc/hr"))).0,
            "/etc/hr/guard.sh --x"
        );
        assert_eq!(
            command(&expand(a, Path::new("/my dir/it's"))).0,
            r"'/my dir/it'\''s'/guard.sh --x"
        );
    }

    #[test]
    fn exec_form_is_verbatim() {
        let a = Action::Command {
            command: "${HOOKRUN_CONFIG_DIR}/guard".into(),
            args: Some(vec!["--rules=${HOOKRUN_CONFIG_DIR}/rules".into()]),
        };
        let (c, args) = command(&expand(a, Path::new("/my dir")));
        assert_eq!(c, "/my dir/guard");
        assert_eq!(args, Some(vec!["--rules=/my dir/rules".to_owned()]));
    }

    #[test]
    fn other_text_is_untouched() {
        let a = Action::Command {
            command: "$CLAUDE_PROJECT_DIR/x.sh".into(),
            args: None,
        };
        assert_eq!(
            command(&expand(a, Path::new("/c"))).0,
            "$CLAUDE_PROJECT_DIR/x.sh"
        );
    }
}
