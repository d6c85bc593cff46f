# Registration, and what reaches a hook for each of deputy's 15 events.

check("hooks are deputy HookMatchers, built in-process: no pattern, timeout 0", with_deputy("s7", {
  hooks <- hookrun_hooks(config = fixture("capture.toml"), events = c("PreToolUse", "Stop"), bin = bin)
  expect_equal(names(hooks), c("PreToolUse", "Stop"), "one matcher per event")
  for (h in hooks) {
    expect(inherits(h, "deputy::HookMatcher"), "built by deputy's HookMatcher()")
    expect_equal(h$timeout, 0, "timeout")
    expect(is.null(h$pattern), "no pattern: hookrun matches tools itself")
  }
}))

check("deputy main's R6 HookMatcher$new() (default timeout 30) gets timeout 0 and fires", with_deputy("r6", {
  hooks <- hookrun_hooks(config = fixture("decisions.toml"), events = "PreToolUse", bin = bin)
  expect(inherits(hooks$PreToolUse, "R6"), "an R6 HookMatcher")
  expect_equal(hooks$PreToolUse$timeout, 0, "timeout")
  res <- registry(hooks)$fire("PreToolUse", tool_name = "write_file",
                              tool_input = list(path = "a.txt"), context = ctx())
  expect_equal(res$permission, "deny", "the R6-built hook ran hookrun")
}))

check("events = NULL registers exactly the events the config uses", with_deputy("s7", {
  hooks <- hookrun_hooks(config = fixture("some-events.toml"), bin = bin)
  expect_equal(sort(names(hooks)), sort(c("PostModelRequest", "Stop", "PreToolUse")), "events")
  hooks <- hookrun_hooks(config = fixture("decisions.toml"), bin = bin)
  expect_equal(sort(names(hooks)), sort(c("PreToolUse", "PermissionRequest", "PostToolUse",
                                          "PreCompact", "Stop", "UserPromptSubmit")), "events")
}))

check("hookrun's warning about a config event deputy never fires is passed on", with_deputy("s7", {
  r <- capture(hookrun_hooks(config = fixture("foreign-events.toml"), bin = bin))
  expect_equal(names(r$value), "PreToolUse", "events")
  expect_match(r$warnings, "hookrun: warning: deputy has no `TaskCompleted` event", "warning")
}))

check("a config with no hook on a deputy event registers nothing, with a warning", with_deputy("s7", {
  empty <- file.path(out, "empty.toml")
  writeLines("# no hooks", empty)
  r <- capture(hookrun_hooks(config = empty, bin = bin))
  expect_equal(length(r$value), 0L, "no matcher")
  expect_match(r$warnings, "nothing guards this agent", "warning")
}))

check("events must be deputy event names", with_deputy("s7", {
  r <- capture(hookrun_hooks(events = c("PreToolUse", "BeforeTool"), bin = bin))
  expect(inherits(r$value, "failed"), "an error")
  expect_match(r$value[[1]], "not deputy event names: BeforeTool", "names the bad event")
}))

# Each event's arguments, as deputy passes them, and what the hook must see.
event_cases <- list(
  PreToolUse = list(args = list(tool_name = "run_bash", tool_input = list(command = "ls")),
                    sees = list(tool_name = "run_bash", tool_use_id = "call-1")),
  PostToolUse = list(args = list(tool_name = "read_file", tool_result = "contents", tool_error = NULL),
                     sees = list(tool_response = "contents", tool_error = NULL)),
  PostToolUseFailure = list(args = list(tool_name = "read_file", tool_result = NULL,
                                        tool_error = simpleError("no such file")),
                            sees = list(tool_error = "no such file", error = "no such file")),
  PostModelRequest = list(args = list(), context = list(request_number = 3L),
                          sees = list(request_number = 3L)),
  PermissionRequest = list(args = list(tool_name = "write_file", tool_input = list(path = "a.txt"),
                                       permission_result = structure(
                                         list(decision = "deny", reason = "read-only", interrupt = FALSE),
                                         class = c("PermissionResultDeny", "PermissionResult", "list"))),
                           sees = list(tool_name = "write_file",
                                       permission_result = list(class = "PermissionResultDeny",
                                                                decision = "deny", reason = "read-only",
                                                                interrupt = FALSE))),
  SessionStart = list(args = list(), context = list(tools_count = 4L), sees = list(source = "startup")),
  UserPromptSubmit = list(args = list(prompt = "hello"), sees = list(prompt = "hello")),
  Stop = list(args = list(reason = "complete"), sees = list(reason = "complete", stop_hook_active = FALSE)),
  SessionEnd = list(args = list(reason = "complete"), sees = list(reason = "complete")),
  SubagentStart = list(args = list(agent_name = "researcher", task = "find it"),
                       sees = list(agent_type = "researcher", task = "find it")),
  SubagentStop = list(args = list(agent_name = "researcher", task = "find it", result = "found"),
                      sees = list(agent_name = "researcher", result = "found")),
  PreCompact = list(args = list(turns_to_compact = list(), turns_to_keep = list()),
                    sees = list(trigger = "auto")),
  PostCompact = list(args = list(result = "the summary"), sees = list(result = "the summary")),
  Notification = list(args = list(message = "call denied"), context = list(level = "warning", code = "tool_denied"),
                      sees = list(message = "call denied", notification_type = "tool_denied")),
  ConfigChange = list(args = list(key = "permission_mode", old_value = "default", new_value = "plan"),
                      sees = list(key = "permission_mode", old_value = "default", new_value = "plan"))
)

with_deputy("s7", {
  capture_hooks <- tryCatch(hookrun_hooks(config = fixture("capture.toml"), bin = bin),
                            error = function(e) e)
  check("the capture config registers all 15 events", {
    expect(!inherits(capture_hooks, "error"), conditionMessage(capture_hooks))
    expect_equal(sort(names(capture_hooks)), sort(names(event_cases)), "events")
  })
  reg <- if (inherits(capture_hooks, "error")) NULL else registry(capture_hooks)
  for (event in names(event_cases)) {
    case <- event_cases[[event]]
    check(sprintf("%s reaches hookrun with deputy's arguments and Claude Code's names", event), {
      expect(!is.null(reg), "no hooks were registered")
      unlink(file.path(out, "last.json"))
      context <- do.call(ctx, c(list(tool_call_id = "call-1"), case$context))
      res <- do.call(reg$fire, c(list(event), case$args, list(context = context)))
      expect(is.null(res), "no decision gives NULL")
      ev <- last_event()
      expect_equal(ev$hook_event_name, event, "hook_event_name")
      expect_equal(ev$cwd, out, "cwd (context$working_dir)")
      expect_equal(ev$session_id, "sess-7", "session_id (context$session_id)")
      expect_equal(ev$context$run_id, "run-42", "the whole context is kept")
      for (a in names(case$args)) {
        expect(a %in% names(ev), paste0("deputy's argument `", a, "` is kept at top level"))
      }
      for (k in names(case$sees)) expect_equal(ev[[k]], case$sees[[k]], k)
    })
  }
})

check("serialisation: S7 and R6 objects by class, conditions as messages, explicit nulls, {}", with_deputy("s7", {
  reg <- registry(hookrun_hooks(config = fixture("capture.toml"), events = c("Stop", "PreToolUse"), bin = bin))
  unlink(file.path(out, "last.json"))
  reg$fire("Stop", reason = "complete", context = ctx(
    ending = standin_s7("RunEndingAnswered", text = "42", turns = 2L),
    usage = StandinUsage$new(), failure = simpleCondition("it broke"),
    callback = function(x) x, env = new.env(), nothing = NULL, empty = structure(list(), names = character(0))
  ))
  ev <- last_event()
  expect_equal(ev$context$ending, list(class = "RunEndingAnswered", text = "42", turns = 2L), "S7 ending")
  expect_equal(ev$context$usage, list(class = "AgentUsage", input_tokens = 120L, output_tokens = 30L,
                                      total_tokens = 150L), "R6 usage: fields, active bindings, no methods")
  expect_equal(ev$context$failure, "it broke", "condition")
  expect_equal(ev$context$callback, list(class = "function"), "function")
  expect_equal(ev$context$env, list(class = "environment"), "environment")
  expect("nothing" %in% names(ev$context) && is.null(ev$context$nothing), "explicit null")
  expect_equal(ev$context$empty, structure(list(), names = character(0)), "empty named list")
  raw <- paste(readLines(file.path(out, "last.json"), warn = FALSE), collapse = "")
  expect_match(raw, '"empty":{}', "an empty named list is {}")
  expect_match(raw, '"run_context":{}', "deputy's run_context, an object, is {} when empty (R's list())")
  unlink(file.path(out, "last.json"))
  reg$fire("PreToolUse", tool_name = "list_tools", tool_input = list(), context = ctx())
  raw <- paste(readLines(file.path(out, "last.json"), warn = FALSE), collapse = "")
  expect_match(raw, '"tool_input":{}', "tool_input with no arguments is {}")
}))

check("a cycle between R6 objects ends at the depth cap", with_deputy("s7", {
  Node <- R6::R6Class("Node", public = list(other = NULL, name = NULL))
  a <- Node$new(); b <- Node$new(); a$name <- "a"; b$name <- "b"; a$other <- b; b$other <- a
  reg <- registry(hookrun_hooks(config = fixture("capture.toml"), events = "Notification", bin = bin))
  unlink(file.path(out, "last.json"))
  reg$fire("Notification", message = "loop", context = ctx(node = a))
  node <- last_event()$context$node
  depth <- 1L
  while (!is.null(node$other)) {
    node <- node$other
    depth <- depth + 1L
  }
  expect_equal(node, list(class = "Node"), "the deepest object is its class alone")
  expect(depth >= 7L && depth <= 9L, paste("cut at depth", depth))
}))
