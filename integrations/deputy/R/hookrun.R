# hookrun for deputy: one deputy hook per event, each a call of
# `hookrun run --dialect deputy`. The whole adapter is this one file, so that
# `source("integrations/deputy/R/hookrun.R")` works as well as the package.
# The wire protocol and what each answer becomes: docs/deputy.md of hookrun.

# deputy's events and their callback arguments, context left out (deputy's
# `hook_callback_arguments`, plus PostModelRequest and PostCompact of newer
# versions). The names are also the only events `events =` accepts.
.hookrun_events <- list(
  PreToolUse = c("tool_name", "tool_input"),
  PostToolUse = c("tool_name", "tool_result", "tool_error"),
  PostToolUseFailure = c("tool_name", "tool_result", "tool_error"),
  PostModelRequest = character(0),
  PermissionRequest = c("tool_name", "tool_input", "permission_result"),
  SessionStart = character(0),
  UserPromptSubmit = "prompt",
  Stop = "reason",
  SessionEnd = "reason",
  SubagentStart = c("agent_name", "task"),
  SubagentStop = c("agent_name", "task", "result"),
  PreCompact = c("turns_to_compact", "turns_to_keep"),
  PostCompact = "result",
  Notification = "message",
  ConfigChange = c("key", "old_value", "new_value")
)

# The only constructors an answer may name: hookrun's answer never calls
# anything else in the R session.
.hookrun_results <- c(
  "HookResultPreToolUse", "HookResultPostToolUse", "HookResultPreCompact",
  "HookResultStop", "PermissionResultAllow", "PermissionResultDeny"
)

# What a call may take when neither `timeout` nor hookrun says.
.hookrun_default_timeout <- 60

# Objects deeper than this are written as `{"class": ...}`, so that cycles
# between R6 objects (an agent and its registry) end.
.hookrun_max_depth <- 8L

#' Hooks that run hookrun for a deputy agent
#'
#' Returns one deputy `HookMatcher` per event. Each call writes the event as
#' JSON, runs `hookrun run --dialect deputy` on it and turns hookrun's answer
#' into deputy's result (`HookResultPreToolUse()`, `PermissionResultDeny()`,
#' ...). The matchers have no pattern (hookrun matches tools itself) and
#' `timeout = 0`: a positive timeout would move the callback into a callr
#' process, and hookrun has its own limits.
#'
#' @param config Paths of hookrun config files, passed as `--config`. `NULL`:
#'   hookrun's own discovery (user config, `$HOOKRUN_CONFIG`, `./hookrun.toml`).
#' @param events deputy event names to register. `NULL`: exactly the events the
#'   config uses, as `hookrun config events --dialect deputy` lists them.
#' @param fail_mode What a failure of hookrun itself (not found, timed out,
#'   exit status other than 0, an answer that is not the protocol's) and an
#'   answer deputy cannot carry mean. `"deputy"`: an R error, which deputy
#'   turns into a denial for PreToolUse and records for other events.
#'   `"closed"`: a denial (PreToolUse, PermissionRequest), a stop
#'   (PostToolUse), a cancelled compaction (PreCompact), else an R error.
#'   `"open"`: a warning, and no decision.
#' @param timeout Seconds hookrun may take per call; on expiry its whole
#'   process tree, hooks included, is killed. `NULL`: per event, what
#'   `hookrun config events --timeouts` says (the event's longest hook
#'   timeout and a margin), so that hookrun ends a slow hook itself and
#'   answers; 60 s where hookrun cannot say.
#' @param bin The hookrun binary. Default: `$HOOKRUN_BIN`, else `hookrun` on
#'   the `PATH`.
#' @return A named list of `HookMatcher`s, one per event; add each with
#'   `agent$add_hook()`.
#' @export
hookrun_hooks <- function(config = NULL, events = NULL,
                          fail_mode = c("deputy", "closed", "open"),
                          timeout = NULL, bin = NULL) {
  fail_mode <- match.arg(fail_mode)
  if (!is.null(timeout) &&
        (!is.numeric(timeout) || length(timeout) != 1L || is.na(timeout) || timeout <= 0)) {
    stop("hookrun: `timeout` must be NULL or one positive number of seconds", call. = FALSE)
  }
  config_args <- .hookrun_config_args(config)
  bin <- .hookrun_bin(bin)
  matcher <- .hookrun_deputy_get("HookMatcher")
  if (is.null(matcher)) {
    stop("hookrun: deputy's HookMatcher was not found (neither in an installed ",
         "deputy package nor on the search path); install or attach deputy first",
         call. = FALSE)
  }
  # Per event: the seconds hookrun needs to end its slowest hook itself.
  listed <- NULL
  if (is.null(events)) {
    listed <- .hookrun_config_events(bin, config_args, .hookrun_default_timeout)
    events <- names(listed)
  } else {
    bad <- setdiff(events, names(.hookrun_events))
    if (length(bad) > 0L) {
      stop("hookrun: not deputy event names: ", paste(bad, collapse = ", "),
           " (known: ", paste(names(.hookrun_events), collapse = ", "), ")", call. = FALSE)
    }
  }
  if (is.null(timeout) && is.null(listed)) {
    # Asked only for the timeouts: a hookrun that cannot say (missing, or
    # a config it refuses) fails each call instead, under `fail_mode`.
    listed <- tryCatch(suppressWarnings(
      .hookrun_config_events(bin, config_args, .hookrun_default_timeout)),
      error = function(e) NULL)
  }
  events <- .hookrun_known_events(unique(as.character(events)))
  timeouts <- structure(vapply(events, function(e) {
    if (!is.null(timeout)) timeout
    else if (!is.null(listed) && !is.na(listed[e])) unname(listed[e])
    else .hookrun_default_timeout
  }, numeric(1)), names = events)
  if (length(events) == 0L) {
    warning("hookrun: no deputy event to register (the config has no hook on one): ",
            "nothing guards this agent", call. = FALSE)
  }
  state <- list(
    bin = bin, config_args = config_args, fail_mode = fail_mode, timeouts = timeouts,
    api = structure(lapply(.hookrun_results, .hookrun_deputy_get, mode = "function"),
                    names = .hookrun_results)
  )
  hooks <- lapply(events, function(event) {
    callback <- function(...) .hookrun_call(event, list(...), state)
    .hookrun_matcher(matcher, event, callback)
  })
  structure(hooks, names = events)
}

# deputy's own object when deputy is installed (a stand-in on the search path
# must not shadow it), else whatever the search path has under that name.
# NULL when absent: that is how features of older deputy versions are detected.
.hookrun_deputy_get <- function(name, mode = "any") {
  if (requireNamespace("deputy", quietly = TRUE)) {
    return(get0(name, envir = asNamespace("deputy"), mode = mode, inherits = FALSE))
  }
  get0(name, envir = globalenv(), mode = mode, inherits = TRUE)
}

# Builds the matcher in-process (timeout = 0) for either generation of
# deputy: the R6 generator of deputy main, or the S7-era constructor function.
.hookrun_matcher <- function(matcher, event, callback) {
  if (inherits(matcher, "R6ClassGenerator")) {
    return(matcher$new(event = event, callback = callback, pattern = NULL, timeout = 0))
  }
  if (!is.function(matcher)) {
    stop("hookrun: deputy's HookMatcher is neither an R6 class nor a function", call. = FALSE)
  }
  if ("timeout" %in% names(formals(matcher))) {
    return(matcher(event = event, callback = callback, pattern = NULL, timeout = 0))
  }
  matcher(event = event, callback = callback, pattern = NULL)
}

# Drops (with a warning naming them) the events this deputy does not list in
# HookEvent: registering them would fail, or never fire.
.hookrun_known_events <- function(events) {
  ours <- intersect(events, names(.hookrun_events))
  if (length(ours) < length(events)) {
    warning("hookrun: not deputy events, not registered: ",
            paste(setdiff(events, ours), collapse = ", "), call. = FALSE)
  }
  known <- .hookrun_deputy_get("HookEvent", mode = "character")
  if (is.null(known)) {
    return(ours)
  }
  missing <- setdiff(ours, known)
  if (length(missing) > 0L) {
    warning("hookrun: this deputy has no ", paste(missing, collapse = ", "),
            " event; the config's hooks for it will not run", call. = FALSE)
  }
  intersect(ours, known)
}

.hookrun_bin <- function(bin) {
  if (is.null(bin) || !nzchar(bin)) bin <- Sys.getenv("HOOKRUN_BIN")
  if (!nzchar(bin)) bin <- unname(Sys.which("hookrun"))
  if (!nzchar(bin)) NA_character_ else path.expand(bin)
}

# Absolute paths, so the answer does not depend on hookrun's working directory.
.hookrun_config_args <- function(config) {
  if (is.null(config)) return(character(0))
  if (!is.character(config) || anyNA(config)) {
    stop("hookrun: `config` must be NULL or file paths", call. = FALSE)
  }
  missing <- config[!file.exists(config)]
  if (length(missing) > 0L) {
    stop("hookrun: config file not found: ", paste(missing, collapse = ", "), call. = FALSE)
  }
  as.vector(rbind("--config", normalizePath(config)))
}

# The config's events (names) with the seconds to give hookrun on each.
.hookrun_config_events <- function(bin, config_args, timeout) {
  out <- .hookrun_exec(bin, c("config", "events", "--dialect", "deputy", "--timeouts",
                              config_args),
                       NULL, timeout, "config events")
  if (!is.null(out$problem)) stop("hookrun: ", out$problem, call. = FALSE)
  # hookrun's warnings (a hook on an event deputy never fires) are passed on.
  for (w in .hookrun_lines(out$stderr)) {
    warning(if (startsWith(w, "hookrun: ")) w else paste0("hookrun: ", w), call. = FALSE)
  }
  fields <- strsplit(.hookrun_lines(out$stdout), "\t", fixed = TRUE)
  secs <- vapply(fields, function(f) if (length(f) == 2L) suppressWarnings(as.numeric(f[[2]])) else NA_real_,
                 numeric(1))
  names(secs) <- vapply(fields, `[[`, "", 1L)
  if (anyNA(secs)) {
    stop("hookrun: `config events --timeouts` printed lines that are not `EVENT<TAB>SECONDS`: ",
         paste(.hookrun_lines(out$stdout), collapse = "; "), call. = FALSE)
  }
  secs
}

.hookrun_lines <- function(text) {
  lines <- trimws(strsplit(text, "\n", fixed = TRUE)[[1]])
  lines[nzchar(lines)]
}

# Runs hookrun; list(stdout=) or list(problem=) with a sentence naming the
# binary and what went wrong (exit status and hookrun's stderr included).
.hookrun_exec <- function(bin, args, stdin, timeout, what) {
  if (is.na(bin)) {
    return(list(problem = paste0("the hookrun binary was not found (no `bin`, ",
                                 "HOOKRUN_BIN unset and no hookrun on the PATH)")))
  }
  if (!file.exists(bin)) {
    return(list(problem = sprintf("cannot run %s: no such file", bin)))
  }
  # Output goes to files (no pipe can fill and stall hookrun), and the tree
  # is only searched for on a timeout: processx::run(cleanup_tree = TRUE)
  # scans every process at the end of each call, which doubles its cost.
  files <- c(stdout = tempfile("hookrun-out-"), stderr = tempfile("hookrun-err-"))
  on.exit(unlink(files), add = TRUE)
  p <- tryCatch(
    processx::process$new(bin, args, stdin = stdin, stdout = files[["stdout"]],
                          stderr = files[["stderr"]], cleanup = TRUE, cleanup_tree = FALSE),
    error = function(e) e
  )
  if (inherits(p, "error")) {
    return(list(problem = sprintf("cannot run %s: %s", bin, conditionMessage(p))))
  }
  p$wait(as.integer(ceiling(timeout * 1000)))
  if (p$is_alive()) {
    # hookrun ends its hooks' process trees on SIGTERM; the tree is then
    # killed whatever is left, hookrun included.
    p$signal(15L)
    p$wait(2000L)
    p$kill_tree()
    return(list(problem = sprintf(
      "%s %s timed out after %s s; its process tree was killed", bin, what, format(timeout))))
  }
  status <- p$get_exit_status()
  read <- function(f) {
    size <- file.size(f)
    if (is.na(size) || size == 0) "" else readChar(f, size, useBytes = TRUE)
  }
  res <- list(status = status, stdout = read(files[["stdout"]]), stderr = read(files[["stderr"]]))
  Encoding(res$stdout) <- "UTF-8"
  Encoding(res$stderr) <- "UTF-8"
  if (!identical(res$status, 0L)) {
    how <- if (res$status < 0L) sprintf("was killed by signal %d", -res$status)
           else sprintf("exited with status %d", res$status)
    err <- trimws(res$stderr)
    return(list(problem = sprintf("%s %s %s%s", bin, what, how,
                                  if (nzchar(err)) paste0(": ", err) else " (no stderr)")))
  }
  list(stdout = res$stdout, stderr = res$stderr)
}

# One hook call: event JSON to a temp file, hookrun on it, answer to a result.
.hookrun_call <- function(event, args, state) {
  json <- jsonlite::toJSON(.hookrun_event(event, args), auto_unbox = TRUE, null = "null",
                           na = "null", digits = NA, force = TRUE)
  file <- tempfile("hookrun-deputy-", fileext = ".json")
  on.exit(unlink(file), add = TRUE)
  writeBin(charToRaw(enc2utf8(as.character(json))), file)
  # --event too: an event hookrun cannot read (too large for its limits)
  # still gets a deputy answer, a deny where hookrun fails closed.
  out <- .hookrun_exec(state$bin, c("run", "--dialect", "deputy", "--event", event,
                                    state$config_args),
                       file, state$timeouts[[event]], paste("run on", event))
  if (!is.null(out$problem)) return(.hookrun_fail(state, event, out$problem))
  answer <- .hookrun_parse(out$stdout)
  if (is.character(answer)) {
    return(.hookrun_fail(state, event, sprintf("%s gave no deputy answer on %s: %s",
                                               state$bin, event, answer)))
  }
  .hookrun_apply(state, event, answer)
}

# The event object: deputy's arguments by name (a missing one as an explicit
# null), then the whole context. Unnamed arguments take the event's names in
# order, so the JSON is the same however deputy passed them.
.hookrun_event <- function(event, args) {
  expected <- c(.hookrun_events[[event]], "context")
  nm <- names(args)
  if (is.null(nm)) nm <- rep("", length(args))
  free <- setdiff(expected, nm)
  unnamed <- which(!nzchar(nm))
  nm[unnamed] <- c(free, paste0("arg", unnamed))[seq_along(unnamed)]
  names(args) <- nm
  out <- list(deputy_event = event)
  for (a in setdiff(union(expected, nm), "context")) {
    value <- .hookrun_plain(args[[a]])
    out[a] <- list(if (a == "tool_input") .hookrun_object(value) else value)
  }
  context <- .hookrun_object(.hookrun_plain(args[["context"]]))
  # deputy's run_context is a JSON object, and an empty one is R's list().
  if (is.list(context) && "run_context" %in% names(context) &&
      is.list(context[["run_context"]]) && length(context[["run_context"]]) == 0L) {
    context["run_context"] <- list(structure(list(), names = character(0)))
  }
  out["context"] <- list(context)
  out
}

# An empty or NULL value that must be a JSON object is written as `{}`.
.hookrun_object <- function(x) {
  if (length(x) == 0L && (is.null(x) || is.list(x))) structure(list(), names = character(0)) else x
}

.hookrun_class_name <- function(x) sub("^.*::", "", class(x)[1L])

# R value -> what jsonlite writes as plain JSON: S7 and R6 objects as objects
# with their class name, conditions as their message, functions and
# environments as their class, named vectors as objects.
.hookrun_plain <- function(x, depth = 1L) {
  if (is.null(x)) return(NULL)
  s7 <- "S7_object" %in% attr(x, "class")
  if (inherits(x, "condition")) return(conditionMessage(x))
  if (depth > .hookrun_max_depth && (s7 || is.list(x) || is.environment(x) || isS4(x))) {
    return(list(class = .hookrun_class_name(x)))
  }
  if (s7) return(.hookrun_s7(x, depth))
  if (inherits(x, "R6")) return(.hookrun_r6(x, depth))
  if (is.function(x) || is.environment(x)) return(list(class = .hookrun_class_name(x)))
  if (inherits(x, "POSIXt")) return(format(as.POSIXct(x), "%Y-%m-%dT%H:%M:%SZ", tz = "UTC"))
  if (inherits(x, "Date")) return(format(x, "%Y-%m-%d"))
  if (is.factor(x)) return(as.character(x))
  if (is.data.frame(x)) return(x)
  if (is.list(x)) {
    out <- lapply(unclass(x), .hookrun_plain, depth = depth + 1L)
    if (!is.null(names(x))) names(out) <- .hookrun_names(names(x))
    # A classed list is an S3 object (deputy main's AgentUsage, a
    # PermissionResultDeny): its class name goes with its fields.
    if (!is.null(oldClass(x)) && !is.null(names(x)) && !"class" %in% names(out)) {
      out <- c(list(class = .hookrun_class_name(x)), out)
    }
    return(out)
  }
  if (is.atomic(x)) {
    if (!is.null(names(x)) && length(x) > 0L) {
      return(structure(as.list(as.vector(x)), names = .hookrun_names(names(x))))
    }
    return(as.vector(x))
  }
  if (isS4(x)) {
    slots <- attributes(x)[setdiff(names(attributes(x)), "class")]
    return(c(list(class = .hookrun_class_name(x)), lapply(slots, .hookrun_plain, depth = depth + 1L)))
  }
  if (is.symbol(x) || is.language(x)) return(paste(deparse(x), collapse = "\n"))
  list(class = .hookrun_class_name(x))
}

.hookrun_names <- function(nm) {
  nm[is.na(nm) | !nzchar(nm)] <- as.character(which(is.na(nm) | !nzchar(nm)))
  nm
}

# S7 properties: S7::props() when S7 is installed, else the attributes S7
# stores them in.
.hookrun_s7 <- function(x, depth) {
  props <- NULL
  if (requireNamespace("S7", quietly = TRUE)) {
    props <- tryCatch(S7::props(x), error = function(e) NULL)
  }
  if (is.null(props)) {
    a <- attributes(x)
    props <- a[setdiff(names(a), c("class", "S7_class"))]
  }
  c(list(class = .hookrun_class_name(x)), lapply(props, .hookrun_plain, depth = depth + 1L))
}

# An R6 object's public fields (active bindings included, methods left out).
.hookrun_r6 <- function(x, depth) {
  out <- list(class = .hookrun_class_name(x))
  for (name in ls(x)) {
    value <- tryCatch(get(name, envir = x, inherits = FALSE), error = function(e) e)
    if (is.function(value) || inherits(value, "error")) next
    out[name] <- list(.hookrun_plain(value, depth + 1L))
  }
  out
}

# The answer, or a character string saying why it is not the protocol's.
.hookrun_parse <- function(stdout) {
  shown <- substr(trimws(stdout), 1L, 200L)
  if (!nzchar(shown)) return("empty stdout")
  answer <- tryCatch(jsonlite::fromJSON(stdout, simplifyVector = FALSE),
                     error = function(e) strsplit(conditionMessage(e), "\n", fixed = TRUE)[[1]][1])
  if (is.character(answer)) return(sprintf("invalid JSON (%s): %s", trimws(answer), shown))
  strings <- function(v) is.null(v) || (is.list(v) && all(vapply(v, is.character, TRUE)))
  ok <- is.list(answer) && !is.null(names(answer)) && "result" %in% names(answer) &&
    (is.null(answer[["result"]]) ||
       (is.character(answer[["result"]]) && length(answer[["result"]]) == 1L)) &&
    (is.null(answer[["args"]]) || is.list(answer[["args"]])) &&
    strings(answer[["unsupported"]]) && strings(answer[["messages"]])
  if (!ok) return(paste("not an answer of the form {result, args, unsupported, messages}:", shown))
  answer
}

# Messages are shown; a result is built; what deputy cannot carry is warned
# about and, under fail_mode = "closed", turns into the closed result.
.hookrun_apply <- function(state, event, answer) {
  for (m in unlist(answer[["messages"]])) message("hookrun: ", m)
  unsupported <- unlist(answer[["unsupported"]])
  result <- NULL
  name <- answer[["result"]]
  if (!is.null(name)) {
    if (!name %in% .hookrun_results) {
      return(.hookrun_fail(state, event, sprintf("%s answered with an unknown result %s on %s",
                                                 state$bin, name, event)))
    }
    built <- tryCatch(.hookrun_build(state$api, name, answer[["args"]]),
                      error = function(e) conditionMessage(e))
    if (is.character(built)) {
      return(.hookrun_fail(state, event, sprintf("%s() failed on %s: %s", name, event, built)))
    }
    unsupported <- c(unsupported, built$unsupported)
    result <- built$value
  }
  for (u in unsupported) warning("hookrun: ", u, call. = FALSE)
  if (length(unsupported) > 0L && state$fail_mode == "closed") {
    return(.hookrun_closed(state, event, paste(unsupported, collapse = "; ")))
  }
  result
}

# Calls deputy's constructor. NULL arguments are left to its defaults; one it
# lacks (an older deputy) is dropped and reported; HookResultStop takes its
# message positionally, as deputy documents it.
.hookrun_build <- function(api, name, args) {
  fn <- api[[name]]
  args <- Filter(Negate(is.null), as.list(args))
  said <- if (length(args) > 0L) jsonlite::toJSON(args, auto_unbox = TRUE) else "{}"
  if (is.null(fn) || (name == "HookResultStop" && "handled" %in% names(formals(fn)))) {
    return(list(unsupported = sprintf("this deputy has no %s() to carry hookrun's answer; lost: %s",
                                      name, said)))
  }
  if (name == "HookResultStop") return(list(value = fn(args[["message"]])))
  accepted <- names(formals(fn))
  extra <- if ("..." %in% accepted) character(0) else setdiff(names(args), accepted)
  lost <- if (length(extra) > 0L) sprintf(
    "this deputy's %s() has no %s argument; lost: %s", name, paste(extra, collapse = ", "),
    jsonlite::toJSON(args[extra], auto_unbox = TRUE))
  list(value = do.call(fn, args[setdiff(names(args), extra)]), unsupported = lost)
}

# deputy's fire() prints a hook's error with cli, which reads `{...}` in the
# text as R code: a brace from hookrun's stderr or an answer's JSON would make
# that handler fail and the error escape fire(), so that deputy neither denies
# nor carries on. Doubled braces are cli's escape (printed single; deputy's
# deny reason and last_errors() keep them doubled).
.hookrun_error <- function(problem) {
  text <- gsub("([{}])", "\\1\\1", paste0("hookrun: ", problem))
  stop(structure(class = c("hookrun_error", "error", "condition"),
                 list(message = text, call = NULL)))
}

.hookrun_fail <- function(state, event, problem) {
  switch(state$fail_mode,
    deputy = .hookrun_error(problem),
    closed = .hookrun_closed(state, event, problem),
    open = {
      warning("hookrun: ", problem, call. = FALSE)
      NULL
    }
  )
}

# The result that refuses: deny, stop, or no compaction; an R error where
# deputy ignores results (it records the error).
.hookrun_closed <- function(state, event, problem) {
  reason <- paste0("hookrun: ", problem)
  make <- function(name, ...) {
    fn <- state$api[[name]]
    if (is.null(fn)) .hookrun_error(paste0(problem, " (and this deputy has no ", name, "())"))
    fn(...)
  }
  switch(event,
    PreToolUse = make("HookResultPreToolUse", permission = "deny", reason = reason),
    PermissionRequest = make("PermissionResultDeny", reason = reason),
    PostToolUse = make("HookResultPostToolUse", continue = FALSE, stop_reason = reason),
    PreCompact = make("HookResultPreCompact", continue = FALSE),
    .hookrun_error(problem)
  )
}
