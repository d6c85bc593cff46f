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
//! the agent's documented hook output (`documented`), as noted at
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
//!   block by default (the trust rule) and not to block with
//!   `--on-error allow`. Every dialect and family then runs it, e.g.
//!   `Kind::own("unreadable config", "[[hooks]\nevent = \"{event}\"\ncommand =", &[], "config"),`.
//! - An event family of a dialect: one `row` in `SHAPES`, with the event
//!   as the agent sends it and its `Block`: `golden(case, ...)`, the golden
//!   case whose `expect` is the block, or `documented(json, exit, ...)`.
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
    // hookrun's own failures: they block by default (the trust rule),
    // `--on-error allow` is the open run.
    Kind::own(
        "unreadable config",
        "[[hooks]]\nevent = \"{event}\"\ncommand = \"true\"\ntimout = 1\n",
        &[],
        "hooks[0].timout",
    ),
    Kind::own(
        "broken layer",
        "[[hooks]]\nevent = \"{event}\"\ncommand = \"true\"\n",
        &["--config", "/nonexistent/second-layer.toml"],
        "second-layer.toml",
    ),
    Kind::own(
        "unknown event",
        "[[hooks]]\nevent = \"PreToolUs\"\ncommand = \"true\"\n",
        &[],
        "PreToolUs",
    ),
    Kind::own(
        "no space for the audit line",
        "[[hooks]]\nevent = \"{event}\"\ncommand = \"true\"\n",
        &["--audit-log", "/dev/full"],
        "no audit line written",
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

/// A block as an agent reads it.
struct Block {
    from: From,
    exit: Exit,
    /// JSON pointers of the texts that carry the reason ("" for plain text).
    reasons: &'static [&'static str],
}

/// A block from the agent's documented output.
const fn documented(json: &'static str, exit: i64, reasons: &'static [&'static str]) -> Block {
    Block {
        from: From::Documented(json, exit),
        exit: Exit::Golden,
        reasons,
    }
}

/// A block from a golden case.
const fn golden(case: &'static str, exit: Exit, reasons: &'static [&'static str]) -> Block {
    Block {
        from: From::Golden(case),
        exit,
        reasons,
    }
}

/// One dialect's block on one event family.
struct Shape {
    dialect: &'static str,
    family: &'static str,
    /// hookrun's name of the event, for the hook's `event =`.
    event: &'static str,
    /// The event as the agent sends it.
    sends: &'static str,
    block: &'static Block,
}

const fn row(
    dialect: &'static str,
    family: &'static str,
    event: &'static str,
    sends: &'static str,
    block: &'static Block,
) -> Shape {
    Shape {
        dialect,
        family,
        event,
        sends,
        block,
    }
}

// Claude Code and Codex have no golden cases (hookrun's model is Claude
// Code's own output): their blocks are the documented ones.
const CLAUDE_PRE: Block = documented(
    r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}"#,
    2,
    &["/hookSpecificOutput/permissionDecisionReason"],
);
const CLAUDE_PERMISSION: Block = documented(
    r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"r"}}}"#,
    2,
    &["/hookSpecificOutput/decision/message"],
);
/// Also Copilot CLI's prompt and stop block (its golden prompt case checks
/// `"decision":"block"` and exit 2 only).
const CLAUDE_BLOCK: Block = documented(r#"{"decision":"block","reason":"r"}"#, 2, &["/reason"]);
/// Gemini CLI aggregates BeforeAgent and AfterAgent as BeforeTool
/// (`mergeWithOrDecision`) and reads stdout's JSON whatever the status.
const GEMINI_DENY: Block = golden(
    "gemini MCP tools keep their own names (mcp_server_tool)",
    Exit::JsonDecides,
    &["/reason"],
);
const GEMINI_STOP: Block = golden(
    "gemini AfterAgent maps to Stop; a deny forces a retry",
    Exit::JsonDecides,
    &["/reason"],
);
const CURSOR_DENY: Block = golden(
    "cursor beforeMCPExecution maps to PreToolUse with the MCP tool",
    Exit::Golden,
    &["/user_message", "/agent_message"],
);
const CURSOR_PROMPT: Block = documented(
    r#"{"continue":false,"user_message":"r"}"#,
    2,
    &["/user_message"],
);
/// Cursor's stop hook cannot refuse the stop; a follow-up message sends the
/// agent on.
const CURSOR_STOP: Block = documented(r#"{"followup_message":"r"}"#, 0, &["/followup_message"]);
const COPILOT_DENY: Block = documented(
    r#"{"permissionDecision":"deny","permissionDecisionReason":"r"}"#,
    2,
    &["/permissionDecisionReason"],
);
/// pydantic-deep's only blocking event: the reason alone on stdout, exit 2.
const PYDANTIC_DENY: Block = documented(r#""r""#, 2, &[""]);
const DEPUTY_PRE: Block = golden(
    "deputy PreToolUse exit 2 denies with the hook's own words",
    Exit::Golden,
    &["/args/reason"],
);
const DEPUTY_PERMISSION: Block = golden(
    "deputy PermissionRequest deny is PermissionResultDeny with the message",
    Exit::Golden,
    &["/args/reason"],
);
/// deputy ignores what its UserPromptSubmit hooks return: the block is
/// named as not carried, in `unsupported`.
const DEPUTY_PROMPT: Block = golden(
    "deputy UserPromptSubmit context deputy ignores is named not dropped",
    Exit::Golden,
    &["/unsupported/0"],
);
const DEPUTY_STOP: Block = golden(
    "deputy Stop a block sends the run on with HookResultStop",
    Exit::Golden,
    &["/args/message"],
);

const PRE: &str = "PreToolUse";
const PERMISSION: &str = "PermissionRequest";
const PROMPT: &str = "UserPromptSubmit";
const STOP: &str = "Stop";

/// The blocks, per dialect and family.
#[rustfmt::skip]
const SHAPES: &[Shape] = &[
    row("claude", "pre-tool", PRE, r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#, &CLAUDE_PRE),
    row("claude", "permission request", PERMISSION, r#"{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"}}"#, &CLAUDE_PERMISSION),
    row("claude", "prompt", PROMPT, r#"{"hook_event_name":"UserPromptSubmit","prompt":"hi"}"#, &CLAUDE_BLOCK),
    row("claude", "stop", STOP, r#"{"hook_event_name":"Stop","stop_hook_active":false}"#, &CLAUDE_BLOCK),
    row("codex", "pre-tool", PRE, r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"session_id":"s","turn_id":"t","model":"m"}"#, &CLAUDE_PRE),
    row("codex", "prompt", PROMPT, r#"{"hook_event_name":"UserPromptSubmit","prompt":"hi","session_id":"s","turn_id":"t","model":"m"}"#, &CLAUDE_BLOCK),
    row("codex", "stop", STOP, r#"{"hook_event_name":"Stop","stop_hook_active":false,"session_id":"s","turn_id":"t","model":"m"}"#, &CLAUDE_BLOCK),
    row("gemini", "pre-tool", PRE, r#"{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}"#, &GEMINI_DENY),
    row("gemini", "prompt", PROMPT, r#"{"hook_event_name":"BeforeAgent","prompt":"hi"}"#, &GEMINI_DENY),
    row("gemini", "stop", STOP, r#"{"hook_event_name":"AfterAgent","stop_hook_active":false}"#, &GEMINI_STOP),
    row("cursor", "pre-tool", PRE, r#"{"hook_event_name":"preToolUse","conversation_id":"c","tool_name":"Shell","tool_input":{"command":"ls"}}"#, &CURSOR_DENY),
    row("cursor", "prompt", PROMPT, r#"{"hook_event_name":"beforeSubmitPrompt","conversation_id":"c","prompt":"hi"}"#, &CURSOR_PROMPT),
    row("cursor", "stop", STOP, r#"{"hook_event_name":"stop","conversation_id":"c","loop_count":0}"#, &CURSOR_STOP),
    row("copilot", "pre-tool", PRE, r#"{"hook_event_name":"preToolUse","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}"#, &COPILOT_DENY),
    row("copilot", "permission request", PERMISSION, r#"{"hook_event_name":"permissionRequest","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}"#, &COPILOT_DENY),
    row("copilot", "prompt", PROMPT, r#"{"hook_event_name":"userPromptSubmitted","prompt":"hi"}"#, &CLAUDE_BLOCK),
    row("copilot", "stop", STOP, r#"{"hook_event_name":"agentStop"}"#, &CLAUDE_BLOCK),
    row("pydantic-deep", "pre-tool", PRE, r#"{"event":"pre_tool_use","tool_name":"bash","tool_input":{"command":"ls"},"tool_result":null,"tool_error":null}"#, &PYDANTIC_DENY),
    row("deputy", "pre-tool", PRE, r#"{"deputy_event":"PreToolUse","tool_name":"run_bash","tool_input":{"command":"ls"},"context":{}}"#, &DEPUTY_PRE),
    row("deputy", "permission request", PERMISSION, r#"{"deputy_event":"PermissionRequest","tool_name":"run_bash","tool_input":{"command":"ls"},"context":{}}"#, &DEPUTY_PERMISSION),
    row("deputy", "prompt", PROMPT, r#"{"deputy_event":"UserPromptSubmit","prompt":"hi","context":{}}"#, &DEPUTY_PROMPT),
    row("deputy", "stop", STOP, r#"{"deputy_event":"Stop","reason":"complete","context":{"stop_hook_active":false}}"#, &DEPUTY_STOP),
];

/// The block expected: stdout (a JSON string: plain text) and exit status.
fn expected(shape: &Shape) -> (Value, Option<i64>) {
    match shape.block.from {
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
            let exit = match shape.block.exit {
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
        if shape.block.reasons.contains(&at.as_str()) {
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
    if kind.hook.is_none() && mode == "open" {
        t = t.args(&["--on-error", "allow"]);
    }
    t.run()
}

/// hookrun's own block carries its reason to the user as well, in the
/// `systemMessage` (deputy: `messages`); Codex reads a block that says more
/// than the block as JSON at exit 0 (docs/dialects.md). Past those, it must
/// be the hook block's shape.
fn own_block_as_hook_block(out: &mut Out, dialect: &str) {
    if let Ok(Value::Object(mut o)) = serde_json::from_str::<Value>(&out.stdout) {
        let told = if dialect == "deputy" {
            o.insert("messages".into(), Value::Array(Vec::new()))
                .is_some_and(|m| m.as_array().is_some_and(|m| !m.is_empty()))
        } else {
            o.remove("systemMessage").is_some()
        };
        if told {
            out.stdout = Value::Object(o).to_string();
            if dialect == "codex" && out.code == 0 {
                out.code = 2;
            }
        }
    }
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
            let mut closed = run(kind, shape, "closed");
            if kind.hook.is_none() {
                own_block_as_hook_block(&mut closed, dialect);
            }
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
