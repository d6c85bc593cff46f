//! Every dialect fails closed the same way: one table of failure kinds
//! (`KINDS`) run against one table of block shapes per dialect and event
//! family (`SHAPES`), each run the real binary with a real hook process.
//!
//! Under `fail_mode = "closed"` every kind must print the dialect's own
//! block: stdout with exactly the keys of the shape, the same values except
//! at the shape's reason fields, which must name the failure, and the
//! shape's exit status. Under the default open mode the same hook must not
//! block: no exit 2, no block shape, no "blocking because" text. The shapes
//! come from `tests/dialects/golden.json` (confirmed against the live
//! agents) where it has a block for that dialect and family; elsewhere from
//! the agent's documented hook output (`Shape::documented`), as noted at
//! each such row.
//!
//! # Adding a row
//!
//! - A failure kind: one line in `KINDS`. `Kind::hook(name, toml, says)`
//!   is a hook that fails that way: `toml` the hook's lines after its
//!   `event = ...` line, `says` what the block's reason must contain.
//!   `Kind::own(name, config, args, says)` is a failure of hookrun itself:
//!   `config` the whole config file (`{event}` stands for the event's
//!   name), `args` extra arguments of `hookrun run`; it is asserted to
//!   block with `--fail-mode closed` given in `args` and, without it, the
//!   open-mode checks apply. Every dialect and family then runs it.
//! - An event family of a dialect: one line in `SHAPES`, with the event
//!   as the agent sends it and the golden case whose `expect` is the block.
//! - A dialect: its `SHAPES` lines and one name in the `dialects!` list.

use std::path::Path;

use serde_json::{Map, Value};

use crate::support::{HookTest, Out};

/// One way to fail.
struct Kind {
    name: &'static str,
    /// The hook's lines after `event = ...` (a hook failure), or `None`.
    hook: Option<&'static str>,
    /// The whole config file, `{event}` the event's name (hookrun's own
    /// failures), or `None`.
    config: Option<&'static str>,
    /// Extra arguments of `hookrun run`.
    args: &'static [&'static str],
    /// What the block's reason must contain.
    says: &'static str,
}

impl Kind {
    const fn hook(name: &'static str, hook: &'static str, says: &'static str) -> Kind {
        Kind {
            name,
            hook: Some(hook),
            config: None,
            args: &[],
            says,
        }
    }

    #[allow(dead_code)]
    const fn own(
        name: &'static str,
        config: &'static str,
        args: &'static [&'static str],
        says: &'static str,
    ) -> Kind {
        Kind {
            name,
            hook: None,
            config: Some(config),
            args,
            says,
        }
    }
}

/// The failure kinds. The hooks print nothing of their own, so a block can
/// only be hookrun's reading of the failure (Gemini CLI reads an exit 3
/// *with text* as a deny by itself).
const KINDS: &[Kind] = &[
    Kind::hook("exit 1", "command = \"exit 1\"", "exited 1"),
    Kind::hook("exit 3", "command = \"exit 3\"", "exited 3"),
    Kind::hook("SIGKILL", "command = \"kill -KILL $$\"", "SIGKILL"),
    Kind::hook("SIGSEGV", "command = \"kill -SEGV $$\"", "SIGSEGV"),
    Kind::hook(
        "timeout",
        "command = \"sleep 5\"\ntimeout = 0.3",
        "timed out",
    ),
    Kind::hook(
        "spawn failure",
        "command = \"./no-such-hook.sh\"\nargs = []",
        "could not start",
    ),
    Kind::hook(
        "missing script",
        "command = \"bash ./no-such-hook.sh 2>/dev/null\"",
        "exited 127",
    ),
    Kind::hook(
        "invalid JSON",
        "command = \"printf '{not json}'\"",
        "invalid JSON",
    ),
];

/// How the block's exit status is checked.
#[derive(Clone, Copy)]
enum Exit {
    /// The golden case's exit status.
    Golden,
    /// Any: the agent reads stdout's JSON first whatever the status
    /// (Gemini CLI: `{"decision":"allow"}` with exit 7 allows).
    JsonDecides,
}

/// Where a shape comes from.
#[derive(Clone, Copy)]
enum From {
    /// The `expect` of the golden case of this name.
    Golden(&'static str),
    /// The agent's documented output, as JSON text (a JSON string: plain
    /// text on stdout), and its exit status.
    Documented(&'static str, i64),
}

/// One dialect's block on one event family.
struct Shape {
    dialect: &'static str,
    family: &'static str,
    /// hookrun's name of the event, for the hook's `event =`.
    event: &'static str,
    /// The event as the agent sends it.
    sends: &'static str,
    from: From,
    exit: Exit,
    /// JSON pointers of the texts that carry the reason ("" for plain text).
    reasons: &'static [&'static str],
}

impl Shape {
    const fn golden(
        dialect: &'static str,
        family: &'static str,
        event: &'static str,
        sends: &'static str,
        case: &'static str,
        exit: Exit,
        reasons: &'static [&'static str],
    ) -> Shape {
        Shape {
            dialect,
            family,
            event,
            sends,
            from: From::Golden(case),
            exit,
            reasons,
        }
    }

    const fn documented(
        dialect: &'static str,
        family: &'static str,
        event: &'static str,
        sends: &'static str,
        json: &'static str,
        exit: i64,
        reasons: &'static [&'static str],
    ) -> Shape {
        Shape {
            dialect,
            family,
            event,
            sends,
            from: From::Documented(json, exit),
            exit: Exit::Golden,
            reasons,
        }
    }
}

const CLAUDE_PRE: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}"#;
const CLAUDE_BLOCK: &str = r#"{"decision":"block","reason":"r"}"#;
const CLAUDE_PRE_REASON: &[&str] = &["/hookSpecificOutput/permissionDecisionReason"];

/// The blocks, per dialect and family. Claude Code and Codex have no golden
/// cases (hookrun's model is Claude Code's own output): their shapes are the
/// documented ones.
const SHAPES: &[Shape] = &[
    Shape::documented(
        "claude",
        "pre-tool",
        "PreToolUse",
        r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#,
        CLAUDE_PRE,
        2,
        CLAUDE_PRE_REASON,
    ),
    Shape::documented(
        "claude",
        "permission request",
        "PermissionRequest",
        r#"{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"}}"#,
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"r"}}}"#,
        2,
        &["/hookSpecificOutput/decision/message"],
    ),
    Shape::documented(
        "claude",
        "prompt",
        "UserPromptSubmit",
        r#"{"hook_event_name":"UserPromptSubmit","prompt":"hi"}"#,
        CLAUDE_BLOCK,
        2,
        &["/reason"],
    ),
    Shape::documented(
        "claude",
        "stop",
        "Stop",
        r#"{"hook_event_name":"Stop","stop_hook_active":false}"#,
        CLAUDE_BLOCK,
        2,
        &["/reason"],
    ),
    Shape::documented(
        "codex",
        "pre-tool",
        "PreToolUse",
        r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"session_id":"s","turn_id":"t","model":"m"}"#,
        CLAUDE_PRE,
        2,
        CLAUDE_PRE_REASON,
    ),
    Shape::documented(
        "codex",
        "prompt",
        "UserPromptSubmit",
        r#"{"hook_event_name":"UserPromptSubmit","prompt":"hi","session_id":"s","turn_id":"t","model":"m"}"#,
        CLAUDE_BLOCK,
        2,
        &["/reason"],
    ),
    Shape::documented(
        "codex",
        "stop",
        "Stop",
        r#"{"hook_event_name":"Stop","stop_hook_active":false,"session_id":"s","turn_id":"t","model":"m"}"#,
        CLAUDE_BLOCK,
        2,
        &["/reason"],
    ),
    Shape::golden(
        "gemini",
        "pre-tool",
        "PreToolUse",
        r#"{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}"#,
        "gemini MCP tools keep their own names (mcp_server_tool)",
        Exit::JsonDecides,
        &["/reason"],
    ),
    // BeforeAgent is aggregated as BeforeTool (`mergeWithOrDecision`).
    Shape::golden(
        "gemini",
        "prompt",
        "UserPromptSubmit",
        r#"{"hook_event_name":"BeforeAgent","prompt":"hi"}"#,
        "gemini MCP tools keep their own names (mcp_server_tool)",
        Exit::JsonDecides,
        &["/reason"],
    ),
    Shape::golden(
        "gemini",
        "stop",
        "Stop",
        r#"{"hook_event_name":"AfterAgent","stop_hook_active":false}"#,
        "gemini AfterAgent maps to Stop; a deny forces a retry",
        Exit::JsonDecides,
        &["/reason"],
    ),
    Shape::golden(
        "cursor",
        "pre-tool",
        "PreToolUse",
        r#"{"hook_event_name":"preToolUse","conversation_id":"c","tool_name":"Shell","tool_input":{"command":"ls"}}"#,
        "cursor beforeMCPExecution maps to PreToolUse with the MCP tool",
        Exit::Golden,
        &["/user_message", "/agent_message"],
    ),
    Shape::documented(
        "cursor",
        "prompt",
        "UserPromptSubmit",
        r#"{"hook_event_name":"beforeSubmitPrompt","conversation_id":"c","prompt":"hi"}"#,
        r#"{"continue":false,"user_message":"r"}"#,
        2,
        &["/user_message"],
    ),
    // Cursor's stop hook cannot refuse the stop; a follow-up message sends
    // the agent on.
    Shape::documented(
        "cursor",
        "stop",
        "Stop",
        r#"{"hook_event_name":"stop","conversation_id":"c","loop_count":0}"#,
        r#"{"followup_message":"r"}"#,
        0,
        &["/followup_message"],
    ),
    Shape::documented(
        "copilot",
        "pre-tool",
        "PreToolUse",
        r#"{"hook_event_name":"preToolUse","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}"#,
        r#"{"permissionDecision":"deny","permissionDecisionReason":"r"}"#,
        2,
        &["/permissionDecisionReason"],
    ),
    Shape::documented(
        "copilot",
        "permission request",
        "PermissionRequest",
        r#"{"hook_event_name":"permissionRequest","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}"#,
        r#"{"permissionDecision":"deny","permissionDecisionReason":"r"}"#,
        2,
        &["/permissionDecisionReason"],
    ),
    // The golden case checks `"decision":"block"` and exit 2 only.
    Shape::documented(
        "copilot",
        "prompt",
        "UserPromptSubmit",
        r#"{"hook_event_name":"userPromptSubmitted","prompt":"hi"}"#,
        CLAUDE_BLOCK,
        2,
        &["/reason"],
    ),
    Shape::documented(
        "copilot",
        "stop",
        "Stop",
        r#"{"hook_event_name":"agentStop"}"#,
        CLAUDE_BLOCK,
        2,
        &["/reason"],
    ),
    // pydantic-deep's only blocking event; a deny is the reason alone on
    // stdout with exit 2.
    Shape::documented(
        "pydantic-deep",
        "pre-tool",
        "PreToolUse",
        r#"{"event":"pre_tool_use","tool_name":"bash","tool_input":{"command":"ls"},"tool_result":null,"tool_error":null}"#,
        r#""r""#,
        2,
        &[""],
    ),
    Shape::golden(
        "deputy",
        "pre-tool",
        "PreToolUse",
        r#"{"deputy_event":"PreToolUse","tool_name":"run_bash","tool_input":{"command":"ls"},"context":{}}"#,
        "deputy PreToolUse exit 2 denies with the hook's own words",
        Exit::Golden,
        &["/args/reason"],
    ),
    Shape::golden(
        "deputy",
        "permission request",
        "PermissionRequest",
        r#"{"deputy_event":"PermissionRequest","tool_name":"run_bash","tool_input":{"command":"ls"},"context":{}}"#,
        "deputy PermissionRequest deny is PermissionResultDeny with the message",
        Exit::Golden,
        &["/args/reason"],
    ),
    // deputy ignores what its UserPromptSubmit hooks return: the block is
    // named as not carried, in `unsupported`.
    Shape::golden(
        "deputy",
        "prompt",
        "UserPromptSubmit",
        r#"{"deputy_event":"UserPromptSubmit","prompt":"hi","context":{}}"#,
        "deputy UserPromptSubmit context deputy ignores is named not dropped",
        Exit::Golden,
        &["/unsupported/0"],
    ),
    Shape::golden(
        "deputy",
        "stop",
        "Stop",
        r#"{"deputy_event":"Stop","reason":"complete","context":{"stop_hook_active":false}}"#,
        "deputy Stop a block sends the run on with HookResultStop",
        Exit::Golden,
        &["/args/message"],
    ),
];

/// The block expected: stdout (a JSON string: plain text) and exit status.
fn expected(shape: &Shape) -> (Value, Option<i64>) {
    match shape.from {
        From::Documented(json, exit) => (
            serde_json::from_str(json).expect("a documented shape is JSON"),
            Some(exit),
        ),
        From::Golden(name) => {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dialects/golden.json");
            let text = std::fs::read_to_string(&path).expect("golden.json is readable");
            let cases: Vec<Value> = serde_json::from_str(&text).expect("golden.json is JSON");
            let case = cases
                .into_iter()
                .find(|c| c["name"] == name)
                .unwrap_or_else(|| panic!("no golden case named {name:?}"));
            let expect = &case["expect"];
            let exit = match shape.exit {
                Exit::Golden => expect["exit_code"].as_i64(),
                Exit::JsonDecides => None,
            };
            (expect["stdout"].clone(), exit)
        }
    }
}

/// Every leaf of a JSON value by its pointer (an empty array or object is
/// a leaf).
fn leaves(value: &Value, at: &str, out: &mut Map<String, Value>) {
    match value {
        Value::Object(m) if !m.is_empty() => {
            for (k, v) in m {
                leaves(v, &format!("{at}/{k}"), out);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            for (i, v) in a.iter().enumerate() {
                leaves(v, &format!("{at}/{i}"), out);
            }
        }
        other => {
            out.insert(at.to_owned(), other.clone());
        }
    }
}

/// Whether `out` is the shape's block for a failure that `says` names.
fn is_block(out: &Out, shape: &Shape, says: &str) -> Result<(), String> {
    let (want, exit) = expected(shape);
    if let Some(code) = exit
        && i64::from(out.code) != code
    {
        return Err(format!("exit {} where the block exits {code}", out.code));
    }
    let got = if want.is_string() {
        Value::String(out.stdout.trim().to_owned())
    } else {
        serde_json::from_str(&out.stdout).map_err(|e| format!("stdout is not JSON: {e}"))?
    };
    let (mut want_leaves, mut got_leaves) = (Map::new(), Map::new());
    leaves(&want, "", &mut want_leaves);
    leaves(&got, "", &mut got_leaves);
    let keys = |m: &Map<String, Value>| m.keys().cloned().collect::<Vec<_>>();
    if keys(&want_leaves) != keys(&got_leaves) {
        return Err(format!(
            "fields {:?}, the block's are {:?}",
            keys(&got_leaves),
            keys(&want_leaves)
        ));
    }
    for (at, want_value) in &want_leaves {
        let got_value = &got_leaves[at];
        if shape.reasons.contains(&at.as_str()) {
            let text = got_value.as_str().unwrap_or("");
            if !text.contains(says) {
                return Err(format!("reason at {at:?} does not say {says:?}: {text:?}"));
            }
        } else if got_value != want_value {
            return Err(format!(
                "{at:?} is {got_value}, the block's is {want_value}"
            ));
        }
    }
    Ok(())
}

/// Runs one kind under one shape's dialect and event, in `mode`.
fn run(kind: &Kind, shape: &Shape, mode: &str) -> Out {
    let config = match (kind.hook, kind.config) {
        (Some(hook), _) => format!(
            "[[hooks]]\nevent = \"{}\"\n{hook}\nfail_mode = \"{mode}\"\n",
            shape.event
        ),
        (None, Some(config)) => config.replace("{event}", shape.event),
        (None, None) => String::new(),
    };
    let mut t = HookTest::new()
        .toml(&config)
        .stdin(shape.sends.as_bytes())
        .args(&["--dialect", shape.dialect])
        .args(kind.args);
    // Codex runs hooks with the login shell: one that reads no profile.
    let home = t.path().display().to_string();
    t = t.env("SHELL", "/bin/sh").env("HOME", &home);
    if kind.hook.is_none() && mode == "closed" {
        t = t.args(&["--fail-mode", "closed"]);
    }
    t.run()
}

/// Every kind on every family of one dialect, closed and open; all
/// mismatches reported at once.
fn check_dialect(dialect: &str) {
    let mut wrong = Vec::new();
    let shapes: Vec<&Shape> = SHAPES.iter().filter(|s| s.dialect == dialect).collect();
    assert!(!shapes.is_empty(), "no shapes for {dialect}");
    for shape in shapes {
        for kind in KINDS {
            let at = format!("{dialect} {} {}", shape.family, kind.name);
            let closed = run(kind, shape, "closed");
            if let Err(e) = is_block(&closed, shape, kind.says) {
                wrong.push(format!("{at}, closed: {e}\n  {closed:?}"));
            }
            let open = run(kind, shape, "open");
            let blocks = open.code == 2
                || is_block(&open, shape, kind.says).is_ok()
                || open.stdout.contains("blocking because");
            if blocks {
                wrong.push(format!("{at}, open: blocks\n  {open:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// One test per dialect.
macro_rules! dialects {
    ($($test:ident => $dialect:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                check_dialect($dialect);
            }
        )*
        /// The dialects with a test.
        const DIALECTS: &[&str] = &[$($dialect),*];
    };
}

dialects! {
    claude_fails_closed => "claude",
    codex_fails_closed => "codex",
    gemini_fails_closed => "gemini",
    cursor_fails_closed => "cursor",
    copilot_fails_closed => "copilot",
    pydantic_deep_fails_closed => "pydantic-deep",
    deputy_fails_closed => "deputy",
}

#[test]
fn every_shape_is_of_a_tested_dialect_and_every_golden_case_exists() {
    for shape in SHAPES {
        assert!(
            DIALECTS.contains(&shape.dialect),
            "{} has no test",
            shape.dialect
        );
        let (want, _) = expected(shape);
        assert!(
            !want.is_null(),
            "{} {}: no stdout in its shape",
            shape.dialect,
            shape.family
        );
    }
}
