//! The commands that run their arguments, as data: each one's options
//! (those that take a value are what make `sudo -u root rm` differ from
//! `sudo rm`), the operands it reads before the command, and what it runs.
//! `wrappers.rs` reads this table; a new wrapper is one more row.

use super::argv::Spec;

/// What a wrapper runs, once its options and leading operands are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Then {
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
pub(super) struct Wrapper {
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

pub(super) const fn spec(short_value: &'static str, long: &'static [(&'static str, bool)]) -> Spec {
    Spec {
        short_value,
        short_optional: "",
        long,
        permute: false,
    }
}

pub(super) const fn run(names: &'static [&'static str], spec: Spec) -> Wrapper {
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

const SU_LONG: &[(&str, bool)] = &[
    ("command", true),
    ("session-command", true),
    ("shell", true),
    ("group", true),
    ("supp-group", true),
    ("whitelist-environment", true),
    ("login", false),
    ("preserve-environment", false),
    ("pty", false),
    ("fast", false),
    ("user", true),
];

/// Privilege, environment and scheduling wrappers; the others are in
/// `wrapper_runners.rs`.
pub(super) static WRAPPERS: &[Wrapper] = &[
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
                    ("user", true),
                    ("group", true),
                    ("close-from", true),
                    ("chdir", true),
                    ("host", true),
                    ("prompt", true),
                    ("role", true),
                    ("type", true),
                    ("other-user", true),
                    ("command-timeout", true),
                    ("chroot", true),
                    ("login", false),
                    ("shell", false),
                    ("list", false),
                    ("edit", false),
                    ("validate", false),
                    ("preserve-env", false),
                    ("non-interactive", false),
                    ("background", false),
                    ("remove-timestamp", false),
                    ("reset-timestamp", false),
                    ("set-home", false),
                    ("stdin", false),
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
                    ("unset", true),
                    ("chdir", true),
                    ("split-string", true),
                    ("argv0", true),
                    ("ignore-environment", false),
                    ("null", false),
                    ("debug", false),
                    ("default-signal", false),
                    ("ignore-signal", false),
                    ("block-signal", false),
                ],
            ),
        )
    },
    run(&["nice"], spec("n", &[("adjustment", true)])),
    run(
        &["ionice"],
        spec(
            "cnpPu",
            &[
                ("class", true),
                ("classdata", true),
                ("pid", true),
                ("pgid", true),
                ("uid", true),
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
                    ("signal", true),
                    ("kill-after", true),
                    ("foreground", false),
                    ("preserve-status", false),
                    ("verbose", false),
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
            &[("format", true), ("output", true), ("append", false)],
        ),
    ),
    run(
        &["stdbuf"],
        spec("ioe", &[("input", true), ("output", true), ("error", true)]),
    ),
    run(
        &["setsid"],
        spec("", &[("ctty", false), ("fork", false), ("wait", false)]),
    ),
    Wrapper {
        skip: 1,
        script: &["c", "command"],
        ..run(
            &["flock"],
            spec(
                "wEc",
                &[
                    ("timeout", true),
                    ("wait", true),
                    ("conflict-exit-code", true),
                    ("command", true),
                    ("shared", false),
                    ("exclusive", false),
                    ("nonblock", false),
                    ("close", false),
                    ("no-fork", false),
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
                &[("userspec", true), ("groups", true), ("skip-chdir", false)],
            ),
        )
    },
    Wrapper {
        shell_default: true,
        ..run(
            &["unshare", "nsenter", "pkexec"],
            spec("SGRwtu", &[("user", true)]),
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
                    ("command", true),
                    ("echo", true),
                    ("log-in", true),
                    ("log-out", true),
                    ("log-io", true),
                    ("log-timing", true),
                    ("logging-format", true),
                ],
            ),
        )
    },
];
