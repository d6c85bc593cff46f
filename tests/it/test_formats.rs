//! `hookrun test --format junit|json|github`, and cases in another agent's
//! dialect with its own event names.

use std::path::Path;
use std::process::Command;

use crate::support::BIN;

fn hookrun_test(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .arg("test")
        .args(args)
        .current_dir(dir)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env("XDG_CONFIG_HOME", dir.join(".xdg-config"))
        .output()
        .expect("run hookrun test");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const CONFIG: &str =
    "[[hooks]]\nname = \"guard\"\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n";

/// One passing case and one failing case whose expectation is wrong.
const SUITE: &str = concat!(
    "config = \"hooks.toml\"\n",
    "[[case]]\nname = \"rm denied\"\n",
    "event = { hook_event_name = \"PreToolUse\", tool_name = \"Bash\", tool_input = { command = \"rm -rf /\" } }\n",
    "expect = { decision = \"deny\" }\n",
    "[[case]]\nname = \"ls <wrongly>, expected denied\"\n",
    "event = { hook_event_name = \"PreToolUse\", tool_name = \"Bash\", tool_input = { command = \"ls\" } }\n",
    "expect = { decision = \"deny\", exit_code = 2 }\n",
);

fn setup(suite: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("hooks.toml"), CONFIG).expect("config");
    std::fs::write(dir.path().join("a.test.toml"), suite).expect("suite");
    dir
}

#[test]
fn junit_has_a_testsuite_per_file_and_a_failure_with_the_mismatch() {
    let dir = setup(SUITE);
    std::fs::write(
        dir.path().join("b.test.toml"),
        SUITE.replace("rm denied", "rm denied again"),
    )
    .expect("second suite");
    let (code, xml, err) = hookrun_test(dir.path(), &["--format", "junit", "."]);
    assert_eq!(code, 1, "{xml}{err}");
    assert_eq!(err.trim(), "hookrun: 2 passed, 2 failed");
    assert_eq!(xml.matches("<testsuite ").count(), 2, "{xml}");
    assert!(
        xml.contains(r#"<testsuite name="./a.test.toml" tests="2" failures="1""#),
        "{xml}"
    );
    assert_eq!(xml.matches("<testcase ").count(), 4, "{xml}");
    assert!(
        xml.contains(r#"<testcase name="ls &lt;wrongly&gt;, expected denied""#),
        "{xml}"
    );
    assert!(
        xml.contains(
            r#"<failure message="decision: expected &quot;deny&quot;, got &quot;none&quot;">"#
        ),
        "{xml}"
    );
    assert!(
        xml.contains(
            "exit_code: expected 2, got 0\nwhy: none of the hooks that ran ([&quot;guard&quot;]) blocked, answered or rewrote anything</failure>"
        ),
        "{xml}"
    );
}

#[test]
fn json_is_an_array_of_case_results() {
    let dir = setup(SUITE);
    let (code, out, err) = hookrun_test(dir.path(), &["--format", "json", "a.test.toml"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("1 passed, 1 failed"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON on stdout");
    let cases = v.as_array().expect("an array");
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0]["name"], "rm denied");
    assert_eq!(cases[0]["file"], "a.test.toml");
    assert_eq!(cases[0]["passed"], true);
    assert_eq!(cases[0]["failures"], serde_json::json!([]));
    assert_eq!(cases[1]["passed"], false);
    assert_eq!(
        cases[1]["failures"],
        serde_json::json!([
            "decision: expected \"deny\", got \"none\"",
            "exit_code: expected 2, got 0"
        ])
    );
    assert!(cases[1]["duration_ms"].is_u64());
}

#[test]
fn github_annotates_each_failure_escaped() {
    let dir = setup(SUITE);
    let (code, out, _) = hookrun_test(dir.path(), &["--format", "github", "a.test.toml"]);
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "::error file=a.test.toml,line=6,title=hookrun test%3A ls <wrongly>%2C expected denied::decision: expected \"deny\", got \"none\"%0Aexit_code: expected 2, got 0%0Awhy: none of the hooks that ran ([\"guard\"]) blocked, answered or rewrote anything",
            "1 passed, 1 failed",
        ],
        "{out}"
    );
    // All passing: no annotation.
    let dir = setup(&SUITE.replace("expect = { decision = \"deny\", exit_code = 2 }", ""));
    let (code, out, _) = hookrun_test(dir.path(), &["--format", "github", "a.test.toml"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out, "2 passed, 0 failed\n");
}

#[test]
fn a_case_in_geminis_dialect_uses_its_event_names_and_answer() {
    let suite = concat!(
        "config = \"hooks.toml\"\n",
        "[[case]]\nname = \"gemini rm\"\n",
        "dialect = \"gemini\"\n",
        "event = \"BeforeTool\"\n",
        "fields = { tool_name = \"run_shell_command\", tool_input = { command = \"rm -rf /\" } }\n",
        // Gemini reads a deny from JSON on stdout, exit 0 (Claude Code: exit 2).
        "expect = { decision = \"deny\", ran = [\"guard\"], exit_code = 0 }\n",
        "[[case]]\nname = \"gemini ls, as a table\"\n",
        "dialect = \"gemini\"\n",
        "event = { hook_event_name = \"BeforeTool\", tool_name = \"run_shell_command\", tool_input = { command = \"ls\" } }\n",
        "expect = { decision = \"none\", ran = [\"guard\"], exit_code = 0 }\n",
        "[[case]]\nname = \"an AfterTool event is not the guard's\"\n",
        "dialect = \"gemini\"\n",
        "event = \"AfterTool\"\n",
        "fields = { tool_name = \"run_shell_command\", tool_input = { command = \"rm -rf /\" }, tool_response = {} }\n",
        "expect = { not_ran = [\"guard\"] }\n",
    );
    let dir = setup(suite);
    let (code, out, err) = hookrun_test(dir.path(), &["a.test.toml"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("3 passed, 0 failed\n"), "{out}");
    // The dialect matters: Claude Code has no BeforeTool event.
    let dir = setup(&suite.replace("dialect = \"gemini\"\n", "dialect = \"claude\"\n"));
    let (code, out, _) = hookrun_test(dir.path(), &["a.test.toml"]);
    assert_eq!(code, 1, "{out}");
}
