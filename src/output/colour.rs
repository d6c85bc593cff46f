//! Whether hookrun's own text output is coloured (`--color`), decided once
//! per process. One process-wide setting rather than a parameter threaded
//! through every renderer: the choice is made on the command line before
//! any command runs and never changes afterwards.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU8, Ordering};

/// `--color`: when hookrun colours its text output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub(crate) enum ColorWhen {
    /// Colour when the stream is a terminal and `NO_COLOR` is unset.
    #[default]
    Auto,
    /// Always colour, even into a pipe or file.
    Always,
    /// Never colour.
    Never,
}

impl ColorWhen {
    /// The same choice for clap's own help and error messages.
    #[must_use]
    pub(crate) fn for_clap(self) -> clap::ColorChoice {
        match self {
            ColorWhen::Auto => clap::ColorChoice::Auto,
            ColorWhen::Always => clap::ColorChoice::Always,
            ColorWhen::Never => clap::ColorChoice::Never,
        }
    }

    fn code(self) -> u8 {
        match self {
            ColorWhen::Auto => 0,
            ColorWhen::Always => 1,
            ColorWhen::Never => 2,
        }
    }

    /// The `--color` value in raw command-line words, before clap parses
    /// them (so that clap's own messages honour it too); the last one wins,
    /// as clap would pick. `--` ends the options.
    #[must_use]
    pub(crate) fn from_words<S: AsRef<std::ffi::OsStr>>(words: &[S]) -> Option<ColorWhen> {
        let mut found = None;
        let mut iter = words.iter().map(|w| w.as_ref().to_string_lossy());
        while let Some(w) = iter.next() {
            if w == "--" {
                break;
            }
            let value = if w == "--color" {
                iter.next().map(|v| v.into_owned())
            } else {
                w.strip_prefix("--color=").map(str::to_owned)
            };
            match value.as_deref() {
                Some("auto") => found = Some(ColorWhen::Auto),
                Some("always") => found = Some(ColorWhen::Always),
                Some("never") => found = Some(ColorWhen::Never),
                _ => {}
            }
        }
        found
    }
}

static CHOICE: AtomicU8 = AtomicU8::new(0);

/// Records the process's choice.
pub(crate) fn set(choice: ColorWhen) {
    CHOICE.store(choice.code(), Ordering::Relaxed);
}

fn wanted(is_terminal: bool) -> bool {
    match CHOICE.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

/// Whether text written to stdout is coloured.
#[must_use]
pub(crate) fn stdout() -> bool {
    wanted(std::io::stdout().is_terminal())
}

/// A painter: wraps text in an SGR sequence when `on`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Paint {
    pub on: bool,
}

impl Paint {
    /// `s` in SGR style `code` (`1;31` bold red…), or plain.
    #[must_use]
    pub(crate) fn style(self, code: &str, s: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    }

    #[must_use]
    pub(crate) fn red(self, s: &str) -> String {
        self.style("1;31", s)
    }

    #[must_use]
    pub(crate) fn green(self, s: &str) -> String {
        self.style("1;32", s)
    }

    #[must_use]
    pub(crate) fn bold(self, s: &str) -> String {
        self.style("1", s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_color_word_wins_and_double_dash_ends() {
        let w = |s: &str| s.split(' ').map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(
            ColorWhen::from_words(&w("hookrun --color never test --color=always")),
            Some(ColorWhen::Always)
        );
        assert_eq!(
            ColorWhen::from_words(&w("hookrun test -- --color always")),
            None
        );
        assert_eq!(ColorWhen::from_words(&w("hookrun --color bogus")), None);
    }
}
