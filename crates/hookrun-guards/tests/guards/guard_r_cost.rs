//! Bounded cost of reading R code (proptest): on code of growing size and
//! every shape (deep nesting, unbalanced brackets, unterminated strings,
//! names built from themselves, many calls, binary junk), the guards never
//! panic, and the work they count — bytes of R read and folded
//! (`r_code::work`), characters of shell lexed for the commands R runs
//! (`shell::work`) — stays linear in the code's length. Past the R
//! reader's budget the guard denies, saying so.

use std::path::Path;

use crate::support::{Builtin, at, event};
use hookrun_code::r as r_code;
use hookrun_guards::Verdict;
use hookrun_guards::dangerous::{DangerousCommands, MAX_INPUT, Options};
use hookrun_sh as shell;
use proptest::prelude::*;
use serde_json::{Value, json};

/// R work per byte: the code read once, what is folded (at most 4 times
/// the code plus 1 MiB, `crates/hookrun-code/src/r/budget.rs`), and the last value built
/// before the budget says no, which is at most twice what was folded.
const R_PER_BYTE: u64 = 14;
const R_FIXED: u64 = 3 << 20;
/// Shell work per byte of R: the commands R runs are folded text, each
/// lexed at most 70 times per byte (`guard_cost.rs`).
const SHELL_PER_BYTE: u64 = 70 * R_PER_BYTE;

const PIECES: &[&str] = &[
    "system(",
    "base::system2(",
    "unlink(",
    "processx::run(",
    "c(",
    "paste0(",
    "list(",
    "do.call(",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ", ",
    " = ",
    "\n",
    ";",
    "\"rm -rf /\"",
    "'x'",
    "\"",
    "'",
    "r\"(",
    ")\"",
    "`",
    "\\",
    "# c\n",
    "x <- ",
    "x",
    " -> y",
    "y",
    "|>",
    " %>% ",
    "function(x) ",
    "\\(x) ",
    "recursive = TRUE",
    "parse(text = ",
    "glue(\"{x}\")",
    "sprintf(\"%s %1$s\", ",
    "Sys.getenv(\"HOME\")",
    "if (TRUE) ",
    " else ",
];

fn work_of(code: &str) -> (u64, u64) {
    let guard = DangerousCommands::new(Options::default()).expect("built-in rules");
    let (r0, s0) = (r_code::work(), shell::work());
    let _ = guard.check_r(code);
    (r_code::work() - r0, shell::work() - s0)
}

fn assert_linear(code: &str) {
    let (r, s) = work_of(code);
    let len = code.len() as u64;
    let r_bound = R_PER_BYTE * len + R_FIXED;
    let s_bound = SHELL_PER_BYTE * len + 70 * R_FIXED;
    let shown = code.get(..200.min(code.len())).unwrap_or_default();
    assert!(
        r <= r_bound,
        "R work {r} for {len} bytes (bound {r_bound}): {shown:?}"
    );
    assert!(
        s <= s_bound,
        "shell work {s} for {len} bytes (bound {s_bound}): {shown:?}"
    );
}

/// The shapes `shaped` builds, junk last.
const SHAPES: u8 = 20;

/// Code of shape `shape` built from `n` repetitions.
fn shaped(shape: u8, n: usize) -> String {
    match shape {
        0 => "(".repeat(n),
        1 => format!("system({}\"rm\"{})", "c(".repeat(n), ")".repeat(n)),
        2 => "system(".repeat(n),
        3 => format!("x <- \"{}\"\n{}", "a".repeat(n), "system(x)\n".repeat(n)),
        4 => {
            (0..n)
                .map(|i| format!("x{} <- paste0(x{i}, x{i})\n", i + 1))
                .collect::<String>()
                + "system(x0)"
        }
        5 => format!("system(\"{}", "\\x72".repeat(n)),
        6 => format!("r\"---({}", ")\"".repeat(n)),
        7 => "do.call(\"do.call\", list(".repeat(n),
        8 => format!("{}system('ls')", "parse(text = \"".repeat(n)),
        9 => (0..n)
            .map(|i| format!("f{i} <- function(a = f{}) system(a)\n", i + 1))
            .collect(),
        10 => format!("x <- {}", "paste0(x, x, ".repeat(n)),
        11 => "a %>% ".repeat(n),
        12 => format!("unlink(c({}), recursive = TRUE)", "\"build\", ".repeat(n)),
        13 => format!("r\"{}(", "-".repeat(n)) + &"x".repeat(n),
        14 => format!(
            "f <- function({}) system(x)\n{}",
            "x, ".repeat(n),
            "f(1, 2)\n".repeat(n)
        ),
        15 => format!("{}system2(x, x)", "x <- \"a\"\n".repeat(n)),
        16 => format!(
            "file.copy(c({}), c({}))",
            "'a', ".repeat(n),
            "'b', ".repeat(n)
        ),
        17 => format!(
            "system(sprintf(\"{}\", {}))",
            "%s".repeat(n),
            "'a', ".repeat(n)
        ),
        18 => format!("system(glue(\"{}\"))", "{x}".repeat(n)),
        19 => format!("{}(\"rm -rf /\")", "Vectorize(".repeat(n)),
        _ => "\u{0}\u{7f}\u{fffd}é`'\"\\%".repeat(n),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_mixes_of_r_syntax_cost_linear_work(
        pieces in prop::collection::vec(0..PIECES.len(), 0..600),
    ) {
        let code: String = pieces.iter().filter_map(|&i| PIECES.get(i).copied()).collect();
        assert_linear(&code);
    }

    #[test]
    fn every_shape_costs_linear_work_as_it_grows(shape in 0u8..=SHAPES, n in 1usize..2_000) {
        assert_linear(&shaped(shape, n));
    }

    #[test]
    fn arbitrary_text_never_panics(code in "\\PC{0,400}") {
        assert_linear(&code);
    }
}

/// The largest sizes of each shape, once.
#[test]
fn large_shapes_cost_linear_work() {
    for shape in 0..=SHAPES {
        assert_linear(&shaped(shape, 50_000));
    }
}

fn evaluate(guard: &str, code: &str) -> Verdict {
    let b = Builtin::new(guard, Value::Null).expect("guard");
    let ev = json!({"hook_event_name": "PreToolUse", "tool_name": "run_r_code",
        "tool_input": {"code": code}, "cwd": "/tmp"});
    let ev = event(&ev).expect("event");
    b.evaluate(&ev, &at(Path::new("/tmp")))
}

/// Code that builds more text than the budget, or is longer than the
/// guard reads, is denied with the reason; junk is read without panic.
#[test]
fn bad_input_is_bounded_and_denied_when_it_is_more_than_the_guard_reads() {
    let doubling: String = (0..64)
        .map(|i| format!("x{} <- paste0(x{i}, x{i})\n", i + 1))
        .collect::<String>()
        + "x0 <- \"rm -rf /tmp/a\"\nsystem(x64)";
    for guard in ["dangerous-commands", "protect-paths"] {
        let got = evaluate(guard, &doubling);
        assert!(
            matches!(&got, Verdict::Deny(w) if w.contains("more than")),
            "{guard}: {got:?}"
        );
    }
    let huge = format!("x <- \"{}\"", "a".repeat(MAX_INPUT));
    let got = evaluate("dangerous-commands", &huge);
    assert!(
        matches!(&got, Verdict::Deny(w) if w.contains("longer than")),
        "{got:?}"
    );
    // Past 1 MiB of R code, and past 256 nested brackets, both guards
    // deny: what they keep of the code is bounded by its size.
    let long = "x <- 1\n".repeat(200_000);
    let deep_brackets = format!("{}system('rm -rf /')", "(".repeat(300));
    for guard in ["dangerous-commands", "protect-paths"] {
        let got = evaluate(guard, &long);
        assert!(
            matches!(&got, Verdict::Deny(w) if w.contains("1 MiB")),
            "{guard}: {got:?}"
        );
        let got = evaluate(guard, &deep_brackets);
        assert!(
            matches!(&got, Verdict::Deny(w) if w.contains("256 deep")),
            "{guard}: {got:?}"
        );
    }
    let deep = format!("{}system('rm -rf /')", "parse(text = \"".repeat(12));
    assert!(matches!(
        evaluate("dangerous-commands", &deep),
        Verdict::Pass | Verdict::Deny(_)
    ));
    let nested = "eval(parse(text = 'eval(parse(text = \"system(\\\\\"rm -rf /\\\\\")\"))'))";
    let got = evaluate("dangerous-commands", nested);
    assert!(
        matches!(&got, Verdict::Deny(w) if w.contains("deletes `/`")),
        "{got:?}"
    );
    for junk in [
        "\u{0}\u{1}\u{7f}",
        "\"\\",
        "r\"-(",
        "`",
        "%",
        "system(\"",
        "'\\u{",
        "((((",
        "))))",
    ] {
        for guard in ["dangerous-commands", "protect-paths"] {
            let _ = evaluate(guard, &junk.repeat(10_000));
        }
    }
}
