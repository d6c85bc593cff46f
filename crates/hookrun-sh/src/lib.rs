//! A bash reader for guard rules: enough of bash to see which commands a
//! command line runs — words with their quotes removed (every quoting
//! form, `$'…'` escapes, backslash-newline), the separators `;` `&&` `||`
//! `|` `&` and newlines, redirections, here-docs, the bodies of `$(…)`,
//! backticks and `<(…)`, and the structure around commands
//! (`if`/`while`/`until`/`for`/`select`/`case`, `{ …; }`, subshells,
//! function definitions in every syntax, `!`, `time`, `coproc`, `[[ … ]]`)
//! — so rules look at commands, not at text (`echo "rm -rf /"` runs
//! `echo`, and `if true; then rm -rf /; fi` runs `rm`). Beside it: brace
//! and glob expansion of a word as bash would do it ([`expand`], [`glob`])
//! and the one quoting of text as a shell word ([`word`]).
//!
//! It never fails: unbalanced quotes or a missing `fi` end at the end of
//! the input, and every command it can make out is still seen. It never
//! recurses without bound, and costs time and memory linear in the input
//! (why not a bash parser crate: see this crate's Cargo.toml).
//!
//! The result is flat: compound commands are dissolved into the simple
//! commands they run, in order. A guard that judges each command needs no
//! more, because every command in a branch, loop or function body may run.
//!
//! Non-goals: running or evaluating anything (no variable values, no
//! arithmetic, no aliases), reporting syntax errors, and round-tripping the
//! text; the reader answers "which commands could this run", nothing else.
//!
//! ```
//! let pipelines = hookrun_sh::parse("echo 'rm -rf /' | grep rm; if true; then rm -rf /tmp/x; fi");
//! let names: Vec<&str> = pipelines
//!     .iter()
//!     .flatten()
//!     .map(|c| c.words[0].as_str())
//!     .collect();
//! // The condition runs too: every command in the text is seen.
//! assert_eq!(names, ["echo", "grep", "true", "rm"]);
//! assert_eq!(pipelines[0][0].words, ["echo", "rm -rf /"]);
//! assert_eq!(hookrun_sh::word::word("it's"), r"'it'\''s'");
//! ```

pub mod expand;
pub mod glob;
pub mod word;

mod blocks;
mod command;
mod fields;
mod grammar;
mod heredoc;
mod lexer;
mod quote;
mod substitution;

#[cfg(test)]
mod tests;

use std::cell::Cell;

pub use command::{Command, MAX_PIPELINE, MAX_WORDS, Pipeline, Script};
pub use lexer::MAX_SUBSTITUTION_DEPTH;

thread_local! {
    static WORK: Cell<u64> = const { Cell::new(0) };
}

/// Splits a command line into pipelines of simple commands.
#[must_use]
pub fn parse(src: &str) -> Vec<Pipeline> {
    parse_script(src).pipelines
}

/// As `parse`, with how deep substitutions nest.
#[must_use]
pub fn parse_script(src: &str) -> Script {
    let mut pipelines = Vec::new();
    let (_, nesting): (Option<()>, _) = each_pipeline(src, |pipeline, _| {
        pipelines.push(pipeline);
        None
    });
    Script { pipelines, nesting }
}

/// Parses `src`, handing each pipeline to `f` as soon as it is complete
/// (with how deep substitutions nested in the text read so far), and stops
/// at the first `Some`; returns it and how deep substitutions nested in
/// the text read. Holds one pipeline at a time, so a long script costs
/// memory for its longest pipeline, not for all of them.
pub fn each_pipeline<T>(
    src: &str,
    f: impl FnMut(Pipeline, usize) -> Option<T>,
) -> (Option<T>, usize) {
    let mut lexer = lexer::Lexer::new(src, grammar::nested);
    let found = grammar::script(&mut lexer, f);
    let steps = lexer.steps();
    WORK.with(|w| w.set(w.get().saturating_add(steps)));
    (found, lexer.nesting())
}

/// The lexing work done on this thread so far: characters visited, counting
/// a character each time it is visited (here-doc bodies are scanned once to
/// find their end and skipped again). Tests of bounded cost read it before
/// and after an analysis.
#[must_use]
pub fn work() -> u64 {
    WORK.with(Cell::get)
}
