# The adapter's hooks in deputy's real HookRegistry (sourced by
# real-registry.R, with deputy's hook code attached).

# A later deputy hook: records that it ran (a file, so that it would show
# even from a callr process) and allows.
later_hook <- function(mark) {
  HookMatcher$new(
    event = "PreToolUse", timeout = 0,
    callback = function(tool_name, tool_input, context) {
      writeLines(tool_name, mark)
      HookResultPreToolUse("allow")
    }
  )
}

check("registration: deputy's R6 HookMatcher$new() with its callback validation, timeout 0, no pattern", {
  hooks <- hooks_for(c("PreToolUse", "PostToolUse", "PermissionRequest", "Stop"))
  expect_equal(names(hooks), c("PreToolUse", "PostToolUse", "PermissionRequest", "Stop"), "one per event")
  for (h in hooks) {
    expect(inherits(h, "HookMatcher") && inherits(h, "R6"), "an R6 HookMatcher")
    expect_equal(h$timeout, 0, paste(h$event, "timeout (a positive one would run it in callr)"))
    expect(is.null(h$pattern), "no pattern: hookrun matches tools itself")
    expect(h$matches("anything"), "matches every tool")
    expect_equal(names(formals(h$callback)), "...", "the callback is function(...)")
  }
  reg <- registry(hooks)
  expect_equal(reg$count(), 4L, "HookRegistry$add() took them")
  # The validation that accepted function(...) is deputy's: it refuses this.
  bad <- tryCatch(HookMatcher$new("PreToolUse", function(x) NULL, timeout = 0), error = function(e) e)
  expect(inherits(bad, "error"), "deputy's validate_hook_callback refuses function(x)")
  expect_match(conditionMessage(bad), "Invalid callback", "deputy's message")
})

check("events = NULL registers only what this deputy's HookEvent has, warning about the rest", {
  r <- capture(hookrun_hooks(config = fixture("newer-events.toml"), bin = bin))
  expect(!inherits(r$value, "failed"), paste("hookrun_hooks:", r$value[[1]]))
  wanted <- intersect(c("PreToolUse", "Stop", "PostModelRequest", "PostCompact"), HookEvent)
  expect_equal(sort(names(r$value)), sort(wanted), "registered events")
  lacking <- setdiff(c("PostModelRequest", "PostCompact"), HookEvent)
  if (length(lacking) > 0L) {
    expect_match(r$warnings, paste0("this deputy has no ", paste(lacking, collapse = ", "), " event"),
                 "the warning names the events left out")
  }
})

check("PreToolUse: dangerous-commands denies run_bash `rm -rf /` with deputy's HookResultPreToolUse", {
  res <- pre_tool(registry(hooks_for("PreToolUse")), "run_bash", list(command = "rm -rf /"))
  expect_equal(class(res), class(HookResultPreToolUse("deny")), "deputy's class")
  expect_equal(res$permission, "deny", "permission")
  expect_match(res$reason, "[guard] dangerous command: `rm` recursively deletes `/`", "the guard's reason")
  expect_equal(res$continue, TRUE, "continue")
})

check("an allow is NULL: a later deputy hook decides (its allow is fire()'s answer)", {
  mark <- file.path(out, "later-allow")
  hooks <- hooks_for("PreToolUse")
  direct <- hooks$PreToolUse$callback(tool_name = "run_bash", tool_input = list(command = "ls -la"),
                                      context = ctx())
  expect(is.null(direct), "the adapter's own callback returns NULL")
  res <- pre_tool(registry(hooks, later_hook(mark)), "run_bash", list(command = "ls -la"))
  expect(file.exists(mark), "the later hook ran")
  expect(inherits(res, "HookResultPreToolUse"), "the later hook's result")
  expect_equal(res$permission, "allow", "permission")
})

check("a deny from the adapter ends deputy's chain: the later hook does not run", {
  mark <- file.path(out, "later-deny")
  res <- pre_tool(registry(hooks_for("PreToolUse"), later_hook(mark)), "run_bash", list(command = "rm -rf /"))
  expect_equal(res$permission, "deny", "permission")
  expect(!file.exists(mark), "the later hook ran after a deny")
})

# hookrun missing, default fail_mode: one registry for both events, so that
# last_errors() holds both failures in order.
missing_bin <- file.path(out, "no-such-hookrun")
missing_reg <- registry(hookrun_hooks(events = c("PreToolUse", "PostToolUse"), bin = missing_bin))
said <- paste0("hookrun: cannot run ", missing_bin, ": no such file")

check("hookrun missing, PreToolUse: deputy's fire() turns the adapter's error into a deny, recorded", {
  r <- capture(pre_tool(missing_reg, "run_bash", list(command = "ls")))
  expect(inherits(r$value, "HookResultPreToolUse"), "a HookResultPreToolUse")
  expect_equal(r$value$permission, "deny", "permission")
  expect(startsWith(r$value$reason, "Hook error: hookrun:"), paste("reason:", r$value$reason))
  expect_equal(r$value$reason, paste("Hook error:", said), "reason")
  errors <- missing_reg$last_errors()
  expect_equal(length(errors), 1L, "one recorded error")
  expect_equal(errors[[1]]$event, "PreToolUse", "event")
  expect_equal(errors[[1]]$error, said, "error")
  expect(inherits(errors[[1]]$timestamp, "POSIXct"), "deputy's record has a timestamp")
})

check("hookrun missing, PostToolUse: recorded in last_errors() and the run carries on (NULL)", {
  r <- capture(missing_reg$fire("PostToolUse", tool_name = "run_bash", tool_result = "x",
                                tool_error = NULL, context = ctx()))
  expect(!inherits(r$value, "failed"), paste("fire() raised:", r$value[[1]]))
  expect(is.null(r$value), "no result")
  errors <- missing_reg$last_errors()
  expect_equal(vapply(errors, `[[`, "", "event"), c("PreToolUse", "PostToolUse"), "errors recorded")
  expect_equal(errors[[2]]$error, said, "the recorded error")
})

check("an adapter error whose text has braces still reaches deputy's rule (its cli alert reads braces)", {
  Sys.setenv(FAKE_HOOKRUN_ANSWER = '{"args": {}}')
  on.exit(Sys.unsetenv("FAKE_HOOKRUN_ANSWER"))
  reg <- registry(hookrun_hooks(events = c("PreToolUse", "PostToolUse"),
                                bin = fixture("scripts/fake-hookrun.sh")))
  pre <- capture(pre_tool(reg, "run_bash", list(command = "ls")))
  expect(!inherits(pre$value, "failed"), paste("fire() raised:", pre$value[[1]]))
  expect_equal(pre$value$permission, "deny", "permission")
  expect_match(pre$value$reason, "Hook error: hookrun:", "deputy's error rule")
  post <- capture(reg$fire("PostToolUse", tool_name = "run_bash", tool_result = "x",
                           tool_error = NULL, context = ctx()))
  expect(!inherits(post$value, "failed"), paste("fire() raised on PostToolUse:", post$value[[1]]))
  expect_equal(length(reg$last_errors()), 2L, "both recorded")
})

check("Stop block: this deputy has no HookResultStop, so a warning names what was lost and fire() is NULL", {
  if (exists("HookResultStop")) stop("this deputy has HookResultStop: the case is for deputy main", call. = FALSE)
  reg <- registry(hooks_for("Stop"))
  r <- capture(reg$fire("Stop", reason = "complete", context = ctx(stop_hook_active = FALSE)))
  expect(is.null(r$value), "no result")
  expect_match(r$warnings, "hookrun: this deputy has no HookResultStop()", "warning")
  expect_match(r$warnings, "Add a Sources: line listing what you read.", "the lost message")
  expect_equal(length(reg$last_errors()), 0L, "no hook error")
})

check("Stop block under fail_mode = \"closed\": a recorded hook error, and the run carries on", {
  reg <- registry(hooks_for("Stop", fail_mode = "closed"))
  r <- capture(reg$fire("Stop", reason = "complete", context = ctx(stop_hook_active = FALSE)))
  expect(!inherits(r$value, "failed"), paste("fire() raised:", r$value[[1]]))
  expect(is.null(r$value), "no result")
  expect_match(reg$last_errors()[[1]]$error, "no HookResultStop()", "recorded error")
})

perm_reg <- registry(hooks_for("PermissionRequest"))

check("PermissionRequest allow gives deputy's real PermissionResultAllow()", {
  res <- perm_reg$fire("PermissionRequest", tool_name = "run_r_code", tool_input = list(code = "1 + 1"),
                       permission_result = PermissionResultDeny("policy: no R"), context = ctx())
  expect_equal(class(res), c("PermissionResultAllow", "PermissionResult", "list"), "class")
  expect_equal(unclass(res), unclass(PermissionResultAllow()), "fields")
})

check("PermissionRequest deny gives deputy's real PermissionResultDeny(reason, interrupt)", {
  res <- perm_reg$fire("PermissionRequest", tool_name = "write_file", tool_input = list(path = "a"),
                       permission_result = PermissionResultDeny("policy: read only"), context = ctx())
  expect_equal(class(res), c("PermissionResultDeny", "PermissionResult", "list"), "class")
  expect_equal(unclass(res), list(decision = "deny", reason = "not without review", interrupt = FALSE), "fields")
})

check("PostToolUse continue: false gives deputy's HookResultPostToolUse(continue = FALSE, stop_reason)", {
  res <- registry(hooks_for("PostToolUse"))$fire("PostToolUse", tool_name = "expensive_tool",
                                                 tool_result = "done", tool_error = NULL, context = ctx())
  expect_equal(class(res), class(HookResultPostToolUse()), "class")
  expect_equal(unclass(res), unclass(HookResultPostToolUse(continue = FALSE, stop_reason = "budget spent")),
               "fields")
})

source(file.path(here, "real-context.R"), local = TRUE)
