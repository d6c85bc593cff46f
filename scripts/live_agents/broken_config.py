"""A hookrun config that cannot be read, as each real agent's only hook:
check scenarios (no A run to compare with), judged by what the agent did.

The config holds the ``dangerous-commands`` guard with a typo in its hook
(``timout``), so hookrun can evaluate nothing the user configured. Three
scenarios per agent:

- ``broken-config-blocks-rm``: the model asks for ``rm -rf ~/marker`` (a
  directory the run puts into its own HOME). The call must be blocked — the
  marker survives — and the block's reason, naming the file, line and key and
  the fix, must reach the model;
- ``broken-config-on-error-allow-runs-rm``: the same with ``--on-error
  allow`` in the registered command, the documented opt-out: the command runs
  (the marker is gone);
- ``broken-config-stop-does-not-loop``: the config on the agent's stop event.
  The first stop is blocked (``stop_hook_active`` is false), the next one is
  a notice: the agent stops after at most one continuation, within the
  scenario's timeout, and the reason is visible (to the model or the user).
"""
from __future__ import annotations

import dataclasses
import json
from typing import Any, Callable

from .common import OWN_CONFIG, OwnConfig, RunResult, Scenario

CONFIG = """\
# The guard's hook has a typo: `timout` for `timeout`.
[[hooks]]
event = "PreToolUse"
builtin = "dangerous-commands"
timout = 10
"""

# Where and why, as hookrun words it: file:line, the key, the fix.
REASON_PARTS = ("hooks.toml:5:", "hooks[0].timout", "did you mean `timeout`")

MARKER = "marker/keep.txt"
HOME_FILES = {MARKER: "the run's marker: deleted only if the model's `rm` ran\n"}
RM_MARKER = "rm -rf ~/marker"
# Codex refuses `rm -f` forms itself, before any hook: without `-f` the call
# reaches the hook (and the guard's rule: a recursive delete in a home).
RM_MARKER_NO_FORCE = "rm -r ~/marker"


@dataclasses.dataclass
class Agent:
    """How one agent takes part: its tool and stop events, the mock model's
    scripts, and how many model requests a stop may make at most (the first
    answer and one continuation)."""

    pre_event: str
    stop_event: str
    rm_script: Any
    stop_script: Any
    max_stop_requests: int
    # Whether the shell call ran: by default, whether the marker is gone.
    tool_ran: Callable[[RunResult], bool] = lambda result: f"~/{MARKER}" not in result.files
    # Whether the agent shows the stop event's notice at all (pydantic-deep
    # drops what its lifecycle hooks print): else only the bound is checked.
    stop_notice_shown: bool = True


def scenarios(agent: Agent, timeout: float = 120.0) -> list[Scenario]:
    def s(name, event, script, args, expect):
        return Scenario(
            name=f"broken-config-{name}", hooks={event: []}, script=script,
            modes=(OWN_CONFIG,), expect=expect, timeout=timeout,
            setup=OwnConfig(toml=CONFIG, args=args, home_files=HOME_FILES),
        )

    return [
        s("blocks-rm", agent.pre_event, agent.rm_script, (), _blocked(agent)),
        s("on-error-allow-runs-rm", agent.pre_event, agent.rm_script,
          ("--on-error", "allow"), _ran(agent)),
        s("stop-does-not-loop", agent.stop_event, agent.stop_script, (), _stopped(agent)),
    ]


def _text(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _missing_reason(where: str, value) -> list[str]:
    text = _text(value)
    missing = [p for p in REASON_PARTS if p not in text]
    if missing:
        return [f"the reason did not reach {where} (missing {missing}): {text[-1500:]}"]
    return []


def _blocked(agent: Agent):
    def expect(result: RunResult) -> list[str]:
        problems = []
        if agent.tool_ran(result):
            problems.append(f"the model's `rm` ran although the config is broken: {result.files}")
        return problems + _missing_reason("the model", result.requests)

    return expect


def _ran(agent: Agent):
    def expect(result: RunResult) -> list[str]:
        if not agent.tool_ran(result):
            return [f"the model's `rm` did not run under --on-error allow: "
                    f"{_text(result.output)[-1500:]}"]
        return []

    return expect


def _stopped(agent: Agent):
    def expect(result: RunResult) -> list[str]:
        problems = []
        if len(result.requests) > agent.max_stop_requests:
            problems.append(
                f"{len(result.requests)} model requests: the stop looped "
                f"(at most {agent.max_stop_requests} expected)"
            )
        if not agent.stop_notice_shown:
            return problems
        seen = {"requests": result.requests, "output": result.output}
        return problems + _missing_reason("the model or the user", seen)

    return expect
