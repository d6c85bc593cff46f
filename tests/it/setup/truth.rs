//! What `check`, `test` and `run` say about an installed setup is what the
//! agent gets: a starter config `init` wrote is trusted, so its
//! `redact-secrets` rewrites output through the command `install`
//! registered; an untrusted one is reported by `check` and fails its
//! redaction case in `test`, as `run` drops the rewrite.

use serde_json::json;

use super::{Setup, json};

const TOKEN: &str = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789";

/// The PostToolUse command `install --agent claude --scope project` wrote.
fn post_tool_use_command(s: &Setup) -> String {
    let settings = json(&s.project().join(".claude/settings.json"));
    settings["hooks"]["PostToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .expect("a command")
        .to_owned()
}

/// Runs the registered command as Claude Code does (`sh -c`, in the
/// project) on a Bash PostToolUse event whose output holds a token.
fn token_in_output(s: &Setup) -> crate::support::Out {
    let command = post_tool_use_command(s);
    let event = json!({
        "session_id": "s1",
        "transcript_path": "",
        "cwd": s.project(),
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "env"},
        "tool_response": {"stdout": format!("TOKEN={TOKEN}"), "stderr": ""},
    });
    let mut cmd = s.command("sh");
    cmd.arg("-c")
        .arg(command)
        .env("CLAUDE_PROJECT_DIR", s.project());
    s.pipe(cmd, event.to_string().as_bytes())
}

/// Whether the answer replaces the output with the token redacted; without
/// an `updatedToolOutput` the agent passes the output on as it was.
fn redacted(out: &crate::support::Out) -> bool {
    let replaced = out.hso()["updatedToolOutput"].to_string();
    replaced.contains("[REDACTED:") && !replaced.contains(TOKEN)
}

#[test]
fn the_starter_init_wrote_is_trusted_and_redacts_through_the_registration() {
    let s = Setup::new().on_path();
    let init = s.ok(&["init"]);
    assert!(init.stdout.contains("trusted "), "{init:?}");
    s.ok(&["install", "--agent", "claude", "--scope", "project"]);
    let out = token_in_output(&s);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(redacted(&out), "the token went through: {out:?}");

    let check = s.ok(&["check", "--strict"]);
    assert!(!check.stdout.contains("W015"), "{check:?}");
    let test = s.ok(&["test"]);
    assert!(test.stdout.contains("4 passed, 0 failed"), "{test:?}");

    // An edit drops the trust: all three say so.
    let config = s.project().join("hookrun.toml");
    let mut text = std::fs::read_to_string(&config).expect("read");
    text.push_str("# edited\n");
    std::fs::write(&config, text).expect("write");
    assert!(!redacted(&token_in_output(&s)));
    let check = s.run(&["check", "--strict"]);
    assert_eq!(check.code, 1, "{check:?}");
    assert!(check.stdout.contains("W015"), "{check:?}");
    assert_eq!(s.run(&["test"]).code, 1);
    s.ok(&["trust", "hookrun.toml"]);
    assert!(redacted(&token_in_output(&s)));
}

#[test]
fn an_untrusted_starter_fails_its_redaction_case_and_check_strict() {
    let s = Setup::new().on_path();
    let init = s.ok(&["init", "--no-trust"]);
    assert!(!init.stdout.contains("trusted "), "{init:?}");
    s.ok(&["install", "--agent", "claude", "--scope", "project"]);
    // What the agent gets: the output unchanged, with a notice.
    let out = token_in_output(&s);
    assert!(!redacted(&out), "{out:?}");
    assert!(out.system_message().contains("ignored"), "{out:?}");

    // `test` says the same, for the same reason.
    let test = s.run(&["test"]);
    assert_eq!(test.code, 1, "{test:?}");
    assert!(test.stdout.contains("3 passed, 1 failed"), "{test:?}");
    assert!(
        test.stdout.contains("FAIL") && test.stdout.contains("redacted"),
        "{test:?}"
    );
    assert!(test.stderr.contains("not on the trust list"), "{test:?}");

    // `check` names the guard that cannot apply, at its line.
    for args in [
        &["check", "--strict"][..],
        &["check", "--strict", "hookrun.toml", ".claude/settings.json"][..],
    ] {
        let check = s.run(args);
        assert_eq!(check.code, 1, "{args:?}: {check:?}");
        assert!(
            check.stdout.contains("W015") && check.stdout.contains("`redact-secrets`"),
            "{args:?}: {check:?}"
        );
    }
    // Without --strict it is a warning.
    s.ok(&["check"]);
    // A suite that names another config tests that file as `--config` runs it.
    std::fs::copy(
        s.project().join("hookrun.toml"),
        s.project().join("other.toml"),
    )
    .expect("copy");
    let suite = std::fs::read_to_string(s.project().join("hookrun.test.toml"))
        .expect("suite")
        .replace("config = \"hookrun.toml\"", "config = \"other.toml\"");
    std::fs::write(s.project().join("hookrun.test.toml"), suite).expect("write");
    let test = s.ok(&["test"]);
    assert!(test.stdout.contains("4 passed, 0 failed"), "{test:?}");
}

#[test]
fn init_force_over_a_planted_file_trusts_only_what_it_wrote() {
    let s = Setup::new();
    let planted =
        "disable_all_hooks = true\n\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\n";
    std::fs::write(s.project().join("hookrun.toml"), planted).expect("write");
    // A link planted in the project: `--force` replaces it, never writes
    // through it.
    let outside = s.home().join("elsewhere.toml");
    std::fs::write(&outside, "# not hookrun's\n").expect("write");
    std::os::unix::fs::symlink(&outside, s.project().join("hookrun.test.toml")).expect("link");
    s.ok(&["init", "--force"]);
    assert_eq!(
        std::fs::read_to_string(&outside).expect("read"),
        "# not hookrun's\n"
    );
    assert!(
        !std::fs::symlink_metadata(s.project().join("hookrun.test.toml"))
            .expect("meta")
            .file_type()
            .is_symlink()
    );
    let list = s.ok(&["trust", "--list"]);
    assert_eq!(list.stdout.lines().count(), 1, "{list:?}");
    assert!(list.stdout.starts_with("trusted\t"), "{list:?}");
    // Trust is the starter's content: the planted text would not match.
    std::fs::write(s.project().join("hookrun.toml"), planted).expect("write");
    let list = s.ok(&["trust", "--list"]);
    assert!(list.stdout.starts_with("changed\t"), "{list:?}");
    let check = s.run(&["check", "--strict"]);
    assert!(check.stdout.contains("W015"), "{check:?}");
}

#[test]
fn init_in_the_user_config_directory_adds_no_trust_entry() {
    let s = Setup::new();
    let dir = s.user_config_dir();
    s.ok(&["init", &dir.display().to_string()]);
    s.ok(&["init", &dir.display().to_string(), "--force"]);
    assert_eq!(s.ok(&["trust", "--list"]).stdout, "");
}

#[test]
fn run_without_any_config_names_where_it_looked_and_still_blocks() {
    let s = Setup::new();
    let mut cmd = s.command(crate::support::BIN);
    cmd.arg("run");
    let out = s.pipe(cmd, &s.bash_event("ls"));
    assert_eq!(out.code, 2, "{out:?}");
    let home = s.home().display().to_string();
    let project = s.project().display().to_string();
    assert!(out.stderr.contains("hookrun init"), "{out:?}");
    assert!(
        out.stderr
            .contains(&format!("{home}/.config/hookrun/hookrun.toml")),
        "{out:?}"
    );
    assert!(
        out.stderr.contains(&format!("{project}/hookrun.toml")),
        "{out:?}"
    );
    assert!(
        out.stderr
            .contains(&format!("{home}/.claude/settings.json")),
        "{out:?}"
    );
    // No notice pointing at a file with an empty name.
    assert!(!out.stderr.contains("hookrun: : "), "{out:?}");
    assert!(!out.stdout.contains("\"systemMessage\":\": "), "{out:?}");

    let mut cmd = s.command(crate::support::BIN);
    cmd.args(["run", "--on-error", "allow"]);
    let allowed = s.pipe(cmd, &s.bash_event("ls"));
    // hookrun's own error, which no agent reads as a block.
    assert_eq!(allowed.code, 1, "{allowed:?}");
    assert!(!allowed.stdout.contains("deny"), "{allowed:?}");
    assert!(allowed.stderr.contains("hookrun init"), "{allowed:?}");
}

/// The line of the `n`th `[[case]]` header (1-based) in a test file.
fn case_line(text: &str, n: usize) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == "[[case]]")
        .nth(n - 1)
        .map(|(i, _)| i + 1)
        .expect("case header")
}

#[test]
fn a_failing_case_says_which_hook_decided_and_why_in_every_format() {
    let s = Setup::new();
    s.ok(&["init", "--no-trust"]);
    let suite = s.project().join("hookrun.test.toml");
    // One more case that fails on a deny: the guard that denied is named.
    let mut text = std::fs::read_to_string(&suite).expect("suite");
    text.push_str(
        "\n[[case]]\nname = \"rm is expected through\"\nevent = { hook_event_name = \"PreToolUse\", tool_name = \"Bash\", tool_input = { command = \"rm -rf /\" } }\nexpect = { decision = \"none\" }\n",
    );
    std::fs::write(&suite, &text).expect("write");

    let out = s.run(&["test"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(
        out.stdout
            .contains("why: `dangerous-commands` blocked: [dangerous-commands] dangerous command"),
        "{out:?}"
    );
    assert!(
        out.stdout
            .contains("why: hook `redact-secrets` of untrusted project config"),
        "{out:?}"
    );

    let json = s.run(&["test", "--format", "json"]);
    let cases: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    let redaction = cases
        .as_array()
        .expect("array")
        .iter()
        .find(|c| c["name"] == "secrets in tool output are redacted")
        .expect("the redaction case");
    assert_eq!(redaction["passed"], false, "{redaction}");
    assert_eq!(redaction["line"], case_line(&text, 4), "{redaction}");
    assert!(
        redaction["why"].to_string().contains("updatedToolOutput"),
        "{redaction}"
    );

    let github = s.run(&["test", "--format", "github"]);
    let rm = github
        .stdout
        .lines()
        .find(|l| l.contains("rm is expected through"))
        .expect("an annotation");
    assert!(
        rm.contains(&format!(",line={},", case_line(&text, 5))),
        "{rm}"
    );
    assert!(rm.contains("why: `dangerous-commands` blocked: "), "{rm}");
}

#[test]
fn every_agents_project_registration_is_checked_and_tested_with_the_files_trust() {
    let agents = [
        ("claude", ".claude/settings.json"),
        ("codex", ".codex/hooks.json"),
        ("gemini", ".gemini/settings.json"),
        ("cursor", ".cursor/hooks.json"),
        ("copilot", ".github/hooks/hookrun.json"),
    ];
    for (agent, file) in agents {
        for trusted in [true, false] {
            let s = Setup::new().on_path();
            let init: &[&str] = if trusted {
                &["init"]
            } else {
                &["init", "--no-trust"]
            };
            s.ok(init);
            s.ok(&["install", "--agent", agent, "--scope", "project"]);
            assert!(s.project().join(file).is_file(), "{agent}: {file}");
            let check = s.run(&["check", "--strict", "hookrun.toml", file]);
            let test = s.run(&["test"]);
            if trusted {
                assert_eq!(check.code, 0, "{agent}: {check:?}");
                assert!(
                    test.stdout.contains("4 passed, 0 failed"),
                    "{agent}: {test:?}"
                );
            } else {
                assert_eq!(check.code, 1, "{agent}: {check:?}");
                assert!(check.stdout.contains("W015"), "{agent}: {check:?}");
                assert!(
                    test.stdout.contains("3 passed, 1 failed"),
                    "{agent}: {test:?}"
                );
            }
        }
    }
}
