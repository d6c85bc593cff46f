"""A local HTTP server for the live http-hook scenarios: the same server
answers the agent's own http hooks (mode A) and hookrun's (mode B), by path.

It starts on first use, on a free loopback port (Claude Code reaches
loopback; it refuses private addresses), and lives as long as the harness.
"""
import http.server
import json
import threading
import time

_lock = threading.Lock()
_base = None


def _deny(event):
    return {"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny",
                                   "permissionDecisionReason": "the policy server says no"}}


def _verdict(ok, reason):
    """A model API's answer holding the verdict JSON as its text."""
    text = json.dumps({"ok": ok, "reason": reason})
    return json.dumps({"type": "message", "role": "assistant", "model": "mock",
                       "content": [{"type": "text", "text": text}],
                       "stop_reason": "end_turn", "usage": {"input_tokens": 1, "output_tokens": 1}})


def _reply(path):
    """(status, body) for a request to ``path``; ``/model-*/v1/messages``
    is a Messages API judging a prompt hook."""
    if path == "/model-deny/v1/messages":
        return 200, _verdict(False, "the model judge says this is not safe")
    if path == "/model-allow/v1/messages":
        return 200, _verdict(True, "fine")
    if path == "/deny":
        return 200, json.dumps(_deny("PreToolUse"))
    if path == "/deny-500":
        return 500, json.dumps(_deny("PreToolUse"))
    if path == "/text":
        return 200, "looks fine to me"
    if path == "/empty":
        return 200, ""
    if path == "/slow":
        time.sleep(4)
        return 200, "{}"
    if path == "/context-slow":
        time.sleep(1)
        path = "/context"
    if path == "/context":
        return 200, json.dumps({"hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit", "additionalContext": "policy context from http"}})
    if path == "/block-prompt":
        return 200, json.dumps({"decision": "block", "reason": "the policy server refuses this prompt"})
    return 200, "{}"


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 (the http.server interface)
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        status, body = _reply(self.path)
        data = body.encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            # A hook that timed out: its client is gone.
            pass

    def log_message(self, *args):
        pass


def url(path: str) -> str:
    """The server's URL for ``path``, starting the server on first use."""
    global _base
    with _lock:
        if _base is None:
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            _base = f"http://127.0.0.1:{server.server_address[1]}"
    return _base + path
