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
  one-second timeout, under ``fail_mode = "closed"``; the ``rm`` is blocked;
- ``prompt-deny-blocks-rm`` / ``prompt-allow-runs-rm``: a prompt hook judged
  by the same server as a Messages API (``ANTHROPIC_BASE_URL``): ``ok:
  false`` blocks the ``rm`` with the judge's reason, ``ok: true`` lets it run.
"""
from __future__ import annotations

import json

from . import http_server
from .broken_config import HOME_FILES, Agent
from .common import OWN_CONFIG, OwnConfig, RunResult, Scenario

REASON = "the policy server says no"
JUDGED = "the model judge says this is not safe"


def _config(path: str, extra: str = "") -> str:
    return (
        "[[hooks]]\n"
        'event = "PreToolUse"\n'
        f'http = "{http_server.url(path)}"\n'
        'input = "claude"\n'
        f"{extra}"
    )


def _prompt_config() -> str:
    return (
        "[[hooks]]\n"
        'event = "PreToolUse"\n'
        'prompt = "Is this command safe? $ARGUMENTS"\n'
        'input = "claude"\n'
    )


def _judge_env(path: str) -> dict:
    return {"ANTHROPIC_BASE_URL": http_server.url(path), "ANTHROPIC_API_KEY": "mock-key",
            "HOOKRUN_CLAUDE": ""}


def scenarios(agent: Agent, timeout: float = 120.0) -> list[Scenario]:
    def s(name, toml, expect, env=None, kind="http"):
        return Scenario(
            name=f"{kind}-{name}", hooks={agent.pre_event: []}, script=agent.rm_script,
            modes=(OWN_CONFIG,), expect=expect, timeout=timeout,
            setup=OwnConfig(toml=toml, home_files=HOME_FILES, env=env or {}),
        )

    return [
        s("deny-blocks-rm", _config("/deny"), _blocked(agent, REASON)),
        s("allow-runs-rm", _config("/empty"), _ran(agent)),
        s("timeout-closed-blocks-rm",
          _config("/slow", 'timeout = 1\nfail_mode = "closed"\n'), _blocked(agent, "timed out")),
        s("deny-blocks-rm", _prompt_config(), _blocked(agent, JUDGED, ends_turn=True),
          env=_judge_env("/model-deny"), kind="prompt"),
        s("allow-runs-rm", _prompt_config(), _ran(agent),
          env=_judge_env("/model-allow"), kind="prompt"),
    ]


def _blocked(agent: Agent, reason: str, ends_turn: bool = False):
    """The ``rm`` is blocked and ``reason`` reaches the model; with
    ``ends_turn`` (a prompt hook's block stops the agent) it may reach the
    user instead (the agent's output or terminal)."""

    def expect(result: RunResult) -> list[str]:
        problems = []
        if agent.tool_ran(result):
            problems.append(f"the model's `rm` ran although the hook blocks it: {result.files}")
        seen = json.dumps(result.requests, ensure_ascii=False)
        if ends_turn:
            seen += json.dumps(result.output, ensure_ascii=False) + result.log
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
