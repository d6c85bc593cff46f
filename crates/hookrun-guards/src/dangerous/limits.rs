//! How far the guard reads: the nesting it follows and the longest line it
//! analyses, and the most words of one command it keeps. Past any of
//! them it denies, saying which, rather than allow text it has not read.

use hookrun_sh::{MAX_PIPELINE, MAX_WORDS};

/// How deep the guard follows shells in shells, `eval` and substitutions.
/// Deeper text is denied, never allowed unseen.
pub(crate) const MAX_NESTING: usize = 8;

/// The longest command line analysed: far above any real one (Linux caps
/// one argument at 128 KiB and a whole command line at 2 MiB), so only
/// text crafted to exhaust the guard is denied for its size.
pub const MAX_INPUT: usize = 16 << 20;

pub(crate) fn too_long(len: usize) -> Option<String> {
    (len > MAX_INPUT).then(|| {
        format!(
            "a command of {len} bytes is longer than the {} MiB the guard analyses",
            MAX_INPUT >> 20
        )
    })
}

pub(crate) fn too_deep() -> String {
    format!(
        "commands nested more than {MAX_NESTING} levels deep (shells, `eval`, substitutions) are more than the guard analyses"
    )
}

pub(crate) fn too_many_words() -> String {
    format!(
        "a command of more than {MAX_WORDS} words is more than the guard analyses (no program can be given that many arguments)"
    )
}

pub(crate) fn too_long_pipeline() -> String {
    format!(
        "groups piped into one another make a pipeline of more than {MAX_PIPELINE} commands, more than the guard analyses"
    )
}
