//! The agents whose settings `hookrun install` edits, and where in them:
//! identities below every module that names them (install, config's own
//! files, doctor), beside the dialects' list they map into.

/// Generates `Agent` from the dialects' list: the dialects marked `agent`.
macro_rules! define_agent {
    (@go [$($variant:ident $name:literal)*]) => {
        /// The agents whose settings `hookrun install` edits.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
        pub(crate) enum Agent {
            $(
                #[value(name = $name)]
                $variant,
            )*
        }

        impl Agent {
            /// Every agent `install` knows, in the dialects' order.
            pub(crate) const ALL: [Agent; [$($name),*].len()] = [$(Agent::$variant),*];

            /// The dialect `hookrun run` speaks to this agent.
            #[must_use]
            pub(crate) fn dialect(self) -> super::dialect::Dialect {
                match self {
                    $(Agent::$variant => super::dialect::Dialect::$variant,)*
                }
            }
        }
    };
    (@go [$($acc:tt)*] $variant:ident $name:literal $module:ident::$imp:ident, $claude_like:literal, agent; $($rest:tt)*) => {
        define_agent!(@go [$($acc)* $variant $name] $($rest)*);
    };
    (@go [$($acc:tt)*] $variant:ident $name:literal $module:ident::$imp:ident, $claude_like:literal; $($rest:tt)*) => {
        define_agent!(@go [$($acc)*] $($rest)*);
    };
    ($($line:tt)*) => {
        define_agent!(@go [] $($line)*);
    };
}
super::dialect::dialects!(define_agent);

impl Agent {
    /// The agent a dialect speaks to, where `install` knows it.
    #[must_use]
    pub(crate) fn of(dialect: super::dialect::Dialect) -> Option<Agent> {
        Agent::ALL.into_iter().find(|a| a.dialect() == dialect)
    }

    /// The agent's name, as on the command line.
    #[must_use]
    pub(crate) fn as_str(self) -> &'static str {
        self.dialect().as_str()
    }
}

/// Where an agent's settings file is: the user's, the project's (shared,
/// often committed), or the project's local file (this machine's only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Scope {
    User,
    Project,
    Local,
}
