"""The peer guards as programs, for `scripts/peer-guards --peer-bins DIR`.

Each peer is run as the Claude Code PreToolUse hook it is, on the same
event hookrun gets. They are built or installed outside the repository
(under target/, which git ignores):

    destructive_command_guard (Rust), at the commit pinned in dcg.json:
        git clone <its repository> DIR/dcg-src
        CARGO_TARGET_DIR=DIR/dcg-target cargo build --release --bin dcg
    claude-code-safety-net (npm `cc-safety-net`):
        npm install --prefix DIR/safety-net cc-safety-net@2.4.5

Each runs with HOME (and the peer's config home) pointed at an empty
directory under DIR, so only its defaults apply, and in an empty temporary
working directory, so no project configuration of its own is found.
"""
from __future__ import annotations

import json
import os
import subprocess
import tempfile


def event(command: str) -> bytes:
    """The PreToolUse event every guard is given for a command."""
    return json.dumps({
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command}, "session_id": "peer", "cwd": "/tmp",
    }).encode()


def peers(directory: str) -> dict[str, list[str]]:
    """The peers found under DIR: name -> argv (read the event on stdin)."""
    directory = os.path.abspath(directory)
    found = {}
    dcg = os.path.join(directory, "dcg-target", "release", "dcg")
    if os.access(dcg, os.X_OK):
        found["dcg"] = [dcg]
    sn = os.path.join(directory, "safety-net", "node_modules", "cc-safety-net",
                      "dist", "bin", "cc-safety-net.js")
    if os.path.exists(sn):
        found["safety-net"] = ["node", sn, "hook", "--claude-code"]
    return found


def environment(directory: str) -> dict[str, str]:
    home = os.path.join(os.path.abspath(directory), "home")
    os.makedirs(home, exist_ok=True)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DCG_", "CC_SAFETY_NET", "SAFETY_NET"))}
    env.update({"HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config"),
                "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
                "CC_SAFETY_NET_HOME": os.path.join(home, ".cc-safety-net")})
    return env


def denied(stdout: bytes) -> bool:
    """A Claude Code hook answer that denies (JSON on stdout)."""
    try:
        answer = json.loads(stdout.decode(errors="replace") or "{}")
    except json.JSONDecodeError:
        return False
    if not isinstance(answer, dict):
        return False
    specific = answer.get("hookSpecificOutput") or {}
    return (specific.get("permissionDecision") == "deny"
            or answer.get("decision") in ("block", "deny"))


def decide(argv: list[str], env: dict[str, str], command: str) -> str:
    """`deny`, `allow`, or what went wrong (a crash is not an answer)."""
    with tempfile.TemporaryDirectory() as cwd:
        try:
            r = subprocess.run(argv, input=event(command), capture_output=True,
                               timeout=30, env=env, cwd=cwd)
        except subprocess.TimeoutExpired:
            return "timeout"
    if r.returncode == 2 or (r.returncode == 0 and denied(r.stdout)):
        return "deny"
    if r.returncode == 0:
        return "allow"
    return f"error {r.returncode}: {r.stderr.decode(errors='replace').strip()[:120]}"
