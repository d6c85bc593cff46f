"""The Claude Code scenarios of the live harness, and the `Script` the mock
model follows in each.

Every scenario makes the model call a tool that writes a file (so `files`
shows whether the tool ran), then answer with a final text. Hooks that should
leave evidence of having run write their own file into the project directory.
"""
from __future__ import annotations

import dataclasses
import json
import shlex

from . import http_server
from .common import Scenario


@dataclasses.dataclass
class Script:
    """What the mock model does, turn by turn.

    Each turn is a final text (a string) or a list of tool calls ``(tool
    name, input)``. A main-loop request gets the first turn whose blocks are
    not yet in its conversation: the assistant content blocks it carries are
    counted (Claude Code may merge consecutive assistant messages, so blocks
    are counted, not messages). Past the end, the last turn repeats.
    ``{project}`` in a tool input string becomes the project directory.
    ``permission_mode`` is Claude Code's: ``bypassPermissions`` (run with
    ``--dangerously-skip-permissions``) or e.g. ``default``, where a Bash call
    needs a permission and PermissionRequest hooks fire.
    """

    turns: list
    permission_mode: str = "bypassPermissions"

    def answer(self, messages: list, project: str) -> list[dict]:
        """The content blocks answering a request with these ``messages``."""
        seen = sum(
            len(m["content"]) if isinstance(m.get("content"), list) else 1
            for m in messages if m.get("role") == "assistant"
        )
        turn = 0
        while turn < len(self.turns) - 1 and seen >= self._size(turn):
            seen -= self._size(turn)
            turn += 1
        return self._blocks(turn, project)

    def _size(self, turn: int) -> int:
        step = self.turns[turn]
        return 1 if isinstance(step, str) else len(step)

    def _blocks(self, turn: int, project: str) -> list[dict]:
        step = self.turns[turn]
        if isinstance(step, str):
            return [{"type": "text", "text": step}]
        return [
            {"type": "tool_use", "id": f"toolu_live{turn:02d}{i:02d}", "name": name,
             "input": _fill(tool_input, project)}
            for i, (name, tool_input) in enumerate(step)
        ]


def _fill(value, project: str):
    if isinstance(value, str):
        return value.replace("{project}", project)
    if isinstance(value, dict):
        return {k: _fill(v, project) for k, v in value.items()}
    return value


# --------------------------------------------------------------------------
# Building blocks

BASH = ("Bash", {"command": "echo hi > out.txt", "description": "Write out.txt"})
WRITE = ("Write", {"file_path": "{project}/written.txt", "content": "written by Write\n"})
DONE = "All done."

ONE_BASH = Script([[BASH], DONE])
ONE_WRITE = Script([[WRITE], DONE])
# After a Stop continuation the model answers once more.
STOP_TWICE = Script([[BASH], DONE, "Checked again, all done."])


def cmd(command: str, **fields) -> dict:
    """A command handler; ``fields`` adds e.g. ``timeout`` or ``async``."""
    return {"type": "command", "command": command, **fields}


def say(answer: dict, exit_code: int = 0, stderr: str | None = None) -> str:
    """A shell command printing ``answer`` as JSON (and ``stderr``), then
    exiting with ``exit_code``."""
    parts = [f"printf '%s\\n' {shlex.quote(json.dumps(answer))}"]
    if stderr is not None:
        parts.append(f"printf '%s\\n' {shlex.quote(stderr)} >&2")
    if exit_code:
        parts.append(f"exit {exit_code}")
    return "; ".join(parts)


def mark(name: str) -> str:
    """A shell command leaving evidence that a hook ran."""
    return f'echo {name} >> "$CLAUDE_PROJECT_DIR/ran-{name}.txt"'


def later(command: str) -> str:
    """``command`` finishing half a second after its siblings. Claude Code
    consumes several hooks' answers in completion order (which context comes
    first, which deny reason is shown), so scenarios with competing hooks fix
    that order to stay deterministic."""
    return f"sleep 0.5; {command}"


def on(event: str, *handlers: dict, matcher: str | None = None) -> dict:
    """A hooks block with one matcher group for ``event``."""
    group = {"hooks": list(handlers)}
    if matcher is not None:
        group["matcher"] = matcher
    return {event: [group]}


def pre(decision: str, reason: str = "", **extra) -> dict:
    out = {"hookEventName": "PreToolUse", "permissionDecision": decision, **extra}
    if reason:
        out["permissionDecisionReason"] = reason
    return {"hookSpecificOutput": out}


def specific(event: str, **fields) -> dict:
    return {"hookSpecificOutput": {"hookEventName": event, **fields}}


def permission(behavior: str, **fields) -> dict:
    return specific("PermissionRequest", decision={"behavior": behavior, **fields})


STOP_ONCE = """#!/bin/sh
# Block the first stop, let the second through (Claude Code sets
# stop_hook_active on the stop that follows a blocked one).
input=$(cat)
echo "stop_hook_active seen: $(printf '%s' "$input" | grep -c '"stop_hook_active":true')" \\
    >> "$CLAUDE_PROJECT_DIR/stop.log"
case "$input" in *'"stop_hook_active":true'*) exit 0 ;; esac
"""

def _guard_script() -> str:
    """A guard kept as a script in the project: deny any Bash command writing
    out.txt."""
    deny = say(pre("deny", "guard.sh: out.txt is protected"))
    return f"""#!/bin/sh
input=$(cat)
case "$input" in
  *out.txt*) {deny} ;;
esac
"""


# --------------------------------------------------------------------------
# The scenarios

DELIBERATE_REASONS = "hookrun keeps every deny/block reason, in config order"
DELIBERATE_CONTEXTS = "several additionalContexts reach the model as one message"
# Differences that follow from hookrun's output contract: its exit status is
# 0 or 2 (2 exactly when it blocks) and its stdout one schema-valid JSON
# object outside PreCompact, the contract its callers and the conformance
# suite read. Claude Code reacts to a hook's plain exit 1 or plain exit 2 in
# ways that contract cannot reproduce; each is documented in
# docs/compatibility.md.

# hookrun reports a failed hook (exit other than 0/2, timeout, invalid JSON,
# missing command, wrong hookEventName) in `systemMessage`, which Claude Code
# shows as an informational `<Event> says: …` line. Claude Code alone shows no
# line (exit 1/3; UserPromptSubmit timeout), a `hook_no_verdict` warning
# (PreToolUse: exit 127, invalid JSON, wrong event, timeout) or a `stop hook
# problem` notification (Stop).
# An http hook's answer must be JSON, so a command's plain-stdout context
# travels as additionalContext, which Claude Code labels otherwise
# (docs/serve.md).
PLAIN_CONTEXT_OVER_HTTP = ("plain stdout context reaches the model as `hook additional context`, not"
                           " `hook success`: an http answer is JSON (additionalContext)")
FAILURE_NOTICE = "a failed hook is reported in systemMessage (`<Event> says:`), hookrun never exits 1"
# PostToolUse and Stop block feedback reaches the model as `… hook blocking
# error from command: "<command>": …`, and <command> is the registered one:
# hookrun's command line instead of the hook's.
COMMAND_LABEL = "the agent names the command it registered (hookrun) in block feedback, not the hook's"
# For a plain exit-2 Stop hook Claude Code sends only `Stop hook feedback`;
# hookrun answers a block as JSON + exit 2, after which Claude Code also sends a
# `Stop hook blocking error from command: "<hookrun …>"` system message.
STOP_EXIT2 = "a Stop block is JSON + exit 2, so the model also gets `Stop hook blocking error`"
# The stream's `prompt_submit_outcome.reason` is the bare stderr for Claude
# Code, the `[<command>]: <stderr>` of hookrun's JSON reason through hookrun
# (the text shown to the user is the same).
PROMPT_REASON = ("the prompt-block reason keeps the `[<command>]: ` label in the SDK stream"
                 " (the user sees the same text)")
# Claude Code prints `SessionEnd hook [<command>] failed: <stderr>` on its
# stderr; hookrun exits 0 (a notice in systemMessage, which SessionEnd ignores).
SESSION_END = "a failed SessionEnd hook is not printed by Claude Code (hookrun exits 0 on SessionEnd)"
# hookrun reports two hooks rewriting the same tool_input key as a notice;
# Claude Code silently keeps the last one (the same one here).
CONFLICT_NOTICE = "two hooks rewriting one tool_input key is reported to the user"


def scenarios() -> list[Scenario]:
    return (
        _pre_tool_use() + _matchers() + _several_hooks() + _post_tool_use()
        + _user_prompt_submit() + _session_start() + _stop() + _permission_request()
        + _session_end() + _http()
    )


def http(path: str, **fields) -> dict:
    """An http handler posting to the harness's local server (``path``
    picks its answer: see ``http_server``)."""
    return {"type": "http", "url": http_server.url(path), **fields}


def _http() -> list[Scenario]:
    """Claude Code's http handlers, run by Claude Code (A) and by hookrun
    from the same settings and from the converted TOML (B)."""
    def s(name, hooks, script=ONE_BASH, **kw):
        return Scenario(name=f"http-{name}", hooks=hooks, script=script, **kw)

    return [
        s("deny", on("PreToolUse", http("/deny"), matcher="Bash")),
        s("empty-allows", on("PreToolUse", http("/empty"), matcher="Bash")),
        s("500-with-deny-body-runs", on("PreToolUse", http("/deny-500"), matcher="Bash"),
          deliberate=FAILURE_NOTICE),
        s("plain-text-runs", on("PreToolUse", http("/text"), matcher="Bash"),
          deliberate=FAILURE_NOTICE),
        s("timeout-on-failure-block",
          on("PreToolUse", http("/slow", timeout=1, onFailure="block"), matcher="Bash")),
        s("prompt-context", on("UserPromptSubmit", http("/context")), script=Script([DONE])),
        s("prompt-block", on("UserPromptSubmit", http("/block-prompt")), script=Script([DONE])),
        # Claude Code lists contexts as its handlers finish (a run may order
        # them either way): the http answer comes a second late here, so
        # that the command's is first, as in hookrun's order of types.
        s("after-command",
          on("UserPromptSubmit", http("/context-slow"),
             cmd(say(specific("UserPromptSubmit", additionalContext="command context")))),
          script=Script([DONE]), deliberate=DELIBERATE_CONTEXTS),
    ]


def _pre_tool_use() -> list[Scenario]:
    def s(name, hooks, script=ONE_BASH, **kw):
        return Scenario(name=f"pre-{name}", hooks=hooks, script=script, **kw)

    return [
        s("deny-json", on("PreToolUse", cmd(say(pre("deny", "no writes today"))))),
        s("deny-json-no-reason", on("PreToolUse", cmd(say(pre("deny"))))),
        s("allow-json", on("PreToolUse", cmd(say(pre("allow", "fine by me"))))),
        s("ask-json", on("PreToolUse", cmd(say(pre("ask", "are you sure?"))))),
        s("defer-json", on("PreToolUse", cmd(say(pre("defer"))))),
        s("legacy-decision-block",
          on("PreToolUse", cmd(say({"decision": "block", "reason": "legacy block"})))),
        s("legacy-decision-approve",
          on("PreToolUse", cmd(say({"decision": "approve", "reason": "legacy approve"})))),
        s("exit2-stderr",
          on("PreToolUse", cmd("echo 'blocked: out.txt is read-only' >&2; exit 2"))),
        s("exit2-no-stderr", on("PreToolUse", cmd("exit 2"))),
        s("exit0-plain-stdout", on("PreToolUse", cmd("echo just chatting; " + mark("pre")))),
        s("exit1-stderr", on("PreToolUse", cmd("echo 'soft failure' >&2; exit 1")),
          deliberate=FAILURE_NOTICE),
        s("exit3", on("PreToolUse", cmd("echo 'odd failure' >&2; exit 3")),
          deliberate=FAILURE_NOTICE),
        s("exit127-missing-command", on("PreToolUse", cmd("no-such-command-hookrun-live")),
          deliberate=FAILURE_NOTICE),
        s("exit1-with-deny-json",
          on("PreToolUse", cmd(say(pre("deny", "json wins"), exit_code=1)))),
        s("invalid-json", on("PreToolUse", cmd("echo '{not json}'")),
          deliberate=FAILURE_NOTICE),
        s("wrong-event-name",
          on("PreToolUse", cmd(say(specific("PostToolUse", additionalContext="misfiled")))),
          deliberate=FAILURE_NOTICE),
        s("timeout",
          on("PreToolUse", cmd(say(pre("deny", "too late")) + "; sleep 5", timeout=1)),
          deliberate=FAILURE_NOTICE),
        s("continue-false",
          on("PreToolUse", cmd(say({"continue": False, "stopReason": "halt after this tool"})))),
        s("deny-continue-false",
          on("PreToolUse", cmd(say({"continue": False, "stopReason": "halt now",
                                    **pre("deny", "denied and halted")})))),
        s("system-message",
          on("PreToolUse", cmd(say({"systemMessage": "heads up from the guard"})))),
        s("additional-context",
          on("PreToolUse",
             cmd(say(pre("allow", additionalContext="remember: out.txt is scratch"))))),
        s("updated-input-allow",
          on("PreToolUse", cmd(say(pre("allow", "rewritten", updatedInput={
              "command": "echo rewritten > rewritten.txt",
              "description": "Write rewritten.txt"}))))),
        s("updated-input-alone",
          on("PreToolUse", cmd(say(specific("PreToolUse", updatedInput={
              "command": "echo alone > alone.txt", "description": "Write alone.txt"}))))),
        s("script-file",
          on("PreToolUse", cmd('"$CLAUDE_PROJECT_DIR"/hooks/guard.sh'), matcher="Bash"),
          files={"hooks/guard.sh": _guard_script()}),
        s("async-hook", on("PreToolUse", cmd(mark("async"), **{"async": True}))),
        s("json-deny-with-exit2",
          on("PreToolUse",
             cmd(say(pre("deny", "json reason"), exit_code=2, stderr="stderr reason")))),
        s("on-failure-block-exit1",
          on("PreToolUse", cmd("echo 'guard crashed' >&2; exit 1", onFailure="block"))),
        s("exec-form-args",
          on("PreToolUse", {"type": "command", "command": "sh",
                            "args": ["-c", say(pre("deny", "denied by exec form"))]})),
        s("if-selects",
          on("PreToolUse", cmd(say(pre("deny", "echo is guarded")), **{"if": "Bash(echo *)"}))),
        s("if-does-not-select",
          on("PreToolUse", cmd(say(pre("deny", "rm is guarded")), **{"if": "Bash(rm *)"}))),
    ]


def _matchers() -> list[Scenario]:
    deny = cmd(say(pre("deny", "matched")))

    def s(name, matcher, script=ONE_BASH):
        return Scenario(name=f"matcher-{name}", hooks=on("PreToolUse", deny, matcher=matcher),
                        script=script)

    return [
        s("exact-selects", "Bash"),
        s("exact-does-not-select", "Write"),
        s("exact-is-not-prefix", "Bas"),
        s("list-selects-write", "Bash|Write", ONE_WRITE),
        s("list-does-not-select", "Edit|Read"),
        s("regex-selects", "^Ba.*"),
        s("regex-does-not-select", "^Wr.*"),
        s("star", "*", ONE_WRITE),
        s("mcp-like-does-not-select", "mcp__files__.*"),
        Scenario(
            name="matcher-two-tools-one-denied",
            hooks=on("PreToolUse", deny, matcher="Write"),
            script=Script([[BASH, WRITE], DONE]),
        ),
    ]


def _several_hooks() -> list[Scenario]:
    return [
        Scenario(
            name="several-both-deny",
            hooks=on("PreToolUse", cmd(say(pre("deny", "first says no"))),
                     cmd(later(say(pre("deny", "second says no"))))),
            script=ONE_BASH, deliberate=DELIBERATE_REASONS,
        ),
        Scenario(
            name="several-deny-and-allow",
            hooks=on("PreToolUse", cmd(say(pre("allow", "first says yes"))),
                     cmd(say(pre("deny", "second says no")))),
            script=ONE_BASH,
        ),
        Scenario(
            name="several-groups-exit2-and-mark",
            hooks={"PreToolUse": [
                {"matcher": "Bash", "hooks": [cmd("echo 'group one blocks' >&2; exit 2")]},
                {"matcher": "*", "hooks": [cmd(mark("group-two"))]},
            ]},
            script=ONE_BASH,
        ),
        Scenario(
            name="several-post-contexts",
            hooks=on("PostToolUse",
                     cmd(say(specific("PostToolUse", additionalContext="context one"))),
                     cmd(later(say(specific("PostToolUse", additionalContext="context two"))))),
            script=ONE_BASH, deliberate=DELIBERATE_CONTEXTS,
        ),
        Scenario(
            name="several-updated-inputs",
            hooks=on("PreToolUse",
                     cmd(say(pre("allow", updatedInput={
                         "command": "echo first > first.txt", "description": "first"}))),
                     cmd(later(say(pre("allow", updatedInput={
                         "command": "echo second > second.txt", "description": "second"}))))),
            script=ONE_BASH, deliberate=CONFLICT_NOTICE,
        ),
        Scenario(
            name="several-identical-commands-run-once",
            hooks={"PreToolUse": [
                {"matcher": "Bash", "hooks": [cmd(mark("dedup"))]},
                {"matcher": "*", "hooks": [cmd(mark("dedup"))]},
            ]},
            script=ONE_BASH,
        ),
    ]


def _post_tool_use() -> list[Scenario]:
    def s(name, hooks, script=ONE_BASH, **kw):
        return Scenario(name=f"post-{name}", hooks=hooks, script=script, **kw)

    return [
        s("block-json",
          on("PostToolUse", cmd(say({"decision": "block", "reason": "output looks wrong"}))),
          deliberate=COMMAND_LABEL),
        s("exit2-stderr", on("PostToolUse", cmd("echo 'post says stop' >&2; exit 2")),
          deliberate=COMMAND_LABEL),
        s("exit1-stderr", on("PostToolUse", cmd("echo 'post failed softly' >&2; exit 1")),
          deliberate=FAILURE_NOTICE),
        s("additional-context",
          on("PostToolUse",
             cmd(say(specific("PostToolUse", additionalContext="the file is fine"))))),
        s("updated-tool-output",
          on("PostToolUse", cmd(say(specific("PostToolUse", updatedToolOutput={
              "stdout": "output replaced by the hook", "stderr": "", "interrupted": False,
              "isImage": False, "noOutputExpected": False}))))),
        s("continue-false",
          on("PostToolUse", cmd(say({"continue": False, "stopReason": "enough for today"})))),
        s("system-message", on("PostToolUse", cmd(say({"systemMessage": "post notice"})))),
        s("plain-stdout", on("PostToolUse", cmd("echo not for the model; " + mark("post")))),
        Scenario(
            name="post-failure-additional-context",
            hooks=on("PostToolUseFailure", cmd(say(specific(
                "PostToolUseFailure", additionalContext="the command failed, as expected")))),
            script=Script([[("Bash", {"command": "echo partial > partial.txt; exit 3",
                                      "description": "Fail on purpose"})], DONE]),
        ),
        s("write-tool-matcher",
          on("PostToolUse", cmd(say(specific("PostToolUse", additionalContext="Write happened"))),
             matcher="Write"),
          script=ONE_WRITE),
    ]


def _user_prompt_submit() -> list[Scenario]:
    def s(name, hooks, **kw):
        return Scenario(name=f"prompt-{name}", hooks=hooks, script=ONE_BASH, **kw)

    return [
        s("plain-stdout", on("UserPromptSubmit", cmd("echo prompt context from stdout")),
          mode_marks={"B-http": ("deliberate", PLAIN_CONTEXT_OVER_HTTP)}),
        s("additional-context",
          on("UserPromptSubmit",
             cmd(say(specific("UserPromptSubmit", additionalContext="prompt ctx"))))),
        s("block-json",
          on("UserPromptSubmit", cmd(say({"decision": "block", "reason": "not that prompt"})))),
        s("exit2-stderr", on("UserPromptSubmit", cmd("echo 'prompt refused' >&2; exit 2")),
          deliberate=PROMPT_REASON),
        s("continue-false",
          on("UserPromptSubmit", cmd(say({"continue": False, "stopReason": "no prompts now"})))),
        s("system-message", on("UserPromptSubmit", cmd(say({"systemMessage": "prompt noticed"})))),
        s("exit1-stderr", on("UserPromptSubmit", cmd("echo 'prompt hook broke' >&2; exit 1")),
          deliberate=FAILURE_NOTICE),
        s("timeout", on("UserPromptSubmit", cmd("echo late context; sleep 5", timeout=1)),
          deliberate=FAILURE_NOTICE),
        s("two-contexts",
          on("UserPromptSubmit",
             cmd(say(specific("UserPromptSubmit", additionalContext="prompt ctx one"))),
             cmd(later(say(specific("UserPromptSubmit", additionalContext="prompt ctx two"))))),
          deliberate=DELIBERATE_CONTEXTS),
    ]


def _session_start() -> list[Scenario]:
    def s(name, hooks, **kw):
        return Scenario(name=f"session-start-{name}", hooks=hooks, script=ONE_BASH, **kw)

    return [
        s("plain-stdout", on("SessionStart", cmd("echo session context from stdout"))),
        s("additional-context",
          on("SessionStart",
             cmd(say(specific("SessionStart", additionalContext="session ctx"))))),
        s("two-contexts",
          on("SessionStart", cmd(say(specific("SessionStart", additionalContext="ctx one"))),
             cmd(later(say(specific("SessionStart", additionalContext="ctx two")))))),
        s("exit2-not-blocking", on("SessionStart", cmd("echo 'cannot block a start' >&2; exit 2"))),
        s("matcher-startup", on("SessionStart", cmd(mark("startup")), matcher="startup")),
        s("matcher-resume-only", on("SessionStart", cmd(mark("resume")), matcher="resume")),
        s("system-message", on("SessionStart", cmd(say({"systemMessage": "welcome notice"})))),
    ]


def _stop() -> list[Scenario]:
    def once(name, then: str, **kw):
        """A Stop hook script that blocks the first stop with ``then`` (shell
        lines answering) and lets the second through."""
        return Scenario(
            name=f"stop-{name}",
            hooks=on("Stop", cmd('"$CLAUDE_PROJECT_DIR"/hooks/stop-once.sh')),
            script=STOP_TWICE, files={"hooks/stop-once.sh": STOP_ONCE + then}, **kw)

    def s(name, hooks, **kw):
        return Scenario(name=f"stop-{name}", hooks=hooks, script=STOP_TWICE, **kw)

    return [
        once("block-json-then-allow",
             say({"decision": "block", "reason": "run the checks once more"}) + "\n",
             deliberate=COMMAND_LABEL),
        once("exit2-then-allow", "echo 'not finished: check again' >&2\nexit 2\n",
             deliberate=STOP_EXIT2),
        once("additional-context-then-allow",
             say(specific("Stop", additionalContext="one more look")) + "\n"),
        s("continue-false",
          on("Stop", cmd(say({"continue": False, "stopReason": "stop right here"})))),
        s("exit1-stderr", on("Stop", cmd("echo 'stop hook broke' >&2; exit 1")),
          deliberate=FAILURE_NOTICE),
        s("missing-script-exit2", on("Stop", cmd('sh "$CLAUDE_PROJECT_DIR"/hooks/missing.sh')),
          deliberate=FAILURE_NOTICE),
    ]


def _permission_request() -> list[Scenario]:
    def s(name, hooks, **kw):
        return Scenario(name=f"permission-{name}", hooks=hooks,
                        script=Script([[BASH], DONE], permission_mode="default"), **kw)

    return [
        s("allow", on("PermissionRequest", cmd(say(permission("allow"))))),
        s("deny",
          on("PermissionRequest", cmd(say(permission("deny", message="not on my watch"))))),
        s("deny-interrupt",
          on("PermissionRequest",
             cmd(say(permission("deny", message="stop everything", interrupt=True))))),
        s("allow-updated-input",
          on("PermissionRequest", cmd(say(permission("allow", updatedInput={
              "command": "echo via permission > permitted.txt",
              "description": "Write permitted.txt"}))))),
        s("no-decision", on("PermissionRequest", cmd(mark("permission")))),
        s("exit2-has-no-effect",
          on("PermissionRequest", cmd("echo 'exit 2 is not a decision here' >&2; exit 2"))),
        s("matcher-does-not-select",
          on("PermissionRequest", cmd(say(permission("allow"))), matcher="Write")),
        Scenario(
            name="permission-pre-allow-skips-request",
            hooks={**on("PreToolUse", cmd(say(pre("allow", "pre allows")))),
                   **on("PermissionRequest", cmd(mark("permission")))},
            script=Script([[BASH], DONE], permission_mode="default"),
        ),
    ]


def _session_end() -> list[Scenario]:
    return [
        Scenario(name="session-end-mark", hooks=on("SessionEnd", cmd(mark("session-end"))),
                 script=ONE_BASH),
        Scenario(name="session-end-exit1",
                 hooks=on("SessionEnd", cmd("echo 'cleanup failed' >&2; exit 1")), script=ONE_BASH,
                 deliberate=SESSION_END),
    ]
