//! `hookrun test`: the example suite passes; a suite with deliberate
//! failures reports each difference and exits 1; JUnit output is XML.

use std::path::Path;
use std::process::Command;

use crate::support::BIN;

fn hookrun_test(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .arg("test")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("CLAUDE_PROJECT_DIR")
        .output()
        .expect("run hookrun test");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Replaces the durations `(12 ms)` by `(N ms)`.
fn without_durations(text: &str) -> String {
    text.lines()
        .map(|l| match l.rfind(" (") {
            Some(i) if l.ends_with(" ms)") => format!("{} (N ms)", &l[..i]),
            _ => l.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn example_suite_passes() {
    let (code, stdout, _) = hookrun_test(&["examples/"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.ends_with("9 passed, 0 failed\n"), "{stdout}");
}

#[test]
fn failing_suite_reports_every_difference() {
    let (code, stdout, _) = hookrun_test(&["tests/suites/failing.test.toml"]);
    assert_eq!(code, 1);
    assert!(stdout.ends_with("1 passed, 4 failed\n"), "{stdout}");
    insta::assert_snapshot!(without_durations(&stdout));
}

#[test]
fn filter_selects_cases() {
    let (code, stdout, _) = hookrun_test(&["--filter", "passes", "tests/suites"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.ends_with("1 passed, 0 failed\n"), "{stdout}");
}

#[test]
fn junit_output_parses_as_xml() {
    let (code, stdout, stderr) = hookrun_test(&[
        "--format",
        "junit",
        "tests/suites/failing.test.toml",
        "examples/hooks.test.toml",
    ]);
    assert_eq!(code, 1);
    assert!(stderr.contains("10 passed, 4 failed"), "{stderr}");
    let mut reader = quick_xml::Reader::from_str(&stdout);
    let (mut cases, mut failures, mut suites) = (0, 0, 0);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e)) => {
                match e.name().as_ref() {
                    b"testcase" => cases += 1,
                    b"failure" => failures += 1,
                    b"testsuite" => suites += 1,
                    _ => {}
                }
            }
            Ok(_) => {}
            Err(e) => panic!("JUnit output is not XML: {e}\n{stdout}"),
        }
    }
    assert_eq!((suites, cases, failures), (2, 14, 4), "{stdout}");
}

#[test]
fn broken_test_file_and_missing_config_fail() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.test.toml"), "config = \"missing.toml\"\n[[case]]\nname = \"x\"\nevent = { hook_event_name = \"Stop\" }\n").unwrap();
    std::fs::write(
        dir.path().join("typo.test.toml"),
        "config = \"missing.toml\"\n[[case]]\nname = \"x\"\nevnt = {}\n",
    )
    .unwrap();
    let out = Command::new(BIN)
        .arg("test")
        .arg(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout.contains("cannot read config") && stdout.contains("missing.toml"),
        "{stdout}"
    );
    assert!(stdout.contains("unknown field `evnt`"), "{stdout}");
    assert!(Path::new(&dir.path().join("bad.test.toml")).exists());
}
