//! The commands that run their arguments, as data: each one's options
//! (those that take a value are what make `sudo -u root rm` differ from
//! `sudo rm`), the operands it reads before the command, and what it runs.
//! `wrappers.rs` reads this table; a new wrapper is one more row.

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

const SU_LONG: &[(&str, Takes)] = &[
    ("command", Takes::Value),
    ("session-command", Takes::Value),
    ("shell", Takes::Value),
    ("group", Takes::Value),
    ("supp-group", Takes::Value),
    ("whitelist-environment", Takes::Value),
    ("login", Takes::Nothing),
    ("preserve-environment", Takes::Nothing),
    ("pty", Takes::Nothing),
    ("fast", Takes::Nothing),
    ("user", Takes::Value),
];

/// Privilege, environment and scheduling wrappers; the others are in
/// `wrapper_runners.rs`.
pub(crate) static WRAPPERS: &[Wrapper] = &[
    Wrapper {
        shell: &["s", "i", "shell", "login"],
        lookup: &[
            "l",
            "list",
            "e",
            "edit",
            "v",
            "validate",
            "K",
            "remove-timestamp",
        ],
        ..run(
            &["sudo"],
            spec(
                "ugCDhprtUT",
                &[
                    ("user", Takes::Value),
                    ("group", Takes::Value),
                    ("close-from", Takes::Value),
                    ("chdir", Takes::Value),
                    ("host", Takes::Value),
                    ("prompt", Takes::Value),
                    ("role", Takes::Value),
                    ("type", Takes::Value),
                    ("other-user", Takes::Value),
                    ("command-timeout", Takes::Value),
                    ("chroot", Takes::Value),
                    ("login", Takes::Nothing),
                    ("shell", Takes::Nothing),
                    ("list", Takes::Nothing),
                    ("edit", Takes::Nothing),
                    ("validate", Takes::Nothing),
                    ("preserve-env", Takes::Nothing),
                    ("non-interactive", Takes::Nothing),
                    ("background", Takes::Nothing),
                    ("remove-timestamp", Takes::Nothing),
                    ("reset-timestamp", Takes::Nothing),
                    ("set-home", Takes::Nothing),
                    ("stdin", Takes::Nothing),
                ],
            ),
        )
    },
    Wrapper {
        shell: &["s"],
        ..run(&["doas"], spec("uC", &[]))
    },
    Wrapper {
        skip: 1,
        then: Then::ShellArgs,
        script: &["c", "command", "session-command"],
        shell_default: true,
        ..run(&["su"], spec("csgGwC", SU_LONG))
    },
    // `runuser -u USER CMD…` runs a command; without `-u` it is `su`.
    Wrapper {
        script: &["c", "command", "session-command"],
        shell_default: true,
        ..run(&["runuser"], spec("csgGwu", SU_LONG))
    },
    Wrapper {
        script: &["S", "split-string"],
        ..run(
            &["env"],
            spec(
                "uCSaP",
                &[
                    ("unset", Takes::Value),
                    ("chdir", Takes::Value),
                    ("split-string", Takes::Value),
                    ("argv0", Takes::Value),
                    ("ignore-environment", Takes::Nothing),
                    ("null", Takes::Nothing),
                    ("debug", Takes::Nothing),
                    ("default-signal", Takes::Nothing),
                    ("ignore-signal", Takes::Nothing),
                    ("block-signal", Takes::Nothing),
                ],
            ),
        )
    },
    run(&["nice"], spec("n", &[("adjustment", Takes::Value)])),
    run(
        &["ionice"],
        spec(
            "cnpPu",
            &[
                ("class", Takes::Value),
                ("classdata", Takes::Value),
                ("pid", Takes::Value),
                ("pgid", Takes::Value),
                ("uid", Takes::Value),
            ],
        ),
    ),
    Wrapper {
        skip: 1,
        ..run(
            &["timeout"],
            spec(
                "sk",
                &[
                    ("signal", Takes::Value),
                    ("kill-after", Takes::Value),
                    ("foreground", Takes::Nothing),
                    ("preserve-status", Takes::Nothing),
                    ("verbose", Takes::Nothing),
                ],
            ),
        )
    },
    run(
        &["nohup", "builtin", "catchsegv", "unbuffer", "firejail"],
        spec("", &[]),
    ),
    run(
        &["time"],
        spec(
            "fo",
            &[
                ("format", Takes::Value),
                ("output", Takes::Value),
                ("append", Takes::Nothing),
            ],
        ),
    ),
    run(
        &["stdbuf"],
        spec(
            "ioe",
            &[
                ("input", Takes::Value),
                ("output", Takes::Value),
                ("error", Takes::Value),
            ],
        ),
    ),
    run(
        &["setsid"],
        spec(
            "",
            &[
                ("ctty", Takes::Nothing),
                ("fork", Takes::Nothing),
                ("wait", Takes::Nothing),
            ],
        ),
    ),
    Wrapper {
        skip: 1,
        script: &["c", "command"],
        ..run(
            &["flock"],
            spec(
                "wEc",
                &[
                    ("timeout", Takes::Value),
                    ("wait", Takes::Value),
                    ("conflict-exit-code", Takes::Value),
                    ("command", Takes::Value),
                    ("shared", Takes::Nothing),
                    ("exclusive", Takes::Nothing),
                    ("nonblock", Takes::Nothing),
                    ("close", Takes::Nothing),
                    ("no-fork", Takes::Nothing),
                ],
            ),
        )
    },
    Wrapper {
        skip: 1,
        shell_default: true,
        ..run(
            &["chroot"],
            spec(
                "",
                &[
                    ("userspec", Takes::Value),
                    ("groups", Takes::Value),
                    ("skip-chdir", Takes::Nothing),
                ],
            ),
        )
    },
    Wrapper {
        shell_default: true,
        ..run(
            &["unshare", "nsenter", "pkexec"],
            spec("SGRwtu", &[("user", Takes::Value)]),
        )
    },
    Wrapper {
        then: Then::Nothing,
        script: &["c", "command"],
        ..run(
            &["script"],
            spec(
                "cEIOBTm",
                &[
                    ("command", Takes::Value),
                    ("echo", Takes::Value),
                    ("log-in", Takes::Value),
                    ("log-out", Takes::Value),
                    ("log-io", Takes::Value),
                    ("log-timing", Takes::Value),
                    ("logging-format", Takes::Value),
                ],
            ),
        )
    },
];
