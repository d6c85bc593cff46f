//! Bounded cost of `dangerous-commands` (proptest): on command lines of
//! growing size and every shape (deep nesting, many here-docs, long quoted
//! strings, many substitutions, shells in shells, random mixes of shell
//! syntax), analysis never panics and the lexing work it counts —
//! characters visited, including every re-parse of a nested shell, `eval`,
//! substitution or here-doc body — stays linear in the line's length.

use hookrun_guards::dangerous::{DangerousCommands, Options};
use hookrun_sh as shell;
use proptest::prelude::*;

/// Work per input byte allowed: a byte is lexed at each level the guard
/// follows (at most 9: the line and 8 levels of nesting), and about six
/// times per level (as part of the text around it, as a substitution's
/// body when it is checked, when a shell's substitutions are searched for
/// downloads, as part of a `-c` script, a here-doc body scanned once more
/// to find its end, and an unquoted here-doc body read once more as a
/// double-quoted word for the substitutions it runs). Text reached twice
/// at one level (`sh -c "$(X)"` holds X as a substitution and inside its
/// script) is looked into once, so the levels add up instead of
/// multiplying. Measured worst: 121 per byte, reached as the line grows
/// by nested `bash -c '…'` scripts whose here-docs never end (the case in
/// tests/proptest-regressions/guard_cost.txt, replayed on every run): a
/// level re-reads such bodies more often than the count above says. The
/// bound is what keeps the work linear; the constant has room above 121.
const PER_BYTE: u64 = 150;
/// Work allowed whatever the length.
const FIXED: u64 = 1_000;

/// Pieces of shell syntax that open, close or re-enter structure.
const PIECES: &[&str] = &[
    "$(",
    ")",
    "(",
    "{ ",
    "}",
    "; ",
    "\n",
    "'",
    "\"",
    "`",
    "\\\n",
    "\\",
    "$'\\x72",
    "$\"",
    "<<E\n",
    "E\n",
    "<<-'E'\n",
    "<<< ",
    "case x in ",
    "a) ",
    ";;",
    ";&",
    "esac",
    "if ",
    "then ",
    "fi",
    "for x in a; do ",
    "done",
    "[[ ",
    "]]",
    "f() ",
    "function g ",
    "! ",
    "time ",
    "coproc ",
    "bash -c '",
    "sh -c \"",
    "eval ",
    "source <(",
    ". /dev/stdin ",
    " | sh",
    " | bash -s",
    "echo ",
    "rm -rf ./b ",
    "ls ",
    "cat ",
    "python3 -c '",
    "<(",
    ">(",
    "&& ",
    "|| ",
    " & ",
    "# c\n",
    "x=",
    "$((1+",
    "a b c ",
];

fn work_of(line: &str) -> u64 {
    let guard = DangerousCommands::new(Options::default()).expect("built-in rules");
    let before = shell::work();
    let _ = guard.check(line);
    shell::work() - before
}

fn assert_linear(line: &str) {
    let work = work_of(line);
    let bound = PER_BYTE * line.len() as u64 + FIXED;
    assert!(
        work <= bound,
        "{work} steps for {} bytes (bound {bound}): {:?}",
        line.len(),
        line.get(..200.min(line.len()))
    );
}

/// A line of shape `shape` built from `n` repetitions.
fn shaped(shape: u8, n: usize) -> String {
    match shape {
        0 => "$(".repeat(n),
        1 => format!("{}ls{}", "(".repeat(n), ")".repeat(n)),
        2 => "{ ".repeat(n),
        3 => (0..n)
            .map(|i| format!("cat <<E{i}\nrm -rf / $(x)\nE{i}\n"))
            .collect(),
        4 => format!("echo \"{}\"", "a $(b) `c` ".repeat(n)),
        5 => "echo $(ls) ".repeat(n),
        6 => format!("cat <<E | {}\n{}E\n", "sh | ".repeat(n), "ls\n".repeat(n)),
        7 => format!("echo {} | {}", "ls ".repeat(n), "sh | ".repeat(n)),
        8 => format!("{}ls", "eval ".repeat(n)),
        9 => format!("{}x", "bash -c ".repeat(n)),
        10 => "case x in a) ".repeat(n),
        11 => format!("echo {}", "\"$(".repeat(n)),
        12 => {
            let mut s = format!("ls {}", "a".repeat(n));
            for _ in 0..(n % 9) {
                s = format!("sh -c \"$({s})\"");
            }
            s
        }
        _ => format!("{}ls{}", "if :; then ".repeat(n), "; fi".repeat(n)),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_mixes_of_shell_syntax_cost_linear_work(
        pieces in prop::collection::vec(0..PIECES.len(), 0..600),
    ) {
        let line: String = pieces.iter().filter_map(|&i| PIECES.get(i).copied()).collect();
        assert_linear(&line);
    }

    #[test]
    fn every_shape_costs_linear_work_as_it_grows(shape in 0u8..14, n in 1usize..3_000) {
        assert_linear(&shaped(shape, n));
    }

    #[test]
    fn arbitrary_text_never_panics(line in "\\PC{0,400}") {
        assert_linear(&line);
    }
}

/// The largest sizes of each shape, once: the bound holds far from the
/// sizes proptest tries.
#[test]
fn large_shapes_cost_linear_work() {
    for shape in 0..14 {
        assert_linear(&shaped(shape, 20_000));
    }
}
