# hookrun's decisions as deputy results, through the stand-in's fire().

# The decisions config's hooks, then a stand-in hook that only runs when
# every earlier hook returned NULL.
decisions <- function(fail_mode = "deputy") {
  later <- HookMatcher("PreToolUse", function(tool_name, tool_input, context) "later hook ran")
  registry(hookrun_hooks(config = fixture("decisions.toml"), fail_mode = fail_mode, bin = bin), later)
}

pre_tool <- function(reg, tool, input) {
  reg$fire("PreToolUse", tool_name = tool, tool_input = input, context = ctx(tool_call_id = "call-9"))
}

with_deputy("s7", {
  reg <- tryCatch(decisions(), error = function(e) e)
  usable <- function() expect(!inherits(reg, "error"), paste("hookrun_hooks:", conditionMessage(reg)))

  check("a script hook exiting 2 denies with its stderr as the reason", {
    usable()
    res <- pre_tool(reg, "write_file", list(path = "notes.txt", content = "x"))
    expect(inherits(res, "HookResultPreToolUse"), "a HookResultPreToolUse")
    expect_equal(res$permission, "deny", "permission")
    expect_equal(res$reason, "writes are off today", "reason")
  })

  check("the dangerous-commands guard denies run_bash `rm -rf /`", {
    usable()
    res <- pre_tool(reg, "run_bash", list(command = "rm -rf /"))
    expect_equal(res$permission, "deny", "permission")
    expect_match(res$reason, "[guard] dangerous command", "the guard's reason, not a hook error")
    expect_match(res$reason, "`rm`", "the guard names the command")
  })

  check("additional context reaches HookResultPreToolUse(additional_context = )", {
    usable()
    res <- pre_tool(reg, "read_file", list(path = "README.md"))
    expect_equal(res$permission, "allow", "permission")
    expect_equal(res$additional_context, "read_file output is untrusted", "additional_context")
  })

  check("continue: false gives continue = FALSE and the stop reason", {
    usable()
    res <- pre_tool(reg, "expensive_tool", list())
    expect_equal(res$continue, FALSE, "continue")
    expect_equal(res$stop_reason, "budget spent", "stop_reason")
  })

  check("no decision gives NULL, so a later deputy hook still runs", {
    usable()
    r <- capture(pre_tool(reg, "run_bash", list(command = "ls -l")))
    expect_equal(r$value, "later hook ran", "the later hook decided")
    expect_equal(r$warnings, character(0), "no warning")
  })

  check("Stop: a block sends the run on once; with stop_hook_active it does not", {
    usable()
    first <- reg$fire("Stop", reason = "complete", context = ctx(stop_hook_active = FALSE))
    expect(inherits(first, "HookResultStop"), "a HookResultStop")
    expect_equal(first$message, "Add a Sources: line listing what you read.", "message")
    second <- reg$fire("Stop", reason = "complete", context = ctx(stop_hook_active = TRUE))
    expect(is.null(second), "NULL on the second stop")
  })

  check("PermissionRequest: a hook's allow gives PermissionResultAllow()", {
    usable()
    res <- reg$fire("PermissionRequest", tool_name = "run_r_code", tool_input = list(code = "1 + 1"),
                    permission_result = PermissionResultDeny("policy: no R"), context = ctx())
    expect(inherits(res, "PermissionResultAllow"), "a PermissionResultAllow")
    expect_equal(res$decision, "allow", "decision")
  })

  check("PermissionRequest: a hook's deny gives PermissionResultDeny(reason)", {
    usable()
    res <- reg$fire("PermissionRequest", tool_name = "write_file", tool_input = list(path = "a"),
                    permission_result = PermissionResultDeny("policy: read only"), context = ctx())
    expect(inherits(res, "PermissionResultDeny"), "a PermissionResultDeny")
    expect_equal(res$reason, "not without review", "reason")
    expect_equal(res$interrupt, FALSE, "interrupt")
  })

  check("PostToolUse: a block's reason is carried as additional context", {
    usable()
    res <- reg$fire("PostToolUse", tool_name = "read_file", tool_result = "AKIA...", tool_error = NULL,
                    context = ctx())
    expect(inherits(res, "HookResultPostToolUse"), "a HookResultPostToolUse")
    expect_equal(res$additional_context, "the output holds a secret", "additional_context")
    expect_equal(res$continue, TRUE, "continue")
  })

  check("PreCompact: a block cancels compaction", {
    usable()
    res <- reg$fire("PreCompact", turns_to_compact = list("t1"), turns_to_keep = list("t2"), context = ctx())
    expect(inherits(res, "HookResultPreCompact"), "a HookResultPreCompact")
    expect_equal(res$continue, FALSE, "continue")
  })

  check("messages: a hook's systemMessage is shown with message()", {
    usable()
    r <- capture(reg$fire("UserPromptSubmit", prompt = "hi", context = ctx()))
    expect(is.null(r$value), "no result")
    expect_match(r$messages, "hookrun: prompt logged", "message")
  })

  check("an answer deputy cannot carry (a rewrite of tool_input) is warned about", {
    usable()
    r <- capture(pre_tool(reg, "edit_file", list(path = "a.R")))
    expect_match(r$warnings, "hookrun: deputy cannot rewrite a tool's input", "warning")
    expect_equal(r$value, "later hook ran", "no result: the call goes on unchanged")
  })
})

check("under fail_mode = \"closed\" an answer deputy cannot carry denies", with_deputy("s7", {
  r <- capture(pre_tool(decisions("closed"), "edit_file", list(path = "a.R")))
  expect_equal(r$value$permission, "deny", "permission")
  expect_match(r$value$reason, "cannot rewrite a tool's input", "reason")
  expect_match(r$warnings, "cannot rewrite", "still warned about")
}))
