//! Whose model API a `prompt` hook asks: a leaf of config, so that what
//! an agent's hooks file says of it can name it without the model.

/// Whose model API a prompt hook asks.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    serde::Deserialize,
    serde::Serialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    /// The Anthropic Messages API (`ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`
    /// or `ANTHROPIC_AUTH_TOKEN`), or the Claude Code CLI without a key.
    #[default]
    Anthropic,
    /// An OpenAI-compatible chat completions API (`OPENAI_BASE_URL`,
    /// `OPENAI_API_KEY`).
    Openai,
}

impl Provider {
    /// The name written in TOML.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Anthropic => "anthropic",
            Self::Openai => "openai",
        }
    }
}
