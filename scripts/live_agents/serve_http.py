"""``hookrun serve --http`` as the live harness runs it in its server modes:
``B-http`` (Claude Code's ``http`` hooks post the events to it) and
``B-forward`` (``hookrun forward``, a command hook, posts them for an agent
that runs only commands).

The server reads the config mode B's hook reads, and runs with what that
hook would have had: the run's environment (HOME, the agent's variables),
the project directory as its working directory. It listens on a free
loopback port (``127.0.0.1:0``) and asks every request for a bearer token
(``--token-file``, a fresh random token per run). After the run it gets
SIGTERM and must exit with 143 (128 + SIGTERM) and leave no process behind;
a server that does not is a run error, named in the result.
"""
from __future__ import annotations

import dataclasses
import os
import re
import secrets
import signal
import subprocess
import threading
import time

HTTP = "B-http"
FORWARD = "B-forward"

# How long the server may take to say it listens, and to exit on SIGTERM.
START_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0

_LISTENING = re.compile(r"^listening on (http://\S+)$")


@dataclasses.dataclass
class Exclusion:
    """Why a scenario is not run in a server mode: what it tests cannot be
    compared there."""

    mode: str
    reason: str


def with_mode(scenarios: list, mode: str, excluded) -> list:
    """``scenarios`` with ``mode`` added to the modes of each A/B scenario,
    unless ``excluded(scenario)`` gives the reason it cannot be compared in
    that mode (kept in ``Scenario.excluded``). Check scenarios are left as
    they are: they run in their own modes."""
    out = []
    for sc in scenarios:
        if sc.expect is None and mode not in sc.modes:
            reason = excluded(sc)
            if reason:
                sc = dataclasses.replace(sc, excluded={**sc.excluded, mode: reason})
            else:
                sc = dataclasses.replace(sc, modes=(*sc.modes, mode))
        out.append(sc)
    return out


class Server:
    """One ``hookrun serve --http 127.0.0.1:0 --token-file TOKEN ARGS…``,
    started on entering, stopped on leaving.

    ``url`` is the base URL the server said it listens on, ``token`` and
    ``token_file`` its bearer token. ``problems`` lists what went wrong on
    stopping (an exit other than 143, processes left behind), ``log`` its
    stderr (what ``run`` would have said on its own stderr, per event).
    """

    def __init__(self, hookrun: str, args: list, env: dict, cwd: str, run_dir: str):
        self.token = secrets.token_hex(16)
        self.token_file = os.path.join(run_dir, "hookrun-token")
        with open(self.token_file, "w") as f:
            f.write(self.token + "\n")
        self.argv = [hookrun, "serve", "--http", "127.0.0.1:0", "--token-file", self.token_file,
                     *args]
        self.env = env
        self.cwd = cwd
        self.url = ""
        self.problems: list[str] = []
        self._stderr: list[str] = []
        self._ready = threading.Event()
        self._proc: subprocess.Popen | None = None
        self._reader: threading.Thread | None = None

    @property
    def log(self) -> str:
        return f"$ {' '.join(self.argv)}\n" + "".join(self._stderr)

    def __enter__(self) -> Server:
        # A session of its own: the agent's own clean-up (bounded.py) kills
        # the agent's session, not the server's.
        self._proc = subprocess.Popen(
            self.argv, cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            start_new_session=True,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        deadline = time.monotonic() + START_TIMEOUT
        while not self._ready.wait(0.05):
            if self._proc.poll() is not None or time.monotonic() > deadline:
                self._reader.join(1)
                code = self._proc.poll()
                self._terminate()
                said = "".join(self._stderr).strip()
                how = f"exited {code}" if code is not None else f"said nothing in {START_TIMEOUT:.0f} s"
                raise RuntimeError(f"hookrun serve --http {how} before listening: {said}")
        return self

    def _read(self) -> None:
        assert self._proc is not None and self._proc.stderr is not None
        for line in self._proc.stderr:
            self._stderr.append(line)
            if not self._ready.is_set():
                m = _LISTENING.match(line.rstrip("\n"))
                if m:
                    self.url = m.group(1)
                    self._ready.set()

    def pids(self) -> set[int]:
        """The server and every process under it (for bounded.py to spare
        when it sweeps the run directory after the agent exits)."""
        if self._proc is None or self._proc.poll() is not None:
            return set()
        return {pid for pid, _ in _descendants(self._proc.pid)} | {self._proc.pid}

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        """SIGTERM, then the checks: exit 143 within ``STOP_TIMEOUT``, and
        none of the processes under it (nor any in its session) left."""
        proc = self._proc
        if proc is None or proc.returncode is not None:
            return
        below = _descendants(proc.pid)
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.problems.append(f"hookrun serve did not exit within {STOP_TIMEOUT:.0f} s of SIGTERM")
            self._terminate()
            code = proc.returncode
        else:
            if code != 128 + signal.SIGTERM:
                self.problems.append(f"hookrun serve exited {code} on SIGTERM, not 143")
        if self._reader is not None:
            self._reader.join(2)
        # Killed hooks may take a moment to be gone; zombies are not left.
        deadline = time.monotonic() + 1.0
        while True:
            left = {pid for pid, start in below if _alive(pid, start)}
            left |= {pid for pid in _all_pids() if _session_of(pid) == proc.pid and _alive(pid)}
            if not left or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        if left:
            names = ", ".join(f"{pid} ({_cmdline(pid)})" for pid in sorted(left))
            self.problems.append(f"hookrun serve left processes behind after SIGTERM: {names}")
            for pid in left:
                _kill(pid)

    def _terminate(self) -> None:
        proc = self._proc
        if proc is None:
            return
        for pid, _ in _descendants(proc.pid):
            _kill(pid)
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# --------------------------------------------------------------------------
# /proc


def _all_pids() -> list[int]:
    return [int(e) for e in os.listdir("/proc") if e.isdigit()]


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after ``(comm)``: state, ppid, pgrp,
    session, …, starttime (index 19)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _session_of(pid: int) -> int | None:
    fields = _stat(pid)
    return int(fields[3]) if fields else None


def _alive(pid: int, start: str | None = None) -> bool:
    """Whether ``pid`` runs (not a zombie), and is the process that started
    at ``start`` when given."""
    fields = _stat(pid)
    return bool(fields) and fields[0] != "Z" and (start is None or fields[19] == start)


def _descendants(root: int) -> set[tuple[int, str]]:
    """Every process under ``root``, with its start time (so that a pid
    reused later is not mistaken for it)."""
    children: dict[int, list[tuple[int, str]]] = {}
    for pid in _all_pids():
        fields = _stat(pid)
        if fields:
            children.setdefault(int(fields[1]), []).append((pid, fields[19]))
    found: set[tuple[int, str]] = set()
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child[0])
    return found


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()[:200]
    except OSError:
        return "?"


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
