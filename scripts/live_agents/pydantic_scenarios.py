"""The pydantic-deep scenarios: one event pushed through pydantic-deep's hook
code (and, for the ``agent-*`` ones, through a real agent run), each with
the hooks that exercise one rule of pydantic-deep's hook reading.

A scenario's ``hooks`` maps a pydantic-deep event to its hook specs
(``command``, optional ``matcher`` regex and ``timeout`` seconds), in order;
its ``script`` is the runner's input: the event JSON and whether to drive it
through an agent. Hooks leave evidence by appending the payload they read to
a file in the project directory (``record``), so ``files`` shows which hooks
ran and what they were given.
"""
from __future__ import annotations

import json

from .common import MODES, Scenario

# Claude Code JSON cannot say "sequential" nor name the lifecycle events (see
# pydantic.py's docstring): such scenarios are judged by B-toml alone.
NO_CLAUDE_JSON = ("A", "A2", "B-toml")

SHELL_CALL = {"command": "ls -l"}
DICT_RESULT = {"files": ["a.txt", "b.txt"], "ok": True, "size": None, "ratio": 0.5}

# Bounds each run of the runner (imports take about 1 s; hooks well under 2 s).
RUN_TIMEOUT = 60.0

# Reads (and drops) the payload: pydantic-deep pipes it into the first
# pipeline of a command only, so a hook that reads it does so first.
DRAIN = "cat > /dev/null"


def sh(*steps: str) -> str:
    return "; ".join(steps)


def say(answer) -> str:
    """A command printing ``answer`` as JSON (``json.dumps``: non-ASCII as
    ``\\u`` escapes, so the shell sees ASCII only)."""
    text = json.dumps(answer)
    if "'" in text:
        raise ValueError(f"a single quote would end the shell string: {text}")
    return f"printf '%s' '{text}'"


def record(name: str) -> str:
    """A command appending the payload it read (and a newline) to ``name``;
    like ``DRAIN``, it comes first in a hook."""
    return f"cat >> {name}; echo >> {name}"


def hook(command: str, matcher: str | None = None, timeout: float | None = None) -> dict:
    spec: dict = {"command": command}
    if matcher is not None:
        spec["matcher"] = matcher
    if timeout is not None:
        spec["timeout"] = timeout
    return spec


def scenario(name, event, hooks, *, tool_name="execute", tool_input=None, tool_result=None,
             tool_error=None, agent=False, agent_calls=1, modes=MODES, known=None,
             deliberate=None) -> Scenario:
    """``event`` with ``hooks`` (its specs, in order); ``tool_result`` and
    ``tool_error`` go into the event when given; ``agent`` drives it through
    an agent whose model calls the tool ``agent_calls`` times."""
    ev: dict = {"event": event, "tool_name": tool_name,
                "tool_input": SHELL_CALL if tool_input is None else tool_input}
    if tool_result is not None:
        ev["tool_result"] = tool_result
    if tool_error is not None:
        ev["tool_error"] = tool_error
    return Scenario(
        name=name,
        hooks={event: hooks},
        script={"event": ev, "agent": agent, "agent_calls": agent_calls},
        modes=modes, known=known, deliberate=deliberate, timeout=RUN_TIMEOUT,
    )


def build_scenarios() -> list[Scenario]:
    return [*_pre_tool_use(), *_matchers(), *_post_tool_use(), *_other_events(),
            *_divergences(), *_agent_runs()]


def _pre_tool_use() -> list[Scenario]:
    pre = "pre_tool_use"
    return [
        # Exit 2: reason = (stdout + stderr).strip(), stdout first whatever the
        # order of writing, no separator.
        scenario("pre-deny-exit2-stdout-then-stderr", pre, [
            hook(sh(record("pre.log"), "printf 'on stderr ' >&2", "printf ' on stdout '", "exit 2"))]),
        scenario("pre-deny-exit2-silent", pre, [hook(sh(DRAIN, "exit 2"))]),
        # Python's str.strip() also strips \x1c-\x1f and \v; bad UTF-8 becomes U+FFFD.
        scenario("pre-deny-reason-python-strip", pre, [
            hook(sh(DRAIN, r"printf '\034\013 spaced reason \n\034'", "exit 2"))]),
        scenario("pre-deny-reason-invalid-utf8", pre, [
            hook(sh(DRAIN, r"printf 'bad \377 byte'", "exit 2"))]),
        # stdout is not parsed on exit 2: the JSON is the reason's text.
        scenario("pre-deny-exit2-json-is-text", pre, [
            hook(sh(DRAIN, say({"modified_args": {"command": "echo rewritten"}}), "exit 2"))]),
        # The payload byte for byte: json.dumps spacing, \\u escapes, a quote.
        scenario("pre-allow-exit0-payload", pre, [hook(record("pre.log"))],
                 tool_input={"command": "echo 'hi' ü", "n": 1.5, "flags": [True, None]}),
        scenario("pre-exit1-allows", pre, [
            hook(sh(DRAIN, "echo 'to the log' >&2", "echo 'not json'", "exit 1"))]),
        scenario("pre-exit127-allows", pre, [hook(sh(DRAIN, "no-such-hook-command-xyz"))]),
        scenario("pre-killed-by-signal-allows", pre, [hook(sh(DRAIN, "kill -9 $$"))]),
        # Any exit but 2 allows, and stdout JSON still applies.
        scenario("pre-exit3-modified-args-apply", pre, [
            hook(sh(DRAIN, say({"modified_args": {"command": "ls -a"}}), "exit 3"))]),
        scenario("pre-modified-args-rewrite", pre, [
            hook(sh(DRAIN, say({"modified_args": {"command": "ls -la", "extra": [1, "ü"]}})))]),
        scenario("pre-modified-args-null-no-change", pre, [
            hook(sh(DRAIN, say({"modified_args": None, "modified_result": None})))]),
        # A whole replacement, not a merge: {} empties the args.
        scenario("pre-modified-args-empty-object", pre, [
            hook(sh(DRAIN, say({"modified_args": {}})))]),
        # Claude Code's deny keys mean nothing here, nor does `reason` on an allow.
        scenario("pre-claude-style-deny-at-exit0-allows", pre, [
            hook(sh(DRAIN, say({"decision": "block", "reason": "no", "hookSpecificOutput": {
                "hookEventName": "PreToolUse", "permissionDecision": "deny",
                "permissionDecisionReason": "no"}})))]),
        scenario("pre-non-json-stdout-allows", pre, [hook(sh(DRAIN, "echo 'this is {not json'"))]),
        # Python's json.loads refuses a byte order mark: the rewrite is ignored.
        scenario("pre-bom-json-ignored", pre, [
            hook(sh(DRAIN, r"""printf '\357\273\277{"modified_args": {"command": "bom"}}'"""))]),
        scenario("pre-two-hooks-second-denies", pre, [
            hook(record("first.log")), hook(sh(record("second.log"), "echo 'second says no'", "exit 2"))]),
        # pydantic-deep does not de-duplicate: the same command runs twice.
        # Both append to one file: only a sequential chain orders the two
        # appends, so Claude JSON's parallel hooks (B) would interleave them.
        scenario("pre-identical-hooks-both-run", pre, [hook(record("twice.log")), hook(record("twice.log"))],
                 modes=NO_CLAUDE_JSON),
        # The first deny stops the chain: the second hook never runs.
        scenario("pre-two-hooks-both-deny-first-stops", pre, [
            hook(sh(record("first.log"), "echo 'first says no'", "exit 2")),
            hook(sh(record("second.log"), "echo 'second says no'", "exit 2"))],
                 modes=NO_CLAUDE_JSON),
        # Each hook sees the args as rewritten before it (json.dumps style).
        scenario("pre-chain-rewrite-seen-by-next", pre, [
            hook(sh(DRAIN, say({"modified_args": {"command": "echo ü", "step": 1}}))),
            hook(sh(record("second.log"), say({"modified_args": {"command": "echo done"}}))),
            hook(record("third.log"))],
                 modes=NO_CLAUDE_JSON),
        # A deny discards earlier rewrites.
        scenario("pre-deny-discards-earlier-rewrite", pre, [
            hook(sh(DRAIN, say({"modified_args": {"command": "ls -a"}}))),
            hook(sh(DRAIN, "echo 'no'", "exit 2"))]),
        # Timeouts fail closed on pre_tool_use; `{:g}` formats 0.5 as 0.5s.
        scenario("pre-timeout-denies", pre, [
            hook(sh(DRAIN, "sleep 5"), timeout=0.5)]),
        # A background child holding stdout: pydantic-deep reads the pipes for
        # up to 2 s after the hook exits, so its late text spoils the JSON.
        scenario("pre-background-child-writes-late", pre, [
            hook(sh(DRAIN, "(sleep 1; echo ' late') & " + say({"modified_args": {"command": "ls -a"}})))],
                 deliberate="a hook's leaked pipe is cut off after leak_grace (0.5 s), pydantic-deep waits 2 s"),
        # ... and one that writes nothing: the deny reason stays the hook's own.
        scenario("pre-deny-background-child-silent", pre, [
            hook(sh(DRAIN, "(sleep 1) & echo 'no'", "exit 2"))]),
        # Under pydantic-deep's 10 MiB output cap, non-JSON output is ignored.
        scenario("pre-output-2mib-allows", pre, [
            hook(sh(DRAIN, "head -c 2000000 /dev/zero | tr '\\0' a"))],
                 deliberate="hookrun's output cap (limits.max_output_bytes, 1 MiB) applies to every caller;"
                            " pydantic-deep's is 10 MiB"),
        scenario("pre-output-flood-denies", pre, [
            hook(sh(DRAIN, "head -c 11000000 /dev/zero | tr '\\0' a"))]),
    ]


def _matchers() -> list[Scenario]:
    pre = "pre_tool_use"
    return [
        # re.search: `exec` finds `execute`.
        scenario("matcher-search-selects", pre, [
            hook(sh(record("exec.log"), "echo 'exec matched'", "exit 2"), matcher="exec")]),
        # Anchored, other case, other tool: none of them runs.
        scenario("matcher-does-not-select", pre, [
            hook(sh(record("anchored.log"), "exit 2"), matcher="^exec$"),
            hook(sh(record("case.log"), "exit 2"), matcher="Execute"),
            hook(sh(record("other.log"), "exit 2"), matcher="read_file")]),
        scenario("matcher-alternation-and-anchors", pre, [
            hook(record("alternation.log"), matcher="read|write"),
            hook(record("start.log"), matcher="^file"),
            hook(sh(record("end.log"), "echo 'file$ matched'", "exit 2"), matcher="file$")],
                 tool_name="write_file", tool_input={"path": "notes.txt", "content": "x"}),
    ]


def _post_tool_use() -> list[Scenario]:
    post = "post_tool_use"
    return [
        scenario("post-modified-result-string", post, [
            hook(sh(record("post.log"), say({"modified_result": "redacted output"})))],
                 tool_result="secret output"),
        # A dict result reaches hooks as str() (its Python repr); a dict
        # modified_result replaces it as a dict.
        scenario("post-modified-result-dict", post, [
            hook(sh(record("post.log"), say({"modified_result": {"files": [], "note": "ü"}})))],
                 tool_result=DICT_RESULT),
        # No rewrite: the structured result keeps its type.
        scenario("post-observer-keeps-structured-result", post, [hook(record("post.log"))],
                 tool_result=DICT_RESULT),
        # Exit 2 means nothing after the tool, and its stdout is not parsed.
        scenario("post-exit2-ignored", post, [
            hook(sh(DRAIN, say({"modified_result": "x"}), "echo ' no' >&2", "exit 2"))],
                 tool_result="original"),
        scenario("post-exit2-keeps-earlier-rewrite", post, [
            hook(sh(DRAIN, say({"modified_result": "kept"}))),
            hook(sh(DRAIN, "echo 'no'", "exit 2"))],
                 tool_result="original"),
        # Each hook sees the result rewritten before it, as str(): a dict as
        # its repr; a number stays a number.
        scenario("post-chain-result-seen-by-next", post, [
            hook(sh(DRAIN, say({"modified_result": {"x": [1, True, None], "s": "ü"}}))),
            hook(sh(record("second.log"), say({"modified_result": 42}))),
            hook(record("third.log"))],
                 tool_result="original", modes=NO_CLAUDE_JSON),
        # A timeout after the tool is ignored and the next hook runs.
        scenario("post-timeout-ignored", post, [
            hook(sh(DRAIN, "sleep 5"), timeout=0.5),
            hook(sh(record("after.log"), say({"modified_result": "after the timeout"})))],
                 tool_result="original"),
    ]


def _other_events() -> list[Scenario]:
    return [
        # Observed only: exit 2 ignored, the tool's error re-raised.
        scenario("post-tool-use-failure-observed", "post_tool_use_failure", [
            hook(sh(record("failure.log"), "echo 'too late'", "exit 2"))],
                 tool_error="disk full"),
        # Lifecycle events run every hook, matcher ignored, answers ignored.
        scenario("before-run-runs-every-hook", "before_run", [
            hook(sh(record("first.log"), "echo 'no'", "exit 2")),
            hook(record("second.log"), matcher="no-such-tool")],
                 tool_name="", tool_input={}, modes=NO_CLAUDE_JSON),
        scenario("after-run-sees-result", "after_run", [hook(record("after.log"))],
                 tool_name="", tool_input={}, tool_result="the final answer", modes=NO_CLAUDE_JSON),
        # What a hook's process sees: its cwd and the names in its scrubbed
        # environment (PATH, HOME, LANG, LC_*, and what the shell sets).
        scenario("hook-environment", "pre_tool_use", [
            hook(sh(DRAIN, "pwd > env.txt", "env | cut -d= -f1 | sort >> env.txt"))],
                 deliberate="hooks also see HOOKRUN_DEPTH and HOOKRUN_PARENT, hookrun's guard against running itself"),
    ]


def _divergences() -> list[Scenario]:
    """Where hookrun deliberately does not reproduce pydantic-deep (README,
    Dialects section, and the dialect rules 9-10)."""
    pre = "pre_tool_use"
    return [
        # pydantic-deep runs `printf … | exit 2 || true`, which allows.
        scenario("pre-exit2-or-true-pipeline", pre, [hook("exit 2 || true")],
                 deliberate="README: `exit 2 || true` allows in pydantic-deep (payload piped "
                            "into the command); hookrun runs the command as written and denies"),
        # pydantic-deep passes a non-object on to the tool (which then crashes).
        scenario("pre-non-object-modified-args", pre, [
            hook(sh(DRAIN, say({"modified_args": "ls"})))],
                 deliberate="README: a non-object modified_args is a deny naming the problem "
                            "(pydantic-deep hands it on to the tool)"),
    ]


def _agent_runs() -> list[Scenario]:
    """The same rules seen from a real agent run: what the tool received and
    what the model was told."""
    pre, post = "pre_tool_use", "post_tool_use"
    return [
        scenario("agent-pre-allow-tool-runs", pre, [hook(record("pre.log"))],
                 tool_result="listing", agent=True),
        # A denial is a retried tool return: the model sees {"error": reason}.
        scenario("agent-pre-deny-model-sees-reason", pre, [
            hook(sh(record("pre.log"), "echo 'ls is not allowed here' >&2", "exit 2"))],
                 agent=True),
        scenario("agent-pre-rewrite-tool-gets-new-args", pre, [
            hook(sh(DRAIN, say({"modified_args": {"command": "ls -a"}})))],
                 tool_result="listing", agent=True),
        scenario("agent-pre-timeout-denies", pre, [hook(sh(DRAIN, "sleep 5"), timeout=1)],
                 agent=True),
        # Each denial uses up the tool's retry budget (1): the 2nd ends the run.
        scenario("agent-deny-twice-run-fails", pre, [
            hook(sh(record("pre.log"), "echo 'denied'", "exit 2"))],
                 agent=True, agent_calls=2),
        scenario("agent-post-rewrite-string", post, [
            hook(sh(record("post.log"), say({"modified_result": "redacted output"})))],
                 tool_result="secret output", agent=True),
        scenario("agent-post-rewrite-dict", post, [
            hook(sh(record("post.log"), say({"modified_result": {"lines": 2, "ok": False}})))],
                 tool_result=DICT_RESULT, agent=True),
        # The hook observes the failure; the error still ends the run.
        scenario("agent-post-failure-run-fails", "post_tool_use_failure", [
            hook(record("failure.log"))],
                 tool_error="disk full", agent=True),
    ]
