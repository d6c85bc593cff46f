//! What config needs of the readers of other agents' hooks files, and the
//! plain data they hand back.
//!
//! Which agent a file belongs to and what its entries mean is each agent's
//! own knowledge, kept with its dialect, which sits above config (it
//! renders decisions, reads runs, and loads configs itself). So config
//! defines what it needs of such a reader ([`ForeignFiles`]) and the
//! dialect layer supplies it in [`LoadOptions`]: dependency inversion, with
//! no registration at a distance and nothing global, so every caller of
//! `config::load` says which readers it loads with. What a reader finds is
//! plain data ([`Foreign`]), validated here into hooks exactly as a TOML
//! file's are, each pointed at its key and line in the original file.

use std::path::Path;

use crate::agent::Dialect;

/// What config needs of the readers of other agents' hooks files.
pub trait ForeignFiles: Sync {
    /// The agent whose format a JSON hooks file is in: `forced`
    /// (`--config-format`), else what its path or content says; Claude
    /// Code's shape when nothing says otherwise.
    ///
    /// # Errors
    /// The content fits several formats, or the agent has no hooks file.
    fn agent_of_file(
        &self,
        path: &Path,
        text: &str,
        forced: Option<Dialect>,
    ) -> Result<Dialect, String>;

    /// How an agent whose file has Claude Code's shape reads it.
    fn shape_rules(&self, agent: Dialect) -> ShapeRules;

    /// Whether an agent whose file has Claude Code's shape ignores `if`.
    fn ignores_if(&self, agent: Dialect) -> bool;

    /// The hooks in a file of an agent whose format is not Claude Code's;
    /// `None` for text that is not JSON (the Claude Code reader reports
    /// where it breaks).
    fn read(&self, agent: Dialect, text: &str) -> Option<Result<Foreign, String>>;

    /// The agent (as its users name it) whose own name for an event of the
    /// model `name` is, and the model's name: what a TOML file that names
    /// an event so is told to write instead.
    fn model_name_of(&self, name: &str) -> Option<(&'static str, &'static str)>;

    /// Whether `path` is one of an agent's machine-wide hook files, an
    /// administrator's (Copilot CLI's policy files, Cursor's enterprise
    /// file): its hooks are policy, which no `disableAllHooks` of the
    /// user's turns off.
    fn is_managed(&self, path: &Path) -> bool;

    /// Every place the agent of `dialect` reads hooks from by itself for a
    /// session in `project`, lowest priority first, whether or not they
    /// exist; none for a dialect that is no agent `install` knows.
    fn hook_places(
        &self,
        dialect: Dialect,
        project: &Path,
        homes: &crate::dirs::Homes,
    ) -> Vec<crate::dirs::HookPlace>;
}

/// How an agent whose hooks file has Claude Code's shape reads it, where
/// it reads it otherwise than Claude Code (Qwen Code's settings).
#[derive(Debug, Clone, Copy)]
pub struct ShapeRules {
    /// The agent, as its users name it, for messages.
    pub agent: &'static str,
    /// Whether a `timeout` of 1000 or more counts milliseconds (else every
    /// `timeout` counts seconds).
    pub legacy_millis: bool,
    /// Whether a handler's `env` object is set for its command.
    pub handler_env: bool,
    /// Whether `failMode: "closed"` makes a handler fail closed.
    pub fail_mode_key: bool,
    /// The handler `type`s the agent runs; any other is dropped.
    pub kinds: &'static [&'static str],
    /// Whether the agent skips a handler of this `type` on this event
    /// (with a warning; the rest of the file stands): Codex skips `prompt`
    /// and `agent` hooks, and `mcp_tool` hooks on SessionEnd.
    pub skips: fn(&str, &str) -> bool,
    /// The longest timeout, in seconds, the agent gives a hook on this
    /// event, where it cuts a longer one short (Codex's SessionEnd and
    /// Interrupt: 3 s).
    pub timeout_cap: fn(&str) -> Option<f64>,
    /// Whether an invalid entry under a guard event makes the agent ignore
    /// the whole file (else only that entry is dropped).
    pub guard_voids_file: bool,
    /// Whether a group's `sequential: true` makes the agent run its event's
    /// hooks one after another.
    pub sequential_groups: bool,
    /// Whether the agent fires an event of this name.
    pub fires: fn(&str) -> bool,
    /// The agent's matcher (on a tool event or not) as a hookrun regex,
    /// where it reads matchers otherwise than Claude Code.
    pub matcher: Option<fn(bool, &str) -> String>,
    /// The model API a `prompt` handler asks: the agent's own.
    pub prompt_provider: super::provider::Provider,
    /// The MCP servers the agent connects for a session in a project,
    /// which its `mcp_tool` handlers name (Codex's `[mcp_servers]`); Claude
    /// Code's, which need its approval, are found by config itself.
    pub mcp_servers: fn(&Path, &crate::dirs::Homes) -> Vec<super::mcp_server::McpServer>,
}

impl ShapeRules {
    /// Whether these are Claude Code's own rules (not an agent's that
    /// reads the shape its own way).
    #[must_use]
    pub fn are_claudes(&self) -> bool {
        self.agent == Self::CLAUDE.agent
    }

    /// Claude Code's own rules.
    pub const CLAUDE: ShapeRules = ShapeRules {
        agent: "Claude Code",
        legacy_millis: false,
        handler_env: false,
        fail_mode_key: false,
        kinds: &["command", "prompt", "agent", "http", "mcp_tool"],
        skips: |_, _| false,
        timeout_cap: |_| None,
        guard_voids_file: true,
        sequential_groups: false,
        fires: |event| crate::events::info(event).is_some(),
        matcher: None,
        prompt_provider: super::provider::Provider::Anthropic,
        mcp_servers: |_, _| Vec::new(),
    };
}

impl std::fmt::Debug for dyn ForeignFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ForeignFiles")
    }
}

/// A foreign agent's hooks file as its reader found it: for `run`,
/// `check`, `explain` and `test` the hooks of the model, for `convert` the
/// hookrun TOML they are written as.
#[derive(Debug)]
pub struct Foreign {
    /// The agent the file belongs to.
    pub agent: Dialect,
    /// Its matchers are regexes (Gemini CLI's unanchored ones).
    pub regex_matchers: bool,
    /// Events (the model's names) whose hooks the agent runs one after
    /// another.
    pub sequential: Vec<String>,
    /// The hooks, in file order.
    pub hooks: Vec<ForeignHook>,
    /// Entries that could not be carried over.
    pub skipped: Vec<Skipped>,
}

/// One hook of another agent's file, in the model's terms.
#[derive(Debug)]
pub struct ForeignHook {
    /// Its JSON key, e.g. `hooks.BeforeTool[0].hooks[1]`.
    pub key: String,
    pub name: Option<String>,
    /// The model's name of its event.
    pub event: String,
    pub matcher: Option<String>,
    pub action: ForeignAction,
    /// In seconds; `None`: the event's default.
    pub timeout: Option<f64>,
    /// The agent blocks when the hook fails (Cursor's `failClosed`).
    pub fail_closed: bool,
    pub env: Vec<(String, String)>,
}

/// What one hook runs.
#[derive(Debug)]
pub enum ForeignAction {
    /// A shell command, which expects its agent's payload and answers.
    Command(String),
    /// `hookrun builtin NAME …`: the built-in again (reading the model);
    /// its options and its mode unless `enforce`.
    Builtin {
        name: String,
        options: Option<toml::Value>,
        mode: Option<String>,
    },
    /// A handler the agent runs and hookrun cannot (Cursor's and Copilot's
    /// `prompt` hooks, which ask the agent's own model): `run` counts the
    /// event as not fully evaluated, `convert` leaves it out.
    Unsupported(String),
}

/// An entry of another agent's hooks file that is not carried over.
#[derive(Debug)]
pub struct Skipped {
    /// Its JSON key, e.g. `hooks.BeforeTool[0].hooks[1]`.
    pub key: String,
    /// Why, e.g. "no `command`: not converted".
    pub why: String,
    /// The entry is an event the agent does not know (the agent skips it too).
    pub unknown_event: bool,
}
