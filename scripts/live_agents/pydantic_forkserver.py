"""A fork server for pydantic-deep's hook runner, run by the venv's Python.

Importing pydantic-deep and pydantic-ai costs about 1 s of CPU, some 90% of a
run of ``pydantic_deep_runner.py``; the live harness makes ~170 of them. This
server imports them once, then for each request forks a fresh process that
executes the runner script as ``__main__`` (``runpy``), exactly as
``python pydantic_deep_runner.py ARGS`` would, but with its imports already
loaded. Each run still gets its own process, session, cwd, environment and
stdin/stdout/stderr.

    python -P pydantic_forkserver.py SOCKET RUNNER

(``-P``: this directory, which holds the harness's ``pydantic.py``, must not
shadow the real ``pydantic`` package.)

Prints ``ready`` once listening on the Unix socket SOCKET; exits when its
stdin closes (the harness is gone). A request is one JSON line: ``argv``,
``cwd``, ``env`` and the paths for ``stdin``, ``stdout``, ``stderr``; the
forked process answers ``<pid>\\n`` at once (the client kills that process
group on a timeout) and ``<exit status>\\n`` when the runner is done.
"""
import json
import os
import runpy
import select
import signal
import socket
import sys
import threading
import traceback


def main() -> None:
    sock_path, runner = sys.argv[1], sys.argv[2]
    sys.path.insert(0, os.path.dirname(runner))
    import pydantic_deep_runner  # noqa: F401, PLC0415 - loads pydantic-deep and pydantic-ai

    if threading.active_count() != 1:
        sys.exit("fork server: importing the runner started threads; forking is unsafe")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(sock_path)
    server.listen(16)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # finished runs reap themselves
    print("ready", flush=True)
    while True:
        readable, _, _ = select.select([server, sys.stdin.fileno()], [], [])
        if sys.stdin.fileno() in readable and not os.read(sys.stdin.fileno(), 4096):
            return
        if server in readable:
            conn, _ = server.accept()
            if os.fork() == 0:
                server.close()
                os._exit(serve_one(conn, runner))
            conn.close()


def serve_one(conn: socket.socket, runner: str) -> int:
    """In the forked process: run the runner for one request."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the runner waits for its hooks
    os.setsid()
    try:
        request = json.loads(conn.makefile("r").readline())
        conn.sendall(f"{os.getpid()}\n".encode())
        for fd, key, flags in ((0, "stdin", os.O_RDONLY),
                               (1, "stdout", os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                               (2, "stderr", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
            os.dup2(os.open(request[key], flags, 0o644), fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = [runner, *request["argv"]]
        status = run_runner(runner)
        conn.sendall(f"{status}\n".encode())
    except Exception:  # noqa: BLE001 - reported to the client as a failed run
        traceback.print_exc()
        return 1
    return 0


def run_runner(runner: str) -> int:
    """The runner's exit status, as ``python RUNNER`` would give it."""
    try:
        runpy.run_path(runner, run_name="__main__")
        status = 0
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            status = e.code or 0
        else:
            print(e.code, file=sys.stderr)
            status = 1
    except BaseException:  # noqa: BLE001 - an uncaught exception: Python exits 1
        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    return status


if __name__ == "__main__":
    main()
