# When hookrun cannot answer, under each fail_mode; older deputy versions.

survivors <- function() {
  marker <- paste("sleep", Sys.getenv("HOOKRUN_TEST_SLEEP"))
  grep(marker, system2("ps", c("-eo", "pid=,args="), stdout = TRUE), value = TRUE, fixed = TRUE)
}

# Waits up to `limit` seconds for the slow hook's processes to be gone.
tree_gone <- function(limit = 2) {
  deadline <- Sys.time() + limit
  while (length(left <- survivors()) > 0L && Sys.time() < deadline) Sys.sleep(0.05)
  if (length(left) > 0L) {
    tools::pskill(as.integer(sub("^ *([0-9]+).*", "\\1", left)))
    stop("processes of the tree left: ", paste(left, collapse = "; "), call. = FALSE)
  }
}

# Runs code with PATH set to `path`, restoring it however the code ends.
with_path <- function(path, code) {
  saved <- Sys.getenv("PATH")
  on.exit(Sys.setenv(PATH = saved))
  Sys.setenv(PATH = path)
  force(code)
}

timed_out <- function(fail_mode) {
  unlink(file.path(out, "slow.started"))
  reg <- registry(hookrun_hooks(config = fixture("slow.toml"), events = "PreToolUse",
                                fail_mode = fail_mode, timeout = 1.5, bin = bin))
  t0 <- Sys.time()
  res <- pre_tool(reg, "run_bash", list(command = "ls"))
  took <- as.numeric(difftime(Sys.time(), t0, units = "secs"))
  expect(file.exists(file.path(out, "slow.started")), "the slow hook never started its child")
  expect(took < 4.5, sprintf("the call took %.1f s", took))
  tree_gone()
  list(res = res, reg = reg)
}

check("timeout, fail_mode = \"closed\": a deny within bounded time, no process of the tree left", with_deputy("s7", {
  r <- timed_out("closed")
  expect_equal(r$res$permission, "deny", "permission")
  expect_match(r$res$reason, "timed out after 1.5 s", "reason")
}))

check("timeout, fail_mode = \"deputy\": an R error, which deputy turns into a deny", with_deputy("s7", {
  r <- timed_out("deputy")
  expect_equal(r$res$permission, "deny", "permission")
  expect_match(r$res$reason, "Hook error: hookrun: ", "deputy's error rule")
  expect_match(r$res$reason, "timed out", "reason")
  expect_equal(length(r$reg$last_errors()), 1L, "recorded as a hook error")
}))

# The per-event timeouts a matcher's callback runs hookrun with.
timeouts_of <- function(hook) get("state", envir = environment(hook$callback))$timeouts

check("timeout = NULL: per event from hookrun, which ends its slow hook itself and its deny is kept", with_deputy("s7", {
  unlink(file.path(out, "slow.started"))
  hooks <- hookrun_hooks(config = fixture("slow-own-timeout.toml"), fail_mode = "open", bin = bin)
  expect_equal(timeouts_of(hooks$PreToolUse)[["PreToolUse"]], 6,
               "the hook's 1 s and hookrun's 5 s margin")
  reg <- registry(hooks)
  t0 <- Sys.time()
  res <- capture(pre_tool(reg, "run_bash", list(command = "ls")))
  took <- as.numeric(difftime(Sys.time(), t0, units = "secs"))
  expect(took < 5, sprintf("the call took %.1f s", took))
  expect_equal(res$value$permission, "deny", "hookrun's closed hook denies, even under the adapter's open mode")
  expect_match(res$value$reason, "timed out", "hookrun's reason")
  expect(length(res$warnings) == 0L, "no adapter failure")
  tree_gone()
  explicit <- hookrun_hooks(config = fixture("slow-own-timeout.toml"), timeout = 2.5, bin = bin)
  expect_equal(timeouts_of(explicit$PreToolUse)[["PreToolUse"]], 2.5,
               "a number given overrides")
  fallback <- hookrun_hooks(events = "PreToolUse", bin = file.path(out, "no-such-hookrun"))
  expect_equal(timeouts_of(fallback$PreToolUse)[["PreToolUse"]], 60,
               "60 s where hookrun cannot say")
}))

for (mode in c("deputy", "closed", "open")) {
  check(sprintf("hookrun missing (bin = a nonexistent path), fail_mode = \"%s\"", mode), with_deputy("s7", {
    missing_bin <- file.path(out, "no-such-hookrun")
    reg <- registry(hookrun_hooks(events = c("PreToolUse", "PostToolUse"), fail_mode = mode, bin = missing_bin))
    pre <- capture(pre_tool(reg, "run_bash", list(command = "ls")))
    post <- capture(reg$fire("PostToolUse", tool_name = "run_bash", tool_result = "x", tool_error = NULL,
                             context = ctx()))
    said <- paste0("hookrun: cannot run ", missing_bin, ": no such file")
    if (mode == "deputy") {
      expect_equal(pre$value$permission, "deny", "PreToolUse denied by deputy's error rule")
      expect_equal(pre$value$reason, paste("Hook error:", said), "reason")
      expect(is.null(post$value), "PostToolUse: no result")
      errors <- reg$last_errors()
      expect_equal(vapply(errors, `[[`, "", "event"), c("PreToolUse", "PostToolUse"), "errors recorded")
      expect_equal(errors[[2]]$error, said, "the recorded error")
    } else if (mode == "closed") {
      expect_equal(pre$value$permission, "deny", "PreToolUse denied")
      expect_equal(pre$value$reason, said, "reason")
      expect(inherits(post$value, "HookResultPostToolUse"), "PostToolUse stops the run")
      expect_equal(post$value$continue, FALSE, "continue")
      expect_equal(post$value$stop_reason, said, "stop_reason")
      expect_equal(length(reg$last_errors()), 0L, "no hook error")
    } else {
      expect(is.null(pre$value) && is.null(post$value), "no decision")
      expect_equal(c(pre$warnings, post$warnings), c(said, said), "one warning each")
    }
  }))
}

check("bin = NULL: $HOOKRUN_BIN, else hookrun on the PATH, else a clear error", with_deputy("s7", {
  Sys.setenv(HOOKRUN_BIN = bin)
  hooks <- capture(hookrun_hooks(config = fixture("some-events.toml")))
  Sys.unsetenv("HOOKRUN_BIN")
  expect_equal(length(hooks$value), 3L, "HOOKRUN_BIN was used")
  with_path(file.path(out, "empty-path"), {
    r <- capture(hookrun_hooks(config = fixture("some-events.toml")))
    expect_match(r$value[[1]], "the hookrun binary was not found", "error")
    reg <- registry(hookrun_hooks(events = "PreToolUse"))
    expect_match(pre_tool(reg, "run_bash", list(command = "ls"))$reason, "was not found", "deny reason")
  })
}))

check("hookrun's own error (a bad config) denies with its reason; under --on-error allow it names the binary, its exit status and its stderr", with_deputy("s7", {
  bad <- file.path(out, "bad.toml")
  writeLines(c("[[hooks]]", "event = \"PreToolUse\"", "command = \"true\"", "no_such_key = 1"), bad)
  reg <- registry(hookrun_hooks(config = bad, events = "PreToolUse", bin = bin))
  res <- pre_tool(reg, "run_bash", list(command = "ls"))
  expect_equal(res$permission, "deny", "hookrun's own deny")
  expect_match(res$reason, "bad.toml:4:1 at", "file and line")
  expect_match(res$reason, "no_such_key", "key")
  Sys.setenv(HOOKRUN_ON_ERROR = "allow")
  on.exit(Sys.unsetenv("HOOKRUN_ON_ERROR"), add = TRUE)
  reason <- pre_tool(reg, "run_bash", list(command = "ls"))$reason
  Sys.unsetenv("HOOKRUN_ON_ERROR")
  expect_match(reason, paste(bin, "run on PreToolUse exited with status 1: hookrun: error:"), "reason")
  expect_match(reason, "no_such_key", "hookrun's stderr")
  r <- capture(hookrun_hooks(config = bad, bin = bin))
  expect_match(r$value[[1]], "config events exited with status 1", "config events error")
}))

check("an event too large for hookrun's limit, under a closed guard: denied even with fail_mode = \"open\"", with_deputy("s7", {
  small <- file.path(out, "small-limit.toml")
  writeLines(c("[limits]", "max_event_bytes = 1000", "",
               "[[hooks]]", "event = \"PreToolUse\"", "builtin = \"dangerous-commands\"",
               "fail_mode = \"closed\""), small)
  reg <- registry(hookrun_hooks(config = small, events = "PreToolUse", fail_mode = "open", bin = bin))
  res <- pre_tool(reg, "run_bash", list(command = strrep("x", 3000)))
  expect_equal(res$permission, "deny", "permission")
  expect_match(res$reason, "larger than the limit of 1000 bytes", "reason")
  expect(is.null(pre_tool(reg, "run_bash", list(command = "ls"))), "a small event is allowed")
}))

check("an answer that is not the protocol's is a failure, never a call", with_deputy("s7", {
  fake <- fixture("scripts/fake-hookrun.sh")
  reg <- registry(hookrun_hooks(events = "PreToolUse", fail_mode = "closed", bin = fake))
  for (answer in c("not json", "[1, 2]", '{"args": {}}', '{"result": "system", "args": {"command": "id"}}')) {
    Sys.setenv(FAKE_HOOKRUN_ANSWER = answer)
    res <- pre_tool(reg, "run_bash", list(command = "ls"))
    expect_equal(res$permission, "deny", paste("permission for", answer))
  }
  expect_match(res$reason, "unknown result system", "reason")
}))

check("an error whose text has braces survives deputy's cli alert: still deputy's deny, and recorded", with_deputy("s7", {
  Sys.setenv(FAKE_HOOKRUN_ANSWER = '{"args": {}}')
  on.exit(Sys.unsetenv("FAKE_HOOKRUN_ANSWER"))
  reg <- registry(hookrun_hooks(events = c("PreToolUse", "PostToolUse"), bin = fixture("scripts/fake-hookrun.sh")))
  pre <- capture(pre_tool(reg, "run_bash", list(command = "ls")))
  expect(!inherits(pre$value, "failed"), paste("fire() raised:", pre$value[[1]]))
  expect_equal(pre$value$permission, "deny", "permission")
  expect_match(pre$value$reason, "Hook error: hookrun: ", "deputy's error rule")
  expect_match(pre$value$reason, '{{"args": {{}}}}', "braces doubled, cli's escape")
  post <- capture(reg$fire("PostToolUse", tool_name = "run_bash", tool_result = "x", tool_error = NULL,
                           context = ctx()))
  expect(!inherits(post$value, "failed"), paste("fire() raised on PostToolUse:", post$value[[1]]))
  expect_equal(length(reg$last_errors()), 2L, "both recorded")
}))

check("older deputy (no HookResultStop): a Stop block is warned about, not dropped", with_deputy("older", {
  reg <- registry(hookrun_hooks(config = fixture("decisions.toml"), events = "Stop", bin = bin))
  r <- capture(reg$fire("Stop", reason = "complete", context = ctx(stop_hook_active = FALSE)))
  expect(is.null(r$value), "no result")
  expect_match(r$warnings, "hookrun: this deputy has no HookResultStop()", "warning")
  expect_match(r$warnings, "Add a Sources: line", "the lost message is named")
}))

check("older deputy: the config's PostModelRequest is not registered, with a warning", with_deputy("older", {
  r <- capture(hookrun_hooks(config = fixture("some-events.toml"), bin = bin))
  expect_equal(sort(names(r$value)), c("PreToolUse", "Stop"), "events")
  expect_match(r$warnings, "this deputy has no PostModelRequest event", "warning")
}))

check("older deputy, fail_mode = \"closed\": the Stop block becomes a recorded hook error", with_deputy("older", {
  reg <- registry(hookrun_hooks(config = fixture("decisions.toml"), events = "Stop",
                                fail_mode = "closed", bin = bin))
  r <- capture(reg$fire("Stop", reason = "complete", context = ctx(stop_hook_active = FALSE)))
  expect(is.null(r$value), "no result")
  expect_match(reg$last_errors()[[1]]$error, "no HookResultStop()", "recorded error")
}))
