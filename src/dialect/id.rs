//! The names of the hook protocols hookrun speaks: a leaf, so that configs
//! and events can name a dialect without depending on the dialects' code.

use serde::{Deserialize, Serialize};

/// A hook protocol.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    Serialize,
    Deserialize,
    clap::ValueEnum,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Dialect {
    #[default]
    Claude,
    Codex,
    PydanticDeep,
    Gemini,
    Cursor,
    Copilot,
}

impl Dialect {
    /// The name used in configs and on the command line.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Claude => "claude",
            Dialect::Codex => "codex",
            Dialect::PydanticDeep => "pydantic-deep",
            Dialect::Gemini => "gemini",
            Dialect::Cursor => "cursor",
            Dialect::Copilot => "copilot",
        }
    }

    /// Claude Code and Codex share the event model and the wire format.
    #[must_use]
    pub fn is_claude_like(self) -> bool {
        matches!(self, Dialect::Claude | Dialect::Codex)
    }
}
