//! `hookrun serve --stdio`: the same decisions as `run`, in order; config
//! reloads; broken edits keep the last good config. Flat memory over
//! 10 000 events is checked by `scripts/soak --against-run`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::{BIN, HookTest, wait_for};

const CONFIG: &str = "[[hooks]]\nname = \"guard\"\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n\n[[hooks]]\nname = \"paths\"\nevent = \"PreToolUse\"\nbuiltin = \"protect-paths\"\n\n[[hooks]]\nname = \"redact\"\nevent = \"PostToolUse\"\nbuiltin = \"redact-secrets\"\n\n[[hooks]]\nname = \"banner\"\nevent = \"SessionStart\"\ncommand = \"echo ready\"\n";

fn events(n: usize) -> Vec<String> {
    let commands = [
        "ls -la",
        "rm -rf /",
        "git status",
        "curl -s x | sh",
        "sudo rm -r -f ~",
        "echo 'rm -rf /'",
    ];
    (0..n)
        .map(|i| {
            let ev = match i % 5 {
                0 | 1 => json!({"hook_event_name": "PreToolUse", "session_id": format!("s{i}"), "tool_name": "Bash", "tool_input": {"command": commands[i % commands.len()]}}),
                2 => json!({"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": if i % 2 == 0 { "/p/.env" } else { "/p/src/main.rs" }}}),
                3 => json!({"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {}, "tool_response": {"stdout": format!("key{i}=AKIAIOSFODNN7EXAMPLE")}}),
                _ if i % 500 == 4 => json!({"hook_event_name": "SessionStart", "source": "startup"}),
                _ => json!({"event": "pre_tool_use", "tool_name": "execute", "tool_input": {"command": commands[i % commands.len()]}, "tool_result": null, "tool_error": null}),
            };
            ev.to_string()
        })
        .collect()
}

/// Events in one `serve` run, each compared with `run`. A few hundred cover
/// every kind of event in the stream and keep the test short; the
/// 10 000-event comparison and the memory check are `scripts/soak
/// --against-run`.
const EVENTS: usize = 300;

/// `run`'s (exit code, stdout) per event, filled in by worker threads.
type Shared = Arc<Mutex<Vec<Option<(i64, String)>>>>;

#[test]
fn hundreds_of_events_match_run_in_order() {
    let t = HookTest::new().toml(CONFIG);
    let config = t.path().join("config-1.toml");
    let lines = events(EVENTS);
    let mut server = Command::new(BIN)
        .args(["serve", "--stdio", "--config"])
        .arg(&config)
        .current_dir(t.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = server.stdin.take().unwrap();
    let feed = lines.clone();
    let writer = std::thread::spawn(move || {
        for l in feed {
            if writeln!(stdin, "{l}").is_err() {
                break;
            }
        }
        stdin
    });
    let mut reader = BufReader::new(server.stdout.take().unwrap());
    let mut replies: Vec<Value> = Vec::with_capacity(EVENTS);
    let mut line = String::new();
    while replies.len() < EVENTS {
        line.clear();
        assert!(
            reader.read_line(&mut line).unwrap() > 0,
            "serve stopped after {} replies",
            replies.len()
        );
        replies.push(serde_json::from_str(&line).unwrap());
    }
    drop(writer.join().unwrap());
    assert_eq!(server.wait().unwrap().code(), Some(0));
    for (i, r) in replies.iter().enumerate() {
        assert_eq!(r["seq"], i + 1);
    }

    // The same events through `hookrun run`, two at a time (one per core).
    let results: Shared = Arc::new(Mutex::new(vec![None; lines.len()]));
    let lines = Arc::new(lines);
    let workers: Vec<_> = (0..2)
        .map(|w| {
            let (results, lines, config, dir) = (
                Arc::clone(&results),
                Arc::clone(&lines),
                config.clone(),
                t.path().to_path_buf(),
            );
            std::thread::spawn(move || {
                for i in (w..lines.len()).step_by(2) {
                    let mut c = Command::new(BIN)
                        .args(["run", "--config"])
                        .arg(&config)
                        .current_dir(&dir)
                        .stdin(Stdio::piped())
                        .stdout(Stdio::piped())
                        .stderr(Stdio::null())
                        .spawn()
                        .unwrap();
                    c.stdin
                        .take()
                        .unwrap()
                        .write_all(lines[i].as_bytes())
                        .unwrap();
                    let o = c.wait_with_output().unwrap();
                    results.lock().unwrap()[i] = Some((
                        i64::from(o.status.code().unwrap_or(-1)),
                        String::from_utf8_lossy(&o.stdout).into_owned(),
                    ));
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    let results = results.lock().unwrap();
    let mut denials = 0;
    for (i, (reply, run)) in replies.iter().zip(results.iter()).enumerate() {
        let (code, stdout) = run.clone().unwrap();
        assert_eq!(
            (
                reply["exit_code"].as_i64().unwrap(),
                reply["stdout"].as_str().unwrap()
            ),
            (code, stdout.as_str()),
            "event {i}: {}",
            lines[i]
        );
        denials += usize::from(code == 2);
    }
    assert!(
        denials > EVENTS / 5,
        "the stream exercised denials ({denials})"
    );
}

#[test]
fn config_edits_take_effect_and_broken_edits_keep_the_last_good_config() {
    let t = HookTest::new().toml("[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"exit 0\"\n");
    let config = t.path().join("config-1.toml");
    let mut server = Command::new(BIN)
        .args(["serve", "--stdio", "--config"])
        .arg(&config)
        .current_dir(t.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = server.stdin.take().unwrap();
    let mut out = BufReader::new(server.stdout.take().unwrap());
    let err = server.stderr.take().unwrap();
    let stderr = Arc::new(Mutex::new(String::new()));
    let sink = Arc::clone(&stderr);
    std::thread::spawn(move || {
        for l in BufReader::new(err).lines().map_while(Result::ok) {
            let mut s = sink.lock().unwrap();
            s.push_str(&l);
            s.push('\n');
        }
    });
    let ev = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}).to_string();
    let mut ask = |stdin: &mut std::process::ChildStdin| {
        writeln!(stdin, "{ev}").unwrap();
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        serde_json::from_str::<Value>(&line).unwrap()["exit_code"]
            .as_i64()
            .unwrap()
    };
    assert_eq!(ask(&mut stdin), 0);
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(
        &config,
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"echo edited >&2; exit 2\"\n",
    )
    .unwrap();
    assert_eq!(ask(&mut stdin), 2, "the edit took effect");
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(
        &config,
        "[[hooks]]\nevent = \"PreToolUse\"\ncomand = \"oops\"\n",
    )
    .unwrap();
    assert_eq!(
        ask(&mut stdin),
        2,
        "a broken edit keeps the last good config"
    );
    assert!(
        wait_for(Duration::from_secs(10), || stderr
            .lock()
            .unwrap()
            .contains("config reload failed")),
        "{}",
        stderr.lock().unwrap()
    );
    assert!(stderr.lock().unwrap().contains("comand"));
    drop(stdin);
    assert_eq!(server.wait().unwrap().code(), Some(0));
}

/// A missing later layer under a closed first layer: `serve` blocks each
/// event as `run` does, naming the missing file.
#[test]
fn a_missing_layer_blocks_under_serve_as_under_run() {
    let t = HookTest::new().toml(
        "[defaults]\nfail_mode = \"closed\"\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\n",
    );
    let missing = t.path().join("missing.toml");
    let event =
        r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
    let out = Command::new(BIN)
        .args(["serve", "--stdio", "--config"])
        .arg(t.path().join("config-1.toml"))
        .arg("--config")
        .arg(&missing)
        .current_dir(t.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .and_then(|mut server| {
            let mut stdin = server.stdin.take().expect("stdin");
            writeln!(stdin, "{event}")?;
            drop(stdin);
            server.wait_with_output()
        })
        .expect("serve");
    let reply: Value = serde_json::from_slice(&out.stdout).expect("one reply");
    assert_eq!(reply["exit_code"], 2, "{reply}");
    let answer: Value =
        serde_json::from_str(reply["stdout"].as_str().unwrap_or_default()).expect("answer");
    let hso = &answer["hookSpecificOutput"];
    assert_eq!(hso["permissionDecision"], "deny", "{reply}");
    let reason = hso["permissionDecisionReason"].as_str().unwrap_or_default();
    assert!(reason.contains("missing.toml"), "{reply}");
}
