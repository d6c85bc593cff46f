"""pydantic-deep 0.3.50, through its own hook code, as the judge of hookrun.

pydantic-deep has no CLI, so each run is one call of the bench peer
``shared/bench-peers/pydantic_deep_runner.py`` (in ``ctx.venv``): it pushes
one event through pydantic-deep's ``HooksCapability`` with a real
``LocalWorkspaceBackend`` (the hooks run in ``project/`` with pydantic-deep's
scrubbed environment), and with ``--agent`` drives the same event through a
real ``pydantic_ai.Agent`` whose model is a local ``FunctionModel``. That model
lives inside the runner, so no ``MockServer`` is needed: what the model saw is
the runner's ``agent.model_saw`` report.

Modes:

- ``A`` / ``A2``: the runner with the scenario's hooks as pydantic-deep hook
  specs (``--hooks-file``: command, matcher, timeout, event);
- ``B``: the runner with ONE hook per event the scenario uses, no matcher:
  ``hookrun run --config hooks.json``, where ``hooks.json`` holds the same
  hooks as Claude Code settings, one matcher group per hook (keeping each
  hook's matcher and the order);
- ``B-toml``: the same with a hookrun TOML, see below.

Matchers. pydantic-deep reads a matcher as an unanchored Python ``re.search``
on the tool name (``exec`` matches ``execute``). Claude Code reads a matcher of
letters, digits, ``_``, ``|`` (and ``,`` ``-`` space) as a list of exact names,
anything else as an unanchored regex. So ``hooks.json`` keeps a regex-looking
matcher as it is and wraps a name-looking one in ``(?:…)``, which sends it
down Claude Code's regex path with the same meaning: Claude JSON expresses
every matcher used here exactly.

What Claude JSON cannot express, and why those scenarios skip ``B``:

- pydantic-deep runs matching hooks *sequentially* (the first deny stops the
  rest; each hook sees the args or result as rewritten before it). Claude JSON
  has no order key; its hooks run in parallel, Claude Code's model, and
  hookrun's dialect rules keep order explicit (``order = "sequential"``).
  Scenarios whose outcome depends on the chain run ``A, A2, B-toml`` only;
- the lifecycle events (``before_run``, ``after_run``) are not Claude Code
  events: Claude JSON drops them. Those scenarios run ``B-toml`` only too.

B-toml is ``hookrun convert`` of the Claude JSON written with the matchers
*verbatim* (not wrapped), under a ``[defaults]`` table saying
``matcher_syntax = "regex"`` (pydantic-deep's reading of those matchers,
the README's way to carry them) and ``order = "sequential"``
(pydantic-deep's chain); lifecycle hooks, which ``convert`` cannot carry, are
appended as ``[[hooks]]`` entries under their pydantic-deep event names.

What is compared: ``output`` is the runner's JSON without ``elapsed_ms``
(timing) and ``matched_hooks`` (the count of the runner's *registrations*:
in B always the one hookrun hook; whether a hook ran shows in ``files`` and
the decision), and without ``agent.model_saw``, which is ``requests``: every
tool return the model was shown (outcome, content, text). ``files`` are what
the hooks wrote in ``project/``. With ``--agent`` the runner dispatches the
event once on its own and once through the agent, so hooks run twice and
evidence files are appended to.

Speed. Importing pydantic-deep and pydantic-ai is ~1 s of CPU, 90% of a run,
so the runs go through a fork server (``pydantic_forkserver.py``) that pays
it once and forks a fresh process per run, which executes the runner script
as ``__main__``. ``HOOKRUN_LIVE_PYDANTIC_DIRECT=1`` runs one plain ``python``
process per run instead (the results are the same, three times slower).
"""
from __future__ import annotations

import atexit
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import threading

from . import broken_config, common, versions
from .common import RunResult, Scenario
from .pydantic_scenarios import build_scenarios

AGENT = "pydantic"

# Events pydantic-deep fires for tools, with their Claude Code names; hooks of
# any other event (the lifecycle ones) have no place in Claude Code JSON.
CLAUDE_EVENTS = {
    "pre_tool_use": "PreToolUse",
    "post_tool_use": "PostToolUse",
    "post_tool_use_failure": "PostToolUseFailure",
}

# The mode-B registration's timeout: generous, since hookrun enforces each
# hook's own timeout from its config.
REGISTRATION_TIMEOUT = 60

# Claude Code reads a matcher made only of these characters as exact names.
_CLAUDE_NAME_LIST = re.compile(r"^[a-zA-Z0-9_|, -]+$")


def install(ctx) -> str | None:
    """Make ``ctx.venv`` hold the pinned pydantic-deep packages."""
    runner = runner_path(ctx)
    if not os.path.exists(runner):
        return f"{runner} not found"
    python = os.path.join(ctx.venv, "bin", "python")
    if _pins_installed(python):
        return None
    try:
        if not os.path.exists(python):
            subprocess.run(["python3", "-m", "venv", ctx.venv], check=True,
                           capture_output=True, timeout=300)
        r = subprocess.run([python, "-m", "pip", "install", "--quiet", *versions.PYDANTIC_PINS],
                           capture_output=True, text=True, timeout=900)
    except (OSError, subprocess.SubprocessError) as e:
        return f"creating {ctx.venv} failed: {e}"
    if r.returncode != 0:
        return f"pip install {' '.join(versions.PYDANTIC_PINS)} failed: {r.stderr.strip()[-500:]}"
    return None if _pins_installed(python) else "the pinned versions are still not installed"


def _pins_installed(python: str) -> bool:
    """True when every ``name==version`` pin is what ``python`` has installed."""
    if not os.path.exists(python):
        return False
    pins = dict(p.split("==") for p in versions.PYDANTIC_PINS)
    probe = (
        "import importlib.metadata as m, json, sys\n"
        "out = {}\n"
        "for name in json.loads(sys.argv[1]):\n"
        "    try: out[name] = m.version(name)\n"
        "    except m.PackageNotFoundError: out[name] = None\n"
        "print(json.dumps(out))\n"
    )
    try:
        r = subprocess.run([python, "-c", probe, json.dumps(list(pins))],
                           capture_output=True, text=True, timeout=60)
        return r.returncode == 0 and json.loads(r.stdout) == pins
    except (OSError, subprocess.SubprocessError, ValueError):
        return False


def runner_path(ctx) -> str:
    return os.path.join(ctx.shared, "bench-peers", "pydantic_deep_runner.py")


def scenarios() -> list[Scenario]:
    """The A/B scenarios, then the broken-config checks."""
    return build_scenarios() + broken_config.scenarios(BROKEN_CONFIG, timeout=60.0)


def _tool_received_args(result: RunResult) -> bool:
    """Whether the agent's tool was called: the runner's tool records its
    arguments instead of running a shell, so no marker can go."""
    agent = (result.output or {}).get("agent") or {}
    return bool(agent.get("tool_received_args"))


# pydantic-deep has no stop hook that can continue a run: its nearest event,
# `after_run`, is observed only (its hooks' output is dropped), so a broken
# config there cannot loop nor be shown; the check is that the run ends.
BROKEN_CONFIG = broken_config.Agent(
    pre_event="pre_tool_use",
    stop_event="after_run",
    rm_script={"event": {"event": "pre_tool_use", "tool_name": "execute",
                         "tool_input": {"command": broken_config.RM_MARKER}},
               "agent": True, "agent_calls": 1},
    stop_script={"event": {"event": "after_run", "tool_name": "", "tool_input": {},
                           "tool_result": "the final answer"},
                 "agent": False},
    max_stop_requests=0,
    tool_ran=_tool_received_args,
    stop_notice_shown=False,
)


# --------------------------------------------------------------------------
# Hook configs for each mode


def own_specs(sc: Scenario) -> list[dict]:
    """The scenario's hooks as pydantic-deep hook specs, in order."""
    return [dict(spec, event=event) for event, specs in sc.hooks.items() for spec in specs]


def claude_matcher(regex: str | None) -> str | None:
    """A Claude Code matcher that selects what pydantic-deep's ``re.search``
    of ``regex`` selects (see the module docstring)."""
    if regex and _CLAUDE_NAME_LIST.match(regex):
        return f"(?:{regex})"
    return regex


def claude_settings(sc: Scenario, wrap_matchers: bool) -> dict:
    """The scenario's tool-event hooks as Claude Code settings: one matcher
    group per hook, so each keeps its matcher and its place."""
    groups: dict[str, list] = {}
    for event, specs in sc.hooks.items():
        if event not in CLAUDE_EVENTS:
            continue
        for spec in specs:
            handler = {"type": "command", "command": spec["command"]}
            if spec.get("timeout") is not None:
                handler["timeout"] = spec["timeout"]
            group: dict = {"hooks": [handler]}
            matcher = spec.get("matcher")
            if matcher is not None:
                group["matcher"] = claude_matcher(matcher) if wrap_matchers else matcher
            groups.setdefault(CLAUDE_EVENTS[event], []).append(group)
    return {"hooks": groups}


def write_toml(ctx, sc: Scenario, run_dir: str) -> str:
    """The B-toml config (see the module docstring); returns its path."""
    lines = [
        "# pydantic-deep's readings, which Claude Code JSON cannot say.",
        "[defaults]",
        'matcher_syntax = "regex"',
        'order = "sequential"',
        "",
    ]
    settings = claude_settings(sc, wrap_matchers=False)
    if settings["hooks"]:
        raw_json = os.path.join(run_dir, "hooks-verbatim-matchers.json")
        converted = os.path.join(run_dir, "hooks-converted.toml")
        _write_json(raw_json, settings)
        problem = common.convert_to_toml(ctx, raw_json, converted)
        if problem:
            raise RuntimeError(problem)
        with open(converted) as f:
            lines.append(f.read())
    for event, specs in sc.hooks.items():
        if event in CLAUDE_EVENTS:
            continue
        for spec in specs:
            # A JSON string is a valid TOML basic string.
            lines += ["", "[[hooks]]", f"event = {json.dumps(event)}"]
            if spec.get("matcher") is not None:
                lines.append(f"matcher = {json.dumps(spec['matcher'])}")
            lines.append(f"command = {json.dumps(spec['command'])}")
            if spec.get("timeout") is not None:
                lines.append(f"timeout = {spec['timeout']}")
    path = os.path.join(run_dir, "hooks.toml")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def mode_specs(ctx, sc: Scenario, mode: str, run_dir: str) -> list[dict]:
    """The hook specs the runner gets in ``mode``."""
    if mode in ("A", "A2"):
        return own_specs(sc)
    if mode == common.OWN_CONFIG:
        return [{"command": common.own_config_command(ctx, sc, run_dir),
                 "timeout": REGISTRATION_TIMEOUT, "event": event} for event in sc.hooks]
    if mode == "B":
        config = os.path.join(run_dir, "hooks.json")
        _write_json(config, claude_settings(sc, wrap_matchers=True))
    else:
        config = write_toml(ctx, sc, run_dir)
    command = common.hookrun_command(ctx, config)
    return [{"command": command, "timeout": REGISTRATION_TIMEOUT, "event": event}
            for event in sc.hooks]


def _write_json(path: str, value) -> None:
    with open(path, "w") as f:
        json.dump(value, f, indent=2, ensure_ascii=False)


# --------------------------------------------------------------------------
# One run


def run(ctx, sc: Scenario, mode: str, run_dir: str) -> RunResult:
    project = os.path.join(run_dir, "project")
    common.write_files(project, sc.files)
    specs_path = os.path.join(run_dir, "hook-specs.json")
    _write_json(specs_path, mode_specs(ctx, sc, mode, run_dir))

    script = sc.script
    args = ["--hooks-file", specs_path, "--cwd", project]
    if script.get("agent"):
        args += ["--agent", "--agent-calls", str(script.get("agent_calls", 1))]
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.path.join(run_dir, "home"),
        "LANG": "C.UTF-8",
    }
    stdin = json.dumps(script["event"]).encode()
    if os.environ.get(DIRECT_ENV) == "1":
        status, out, err = run_direct(ctx, args, project, env, stdin, sc.timeout)
    else:
        status, out, err = forkserver(ctx).run(args, project, env, stdin, run_dir, sc.timeout)
    stdout = out.decode("utf-8", "replace")
    log = err.decode("utf-8", "replace")
    if status is None:
        return RunResult(-1, None, [], {}, log=log,
                         error=f"the runner did not finish in {sc.timeout:g} s (killed)")
    files = {**common.snapshot_files(project, skip=tuple(sc.files)),
             **common.home_files_left(sc, run_dir)}
    try:
        report = json.loads(stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return RunResult(status, None, [], files, log=log,
                         error=f"the runner printed no JSON answer: {stdout[-1000:]!r}")
    output, requests = split_report(report)
    return RunResult(status, output, requests, files, log=log)


def split_report(report: dict) -> tuple[dict, list]:
    """The runner's answer as ``(output, requests)``: timing and the
    registration count dropped, what the model saw moved to ``requests``."""
    output = {k: v for k, v in report.items() if k not in ("elapsed_ms", "matched_hooks")}
    agent = output.get("agent")
    if not isinstance(agent, dict):
        return output, []
    output["agent"] = {k: v for k, v in agent.items() if k != "model_saw"}
    return output, agent.get("model_saw") or []


def run_direct(ctx, args, cwd, env, stdin, timeout):
    """``python pydantic_deep_runner.py ARGS`` as its own process:
    ``(exit status or None on a timeout, stdout, stderr)``."""
    argv = [os.path.join(ctx.venv, "bin", "python"), runner_path(ctx), *args]
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return None, out, err
    return proc.returncode, out, err


# --------------------------------------------------------------------------
# The fork server (pydantic_forkserver.py): the same runner, its imports paid once

DIRECT_ENV = "HOOKRUN_LIVE_PYDANTIC_DIRECT"  # =1: one plain `python` per run instead

_SERVER = None
_SERVER_LOCK = threading.Lock()


def forkserver(ctx) -> ForkServer:
    """The harness's one fork server, started on first use."""
    global _SERVER
    with _SERVER_LOCK:
        if _SERVER is None:
            _SERVER = ForkServer(ctx)
            atexit.register(_SERVER.stop)
        return _SERVER


class ForkServer:
    """The client of pydantic_forkserver.py: starts it and sends it runs."""

    START_TIMEOUT = 120

    def __init__(self, ctx):
        self.dir = tempfile.mkdtemp(prefix="hookrun-pydantic-forkserver-")
        self.socket = os.path.join(self.dir, "socket")
        self.stderr = open(os.path.join(self.dir, "server.log"), "wb")
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pydantic_forkserver.py")
        self.proc = subprocess.Popen(
            [os.path.join(ctx.venv, "bin", "python"), "-P", script, self.socket, runner_path(ctx)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.dir,
                 "LANG": "C.UTF-8"},
            start_new_session=True,
        )
        ready, _, _ = select.select([self.proc.stdout], [], [], self.START_TIMEOUT)
        if not ready or self.proc.stdout.readline() != b"ready\n":
            self.stop()
            raise RuntimeError(f"the pydantic fork server did not start (see {self.dir})")

    def run(self, args, cwd, env, stdin, run_dir, timeout):
        """One runner run: ``(exit status or None on a timeout, stdout, stderr)``;
        its stdio goes through files in ``run_dir``."""
        paths = {k: os.path.join(run_dir, f"runner.{k}") for k in ("stdin", "stdout", "stderr")}
        with open(paths["stdin"], "wb") as f:
            f.write(stdin)
        request = {"argv": args, "cwd": cwd, "env": env, **paths}
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(timeout)
            conn.connect(self.socket)
            conn.sendall(json.dumps(request).encode() + b"\n")
            replies = conn.makefile("rb")
            pid = int(replies.readline())
            try:
                status_line = replies.readline()
            except socket.timeout:
                os.killpg(pid, signal.SIGKILL)
                status_line = None
        outputs = []
        for key in ("stdout", "stderr"):
            with open(paths[key], "rb") as f:
                outputs.append(f.read())
        if status_line is None:
            return None, *outputs
        if not status_line.strip():
            raise RuntimeError("the forked runner died: " + outputs[1].decode("utf-8", "replace"))
        return int(status_line), *outputs

    def stop(self):
        """End the server (it exits when its stdin closes) and remove its files."""
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.stderr.close()
        shutil.rmtree(self.dir, ignore_errors=True)
