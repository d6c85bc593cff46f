#!/usr/bin/env python3
"""A minimal stdio MCP server for the live mcp_tool-hook scenarios, with no
dependencies: newline-delimited JSON-RPC 2.0 on stdin/stdout (initialize,
notifications/initialized, tools/list, tools/call, ping).

Each tool answers one way, whatever its arguments:

- ``deny``: a PreToolUse hook output denying the call, as JSON text;
- ``allow``: ``{}`` as text (no verdict: the action goes ahead);
- ``text``: plain text that is no JSON;
- ``error``: ``isError: true`` with a text;
- ``slow``: ``{}`` after ``SLOW_SECONDS``;
- ``echo``: the arguments it was called with, as JSON text, under a
  ``systemMessage`` (so what reaches the user shows them).

With ``--log FILE`` every call is appended to FILE as one JSON line
``{"tool": name, "arguments": {...}}``: evidence of the call and of how the
hook's ``input`` was filled. Usage: ``mcp_server.py [--log FILE]``.
"""
import json
import sys
import time

SLOW_SECONDS = 5
DENY_REASON = "the MCP policy server says no"
TEXT = "looks fine to me"
ERROR_TEXT = "the MCP policy tool failed"

TOOLS = ("deny", "allow", "text", "error", "slow", "echo")


def _tool(name):
    return {
        "name": name,
        "description": f"Hook policy check ({name}).",
        "inputSchema": {"type": "object", "additionalProperties": True},
    }


def _text(value, is_error=False):
    out = {"content": [{"type": "text", "text": value}]}
    if is_error:
        out["isError"] = True
    return out


def _call(name, arguments):
    if name == "deny":
        return _text(json.dumps({"hookSpecificOutput": {
            "hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": DENY_REASON}}))
    if name == "allow":
        return _text("{}")
    if name == "text":
        return _text(TEXT)
    if name == "error":
        return _text(ERROR_TEXT, is_error=True)
    if name == "slow":
        time.sleep(SLOW_SECONDS)
        return _text("{}")
    if name == "echo":
        return _text(json.dumps({"systemMessage": "echo got " + json.dumps(arguments, sort_keys=True)}))
    return None


def _answer(msg, log):
    method = msg.get("method")
    if method == "initialize":
        version = (msg.get("params") or {}).get("protocolVersion") or "2025-06-18"
        return {"protocolVersion": version, "capabilities": {"tools": {}},
                "serverInfo": {"name": "hookrun-live-mcp", "version": "1.0.0"}}
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": [_tool(n) for n in TOOLS]}
    if method == "tools/call":
        params = msg.get("params") or {}
        name, arguments = params.get("name"), params.get("arguments") or {}
        if log:
            with open(log, "a") as f:
                f.write(json.dumps({"tool": name, "arguments": arguments}, sort_keys=True) + "\n")
        result = _call(name, arguments)
        if result is None:
            raise LookupError(f"unknown tool {name}")
        return result
    if method in ("resources/list", "prompts/list"):
        return {method.split("/")[0]: []}
    raise LookupError(f"method not found: {method}")


def main():
    log = None
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--log":
        log = args[1]
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if "id" not in msg:  # a notification
            continue
        try:
            reply = {"jsonrpc": "2.0", "id": msg["id"], "result": _answer(msg, log)}
        except LookupError as e:
            reply = {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": str(e)}}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
