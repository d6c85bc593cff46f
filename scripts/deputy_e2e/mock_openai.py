#!/usr/bin/env python3
"""A scripted OpenAI-compatible chat model for scripts/deputy-e2e.

Answers POST /v1/chat/completions (what ellmer's chat_openai_compatible()
sends) on 127.0.0.1, streamed as server-sent events when the request says
"stream": true, else as one JSON object. The reply is chosen by the
request's "model": SCRIPTS/MODEL/script.json, read on each request (so a
scenario writes its own before it runs), maps the model name to a list of
replies, given in turn, one per request for that model:

    {"deny": [{"tool": "run_bash", "arguments": {"command": "ls"}},
              {"text": "Done."}]}

A request past the end of its list gets the text "(no scripted reply
left)". Every request body is appended to the log (one JSON object a line:
{"model", "n", "body"}), so the caller can check what the model was told.
The port is written to --port-file once the server listens; the server
exits after --max-seconds whatever happens.
"""
import argparse
import http.server
import json
import os
import threading
import time

LEFT_OVER = "(no scripted reply left)"


def _message(reply, n):
    """The assistant message of one scripted reply, and its finish reason."""
    if "tool" in reply:
        call = {"id": f"call_{n}", "type": "function",
                "function": {"name": reply["tool"], "arguments": json.dumps(reply["arguments"])}}
        return {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
    return {"role": "assistant", "content": reply["text"]}, "stop"


USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def _chunks(message, finish, model, n):
    """The SSE chunks OpenAI streams for one message: the role, the content
    or each tool call (name first, then its arguments), the finish reason,
    and the usage in a chunk with no choices (stream_options.include_usage)."""
    base = {"id": f"chatcmpl-{n}", "object": "chat.completion.chunk", "created": int(time.time()),
            "model": model}

    def chunk(delta, finish_reason=None, **extra):
        return dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": finish_reason}], **extra)

    out = [chunk({"role": "assistant", "content": ""})]
    if message.get("tool_calls"):
        for i, call in enumerate(message["tool_calls"]):
            out.append(chunk({"tool_calls": [{"index": i, "id": call["id"], "type": "function",
                                              "function": {"name": call["function"]["name"], "arguments": ""}}]}))
            out.append(chunk({"tool_calls": [{"index": i,
                                              "function": {"arguments": call["function"]["arguments"]}}]}))
    else:
        out.append(chunk({"content": message["content"]}))
    out.append(chunk({}, finish))
    out.append(dict(base, choices=[], usage=USAGE))
    return out


def _script(scripts, model):
    """The replies scripted for ``model``; none for a name that is not a
    plain directory name or has no script."""
    if not model or model in (".", "..") or "/" in model or "\\" in model:
        return []
    try:
        with open(os.path.join(scripts, model, "script.json"), encoding="utf-8") as f:
            return json.load(f).get(model, [])
    except (OSError, ValueError):
        return []


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def _send(self, status, ctype, body):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
            self._send(404, "application/json", json.dumps({"error": {"message": f"no {self.path}"}}).encode())
            return
        try:
            body = json.loads(raw)
        except ValueError as e:
            self._send(400, "application/json", json.dumps({"error": {"message": str(e)}}).encode())
            return
        server = self.server
        model = str(body.get("model"))
        with server.lock:
            n = server.counts.get(model, 0)
            server.counts[model] = n + 1
            with open(server.log, "a", encoding="utf-8") as f:
                f.write(json.dumps({"model": model, "n": n + 1, "body": body}) + "\n")
        replies = _script(server.scripts, model)
        reply = replies[n] if n < len(replies) else {"text": LEFT_OVER}
        message, finish = _message(reply, n + 1)
        if body.get("stream"):
            data = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n"
                            for c in _chunks(message, finish, model, n + 1))
            self._send(200, "text/event-stream", data + b"data: [DONE]\n\n")
        else:
            answer = {"id": f"chatcmpl-{n + 1}", "object": "chat.completion", "created": int(time.time()),
                      "model": model, "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                      "usage": USAGE}
            self._send(200, "application/json", json.dumps(answer).encode())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scripts", required=True, help="directory: MODEL/script.json per model")
    ap.add_argument("--log", required=True, help="JSON lines: every request body")
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--max-seconds", type=float, default=300)
    args = ap.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.scripts, server.log, server.lock, server.counts = args.scripts, args.log, threading.Lock(), {}
    timer = threading.Timer(args.max_seconds, server.shutdown)
    timer.daemon = True
    timer.start()
    with open(args.port_file + ".tmp", "w", encoding="utf-8") as f:
        f.write(str(server.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
