//! Privilege, environment and scheduling wrappers, as data (`sudo`, `su`,
//! `env`, `nice`, `timeout`, ...): each one's options (those that take a
//! value are what make `sudo -u root rm` differ from `sudo rm`), the
//! operands it reads before the command, and what it runs. The commands
//! that run a command elsewhere, repeatedly or per input are in
//! `runners.rs`.

use super::row::{Then, Wrapper, run, spec};
use crate::command::argv::Takes;

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

/// Privilege, environment and scheduling wrappers.
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
