"""Running an agent bounded in time, leaving no process behind."""
from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import tempfile
import time
from typing import Callable


@dataclasses.dataclass
class Bounded:
    exit_code: int  # -9 when the run was killed on expiry
    stdout: str
    stderr: str
    timed_out: bool


def run_bounded(
    argv: list, cwd: str, env: dict, timeout: float, run_dir: str,
    spare: Callable[[], set] | None = None,
) -> Bounded:
    """Run an agent in a session of its own, bounded by ``timeout``, and
    leave nothing behind.

    Output goes to files, not pipes, so an orphan holding them open cannot
    stall the harness. When the agent exits (or on expiry) everything in its
    session is killed while it is still unreaped (``WNOWAIT``: its ids cannot
    have been reused yet), and then every process whose cwd is under
    ``run_dir``: hooks run in process groups (and sometimes sessions) of their
    own, so a background child or an async hook escapes the first sweep.
    ``spare`` gives the processes the second sweep leaves alone: a ``hookrun
    serve`` the run talked to and its hooks, which the harness stops itself
    (serve_http.py).
    """
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
            text=True, start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        timed_out = False
        while os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
            if time.monotonic() > deadline:
                timed_out = True
                break
            time.sleep(0.02)
        _kill_where(lambda pid: _session_of(pid) == proc.pid)
        exit_code = proc.wait()
        real = os.path.realpath(run_dir)
        kept = spare() if spare else set()
        _kill_where(lambda pid: pid not in kept and _under(_cwd_of(pid), real))
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if timed_out:
        return Bounded(-9, stdout, stderr + f"\n[live: killed after {timeout:.0f}s]", True)
    return Bounded(exit_code, stdout, stderr, False)


def _kill_where(chosen: Callable[[int], bool]) -> None:
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != me and chosen(int(entry)):
            try:
                os.kill(int(entry), signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def _session_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            # `pid (comm) state ppid pgrp session ...`; comm may hold spaces.
            return int(f.read().rsplit(")", 1)[1].split()[3])
    except (OSError, IndexError, ValueError):
        return None


def _cwd_of(pid: int) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return None


def _under(path: str | None, root: str) -> bool:
    return path is not None and (path == root or path.startswith(root + os.sep))
