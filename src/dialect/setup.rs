//! What `install`, `doctor` and `check` know of an agent hookrun registers
//! in, as data its dialect file gives (`SETUP`): the agent's name, its
//! events and tools in its own words, the shape of its hooks file, its
//! fail-safe switch, how it starts a hook and reads the answer (for
//! doctor's canaries) and the versions hookrun is tested with. The modules
//! that use it never name an agent: a new agent is its dialect file, with
//! its `SETUP`, and its line in the dialects' list.

use serde::Serialize;
use serde_json::Value;

use super::canary::{Launch, Payload, Reads};
use crate::agent::Agent;

/// One agent's facts, for the modules that register hookrun with it and
/// check the registration.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Setup {
    /// The agent's name as its users know it ("Claude Code").
    pub name: &'static str,
    /// How hookrun's tests know the agent (`doctor`'s D012).
    pub tested: Tested,
    /// Its events under its own names.
    pub events: Events,
    /// Its hooks file's shape, as `install` writes hookrun's handlers.
    pub file: HooksFile,
    /// Where it keeps its hooks.
    pub places: Places,
    /// The key and value that make the agent block an event (of hookrun's
    /// model, one that can block) on which hookrun cannot answer; `None`
    /// where the agent has no such switch, or ignores it on that event.
    pub fail_closed: fn(&str) -> Option<(&'static str, Value)>,
    /// How a project-scope command names the project directory, ready for
    /// the command text; `None` where the agent exports no such variable
    /// (and runs hooks in the project's directory).
    pub project_anchor: Option<&'static str>,
    /// Its own names of its tools, by `@` family, where known (`check`'s
    /// W020): a family left out is not judged.
    pub tool_names: &'static [(&'static str, &'static [&'static str])],
    /// What sets it apart from the others, where anything does.
    pub quirks: Quirks,
    /// How it starts a hook's command, for doctor's canaries.
    pub launch: Launch,
    /// How it reads a hook's answer, for doctor's canaries.
    pub reads: Reads,
    /// A canary event in its shape.
    pub canary_payload: Payload,
}

/// What sets an agent apart, where anything does ([`Quirks::NONE`] for
/// most).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Quirks {
    /// Whether its payloads name no event, so that each registration
    /// carries `--event`.
    pub needs_event_flag: bool,
    /// The file of its own where hookrun's registration is kept (it holds
    /// no other hooks to move); `None` where hookrun's handlers sit among
    /// the agent's other hooks.
    pub own_file: Option<&'static str>,
    /// The agent whose registrations this one runs as well, reading that
    /// agent's settings files (Cursor runs Claude Code's).
    pub also_runs: Option<Agent>,
    /// Where it runs a command hook only once the user reviewed it, the
    /// reader of that trust state (`doctor`'s D011): for hookrun's
    /// registration `command` in a hooks file, each hook the agent will
    /// not run.
    pub hook_review: Option<HookReview>,
    /// Why the agent runs no hook of the user's or a project's on this
    /// machine, where a machine policy says so (Codex's
    /// `allow_managed_hooks_only`): `install` refuses, `doctor` says it.
    pub machine_lock: Option<fn() -> Option<Skipped>>,
}

impl Quirks {
    /// An agent like the others.
    pub(crate) const NONE: Quirks = Quirks {
        needs_event_flag: false,
        own_file: None,
        also_runs: None,
        hook_review: None,
        machine_lock: None,
    };
}

/// The reader of an agent's review of its hooks: the hooks file, hookrun's
/// registration command in it, the user's directories, and which commands
/// are hookrun's registrations.
pub(crate) type HookReview =
    fn(&std::path::Path, &str, &crate::dirs::Homes, &dyn Fn(&str) -> bool) -> Vec<Skipped>;

/// Why the agent will not run a hook, and what makes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Skipped {
    pub(crate) message: String,
    pub(crate) fix: String,
}

impl Skipped {
    pub(crate) fn new(message: String, fix: String) -> Self {
        Skipped { message, fix }
    }
}

/// Where an agent keeps its hooks: the files `install` writes, and every
/// place it reads hooks from.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Places {
    /// The user's file `install` writes: in the directory `var` names,
    /// else in `home_dir` under the home.
    pub user: UserFile,
    /// The project's shared file, relative to the project's directory.
    pub project: &'static str,
    /// The project's file of this machine's own, kept out of version
    /// control, where the agent reads one.
    pub local: Option<&'static str>,
    /// Every place it reads hooks from by itself for a session in the
    /// project, lowest priority first, whether or not they exist.
    pub reads: fn(&std::path::Path, &crate::dirs::Homes) -> Vec<crate::dirs::HookPlace>,
    /// The machine's own places among them (files, or directories of
    /// files): an administrator's, which the user cannot switch off, so
    /// their hooks are read as policy.
    pub managed: &'static [&'static str],
}

/// The user's hooks file of an agent.
#[derive(Debug, Clone, Copy)]
pub(crate) struct UserFile {
    /// The variable that moves the agent's user directory, where it has
    /// one (`CODEX_HOME`).
    pub var: Option<&'static str>,
    /// Its user directory under the home.
    pub home_dir: &'static str,
    /// The file in that directory.
    pub file: &'static str,
}

impl UserFile {
    /// The path of the file; `None` without the variable and a home.
    #[must_use]
    pub(crate) fn path(self, homes: &crate::dirs::Homes) -> Option<std::path::PathBuf> {
        homes
            .dir(self.var, self.home_dir)
            .map(|d| d.join(self.file))
    }
}

/// An agent's events under its own names.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Events {
    /// Every event of hookrun's model, under the same names.
    Model,
    /// These events of hookrun's model, under the same names.
    Same(&'static [&'static str]),
    /// Its names and the model's each maps to, the general one first where
    /// several map to one (Cursor's `preToolUse`, then
    /// `beforeShellExecution`), and the events it shares under the model's
    /// own names.
    Renamed {
        table: &'static [(&'static str, &'static str)],
        same: &'static [&'static str],
    },
}

impl Events {
    /// The agent's name for an event of hookrun's model, if it has it:
    /// where several of its events map to one, the general one, so that
    /// hookrun runs once per call.
    #[must_use]
    pub(crate) fn theirs(self, model: &str) -> Option<String> {
        match self {
            Events::Model => crate::events::info(model).map(|_| model.to_owned()),
            Events::Same(list) => list.contains(&model).then(|| model.to_owned()),
            Events::Renamed { table, same } => table
                .iter()
                .find(|(_, m)| *m == model)
                .map(|(theirs, _)| (*theirs).to_owned())
                .or_else(|| same.contains(&model).then(|| model.to_owned())),
        }
    }

    /// hookrun's events that a registration on the agent's `theirs`
    /// receives.
    #[must_use]
    pub(crate) fn model(self, theirs: &str) -> Vec<String> {
        match self {
            Events::Model | Events::Same(_) => vec![theirs.to_owned()],
            Events::Renamed { table, same } => {
                let mapped: Vec<String> = table
                    .iter()
                    .filter(|(a, _)| *a == theirs)
                    .map(|(_, m)| (*m).to_owned())
                    .collect();
                if mapped.is_empty() && !same.is_empty() {
                    vec![theirs.to_owned()]
                } else {
                    mapped
                }
            }
        }
    }
}

/// The shape of an agent's hooks file where `install` writes hookrun's
/// handlers.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HooksFile {
    /// Whether handlers nest in matcher groups (`hooks.EVENT[].hooks[]`)
    /// rather than being listed under the event.
    pub nested: bool,
    /// The key holding a handler's shell command.
    pub command_key: &'static str,
    /// The key of a handler's timeout.
    pub timeout_key: &'static str,
    /// Whether the timeout counts milliseconds (else seconds).
    pub timeout_millis: bool,
    /// Whether a handler carries `"type": "command"`.
    pub typed: bool,
    /// The `name` a handler of hookrun's carries, where the agent lists and
    /// deduplicates hooks by name.
    pub handler_name: Option<&'static str>,
    /// The format `version` a new file starts with, where it has one.
    pub version: Option<u64>,
    /// Whether the agent runs Claude Code's `http` handler (posting the
    /// event, reading the answer's JSON), so that `install --url` registers
    /// a server as one.
    pub http: bool,
}

impl HooksFile {
    /// Claude Code's shape: handlers in matcher groups, `command`, a
    /// `timeout` in seconds, `"type": "command"`.
    pub(crate) const GROUPED: HooksFile = HooksFile {
        nested: true,
        command_key: "command",
        timeout_key: "timeout",
        timeout_millis: false,
        typed: true,
        handler_name: None,
        version: None,
        http: false,
    };

    /// Handlers listed under the event in a `{"version": 1, "hooks": …}`
    /// file, `command`, a `timeout` in seconds, `"type": "command"`.
    pub(crate) const LISTED: HooksFile = HooksFile {
        nested: false,
        version: Some(1),
        ..HooksFile::GROUPED
    };
}

/// How hookrun's tests know an agent's version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum How {
    /// The real agent, run by `scripts/live` against a mock of its model.
    Live,
    /// Payloads and answers written from the agent's documentation or
    /// package, replayed by the test suite; the agent itself never ran.
    Fixtures,
}

impl How {
    #[must_use]
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            How::Live => "live",
            How::Fixtures => "fixtures",
        }
    }
}

/// The agent versions hookrun is tested with (`doctor`'s D012).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Tested {
    /// The agent's launcher, as its installer puts it on PATH.
    pub program: &'static str,
    /// The versions its tests ran with, as `PROGRAM --version` prints them.
    /// Empty: no version of the program was run.
    pub versions: &'static [&'static str],
    pub how: How,
    /// What the tests rest on, as shown next to an untested version.
    pub basis: &'static str,
}

#[cfg(test)]
mod tests {
    use crate::agent::Agent;

    #[test]
    fn every_agent_install_knows_has_its_dialects_setup() {
        for agent in Agent::ALL {
            let setup = super::super::protocol(agent.dialect()).setup();
            assert!(setup.is_some(), "{agent:?}'s dialect gives no SETUP");
        }
    }

    #[test]
    fn events_map_both_ways() {
        let gemini = super::super::setup(Agent::Gemini).events;
        assert_eq!(gemini.theirs("Stop").as_deref(), Some("AfterAgent"));
        assert_eq!(
            gemini.theirs("SessionStart").as_deref(),
            Some("SessionStart")
        );
        assert_eq!(gemini.model("BeforeTool"), ["PreToolUse"]);
        let codex = super::super::setup(Agent::Codex).events;
        assert_eq!(codex.theirs("SessionEnd").as_deref(), Some("SessionEnd"));
        assert_eq!(codex.theirs("Notification"), None);
        assert_eq!(codex.model("Stop"), ["Stop"]);
    }
}
