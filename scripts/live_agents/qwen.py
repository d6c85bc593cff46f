"""Qwen Code in the live harness: the real CLI, offline, against a mock of an
OpenAI-compatible chat completions API (``POST /v1/chat/completions``, SSE).

Each run gets its own ``HOME`` whose ``.qwen/settings.json`` holds the hooks:
the scenario's own hooks in modes A and A2; in B one hookrun registration per
event reading ``<run>/settings.json`` (Qwen Code's own settings shape,
``{"hooks": ...}``), in B-toml the same reading the TOML ``hookrun convert``
makes of that file.

The mock model answers by what the request contains, never by arrival order:
a conversation in which the model has not called a tool yet gets the
scenario's ``run_shell_command`` call; any later request gets the final text.
That keeps runs deterministic however many requests hooks cause (a blocked
tool, a Stop hook's continuation).

What the model is told is the conversation (the ``messages`` after the
system prompt) and, from the system prompt, only the block a SessionStart
hook's context is put in (``<qwen:session-start-context>``): the rest of the
system prompt is fixed by the CLI.
"""
from __future__ import annotations

import json
import os
import re

from . import bounded, broken_config, common, http_config
from .common import RunResult, Scenario
from .qwen_scenarios import SCENARIOS, SCRIPT

AGENT = "qwen"

# Registration timeout of hookrun in B modes, in seconds (Qwen Code reads a
# value of 1000 or more as milliseconds): generous, since hookrun enforces
# each hook's own timeout from the config.
HOOKRUN_TIMEOUT_S = 120

# What the registered hookrun command is told besides its config: the config
# format of the settings-shaped hooks file.
CONFIG_ARGS = ("--config-format", "qwen")
# Qwen Code's payloads carry Claude Code's event names: every registration
# names the dialect, as `hookrun install --agent qwen` writes it.
DIALECT_ARGS = ("--dialect", "qwen")

# The settings schema version Qwen Code 0.24.4 migrates a settings file to
# (it rewrites a file without it on start).
SETTINGS_VERSION = 4

# Lines Qwen Code prints on stderr in every run, whatever the hooks do.
_STDERR_NOISE = (
    "Ripgrep not available",
    "Warning: running headless with --yolo",
)

# Volatile bits inside what the model is told / the user sees.
_TODAY = re.compile(r"(Today's date is|The current date is:) [A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}")
_SESSION_START = re.compile(r"<qwen:session-start-context[^>]*>.*?</qwen:session-start-context>", re.S)
# Keys of the JSON output's messages that change from run to run.
_VOLATILE_KEYS = {"uuid", "session_id", "id", "usage", "stats", "duration_ms", "duration_api_ms"}


def install(ctx) -> str | None:
    """Qwen Code is one of the npm agents installed together."""
    return common.npm_install(ctx)


def scenarios() -> list[Scenario]:
    """The A/B scenarios, then the broken-config and http checks."""
    checks = broken_config.Agent(
        pre_event="PreToolUse",
        stop_event="Stop",
        rm_script={"command": broken_config.RM_MARKER, "final": "done"},
        stop_script=SCRIPT,
        # The tool call, the answer, and at most one continuation.
        max_stop_requests=3,
    )
    return list(SCENARIOS) + broken_config.scenarios(checks) + http_config.scenarios(checks)


def run(ctx, sc: Scenario, mode: str, run_dir: str) -> RunResult:
    project = os.path.join(run_dir, "project")
    home = os.path.join(run_dir, "home")
    common.write_files(project, sc.files)

    hooks, problem = _hooks_for_mode(ctx, sc, mode, run_dir)
    if problem:
        return RunResult(-1, None, [], {}, error=problem)
    _write_settings(home, hooks)

    with common.MockServer(_answer) as server:
        server.state["script"] = sc.script
        env = dict(
            _host_env(),
            HOME=home,
            OPENAI_BASE_URL=f"http://127.0.0.1:{server.port}/v1",
            OPENAI_API_KEY="live-test-key",
            OPENAI_MODEL="mock-model",
            QWEN_CODE_SUPPRESS_YOLO_WARNING="1",
        )
        done = bounded.run_bounded(
            [
                "node",
                os.path.join(ctx.agents_dir, "node_modules", "@qwen-code", "qwen-code", "cli-entry.js"),
                "--approval-mode", "yolo", "--output-format", "json", "-p", sc.prompt,
            ],
            cwd=project, env=env, timeout=sc.timeout, run_dir=run_dir,
        )
        exit_code, stdout, stderr = done.exit_code, done.stdout, done.stderr
        recorded = list(server.requests)

    return RunResult(
        exit_code=exit_code,
        output=_output(stdout, stderr),
        requests=[_reduce_request(r) for r in recorded if _is_chat_call(r["path"])],
        files={**common.snapshot_files(project), **common.home_files_left(sc, run_dir)},
        log=f"settings hooks: {json.dumps(hooks)}\nstderr:\n{stderr}",
    )


# --------------------------------------------------------------------------
# Configuration per mode


def _host_env() -> dict:
    """The harness's environment without the variables that configure Qwen
    Code, its OpenAI-compatible provider, the other agents or hookrun (a
    developer's API key, home or hookrun config must not leak into a run)."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith(("QWEN_", "OPENAI_", "DASHSCOPE_", "GEMINI_", "GOOGLE_",
                                 "CLAUDE_", "ANTHROPIC_", "HOOKRUN_"))}


def _hooks_for_mode(ctx, sc: Scenario, mode: str, run_dir: str) -> tuple[dict, str | None]:
    """The ``hooks`` block of Qwen Code's settings for ``mode`` (or an error)."""
    if mode in ("A", "A2"):
        return sc.hooks, None
    if mode == common.OWN_CONFIG:
        registration = {"type": "command",
                        "command": common.own_config_command(ctx, sc, run_dir, *DIALECT_ARGS),
                        "timeout": HOOKRUN_TIMEOUT_S}
        return {event: [{"hooks": [registration]}] for event in sc.hooks}, None
    settings_json = os.path.join(run_dir, "settings.json")
    with open(settings_json, "w") as f:
        json.dump({"hooks": sc.hooks}, f, indent=2)
    config = settings_json
    if mode == "B-toml":
        config = os.path.join(run_dir, "hooks.toml")
        problem = common.convert_to_toml(ctx, settings_json, config, *CONFIG_ARGS)
        if problem:
            return {}, problem
    registration = {"type": "command",
                    "command": common.hookrun_command(ctx, config, *DIALECT_ARGS, *CONFIG_ARGS),
                    "timeout": HOOKRUN_TIMEOUT_S}
    return {event: [{"hooks": [registration]}] for event in sc.hooks}, None


def _write_settings(home: str, hooks: dict) -> None:
    """``~/.qwen/settings.json``: the hooks, at the schema version Qwen Code
    would migrate the file to. Auth needs no setting: OPENAI_API_KEY,
    OPENAI_BASE_URL and OPENAI_MODEL select the OpenAI-compatible provider.
    Folder trust is off by default, so project hooks and yolo stay on."""
    settings = {"$version": SETTINGS_VERSION, "hooks": hooks}
    os.makedirs(os.path.join(home, ".qwen"), exist_ok=True)
    with open(os.path.join(home, ".qwen", "settings.json"), "w") as f:
        json.dump(settings, f, indent=2)


# --------------------------------------------------------------------------
# The mock model


def _answer(method: str, path: str, body, server) -> tuple[int, dict, bytes]:
    """Chat completions: a ``run_shell_command`` call until the model has
    made one, then the final text. Anything else gets ``{}``."""
    if not _is_chat_call(path):
        return 200, {"Content-Type": "application/json"}, b"{}"
    messages = body.get("messages", []) if isinstance(body, dict) else []
    script = server.state["script"]
    if _model_called_tool(messages):
        message = {"role": "assistant", "content": script["final"]}
        finish = "stop"
    else:
        message = {"role": "assistant", "content": None, "tool_calls": [{
            "id": "call_live_1", "type": "function",
            "function": {"name": "run_shell_command", "arguments": json.dumps({"command": script["command"]})},
        }]}
        finish = "tool_calls"
    usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
    if isinstance(body, dict) and body.get("stream"):
        delta = dict(message)
        if "tool_calls" in delta:
            delta["tool_calls"] = [dict(call, index=i) for i, call in enumerate(delta["tool_calls"])]
        base = {"id": "chatcmpl-live", "object": "chat.completion.chunk", "created": 1, "model": "mock-model"}
        events = [
            (None, {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}),
            (None, {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}], "usage": usage}),
        ]
        return 200, {"Content-Type": "text/event-stream"}, common.sse(events) + b"data: [DONE]\n\n"
    reply = {"id": "chatcmpl-live", "object": "chat.completion", "created": 1, "model": "mock-model",
             "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": usage}
    return 200, {"Content-Type": "application/json"}, json.dumps(reply).encode()


def _is_chat_call(path: str) -> bool:
    return path.split("?", 1)[0].endswith("/chat/completions")


def _model_called_tool(messages: list) -> bool:
    return any(m.get("role") == "assistant" and m.get("tool_calls") for m in messages)


# --------------------------------------------------------------------------
# What a run showed


def _reduce_request(request: dict) -> dict:
    """What the model is told: the model, the conversation after the system
    prompt, and the SessionStart context blocks of the system prompt. The
    tool declarations are fixed by the CLI, so they are left out."""
    body = request["body"] if isinstance(request["body"], dict) else {}
    messages = body.get("messages", [])
    system = "".join(_text_of(m.get("content")) for m in messages if m.get("role") == "system")
    return {
        "model": body.get("model"),
        "session_start_context": _SESSION_START.findall(system),
        "messages": _scrub([m for m in messages if m.get("role") != "system"]),
    }


def _text_of(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def _scrub(value):
    """The long-form dates out of every string."""
    if isinstance(value, str):
        return _TODAY.sub(r"\1 <TODAY>", value)
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    if isinstance(value, dict):
        return {k: _scrub(v) for k, v in value.items()}
    return value


def _output(stdout: str, stderr: str) -> dict:
    """The JSON output's messages and result less their ids, usage and stats
    (the session's init message, which lists tools, skills and versions, is
    left out), and what the user sees on stderr (the fixed lines dropped)."""
    out: dict = {}
    try:
        parsed = json.loads(stdout)
    except ValueError:
        parsed = None
    if isinstance(parsed, list):
        out["messages"] = [_strip(m) for m in parsed
                           if isinstance(m, dict) and not (m.get("type") == "system" and m.get("subtype") == "init")]
    else:
        out["stdout"] = stdout.strip()
    out["stderr"] = [
        _scrub(line.rstrip()) for line in stderr.splitlines()
        if line.strip() and not line.startswith(_STDERR_NOISE)
    ]
    return out


def _strip(value):
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in _VOLATILE_KEYS}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return _scrub(value)
