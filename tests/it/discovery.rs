//! Discovery without `--config`: a project's `hookrun.toml` adds guards
//! but cannot remove, weaken or route around the user's, unless the user
//! trusted its exact content. Every run has its own HOME and
//! XDG_CONFIG_HOME, so nothing reads or writes the real home.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::{Value, json};

use crate::support::{BIN, Out, finish};

/// A deny of every Bash call, printed as Claude Code's JSON.
const DENY: &str = r#"[[hooks]]
event = "PreToolUse"
matcher = "Bash"
command = "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"REASON\"}}'"
"#;

/// A project hook that allows and rewrites every Bash call.
const REWRITE: &str = r#"[[hooks]]
event = "PreToolUse"
matcher = "Bash"
command = "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":{\"command\":\"echo rewritten\"}}}'"
"#;

struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    /// A temp home with a user config (`user`: TOML, or none) and an empty
    /// project directory `proj`.
    fn new(user: Option<&str>) -> Self {
        let home = Home {
            dir: tempfile::tempdir().expect("tempdir"),
        };
        if let Some(text) = user {
            home.write("xdg/hookrun/hookrun.toml", text);
        }
        std::fs::create_dir_all(home.path("proj")).expect("mkdir");
        home
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }

    /// hookrun with this home, run in `cwd` (relative to the temp dir),
    /// with `CLAUDE_PROJECT_DIR` set to `project` when given.
    fn command(&self, cwd: &str, project: Option<&str>, args: &[&str]) -> Command {
        let mut cmd = Command::new(BIN);
        cmd.args(args)
            .current_dir(self.path(cwd))
            .env("HOME", self.path("home"))
            .env("XDG_CONFIG_HOME", self.path("xdg"))
            .env_remove("HOOKRUN_CONFIG")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("HOOKRUN_AUDIT_KEY_FILE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        match project {
            Some(p) => cmd.env("CLAUDE_PROJECT_DIR", self.path(p)),
            None => cmd.env_remove("CLAUDE_PROJECT_DIR"),
        };
        cmd
    }

    /// `hookrun run [args]` on a Bash `ls` event; also returns the report.
    fn run(&self, cwd: &str, project: Option<&str>, args: &[&str]) -> (Out, Value) {
        let report = self.path("report.json");
        let report_arg = report.display().to_string();
        let mut all = vec!["run", "--report", report_arg.as_str()];
        all.extend(args);
        let start = Instant::now();
        let mut child = self.command(cwd, project, &all).spawn().expect("spawn");
        let event = json!({
            "session_id": "s", "transcript_path": "/dev/null",
            "cwd": self.path(cwd), "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t",
        });
        let mut stdin = child.stdin.take().expect("stdin");
        std::io::Write::write_all(&mut stdin, event.to_string().as_bytes()).expect("event");
        drop(stdin);
        let out = finish(child, start);
        let report = std::fs::read_to_string(&report).unwrap_or_default();
        (out, serde_json::from_str(&report).unwrap_or(Value::Null))
    }

    /// `hookrun trust ARGS`, run in the project.
    fn trust(&self, args: &[&str]) -> Out {
        let mut all = vec!["trust"];
        all.extend(args);
        let start = Instant::now();
        finish(
            self.command("proj", Some("proj"), &all)
                .spawn()
                .expect("spawn"),
            start,
        )
    }
}

fn decision(out: &Out) -> Value {
    let json: Value = serde_json::from_str(&out.stdout).unwrap_or(Value::Null);
    json["hookSpecificOutput"].clone()
}

fn untrusted(report: &Value) -> Vec<String> {
    serde_json::from_value(report["untrusted_config_files"].clone()).unwrap_or_default()
}

fn canonical(p: &Path) -> String {
    std::fs::canonicalize(p)
        .expect("canonical")
        .display()
        .to_string()
}

#[test]
fn an_empty_project_file_does_not_replace_the_users_guard() {
    let home = Home::new(Some(&DENY.replace("REASON", "user guard")));
    home.write("proj/sub/hookrun.toml", "");
    // The model cd'd into a subdirectory of the project: its file is not read.
    let (out, report) = home.run("proj/sub", Some("proj"), &[]);
    assert_eq!(decision(&out)["permissionDecision"], "deny", "{out:?}");
    assert_eq!(decision(&out)["permissionDecisionReason"], "user guard");
    assert_eq!(report["config_files"].as_array().map(Vec::len), Some(1));
    // No project dir named: the current directory is the project, and its
    // empty file is read, after the user's.
    let (out, report) = home.run("proj/sub", None, &[]);
    assert_eq!(decision(&out)["permissionDecision"], "deny", "{out:?}");
    assert_eq!(report["config_files"].as_array().map(Vec::len), Some(2));
}

#[test]
fn a_project_file_cannot_turn_the_users_guard_off() {
    let home = Home::new(Some(&DENY.replace("REASON", "user guard")));
    home.write("proj/hookrun.toml", "disable_all_hooks = true\n");
    let (out, report) = home.run("proj", Some("proj"), &[]);
    assert_eq!(decision(&out)["permissionDecision"], "deny", "{out:?}");
    assert!(
        out.stderr.contains("`disable_all_hooks` ignored"),
        "{}",
        out.stderr
    );
    assert_eq!(
        untrusted(&report),
        [canonical(&home.path("proj/hookrun.toml"))]
    );
}

#[test]
fn a_project_file_adds_a_deny() {
    let home = Home::new(Some(
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\n",
    ));
    home.write(
        "proj/hookrun.toml",
        &DENY.replace("REASON", "project guard"),
    );
    let (out, _) = home.run("proj", Some("proj"), &[]);
    assert_eq!(decision(&out)["permissionDecision"], "deny", "{out:?}");
    assert_eq!(decision(&out)["permissionDecisionReason"], "project guard");
}

#[test]
fn a_project_copy_of_a_closed_guard_cannot_open_it() {
    // Identical hooks run once, with the last copy's settings: an untrusted
    // copy must not lend the user's guard its `fail_mode = "open"`.
    let guard = "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"exit 1\"\nfail_mode = \"MODE\"\n";
    let home = Home::new(Some(&guard.replace("MODE", "closed")));
    home.write("proj/hookrun.toml", &guard.replace("MODE", "open"));
    let (out, _) = home.run("proj", Some("proj"), &[]);
    assert_eq!(decision(&out)["permissionDecision"], "deny", "{out:?}");
}

#[test]
fn a_rewrite_needs_trust_and_an_edit_drops_it() {
    let home = Home::new(None);
    home.write("proj/hookrun.toml", REWRITE);
    let file = canonical(&home.path("proj/hookrun.toml"));

    let (out, _) = home.run("proj", Some("proj"), &[]);
    assert_eq!(decision(&out)["updatedInput"], Value::Null, "{out:?}");
    assert_eq!(decision(&out)["permissionDecision"], Value::Null);
    assert!(out.stderr.contains("`updatedInput`"), "{}", out.stderr);

    let trusted = home.trust(&["hookrun.toml"]);
    assert_eq!(trusted.code, 0, "{trusted:?}");
    assert_eq!(home.trust(&["--list"]).stdout, format!("trusted\t{file}\n"));
    let (out, report) = home.run("proj", Some("proj"), &[]);
    assert_eq!(
        decision(&out)["updatedInput"],
        json!({"command": "echo rewritten"}),
        "{out:?}"
    );
    assert_eq!(untrusted(&report), Vec::<String>::new());

    home.write("proj/hookrun.toml", &format!("{REWRITE}# edited\n"));
    let (out, report) = home.run("proj", Some("proj"), &[]);
    assert_eq!(decision(&out)["updatedInput"], Value::Null, "{out:?}");
    assert_eq!(untrusted(&report), [file.as_str()]);
    assert_eq!(home.trust(&["--list"]).stdout, format!("changed\t{file}\n"));

    assert_eq!(home.trust(&["--remove", "hookrun.toml"]).code, 0);
    assert_eq!(home.trust(&["--list"]).stdout, "");
    assert_eq!(home.trust(&["--remove", "hookrun.toml"]).code, 1);
}

#[test]
fn an_explicit_config_is_read_with_full_rights() {
    let home = Home::new(None);
    home.write("proj/hookrun.toml", REWRITE);
    let (out, report) = home.run("proj", Some("proj"), &["--config", "hookrun.toml"]);
    assert_eq!(
        decision(&out)["updatedInput"],
        json!({"command": "echo rewritten"}),
        "{out:?}"
    );
    assert_eq!(untrusted(&report), Vec::<String>::new());
}

/// The user's own guard against destructive commands.
const DANGEROUS: &str =
    "[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"Bash\"\nbuiltin = \"dangerous-commands\"\n";

/// `hookrun run` on a Bash event running `command`, in the project.
fn run_command(home: &Home, command: &str) -> Out {
    let start = Instant::now();
    let mut child = home
        .command("proj", Some("proj"), &["run"])
        .spawn()
        .expect("spawn");
    let event = json!({
        "session_id": "s", "transcript_path": "/dev/null",
        "cwd": home.path("proj"), "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "t",
    });
    let mut stdin = child.stdin.take().expect("stdin");
    std::io::Write::write_all(&mut stdin, event.to_string().as_bytes()).expect("event");
    drop(stdin);
    finish(child, start)
}

#[test]
fn a_broken_untrusted_project_file_is_skipped_and_the_users_guard_runs() {
    let home = Home::new(Some(DANGEROUS));
    for broken in [
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\nbogus = 1\n",
        "[[hooks]\nevent = \n",
    ] {
        home.write("proj/hookrun.toml", broken);
        let out = run_command(&home, "rm -rf /");
        assert_eq!(out.code, 2, "{out:?}");
        assert_eq!(decision(&out)["permissionDecision"], "deny", "{out:?}");
        assert!(
            out.stderr.contains("hookrun.toml:")
                && out.stderr.contains("untrusted project config skipped"),
            "{}",
            out.stderr
        );
        // Said on every event, not only on a block.
        let out = run_command(&home, "ls");
        assert_eq!(out.code, 0, "{out:?}");
        assert!(
            out.stderr.contains("untrusted project config skipped"),
            "{}",
            out.stderr
        );
    }
    home.write(
        "proj/hookrun.toml",
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\nbogus = 1\n",
    );
    let out = run_command(&home, "rm -rf /");
    assert!(out.stderr.contains("`hooks[0].bogus`"), "{}", out.stderr);
}

#[test]
fn a_broken_trusted_project_file_stays_an_error() {
    let home = Home::new(Some(DANGEROUS));
    home.write(
        "proj/hookrun.toml",
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\nbogus = 1\n",
    );
    assert_eq!(home.trust(&["hookrun.toml"]).code, 0);
    let out = run_command(&home, "ls");
    assert_eq!(out.code, 2, "the user's own broken file blocks: {out:?}");
    assert!(
        out.stderr.contains("hookrun.toml:4:1 at `hooks[0].bogus`")
            && out.stderr.contains("could not be fully evaluated"),
        "{}",
        out.stderr
    );
    // The user's guard still ran, and its deny holds.
    let out = run_command(&home, "rm -rf /");
    assert_eq!(decision(&out)["permissionDecision"], "deny", "{out:?}");
}

/// An untrusted project file's http hooks run, and their answers obey the
/// allow-list its command hooks obey: a deny counts, an allow and a
/// rewrite are dropped.
#[test]
fn an_untrusted_projects_http_hooks_may_only_add_guards() {
    let server = crate::http_hooks::Server::start();
    let home = Home::new(None);
    let hook = |path: &str| {
        format!(
            "[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"Bash\"\nhttp = \"{}\"\n",
            server.url(path)
        )
    };
    home.write("proj/hookrun.toml", &hook("/allow-rewrite"));
    let (out, _) = home.run("proj", Some("proj"), &[]);
    assert_eq!(decision(&out)["updatedInput"], Value::Null, "{out:?}");
    assert_eq!(decision(&out)["permissionDecision"], Value::Null, "{out:?}");
    assert!(out.stderr.contains("`updatedInput`"), "{}", out.stderr);
    home.write("proj/hookrun.toml", &hook("/deny"));
    let (out, _) = home.run("proj", Some("proj"), &[]);
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(decision(&out)["permissionDecision"], "deny", "{out:?}");
}
