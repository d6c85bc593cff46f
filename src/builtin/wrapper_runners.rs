//! The rest of the wrapper table (`wrapper_table.rs`): commands that run
//! a command elsewhere, repeatedly or for many inputs (`watch`, `ssh`,
//! `xargs`, `parallel`), multiplexers and shell builtins (`busybox`,
//! `command`, `exec`), and tracers, launchers and proxies.

use super::argv::Spec;
use super::wrapper_table::{Then, Wrapper, run, spec};

/// Wrappers that run a command elsewhere, repeatedly or per input.
pub(super) static RUNNERS: &[Wrapper] = &[
    Wrapper {
        then: Then::Joined,
        ..run(&["watch"], spec("n", &[("interval", true)]))
    },
    Wrapper {
        skip: 1,
        then: Then::Joined,
        ..run(&["ssh"], spec("BbcDEeFIiJLlmOopQRSWw", &[]))
    },
    Wrapper {
        then: Then::Fed,
        spec: Spec {
            short_value: "IadELnPsJRS",
            short_optional: "eil",
            long: &[
                ("arg-file", true),
                ("delimiter", true),
                ("max-lines", true),
                ("max-args", true),
                ("max-procs", true),
                ("max-chars", true),
                ("process-slot-var", true),
                ("replace", false),
                ("eof", false),
                ("null", false),
                ("no-run-if-empty", false),
                ("verbose", false),
                ("interactive", false),
                ("exit", false),
                ("open-tty", false),
            ],
            permute: false,
        },
        ..run(&["xargs"], spec("", &[]))
    },
    Wrapper {
        then: Then::Fed,
        ..run(
            &["parallel", "sem"],
            spec(
                "jSaIdEnNLC",
                &[
                    ("jobs", true),
                    ("sshlogin", true),
                    ("arg-file", true),
                    ("delimiter", true),
                    ("colsep", true),
                    ("timeout", true),
                    ("joblog", true),
                    ("results", true),
                    ("tmpdir", true),
                    ("workdir", true),
                    ("basefile", true),
                    ("env", true),
                    ("max-args", true),
                    ("max-lines", true),
                    ("id", true),
                ],
            ),
        )
    },
    Wrapper {
        lookup: &["l", "list", "list-full", "help"],
        ..run(&["busybox", "toybox"], spec("", &[]))
    },
    Wrapper {
        lookup: &["v", "V"],
        ..run(&["command"], spec("", &[]))
    },
    run(&["exec"], spec("a", &[])),
    Wrapper {
        shell: &["S", "shell"],
        ..run(
            &["systemd-run"],
            spec(
                "upEMHs",
                &[
                    ("unit", true),
                    ("property", true),
                    ("setenv", true),
                    ("machine", true),
                    ("host", true),
                    ("description", true),
                    ("slice", true),
                    ("uid", true),
                    ("gid", true),
                    ("nice", true),
                    ("working-directory", true),
                ],
            ),
        )
    },
    run(&["proot"], spec("rbmwqk", &[])),
    run(&["strace"], spec("eoOpPsSuIEabXU", &[])),
    run(&["ltrace"], spec("eopuaADFlnsx", &[])),
    run(&["caffeinate"], spec("tw", &[])),
    Wrapper {
        skip: 1,
        ..run(&["chrt"], spec("TPD", &[]))
    },
    Wrapper {
        skip: 1,
        lookup: &["p", "pid"],
        ..run(&["taskset"], spec("", &[]))
    },
    run(&["numactl"], spec("NmCipP", &[])),
    run(&["cgexec"], spec("g", &[])),
    run(&["rlwrap"], spec("bfHlpPstSeoqwzC", &[])),
    Wrapper {
        skip: 1,
        ..run(&["faketime"], spec("p", &[]))
    },
    run(&["torsocks"], spec("upaP", &[])),
    run(&["proxychains", "proxychains4"], spec("f", &[])),
];
