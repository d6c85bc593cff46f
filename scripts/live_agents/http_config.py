"""hookrun's http hooks under agents that have none of their own (Codex,
Gemini CLI) and under Claude Code, from hookrun TOML: check scenarios (no
A run to compare with), judged by what the agent did.

The config POSTs PreToolUse to the harness's local server
(``http_server``) as Claude Code's contract (``input = "claude"``: one
policy server for every agent). Per agent:

- ``http-deny-blocks-rm``: the server denies; the model's ``rm`` of the
  HOME marker is blocked (the marker survives) and the server's reason
  reaches the model;
- ``http-allow-runs-rm``: the server answers nothing; the ``rm`` runs;
- ``http-timeout-closed-blocks-rm``: the server answers after the hook's
  one-second timeout, under ``fail_mode = "closed"``; the ``rm`` is blocked.
"""
from __future__ import annotations

import json

from . import http_server
from .broken_config import HOME_FILES, Agent
from .common import OWN_CONFIG, OwnConfig, RunResult, Scenario

REASON = "the policy server says no"


def _config(path: str, extra: str = "") -> str:
    return (
        "[[hooks]]\n"
        'event = "PreToolUse"\n'
        f'http = "{http_server.url(path)}"\n'
        'input = "claude"\n'
        f"{extra}"
    )


def scenarios(agent: Agent, timeout: float = 120.0) -> list[Scenario]:
    def s(name, toml, expect):
        return Scenario(
            name=f"http-{name}", hooks={agent.pre_event: []}, script=agent.rm_script,
            modes=(OWN_CONFIG,), expect=expect, timeout=timeout,
            setup=OwnConfig(toml=toml, home_files=HOME_FILES),
        )

    return [
        s("deny-blocks-rm", _config("/deny"), _blocked(agent, REASON)),
        s("allow-runs-rm", _config("/empty"), _ran(agent)),
        s("timeout-closed-blocks-rm",
          _config("/slow", 'timeout = 1\nfail_mode = "closed"\n'), _blocked(agent, "timed out")),
    ]


def _blocked(agent: Agent, reason: str):
    def expect(result: RunResult) -> list[str]:
        problems = []
        if agent.tool_ran(result):
            problems.append(f"the model's `rm` ran although the http hook blocks it: {result.files}")
        seen = json.dumps(result.requests, ensure_ascii=False)
        if reason not in seen:
            problems.append(f"the reason ({reason!r}) did not reach the model: {seen[-1500:]}")
        return problems

    return expect


def _ran(agent: Agent):
    def expect(result: RunResult) -> list[str]:
        if not agent.tool_ran(result):
            return [f"the model's `rm` did not run: {json.dumps(result.output)[-1500:]}"]
        return []

    return expect
