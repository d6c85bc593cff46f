//! The agents `install` knows, and the command it registers with each:
//! how hookrun recognises its own handlers again.

/// The agents whose settings `hookrun install` edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Agent {
    Claude,
    Codex,
    Gemini,
    Cursor,
    Copilot,
}

impl Agent {
    /// Every agent `install` knows.
    pub const ALL: [Agent; 5] = [
        Agent::Claude,
        Agent::Codex,
        Agent::Gemini,
        Agent::Cursor,
        Agent::Copilot,
    ];

    /// The dialect `hookrun run` speaks to this agent.
    #[must_use]
    pub fn dialect(self) -> crate::dialect::id::Dialect {
        use crate::dialect::id::Dialect;
        match self {
            Agent::Claude => Dialect::Claude,
            Agent::Codex => Dialect::Codex,
            Agent::Gemini => Dialect::Gemini,
            Agent::Cursor => Dialect::Cursor,
            Agent::Copilot => Dialect::Copilot,
        }
    }

    /// The agent a dialect speaks to, where `install` knows it.
    #[must_use]
    pub fn of(dialect: crate::dialect::id::Dialect) -> Option<Agent> {
        [
            Agent::Claude,
            Agent::Codex,
            Agent::Gemini,
            Agent::Cursor,
            Agent::Copilot,
        ]
        .into_iter()
        .find(|a| a.dialect() == dialect)
    }

    /// The agent's name, as on the command line.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        self.dialect().as_str()
    }
}

/// Where an agent's settings file is: the user's, or the project's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scope {
    User,
    Project,
}

/// The arguments after the program in every command `install` writes for
/// an agent: what marks a handler as hookrun's registration.
#[must_use]
pub fn run_args(agent: Agent) -> String {
    format!("run --dialect {}", agent.as_str())
}

/// The command written into the agent's file: `program` (already a shell
/// word), `run --dialect AGENT`, and `--config PATH` when the user named
/// the config.
#[must_use]
pub fn command(program: &str, agent: Agent, config: Option<&std::path::Path>) -> String {
    let mut c = format!("{program} {}", run_args(agent));
    if let Some(path) = config {
        c.push_str(" --config ");
        c.push_str(&crate::shell_word::word(&path.display().to_string()));
    }
    c
}

/// Whether a handler's command is a hookrun registration for this agent:
/// a program named `hookrun` (on PATH or by path, quoted or not) running
/// `run --dialect AGENT`, with whatever config.
#[must_use]
pub fn is_registration(command: &str, agent: Agent) -> bool {
    let args = run_args(agent);
    let (program, rest) = match command.strip_prefix('\'') {
        Some(quoted) => match quoted.split_once("' ") {
            Some((p, rest)) => (p, rest),
            None => return false,
        },
        None => match command.split_once(' ') {
            Some(pair) => pair,
            None => return false,
        },
    };
    let named_hookrun = program.rsplit('/').next() == Some("hookrun");
    let ours = rest == args
        || rest
            .strip_prefix(args.as_str())
            .is_some_and(|r| r.starts_with(" --config "));
    named_hookrun && ours
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registrations_are_recognised_by_program_and_arguments() {
        let c = command("hookrun", Agent::Gemini, None);
        assert_eq!(c, "hookrun run --dialect gemini");
        assert!(is_registration(&c, Agent::Gemini));
        assert!(!is_registration(&c, Agent::Claude));
        let moved = command(
            "'/opt/my tools/hookrun'",
            Agent::Claude,
            Some(std::path::Path::new("/c/h.toml")),
        );
        assert_eq!(
            moved,
            "'/opt/my tools/hookrun' run --dialect claude --config /c/h.toml"
        );
        assert!(is_registration(&moved, Agent::Claude));
        assert!(!is_registration(
            "hookrun run --dialect claude; rm x",
            Agent::Claude
        ));
        assert!(!is_registration(
            "myhookrun run --dialect claude",
            Agent::Claude
        ));
        assert!(!is_registration(
            "hookrun builtin dangerous-commands",
            Agent::Claude
        ));
    }
}
