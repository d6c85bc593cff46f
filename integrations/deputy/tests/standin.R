# A minimal stand-in for deputy's hook API, written from its documentation
# (deputy cannot be installed without network access: it needs ellmer and
# S7 from CRAN). It has what the adapter touches and what decides how a hook's
# result is used: HookEvent, HookMatcher (validated like deputy's), the
# result constructors with deputy's list-with-class shapes, and a registry
# whose fire() has deputy's rules: hooks in order, the first non-NULL result
# decides, a PreToolUse error denies, other errors are recorded and skipped,
# each printed as deputy main prints it (standin_alert()).
#
# standin_deputy(variant) returns an environment to attach():
#   "s7"    the S7-era API (HookMatcher() a function, timeout = 0 default),
#           with PostModelRequest and HookResultStop(message);
#   "r6"    deputy main's R6 HookMatcher$new(), default timeout = 30;
#   "older" as "s7" without PostModelRequest and without HookResultStop.

standin_events <- c(
  "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostModelRequest",
  "PermissionRequest", "SessionStart", "UserPromptSubmit", "Stop", "SessionEnd",
  "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "Notification",
  "ConfigChange"
)

standin_arguments <- list(
  PreToolUse = c("tool_name", "tool_input", "context"),
  PostToolUse = c("tool_name", "tool_result", "tool_error", "context"),
  PostToolUseFailure = c("tool_name", "tool_result", "tool_error", "context"),
  PostModelRequest = "context",
  PermissionRequest = c("tool_name", "tool_input", "permission_result", "context"),
  SessionStart = "context",
  UserPromptSubmit = c("prompt", "context"),
  Stop = c("reason", "context"),
  SessionEnd = c("reason", "context"),
  SubagentStart = c("agent_name", "task", "context"),
  SubagentStop = c("agent_name", "task", "result", "context"),
  PreCompact = c("turns_to_compact", "turns_to_keep", "context"),
  PostCompact = c("result", "context"),
  Notification = c("message", "context"),
  ConfigChange = c("key", "old_value", "new_value", "context")
)

standin_deputy <- function(variant = c("s7", "r6", "older")) {
  variant <- match.arg(variant)
  e <- new.env()
  e$HookEvent <- if (variant == "older") setdiff(standin_events, "PostModelRequest") else standin_events

  # deputy's validate_hook_callback: the event's arguments, or `...`; no
  # extra argument without a default.
  validate <- function(event, callback, pattern, timeout) {
    if (!is.character(event) || length(event) != 1L || !event %in% e$HookEvent) {
      stop("Invalid hook event: ", event)
    }
    if (!is.function(callback)) stop("`callback` must be a function")
    f <- formals(callback)
    actual <- names(f)
    extra <- setdiff(actual, c(standin_arguments[[event]], "..."))
    required <- extra[vapply(f[extra], function(v) identical(v, quote(expr = )), TRUE)]
    if (is.null(f) || (!"..." %in% actual && length(setdiff(standin_arguments[[event]], actual)) > 0L) ||
        length(required) > 0L) {
      stop("Invalid callback for \"", event, "\" hook.")
    }
    if (!is.null(pattern) && (!is.character(pattern) || length(pattern) != 1L)) {
      stop("`pattern` must be NULL or one non-missing string")
    }
    if (!is.numeric(timeout) || length(timeout) != 1L || timeout < 0) stop("bad timeout")
  }

  if (variant == "r6") {
    e$HookMatcher <- R6::R6Class("HookMatcher",
      public = list(
        event = NULL, callback = NULL, pattern = NULL, timeout = NULL,
        initialize = function(event, callback, pattern = NULL, timeout = 30) {
          validate(event, callback, pattern, timeout)
          self$event <- event
          self$callback <- callback
          self$pattern <- pattern
          self$timeout <- timeout
        },
        matches = function(tool_name = NULL) {
          is.null(self$pattern) || (!is.null(tool_name) && grepl(self$pattern, tool_name))
        }
      )
    )
  } else {
    e$HookMatcher <- function(event, callback, pattern = NULL, timeout = 0) {
      validate(event, callback, pattern, timeout)
      structure(list(event = event, callback = callback, pattern = pattern, timeout = timeout),
                class = c("deputy::HookMatcher", "S7_object"))
    }
  }

  e$HookResultPreToolUse <- function(permission = c("allow", "deny"), reason = NULL,
                                     continue = TRUE, additional_context = NULL,
                                     stop_reason = NULL) {
    permission <- match.arg(permission)
    structure(list(permission = permission, reason = reason, continue = continue,
                   additional_context = additional_context, stop_reason = stop_reason),
              class = c("HookResultPreToolUse", "HookResult", "list"))
  }
  e$HookResultPostToolUse <- function(continue = TRUE, suppress_output = FALSE,
                                      updated_tool_output = NULL, additional_context = NULL,
                                      stop_reason = NULL) {
    structure(list(continue = continue, suppress_output = isTRUE(suppress_output),
                   updated_tool_output = updated_tool_output,
                   additional_context = additional_context, stop_reason = stop_reason),
              class = c("HookResultPostToolUse", "HookResult", "list"))
  }
  e$HookResultPreCompact <- function(continue = TRUE, summary = NULL) {
    structure(list(continue = continue, summary = summary),
              class = c("HookResultPreCompact", "HookResult", "list"))
  }
  if (variant != "older") {
    e$HookResultStop <- function(message) {
      structure(list(message = message), class = c("HookResultStop", "HookResult", "list"))
    }
  }
  e$PermissionResultAllow <- function(message = NULL) {
    structure(list(decision = "allow", message = message),
              class = c("PermissionResultAllow", "PermissionResult", "list"))
  }
  e$PermissionResultDeny <- function(reason, interrupt = FALSE) {
    structure(list(decision = "deny", reason = reason, interrupt = interrupt),
              class = c("PermissionResultDeny", "PermissionResult", "list"))
  }

  # deputy's HookRegistry$fire(). A matcher with timeout > 0 would run in a
  # callr process, where the adapter's closure cannot work: here it is an
  # error, so a matcher built with a positive timeout fails the tests.
  e$HookRegistry <- R6::R6Class("HookRegistry",
    public = list(
      hooks = list(), errors = list(),
      add = function(hook) {
        self$hooks <- c(self$hooks, list(hook))
        invisible(self)
      },
      fire = function(event, tool_name = NULL, ...) {
        args <- list(...)
        if (!is.null(tool_name)) args <- c(list(tool_name = tool_name), args)
        for (hook in self$hooks) {
          if (hook$event != event) next
          if (!is.null(hook$pattern) && (is.null(tool_name) || !grepl(hook$pattern, tool_name))) next
          result <- tryCatch({
            if (hook$timeout > 0) stop("timeout > 0: deputy would run this callback in callr")
            do.call(hook$callback, args)
          }, error = function(err) {
            msg <- conditionMessage(err)
            self$errors <- c(self$errors, list(list(event = event, tool_name = tool_name, error = msg)))
            standin_alert(paste(event, "hook failed"), msg)
            if (event == "PreToolUse") {
              return(e$HookResultPreToolUse(permission = "deny", reason = paste("Hook error:", msg)))
            }
            NULL
          })
          if (!is.null(result)) return(result)
        }
        NULL
      },
      last_errors = function() self$errors
    )
  )
  e
}

# deputy main's fire() prints a hook's error with cli::cli_alert_danger(),
# which reads `{...}` in the text as R code (`{{` is a literal brace): a lone
# brace makes the handler itself fail, and that error escapes fire(). Without
# cli installed, the same rule is applied by hand.
standin_alert <- function(what, msg) {
  if (requireNamespace("cli", quietly = TRUE)) {
    suppressMessages(cli::cli_alert_danger(c(what, "x" = msg)))
  } else if (grepl("[{}]", gsub("{{", "", gsub("}}", "", msg, fixed = TRUE), fixed = TRUE))) {
    stop("Could not parse cli `{}` expression in: ", msg, call. = FALSE)
  }
  invisible()
}

# deputy's objects as they reach a hook: an S7 value (base type S4 without the
# S4 bit, properties as attributes, class "deputy::Name" then "S7_object") and
# an R6 object with fields and methods.
standin_s7 <- function(class, ...) {
  x <- .standin_s7_base()
  props <- list(...)
  for (p in names(props)) attr(x, p) <- props[[p]]
  class(x) <- c(paste0("deputy::", class), "S7_object")
  x
}

.standin_s7_base <- local({
  base <- NULL
  function() {
    if (is.null(base)) {
      methods::setClass("StandinS7Base", representation(x = "numeric"), where = globalenv())
      b <- methods::new("StandinS7Base", x = 0)
      attributes(b) <- NULL
      base <<- asS4(b, FALSE, complete = FALSE)
    }
    base
  }
})

StandinUsage <- R6::R6Class("AgentUsage",
  public = list(
    input_tokens = 120L, output_tokens = 30L,
    total = function() self$input_tokens + self$output_tokens
  ),
  active = list(total_tokens = function() self$input_tokens + self$output_tokens)
)

# A context as deputy builds it, with the fields the wire protocol reads.
standin_context <- function(dir, ...) {
  base <- list(
    working_dir = dir, agent_id = "agent-1", agent_name = NULL, run_id = "run-42",
    session_id = "sess-7", run_context = list()
  )
  extra <- list(...)
  base[names(extra)] <- extra
  base
}
