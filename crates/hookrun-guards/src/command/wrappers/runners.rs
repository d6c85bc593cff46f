//! Commands that run a command elsewhere, repeatedly or for many inputs
//! (`watch`, `ssh`, `xargs`, `parallel`), multiplexers and shell builtins
//! (`busybox`, `command`, `exec`), and tracers, launchers and proxies, as
//! data: one row each (`row.rs`).

use super::row::{Then, Wrapper, run, spec};
use crate::command::argv::{Spec, Takes};

/// Wrappers that run a command elsewhere, repeatedly or per input.
pub(crate) static RUNNERS: &[Wrapper] = &[
    Wrapper {
        then: Then::Joined,
        ..run(&["watch"], spec("n", &[("interval", Takes::Value)]))
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
                ("arg-file", Takes::Value),
                ("delimiter", Takes::Value),
                ("max-lines", Takes::Value),
                ("max-args", Takes::Value),
                ("max-procs", Takes::Value),
                ("max-chars", Takes::Value),
                ("process-slot-var", Takes::Value),
                ("replace", Takes::Nothing),
                ("eof", Takes::Nothing),
                ("null", Takes::Nothing),
                ("no-run-if-empty", Takes::Nothing),
                ("verbose", Takes::Nothing),
                ("interactive", Takes::Nothing),
                ("exit", Takes::Nothing),
                ("open-tty", Takes::Nothing),
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
                    ("jobs", Takes::Value),
                    ("sshlogin", Takes::Value),
                    ("arg-file", Takes::Value),
                    ("delimiter", Takes::Value),
                    ("colsep", Takes::Value),
                    ("timeout", Takes::Value),
                    ("joblog", Takes::Value),
                    ("results", Takes::Value),
                    ("tmpdir", Takes::Value),
                    ("workdir", Takes::Value),
                    ("basefile", Takes::Value),
                    ("env", Takes::Value),
                    ("max-args", Takes::Value),
                    ("max-lines", Takes::Value),
                    ("id", Takes::Value),
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
                    ("unit", Takes::Value),
                    ("property", Takes::Value),
                    ("setenv", Takes::Value),
                    ("machine", Takes::Value),
                    ("host", Takes::Value),
                    ("description", Takes::Value),
                    ("slice", Takes::Value),
                    ("uid", Takes::Value),
                    ("gid", Takes::Value),
                    ("nice", Takes::Value),
                    ("working-directory", Takes::Value),
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
