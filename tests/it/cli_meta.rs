//! The command line itself: `--color` on every subcommand, help examples
//! one per line, and a man page per subcommand.

use std::process::Command;

use crate::support::BIN;

fn hookrun(args: &[&str], dir: &std::path::Path) -> (i32, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("XDG_CONFIG_HOME", dir.join(".xdg-config"))
        .output()
        .expect("run hookrun");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const ESC: char = '\u{1b}';

/// A suite with one passing and one failing case.
fn suite(dir: &std::path::Path) -> String {
    std::fs::write(
        dir.join("hooks.toml"),
        "[[hooks]]\nname = \"guard\"\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n",
    )
    .expect("write config");
    std::fs::write(
        dir.join("a.test.toml"),
        concat!(
            "config = \"hooks.toml\"\n",
            "[[case]]\nname = \"rm denied\"\n",
            "event = { hook_event_name = \"PreToolUse\", tool_name = \"Bash\", tool_input = { command = \"rm -rf /\" } }\n",
            "expect = { decision = \"deny\" }\n",
            "[[case]]\nname = \"ls wrongly expected denied\"\n",
            "event = { hook_event_name = \"PreToolUse\", tool_name = \"Bash\", tool_input = { command = \"ls\" } }\n",
            "expect = { decision = \"deny\" }\n",
        ),
    )
    .expect("write suite");
    "a.test.toml".to_owned()
}

#[test]
fn color_always_paints_test_markers_and_never_does_not() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = suite(dir.path());
    let (code, always, _) = hookrun(&["test", "--color", "always", &file], dir.path());
    assert_eq!(code, 1, "{always}");
    assert!(always.contains("\u{1b}[1;32mPASS\u{1b}[0m"), "{always:?}");
    assert!(always.contains("\u{1b}[1;31mFAIL\u{1b}[0m"), "{always:?}");
    // The flag is global: before the subcommand too.
    let (_, never, _) = hookrun(&["--color=never", "test", &file], dir.path());
    assert!(!never.contains(ESC), "{never:?}");
    assert!(
        never.contains("PASS ") && never.contains("FAIL "),
        "{never}"
    );
    // auto into a pipe: plain.
    let (_, auto, _) = hookrun(&["test", &file], dir.path());
    assert!(!auto.contains(ESC), "{auto:?}");
}

#[test]
fn color_always_paints_explain_headings() {
    let dir = tempfile::tempdir().expect("tempdir");
    suite(dir.path());
    let args = |c: &'static str| {
        [
            "explain",
            "--color",
            c,
            "-c",
            "hooks.toml",
            "--event",
            "PreToolUse",
            "--tool",
            "Bash",
            "--input",
            r#"{"command":"ls"}"#,
        ]
    };
    let (code, always, err) = hookrun(&args("always"), dir.path());
    assert_eq!(code, 0, "{err}");
    assert!(
        always.contains("\u{1b}[1;32mmatched\u{1b}[0m"),
        "{always:?}"
    );
    let (_, never, _) = hookrun(&args("never"), dir.path());
    assert!(!never.contains(ESC), "{never:?}");
    assert!(never.contains("   matched: "), "{never}");
}

#[test]
fn color_governs_clap_help_and_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (_, always, _) = hookrun(&["--color", "always", "run", "--help"], dir.path());
    assert!(always.contains(ESC), "{always:?}");
    let (_, never, _) = hookrun(&["--color", "never", "run", "--help"], dir.path());
    assert!(!never.contains(ESC), "{never:?}");
    let (code, _, err) = hookrun(&["--color", "always", "check", "--bogus"], dir.path());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(ESC), "{err:?}");
    let (_, _, err) = hookrun(&["--color", "never", "check", "--bogus"], dir.path());
    assert!(!err.contains(ESC), "{err:?}");
    // Every subcommand takes it.
    let (code, out, err) = hookrun(&["schema", "--color", "never"], dir.path());
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with('{'), "{out}");
}

#[test]
fn help_examples_render_one_per_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    for flag in ["--help", "-h"] {
        let (code, out, _) = hookrun(&["builtin", flag], dir.path());
        assert_eq!(code, 0);
        let lines: Vec<&str> = out.lines().collect();
        let at = lines
            .iter()
            .position(|l| *l == "Examples:")
            .unwrap_or_else(|| panic!("no Examples: line in {out}"));
        assert_eq!(
            &lines[at + 1..at + 4],
            &[
                "  hookrun builtin dangerous-commands",
                r#"  hookrun builtin protect-paths --option 'allowed_write_roots=["/work"]'"#,
                "  hookrun builtin redact-secrets --mode warn",
            ],
            "{out}"
        );
    }
    // No subcommand's help runs examples together.
    for sub in [
        "run", "check", "explain", "test", "convert", "trust", "install", "doctor",
    ] {
        let (_, out, _) = hookrun(&[sub, "--help"], dir.path());
        assert!(!out.contains("Examples: hookrun"), "{sub}: {out}");
        assert!(out.contains(&format!("\n  hookrun {sub}")), "{sub}: {out}");
    }
}

#[test]
fn man_writes_a_page_per_subcommand() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, _, err) = hookrun(&["man", "--all", "pages"], dir.path());
    assert_eq!(code, 0, "{err}");
    let pages = dir.path().join("pages");
    for sub in [
        "",
        "-run",
        "-check",
        "-explain",
        "-test",
        "-convert",
        "-serve",
        "-builtin",
        "-trust",
        "-init",
        "-install",
        "-doctor",
        "-config",
        "-config-show",
        "-audit",
        "-audit-verify",
        "-schema",
        "-completions",
        "-man",
    ] {
        let page = std::fs::read_to_string(pages.join(format!("hookrun{sub}.1")))
            .unwrap_or_else(|e| panic!("hookrun{sub}.1: {e}"));
        assert!(page.contains(".TH hookrun"), "hookrun{sub}.1");
    }
    let (code, page, _) = hookrun(&["man", "test"], dir.path());
    assert_eq!(code, 0);
    assert!(page.contains(".TH hookrun-test 1"), "{page}");
    assert!(page.contains("\\-\\-filter"), "{page}");
    let (code, top, _) = hookrun(&["man"], dir.path());
    assert_eq!(code, 0);
    assert!(top.contains(".TH hookrun 1"), "{top}");
    let (code, _, err) = hookrun(&["man", "nope"], dir.path());
    assert_ne!(code, 0);
    assert!(err.contains("no subcommand `nope`"), "{err}");
}

/// A doc comment on an `Args` struct that commands flatten becomes their
/// about text: each subcommand's help must open with its own.
#[test]
fn every_subcommand_help_opens_with_its_own_about() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (_, top, _) = hookrun(&["--help"], dir.path());
    let subs: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .filter(|s| s != "help")
        .collect();
    assert!(subs.len() >= 10, "{top}");
    let mut firsts = std::collections::BTreeMap::new();
    for sub in &subs {
        let (code, out, err) = hookrun(&[sub, "-h"], dir.path());
        assert_eq!(code, 0, "{sub}: {err}");
        let first = out.lines().next().unwrap_or_default().to_owned();
        if let Some(other) = firsts.insert(first.clone(), sub.clone()) {
            panic!("`{other} -h` and `{sub} -h` open with the same line: {first}");
        }
    }
    let (_, run, _) = hookrun(&["run", "-h"], dir.path());
    assert!(run.starts_with("Run the hooks matching the event"), "{run}");
}
