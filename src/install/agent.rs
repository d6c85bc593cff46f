//! The agents `install` knows, and the command it registers with each:
//! how hookrun recognises its own handlers again.

pub(crate) use crate::agent::{Agent, Scope};

/// The arguments after the program in every command `install` writes for
/// an agent: what marks a handler as hookrun's registration.
#[must_use]
pub(crate) fn run_args(agent: Agent) -> String {
    format!("run --dialect {}", agent.as_str())
}

/// Whether the agent's payloads carry no event name, so that each
/// registration must say its event (`run --event NAME`), as its dialect
/// says (`Quirks::needs_event_flag`).
#[must_use]
pub(crate) fn names_event(agent: Agent) -> bool {
    crate::dialect::setup(agent).quirks.needs_event_flag
}

/// What one registered command says besides the dialect.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Invocation<'a> {
    /// The agent's own name of the event, for agents whose payloads name
    /// none (`names_event`).
    pub event: Option<&'a str>,
    /// `--on-error allow`: hookrun lets its own errors through.
    pub allow_errors: bool,
    /// The config, already a shell word (or words the shell joins, as
    /// `"$CLAUDE_PROJECT_DIR"/hookrun.toml`).
    pub config: Option<&'a str>,
    /// A `serve --http` server to forward the event to (`hookrun forward
    /// --url URL`) instead of running the hooks here, and the variable
    /// holding its token.
    pub server: Option<Server<'a>>,
}

/// A policy server a registration hands the event to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Server<'a> {
    pub url: &'a str,
    pub token_env: Option<&'a str>,
}

/// The command written into the agent's file: `program` (already a shell
/// word), `run --dialect AGENT` (or `forward --url URL --dialect AGENT`),
/// then `--event NAME`, `--on-error allow`, `--token-env VAR` and
/// `--config WORD` as `how` says. The config comes last: it is the one part
/// that is not a fixed word.
#[must_use]
pub(crate) fn command(program: &str, agent: Agent, how: &Invocation<'_>) -> String {
    let mut c = match how.server {
        Some(server) => format!(
            "{program} forward --url {} --dialect {}",
            hookrun_sh::word::word(server.url),
            agent.as_str()
        ),
        None => format!("{program} {}", run_args(agent)),
    };
    if let Some(event) = how.event {
        c.push_str(" --event ");
        c.push_str(&hookrun_sh::word::word(event));
    }
    if how.allow_errors {
        c.push_str(" --on-error allow");
    }
    if let Some(var) = how.server.and_then(|s| s.token_env) {
        c.push_str(" --token-env ");
        c.push_str(&hookrun_sh::word::word(var));
    }
    if let Some(config) = how.config {
        c.push_str(" --config ");
        c.push_str(config);
    }
    c
}

/// Whether an `http` handler's URL is a hookrun registration for this
/// agent: a `serve --http` endpoint for its dialect (`…/hooks/claude`,
/// with or without a query).
#[must_use]
pub(crate) fn is_http_registration(url: &str, agent: Agent) -> bool {
    let path = url.split(['?', '#']).next().unwrap_or("");
    path.trim_end_matches('/')
        .ends_with(&format!("/hooks/{}", agent.as_str()))
}

/// Whether a handler's command is a hookrun registration for this agent:
/// a program named `hookrun` (on PATH or by path, quoted or not) running
/// `run --dialect AGENT`, then only what `command` writes (an `--event`
/// of one plain word, `--on-error`, and a `--config` with whatever path),
/// so that what an older `install` wrote is recognised as well.
#[must_use]
pub(crate) fn is_registration(command: &str, agent: Agent) -> bool {
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
    if program.rsplit('/').next() != Some("hookrun") {
        return false;
    }
    let plain = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let mut tail = if let Some(tail) = rest.strip_prefix(args.as_str()) {
        tail
    } else if let Some(url) = rest.strip_prefix("forward --url ") {
        // A URL as `command` writes it: one word, quoted or not.
        let end = match url.strip_prefix('\'') {
            Some(quoted) => quoted.find('\'').map(|i| i + 2),
            None => url.find(' '),
        };
        let Some(end) = end else {
            return false;
        };
        let Some(tail) = url[end..].strip_prefix(&format!(" --dialect {}", agent.as_str())) else {
            return false;
        };
        tail
    } else {
        return false;
    };
    tail = take_flag(tail, " --event ", plain);
    tail = take_flag(tail, " --on-error ", |w| matches!(w, "allow" | "block"));
    tail = take_flag(tail, " --token-env ", plain);
    tail.is_empty() || tail.starts_with(" --config ")
}

/// The server a registration hands its events to (`hookrun forward --url
/// URL`, as `command` writes it, or an `http` handler read as one): its URL
/// and token variable.
pub(crate) fn server_of(command: &str) -> Option<(String, Option<String>)> {
    let (_, rest) = command.split_once(" forward --url ")?;
    let url = match rest.strip_prefix('\'') {
        Some(quoted) => quoted.split('\'').next()?.to_owned(),
        None => rest.split(' ').next()?.to_owned(),
    };
    let token_env = rest
        .split_once(" --token-env ")
        .and_then(|(_, v)| v.split(' ').next())
        .map(str::to_owned);
    Some((url, token_env))
}

/// `tail` after a leading ` NAME VALUE` whose value `ok` accepts; else
/// `tail` as it was.
fn take_flag<'a>(tail: &'a str, name: &str, ok: impl Fn(&str) -> bool) -> &'a str {
    let Some(after) = tail.strip_prefix(name) else {
        return tail;
    };
    let word = after.split(' ').next().unwrap_or("");
    if ok(word) { &after[word.len()..] } else { tail }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registrations_are_recognised_by_program_and_arguments() {
        let c = command("hookrun", Agent::Gemini, &Invocation::default());
        assert_eq!(c, "hookrun run --dialect gemini");
        assert!(is_registration(&c, Agent::Gemini));
        assert!(!is_registration(&c, Agent::Claude));
        let config = "\"$CLAUDE_PROJECT_DIR\"/h.toml";
        let moved = command(
            "'/opt/my tools/hookrun'",
            Agent::Claude,
            &Invocation {
                config: Some(config),
                ..Invocation::default()
            },
        );
        assert_eq!(
            moved,
            "'/opt/my tools/hookrun' run --dialect claude --config \"$CLAUDE_PROJECT_DIR\"/h.toml"
        );
        assert!(is_registration(&moved, Agent::Claude));
        let every = command(
            "hookrun",
            Agent::Copilot,
            &Invocation {
                event: Some("preToolUse"),
                allow_errors: true,
                config: Some("ci/h.toml"),
                server: None,
            },
        );
        assert_eq!(
            every,
            "hookrun run --dialect copilot --event preToolUse --on-error allow --config ci/h.toml"
        );
        assert!(is_registration(&every, Agent::Copilot));
        // What an older install wrote, without --event.
        assert!(is_registration(
            "hookrun run --dialect copilot",
            Agent::Copilot
        ));
        assert!(is_registration(
            "hookrun run --dialect copilot --event agentStop",
            Agent::Copilot
        ));
        let server = Server {
            url: "http://127.0.0.1:8787",
            token_env: Some("HOOKRUN_TOKEN"),
        };
        let forwarded = command(
            "hookrun",
            Agent::Codex,
            &Invocation {
                server: Some(server),
                ..Invocation::default()
            },
        );
        assert_eq!(
            forwarded,
            "hookrun forward --url http://127.0.0.1:8787 --dialect codex --token-env HOOKRUN_TOKEN"
        );
        assert!(is_registration(&forwarded, Agent::Codex));
        assert!(!is_registration(&forwarded, Agent::Claude));
        assert!(is_registration(
            "hookrun forward --url 'https://policy/a b' --dialect copilot --event preToolUse",
            Agent::Copilot
        ));
        assert!(is_http_registration(
            "http://127.0.0.1:1/hooks/claude",
            Agent::Claude
        ));
        assert!(is_http_registration(
            "https://p.example/x/hooks/claude/?a=1",
            Agent::Claude
        ));
        assert!(!is_http_registration(
            "https://p.example/hooks/claude-ish",
            Agent::Claude
        ));
        assert!(!is_http_registration(
            "https://p.example/hooks/auto",
            Agent::Claude
        ));
        for not_ours in [
            "hookrun forward --url http://x; rm y --dialect claude",
            "hookrun forward --url http://x --dialect claude; rm y",
            "hookrun forward --url http://x --dialect claude --token-env 'a b'",
            "hookrun run --dialect claude; rm x",
            "hookrun run --dialect claude --event PreToolUse; rm x",
            "hookrun run --dialect claude --event 'a b'",
            "hookrun run --dialect claude --on-error maybe",
            "hookrun run --dialect claude --report -",
            "myhookrun run --dialect claude",
            "hookrun builtin dangerous-commands",
        ] {
            assert!(!is_registration(not_ours, Agent::Claude), "{not_ours}");
        }
    }
}
