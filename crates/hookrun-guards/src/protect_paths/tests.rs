//! Table tests of `protect-paths` on real files and symlinks built in a
//! temporary directory: `{p}` is the project (also the `cwd`), `{h}` the
//! home directory, `{t}` the temporary root, `{e}` a directory under
//! `/etc` (so `{p}/etc/../shadow` is `/etc/shadow` to the kernel).

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use super::*;
use crate::command::resolve::MAX_LINKS;
use serde_json::json;

use Access::{Read, Write};

/// Allowed, or denied with a reason containing this text.
const OK: &str = "";

struct Tree {
    _dir: tempfile::TempDir,
    t: PathBuf,
    p: PathBuf,
    h: PathBuf,
}

/// A directory under `/etc` that is a real directory (not a link).
fn etc_dir() -> PathBuf {
    std::fs::read_dir("/etc")
        .expect("/etc")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()) && std::fs::read_dir(p).is_ok()
        })
        .expect("a directory under /etc")
}

fn tree() -> Tree {
    let dir = tempfile::tempdir().expect("tempdir");
    let t = std::fs::canonicalize(dir.path()).expect("canonical");
    let (p, h) = (t.join("proj"), t.join("home"));
    for d in [
        "proj/src",
        "proj/sub",
        "proj/templates",
        "proj/sample",
        "proj/out/sub",
        "home/.ssh",
        "home/docs",
        "elsewhere/deep",
    ] {
        std::fs::create_dir_all(t.join(d)).expect("mkdir");
    }
    for f in [
        "proj/src/main.rs",
        "proj/.env",
        "proj/.env.example",
        "proj/templates/.profile",
        "home/.ssh/id_rsa",
        "home/.bashrc",
        "home/notes.txt",
    ] {
        std::fs::write(t.join(f), "x").expect("write");
    }
    let links: &[(&Path, &str)] = &[
        (&etc_dir(), "proj/etc"),
        (&h.join(".ssh"), "proj/keys"),
        (&h, "proj/homelink"),
        (&h.join("docs"), "proj/hdocs"),
        (Path::new("src"), "proj/inlink"),
        (Path::new(".env"), "proj/secret.txt"),
        (Path::new("../.env"), "proj/sample/.env.example"),
        (Path::new("chain2"), "proj/chain1"),
        (&h.join(".ssh"), "proj/chain2"),
        (Path::new("loop2"), "proj/loop1"),
        (Path::new("loop1"), "proj/loop2"),
        (&t.join("elsewhere"), "proj/outlink"),
        (&t.join("elsewhere/deep"), "proj/out/esc"),
        (Path::new("sub"), "proj/out/inner"),
        (Path::new("loopb"), "proj/out/loopa"),
        (Path::new("loopa"), "proj/out/loopb"),
    ];
    for (target, link) in links {
        symlink(target, t.join(link)).expect("symlink");
    }
    Tree { _dir: dir, t, p, h }
}

impl Tree {
    fn fill(&self, s: &str) -> String {
        s.replace("{p}", &self.p.display().to_string())
            .replace("{h}", &self.h.display().to_string())
            .replace("{t}", &self.t.display().to_string())
    }

    fn guard(&self, o: serde_json::Value) -> ProtectPaths {
        let o: Options = serde_json::from_value(o).expect("options");
        ProtectPaths::with_home(o, self.h.clone())
    }

    /// Runs a table: (path, access, "" for allowed or a reason fragment).
    fn run(&self, g: &ProtectPaths, cwd: &Path, cases: &[(&str, Access, &str)], pattern: bool) {
        for (raw, access, want) in cases {
            let raw = self.fill(raw);
            let got = if pattern {
                g.check_pattern(&raw, *access, cwd, &self.p)
            } else {
                g.check(&raw, *access, cwd, &self.p)
            };
            match (got, *want) {
                (None, OK) => {}
                (Some(why), w) if w != OK && why.contains(w) => {}
                (got, w) => panic!("{raw} {access:?}: want {w:?}, got {got:?}"),
            }
        }
    }
}

const SENSITIVE: &str = "sensitive";
const TRAVERSAL: &str = "traversal";
const ROOTS: &str = "outside the allowed roots";
const UNRESOLVED: &str = "cannot be resolved";

/// Default options, `cwd` = the project.
const DEFAULTS: &[(&str, Access, &str)] = &[
    // Ordinary project files.
    ("src/main.rs", Read, OK),
    ("{p}/src/main.rs", Read, OK),
    ("./src/main.rs", Read, OK),
    ("src/../src/main.rs", Read, OK),
    ("inlink/main.rs", Read, OK),
    ("README.md", Write, OK),
    ("new/dir/file.txt", Write, OK),
    ("{p}/.envrc", Read, OK),
    ("{p}/x.env", Read, OK),
    ("notes.env.md", Write, OK),
    ("{h}/notes.txt", Read, OK),
    ("~/notes.txt", Read, OK),
    ("~/.bashrc", Read, OK),
    ("/etc/passwd", Read, OK),
    // Templates are allowed.
    (".env.example", Read, OK),
    (".env.example", Write, OK),
    ("{p}/.env.sample", Read, OK),
    (".env.template", Read, OK),
    ("config/.env.dist", Read, OK),
    (".ENV.EXAMPLE", Read, OK),
    ("templates/.profile", Write, OK),
    ("templates/.bashrc", Write, OK),
    (".profile", Write, OK),
    ("{p}/.config/fish/config.fish", Write, OK),
    // `.env` in every spelling.
    (".env", Read, SENSITIVE),
    ("{p}/.env", Read, SENSITIVE),
    ("./.env", Read, SENSITIVE),
    (".//.env", Read, SENSITIVE),
    ("{p}//.env", Read, SENSITIVE),
    ("{p}/./.env", Read, SENSITIVE),
    ("src/../.env", Read, SENSITIVE),
    (".env/", Read, SENSITIVE),
    (".env.local", Read, SENSITIVE),
    (".env", Write, SENSITIVE),
    // Case-insensitive: `.ENV` is `.env` on case-insensitive file systems.
    (".ENV", Read, SENSITIVE),
    (".Env.Local", Read, SENSITIVE),
    ("~/.SSH/id_rsa", Read, SENSITIVE),
    // Home forms.
    ("{h}/.ssh/id_rsa", Read, SENSITIVE),
    ("~/.ssh/id_rsa", Read, SENSITIVE),
    ("~/.ssh", Read, SENSITIVE),
    ("~/.ssh/", Read, SENSITIVE),
    ("$HOME/.ssh/id_rsa", Read, SENSITIVE),
    ("${HOME}/.ssh/id_rsa", Read, SENSITIVE),
    ("~//.ssh//id_rsa", Read, SENSITIVE),
    ("~/./.ssh/./id_rsa", Read, SENSITIVE),
    ("~/docs/../.ssh/id_rsa", Read, SENSITIVE),
    ("~/.aws/credentials", Read, SENSITIVE),
    ("~/.config/gcloud/x.db", Read, SENSITIVE),
    ("~/x/application_default_credentials.json", Read, SENSITIVE),
    // Absolute system paths.
    ("/etc/shadow", Read, SENSITIVE),
    ("//etc//shadow", Read, SENSITIVE),
    ("/etc/./shadow", Read, SENSITIVE),
    ("/etc/ssl/../shadow", Read, SENSITIVE),
    ("/etc/gshadow", Read, SENSITIVE),
    // Symlinks followed before `..`: `etc` -> a directory under /etc.
    ("{p}/etc/../shadow", Read, SENSITIVE),
    ("etc/../shadow", Read, SENSITIVE),
    ("etc/../gshadow", Read, SENSITIVE),
    ("etc//..//shadow", Read, SENSITIVE),
    ("etc/./../shadow", Read, SENSITIVE),
    ("etc/../passwd", Write, SENSITIVE),
    ("etc/../sudoers", Write, SENSITIVE),
    ("etc/../passwd", Read, TRAVERSAL),
    // Symlinks into protected places.
    ("keys/id_rsa", Read, SENSITIVE),
    ("keys", Read, SENSITIVE),
    ("keys/", Read, SENSITIVE),
    ("secret.txt", Read, SENSITIVE),
    ("sample/.env.example", Read, SENSITIVE),
    ("chain1/id_rsa", Read, SENSITIVE),
    ("hdocs/../.ssh/id_rsa", Read, SENSITIVE),
    ("hdocs/../.bashrc", Write, SENSITIVE),
    ("homelink/.bashrc", Write, SENSITIVE),
    ("homelink/.profile", Write, SENSITIVE),
    ("templates/../homelink/.zshrc", Write, SENSITIVE),
    // A loop cannot be resolved: the lexical reading is judged, and a
    // bound (traversal, write roots) cannot be shown to hold.
    ("loop1/../.env", Read, SENSITIVE),
    ("loop1/x", Read, OK),
    ("loop1/x", Write, OK),
    ("loop1/../src/main.rs", Read, UNRESOLVED),
    // Traversal out of the project, by text or through a link.
    ("../outside.txt", Read, TRAVERSAL),
    ("{p}/../outside.txt", Write, TRAVERSAL),
    ("sub/../../x", Read, TRAVERSAL),
    ("hdocs/../notes.txt", Read, TRAVERSAL),
    ("../proj/src/main.rs", Read, OK),
    // Shell start-up files and system files, to write.
    ("~/.bashrc", Write, SENSITIVE),
    ("~/.profile", Write, SENSITIVE),
    ("{h}/.zshrc", Write, SENSITIVE),
    ("$HOME/.bash_profile", Write, SENSITIVE),
    ("/etc/passwd", Write, SENSITIVE),
    ("/etc/sudoers.d/x", Write, SENSITIVE),
    ("/etc/crontab", Write, SENSITIVE),
    ("/etc/cron.d/job", Write, SENSITIVE),
    ("/var/spool/cron/crontabs/root", Write, SENSITIVE),
];

#[test]
fn paths_default_table() {
    let t = tree();
    t.run(&t.guard(json!({})), &t.p, DEFAULTS, false);
}

/// `allowed_write_roots = ["out"]`, `cwd` = the project.
const WRITE_ROOTS: &[(&str, Access, &str)] = &[
    ("out/a.txt", Write, OK),
    ("out/new/dir/a.txt", Write, OK),
    ("{p}/out/a.txt", Write, OK),
    ("out//a.txt", Write, OK),
    ("out/./a.txt", Write, OK),
    ("out/", Write, OK),
    ("out/inner/a.txt", Write, OK),
    ("out/inner/../a.txt", Write, OK),
    ("src/x.rs", Read, OK),
    ("out-other/a.txt", Write, ROOTS),
    ("out/../src/x.rs", Write, ROOTS),
    ("outlink/a.txt", Write, ROOTS),
    ("out/esc/a.txt", Write, ROOTS),
    ("out/esc/../a.txt", Write, TRAVERSAL),
    ("{t}/elsewhere/a.txt", Write, ROOTS),
    ("out/loopa/x", Write, UNRESOLVED),
    ("out/loopa/x", Read, OK),
];

#[test]
fn paths_write_roots_table() {
    let t = tree();
    let g = t.guard(json!({"allowed_write_roots": ["out"]}));
    t.run(&g, &t.p, WRITE_ROOTS, false);
}

/// Glob patterns: the literal prefix is judged as a path, the whole
/// pattern against the deny lists.
const PATTERNS: &[(&str, Access, &str)] = &[
    ("**/*.rs", Read, OK),
    ("src/**/*.rs", Read, OK),
    ("{p}/src/*.rs", Read, OK),
    ("**/.env", Read, SENSITIVE),
    ("~/.ssh/*", Read, SENSITIVE),
    ("{h}/.ssh/**", Read, SENSITIVE),
    ("keys/*", Read, SENSITIVE),
    (".env", Read, SENSITIVE),
    ("etc/../*", Read, TRAVERSAL),
    ("../*", Read, TRAVERSAL),
    ("**/.env.example", Read, OK),
];

#[test]
fn paths_pattern_table() {
    let t = tree();
    t.run(&t.guard(json!({})), &t.p, PATTERNS, true);
}

/// Relative paths are resolved from the event's `cwd`, here `{p}/sub`.
const FROM_SUB: &[(&str, Access, &str)] = &[
    ("../.env", Read, SENSITIVE),
    ("../src/main.rs", Read, OK),
    ("../etc/../shadow", Read, SENSITIVE),
    ("../../home/.ssh/id_rsa", Read, SENSITIVE),
    ("x.txt", Write, OK),
];

#[test]
fn paths_relative_to_cwd_table() {
    let t = tree();
    t.run(&t.guard(json!({})), &t.p.join("sub"), FROM_SUB, false);
}

#[test]
fn paths_allow_list_is_an_option() {
    let t = tree();
    // An empty allow list: templates are `.env.*` like any other.
    let strict = t.guard(json!({"allow": []}));
    let cases: &[(&str, Access, &str)] = &[
        (".env.example", Read, SENSITIVE),
        ("templates/.profile", Write, SENSITIVE),
    ];
    t.run(&strict, &t.p, cases, false);
    let extra = t.guard(json!({"extra_allow": ["**/.env.test"]}));
    let cases: &[(&str, Access, &str)] = &[(".env.test", Read, OK), (".env.prod", Read, SENSITIVE)];
    t.run(&extra, &t.p, cases, false);
}

#[test]
fn paths_project_templates_never_cover_home() {
    let t = tree();
    let g = t.guard(json!({}));
    // The project is the home directory: its `.profile` is the real one.
    for (raw, want) in [
        ("{h}/.profile", true),
        ("{h}/.bashrc", true),
        ("{h}/docs/.profile", true),
    ] {
        let got = g.check(&t.fill(raw), Write, &t.h, &t.h);
        assert_eq!(got.is_some(), want, "{raw}: {got:?}");
    }
}

#[test]
fn paths_resolver_walks_like_the_kernel() {
    let t = tree();
    let etc = etc_dir();
    let parent = etc.parent().unwrap_or(Path::new("/")).to_path_buf();
    let cases: &[(&str, PathBuf, bool)] = &[
        ("{p}/src/main.rs", t.p.join("src/main.rs"), true),
        ("{p}/etc/../shadow", parent.join("shadow"), true),
        ("{p}/keys/id_rsa", t.h.join(".ssh/id_rsa"), true),
        ("{p}/inlink/../.env", t.p.join(".env"), true),
        ("{p}/chain1", t.h.join(".ssh"), true),
        ("{p}/new/../x", t.p.join("x"), true),
        ("{p}/src/main.rs/x", t.p.join("src/main.rs/x"), true),
        ("{p}/loop1/x", t.p.join("loop1/x"), false),
    ];
    for (raw, want, complete) in cases {
        let w = walk(Path::new(&t.fill(raw)));
        assert_eq!((&w.path, w.complete), (want, *complete), "{raw}");
    }
    // A chain longer than the link limit is not followed.
    for i in 0..=MAX_LINKS {
        symlink(format!("c{}", i + 1), t.t.join(format!("c{i}"))).expect("symlink");
    }
    std::fs::write(t.t.join(format!("c{}", MAX_LINKS + 1)), "x").expect("write");
    assert!(!walk(&t.t.join("c0")).complete);
    assert!(walk(&t.t.join("c1")).complete);
}

#[test]
fn paths_literal_prefix_of_patterns() {
    for (pattern, want) in [
        ("**/*.rs", "."),
        ("src/**", "src"),
        ("/etc/*", "/etc"),
        ("/*", "/"),
        ("a/b/c?.txt", "a/b"),
        ("a/[bc]/d", "a"),
        ("a/{b,c}/d", "a"),
        ("plain/file", "plain/file"),
    ] {
        assert_eq!(literal_prefix(pattern), want, "{pattern}");
    }
}

/// Every key of every tool family that names a path, through a real
/// event: (tool, input, denied).
#[test]
fn paths_every_tool_key_is_judged() {
    let t = tree();
    let g = t.guard(json!({}));
    let cases = [
        ("Grep", json!({"pattern": "x", "path": "~/.ssh"}), true),
        ("Grep", json!({"pattern": "x", "path": "src"}), false),
        ("Grep", json!({"pattern": "x", "glob": "**/.env"}), true),
        (
            "Grep",
            json!({"pattern": "x", "path": "~", "glob": ".ssh/*"}),
            true,
        ),
        ("Grep", json!({"pattern": "x", "glob": "*.rs"}), false),
        ("Grep", json!({"pattern": ".env", "path": "src"}), false),
        ("Glob", json!({"pattern": "~/.ssh/*"}), true),
        ("Glob", json!({"pattern": "*", "path": "keys"}), true),
        ("Glob", json!({"pattern": "**/*.rs"}), false),
        (
            "read_many_files",
            json!({"paths": ["src/main.rs", ".env"]}),
            true,
        ),
        (
            "read_many_files",
            json!({"paths": ["src"], "include": [".env"]}),
            true,
        ),
        (
            "read_many_files",
            json!({"paths": ["src"], "include": ["*.rs"]}),
            false,
        ),
        (
            "search_file_content",
            json!({"pattern": "k", "dir_path": "keys"}),
            true,
        ),
        (
            "search_file_content",
            json!({"pattern": "k", "include": "**/.env"}),
            true,
        ),
        (
            "search_file_content",
            json!({"pattern": "k", "include": "*.rs"}),
            false,
        ),
        (
            "NotebookEdit",
            json!({"notebook_path": "etc/../shadow"}),
            true,
        ),
        ("NotebookEdit", json!({"notebook_path": "a.ipynb"}), false),
        (
            "MultiEdit",
            json!({"file_path": "homelink/.bashrc", "edits": []}),
            true,
        ),
        (
            "MultiEdit",
            json!({"file_path": "src/main.rs", "edits": []}),
            false,
        ),
        ("list_dir", json!({"relative_workspace_path": "keys"}), true),
        (
            "Read",
            json!({"file_paths": ["src/main.rs", "secret.txt"]}),
            true,
        ),
        ("Write", json!({"file_path": ".env.example"}), false),
    ];
    for (tool, input, denied) in cases {
        let cwd = t.p.display().to_string();
        let call = Call {
            event: "PreToolUse",
            tool,
            input: Some(&input),
            cwd: &cwd,
            ..Call::default()
        };
        let v = g.evaluate(&call, &Context::new(&t.p, String::new));
        assert_eq!(
            matches!(v, Verdict::Deny(_)),
            denied,
            "{tool} {input}: {v:?}"
        );
    }
}
