"""Shared pieces of the live harness: scenarios, run results, the mock model
server, normalisation and comparison.

A scenario is run in several *modes*:

- ``A``  — the hooks registered in the agent's own config; the agent runs them;
- ``A2`` — the same again, to see the agent's own nondeterminism;
- ``B``  — ``hookrun run --config hooks.json`` (the agent's own hooks file,
  unchanged) as the agent's only hook, registered for every event the
  scenario uses;
- ``B-toml`` — the same with the TOML that ``hookrun convert`` makes of it;
- ``B-http`` — Claude Code only: ``hookrun serve --http`` reading B's config,
  and Claude Code's own ``http`` hook posting every event of the scenario to
  it (but SessionStart and Setup, where Claude Code runs no http hook: B's
  command there);
- ``B-forward`` — Codex only: ``hookrun serve --http`` reading B's config,
  and ``hookrun forward`` as the agent's only hook, posting to it;
- ``own-config`` — check scenarios only: hookrun reading the scenario's own
  TOML (``OwnConfig``), e.g. one it cannot read.

Each agent module (claude, codex, gemini, qwen, pydantic) exposes ``AGENT``,
``install(ctx)``, ``scenarios()`` and ``run(ctx, scenario, mode, workdir)``;
an agent with a server mode adds it to its A/B scenarios' ``modes``
(serve_http.py).
"""
from __future__ import annotations

import dataclasses
import gzip
import http.server
import json
import os
import re
import shlex
import socketserver
import subprocess
import threading
from typing import Any, Callable

from . import versions

MODES = ("A", "A2", "B", "B-toml")
# The modes compared with A, and every mode (the default of `--modes`).
COMPARED = ("B", "B-toml", "B-http", "B-forward")
ALL_MODES = ("A", "A2", *COMPARED)


@dataclasses.dataclass
class Scenario:
    """One thing the agent does with one set of hooks.

    ``hooks`` is the agent's own hooks block (event -> matcher groups, in the
    agent's config shape); ``script`` is what the mock model does (agent
    specific: usually a list of tool calls, then a final text); ``files`` are
    written into the project directory before the run (hook scripts; a file
    whose content starts with ``#!`` is made executable).

    ``known`` says what a recorded difference is and what will fix it
    (``"matcher not yet read: ..."``); ``deliberate`` names a documented deliberate
    difference. Neither hides the difference: the driver still diffs it.
    """

    name: str
    hooks: dict
    script: Any
    prompt: str = "run it"
    files: dict = dataclasses.field(default_factory=dict)
    known: str | None = None
    deliberate: str | None = None
    modes: tuple = MODES
    # Which modes a `known` / `deliberate` mark applies to (None: every B mode).
    marked_modes: tuple | None = None
    # Marks of one mode only, over ``known`` / ``deliberate``: mode ->
    # ``("known", text)`` or ``("deliberate", text)``.
    mode_marks: dict = dataclasses.field(default_factory=dict)
    # Modes the scenario is not run in although its agent has them: mode ->
    # why it cannot be compared there.
    excluded: dict = dataclasses.field(default_factory=dict)
    timeout: float = 120.0
    # A check instead of an A/B comparison, for what has no A counterpart
    # (hookrun loaded as a Claude Code plugin): run once in each of its own
    # ``modes`` (e.g. ``("plugin",)``) and judged by ``expect(result)``,
    # which returns the problems found (none: PASS). ``setup`` is the agent
    # module's own description of the run.
    expect: Callable[[RunResult], list] | None = None
    setup: Any = None
    # Text appended to the agent's own config file in every mode (Codex:
    # ``config.toml``, e.g. the ``[mcp_servers]`` an mcp_tool hook names);
    # ``{mcp_server}`` is the live MCP server's path.
    agent_config: str = ""

    def mark_for(self, mode: str) -> tuple[str, str] | None:
        """The mark that applies to ``mode``'s difference from A:
        ``("known" | "deliberate", text)``, or None."""
        if mode in self.mode_marks:
            return self.mode_marks[mode]
        if self.marked_modes is not None and mode not in self.marked_modes:
            return None
        if self.known:
            return ("known", self.known)
        if self.deliberate:
            return ("deliberate", self.deliberate)
        return None

    def marks(self) -> list[str]:
        """Every mark, for ``--list`` and the report."""
        out = []
        if self.known or self.deliberate:
            prefix = ", ".join(self.marked_modes) + ": " if self.marked_modes else ""
            out.append(prefix + (self.known or f"deliberate: {self.deliberate}"))
        for mode, (kind, text) in self.mode_marks.items():
            out.append(f"{mode}: " + (text if kind == "known" else f"deliberate: {text}"))
        return out


@dataclasses.dataclass
class RunResult:
    """What one run showed: the facts the comparison looks at.

    ``requests`` are the request bodies that reached the mock model, reduced by
    the agent module to what the model is told (messages, tool results,
    context); ``files`` the files the tool wrote (path relative to the project
    directory -> content); ``output`` the agent's final output; ``log`` is kept
    for the report only (stderr, hook events), never compared.
    """

    exit_code: int
    output: Any
    requests: list
    files: dict
    log: str = ""
    error: str | None = None

    def compared(self) -> dict:
        return {
            "exit_code": self.exit_code,
            "output": self.output,
            "requests": self.requests,
            "files": self.files,
        }


@dataclasses.dataclass
class Context:
    """Where things are: the repository, the hookrun binary, the agents."""

    repo: str
    hookrun: str
    agents_dir: str  # npm prefix holding node_modules/
    venv: str  # pydantic-deep's venv
    shared: str  # ../shared
    verbose: bool = False


# --------------------------------------------------------------------------
# The mock model server


class MockServer:
    """A threaded HTTP server on 127.0.0.1 (a free port) that records every
    request and answers through ``handler(path, body_json, server)``.

    ``handler`` returns ``(status, headers, body_bytes)``. ``state`` is a free
    dict the agent module keeps its turn counter in.
    """

    def __init__(self, handler: Callable):
        self.requests: list[dict] = []  # {"path", "body"}
        self.state: dict = {}
        self.lock = threading.Lock()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def _serve(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                if self.headers.get("Content-Encoding") == "gzip":
                    raw = gzip.decompress(raw)
                elif self.headers.get("Content-Encoding") == "zstd":
                    raw = _zstd_decompress(raw)
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                with server.lock:
                    server.requests.append({"path": self.path, "body": body})
                    status, headers, out = handler(self.command, self.path, body, server)
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

            do_POST = _serve
            do_GET = _serve
            do_PUT = _serve
            do_DELETE = _serve

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def _zstd_decompress(raw: bytes) -> bytes:
    try:
        import zstandard  # type: ignore  # noqa: PLC0415 - optional: only a zstd body needs it

        return zstandard.ZstdDecompressor().decompress(raw, max_output_size=1 << 28)
    except Exception:  # noqa: BLE001 - recorded as text then
        return raw


def sse(events: list[tuple[str | None, Any]]) -> bytes:
    """Server-sent events: ``(event name or None, data object)`` pairs."""
    out = []
    for name, data in events:
        if name:
            out.append(f"event: {name}\n")
        out.append(f"data: {json.dumps(data)}\n\n")
    return "".join(out).encode()


# --------------------------------------------------------------------------
# Project directories and hook configs


# `scripts/live --otel-endpoint URL`: the OpenTelemetry variables a user
# whose agent exports its own telemetry has, which every hook inherits.
OTEL_ENDPOINT_VAR = "HOOKRUN_LIVE_OTEL_ENDPOINT"


def telemetry_env() -> dict:
    """The OTEL_* variables of the agent's environment under
    ``--otel-endpoint``; empty without it."""
    endpoint = os.environ.get(OTEL_ENDPOINT_VAR)
    if not endpoint:
        return {}
    return {"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_LOGS_EXPORTER": "otlp"}


def write_files(workdir: str, files: dict) -> None:
    """Write a scenario's files; ``#!`` content is made executable."""
    for rel, content in files.items():
        path = os.path.join(workdir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(content)
        if content.startswith("#!"):
            os.chmod(path, 0o755)


def snapshot_files(workdir: str, skip: tuple = ()) -> dict:
    """Every regular file under ``workdir`` (relative path -> text), except
    the prefixes in ``skip`` (agent homes, configs)."""
    found = {}
    for root, dirs, names in os.walk(workdir):
        rel_root = os.path.relpath(root, workdir)
        dirs[:] = sorted(
            d for d in dirs if not _skipped(os.path.normpath(os.path.join(rel_root, d)), skip)
        )
        for name in sorted(names):
            rel = os.path.normpath(os.path.join(rel_root, name))
            if _skipped(rel, skip):
                continue
            try:
                with open(os.path.join(root, name), "rb") as f:
                    found[rel] = f.read(65536).decode("utf-8", "replace")
            except OSError as e:
                found[rel] = f"<unreadable: {e}>"
    return found


def _skipped(rel: str, skip: tuple) -> bool:
    return any(rel == s or rel.startswith(s.rstrip("/") + "/") for s in skip)


def hookrun_command(ctx: Context, config: str, *extra: str) -> str:
    """The one hook registered in B modes."""
    return " ".join(shlex.quote(a) for a in (ctx.hookrun, "run", "--config", config, *extra))


def convert_to_toml(
    ctx: Context, json_path: str, toml_path: str, *extra: str, env: dict | None = None
) -> str | None:
    """``hookrun convert`` of the agent's hooks file (with ``env`` added to the
    environment: the agent's own directories, as the user has them); returns
    an error text or None."""
    r = subprocess.run(
        [ctx.hookrun, "convert", json_path, *extra], capture_output=True, text=True, timeout=30,
        env={**os.environ, **(env or {})},
    )
    if r.returncode != 0:
        return f"hookrun convert exited {r.returncode}: {r.stderr.strip()}"
    with open(toml_path, "w") as f:
        f.write(r.stdout)
    return None


OWN_CONFIG = "own-config"
"""The mode of a check scenario whose hookrun config is its own TOML
(``OwnConfig``), not made from the scenario's hooks."""


@dataclasses.dataclass
class OwnConfig:
    """The setup of an ``OWN_CONFIG`` check scenario: ``hookrun run`` with
    ``toml`` as its config and ``args`` added is the agent's only hook,
    registered for each event of the scenario's ``hooks`` (their handlers are
    not used). ``home_files`` are written into the run's HOME before the run
    and reported after it under ``~/`` in ``files``: a marker the tool may
    delete, outside the project, where only a dangerous command reaches."""

    toml: str
    args: tuple = ()
    home_files: dict = dataclasses.field(default_factory=dict)
    # Variables hookrun is run with (``env K=V`` before the command).
    env: dict = dataclasses.field(default_factory=dict)


def own_config_command(ctx: Context, sc: Scenario, run_dir: str, *extra: str) -> str:
    """Writes ``sc.setup``'s config and HOME files; returns the hook command
    (``extra``: the agent's dialect arguments)."""
    setup: OwnConfig = sc.setup
    path = os.path.join(run_dir, "hooks.toml")
    with open(path, "w") as f:
        f.write(setup.toml)
    write_files(os.path.join(run_dir, "home"), setup.home_files)
    command = hookrun_command(ctx, path, *extra, *setup.args)
    if setup.env:
        pairs = " ".join(shlex.quote(f"{k}={v}") for k, v in setup.env.items())
        command = f"env {pairs} {command}"
    return command


def home_files_left(sc: Scenario, run_dir: str) -> dict:
    """Which of an ``OwnConfig``'s HOME files are still there (``~/path`` ->
    content); empty for other scenarios."""
    if not isinstance(sc.setup, OwnConfig):
        return {}
    home = snapshot_files(os.path.join(run_dir, "home"))
    return {f"~/{rel}": home[rel] for rel in sc.setup.home_files if rel in home}


# --------------------------------------------------------------------------
# Normalisation

_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I)
_ISO_TIME = re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?")
_DURATION = re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|s|seconds?|milliseconds?)\b")
_TOOL_ID = re.compile(r"\b(toolu|call|msg|req|fc|resp|rs|item)_[A-Za-z0-9_-]{6,}\b")
_TMP_DIR = re.compile(r"/tmp/hookrun-live-[A-Za-z0-9_]+")
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{4}/\d{2}/\d{2}\b")
_HEX_ID = re.compile(r"\b[0-9a-f]{24,64}\b")


def normalise(value: Any, replacements: list[tuple[str, str]]) -> Any:
    """Replace temp paths, ids, timestamps and durations in every string."""
    if isinstance(value, str):
        for old, new in replacements:
            if old:
                value = value.replace(old, new)
        value = _TMP_DIR.sub("<TMP>", value)
        value = _UUID.sub("<UUID>", value)
        value = _ISO_TIME.sub("<TIME>", value)
        value = _DATE.sub("<DATE>", value)
        value = _TOOL_ID.sub(lambda m: f"<{m.group(1)}-ID>", value)
        value = _HEX_ID.sub("<HEX>", value)
        value = _DURATION.sub("<DURATION>", value)
        return value
    if isinstance(value, list):
        return [normalise(v, replacements) for v in value]
    if isinstance(value, dict):
        return {
            normalise(k, replacements): normalise(v, replacements) for k, v in value.items()
        }
    return value


def pretty(value: Any) -> list[str]:
    """Lines for a diff: JSON with sorted keys, strings unfolded."""
    text = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)
    return text.replace("\\n", "\n").splitlines()


# --------------------------------------------------------------------------
# Installing the pinned agents


def npm_install(ctx: Context) -> str | None:
    """Install every pinned npm agent (versions.NPM_PACKAGES) into
    ``ctx.agents_dir`` unless each exact version is there; all in one
    ``npm install``, since a later ``--no-save`` install prunes the others.
    Returns an error text or None."""
    with _INSTALL_LOCK:
        missing = False
        for spec in versions.NPM_PACKAGES.values():
            name, _, version = spec.rpartition("@")
            manifest = os.path.join(ctx.agents_dir, "node_modules", name, "package.json")
            try:
                with open(manifest) as f:
                    missing |= json.load(f).get("version") != version
            except (OSError, ValueError):
                missing = True
        if not missing:
            return None
        os.makedirs(ctx.agents_dir, exist_ok=True)
        specs = list(versions.NPM_PACKAGES.values())
        r = subprocess.run(
            ["npm", "install", "--prefix", ctx.agents_dir, "--no-save", "--no-audit", "--no-fund", *specs],
            capture_output=True, text=True,
        )
        if r.returncode != 0:
            return f"npm install {' '.join(specs)} failed: {r.stderr.strip()[-500:]}"
        return None


_INSTALL_LOCK = threading.Lock()
