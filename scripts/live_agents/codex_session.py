"""Codex CLI against the mock Responses API: what every Codex run of the live
harness shares (the binary, the mock model's script and its handler, the
provider config, the reduced conversation). codex.py runs the A/B scenarios
with it and codex_trust.py the hook-trust check; both import it, neither
imports the other.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re

from . import common

CODEX_BIN = os.path.join(
    "node_modules", "@openai", "codex-linux-x64", "vendor", "x86_64-unknown-linux-musl", "bin",
    "codex",
)

# Texts Codex sends in every request whatever the hooks do.
BOILERPLATE_PREFIXES = (
    "You are a coding agent running in the Codex CLI",
    "<skills_instructions>",
    "<permissions instructions>",
    "<environment_context>",
)

# The random id of an exec_command output chunk, e.g. `Chunk ID: 930bdd`.
_CHUNK_ID = re.compile(r"Chunk ID: [0-9a-f]+")


@dataclasses.dataclass
class Script:
    """What the mock model does in a scenario.

    The model runs ``commands`` one by one (an ``exec_command`` call each,
    decided by how many tool outputs the conversation already holds), then
    answers ``answers[k]``, where ``k`` is the number of assistant answers the
    conversation already holds (a Stop hook that blocks makes Codex ask again;
    the last answer repeats).
    """

    commands: tuple = ("printf ran > out.txt",)
    answers: tuple = ("done",)


def write_config(codex_home: str, port: int) -> None:
    """``config.toml``: the mock as the only model provider."""
    with open(os.path.join(codex_home, "config.toml"), "w") as f:
        f.write(
            'model = "gpt-5"\n'
            'model_provider = "mock"\n'
            "\n[model_providers.mock]\n"
            'name = "mock"\n'
            f'base_url = "http://127.0.0.1:{port}/v1"\n'
            'wire_api = "responses"\n'
            'env_key = "MOCK_API_KEY"\n'
        )


# --------------------------------------------------------------------------
# Configuration and the mock Responses API


def responder(script: Script):
    """The mock's handler: answers ``POST …/responses`` from the conversation
    it is sent (never from arrival order), ``200 {}`` anything else."""

    def handle(method, path, body, server):
        if method != "POST" or not path.endswith("/responses") or not isinstance(body, dict):
            return 200, {"Content-Type": "application/json"}, b"{}"
        items = body.get("input") or []
        tool_outputs = sum(1 for i in items if i.get("type") == "function_call_output")
        answers = sum(1 for i in items if i.get("type") == "message" and i.get("role") == "assistant")
        if answers == 0 and tool_outputs < len(script.commands):
            item = {
                "type": "function_call",
                "id": f"fc_mock{tool_outputs:04d}",
                "call_id": f"call_mock{tool_outputs:04d}",
                "name": "exec_command",
                "arguments": json.dumps({"cmd": script.commands[tool_outputs]}),
            }
        else:
            text = script.answers[min(answers, len(script.answers) - 1)]
            item = {
                "type": "message",
                "id": f"msg_mock{answers:04d}",
                "role": "assistant",
                "content": [{"type": "output_text", "text": text, "annotations": []}],
            }
        response = {"id": "resp_mock0000", "object": "response", "status": "completed"}
        usage = {
            "input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        }
        events = [
            ("response.created", {"type": "response.created", "response": response}),
            ("response.output_item.done",
             {"type": "response.output_item.done", "output_index": 0, "item": item}),
            ("response.completed",
             {"type": "response.completed", "response": {**response, "usage": usage}}),
        ]
        return 200, {"Content-Type": "text/event-stream"}, common.sse(events)

    return handle


def conversation(body: dict) -> list:
    """What one request told the model: its conversation items, reduced."""
    reduced = []
    for item in body.get("input") or []:
        kind = item.get("type")
        if kind == "message":
            texts = [
                c.get("text", "") for c in item.get("content") or []
                if not c.get("text", "").startswith(BOILERPLATE_PREFIXES)
            ]
            if texts:
                reduced.append({"role": item.get("role"), "text": "\n".join(texts)})
        elif kind == "function_call":
            reduced.append({"call": item.get("name"), "arguments": item.get("arguments")})
        elif kind == "function_call_output":
            output = item.get("output")
            if isinstance(output, str):
                output = _CHUNK_ID.sub("Chunk ID: <CHUNK>", output)
            reduced.append({"tool_output": output})
        else:
            reduced.append(item)
    return reduced
