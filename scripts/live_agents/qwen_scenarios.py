"""The Qwen Code scenarios of the live harness.

Each scenario's ``script`` tells the mock model what to do: ``command`` is
the ``run_shell_command`` the model calls first, ``final`` the text it
answers afterwards. The tool writes ``tool.txt`` in the project, so
``files`` shows whether it ran (and with what input); hooks leave evidence in
files of their own (one file per hook: parallel hooks must not race on one
file).

Qwen Code takes Claude Code's event names and answer fields, with answers of
its own: it reads an exit 2's stderr as JSON when it is JSON, reads stdout
JSON at any exit code, ignores a PreToolUse ``updatedInput``, keeps going when
a Stop hook says ``continue: false``, and fires UserPromptSubmit again (with
an empty prompt) for the request that carries the tool results. The
scenarios cover those, and each event that fires in a headless run.

Hook commands run under ``bash -c`` in Qwen Code and ``sh -c`` in hookrun, so
they are POSIX sh (printf, python3 for parsing stdin). Timeouts are seconds.
"""
from __future__ import annotations

from .common import Scenario

SCRIPT = {"command": "echo ran > tool.txt", "final": "done"}


def hook(command: str, timeout_s: int = 5) -> dict:
    """One Qwen Code command hook (timeouts in seconds)."""
    return {"type": "command", "command": command, "timeout": timeout_s}


def group(*hooks: dict, matcher: str | None = None, sequential: bool = False) -> dict:
    entry: dict = {"hooks": list(hooks)}
    if matcher is not None:
        entry["matcher"] = matcher
    if sequential:
        entry["sequential"] = True
    return entry


def answer(json_text: str, evidence: str | None = None) -> str:
    """A hook that leaves ``evidence`` (a file in the project) and prints
    ``json_text`` at exit 0."""
    mark = f"printf ran > {evidence}; " if evidence else ""
    return f"{mark}printf '%s' '{json_text}'"


def pre_tool(*hooks: dict, matcher: str | None = "run_shell_command", sequential: bool = False) -> dict:
    return {"PreToolUse": [group(*hooks, matcher=matcher, sequential=sequential)]}


def on(event: str, *hooks: dict, matcher: str | None = None) -> dict:
    return {event: [group(*hooks, matcher=matcher)]}


def deny(reason: str) -> str:
    return ('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",'
            f'"permissionDecisionReason":"{reason}"}}}}')


def context(event: str, text: str) -> str:
    return f'{{"hookSpecificOutput":{{"hookEventName":"{event}","additionalContext":"{text}"}}}}'


# A script hook: reads the event from stdin and records what it saw, so a
# difference in the event hookrun passes on (its fields, tool name and
# input, cwd, the project-dir variables) shows in `files`.
RECORD_EVENT = """#!/usr/bin/env python3
import json, os, sys
event = json.load(sys.stdin)
seen = {k: event.get(k) for k in ("hook_event_name", "tool_name", "tool_input", "cwd", "permission_mode")}
seen["fields"] = sorted(event)
for name in ("QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"):
    seen["env_" + name] = os.environ.get(name)
with open("seen-" + event["hook_event_name"] + ".json", "w") as f:
    json.dump(seen, f, sort_keys=True)
"""

# A UserPromptSubmit hook that appends each prompt it is shown (Qwen Code
# fires the event once per model request of the prompt, one after another).
RECORD_PROMPTS = """#!/usr/bin/env python3
import json, sys
event = json.load(sys.stdin)
with open("prompts.txt", "a") as f:
    f.write(json.dumps([event.get("prompt"), event.get("submitted_prompt")]) + "\\n")
"""

# A Stop hook that asks for one more turn, then lets the agent stop (Qwen
# Code sets stop_hook_active on the continuation). ANSWER is filled in.
STOP_ONCE = """#!/usr/bin/env python3
import json, sys
event = json.load(sys.stdin)
with open("stop-%s.txt" % ("again" if event.get("stop_hook_active") else "first"), "w") as f:
    f.write(str(event.get("last_assistant_message")))
if not event.get("stop_hook_active"):
    ANSWER
"""


def stop_once(answer_code: str) -> str:
    return STOP_ONCE.replace("ANSWER", answer_code)


# The second of two sequential PreToolUse hooks: records the tool input it is
# shown (Qwen Code merges the first hook's hookSpecificOutput.tool_input in).
RECORD_INPUT = """#!/usr/bin/env python3
import json, sys
event = json.load(sys.stdin)
with open("second-saw.json", "w") as f:
    json.dump(event.get("tool_input"), f, sort_keys=True)
"""


SCENARIOS = [
    # --- PreToolUse: each way a hook can answer ----------------------------
    Scenario("pre-tool-allow-json",
             pre_tool(hook(answer('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}',
                                  "hook.txt"))),
             SCRIPT),
    Scenario("pre-tool-deny-json", pre_tool(hook(answer(deny("no shell today")))), SCRIPT),
    Scenario("pre-tool-decision-block-json",
             pre_tool(hook(answer('{"decision":"block","reason":"blocked by json"}'))), SCRIPT),
    Scenario("pre-tool-decision-approve-json",
             pre_tool(hook(answer('{"decision":"approve","reason":"fine by me"}', "hook.txt"))), SCRIPT),
    Scenario("pre-tool-ask-blocks-headless",
             pre_tool(hook(answer('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask",'
                                  '"permissionDecisionReason":"ask the user first"}}'))), SCRIPT),
    Scenario("pre-tool-exit2-stderr", pre_tool(hook("echo 'blocked by policy' >&2; exit 2")), SCRIPT),
    Scenario("pre-tool-exit2-silent", pre_tool(hook("printf ran > hook.txt; exit 2")), SCRIPT),
    Scenario("pre-tool-exit2-stderr-json",
             pre_tool(hook("""echo '{"decision":"allow"}' >&2; exit 2""")), SCRIPT),
    Scenario("pre-tool-exit2-stdout-json-ignored",
             pre_tool(hook("echo '{}'; echo 'the stderr reason' >&2; exit 2")), SCRIPT),
    Scenario("pre-tool-exit1-warning", pre_tool(hook("echo 'just a warning' >&2; exit 1")), SCRIPT),
    Scenario("pre-tool-exit1-json-blocks",
             pre_tool(hook("""echo '{"decision":"block","reason":"json at exit 1"}'; exit 1""")), SCRIPT),
    Scenario("pre-tool-exit3-text", pre_tool(hook("echo 'odd failure'; exit 3")), SCRIPT),
    Scenario("pre-tool-invalid-json", pre_tool(hook("printf '{not json'")), SCRIPT),
    Scenario("pre-tool-plain-stdout", pre_tool(hook("echo 'plain words'")), SCRIPT),
    Scenario("pre-tool-updated-input-ignored",
             pre_tool(hook(answer('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow",'
                                  '"updatedInput":{"command":"echo rewritten > tool.txt"}}}'))), SCRIPT),
    Scenario("pre-tool-context-dropped",
             pre_tool(hook(answer(context("PreToolUse", "pre-tool context")))), SCRIPT),
    Scenario("pre-tool-continue-false",
             pre_tool(hook(answer('{"continue":false,"stopReason":"halt the agent"}'))), SCRIPT),
    Scenario("pre-tool-system-message",
             pre_tool(hook(answer('{"systemMessage":"note for the user"}'))), SCRIPT),
    Scenario("pre-tool-script-sees-event", pre_tool(hook("python3 record_event.py")),
             SCRIPT, files={"record_event.py": RECORD_EVENT}),
    Scenario("pre-tool-timeout",
             pre_tool(hook("printf started > hook.txt; sleep 5; "
                           + answer('{"decision":"block","reason":"too late"}'), timeout_s=1)),
             SCRIPT),
    # --- matchers ----------------------------------------------------------
    Scenario("matcher-regex-selects",
             pre_tool(hook(answer(deny("shell matched"))), matcher="shell"), SCRIPT),
    Scenario("matcher-alias-bash",
             pre_tool(hook(answer(deny("Bash matched"))), matcher="Bash"), SCRIPT),
    Scenario("matcher-alternatives",
             pre_tool(hook(answer(deny("one of them matched"))), matcher="Edit|Shell"), SCRIPT),
    Scenario("matcher-regex-misses",
             pre_tool(hook(answer(deny("write matched"), "hook.txt")), matcher="^write_file$|^edit$"),
             SCRIPT),
    Scenario("matcher-star", pre_tool(hook(answer(deny("star matched"))), matcher="*"), SCRIPT),
    # --- two hooks ---------------------------------------------------------
    Scenario("two-hooks-both-deny",
             pre_tool(hook(answer('{"decision":"deny","reason":"first says no"}')),
                      hook(answer('{"decision":"deny","reason":"second says no"}'))), SCRIPT),
    Scenario("two-hooks-one-denies",
             pre_tool(hook(answer('{"decision":"allow"}', "first.txt")),
                      hook(answer(deny("second says no"), "second.txt"))), SCRIPT),
    Scenario("two-hooks-exit2-then-json-allow",
             pre_tool(hook("echo 'first says no' >&2; exit 2"),
                      hook(answer('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'))),
             SCRIPT,
             deliberate="a deny wins over a later hook's allow: Qwen Code keeps the last permissionDecision"),
    Scenario("two-hooks-sequential-tool-input",
             pre_tool(hook(answer('{"hookSpecificOutput":{"hookEventName":"PreToolUse",'
                                  '"tool_input":{"command":"echo rewritten > tool.txt"}}}')),
                      hook("python3 record_input.py"), sequential=True),
             SCRIPT, files={"record_input.py": RECORD_INPUT},
             deliberate=("every hook reads the input the tool runs with: a tool_input "
                         "rewrite that reaches only later hooks is not carried")),
    Scenario("two-hooks-two-contexts",
             on("PostToolUse", hook(answer(context("PostToolUse", "context one"))),
                hook(answer(context("PostToolUse", "context two")))), SCRIPT),
    # --- PostToolUse / PostToolBatch ---------------------------------------
    Scenario("post-tool-context",
             on("PostToolUse", hook(answer(context("PostToolUse", "the file is <fresh>"))),
                matcher="run_shell_command"), SCRIPT),
    Scenario("post-tool-block-ignored",
             on("PostToolUse", hook(answer('{"decision":"block","reason":"output withheld"}'))), SCRIPT),
    Scenario("post-tool-continue-false",
             on("PostToolUse", hook(answer('{"continue":false,"stopReason":"stop after the tool"}'))), SCRIPT),
    Scenario("post-tool-exit2-stderr",
             on("PostToolUse", hook("echo 'result rejected' >&2; exit 2")), SCRIPT),
    Scenario("post-tool-plain-stdout", on("PostToolUse", hook("echo 'plain words'")), SCRIPT),
    Scenario("post-tool-batch-context",
             on("PostToolBatch", hook(answer(context("PostToolBatch", "batch context")))), SCRIPT),
    Scenario("post-tool-batch-continue-false",
             on("PostToolBatch", hook(answer('{"continue":false,"stopReason":"stop after the batch"}'))), SCRIPT),
    # --- UserPromptSubmit ---------------------------------------------------
    Scenario("prompt-submit-context-json",
             on("UserPromptSubmit", hook(answer(context("UserPromptSubmit", "the user likes tests")))), SCRIPT),
    Scenario("prompt-submit-plain-stdout",
             on("UserPromptSubmit", hook("echo 'plain prompt context'")), SCRIPT),
    Scenario("prompt-submit-block-json",
             on("UserPromptSubmit", hook(answer('{"decision":"block","reason":"prompt refused"}'))), SCRIPT),
    Scenario("prompt-submit-exit2-stderr",
             on("UserPromptSubmit", hook("echo 'prompt rejected' >&2; exit 2")), SCRIPT),
    Scenario("prompt-submit-continue-false",
             on("UserPromptSubmit", hook(answer('{"continue":false,"stopReason":"no prompts now"}'))), SCRIPT),
    Scenario("prompt-submit-sees-prompts",
             on("UserPromptSubmit", hook("python3 record_prompts.py")),
             SCRIPT, files={"record_prompts.py": RECORD_PROMPTS}),
    # --- Stop ---------------------------------------------------------------
    Scenario("stop-block-once",
             on("Stop", hook("python3 stop.py")), SCRIPT,
             files={"stop.py": stop_once(
                 'print(json.dumps({"decision": "block", "reason": "please also summarise"}))')}),
    Scenario("stop-exit2-once",
             on("Stop", hook("python3 stop.py")), SCRIPT,
             files={"stop.py": stop_once('sys.stderr.write("not finished yet"); sys.exit(2)')}),
    Scenario("stop-continue-false-once",
             on("Stop", hook("python3 stop.py")), SCRIPT,
             files={"stop.py": stop_once('print(json.dumps({"continue": False, "stopReason": "one more turn"}))')}),
    Scenario("stop-allow", on("Stop", hook(answer('{"decision":"allow"}', "stop.txt"))), SCRIPT),
    # --- SessionStart / SessionEnd -----------------------------------------
    Scenario("session-start-context",
             on("SessionStart", hook(answer(context("SessionStart", "session notes")))), SCRIPT),
    Scenario("session-start-plain-text",
             {**on("SessionStart", hook("echo 'hello from session start'")), **pre_tool(hook(answer("{}")))},
             SCRIPT),
    Scenario("session-start-exit2-ignored",
             on("SessionStart", hook("echo 'no session' >&2; exit 2")), SCRIPT),
    Scenario("session-start-matcher-startup",
             on("SessionStart", hook(answer(context("SessionStart", "fresh start"))), matcher="startup"), SCRIPT),
    Scenario("session-end-not-fired-headless",
             {**on("SessionEnd", hook("printf ran > session-end.txt")), **pre_tool(hook(answer("{}")))},
             SCRIPT),
    # --- events that only run ------------------------------------------------
    Scenario("notification-runs",
             on("Notification", hook("python3 record_event.py")), SCRIPT, files={"record_event.py": RECORD_EVENT}),
    Scenario("instructions-loaded-runs",
             on("InstructionsLoaded", hook("printf ran > instructions.txt")), SCRIPT),
    Scenario("post-tool-batch-sees-event",
             on("PostToolBatch", hook("python3 record_event.py")), SCRIPT, files={"record_event.py": RECORD_EVENT}),
]
