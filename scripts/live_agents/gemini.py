"""Gemini CLI in the live harness: the real CLI, offline, against a mock of the
Gemini API (``streamGenerateContent`` / ``generateContent``).

Each run gets its own ``HOME`` (= ``GEMINI_CLI_HOME``) whose
``.gemini/settings.json`` holds the hooks: the scenario's own hooks in modes A
and A2; in B one hookrun registration per event reading ``<run>/hooks.json``
(Gemini's own settings shape, ``{"hooks": ...}``), in B-toml the same reading
the TOML ``hookrun convert`` makes of that file.

The mock model answers by what the request contains, never by arrival order:
a conversation in which the model has not called a tool yet gets the
scenario's ``run_shell_command`` call; any later request gets the final text.
That keeps runs deterministic however many requests hooks cause (a blocked
tool, an AfterAgent retry).
"""
from __future__ import annotations

import json
import os
import re

from . import bounded, broken_config, common, http_config
from .common import RunResult, Scenario
from .gemini_scenarios import SCENARIOS, SCRIPT

AGENT = "gemini"

# Registration timeout of hookrun in B modes (Gemini counts milliseconds):
# generous, since hookrun enforces each hook's own timeout from the config.
HOOKRUN_TIMEOUT_MS = 120_000

# Lines Gemini prints on stderr in every run, whatever the hooks do.
_STDERR_NOISE = (
    "Warning: 256-color support not detected",
    "YOLO mode is enabled",
    "Ripgrep is not available",
    "[STARTUP] ",
)

# Volatile bits inside what the model is told / the user sees.
_CALL_ID = re.compile(r"\brun_shell_command_\d+_\d+\b")
_PGID = re.compile(r"Process Group PGID: \d+")
_TODAY = re.compile(r"Today's date is [^\n(]*")
# The names of failing hooks in Gemini's warnings are their commands: in B
# that is always the hookrun registration, so the names are replaced (the
# counts and the event stay compared).
_FAILED_NAMES = re.compile(r"(failed \(|Hook\(s\) \[)(.*?)(\), total duration|\] failed for event)")


def install(ctx) -> str | None:
    """Gemini CLI is one of the npm agents installed together."""
    return common.npm_install(ctx)


def scenarios() -> list[Scenario]:
    """The A/B scenarios, then the broken-config and http checks."""
    checks = broken_config.Agent(
        pre_event="BeforeTool",
        stop_event="AfterAgent",
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
            GEMINI_CLI_HOME=home,
            GOOGLE_GEMINI_BASE_URL=f"http://127.0.0.1:{server.port}",
            GEMINI_API_KEY="live-test-key",
            GEMINI_CLI_NO_RELAUNCH="true",
        )
        done = bounded.run_bounded(
            [
                "node",
                os.path.join(ctx.agents_dir, "node_modules", "@google", "gemini-cli", "bundle", "gemini.js"),
                "-m", "gemini-2.5-flash", "-p", sc.prompt, "--yolo", "--output-format", "json",
            ],
            cwd=project, env=env, timeout=sc.timeout, run_dir=run_dir,
        )
        exit_code, stdout, stderr = done.exit_code, done.stdout, done.stderr
        recorded = list(server.requests)

    return RunResult(
        exit_code=exit_code,
        output=_output(stdout, stderr),
        requests=[_reduce_request(r) for r in recorded if _is_generate_call(r["path"])],
        files={**common.snapshot_files(project), **common.home_files_left(sc, run_dir)},
        # The JSON stdout is in `output` already, less its stats.
        log=f"settings hooks: {json.dumps(hooks)}\nstderr:\n{stderr}",
    )


# --------------------------------------------------------------------------
# Configuration per mode


def _host_env() -> dict:
    """The harness's environment without the variables that configure Gemini,
    Claude Code or hookrun (a developer's API key, project dir or hookrun
    config must not leak into a run)."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith(("GEMINI_", "GOOGLE_", "CLAUDE_", "HOOKRUN_"))}


def _hooks_for_mode(ctx, sc: Scenario, mode: str, run_dir: str) -> tuple[dict, str | None]:
    """The ``hooks`` block of Gemini's settings for ``mode`` (or an error)."""
    if mode in ("A", "A2"):
        return sc.hooks, None
    if mode == common.OWN_CONFIG:
        registration = {"type": "command", "command": common.own_config_command(ctx, sc, run_dir),
                        "timeout": HOOKRUN_TIMEOUT_MS}
        return {event: [{"hooks": [registration]}] for event in sc.hooks}, None
    hooks_json = os.path.join(run_dir, "hooks.json")
    with open(hooks_json, "w") as f:
        json.dump({"hooks": sc.hooks}, f, indent=2)
    config = hooks_json
    if mode == "B-toml":
        config = os.path.join(run_dir, "hooks.toml")
        problem = common.convert_to_toml(ctx, hooks_json, config, "--config-format", "gemini")
        if problem:
            return {}, problem
    registration = {"type": "command",
                    "command": common.hookrun_command(ctx, config, "--config-format", "gemini"),
                    "timeout": HOOKRUN_TIMEOUT_MS}
    return {event: [{"hooks": [registration]}] for event in sc.hooks}, None


def _write_settings(home: str, hooks: dict) -> None:
    """``~/.gemini/settings.json``: API-key auth against the mock, no folder
    trust prompt (it would turn off --yolo and hooks), no usage statistics."""
    settings = {
        "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
        "privacy": {"usageStatisticsEnabled": False},
        "hooks": hooks,
    }
    os.makedirs(os.path.join(home, ".gemini"), exist_ok=True)
    with open(os.path.join(home, ".gemini", "settings.json"), "w") as f:
        json.dump(settings, f, indent=2)


# --------------------------------------------------------------------------
# The agent process


# --------------------------------------------------------------------------
# The mock model


def _answer(method: str, path: str, body, server) -> tuple[int, dict, bytes]:
    """Gemini API: a ``run_shell_command`` call until the model has made one,
    then the final text. Anything but a generate call gets ``{}``."""
    if not _is_generate_call(path):
        return 200, {"Content-Type": "application/json"}, b"{}"
    contents = body.get("contents", []) if isinstance(body, dict) else []
    script = server.state["script"]
    if _model_called_tool(contents):
        part = {"text": script["final"]}
    else:
        part = {"functionCall": {"name": "run_shell_command", "args": {"command": script["command"]}}}
    chunk = {
        "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
    }
    if "alt=sse" in path:
        return 200, {"Content-Type": "text/event-stream"}, common.sse([(None, chunk)])
    return 200, {"Content-Type": "application/json"}, json.dumps(chunk).encode()


def _is_generate_call(path: str) -> bool:
    """``:streamGenerateContent`` (the main loop) or ``:generateContent``."""
    return path.split("?", 1)[0].endswith(("GenerateContent", "generateContent"))


def _model_called_tool(contents: list) -> bool:
    return any(
        "functionCall" in part
        for content in contents if content.get("role") == "model"
        for part in content.get("parts", [])
    )


# --------------------------------------------------------------------------
# What a run showed


def _reduce_request(request: dict) -> dict:
    """What the model is told: the model and call, the conversation, and
    the generation / tool-choice settings (BeforeModel and
    BeforeToolSelection hooks can change them). The system prompt and the
    tool declarations are fixed by the CLI, so they are left out."""
    body = request["body"] if isinstance(request["body"], dict) else {}
    # "gemini-2.5-flash:streamGenerateContent": the model and the kind of call.
    call = request["path"].split("/models/", 1)[-1].split("?", 1)[0]
    reduced = {"call": call, "contents": _scrub(body.get("contents", []))}
    for key in ("generationConfig", "toolConfig"):
        if key in body:
            reduced[key] = body[key]
    return reduced


def _scrub(value):
    """Tool-call ids (they carry a timestamp), process group ids and the
    long-form date out of every string."""
    if isinstance(value, str):
        value = _CALL_ID.sub("<CALL-ID>", value)
        value = _PGID.sub("Process Group PGID: <PGID>", value)
        return _TODAY.sub("Today's date is <TODAY> ", value)
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    if isinstance(value, dict):
        return {k: _scrub(v) for k, v in value.items()}
    return value


def _output(stdout: str, stderr: str) -> dict:
    """The JSON output's ``response`` and ``error`` (not the session id or
    the stats: durations, token counts) and what the user sees on stderr
    about hooks and tools (the fixed banner lines dropped)."""
    out: dict = {}
    try:
        parsed = json.loads(stdout)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        for key in ("response", "error"):
            if key in parsed:
                out[key] = parsed[key]
    else:
        out["stdout"] = stdout.strip()
    out["stderr"] = [
        _FAILED_NAMES.sub(r"\1<HOOKS>\3", _scrub(line.rstrip()))
        for line in stderr.splitlines()
        if line.strip() and not line.startswith(_STDERR_NOISE)
    ]
    return out
