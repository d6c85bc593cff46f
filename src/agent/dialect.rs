//! The names of the hook protocols hookrun speaks: a leaf, so that configs
//! and events can name a dialect without depending on the dialects' code.

use serde::{Deserialize, Serialize};

/// The one list of dialects, in the order events are recognised (Claude
/// Code, whose event model hookrun uses, is the fallback and recognises
/// nothing itself): the variant, its name in configs and on the command
/// line, the file under `dialect/` and the type in it that implements it,
/// whether it shares Claude Code's event model and wire format, and
/// `agent` where it is an agent `install` registers hookrun with (its
/// dialect file then gives a `SETUP`). Adding a dialect is one file under
/// `dialect/` and one line here; `Dialect`, `Agent`, the `mod` line and
/// `dialect::REGISTRY` are generated from it.
macro_rules! dialects {
    ($then:ident) => {
        $then! {
            Claude "claude" claude::Claude, true, agent;
            Codex "codex" codex::Codex, true, agent;
            PydanticDeep "pydantic-deep" pydantic::PydanticDeep, false;
            Gemini "gemini" gemini::Gemini, false, agent;
            Copilot "copilot" copilot::Copilot, false, agent;
            Cursor "cursor" cursor::Cursor, false, agent;
            Deputy "deputy" deputy::Deputy, false;
            Qwen "qwen" qwen::Qwen, true, agent;
        }
    };
}
pub(crate) use dialects;

/// Generates `Dialect` from the list.
macro_rules! define_dialect {
    ($($variant:ident $name:literal $module:ident::$imp:ident, $claude_like:literal $(, $agent:ident)?;)*) => {
        /// A hook protocol.
        #[derive(
            Debug,
            Clone,
            Copy,
            PartialEq,
            Eq,
            Serialize,
            Deserialize,
            clap::ValueEnum,
            schemars::JsonSchema,
        )]
        pub enum Dialect {
            $(
                #[serde(rename = $name)]
                #[value(name = $name)]
                $variant,
            )*
        }

        impl Dialect {
            /// The name used in configs and on the command line.
            #[must_use]
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Dialect::$variant => $name,)*
                }
            }

            /// Whether this agent shares Claude Code's event model and wire
            /// format.
            #[must_use]
            pub fn is_claude_like(self) -> bool {
                match self {
                    $(Dialect::$variant => $claude_like,)*
                }
            }
        }
    };
}
dialects!(define_dialect);

/// A dialect as configs and the command line name it.
impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Default for Dialect {
    /// Claude Code's contract is the one the others copied.
    fn default() -> Self {
        Dialect::Claude
    }
}
