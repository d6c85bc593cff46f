//! What the parser gives guards: simple commands, grouped in pipelines.

/// One simple command: its words (quotes removed), redirections, and the
/// bodies of the command substitutions that appear in its words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Command {
    pub words: Vec<String>,
    /// `(operator, target)`, e.g. `(">", "/etc/passwd")`.
    pub redirects: Vec<(String, String)>,
    /// Bodies of `$(…)`, `` `…` ``, `<(…)` and `>(…)` in this command
    /// (including in words that are not arguments: `for x in $(…)`,
    /// `case $(…) in`, `[[ $(…) ]]`).
    pub substitutions: Vec<String>,
    /// What this command reads on stdin from the script itself: here-doc
    /// bodies (`<<EOF` … `EOF`) and here-strings (`<<< text`). Data, unless
    /// the command is a shell or an interpreter.
    pub here: Vec<String>,
    /// Set on a command of its own, with no words, when the script
    /// defines a function whose body starts copies of itself in a
    /// pipeline or in the background: a fork bomb, named.
    pub fork_bomb: Option<String>,
    /// When the command name was split at `$IFS` (`r${IFS}m -rf /` runs
    /// `r m -rf /`): the word as written and how many words it made.
    /// With IFS set empty it would not split (`rm -rf /`), so a guard
    /// also reads it as a computed command name.
    pub ifs_name: Option<(String, usize)>,
    /// The command has more than `MAX_WORDS` words and substitutions:
    /// those past the limit were not kept, and a guard cannot judge it.
    pub too_many_words: bool,
    /// Set on the first command of a pipeline that groups piped into it
    /// made longer than `MAX_PIPELINE` commands: the rest were not kept.
    pub too_long_pipeline: bool,
}

/// The most words (with substitutions) one simple command keeps. No
/// program can be given this many arguments (Linux caps a command line's
/// arguments and environment at 2 MiB, each argument costing at least a
/// pointer and its NUL), so only text crafted against the guard reaches it.
pub const MAX_WORDS: usize = 200_000;

/// The most commands one pipeline keeps when groups are piped into it
/// (`{ …; } | sh`, nested): far above a real pipeline, and what keeps deep
/// nesting of piped groups linear.
pub const MAX_PIPELINE: usize = 1_000;

/// Commands joined by `|`.
pub type Pipeline = Vec<Command>;

/// A parsed command line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Script {
    pub pipelines: Vec<Pipeline>,
    /// How deep substitutions nest in the text (`$(a $(b))` is 2), or more
    /// than `MAX_SUBSTITUTION_DEPTH` when they nest deeper than the lexer
    /// follows.
    pub nesting: usize,
}
