"""The Gemini CLI scenarios of the live harness.

Each scenario's ``script`` tells the mock model what to do: ``command`` is
the ``run_shell_command`` the model calls first, ``final`` the text it
answers afterwards. The tool writes ``tool.txt`` in the project, so
``files`` shows whether it ran (and with what input); hooks leave evidence in
files of their own (one file per hook: parallel hooks must not race on one
file).

Hook commands run under ``bash -c`` in Gemini and ``sh -c`` in hookrun, so
they are POSIX sh (printf, python3 for parsing stdin).
"""
from __future__ import annotations

from .common import Scenario

SCRIPT = {"command": "echo ran > tool.txt", "final": "done"}



def hook(command: str, timeout_ms: int = 5000) -> dict:
    """One Gemini command hook (timeouts in milliseconds)."""
    return {"type": "command", "command": command, "timeout": timeout_ms}


def group(*hooks: dict, matcher: str | None = None) -> dict:
    entry: dict = {"hooks": list(hooks)}
    if matcher is not None:
        entry["matcher"] = matcher
    return entry


def answer(json_text: str, evidence: str | None = None) -> str:
    """A hook that leaves ``evidence`` (a file in the project) and prints
    ``json_text`` at exit 0."""
    mark = f"printf ran > {evidence}; " if evidence else ""
    return f"{mark}printf '%s' '{json_text}'"


def before_tool(*hooks: dict, matcher: str = "run_shell_command") -> dict:
    return {"BeforeTool": [group(*hooks, matcher=matcher)]}


def gemini_known(*extra: str) -> dict:
    """The recorded differences a scenario shows (every mode)."""
    return {"known": "; ".join(extra)} if extra else {}


# A script hook: reads the event from stdin and records what it saw, so a
# difference in the event hookrun passes on (tool name, tool input, event
# name, cwd, project dir) shows in `files`.
RECORD_EVENT = """#!/usr/bin/env python3
import json, os, sys
event = json.load(sys.stdin)
seen = {k: event.get(k) for k in ("hook_event_name", "tool_name", "tool_input", "cwd")}
seen["env_project_dir"] = os.environ.get("GEMINI_PROJECT_DIR")
with open("seen-" + event["hook_event_name"] + ".json", "w") as f:
    json.dump(seen, f, sort_keys=True)
"""

# An AfterAgent hook that asks for one more turn, then lets the agent stop
# (Gemini sets stop_hook_active on the retry).
AFTER_AGENT_RETRY = """#!/usr/bin/env python3
import json, sys
event = json.load(sys.stdin)
with open("after-agent-%s.txt" % ("retry" if event.get("stop_hook_active") else "first"), "w") as f:
    f.write(str(event.get("prompt_response")))
if not event.get("stop_hook_active"):
    print(json.dumps({"decision": "deny", "reason": "please also summarise the output"}))
"""


SCENARIOS = [
    # --- BeforeTool: each way a hook can answer ---------------------------
    Scenario(
        "before-tool-allow-json",
        before_tool(hook(answer('{"decision":"allow"}', "hook.txt"))),
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-tool-deny-json",
        before_tool(hook(answer('{"decision":"deny","reason":"no shell today"}'))),
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-tool-block-json",
        before_tool(hook(answer('{"decision":"block","reason":"blocked by json"}'))),
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-tool-exit2-stderr",
        before_tool(hook("echo 'blocked by policy' >&2; exit 2")),
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-tool-exit2-silent",
        before_tool(hook("printf ran > hook.txt; exit 2")),
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-tool-exit1-warning",
        before_tool(hook("echo 'just a warning' >&2; exit 1")),
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-tool-exit3-text",
        before_tool(hook("echo 'odd failure'; exit 3")),
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-tool-json-wins-over-exit2",
        before_tool(hook("echo '{}'; echo 'ignored' >&2; exit 2")),
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-tool-invalid-json",
        before_tool(hook("printf '{not json'")),
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-tool-rewrite-input",
        before_tool(hook(answer('{"hookSpecificOutput":{"tool_input":{"command":"echo rewritten > tool.txt"}}}'))),
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-tool-continue-false",
        before_tool(hook(answer('{"continue":false,"stopReason":"halt the agent"}'))),
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-tool-system-message",
        before_tool(hook(answer('{"systemMessage":"note for the user"}'))),
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-tool-script-sees-event",
        before_tool(hook("python3 record_event.py")),
        SCRIPT, files={"record_event.py": RECORD_EVENT}, **gemini_known(),
    ),
    Scenario(
        "before-tool-timeout",
        before_tool(hook("printf started > hook.txt; sleep 5", timeout_ms=1000)),
        SCRIPT, deliberate="the hook is counted and warned about as failed; Gemini's own "
                           "`Hook timed out` line appears only when Gemini times a hook out itself",
    ),
    # --- matchers (unanchored regexes) -------------------------------------
    Scenario(
        "matcher-regex-selects",
        before_tool(hook(answer('{"decision":"deny","reason":"shell matched"}')), matcher="shell"),
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "matcher-regex-misses",
        before_tool(hook(answer('{"decision":"deny","reason":"write matched"}', "hook.txt")),
                    matcher="^write_file$|^replace$"),
        SCRIPT, **gemini_known(),
    ),
    # --- two hooks ---------------------------------------------------------
    Scenario(
        "two-hooks-both-deny",
        before_tool(
            hook(answer('{"decision":"deny","reason":"first says no"}')),
            hook(answer('{"decision":"deny","reason":"second says no"}')),
        ),
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "two-hooks-one-denies",
        before_tool(
            hook(answer('{"decision":"allow"}', "first.txt")),
            hook(answer('{"decision":"deny","reason":"second says no"}', "second.txt")),
        ),
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "two-hooks-two-contexts",
        {"AfterTool": [group(
            hook(answer('{"hookSpecificOutput":{"additionalContext":"context one"}}')),
            hook(answer('{"hookSpecificOutput":{"additionalContext":"context two"}}')),
        )]},
        SCRIPT, **gemini_known(),
    ),
    # --- AfterTool ---------------------------------------------------------
    Scenario(
        "after-tool-context",
        {"AfterTool": [group(hook(answer('{"hookSpecificOutput":{"additionalContext":"the file is fresh"}}')),
                             matcher="run_shell_command")]},
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "after-tool-block",
        {"AfterTool": [group(hook(answer('{"decision":"block","reason":"output withheld"}')))]},
        SCRIPT, **gemini_known(),
    ),
    # --- BeforeAgent / AfterAgent ------------------------------------------
    Scenario(
        "before-agent-context",
        {"BeforeAgent": [group(hook(answer('{"hookSpecificOutput":{"additionalContext":"the user likes tests"}}')))]},
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-agent-block",
        {"BeforeAgent": [group(hook(answer('{"decision":"block","reason":"prompt refused"}')))]},
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "after-agent-retry",
        {"AfterAgent": [group(hook("python3 after_agent.py"))]},
        SCRIPT, files={"after_agent.py": AFTER_AGENT_RETRY}, **gemini_known(),
    ),
    Scenario(
        "after-agent-stop",
        {"AfterAgent": [group(hook(answer('{"continue":false,"stopReason":"stopped after the turn"}')))]},
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "session-start-context",
        {"SessionStart": [group(hook(answer('{"hookSpecificOutput":{"additionalContext":"session notes"}}')))]},
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "session-start-context-beside-before-tool",
        {"SessionStart": [group(hook(answer('{"hookSpecificOutput":{"additionalContext":"session notes"}}')))],
         **before_tool(hook(answer('{"decision":"allow"}', "hook.txt")))},
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "session-start-plain-text",
        {"SessionStart": [group(hook("echo 'hello from session start'"))],
         **before_tool(hook(answer('{}')))},
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "session-end-runs",
        {"SessionEnd": [group(hook("printf ran > session-end.txt"))],
         **before_tool(hook(answer('{}')))},
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "after-tool-exit2-stderr",
        {"AfterTool": [group(hook("echo 'result rejected' >&2; exit 2"))]},
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-agent-exit2-stderr",
        {"BeforeAgent": [group(hook("echo 'prompt rejected' >&2; exit 2"))]},
        SCRIPT, **gemini_known(),
    ),
    # --- Gemini's model events ---------------------------------------------
    Scenario(
        "before-model-deny",
        {"BeforeModel": [group(hook(answer('{"decision":"deny","reason":"model call refused"}')))]},
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-model-exit2-stderr",
        {"BeforeModel": [group(hook("echo 'no model today' >&2; exit 2"))]},
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-model-rewrites-request",
        {"BeforeModel": [group(hook(answer(
            '{"hookSpecificOutput":{"llm_request":{"config":{"temperature":0.125}}}}', "hook.txt")))]},
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-model-deny-and-later-allow",
        {"BeforeModel": [group(hook(answer('{"decision":"deny","reason":"model call refused"}')),
                               hook(answer('{"decision":"allow"}')))]},
        SCRIPT, deliberate="a deny wins over a later hook's allow (Gemini: the later field wins)",
    ),
    Scenario(
        "after-model-runs",
        {"AfterModel": [group(hook("printf ran >> after-model.txt; printf '{}'"))]},
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "after-model-deny",
        {"AfterModel": [group(hook(answer('{"decision":"deny","reason":"response withheld"}')))]},
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-tool-selection-none",
        {"BeforeToolSelection": [group(hook(answer(
            '{"hookSpecificOutput":{"toolConfig":{"mode":"NONE"}}}', "hook.txt")))]},
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-tool-selection-union",
        {"BeforeToolSelection": [group(
            hook(answer('{"hookSpecificOutput":{"toolConfig":{"mode":"ANY","allowedFunctionNames":["run_shell_command"]}}}')),
            hook(answer('{"hookSpecificOutput":{"toolConfig":{"allowedFunctionNames":["read_file"]}}}')))]},
        SCRIPT, **gemini_known(),
    ),
    Scenario(
        "before-tool-selection-silent",
        {"BeforeToolSelection": [group(hook("printf ran > hook.txt"))]},
        SCRIPT, **gemini_known(),
    ),
]
