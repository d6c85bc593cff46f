"""Claude Code (the native binary of @anthropic-ai/claude-code) driven offline
against a mock of the Anthropic Messages API.

Mode A puts the scenario's hooks block into the settings file given with
``--settings``; mode B registers ``hookrun run --config hooks.json`` (the same
block, unchanged) as the only hook of every event the scenario uses; B-toml
does the same with the TOML ``hookrun convert`` makes of hooks.json. B-http
starts ``hookrun serve --http`` on hooks.json (serve_http.py) and registers
Claude Code's own ``http`` handler, posting to it, on every event the scenario
uses (``register_http``); Claude Code runs no http hook on SessionStart and
Setup, which keep B's command, so a scenario with hooks on those events only
is not run in B-http.

The mock answers by conversation content, not by arrival order: what the
assistant already said in a request's ``messages`` picks the scenario's next
turn, so a Stop continuation simply gets the next scripted turn.

What is compared:

- ``requests``: for each main-loop request (one offering tools, but an
  agent hook's sub-agent's: see ``model_hooks``) the
  ``messages`` array, which carries everything hooks can add: tool results,
  hook context (in the system-role message Claude Code puts after the prompt),
  reminders, Stop feedback. ``cache_control`` markers are dropped;
- ``output``: the final ``result`` message (text, subtype, is_error, turns,
  stop reasons, denied tools), every user-visible notice the stream carries
  (``system`` lines other than the per-hook start/response events, whose
  command names naturally differ between A and B) and Claude Code's stderr;
- ``exit_code`` and the files left in the project directory (but the
  scenario's own hook scripts).
"""
from __future__ import annotations

import contextlib
import json
import os
import subprocess
import time

from . import (
    bounded,
    broken_config,
    claude_install,
    claude_plugin,
    claude_scenarios,
    common,
    http_config,
    model_hooks,
    serve_http,
)
from .claude_scenarios import DONE, Script
from .common import MockServer, RunResult, Scenario

AGENT = "claude"

# Stream-json `system` subtypes that are bookkeeping, not something the user is
# shown: the session header and the per-hook start/response events (their
# hook names and commands differ between A and B by construction).
_BOOKKEEPING_SUBTYPES = {"init", "hook_started", "hook_progress", "hook_response"}

# Fields of the final `result` message that tell how the run ended; the rest
# (cost, token counts, latencies, model usage) is volatile.
_RESULT_FIELDS = ("subtype", "is_error", "result", "num_turns", "stop_reason", "terminal_reason")

# Keys dropped wherever they appear in a stream line or a request message:
# ids and timestamps that change every run, and prompt-caching markers.
_VOLATILE_KEYS = {"uuid", "session_id", "timestamp", "cache_control", "tool_use_id", "id"}


def binary(ctx) -> str:
    return os.path.join(
        ctx.agents_dir, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude"
    )


# A broken hookrun config as the only hook (scripts/live_agents/broken_config.py).
BROKEN_CONFIG = broken_config.Agent(
    pre_event="PreToolUse",
    stop_event="Stop",
    rm_script=Script([[("Bash", {"command": broken_config.RM_MARKER,
                                 "description": "Delete the marker"})], DONE]),
    stop_script=Script([DONE, "Checked again, all done."]),
    max_stop_requests=2,
)


# Events Claude Code runs no http hook on (it skips them): `install --url`
# registers `hookrun forward` there.
NO_HTTP_EVENTS = ("SessionStart", "Setup")
# The variable holding the bearer token of the B-http server, in Claude
# Code's environment (its http handler's `allowedEnvVars`).
TOKEN_ENV = "HOOKRUN_TOKEN"
# The registration timeout of hookrun's one hook in B modes (seconds): the
# scenario's own timeouts are enforced by hookrun from the config.
HOOKRUN_TIMEOUT = 600


def scenarios() -> list[Scenario]:
    """The A/B scenarios (in B-http too, but those it cannot compare), then
    the plugin, install and broken-config checks."""
    ab = serve_http.with_mode(
        claude_scenarios.scenarios() + model_hooks.scenarios(), serve_http.HTTP, _http_exclusion)
    return (ab + claude_plugin.scenarios() + claude_install.scenarios()
            + broken_config.scenarios(BROKEN_CONFIG) + http_config.scenarios(BROKEN_CONFIG))


def _http_exclusion(sc: Scenario) -> str | None:
    """Why ``sc`` cannot be compared in B-http, or None."""
    if all(event in NO_HTTP_EVENTS for event in sc.hooks):
        return ("its hooks are on SessionStart / Setup only, where Claude Code runs no http hook:"
                " B-http would run a command hook there, as B does")
    return None


def install(ctx) -> str | None:
    problem = common.npm_install(ctx)
    if problem:
        return problem
    if not os.access(binary(ctx), os.X_OK):
        return f"{binary(ctx)} is missing or not executable"
    return None


# --------------------------------------------------------------------------
# Running one scenario in one mode


def run(ctx, sc: Scenario, mode: str, run_dir: str) -> RunResult:
    project = os.path.join(run_dir, "project")
    home = os.path.join(run_dir, "home")
    script: Script = sc.script
    common.write_files(project, sc.files)

    # Claude Code keeps a directory per project under its temp dir; inside the
    # run directory it goes away with the run.
    tmp = os.path.join(run_dir, "tmp")
    os.makedirs(tmp)
    # The pinned CLI is on PATH (and named by HOOKRUN_CLAUDE) in every mode:
    # hookrun's agent handler runs it in B modes; A runs its hooks in-process.
    env = {
        "PATH": os.path.dirname(binary(ctx)) + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"),
        "HOOKRUN_CLAUDE": binary(ctx),
        "HOME": home,
        "LANG": "C.UTF-8",
        "CLAUDE_CODE_TMPDIR": tmp,
        "ANTHROPIC_API_KEY": "sk-live-harness",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "IS_SANDBOX": "1",
        **common.telemetry_env(),
    }
    settings_path = os.path.join(run_dir, "settings.json")
    if mode == claude_plugin.MODE:
        problem = claude_plugin.prepare(ctx, sc, run_dir, env, binary(ctx), settings_path)
    elif mode == claude_install.MODE:
        problem = claude_install.prepare(ctx, sc, run_dir, env, settings_path)
    elif mode == serve_http.HTTP:
        problem = None  # once the mock listens: the server's hooks reach it too
    else:
        problem = _write_settings(ctx, sc, mode, run_dir, settings_path)
    if problem:
        return RunResult(-1, None, [], {}, error=problem)

    with contextlib.ExitStack() as stack:
        server = stack.enter_context(MockServer(_mock_handler(script, project)))
        env["ANTHROPIC_BASE_URL"] = f"http://127.0.0.1:{server.port}"
        hook_server = None
        if mode == serve_http.HTTP:
            hook_server = stack.enter_context(_http_server(ctx, sc, run_dir, env, settings_path))
        argv = [
            binary(ctx), "-p", sc.prompt, "--settings", settings_path,
            "--output-format", "stream-json", "--verbose", "--include-hook-events",
            "--no-session-persistence",
        ]
        if script.permission_mode == "bypassPermissions":
            argv.append("--dangerously-skip-permissions")
        else:
            argv += ["--permission-mode", script.permission_mode]
        started = time.monotonic()
        done = bounded.run_bounded(argv, project, env, sc.timeout, run_dir,
                                   spare=hook_server.pids if hook_server else None)
        exit_code, stdout, stderr, timed_out = done.exit_code, done.stdout, done.stderr, done.timed_out
        seconds = time.monotonic() - started
        recorded = list(server.requests)

    lines = _parse_stream(stdout)
    log = _log(mode, exit_code, seconds, stderr, lines, recorded)
    if hook_server:
        log += "\n--- hookrun serve\n" + hook_server.log
        if hook_server.problems:
            return RunResult(exit_code, None, [], {}, log=log, error="\n".join(hook_server.problems))
    if timed_out:
        return RunResult(exit_code, None, [], {}, log=log,
                         error=f"claude did not finish within {sc.timeout:.0f}s")
    return RunResult(
        exit_code=exit_code,
        output=_output(lines, stderr),
        requests=[_reduce_request(r["body"]) for r in _main_loop(recorded)],
        files={**common.snapshot_files(project, skip=tuple(sc.files)),
               **common.home_files_left(sc, run_dir)},
        log=log,
    )


def _write_settings(ctx, sc: Scenario, mode: str, run_dir: str, path: str) -> str | None:
    """Settings for the mode: the hooks themselves (A, A2) or one hookrun
    registration per event they use (B: the hooks file as is; B-toml: its
    conversion). Returns an error text or None."""
    if mode in ("A", "A2"):
        hooks = sc.hooks
    elif mode == common.OWN_CONFIG:
        command = common.own_config_command(ctx, sc, run_dir)
        hooks = {
            event: [{"hooks": [{"type": "command", "command": command, "timeout": 600}]}]
            for event in sc.hooks
        }
    else:
        config = _hooks_file(sc, run_dir)
        if mode == "B-toml":
            toml = os.path.join(run_dir, "hooks.toml")
            problem = common.convert_to_toml(ctx, config, toml)
            if problem:
                return problem
            config = toml
        command = common.hookrun_command(ctx, config)
        hooks = {
            event: [{"hooks": [{"type": "command", "command": command, "timeout": HOOKRUN_TIMEOUT}]}]
            for event in sc.hooks
        }
    with open(path, "w") as f:
        json.dump({"hooks": hooks}, f, indent=2)
    return None


def _hooks_file(sc: Scenario, run_dir: str) -> str:
    """The scenario's hooks block as a settings file of its own, the config
    of the B modes; returns its path."""
    config = os.path.join(run_dir, "hooks.json")
    with open(config, "w") as f:
        json.dump({"hooks": sc.hooks}, f, indent=2)
    return config


@contextlib.contextmanager
def _http_server(ctx, sc: Scenario, run_dir: str, env: dict, settings_path: str):
    """B-http: ``hookrun serve --http`` on B's config, with the environment
    and working directory B's hook has (Claude Code adds
    ``CLAUDE_PROJECT_DIR``), registered by ``register_http``; Claude Code
    gets the token in ``TOKEN_ENV``. Yields the running server."""
    config = _hooks_file(sc, run_dir)
    project = os.path.join(run_dir, "project")
    server_env = {**env, "CLAUDE_PROJECT_DIR": project}
    with serve_http.Server(ctx.hookrun, ["--config", config], server_env, project, run_dir) as hook_server:
        env[TOKEN_ENV] = hook_server.token
        register_http(ctx, env, project, config, hook_server.url, settings_path)
        yield hook_server


def register_http(ctx, env: dict, project: str, config: str, url: str, settings_path: str) -> None:
    """The one place B-http registers hookrun: ``hookrun install --agent
    claude --url URL --token-env TOKEN_ENV --config CONFIG`` run as a user
    runs it (the run's HOME, in the project), its user settings file then
    moved to ``settings_path``, the file the run gives Claude Code. What
    install writes is what Claude Code runs: an ``http`` handler per event,
    ``hookrun forward`` on SessionStart and Setup."""
    done = subprocess.run(
        [ctx.hookrun, "install", "--agent", "claude", "--scope", "user", "--config", config,
         "--url", url, "--token-env", TOKEN_ENV],
        cwd=project, env=env, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise RuntimeError(f"hookrun install --url failed ({done.returncode}): {done.stderr}")
    written = os.path.join(env["HOME"], ".claude", "settings.json")
    os.replace(written, settings_path)


def _log(mode, exit_code, seconds, stderr, lines, recorded) -> str:
    """For the report: the stream without its two bulky lines (the session
    header and the usage-laden result), each line cut short."""
    shown = [
        json.dumps(line)[:700] for line in lines
        if line.get("subtype") != "init" and line.get("type") != "result"
    ]
    side = len(recorded) - len(_main_loop(recorded))
    return (
        f"mode {mode}: exit {exit_code} in {seconds:.1f}s, {side} side requests\n"
        f"stderr: {stderr.strip()}\n" + "\n".join(model_hooks.summary(recorded) + shown)
    )


# --------------------------------------------------------------------------
# The mock Messages API


def _mock_handler(script: Script, project: str):
    """The handler for `MockServer`: a prompt or agent hook's own request
    gets the scenario's verdict (``model_hooks``); main-loop requests the
    scenario's turn for the conversation so far; other model requests a
    short text; count_tokens a count; anything else `200 {}`."""

    def handler(method, path, body, server):
        route = path.split("?")[0]
        if route == "/v1/messages/count_tokens":
            return _json(200, {"input_tokens": 42})
        if route != "/v1/messages" or not isinstance(body, dict):
            return _json(200, {})
        model = body.get("model", "claude-mock")
        kind = model_hooks.request_kind(body)
        if kind is not None:
            status, blocks = model_hooks.answer(script, kind, body, server)
            if status != 200:
                return _json(status, blocks)
        elif body.get("tools"):
            blocks = script.answer(body.get("messages", []), project)
        else:
            blocks = [{"type": "text", "text": "ok"}]
        if body.get("stream"):
            return 200, {"Content-Type": "text/event-stream"}, common.sse(_events(model, blocks))
        return _json(200, _message(model, blocks))

    return handler


def _json(status: int, value) -> tuple[int, dict, bytes]:
    return status, {"Content-Type": "application/json"}, json.dumps(value).encode()


def _message(model: str, blocks: list[dict]) -> dict:
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    return {
        "id": "msg_livemock01", "type": "message", "role": "assistant", "model": model,
        "content": blocks, "stop_reason": stop, "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }


def _events(model: str, blocks: list[dict]) -> list[tuple[str, dict]]:
    """The SSE stream of one assistant message made of ``blocks``."""
    head = dict(_message(model, []), stop_reason=None)
    events = [("message_start", {"type": "message_start", "message": head})]
    for i, block in enumerate(blocks):
        if block["type"] == "text":
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            start = dict(block, input={})
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events += [
            ("content_block_start",
             {"type": "content_block_start", "index": i, "content_block": start}),
            ("content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": i}),
        ]
    stop = _message(model, blocks)["stop_reason"]
    events += [
        ("message_delta", {"type": "message_delta",
                           "delta": {"stop_reason": stop, "stop_sequence": None},
                           "usage": {"output_tokens": 5}}),
        ("message_stop", {"type": "message_stop"}),
    ]
    return events


# --------------------------------------------------------------------------
# Reducing what was seen to what is compared


def _main_loop(recorded: list[dict]) -> list[dict]:
    """The main-loop model requests: those offering tools, but an agent
    hook's sub-agent's (``model_hooks.request_kind``)."""
    return [
        r for r in recorded
        if r["path"].split("?")[0] == "/v1/messages"
        and isinstance(r["body"], dict) and r["body"].get("tools")
        and model_hooks.request_kind(r["body"]) is None
    ]


def _reduce_request(body: dict) -> list:
    """What the model was told: each message's role and content."""
    return [
        {"role": m.get("role"), "content": _drop_volatile(m.get("content"))}
        for m in body.get("messages", [])
    ]


def _drop_volatile(value):
    if isinstance(value, dict):
        return {k: _drop_volatile(v) for k, v in value.items() if k not in _VOLATILE_KEYS}
    if isinstance(value, list):
        return [_drop_volatile(v) for v in value]
    return value


def _parse_stream(stdout: str) -> list[dict]:
    lines = []
    for text in stdout.splitlines():
        try:
            value = json.loads(text)
        except ValueError:
            value = {"type": "unparsed", "text": text}
        if isinstance(value, dict):
            lines.append(value)
    return lines


def _output(lines: list[dict], stderr: str) -> dict:
    """How the run ended and what the user was shown."""
    notices = [
        _drop_volatile(line) for line in lines
        if line.get("type") in ("system", "unparsed")
        and line.get("subtype") not in _BOOKKEEPING_SUBTYPES
    ]
    results = [line for line in lines if line.get("type") == "result"]
    result = None
    if results:
        last = results[-1]
        result = {k: last.get(k) for k in _RESULT_FIELDS}
        result["permission_denials"] = _drop_volatile(last.get("permission_denials") or [])
    return {"result": result, "notices": notices, "stderr": stderr.strip().splitlines()}
