"""Codex CLI, live: `codex exec` offline against a mock Responses API.

Each run gets its own ``CODEX_HOME`` (``run_dir/codex_home``) holding
``config.toml`` (the mock provider) and ``hooks.json``. Mode A puts the
scenario's hooks there; mode B puts there one hookrun registration per event
the scenario uses, reading the very same Claude-shaped file from
``run_dir/hooks.json`` (``--dialect codex``: hookrun recognises Codex only when
told); B-toml reads the TOML ``hookrun convert`` makes of that file.
B-forward starts ``hookrun serve --http`` on B's config (serve_http.py) and
registers, where B registers ``hookrun run``, ``hookrun forward --url URL
--dialect codex --token-file F``, which posts each event to that server.

What is compared (see ``RunResult``):

- ``requests``: per ``POST /v1/responses``, the conversation items Codex sent
  (user/developer messages, tool calls and their outputs) without the
  boilerplate Codex sends every time (base instructions, skills, permissions,
  environment context): hook context arrives as developer messages, blocks as
  tool outputs and continuation prompts;
- ``output``: the ``-o LAST`` file, the ``--json`` events (minus token usage)
  and Codex's stderr (where it logs a blocked command). ``codex exec`` shows
  nothing else of a hook: ``--json`` has no hook events, and the human output
  prints only ``hook: <Event> <status>`` per handler, which a single
  registration cannot reproduce by construction and which carries no text the
  hooks wrote;
- ``files`` the project directory minus the scenario's own hook scripts; and
  the exit code.
"""
from __future__ import annotations

import contextlib
import json
import os
import shlex

from . import bounded, broken_config, codex_session, codex_trust, common, http_config, serve_http
from .codex_scenarios import SCENARIOS
from .codex_session import CODEX_BIN, Script
from .common import RunResult, Scenario

AGENT = "codex"

# Registration timeout of the single hookrun hook in B modes (seconds): the
# scenario's own timeouts are enforced by hookrun from the config. Codex clamps
# a SessionEnd hook's timeout to 3 s, and says so on the user's terminal.
HOOKRUN_TIMEOUT = 600
HOOKRUN_TIMEOUT_CAPS = {"SessionEnd": 3, "Interrupt": 3}

# The stdio MCP server an mcp_tool scenario's config.toml names.
MCP_SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mcp_server.py")

# stderr lines Codex prints on every run (the temp CODEX_HOME, the empty stdin).
STDERR_NOISE = (
    "WARNING: proceeding, even though we could not create PATH aliases",
    "Reading additional input from stdin...",
)

def install(ctx) -> str | None:
    """The pinned npm agents (one install for all); an error text or None."""
    problem = common.npm_install(ctx)
    if problem:
        return problem
    if not os.access(os.path.join(ctx.agents_dir, CODEX_BIN), os.X_OK):
        return f"{CODEX_BIN} not found under {ctx.agents_dir}"
    return None


# How Codex takes part in the own-config checks (broken_config, http_config).
AGENT_CHECKS = broken_config.Agent(
    pre_event="PreToolUse",
    stop_event="Stop",
    rm_script=Script(commands=(broken_config.RM_MARKER_NO_FORCE,)),
    # No tool call: the first answer, then at most one continuation.
    stop_script=Script(commands=(), answers=("done", "checked again, done")),
    max_stop_requests=2,
)


def scenarios() -> list[Scenario]:
    """The A/B scenarios (in B-forward too), then the hook-trust,
    broken-config and http checks."""
    ab = serve_http.with_mode(SCENARIOS, serve_http.FORWARD, lambda sc: None)
    return (ab + codex_trust.scenarios() + broken_config.scenarios(AGENT_CHECKS)
            + http_config.scenarios(AGENT_CHECKS))


def run(ctx, sc: Scenario, mode: str, run_dir: str) -> RunResult:
    """One ``codex exec`` of ``sc`` in ``mode``, against a fresh mock."""
    if mode == codex_trust.MODE:
        return codex_trust.run(ctx, sc, run_dir)
    project = os.path.join(run_dir, "project")
    codex_home = os.path.join(run_dir, "codex_home")
    os.makedirs(codex_home)
    common.write_files(project, sc.files)

    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.path.join(run_dir, "home"),
        "CODEX_HOME": codex_home,
        "MOCK_API_KEY": "mock-key",
        "LANG": "C.UTF-8",
        **common.telemetry_env(),
        # Codex runs hooks (and exec_command) with `$SHELL -lc`: the usual shell.
        "SHELL": "/bin/bash",
        "NO_COLOR": "1",
    }
    last_path = os.path.join(run_dir, "last.txt")
    with contextlib.ExitStack() as stack:
        if sc.agent_config:
            # Before the hooks: `convert` (B-toml) and the server (B-forward)
            # read the servers it names.
            _append_agent_config(codex_home, sc)
        hook_server = None
        if mode == serve_http.FORWARD:
            hook_server = stack.enter_context(_forward_server(ctx, sc, run_dir, env, project))
        problem = _write_hooks(ctx, sc, mode, run_dir, codex_home, hook_server)
        if problem:
            return RunResult(-1, None, [], {}, error=problem)

        server = stack.enter_context(common.MockServer(codex_session.responder(sc.script)))
        codex_session.write_config(codex_home, server.port)
        if sc.agent_config:
            _append_agent_config(codex_home, sc)
        argv = [
            os.path.join(ctx.agents_dir, CODEX_BIN), "exec", "--skip-git-repo-check",
            "--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust",
            "--json", "-o", last_path, sc.prompt,
        ]
        done = bounded.run_bounded(argv, project, env, sc.timeout, run_dir,
                                   spare=hook_server.pids if hook_server else None)
        exit_code, stdout, stderr, timed_out = done.exit_code, done.stdout, done.stderr, done.timed_out
        bodies = [r["body"] for r in server.requests if r["path"].endswith("/responses")]

    log = f"$ {' '.join(argv)}\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
    if hook_server:
        log += "\n--- hookrun serve\n" + hook_server.log
        if hook_server.problems:
            return RunResult(exit_code, None, [], {}, log=log, error="\n".join(hook_server.problems))
    if timed_out:
        return RunResult(-1, None, [], {}, log=log, error=f"codex did not finish in {sc.timeout} s")
    try:
        with open(last_path) as f:
            last = f.read()
    except FileNotFoundError:
        last = None
    output = {"last_message": last, "events": _events(stdout), "stderr": _stderr_lines(stderr)}
    requests = [codex_session.conversation(body) for body in bodies]
    files = {**common.snapshot_files(project, skip=tuple(sc.files)),
             **common.home_files_left(sc, run_dir)}
    return RunResult(exit_code, output, requests, files, log=log)


# --------------------------------------------------------------------------
# Configuration


def _write_hooks(
    ctx, sc: Scenario, mode: str, run_dir: str, codex_home: str,
    hook_server: serve_http.Server | None = None,
) -> str | None:
    """The active ``$CODEX_HOME/hooks.json`` for ``mode`` (B-forward: posting
    to ``hook_server``); returns an error text or None."""
    own = {"hooks": sc.hooks}
    if mode in ("A", "A2"):
        active = own
    else:
        if mode == common.OWN_CONFIG:
            command = common.own_config_command(ctx, sc, run_dir, "--dialect", "codex")
        elif hook_server is not None:
            command = forward_command(ctx, hook_server.url, hook_server.token_file)
        else:
            command, problem = _hookrun_for(ctx, sc, mode, run_dir)
            if problem:
                return problem
        active = {"hooks": {
            event: [{"hooks": [{
                "type": "command",
                "command": command,
                "timeout": HOOKRUN_TIMEOUT_CAPS.get(event, HOOKRUN_TIMEOUT),
            }]}]
            for event in sc.hooks
        }}
    _write_json(os.path.join(codex_home, "hooks.json"), active)
    return None


def _append_agent_config(codex_home: str, sc: Scenario) -> None:
    """The scenario's own ``config.toml`` text (its ``[mcp_servers]``)."""
    with open(os.path.join(codex_home, "config.toml"), "a") as f:
        f.write("\n" + sc.agent_config.replace("{mcp_server}", MCP_SERVER))


def forward_command(ctx, url: str, token_file: str) -> str:
    """B-forward's one hook: ``hookrun forward`` posting to ``url``."""
    return " ".join(shlex.quote(a) for a in (
        ctx.hookrun, "forward", "--url", url, "--dialect", "codex", "--token-file", token_file))


# The config arguments B's `hookrun run` and B-forward's server take.
CONFIG_ARGS = ("--dialect", "codex", "--config-format", "codex")


@contextlib.contextmanager
def _forward_server(ctx, sc: Scenario, run_dir: str, env: dict, project: str):
    """B-forward: ``hookrun serve --http`` on B's config, with the
    environment and working directory B's hook has."""
    config = _hooks_file(sc, run_dir)
    with serve_http.Server(ctx.hookrun, ["--config", config, *CONFIG_ARGS], env, project, run_dir) as server:
        yield server


def _hooks_file(sc: Scenario, run_dir: str) -> str:
    """The scenario's hooks block as a file of its own, B's config; its path."""
    config = os.path.join(run_dir, "hooks.json")
    _write_json(config, {"hooks": sc.hooks})
    return config


def _hookrun_for(ctx, sc: Scenario, mode: str, run_dir: str) -> tuple[str, str | None]:
    """The hookrun command of a B mode, reading the scenario's hooks file
    (B) or its conversion (B-toml), and a conversion failure's text."""
    config = _hooks_file(sc, run_dir)
    if mode == "B-toml":
        toml_path = os.path.join(run_dir, "hooks.toml")
        problem = common.convert_to_toml(
            ctx, config, toml_path, "--config-format", "codex",
            env={"CODEX_HOME": os.path.join(run_dir, "codex_home")},
        )
        if problem:
            return "", problem
        config = toml_path
    return common.hookrun_command(ctx, config, *CONFIG_ARGS), None


def _write_json(path: str, value) -> None:
    with open(path, "w") as f:
        json.dump(value, f, indent=2)


# --------------------------------------------------------------------------
# Running and reducing


def _events(stdout: str) -> list:
    """The ``--json`` events the user sees, without the thread id and token usage."""
    events = []
    for line in stdout.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            events.append(line)
            continue
        if event.get("type") in ("thread.started", "turn.started"):
            continue
        event.pop("usage", None)
        events.append(event)
    return events


def _stderr_lines(stderr: str) -> list[str]:
    """Codex's stderr as the user reads it, without the lines every run prints."""
    return [
        line for line in stderr.splitlines()
        if line.strip() and not line.startswith(STDERR_NOISE)
    ]
