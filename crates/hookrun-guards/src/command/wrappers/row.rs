//! One row of the wrapper tables: what a command that runs another takes
//! (its options, the operands it reads before the command) and what it
//! then runs. `privilege.rs` and `runners.rs` hold the rows; `mod.rs`
//! reads them; a new wrapper is one more row.

use crate::command::argv::{Spec, Takes};

/// What a wrapper runs, once its options and leading operands are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Then {
    /// The rest is a command and its arguments (`sudo rm -rf /`).
    Command,
    /// The rest is joined into one shell command line (`watch 'rm …'`,
    /// `ssh host rm -rf /`: ssh sends the words to a remote shell).
    Joined,
    /// The rest is handed to the user's shell as its arguments
    /// (`su root -c 'rm -rf /'`).
    ShellArgs,
    /// The rest is a command whose further arguments come from the input
    /// (`xargs rm -rf`), or with `:::` from the words (GNU `parallel`).
    Fed,
    /// The rest is not a command (`script FILE`, the typescript).
    Nothing,
}

/// One command that runs another.
#[derive(Debug)]
pub(crate) struct Wrapper {
    pub names: &'static [&'static str],
    pub spec: Spec,
    /// Operands read before the command: `timeout`'s DURATION, `chroot`'s
    /// NEWROOT, `flock`'s FILE, `ssh`'s HOST, `su`'s USER, `chrt`'s PRIORITY.
    pub skip: usize,
    pub then: Then,
    /// Options whose value is a shell command line (`su -c`, `script -c`,
    /// `flock -c`, `env -S`).
    pub script: &'static [&'static str],
    /// Options that make the rest one shell command line (`sudo -s`, `-i`).
    pub shell: &'static [&'static str],
    /// Options that make it run nothing (`command -v`, `sudo -l`).
    pub lookup: &'static [&'static str],
    /// Whether it starts a shell when given no command (`su`, `chroot DIR`),
    /// a shell that reads its stdin.
    pub shell_default: bool,
}

pub(crate) const fn spec(
    short_value: &'static str,
    long: &'static [(&'static str, Takes)],
) -> Spec {
    Spec {
        short_value,
        short_optional: "",
        long,
        permute: false,
    }
}

pub(crate) const fn run(names: &'static [&'static str], spec: Spec) -> Wrapper {
    Wrapper {
        names,
        spec,
        skip: 0,
        then: Then::Command,
        script: &[],
        shell: &[],
        lookup: &[],
        shell_default: false,
    }
}
