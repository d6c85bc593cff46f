"""hookrun's Claude Code plugin, loaded by the real Claude Code: check
scenarios (there is no A run to compare with), each judged by what reached
the mock model.

Each run installs the plugin as a user would, into the run's own HOME:
``claude plugin marketplace add <repository>`` then ``claude plugin install
hookrun@hookrun`` (the CLI behind ``/plugin marketplace add`` and ``/plugin
install``), and checks that Claude Code recorded it before the session
starts. hookrun is on PATH (a directory holding only a ``hookrun`` link to
the judged binary) or absent from it.

Safety: the model asks for ``rm -rf /``. The session runs in Claude Code's
``default`` permission mode with only ``Bash(ls)`` allowed, so a Bash call
the plugin's hook does not deny still needs a permission that a
non-interactive session never grants: if the plugin failed to load, the
command would be refused by the permission check, never run (and the check
would fail on the missing hook reason).
"""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess

from .claude_scenarios import Script
from .common import RunResult, Scenario

MODE = "plugin"
PLUGIN_ID = "hookrun@hookrun"
INSTALL_ADVICE = "npm i -g hookrun"


@dataclasses.dataclass
class Setup:
    """How a plugin run is set up: whether ``hookrun`` is on PATH."""

    hookrun_on_path: bool


# Only `ls` is allowed without asking; everything else needs a permission a
# `-p` session cannot get (see the module's note on safety).
SETTINGS = {"permissions": {"allow": ["Bash(ls)"]}}

RM_ROOT = ("Bash", {"command": "rm -rf /", "description": "Delete everything"})
LS = ("Bash", {"command": "ls", "description": "List files"})
FILES = {"notes.txt": "a file for ls to list\n"}


def scenarios() -> list[Scenario]:
    def s(name, turns, on_path, expect):
        return Scenario(
            name=f"plugin-{name}", hooks={}, files=FILES,
            script=Script(turns, permission_mode="default"),
            modes=(MODE,), expect=expect, setup=Setup(hookrun_on_path=on_path),
        )

    return [
        s("denies-rm-rf-root-then-allows-ls", [[RM_ROOT], [LS], "Done."], True, _denied_then_listed),
        s("without-hookrun-blocks-with-install-advice", [[LS], "Done."], False, _blocked_with_advice),
    ]


# --------------------------------------------------------------------------
# Setting a run up


def prepare(ctx, sc: Scenario, run_dir: str, env: dict, claude: str, settings_path: str) -> str | None:
    """Installs the plugin into the run's HOME, sets PATH, writes the
    settings. Returns an error text or None."""
    if sc.setup.hookrun_on_path:
        bin_dir = os.path.join(run_dir, "bin")
        os.makedirs(bin_dir)
        os.symlink(ctx.hookrun, os.path.join(bin_dir, "hookrun"))
        env["PATH"] = bin_dir + os.pathsep + _without_hookrun(env["PATH"])
    else:
        env["PATH"] = _without_hookrun(env["PATH"])
    for args in (["marketplace", "add", ctx.repo], ["install", PLUGIN_ID]):
        r = subprocess.run(
            [claude, "plugin", *args], cwd=os.path.join(run_dir, "project"), env=env,
            capture_output=True, text=True, timeout=120,
        )
        if r.returncode != 0:
            return f"claude plugin {' '.join(args)} exited {r.returncode}: {r.stdout}{r.stderr}"
    problem = _installed(env["HOME"])
    if problem:
        return problem
    with open(settings_path, "w") as f:
        json.dump(SETTINGS, f, indent=2)
    return None


def _without_hookrun(path: str) -> str:
    """PATH without the directories that hold a `hookrun`."""
    return os.pathsep.join(
        d for d in path.split(os.pathsep)
        if d and not os.access(os.path.join(d, "hookrun"), os.X_OK)
    )


def _installed(home: str) -> str | None:
    """Whether Claude Code recorded the plugin as installed and enabled, with
    its hooks file in place: the rm -rf / turn is only asked for then."""
    claude_dir = os.path.join(home, ".claude")
    try:
        with open(os.path.join(claude_dir, "settings.json")) as f:
            enabled = json.load(f).get("enabledPlugins", {}).get(PLUGIN_ID)
        with open(os.path.join(claude_dir, "plugins", "installed_plugins.json")) as f:
            installed = json.load(f)
    except (OSError, ValueError) as e:
        return f"the plugin install left no record: {e}"
    if enabled is not True:
        return f"{PLUGIN_ID} is not enabled in the user settings"
    roots = [
        entry.get("installPath", "")
        for entry in (installed.get("plugins", {}).get(PLUGIN_ID) or [])
        if isinstance(entry, dict)
    ]
    if not any(os.path.isfile(os.path.join(r, "hooks", "hooks.json")) for r in roots):
        return f"{PLUGIN_ID} is installed without hooks/hooks.json: {installed}"
    return None


# --------------------------------------------------------------------------
# Judging a run


def _tool_results(result: RunResult) -> list[tuple[bool, str]]:
    """Every tool result the model was sent, in order: (is_error, text)."""
    if not result.requests:
        return []
    found = []
    for message in result.requests[-1]:
        content = message.get("content")
        if message.get("role") != "user" or not isinstance(content, list):
            continue
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                found.append((bool(block.get("is_error")), _text(block.get("content"))))
    return found


def _text(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict))
    return ""


def _denied_then_listed(result: RunResult) -> list[str]:
    results = _tool_results(result)
    if len(results) != 2:
        return [f"expected 2 tool results (rm denied, ls), the model got {len(results)}: {results}"]
    problems = []
    (rm_error, rm_text), (ls_error, ls_text) = results
    if not (rm_error and "dangerous command" in rm_text and "`/`" in rm_text):
        problems.append(f"rm -rf / was not denied by the plugin's guard: {rm_text!r}")
    if ls_error or "notes.txt" not in ls_text:
        problems.append(f"ls did not run: {ls_text!r}")
    return problems


def _blocked_with_advice(result: RunResult) -> list[str]:
    results = _tool_results(result)
    if len(results) != 1:
        return [f"expected 1 tool result, the model got {len(results)}: {results}"]
    is_error, text = results[0]
    if not (is_error and INSTALL_ADVICE in text and "not on PATH" in text):
        return [f"the Bash call was not blocked with the install advice: {text!r}"]
    if "notes.txt" in text:
        return [f"ls ran although hookrun is missing: {text!r}"]
    return []
