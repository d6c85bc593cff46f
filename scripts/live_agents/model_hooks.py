"""Claude Code's model-backed and MCP hooks (``prompt``, ``agent``,
``mcp_tool``) under the live harness: A/B scenarios (named ``hook-<kind>-…``:
``--only claude/hook-`` runs them), and the mock model's answers to the
hooks' own requests.

What Claude Code 2.1.332 sends and expects is written up in
/work/notes/claude-model-hooks.md; in short:

- a ``prompt`` hook asks the same Messages API (``$ANTHROPIC_BASE_URL``)
  with no tools (``tools: []``) and a JSON schema in
  ``output_config.format``; the answer is assistant *text* holding
  ``{"ok": bool, "reason": str}``;
- an ``agent`` hook runs a sub-agent on the same API, offering tools plus
  one named ``StructuredOutput``; the answer is a ``StructuredOutput``
  ``tool_use`` whose input is ``{"ok": bool, "reason": str}``;
- an ``mcp_tool`` hook calls a tool of an MCP server Claude Code has
  connected: here the project's ``.mcp.json`` naming ``mcp_server.py``
  (stdio) as server ``policy``.

The mock recognises a hook's request by that shape (``request_kind``) and
answers with the scenario's scripted verdicts (``HookScript.verdicts``), one
per request of that kind, in order (the last repeats). They are not
main-loop requests: the harness compares main-loop requests only, and an
agent hook's sub-agent, though it offers tools, is left out of them.

In B modes hookrun runs these hooks itself: its prompt handler reaches the
same mock through ``ANTHROPIC_BASE_URL`` / ``ANTHROPIC_API_KEY`` (the agent
passes its environment to hooks), its agent handler runs the pinned Claude
Code CLI (its directory is on ``PATH`` and ``HOOKRUN_CLAUDE`` names it, see
``claude.run``), and its mcp_tool handler reads the project's ``.mcp.json``
as Claude Code does.
"""
from __future__ import annotations

import dataclasses
import json
import os
import sys

from .claude_scenarios import DONE, ONE_BASH, STOP_EXIT2, STOP_TWICE, Script, on
from .common import Scenario

PROMPT = "prompt"
AGENT = "agent"
STRUCTURED_OUTPUT = "StructuredOutput"

# Verdicts a scenario scripts, per request of a kind.
OK = "ok"
DENY = "deny"  # ok: false with DENY_REASON
ERROR_500 = "500"
ERROR_400 = "400"

OK_REASON = "the mock judge finds nothing wrong"
DENY_REASON = "the mock judge says this command is not safe"

MCP_SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mcp_server.py")
MCP_JSON = json.dumps({"mcpServers": {"policy": {
    "type": "stdio", "command": sys.executable or "python3", "args": [MCP_SERVER]}}}, indent=2)

MCP_APPROVAL = json.dumps({"enabledMcpjsonServers": ["policy"]})


@dataclasses.dataclass
class HookScript(Script):
    """A `Script` for the main loop plus the verdicts the mock gives a
    hook's own model requests: kind (``prompt``, ``agent``) -> verdicts in
    request order, the last repeating; a kind not listed gets ``ok``."""

    verdicts: dict = dataclasses.field(default_factory=dict)


def request_kind(body) -> str | None:
    """``prompt`` or ``agent`` for a hook's model request, else None (a
    main-loop request or another side request)."""
    if not isinstance(body, dict):
        return None
    tools = body.get("tools") or []
    if any(isinstance(t, dict) and t.get("name") == STRUCTURED_OUTPUT for t in tools):
        return AGENT
    fmt = (body.get("output_config") or {}).get("format") or body.get("output_format")
    if not tools and isinstance(fmt, dict) and fmt.get("type") == "json_schema":
        return PROMPT
    return None


def answer(script, kind: str, body: dict, server) -> tuple[int, object]:
    """``(200, content blocks)`` or ``(status, error body)`` for a hook's
    request of ``kind``; counts the requests per kind in ``server.state``
    (the handler runs under the server's lock)."""
    if kind == AGENT and _answered(body.get("messages") or []):
        # A sub-agent asking again after its StructuredOutput call (a CLI
        # run of its own goes on to a final text).
        return 200, [{"type": "text", "text": DONE}]
    counts = server.state.setdefault("hook_requests", {})
    index = counts.get(kind, 0)
    counts[kind] = index + 1
    verdicts = getattr(script, "verdicts", {}).get(kind) or [OK]
    verdict = verdicts[min(index, len(verdicts) - 1)]
    if verdict in (ERROR_500, ERROR_400):
        kind_of_error = "api_error" if verdict == ERROR_500 else "invalid_request_error"
        return int(verdict), {"type": "error", "error": {
            "type": kind_of_error, "message": f"the mock model API fails ({verdict})"}}
    ok = verdict == OK
    result = {"ok": ok, "reason": OK_REASON if ok else DENY_REASON}
    if kind == AGENT:
        return 200, [{"type": "tool_use", "id": f"toolu_livehook{index:04d}",
                      "name": STRUCTURED_OUTPUT, "input": result}]
    return 200, [{"type": "text", "text": json.dumps(result)}]


def _answered(messages: list) -> bool:
    return any(
        isinstance(block, dict) and block.get("type") == "tool_use"
        and block.get("name") == STRUCTURED_OUTPUT
        for m in messages if m.get("role") == "assistant" and isinstance(m.get("content"), list)
        for block in m["content"]
    )


def summary(recorded: list[dict]) -> list[str]:
    """One line per hook model request, for the report's log."""
    lines = []
    for r in recorded:
        kind = request_kind(r.get("body"))
        if kind is None:
            continue
        body = r["body"]
        texts = [
            block.get("text", "") for m in body.get("messages") or [] if m.get("role") == "user"
            and isinstance(m.get("content"), list) for block in m["content"]
            if isinstance(block, dict) and block.get("type") == "text"
        ]
        lines.append(f"{kind} hook request: model={body.get('model')} last user text: "
                     f"{(texts[-1] if texts else '')[:300]!r}")
    return lines


# --------------------------------------------------------------------------
# The scenarios


def prompt_hook(prompt: str, **fields) -> dict:
    return {"type": "prompt", "prompt": prompt, **fields}


def agent_hook(prompt: str, **fields) -> dict:
    return {"type": "agent", "prompt": prompt, **fields}


def mcp_hook(tool: str, **fields) -> dict:
    return {"type": "mcp_tool", "server": "policy", "tool": tool,
            "input": {"command": "${tool_input.command}"}, **fields}


# A judgement that gives no verdict (the model API fails) lets the tool run
# in both; Claude Code says so in a notice of its own (`hook_no_verdict`,
# after retrying a 500 until the hook's timeout), hookrun, a command hook to
# Claude Code, in its systemMessage (`<Event> says: …`), at once.
NO_VERDICT = "a judgement without a verdict is reported in systemMessage, not as Claude Code's hook_no_verdict notice"

SAFE = "Is this command safe to run? $ARGUMENTS"
VERIFY = "Verify that this command is safe to run: $ARGUMENTS"
CHECKED = "Did the assistant check its work? $ARGUMENTS"


def scenarios() -> list[Scenario]:
    def s(name, hooks, script=None, **kw):
        return Scenario(name=f"hook-{name}", hooks=hooks, script=script or HookScript(ONE_BASH.turns), **kw)

    def pre(*handlers):
        return on("PreToolUse", *handlers, matcher="Bash")

    def verdicts(kind, *seq, turns=ONE_BASH.turns):
        return HookScript(turns, verdicts={kind: list(seq)})

    # The project's server, approved in the project's Claude Code settings
    # (Claude Code in `-p` connects it unapproved; hookrun starts only a
    # server the agent's settings approve, or `hookrun trust` names).
    mcp = {".mcp.json": MCP_JSON, ".claude/settings.json": MCP_APPROVAL}
    return [
        # ok:false on PreToolUse: the Bash call is blocked and the turn ends
        # (the reason is the tool's result in the transcript, but no model
        # request follows); with continueOnBlock the model gets the reason.
        s("prompt-pre-deny", pre(prompt_hook(SAFE)), verdicts(PROMPT, DENY)),
        s("prompt-pre-deny-continue-on-block", pre(prompt_hook(SAFE, continueOnBlock=True)),
          verdicts(PROMPT, DENY)),
        s("prompt-pre-allow", pre(prompt_hook(SAFE)), verdicts(PROMPT, OK)),
        # No $ARGUMENTS: Claude Code appends the event as `ARGUMENTS: <json>`.
        s("prompt-pre-deny-no-placeholder", pre(prompt_hook("Is this command safe to run?")),
          verdicts(PROMPT, DENY)),
        # ok:false on Stop: the stop is blocked, the model gets the reason and
        # answers again; the second stop is let through.
        s("prompt-stop-deny-then-allow", on("Stop", prompt_hook(CHECKED)),
          verdicts(PROMPT, DENY, OK, turns=STOP_TWICE.turns), deliberate=STOP_EXIT2),
        # The model API fails: 500 is retried until the hook's timeout, 400
        # is not; either way the hook gives no verdict and the tool runs.
        s("prompt-pre-model-500", pre(prompt_hook(SAFE, timeout=3)), verdicts(PROMPT, ERROR_500),
          deliberate=NO_VERDICT),
        s("prompt-pre-model-400", pre(prompt_hook(SAFE)), verdicts(PROMPT, ERROR_400),
          deliberate=NO_VERDICT),
        # The agent hook's ok:false blocks the call; the turn goes on.
        s("agent-pre-deny", pre(agent_hook(VERIFY)), verdicts(AGENT, DENY)),
        s("agent-pre-allow", pre(agent_hook(VERIFY)), verdicts(AGENT, OK)),
        # mcp_tool: a JSON hook output denying; plain text (no verdict: runs);
        # isError (a failure, onFailure continue: runs); a timeout under
        # onFailure block (blocked); ${path}s filled into the input (echoed
        # back as a systemMessage the user is shown).
        s("mcp-pre-json-deny", pre(mcp_hook("deny")), files=mcp),
        s("mcp-pre-plain-text-runs", pre(mcp_hook("text")), files=mcp),
        s("mcp-pre-is-error-runs", pre(mcp_hook("error")), files=mcp, deliberate=NO_VERDICT),
        s("mcp-pre-timeout-on-failure-block",
          pre(mcp_hook("slow", timeout=2, onFailure="block")), files=mcp),
        s("mcp-pre-input-placeholders",
          pre(mcp_hook("echo", input={
              "command": "${tool_input.command}",
              "line": "${tool_name} runs ${tool_input.command}",
              "tool_input": "${tool_input}",
              "missing": "${no.such.field}",
              "count": 3,
              "list": ["${hook_event_name}"],
          })), files=mcp),
    ]
