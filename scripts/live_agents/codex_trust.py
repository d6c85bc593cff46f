"""Codex's hook trust, live: hookrun installed by its own command into a
fresh ``CODEX_HOME``, judged by ``hookrun doctor`` and by the real Codex run
without ``--dangerously-bypass-hook-trust``. A check scenario (there is no A
run to compare with).

``install-trust``: ``hookrun install --agent codex --scope user`` registers
hookrun (with the ``dangerous-commands`` guard) in ``$CODEX_HOME/hooks.json``,
then:

1. ``hookrun doctor`` must report D011 ("never reviewed") on the
   registration, and ``codex exec``, asked by the mock model to run
   ``rm -r ~/marker``, must indeed run it unguarded: the marker is gone.
   That is what D011 warns of;
2. the trust state is written as Codex's review writes it: for each hook
   Codex lists (app-server ``hooks/list``), its own ``currentHash`` as the
   ``trusted_hash`` under ``[hooks.state."KEY"]``. ``hookrun doctor`` must
   report no D011 (its hash and Codex's agree), and ``codex exec`` must now
   run hookrun: the same ``rm`` is blocked, the marker survives, and the
   guard's reason reaches the model.

Safety: the only destructive call is ``rm -r ~/marker``, and ``~`` is the
run's own HOME under a temporary directory: step 1 deletes a marker the run
made for that purpose, nothing else. (Codex refuses ``rm -f`` forms itself,
before any hook, hence ``-r`` alone.)
"""
from __future__ import annotations

import json
import os
import subprocess

from . import bounded, codex_session, common
from .broken_config import HOME_FILES, MARKER, RM_MARKER_NO_FORCE
from .codex_session import CODEX_BIN, Script
from .common import RunResult, Scenario

MODE = "install-trust"

CONFIG = """\
[[hooks]]
event = "PreToolUse"
builtin = "dangerous-commands"
"""

# What the dangerous-commands guard says about a recursive delete in a home.
GUARD_REASON = "dangerous command"


def scenarios() -> list[Scenario]:
    return [Scenario(
        name="install-trust", hooks={}, script=Script(commands=(RM_MARKER_NO_FORCE,)),
        modes=(MODE,), expect=_expect,
    )]


def run(ctx, sc: Scenario, run_dir: str) -> RunResult:
    """Install, doctor, codex exec; trust; doctor, codex exec."""
    project = os.path.join(run_dir, "project")
    home = os.path.join(run_dir, "home")
    codex_home = os.path.join(run_dir, "codex_home")
    os.makedirs(codex_home)
    config = os.path.join(run_dir, "hooks.toml")
    with open(config, "w") as f:
        f.write(CONFIG)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,
        "CODEX_HOME": codex_home,
        "MOCK_API_KEY": "mock-key",
        "LANG": "C.UTF-8",
        "SHELL": "/bin/bash",
        "NO_COLOR": "1",
    }
    log = []
    r = _run([ctx.hookrun, "install", "--agent", "codex", "--scope", "user", "--config", config],
             project, env, log)
    if r.returncode != 0:
        return RunResult(-1, None, [], {}, log="\n".join(log), error=f"install exited {r.returncode}")

    output = {}
    requests = []
    with common.MockServer(codex_session.responder(sc.script)) as server:
        codex_session.write_config(codex_home, server.port)
        for phase in ("untrusted", "trusted"):
            if phase == "trusted":
                problem = _trust_as_review_does(ctx, codex_home, project, env, log)
                if problem:
                    return RunResult(-1, None, [], {}, log="\n".join(log), error=problem)
            common.write_files(home, HOME_FILES)
            doctor = _run([ctx.hookrun, "doctor", "--agent", "codex", "--no-hooks",
                           "--format", "json"], project, env, log)
            try:
                report = json.loads(doctor.stdout)
            except ValueError:
                return RunResult(-1, None, [], {}, log="\n".join(log),
                                 error=f"doctor printed no JSON: {doctor.stdout[-500:]}")
            problems = [p for reg in report.get("registrations", []) for p in reg["problems"]]
            seen = len(server.requests)
            argv = [os.path.join(ctx.agents_dir, CODEX_BIN), "exec", "--skip-git-repo-check",
                    "--dangerously-bypass-approvals-and-sandbox", "--json", sc.prompt]
            done = bounded.run_bounded(argv, project, env, sc.timeout, run_dir)
            log.append(f"$ {' '.join(argv)}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}")
            if done.timed_out:
                return RunResult(-1, None, [], {}, log="\n".join(log),
                                 error=f"codex did not finish in {sc.timeout} s")
            bodies = [q["body"] for q in server.requests[seen:] if q["path"].endswith("/responses")]
            conversation = [codex_session.conversation(b) for b in bodies]
            output[phase] = {
                "doctor_codes": [p["code"] for p in problems],
                "doctor_d011": [p["message"] for p in problems if p["code"] == "D011"],
                "codex_exit": done.exit_code,
                "marker_left": os.path.exists(os.path.join(home, MARKER)),
                "model_saw": json.dumps(conversation, ensure_ascii=False),
            }
            requests += conversation
    return RunResult(0, output, requests, {}, log="\n".join(log))


def _run(argv, cwd, env, log) -> subprocess.CompletedProcess:
    r = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    log.append(f"$ {' '.join(argv)}\n--- exit {r.returncode}\n--- stdout\n{r.stdout}\n--- stderr\n{r.stderr}")
    return r


def _trust_as_review_does(ctx, codex_home, project, env, log) -> str | None:
    """Appends to ``config.toml`` a ``trusted_hash`` for every hook Codex
    lists, with Codex's own ``currentHash``: what its review writes. Returns
    an error text or None."""
    listed = _hooks_list(ctx, project, env)
    log.append(f"hooks/list: {json.dumps(listed)}")
    hooks = [h for entry in listed for h in entry.get("hooks", [])]
    if not hooks:
        return f"Codex's hooks/list shows no hook: {json.dumps(listed)[-500:]}"
    with open(os.path.join(codex_home, "config.toml"), "a") as f:
        for h in hooks:
            f.write(f"\n[hooks.state.{json.dumps(h['key'])}]\n"
                    f"trusted_hash = {json.dumps(h['currentHash'])}\n")
    return None


def _hooks_list(ctx, project, env) -> list:
    """``hooks/list`` of ``codex app-server`` (JSON-RPC over stdio) for
    ``project``."""
    p = subprocess.Popen(
        [os.path.join(ctx.agents_dir, CODEX_BIN), "app-server"], cwd=project, env=env,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        def send(message):
            p.stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
            p.stdin.flush()

        def answer(request_id):
            for line in p.stdout:
                message = json.loads(line)
                if message.get("id") == request_id:
                    return message
            return {}

        send({"id": 1, "method": "initialize",
              "params": {"clientInfo": {"name": "hookrun-live", "version": "0"}}})
        answer(1)
        send({"method": "initialized"})
        send({"id": 2, "method": "hooks/list", "params": {"cwds": [project]}})
        return answer(2).get("result", {}).get("data", [])
    finally:
        p.stdin.close()
        p.terminate()
        p.wait(timeout=30)


def _expect(result: RunResult) -> list[str]:
    problems = []
    before = result.output.get("untrusted", {})
    after = result.output.get("trusted", {})
    if not any("never reviewed" in m for m in before.get("doctor_d011", [])):
        problems.append(f"doctor did not report the unreviewed hook as D011: {before}")
    if before.get("marker_left"):
        problems.append("Codex ran hookrun although its hook was never reviewed: "
                        "the marker survived the unguarded `rm`")
    if after.get("doctor_d011"):
        problems.append(f"doctor still reports D011 once Codex trusts the hook: {after['doctor_d011']}")
    if not after.get("marker_left"):
        problems.append("the trusted hookrun hook did not block `rm -r ~/marker`: the marker is gone")
    if GUARD_REASON not in after.get("model_saw", ""):
        problems.append(f"the guard's reason did not reach the model: {after.get('model_saw', '')[-1500:]}")
    return problems
