# What reaches a command hook from a context holding deputy's real objects
# (sourced by real-cases.R). The capture hook copies its stdin to last.json.

RunTracker <- R6::R6Class("RunTracker",
  public = list(
    input_tokens = 120L, output_tokens = 30L,
    total = function() self$input_tokens + self$output_tokens
  ),
  active = list(total_tokens = function() self$input_tokens + self$output_tokens)
)

last_event <- function() {
  path <- file.path(out, "last.json")
  expect(file.exists(path), "the capture hook wrote no event")
  list(json = jsonlite::fromJSON(path, simplifyVector = FALSE),
       raw = paste(readLines(path, warn = FALSE), collapse = "\n"))
}

check("context with deputy's R6 objects, a condition, a POSIXct and nested lists reaches a hook as plain JSON", {
  reg <- registry(hookrun_hooks(config = fixture("capture.toml"), events = c("PreToolUse", "Stop"), bin = bin))
  matcher <- HookMatcher$new("PreToolUse", function(tool_name, tool_input, context) NULL,
                             pattern = "^run_bash$", timeout = 0)
  usage <- if (exists("AgentUsage")) AgentUsage(requests = 2L, tool_calls = 1L, input_tokens = 120,
                                                output_tokens = 30) else NULL
  unlink(file.path(out, "last.json"))
  res <- reg$fire("Stop", reason = "complete", context = ctx(
    total_turns = 3L, cost = list(input = 0.01, output = 0.02, cached = 0, total = 0.03),
    usage = usage, tracker = RunTracker$new(), registry = reg, matcher = matcher,
    failure = simpleError("provider timed out"),
    started = as.POSIXct("2025-03-04 05:06:07", tz = "UTC"),
    provider = list(name = "OpenAI", model = "gpt-x", options = list(temperature = 0.2, stop = c("a", "b")))
  ))
  expect(is.null(res), "no decision")
  expect_equal(length(reg$last_errors()), 0L, "no hook error")
  ev <- last_event()
  cx <- ev$json$context
  expect_equal(ev$json$hook_event_name, "Stop", "hook_event_name")
  expect_equal(ev$json$cwd, out, "cwd (context$working_dir)")
  expect_equal(ev$json$session_id, "run_42", "session_id: run_id when there is no session_id")
  expect_equal(ev$json$reason, "complete", "deputy's argument")
  expect_equal(cx$registry, list(class = "HookRegistry"), "deputy's HookRegistry: no public field")
  expect_equal(cx$matcher$class, "HookMatcher", "deputy's HookMatcher: class")
  expect_equal(cx$matcher$event, "PreToolUse", "HookMatcher's active binding `event`")
  expect_equal(cx$matcher$pattern, "^run_bash$", "HookMatcher's active binding `pattern`")
  expect_equal(as.numeric(cx$matcher$timeout), 0, "HookMatcher's active binding `timeout`")
  expect(!"callback" %in% names(cx$matcher), "no function in the JSON")
  expect_equal(cx$tracker, list(class = "RunTracker", input_tokens = 120L, output_tokens = 30L,
                               total_tokens = 150L), "an R6 object: fields and active bindings")
  if (!is.null(usage)) {
    expect_equal(cx$usage$total_tokens, 150L, "deputy's AgentUsage (a classed list): its fields")
    expect_equal(cx$usage$class, "AgentUsage", "a classed list carries its class name")
  }
  expect_equal(cx$failure, "provider timed out", "a condition is its message")
  expect_equal(cx$started, "2025-03-04T05:06:07Z", "a POSIXct is ISO 8601 UTC")
  expect_equal(cx$provider$options$stop, list("a", "b"), "nested lists")
  expect_equal(cx$run_context, structure(list(), names = character(0)), "run_context")
  expect_match(ev$raw, '"run_context":{}', "an empty list is {}")
  expect(!grepl("<environment>|<bytecode>", ev$raw), "no R print form in the JSON")
})

check("PreToolUse: tool_call_id reaches the hook as tool_use_id, tool_input as an object", {
  reg <- registry(hookrun_hooks(config = fixture("capture.toml"), events = "PreToolUse", bin = bin))
  unlink(file.path(out, "last.json"))
  res <- pre_tool(reg, "run_bash", list(command = "ls -la"))
  expect(is.null(res), "no decision")
  ev <- last_event()$json
  expect_equal(ev$tool_use_id, "call_9", "tool_use_id")
  expect_equal(ev$tool_input, list(command = "ls -la"), "tool_input")
  expect_equal(ev$context$agent_id, "agent_1", "the whole context is kept")
})
