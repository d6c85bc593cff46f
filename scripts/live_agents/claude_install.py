"""hookrun installed from its npm packages and wired in by its own commands,
then loaded by the real Claude Code: check scenarios (there is no A run to
compare with), each judged by what reached the mock model.

Each run sets the project up as the README's first recipe does, with
nothing of the harness in between: the two npm tarballs of ``scripts/package``
(made once, and again when ``target/release/hookrun`` is newer) are installed
with ``npm install --global --prefix <run>/npm --offline``; then, in a fresh
project with the run's own HOME and ``<run>/npm/bin`` first on PATH,
``hookrun init`` and ``hookrun install --agent claude --scope project``. Claude
Code then finds the registration where a user's would be, in the project's
``.claude/settings.json``; the ``--settings`` file holds permissions only.

- ``install-npm-blocks``: the model asks for ``rm -rf /``, then ``ls``. The
  first must be denied with the dangerous-commands guard's reason, the second
  must run (its output lists the project's file);
- ``install-npm-onfailure``: the same install, then the npm prefix is deleted
  (hookrun is gone from PATH, and so is every file a registration can name):
  the model asks for ``rm -rf /`` and ``ls``, and Claude Code's own fail-safe
  (``onFailure: "block"`` on the registration) must block both, with its
  ``failed; blocking because onFailure is "block"`` text. ``ls`` is what shows
  the fail-safe at work: nothing else would stop it;
- ``install-runs-once``: the project's ``.claude/settings.json`` already holds
  a Bash PreToolUse hook appending a line to ``hook-ran.txt`` (saying who ran
  it: hookrun sets ``HOOKRUN_DEPTH`` for its hooks); after init and install,
  the model asks for ``ls``, then ``rm -rf /``. Claude Code runs that hook
  itself, so hookrun must not run it again: two calls, two lines. The deny of
  ``rm -rf /`` with the guard's reason shows that hookrun's registration is
  live in the same session.

Safety: ``rm -rf /`` must never run, whatever hookrun does. Four things stand
in its way, each enough on its own: the session runs in Claude Code's
``default`` permission mode with only ``Bash(ls)`` allowed, so a call no hook
denies needs a permission a ``-p`` session never gets; ``Bash(rm:*)`` is a
deny rule, which even a hook's ``allow`` cannot override; the first ``rm`` on
the session's PATH is a stand-in that deletes nothing and records the call in
``rm-ran.txt`` (checked before the session starts); and GNU ``rm`` refuses
``/`` without ``--no-preserve-root``. A scenario fails when ``rm-ran.txt``
appears.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
import threading

from .claude_plugin import _tool_results, _without_hookrun
from .claude_scenarios import Script
from .common import RunResult, Scenario

MODE = "install"

FILES = {"notes.txt": "a file for ls to list\n"}
LISTED = "notes.txt"

RM_ROOT = ("Bash", {"command": "rm -rf /", "description": "Delete everything"})
LS = ("Bash", {"command": "ls", "description": "List files"})

# Only `ls` is allowed without asking, and `rm` is denied outright (see the
# module's note on safety).
SETTINGS = {"permissions": {"allow": ["Bash(ls)"], "deny": ["Bash(rm:*)"]}}

# The `rm` first on the session's PATH: it deletes nothing and leaves
# evidence in the project that a command reached it.
RM_STAND_IN = """#!/bin/sh
# The live harness's rm: deletes nothing, records that a command reached it.
printf 'rm %s\\n' "$*" >> '{marker}'
echo 'rm: refused by the live harness' >&2
exit 1
"""
RM_RAN = "rm-ran.txt"

# The project's own hook, already in .claude/settings.json before install:
# one line per run, naming who ran it.
OWN_HOOK_MARKER = "hook-ran.txt"
OWN_HOOK = ('if [ -n "$HOOKRUN_DEPTH" ]; then who=hookrun; else who="Claude Code"; fi; '
            f'echo "run by $who" >> "$CLAUDE_PROJECT_DIR/{OWN_HOOK_MARKER}"')
OWN_SETTINGS = {
    "hooks": {
        "PreToolUse": [{
            "matcher": "Bash",
            "hooks": [{"type": "command", "command": OWN_HOOK}],
        }],
    },
}

# The calls the model makes in `install-doctor-agrees`: each is the call one
# of doctor's canaries describes, keyed by (guard, canary) as doctor's JSON
# names it.
DOCTOR_CALLS = [
    (("dangerous-commands", "rm -rf /"), RM_ROOT),
    (("dangerous-commands", "ls"), LS),
    (("protect-paths", ".env"), ("Read", {"file_path": "{project}/.env"})),
    (("protect-paths", "notes.txt"), ("Read", {"file_path": "{project}/notes.txt"})),
    (("redact-secrets", "env"), ("Bash", {"command": "env", "description": "Show the environment"})),
]
# Where doctor's JSON is kept for the judge (a file of the project).
DOCTOR_JSON = "doctor.json"
# The made-up token of doctor's redact-secrets canary, put in the session's
# environment so that `env` prints it.
CANARY_TOKEN = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
ENV_FILE = "FAKE_SECRET=not-a-real-one\n"
# `install-doctor-agrees` also lets `env` and Read run without asking.
DOCTOR_SETTINGS = {"permissions": {"allow": ["Bash(ls)", "Bash(env)", "Read"],
                                   "deny": ["Bash(rm:*)"]}}

# What the dangerous-commands guard says about `rm -rf /`.
GUARD_REASON = ("dangerous command", "`rm`", "`/`")
# Claude Code's words when a hook with onFailure "block" cannot run.
ON_FAILURE = 'failed; blocking because onFailure is "block"'


@dataclasses.dataclass
class Setup:
    """How an install run is set up: whether the project has a hook of its
    own before install, and whether the npm install is deleted before the
    session starts."""

    own_hook: bool = False
    uninstall: bool = False
    doctor: bool = False


def scenarios() -> list[Scenario]:
    def s(name, turns, setup, expect):
        return Scenario(
            name=f"install-{name}", hooks={}, files=FILES,
            script=Script(turns, permission_mode="default"),
            modes=(MODE,), expect=expect, setup=setup,
        )

    return [
        s("npm-blocks", [[RM_ROOT], [LS], "Done."], Setup(), _denied_then_listed),
        s("npm-onfailure", [[RM_ROOT], [LS], "Done."], Setup(uninstall=True), _both_blocked),
        s("runs-once", [[LS], [RM_ROOT], "Done."], Setup(own_hook=True), _own_hook_ran_once),
        s("doctor-agrees", [[call] for _, call in DOCTOR_CALLS] + ["Done."],
          Setup(doctor=True), _doctor_agrees),
    ]


# --------------------------------------------------------------------------
# Setting a run up


def prepare(ctx, sc: Scenario, run_dir: str, env: dict, settings_path: str) -> str | None:
    """Installs hookrun from the npm tarballs into the run, runs `init` and
    `install` in the project, sets PATH, writes the settings. Returns an
    error text or None."""
    setup: Setup = sc.setup
    tarballs, problem = _tarballs(ctx)
    if problem:
        return problem
    project = os.path.join(run_dir, "project")
    prefix = os.path.join(run_dir, "npm")
    guard_bin = os.path.join(run_dir, "guard-bin")
    os.makedirs(guard_bin)
    rm = os.path.join(guard_bin, "rm")
    with open(rm, "w") as f:
        f.write(RM_STAND_IN.format(marker=os.path.join(project, RM_RAN)))
    os.chmod(rm, 0o755)

    base = _without_hookrun(env["PATH"])
    env["PATH"] = os.pathsep.join([guard_bin, os.path.join(prefix, "bin"), base])
    problem = _step(project, env, [
        "npm", "install", "--global", "--prefix", prefix, "--offline",
        "--cache", os.path.join(run_dir, "npm-cache"), "--no-audit", "--no-fund",
        "--loglevel=error", *tarballs,
    ])
    if problem:
        return problem
    found = shutil.which("hookrun", path=env["PATH"])
    if found != os.path.join(prefix, "bin", "hookrun"):
        return f"after npm install, `hookrun` on PATH is {found}, not the one installed"
    if setup.own_hook:
        os.makedirs(os.path.join(project, ".claude"))
        with open(os.path.join(project, ".claude", "settings.json"), "w") as f:
            json.dump(OWN_SETTINGS, f, indent=2)
    for argv in (["hookrun", "init"], ["hookrun", "install", "--agent", "claude", "--scope", "project"]):
        problem = _step(project, env, argv)
        if problem:
            return problem

    if setup.doctor:
        with open(os.path.join(project, ".env"), "w") as f:
            f.write(ENV_FILE)
        r = subprocess.run(["hookrun", "doctor", "--agent", "claude", "--format", "json"],
                           cwd=project, env=env, capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            return f"`hookrun doctor` exited {r.returncode} after install: {r.stdout}{r.stderr}"
        with open(os.path.join(project, DOCTOR_JSON), "w") as f:
            f.write(r.stdout)
        env["GH_TOKEN"] = CANARY_TOKEN

    if setup.uninstall:
        shutil.rmtree(prefix)
        env["PATH"] = os.pathsep.join([guard_bin, base])
        if shutil.which("hookrun", path=env["PATH"]):
            return f"hookrun is still on PATH after the uninstall: {shutil.which('hookrun', path=env['PATH'])}"
    if shutil.which("rm", path=env["PATH"]) != rm:
        return f"the harness's rm is not the first on PATH ({shutil.which('rm', path=env['PATH'])}): not starting"
    with open(settings_path, "w") as f:
        json.dump(DOCTOR_SETTINGS if setup.doctor else SETTINGS, f, indent=2)
    return None


def _step(cwd: str, env: dict, argv: list[str]) -> str | None:
    """Runs one setup command as the user would; returns an error text or None."""
    r = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        return f"`{' '.join(argv[:3])}` exited {r.returncode}: {r.stdout}{r.stderr}"
    return None


_PACKAGE_LOCK = threading.Lock()


def _tarballs(ctx) -> tuple[list[str], str | None]:
    """The two npm tarballs of target/package/, made by `scripts/package`
    when missing or older than the release binary (once for all runs)."""
    release = os.path.join(ctx.repo, "target", "release", "hookrun")
    if os.path.realpath(ctx.hookrun) != os.path.realpath(release):
        return [], (f"the install scenarios package {release}, not --bin {ctx.hookrun}: "
                    "run them without --bin")
    with _PACKAGE_LOCK:
        try:
            with open(os.path.join(ctx.repo, "Cargo.toml")) as f:
                version = re.search(r'^version = "(.*)"$', f.read(), re.M).group(1)
        except (OSError, AttributeError) as e:
            return [], f"no version in Cargo.toml: {e}"
        pkg = os.path.join(ctx.repo, "target", "package")
        main = os.path.join(pkg, f"hookrun-{version}.tgz")

        def find() -> list[str]:
            platform = sorted(
                os.path.join(pkg, n) for n in (os.listdir(pkg) if os.path.isdir(pkg) else [])
                if n.startswith("hookrun-") and n.endswith(f"-{version}.tgz")
                and os.path.join(pkg, n) != main
            )
            return [main, *platform[:1]] if os.path.isfile(main) and platform else []

        def fresh(files: list[str]) -> bool:
            built = os.stat(release).st_mtime
            return len(files) == 2 and all(os.stat(f).st_mtime >= built for f in files)

        files = find()
        if not fresh(files):
            r = subprocess.run(["bash", os.path.join(ctx.repo, "scripts", "package")],
                               cwd=ctx.repo, capture_output=True, text=True)
            if r.returncode != 0:
                return [], f"scripts/package exited {r.returncode}: {r.stderr.strip()[-800:]}"
            files = find()
            if not fresh(files):
                return [], f"scripts/package left no fresh npm tarballs in {pkg}"
        return files, None


# --------------------------------------------------------------------------
# Judging a run


def _registration(result: RunResult) -> str:
    """The hooks `install` left in the project's settings, for a problem's text."""
    text = result.files.get(".claude/settings.json", "<no .claude/settings.json>")
    try:
        return json.dumps(json.loads(text).get("hooks"))
    except (ValueError, AttributeError):
        return text


def _rm_reached(result: RunResult) -> list[str]:
    if RM_RAN in result.files:
        return [f"a command reached rm (the harness's stand-in): {result.files[RM_RAN]!r}"]
    return []


def _denied_then_listed(result: RunResult) -> list[str]:
    results = _tool_results(result)
    if len(results) != 2:
        return _rm_reached(result) + [
            f"expected 2 tool results (rm denied, ls), the model got {len(results)}: {results}"]
    problems = _rm_reached(result)
    (rm_error, rm_text), (ls_error, ls_text) = results
    if not (rm_error and all(p in rm_text for p in GUARD_REASON)):
        problems.append(f"rm -rf / was not denied with the guard's reason: {rm_text!r}; "
                        f"registered: {_registration(result)}")
    if ls_error or LISTED not in ls_text:
        problems.append(f"ls did not run: {ls_text!r}")
    return problems


def _both_blocked(result: RunResult) -> list[str]:
    results = _tool_results(result)
    if len(results) != 2:
        return _rm_reached(result) + [
            f"expected 2 tool results (rm, ls), the model got {len(results)}: {results}"]
    problems = _rm_reached(result)
    for (is_error, text), call in zip(results, ("rm -rf /", "ls")):
        if not (is_error and ON_FAILURE in text):
            problems.append(f"{call} was not blocked by onFailure with hookrun gone: {text!r}; "
                            f"registered: {_registration(result)}")
        if LISTED in text:
            problems.append(f"{call} ran with hookrun gone: {text!r}")
    return problems


def _own_hook_ran_once(result: RunResult) -> list[str]:
    results = _tool_results(result)
    if len(results) != 2:
        return _rm_reached(result) + [
            f"expected 2 tool results (ls, rm denied), the model got {len(results)}: {results}"]
    problems = _rm_reached(result)
    (ls_error, ls_text), (rm_error, rm_text) = results
    if ls_error or LISTED not in ls_text:
        problems.append(f"ls did not run: {ls_text!r}")
    if not (rm_error and all(p in rm_text for p in GUARD_REASON)):
        problems.append(f"rm -rf / was not denied with the guard's reason (is hookrun registered?): "
                        f"{rm_text!r}; registered: {_registration(result)}")
    lines = result.files.get(OWN_HOOK_MARKER, "").splitlines()
    if len(lines) != 2:
        problems.append(
            f"the project's own Bash hook ran {len(lines)} times for two Bash calls "
            f"(once per call expected): {lines}; registered: {_registration(result)}")
    return problems


def _claude_did(result_text: tuple[bool, str], kind: str) -> str:
    """What Claude Code did with one call, in doctor's words: ``blocked``
    (a hook denied it), ``redacted`` (it ran, and the token reached the model
    replaced), ``allowed`` (it ran, untouched), or what else happened."""
    is_error, text = result_text
    if is_error:
        return "blocked" if "hook" in text.lower() else f"failed: {text[:200]!r}"
    if kind == "redact":
        if CANARY_TOKEN in text:
            return "allowed (the token reached the model)"
        return "redacted" if "[REDACTED" in text else f"ran, no token: {text[:200]!r}"
    return "allowed"


def _doctor_agrees(result: RunResult) -> list[str]:
    problems = _rm_reached(result)
    try:
        report = json.loads(result.files.get(DOCTOR_JSON, ""))
        got = {(c["guard"], c["canary"]): c["got"] for c in report["canaries"]
               if c["agent"] == "claude"}
    except (ValueError, KeyError, TypeError) as e:
        return problems + [f"doctor's JSON cannot be read ({e}): "
                           f"{result.files.get(DOCTOR_JSON, '<none>')[:400]!r}"]
    results = _tool_results(result)
    if len(results) != len(DOCTOR_CALLS):
        return problems + [f"expected {len(DOCTOR_CALLS)} tool results, the model got "
                           f"{len(results)}: {results}"]
    for ((guard, canary), _), seen in zip(DOCTOR_CALLS, results):
        if (guard, canary) not in got:
            problems.append(f"doctor fired no {guard} canary `{canary}`: {sorted(got)}")
            continue
        did = _claude_did(seen, "redact" if guard == "redact-secrets" else "")
        if did != got[(guard, canary)]:
            problems.append(f"{guard} `{canary}`: doctor says {got[(guard, canary)]}, "
                            f"Claude Code's session shows {did} ({seen[1][:300]!r})")
    rm_text = results[0][1]
    if not all(p in rm_text for p in GUARD_REASON):
        problems.append(f"rm -rf / was not denied with the guard's reason: {rm_text!r}")
    return problems
