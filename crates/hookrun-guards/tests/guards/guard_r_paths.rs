//! `protect-paths` on R code and on deputy's file tools: each file R code
//! reads or writes with a literal path is judged as the Read or Write
//! tool's path would be, its file operations and the shell commands it
//! runs as shell commands. Through the library with a temporary project.

use std::path::Path;

use crate::support::{Builtin, at, event};
use hookrun_guards::Verdict;
use serde_json::{Value, json};

fn verdict(tool: &str, input: Value, project: &Path, options: Value) -> Verdict {
    let b = Builtin::new("protect-paths", options).expect("guard");
    let ev = json!({"hook_event_name": "PreToolUse", "tool_name": tool,
        "tool_input": input, "cwd": project});
    let ev = event(&ev).expect("event");
    b.evaluate(&ev, &at(project))
}

fn r(code: &str, project: &Path, options: Value) -> Verdict {
    verdict("run_r_code", json!({ "code": code }), project, options)
}

/// Reads and writes of protected paths in R: (code, a fragment of the
/// reason).
const DENIED: &[(&str, &str)] = &[
    (
        r#"readLines("~/.ssh/id_rsa")"#,
        "`readLines(…)`: read of a sensitive path",
    ),
    (
        r#"writeLines("x", "/etc/passwd")"#,
        "`writeLines(…)`: write of a sensitive path",
    ),
    (
        r#"d <- read.csv(".env")"#,
        "read of a sensitive path: `.env`",
    ),
    (
        r#"readRDS(file.path(Sys.getenv("HOME"), ".aws", "credentials"))"#,
        "`~/.aws/credentials`",
    ),
    (
        r#"cat("export X=1", file = "~/.bashrc", append = TRUE)"#,
        "write of a sensitive path",
    ),
    (
        r#"file.copy(".env", "/tmp/leak.txt")"#,
        "read of a sensitive path: `.env`",
    ),
    (r#"unlink(".env")"#, "write of a sensitive path: `.env`"),
    (r#"system("cat .env")"#, "`system(…)`: read"),
    (
        r#"setwd("~/.ssh"); k <- readLines("id_rsa")"#,
        "`~/.ssh/id_rsa`",
    ),
    (r#"con <- file(".env", "w")"#, "write of a sensitive path"),
    (
        r#"yaml::read_yaml("config/.env.production")"#,
        "read of a sensitive path",
    ),
    (
        r#"jsonlite::fromJSON("~/.config/gcloud/application_default_credentials.json")"#,
        "read of a sensitive path",
    ),
    (
        r#"processx::run("cat", ".env")"#,
        "read of a sensitive path",
    ),
    (
        r#"key <- "~/.ssh/id_ed25519"; readBin(key, "raw", 1e4)"#,
        "read of a sensitive path",
    ),
    (
        r#"readLines("../elsewhere/notes.txt")"#,
        "path traversal out of the project",
    ),
];

/// Ordinary R file work, and protected names only as data or templates.
const ALLOWED: &[&str] = &[
    r#"readr::read_csv("data/raw.csv")"#,
    r#"writeLines(x, "out.txt")"#,
    r#"readLines(".env.example")"#,
    r#"saveRDS(m, "model.rds")"#,
    r#"x <- ".env""#,
    r#"cat("see .env\n")"#,
    r#"readLines("README.md")"#,
    r#"system("ls -la")"#,
    r#"read.csv("/etc/passwd", sep = ":")"#,
    "summary(lm(y ~ x, d))",
    r#"file.copy("a.csv", "backup/a.csv")"#,
    r#"unlink("build", recursive = TRUE)"#,
];

#[test]
fn r_code_reading_or_writing_protected_paths_is_denied() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = std::fs::canonicalize(dir.path()).expect("canonical");
    for (code, why) in DENIED {
        match r(code, &p, Value::Null) {
            Verdict::Deny(w) => assert!(w.contains(why), "{code}: reason {w:?} lacks {why:?}"),
            other => panic!("{code}: want deny, got {other:?}"),
        }
    }
    for code in ALLOWED {
        let got = r(code, &p, Value::Null);
        assert!(
            matches!(got, Verdict::Pass),
            "{code}: want pass, got {got:?}"
        );
    }
}

/// `r_code = false` turns the R reading off; `shell = false` leaves the
/// R file functions judged but not the shell commands R runs.
#[test]
fn the_r_and_shell_switches() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path();
    let off = json!({"r_code": false});
    assert_eq!(
        r(r#"readLines("~/.ssh/id_rsa")"#, p, off.clone()),
        Verdict::Pass
    );
    let got = verdict(
        "Bash",
        json!({"command": "Rscript -e 'readLines(\".env\")'"}),
        p,
        off,
    );
    assert_eq!(got, Verdict::Pass);
    let no_shell = json!({"shell": false});
    assert_eq!(
        r(r#"system("cat .env")"#, p, no_shell.clone()),
        Verdict::Pass
    );
    let got = r(r#"readLines(".env")"#, p, no_shell);
    assert!(matches!(got, Verdict::Deny(_)), "{got:?}");
    let got = verdict(
        "Bash",
        json!({"command": "Rscript -e 'readLines(\".env\")'"}),
        p,
        Value::Null,
    );
    assert!(
        matches!(&got, Verdict::Deny(w) if w.contains(".env")),
        "{got:?}"
    );
}

/// Write roots hold for R's writes as for the Write tool's.
#[test]
fn write_roots_apply_to_r_writes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = std::fs::canonicalize(dir.path()).expect("canonical");
    let roots = json!({"allowed_write_roots": ["."]});
    let got = r(r#"saveRDS(m, "/tmp/elsewhere.rds")"#, &p, roots.clone());
    assert!(
        matches!(&got, Verdict::Deny(w) if w.contains("outside the allowed roots")),
        "{got:?}"
    );
    assert_eq!(r(r#"saveRDS(m, "out/m.rds")"#, &p, roots), Verdict::Pass);
}

/// deputy's file tools: reads, searches and writes of protected paths.
#[test]
fn deputys_file_tools_are_judged() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path();
    for (tool, input) in [
        ("read_csv", json!({"path": ".env"})),
        ("read_markdown", json!({"path": "~/.ssh/config"})),
        ("read_file", json!({"path": ".env", "pages": "1"})),
        ("list_files", json!({"path": "~/.ssh", "recursive": true})),
        ("glob_files", json!({"pattern": ".env*", "path": "."})),
        ("glob_files", json!({"pattern": "*", "path": "~/.ssh"})),
        ("grep_files", json!({"pattern": "KEY", "path": ".env"})),
        (
            "write_file",
            json!({"path": ".env", "content": "x", "append": true}),
        ),
        (
            "edit_file",
            json!({"path": "~/.bashrc", "old_text": "a", "new_text": "b"}),
        ),
        ("multi_edit", json!({"path": "/etc/passwd", "edits": []})),
    ] {
        let got = verdict(tool, input.clone(), p, Value::Null);
        assert!(matches!(got, Verdict::Deny(_)), "{tool} {input}: {got:?}");
    }
    for (tool, input) in [
        ("read_csv", json!({"path": "data/x.csv"})),
        ("list_files", json!({"path": ".", "pattern": "\\.env$"})),
        ("glob_files", json!({"pattern": "**/*.R", "path": "."})),
        ("grep_files", json!({"pattern": "\\.env", "path": "R"})),
    ] {
        let got = verdict(tool, input.clone(), p, Value::Null);
        assert_eq!(got, Verdict::Pass, "{tool} {input}");
    }
}
