# deputy's real Agent, end to end, with hookrun as its hooks: run by
# scripts/deputy-e2e (see its --help), which starts the mock model
# (mock_openai.py) and gives this script its URL and request log.
#
#   Rscript e2e.R --bin HOOKRUN --url http://127.0.0.1:PORT/v1 --log REQUESTS.jsonl
#                 --work DIR --hooks DIR
#
# Each scenario builds a deputy Agent on ellmer's chat_openai_compatible()
# pointed at the mock, with deputy's run_bash tool, adds hookrun's hooks as
# docs/deputy.md says (for (hook in hookrun_hooks(config = ...))
# agent$add_hook(hook)), runs it with agent$run_sync() and checks the files,
# the requests the mock received and deputy's AgentResult.

args <- commandArgs(trailingOnly = TRUE)
opt <- function(name) {
  i <- match(paste0("--", name), args)
  if (is.na(i) || i == length(args)) stop("e2e.R: --", name, " is required", call. = FALSE)
  args[[i + 1L]]
}
bin <- opt("bin")
url <- opt("url")
log <- opt("log")
work <- opt("work")
hooks_dir <- opt("hooks")

suppressPackageStartupMessages({
  library(deputy)
  library(hookrun)
})

passed <- 0L
failed <- 0L
check <- function(scenario, what, ok, detail = NULL) {
  ok <- isTRUE(ok)
  if (ok) passed <<- passed + 1L else failed <<- failed + 1L
  cat(sprintf("%s %s: %s", if (ok) "PASS" else "FAIL", scenario, what))
  if (!ok && length(detail) > 0L) cat(" --", paste(detail, collapse = " "))
  cat("\n")
}

# The requests the mock received for one model (one scenario), in order.
requests <- function(model) {
  if (!file.exists(log)) return(list())
  lines <- readLines(log, warn = FALSE)
  all <- lapply(lines[nzchar(lines)], jsonlite::fromJSON, simplifyVector = FALSE)
  Filter(function(r) identical(r$model, model), all)
}

# The messages of one request with the given role, as text.
contents <- function(request, role) {
  msgs <- Filter(function(m) identical(m$role, role), request$body$messages)
  vapply(msgs, function(m) {
    c <- m$content
    if (is.null(c)) "" else if (is.character(c)) paste(c, collapse = "")
    else paste(vapply(c, function(p) p$text %||% "", ""), collapse = "")
  }, "")
}
`%||%` <- function(a, b) if (is.null(a)) b else a

write_config <- function(dir, toml) {
  path <- file.path(dir, "hookrun.toml")
  writeLines(toml, path)
  path
}

# One deputy Agent on the mock (the model name picks the mock's script),
# with hookrun's hooks for `config`; the run's result and every warning.
run_agent <- function(model, dir, config, task) {
  chat <- ellmer::chat_openai_compatible(base_url = url, model = model,
                                         credentials = function() "mock-key",
                                         echo = "none")
  agent <- Agent$new(chat = chat, tools = list(tool_run_bash), permissions = permissions_full(),
                     working_dir = dir, usage_limits = UsageLimits(max_requests = 5))
  warnings <- character(0)
  result <- withCallingHandlers({
    for (hook in hookrun_hooks(config = config, bin = bin)) agent$add_hook(hook)
    agent$run_sync(task)
  }, warning = function(w) {
    warnings <<- c(warnings, conditionMessage(w))
    invokeRestart("muffleWarning")
  })
  for (w in warnings) cat("  warning:", w, "\n")
  list(result = result, warnings = warnings, agent = agent)
}

scenario <- function(name, fn) {
  dir <- file.path(work, name)
  dir.create(dir, recursive = TRUE, showWarnings = FALSE)
  cat(sprintf("-- %s\n", name))
  outcome <- tryCatch({
    fn(dir)
    NULL
  }, error = function(e) conditionMessage(e))
  if (!is.null(outcome)) check(name, "the scenario ran without an R error", FALSE, outcome)
}

# The run_bash command must not reach a real home: scripts/deputy-e2e sets
# HOME to a directory of its own, holding a canary file.
home <- normalizePath(path.expand("~"), mustWork = TRUE)
canary <- file.path(home, "canary")
if (!startsWith(home, normalizePath(work)) || !file.exists(canary)) {
  stop("e2e.R: HOME (", home, ") is not the sandbox home under --work with its canary; ",
       "run this through scripts/deputy-e2e", call. = FALSE)
}

# 1. A dangerous run_bash: hookrun's dangerous-commands guard denies it on
#    PreToolUse, the command does not run and the model is told why.
scenario("deny", function(dir) {
  marker <- file.path(dir, "ran")
  config <- write_config(dir, c(
    "[[hooks]]", 'name = "guard"', 'event = "PreToolUse"', 'builtin = "dangerous-commands"'))
  command <- sprintf("touch %s && rm -rf ~", shQuote(marker))
  writeLines(jsonlite::toJSON(list(deny = list(
    list(tool = "run_bash", arguments = list(command = command)),
    list(text = "I will not delete your home directory.")
  )), auto_unbox = TRUE), file.path(dir, "script.json"))
  run <- run_agent("deny", dir, config, "Free some disk space in my home directory.")
  reqs <- requests("deny")
  check("deny", "the command did not run (no marker file)", !file.exists(marker))
  check("deny", "the home directory is intact (its canary is there)", file.exists(canary))
  check("deny", "the model was asked twice (the call, then its denial)", length(reqs) == 2L,
        sprintf("%d requests", length(reqs)))
  told <- if (length(reqs) >= 2L) contents(reqs[[2]], "tool") else character(0)
  reason <- "[guard] dangerous command: `rm` recursively deletes `~`"
  check("deny", "the second request tells the model hookrun's reason",
        any(grepl(reason, told, fixed = TRUE)), c("tool messages:", told))
  ids <- if (length(reqs) >= 2L) {
    unlist(lapply(reqs[[2]]$body$messages, function(m) if (identical(m$role, "tool")) m$tool_call_id))
  }
  check("deny", "as the answer to the model's call (tool_call_id call_1), streamed",
        identical(ids, "call_1") && all(vapply(reqs, function(r) isTRUE(r$body$stream), TRUE)),
        deparse(ids))
  check("deny", "deputy's run ended complete with the model's answer",
        identical(run$result$stop_reason, "complete") &&
          identical(trimws(run$result$response), "I will not delete your home directory."),
        deparse(c(run$result$stop_reason, run$result$response)))
})

# 2. A Stop hook that blocks once (keyed on a state file), then allows.
scenario("stop", function(dir) {
  state <- file.path(dir, "stop-state")
  config <- write_config(dir, c(
    "[[hooks]]", 'name = "needs-sources"', 'event = "Stop"',
    sprintf("command = %s", jsonlite::toJSON(paste(shQuote(file.path(hooks_dir, "stop-once.sh")),
                                                   shQuote(state)), auto_unbox = TRUE))))
  reason <- "Add a Sources: line listing what you read."
  writeLines(jsonlite::toJSON(list(stop = list(
    list(text = "The answer is 42."),
    list(text = "The answer is 42. Sources: none.")
  )), auto_unbox = TRUE), file.path(dir, "script.json"))
  run <- run_agent("stop", dir, config, "What is the answer?")
  reqs <- requests("stop")
  fired <- if (file.exists(state)) readLines(state) else character(0)
  check("stop", "hookrun's Stop hook ran and blocked (its state file)", length(fired) >= 1L &&
          fired[[1]] == "blocked", fired)
  event <- file.path(dir, "stop-state.event.json")
  seen <- if (file.exists(event)) jsonlite::fromJSON(event, simplifyVector = FALSE) else list()
  check("stop", "the hook saw deputy's Stop (reason complete, stop_hook_active false)",
        identical(seen$reason, "complete") && identical(seen$stop_hook_active, FALSE),
        deparse(seen[c("reason", "stop_hook_active")]))
  stop_fn <- get0("HookResultStop", envir = asNamespace("deputy"), mode = "function")
  sends_on <- !is.null(stop_fn) && !"handled" %in% names(formals(stop_fn))
  if (sends_on) {
    check("stop", "the model got a further turn holding the reason", length(reqs) == 2L &&
            any(grepl(reason, contents(reqs[[2]], "user"), fixed = TRUE)),
          sprintf("%d requests", length(reqs)))
    check("stop", "the hook allowed the second stop (stop_hook_active)", identical(fired, c("blocked", "allowed")),
          fired)
    check("stop", "then the run ended", identical(trimws(run$result$response), "The answer is 42. Sources: none."),
          run$result$response)
  } else {
    # deputy main: Stop's result is ignored (no HookResultStop); the
    # adapter says what was lost (docs/deputy.md) and the run ends.
    lost <- sprintf("this deputy has no HookResultStop() to carry hookrun's answer; lost: %s",
                    jsonlite::toJSON(list(message = reason), auto_unbox = TRUE))
    check("stop", "this deputy has no HookResultStop: the adapter warned what was lost",
          any(grepl(lost, run$warnings, fixed = TRUE)), run$warnings)
    check("stop", "so no further turn: one request, the run ended complete",
          length(reqs) == 1L && identical(run$result$stop_reason, "complete") &&
            identical(trimws(run$result$response), "The answer is 42."),
          deparse(c(sprintf("%d requests", length(reqs)), run$result$stop_reason, run$result$response)))
  }
})

# 3. A PostToolUse hook ending the run (continue: false, stopReason): the
#    tool runs, then deputy stops with that reason and asks the model nothing
#    more.
scenario("poststop", function(dir) {
  marker <- file.path(dir, "ran")
  stop_reason <- "budget spent: one command per run"
  config <- write_config(dir, c(
    "[[hooks]]", 'name = "budget"', 'event = "PostToolUse"', 'matcher = "run_bash"',
    sprintf("command = %s", jsonlite::toJSON(sprintf(
      "printf '%%s\\n' '{\"continue\":false,\"stopReason\":\"%s\"}'", stop_reason), auto_unbox = TRUE))))
  writeLines(jsonlite::toJSON(list(poststop = list(
    list(tool = "run_bash", arguments = list(command = sprintf("echo ok > %s", shQuote(marker)))),
    list(text = "This reply must never be asked for.")
  )), auto_unbox = TRUE), file.path(dir, "script.json"))
  run <- run_agent("poststop", dir, config, "Write ok to a file.")
  reqs <- requests("poststop")
  check("poststop", "the tool ran (its marker file says ok)", file.exists(marker) &&
          identical(readLines(marker), "ok"))
  check("poststop", "no further model turn: one request", length(reqs) == 1L,
        sprintf("%d requests", length(reqs)))
  check("poststop", "deputy's stop_reason is hookrun's stopReason",
        identical(run$result$stop_reason, stop_reason), run$result$stop_reason)
})

cat(sprintf("%d passed, %d failed\n", passed, failed))
quit(status = if (failed == 0L) 0L else 1L)
