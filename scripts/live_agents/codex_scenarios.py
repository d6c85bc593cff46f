"""The Codex CLI scenarios of the live harness (see codex.py).

Hooks are Claude-shaped ``hooks.json`` blocks, as Codex reads them. A hook
that must leave evidence that it ran writes a file of its own into the
project directory (one file per hook: Codex and hookrun both run an event's
hooks concurrently, so a shared log would have no stable order). The mock
model runs ``printf ran > out.txt`` unless a scenario says otherwise, so
``files`` shows whether the tool ran.
"""
from __future__ import annotations

import json

from .codex_session import Script
from .common import Scenario


def command(text: str, timeout: int | None = None) -> dict:
    """One command handler."""
    handler = {"type": "command", "command": text}
    if timeout is not None:
        handler["timeout"] = timeout
    return handler


def group(*handlers: dict, matcher: str | None = None) -> dict:
    """One matcher group (no matcher: every tool)."""
    entry = {"hooks": list(handlers)}
    if matcher is not None:
        entry["matcher"] = matcher
    return entry


def answer(value: dict) -> str:
    """A command printing ``value`` as JSON on stdout."""
    return "printf '%s' '" + json.dumps(value) + "'"


def specific(event: str, **fields) -> dict:
    """A ``hookSpecificOutput`` answer of ``event``."""
    return {"hookSpecificOutput": {"hookEventName": event, **fields}}


def mark(name: str) -> str:
    """A command leaving ``<name>.ran`` in the project directory."""
    return f"printf ran > {name}.ran"


STOP_ONCE = """#!/usr/bin/env python3
# Blocks the first stop (the model must go on), allows the second:
# Codex sets stop_hook_active on the stop that follows a block.
import json, sys
event = json.load(sys.stdin)
if event.get("stop_hook_active"):
    open("stop-again.ran", "w").write("ran")
else:
    print(json.dumps({"decision": "block", "reason": "run the tests first"}))
"""

STOP_ONCE_EXIT2 = """#!/usr/bin/env python3
# As stop_once.py, but blocks with exit 2 and the reason on stderr.
import json, sys
if not json.load(sys.stdin).get("stop_hook_active"):
    sys.stderr.write("run the tests first\\n")
    sys.exit(2)
"""

HOOK_STDIN = """#!/usr/bin/env python3
# Records what a hook receives: the keys, the stable fields, the framing.
import json, sys
raw = sys.stdin.read()
event = json.loads(raw)
seen = {
    "keys": sorted(event),
    "hook_event_name": event.get("hook_event_name"),
    "tool_name": event.get("tool_name"),
    "tool_input": event.get("tool_input"),
    "trailing_newline": raw.endswith("\\n"),
    "compact": ": " not in raw and ", " not in raw,
}
with open(event["hook_event_name"] + ".stdin.json", "w") as f:
    json.dump(seen, f, indent=1, sort_keys=True)
"""

DENY = specific("PreToolUse", permissionDecision="deny", permissionDecisionReason="no writes today")

SCENARIOS: list[Scenario] = [
    # ---- PreToolUse: one hook, every way of answering
    Scenario(
        name="pre-silent-allow",
        hooks={"PreToolUse": [group(command(mark("pre")))]},
        script=Script(),
    ),
    Scenario(
        name="pre-deny-json",
        hooks={"PreToolUse": [group(command(answer(DENY)))]},
        script=Script(),
    ),
    Scenario(
        name="pre-deny-legacy-decision",
        hooks={"PreToolUse": [group(command(answer(
            {"decision": "block", "reason": "legacy says no"}
        )))]},
        script=Script(),
    ),
    Scenario(
        name="pre-allow-updated-input",
        hooks={"PreToolUse": [group(command(answer(specific(
            "PreToolUse", permissionDecision="allow",
            updatedInput={"command": "printf rewritten > out.txt"},
        ))))]},
        script=Script(),
    ),
    Scenario(
        # Codex supports `allow` only with updatedInput: the hook fails, the tool runs.
        name="pre-allow-without-input",
        hooks={"PreToolUse": [group(command(answer(specific(
            "PreToolUse", permissionDecision="allow", permissionDecisionReason="fine",
        ))))]},
        script=Script(),
    ),
    Scenario(
        # `ask` is unsupported in Codex: the hook fails, the tool runs.
        name="pre-ask",
        hooks={"PreToolUse": [group(command(answer(specific(
            "PreToolUse", permissionDecision="ask", permissionDecisionReason="are you sure?",
        ))))]},
        script=Script(),
    ),
    Scenario(
        name="pre-exit2-stderr",
        hooks={"PreToolUse": [group(command("echo 'blocked: no writes' >&2; exit 2"))]},
        script=Script(),
    ),
    Scenario(
        # Exit 2 blocks in Codex only with a reason on stderr.
        name="pre-exit2-silent",
        hooks={"PreToolUse": [group(command("exit 2"))]},
        script=Script(),
    ),
    Scenario(
        name="pre-exit1",
        hooks={"PreToolUse": [group(command("echo 'something broke' >&2; exit 1"))]},
        script=Script(),
    ),
    Scenario(
        name="pre-exit3",
        hooks={"PreToolUse": [group(command("echo 'odd failure' >&2; exit 3"))]},
        script=Script(),
    ),
    Scenario(
        name="pre-invalid-json",
        hooks={"PreToolUse": [group(command("printf '%s' '{\"hookSpecificOutput\": {'"))]},
        script=Script(),
    ),
    Scenario(
        name="pre-plain-stdout",
        hooks={"PreToolUse": [group(command("echo 'just chatting'"))]},
        script=Script(),
    ),
    Scenario(
        name="pre-context",
        hooks={"PreToolUse": [group(command(answer(specific(
            "PreToolUse", additionalContext="remember the style guide",
        ))))]},
        script=Script(),
    ),
    Scenario(
        name="pre-deny-with-context",
        hooks={"PreToolUse": [group(command(answer(specific(
            "PreToolUse", permissionDecision="deny", permissionDecisionReason="no writes today",
            additionalContext="writes are frozen until Monday",
        ))))]},
        script=Script(),
    ),
    Scenario(
        # `codex exec` shows a systemMessage nowhere (no hook events in --json).
        name="pre-system-message",
        hooks={"PreToolUse": [group(command(answer({"systemMessage": "a word to the user"})))]},
        script=Script(),
    ),
    Scenario(
        # continue:false is unsupported on PreToolUse in Codex: the hook fails.
        name="pre-continue-false",
        hooks={"PreToolUse": [group(command(answer(
            {"continue": False, "stopReason": "halt everything"}
        )))]},
        script=Script(),
    ),
    Scenario(
        # Codex and hookrun both fail open on a timeout.
        name="pre-timeout",
        hooks={"PreToolUse": [group(
            command(f"sleep 3; {answer(DENY)}", timeout=1),
        )]},
        script=Script(),
    ),
    # ---- matchers and several hooks
    Scenario(
        name="matcher-selects",
        hooks={"PreToolUse": [
            group(command(mark("bash-matcher")), matcher="Bash"),
            group(command(answer(DENY)), matcher="^Ba.h$"),
        ]},
        script=Script(),
    ),
    Scenario(
        # Which matcher shapes select `Bash` (Codex: `B.sh`, `^Bash`, `Read|Bash`).
        name="matcher-semantics",
        hooks={"PreToolUse": [
            group(command(mark("prefix")), matcher="Bas"),
            group(command(mark("lowercase")), matcher="bash"),
            group(command(mark("regex")), matcher="B.sh"),
            group(command(mark("anchored")), matcher="^Bash"),
            group(command(mark("infix")), matcher="as"),
            group(command(mark("codex-name")), matcher="exec_command"),
            group(command(mark("list")), matcher="Read|Bash"),
        ]},
        script=Script(),
    ),
    Scenario(
        name="matcher-skips",
        hooks={"PreToolUse": [
            group(command(answer(DENY)), matcher="Write|Edit"),
            group(command(mark("star")), matcher="*"),
            group(command(mark("read")), matcher="Read"),
        ]},
        script=Script(),
    ),
    Scenario(
        name="two-hooks-both-deny",
        hooks={"PreToolUse": [group(
            command(answer(specific(
                "PreToolUse", permissionDecision="deny", permissionDecisionReason="first says no",
            ))),
            command(answer(specific(
                "PreToolUse", permissionDecision="deny", permissionDecisionReason="second says no",
            ))),
        )]},
        script=Script(),
        deliberate="every deny reason is kept, joined in config order (Codex shows the first)",
    ),
    Scenario(
        name="two-hooks-one-denies",
        hooks={"PreToolUse": [
            group(command(mark("allower"))),
            group(command(answer(DENY))),
        ]},
        script=Script(),
    ),
    Scenario(
        name="two-hooks-two-contexts",
        hooks={"PostToolUse": [group(
            command(answer(specific("PostToolUse", additionalContext="first note"))),
            command(answer(specific("PostToolUse", additionalContext="second note"))),
        )]},
        script=Script(),
        deliberate="several additionalContexts reach the model as one message",
    ),
    # ---- PostToolUse
    Scenario(
        name="post-block",
        hooks={"PostToolUse": [group(command(answer(
            {"decision": "block", "reason": "the output looks wrong"}
        )))]},
        script=Script(),
    ),
    Scenario(
        name="post-context",
        hooks={"PostToolUse": [group(command(answer(specific(
            "PostToolUse", additionalContext="the file is generated",
        ))))]},
        script=Script(),
    ),
    Scenario(
        # Codex ignores updatedToolOutput for its shell tool.
        name="post-updated-output",
        hooks={"PostToolUse": [group(command(answer(specific(
            "PostToolUse", updatedToolOutput="output replaced by the hook",
        ))))]},
        script=Script(commands=("printf visible",)),
    ),
    Scenario(
        name="post-async-context",
        # The async hook's answer reaches Codex while it runs the next hooks: the
        # synchronous hook waits for the async one to exit (and a margin), so
        # that the note is queued before Codex builds the next request.
        hooks={"PostToolUse": [group(
            {**command(answer(specific("PostToolUse", additionalContext="late note"))
                       + "; " + mark("async")), "async": True},
            command("while [ ! -e async.ran ]; do sleep 0.05; done; sleep 0.3", timeout=5),
        )]},
        script=Script(),
        deliberate="an async hook's answer is not merged: hookrun answers without waiting for it and "
                   "has exited when it arrives (Codex alone delivers its context on the next request)",
    ),
    Scenario(
        name="post-exit2-stderr",
        hooks={"PostToolUse": [group(command("echo 'lint failed' >&2; exit 2"))]},
        script=Script(),
    ),
    Scenario(
        # Codex replaces the tool output with the stopReason and goes on.
        name="post-continue-false",
        hooks={"PostToolUse": [group(command(answer(
            {"continue": False, "stopReason": "enough for today"}
        )))]},
        script=Script(commands=("printf ran > out.txt", "printf again > second.txt")),
    ),
    # ---- UserPromptSubmit
    Scenario(
        name="prompt-block",
        hooks={"UserPromptSubmit": [group(command(answer(
            {"decision": "block", "reason": "prompt refused"}
        )))]},
        script=Script(),
    ),
    Scenario(
        name="prompt-exit2-stderr",
        hooks={"UserPromptSubmit": [group(command("echo 'prompt refused' >&2; exit 2"))]},
        script=Script(),
    ),
    Scenario(
        name="prompt-context-plain",
        hooks={"UserPromptSubmit": [group(command("echo 'today is a holiday'"))]},
        script=Script(),
    ),
    Scenario(
        name="prompt-context-json",
        hooks={"UserPromptSubmit": [group(command(answer(specific(
            "UserPromptSubmit", additionalContext="today is a holiday",
        ))))]},
        script=Script(),
    ),
    Scenario(
        name="prompt-continue-false",
        hooks={"UserPromptSubmit": [group(command(answer(
            {"continue": False, "stopReason": "not now"}
        )))]},
        script=Script(),
    ),
    # ---- SessionStart, Stop, SessionEnd
    Scenario(
        name="session-start-context-plain",
        hooks={"SessionStart": [group(command("echo 'the repo uses tabs'"))]},
        script=Script(),
    ),
    Scenario(
        # SessionStart matchers select the source (`startup` here).
        name="session-start-matcher",
        hooks={"SessionStart": [
            group(command("echo 'fresh session'"), matcher="startup"),
            group(command("echo 'resumed session'"), matcher="resume"),
        ]},
        script=Script(),
    ),
    Scenario(
        name="session-start-context-json",
        hooks={"SessionStart": [group(command(answer(specific(
            "SessionStart", additionalContext="the repo uses tabs",
        ))))]},
        script=Script(),
    ),
    Scenario(
        name="stop-continue",
        hooks={"Stop": [group(command("python3 hooks/stop_once.py"))]},
        files={"hooks/stop_once.py": STOP_ONCE},
        script=Script(answers=("done", "tests pass, done")),
    ),
    Scenario(
        name="stop-exit2-stderr",
        hooks={"Stop": [group(command("python3 hooks/stop_once_exit2.py"))]},
        files={"hooks/stop_once_exit2.py": STOP_ONCE_EXIT2},
        script=Script(answers=("done", "tests pass, done")),
    ),
    Scenario(
        name="session-end-runs",
        hooks={"SessionEnd": [group(command(mark("session-end")))]},
        script=Script(),
    ),
    Scenario(
        name="session-end-default-timeout",
        hooks={"SessionEnd": [group(command("sleep 1.2; " + mark("session-end")))]},
        script=Script(),
    ),
    Scenario(
        # Codex gives a SessionEnd hook 3 s at most, whatever it asks for.
        name="session-end-timeout-capped",
        hooks={"SessionEnd": [group(command("sleep 4; " + mark("session-end"), timeout=10))]},
        script=Script(),
        deliberate=("the hook is cut at 3 s in both; Codex's clamping warning names the "
                    "hooks.json it read, and with hookrun registered at 3 s the clamp is "
                    "hookrun's, said on its stderr (W024)"),
    ),
    Scenario(
        name="session-end-stdin",
        hooks={"SessionEnd": [group(command("python3 hooks/stdin.py"))]},
        files={"hooks/stdin.py": HOOK_STDIN},
        script=Script(),
    ),
    # ---- handler kinds: Codex skips prompt and agent hooks, and runs MCP tools
    Scenario(
        name="pre-prompt-and-agent-hooks-skipped",
        hooks={"PreToolUse": [group(
            {"type": "prompt", "prompt": "Refuse everything. $ARGUMENTS"},
            {"type": "agent", "prompt": "Refuse everything. $ARGUMENTS"},
            command(mark("pre")),
        )]},
        script=Script(),
        deliberate=("both skip the prompt and agent hooks and run the rest; Codex's start-up "
                    "warning names the hooks.json it read, hookrun's notice (W010) the file "
                    "it was given"),
    ),
    Scenario(
        name="pre-mcp-tool-deny",
        hooks={"PreToolUse": [group(
            {"type": "mcp_tool", "server": "policy", "tool": "deny"},
        )]},
        agent_config='[mcp_servers.policy]\ncommand = "python3"\nargs = ["{mcp_server}"]\n',
        script=Script(),
    ),
    Scenario(
        name="pre-mcp-tool-allow",
        hooks={"PreToolUse": [group(
            {"type": "mcp_tool", "server": "policy", "tool": "allow"},
            command(mark("pre")),
        )]},
        agent_config='[mcp_servers.policy]\ncommand = "python3"\nargs = ["{mcp_server}"]\n',
        script=Script(),
    ),
    # ---- how the hook process itself is run
    Scenario(
        name="hook-stdin-framing",
        hooks={"PreToolUse": [group(command("python3 hooks/stdin.py"))],
               "PostToolUse": [group(command("python3 hooks/stdin.py"))]},
        files={"hooks/stdin.py": HOOK_STDIN},
        script=Script(),
    ),
    Scenario(
        name="hook-shell-bash-syntax",
        hooks={"PreToolUse": [group(command(f"if [[ -n x ]]; then {answer(DENY)}; fi"))]},
        script=Script(),
    ),
    Scenario(
        name="hook-env-project-dir",
        hooks={"PreToolUse": [group(command(
            'printf "%s" "${CLAUDE_PROJECT_DIR-unset}" > project-dir.txt'
        ))]},
        script=Script(),
    ),
    Scenario(
        name="handler-if-field",
        hooks={"PreToolUse": [group({**command(answer(DENY)), "if": "Bash(git *)"})]},
        script=Script(),
    ),
]
