//! `hookrun convert` round-trips every valid config of the corpus.

use std::path::{Path, PathBuf};
use std::process::Command;

use hookrun::internals::config::{self, Action, Config, FailMode, LoadOptions, Severity};

use crate::support::BIN;

fn load(path: &Path) -> Config {
    config::load(
        &[path.to_owned()],
        LoadOptions {
            explicit: false,
            default_fail_mode: FailMode::Open,
            format: None,
            foreign: hookrun::internals::convert::HOOKS_FILES,
        },
    )
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What the hooks of each event do, in merge order, without where they
/// were written (a hook of several events counts once per event).
fn semantics(c: &Config) -> Vec<String> {
    let mut rows: Vec<(String, String)> = c
        .hooks
        .iter()
        .filter(|h| !matches!(h.action, Action::Unsupported { .. }))
        .flat_map(|h| {
            // Events Claude Code does not know cannot be carried (warned).
            h.events
                .iter()
                .filter(|e| hookrun::internals::events::info(e).is_some())
                .map(move |e| {
                    let what = format!(
                        "{:?} {} {:?} {:?} {} {:?} {:?}",
                        h.matcher.as_ref().map(|m| m.pattern()),
                        action_of(&h.action),
                        h.timeout,
                        h.fail_mode,
                        h.is_async,
                        h.if_rule,
                        h.env
                    );
                    (e.clone(), what)
                })
        })
        .collect();
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    rows.into_iter().map(|(e, w)| format!("{e}: {w}")).collect()
}

/// A built-in and `hookrun builtin NAME …` run the same rules: both read
/// as `builtin NAME OPTIONS MODE`.
fn action_of(action: &Action) -> String {
    match action {
        Action::Builtin(b) => {
            let options = b
                .options
                .as_object()
                .is_some_and(|o| !o.is_empty())
                .then(|| b.options.to_string());
            format!("builtin {} {options:?} {:?}", b.name, b.mode)
        }
        Action::Command {
            command,
            args: None,
        } if hookrun::internals::convert::builtin_of(command).is_some() => {
            let (name, options, mode) = hookrun::internals::convert::builtin_of(command).unwrap();
            let options = options.map(|o| serde_json::to_value(o).unwrap().to_string());
            let mode = if mode.as_deref() == Some("warn") {
                "Warn"
            } else {
                "Enforce"
            };
            format!("builtin {name} {options:?} {mode}")
        }
        other => format!("{other:?}"),
    }
}

fn convert(path: &Path, out: &Path) -> String {
    let o = Command::new(BIN)
        .arg("convert")
        .arg(path)
        .output()
        .expect("run convert");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::write(out, &o.stdout).unwrap();
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn valid_configs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("tests/corpus"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml" || e == "json"))
        .collect();
    files.push(root.join("hooks.example.toml"));
    files.push(root.join("tests/explain/matchers.json"));
    files.sort();
    files
        .into_iter()
        .filter(|p| {
            // Valid = `check` finds no error.
            let (loaded, mut findings) = config::load_for_check(
                std::slice::from_ref(p),
                None,
                LoadOptions {
                    explicit: false,
                    default_fail_mode: FailMode::Open,
                    format: None,
                    foreign: hookrun::internals::convert::HOOKS_FILES,
                },
            );
            findings.extend(hookrun::internals::lint::lint(&loaded, Path::new(".")));
            findings.iter().all(|f| f.severity != Severity::Error)
        })
        .collect()
}

#[test]
fn every_valid_corpus_config_round_trips() {
    let files = valid_configs();
    assert!(files.len() >= 15, "only {} valid configs", files.len());
    let dir = tempfile::tempdir().unwrap();
    for file in files {
        let json = file.extension().is_some_and(|e| e == "json");
        let (there, back) = if json {
            (dir.path().join("there.toml"), dir.path().join("back.json"))
        } else {
            (dir.path().join("there.json"), dir.path().join("back.toml"))
        };
        let warnings = convert(&file, &there) + &convert(&there, &back);
        let original = load(&file);
        let dropped = original
            .hooks
            .iter()
            .any(|h| matches!(h.action, Action::Unsupported { .. }));
        assert_eq!(
            dropped,
            warnings.contains("handler cannot be expressed"),
            "{}: {warnings}",
            file.display()
        );
        // `env` has no Claude Code equivalent: where it is lost, it is said.
        let env_lost = warnings.contains("`env`");
        let strip = |mut c: Config| {
            if env_lost {
                c.hooks.iter_mut().for_each(|h| h.env.clear());
            }
            semantics(&c)
        };
        assert_eq!(
            strip(load(&file)),
            strip(load(&there)),
            "{} → {}",
            file.display(),
            there.display()
        );
        assert_eq!(
            strip(load(&file)),
            strip(load(&back)),
            "{} → and back",
            file.display()
        );
        if !json {
            let names = |c: &Config| {
                let mut n: Vec<_> = c
                    .hooks
                    .iter()
                    .flat_map(|h| {
                        h.events
                            .iter()
                            .filter(|e| hookrun::internals::events::info(e).is_some())
                            .map(|e| (e.clone(), h.name.clone()))
                    })
                    .collect();
                n.sort();
                n
            };
            assert_eq!(
                names(&original),
                names(&load(&back)),
                "{}: names survive as statusMessage",
                file.display()
            );
        }
    }
}

#[test]
fn what_cannot_be_carried_is_loud() {
    let dir = tempfile::tempdir().unwrap();
    let toml = dir.path().join("h.toml");
    std::fs::write(&toml, "[limits]\nleak_grace = 1\n[[hooks]]\nevent = \"Stop\"\ncommand = \"true\"\nenv = { A = \"1\" }\n").unwrap();
    let warnings = convert(&toml, &dir.path().join("out.json"));
    assert!(
        warnings.contains("`env` (`A`)") && warnings.contains("`[limits]`"),
        "{warnings}"
    );
    let strict = Command::new(BIN)
        .args(["convert", "--strict"])
        .arg(&toml)
        .output()
        .unwrap();
    assert_eq!(strict.status.code(), Some(1));
}

#[test]
fn schema_describes_the_toml_keys() {
    let o = Command::new(BIN).arg("schema").output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("schema is JSON");
    let hook = &v["$defs"]["RawHook"];
    let mut keys: Vec<&str> = hook["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    let want = [
        "agent",
        "allowed_env_vars",
        "args",
        "async",
        "builtin",
        "command",
        "continue_on_block",
        "env",
        "event",
        "fail_mode",
        "headers",
        "http",
        "if",
        "input",
        "matcher",
        "matcher_syntax",
        "mcp_tool",
        "mode",
        "model",
        "name",
        "on_failure",
        "options",
        "prompt",
        "provider",
        "timeout",
    ];
    assert_eq!(keys, want);
    assert_eq!(hook["required"], serde_json::json!(["event"]));
    assert_eq!(hook["additionalProperties"], false);
}

#[test]
fn completions_and_man_page_are_generated() {
    for (args, needle) in [
        (&["completions", "bash"][..], "_hookrun()"),
        (&["completions", "zsh"][..], "#compdef hookrun"),
        (&["man"][..], ".TH hookrun"),
    ] {
        let o = Command::new(BIN).args(args).output().unwrap();
        assert_eq!(o.status.code(), Some(0));
        assert!(
            String::from_utf8_lossy(&o.stdout).contains(needle),
            "{args:?}"
        );
    }
}
