# Loads deputy's own hook code from a deputy source tree (a directory with
# R/hooks.R, R/hook-validation.R and R/permissions.R), without installing
# deputy: its package needs ellmer and S7, which are not always at hand.
#
# real_deputy(dir) returns an environment holding deputy's real HookEvent,
# HookMatcher (R6), HookRegistry (R6, with deputy's fire()), the result
# constructors, hook_block_dangerous_bash() and the callback validation, plus
# what those need from deputy's namespace (its imports from cli and rlang).
# Attach it, and the adapter finds deputy there as it would find it attached.

# Names that deputy's hook files use from its namespace (deputy-package.R
# imports them, or other files of deputy define them).
.real_deputy_imports <- function(e) {
  e$cli_abort <- cli::cli_abort
  e$cli_warn <- cli::cli_warn
  e$cli_alert_info <- cli::cli_alert_info
  e$cli_alert_danger <- cli::cli_alert_danger
  e$`%||%` <- rlang::`%||%`
  e$is_installed <- rlang::is_installed
  e$check_installed <- rlang::check_installed
  e
}

# Evaluates, into `e`, the top-level assignments of `file` to `names`; an
# error when one of them is not there (deputy changed).
.real_deputy_take <- function(file, names, e) {
  exprs <- parse(file, keep.source = FALSE)
  found <- character(0)
  for (ex in exprs) {
    if (is.call(ex) && as.character(ex[[1L]]) %in% c("<-", "=") && is.symbol(ex[[2L]]) &&
        as.character(ex[[2L]]) %in% names) {
      eval(ex, e)
      found <- c(found, as.character(ex[[2L]]))
    }
  }
  absent <- setdiff(names, found)
  if (length(absent) > 0L) {
    stop(sprintf("%s defines no %s", file, paste(absent, collapse = ", ")), call. = FALSE)
  }
  invisible(e)
}

# Evaluates a whole file into `e`, after checking that it only assigns (so
# nothing else of deputy runs).
.real_deputy_source <- function(file, e) {
  exprs <- parse(file, keep.source = FALSE)
  for (ex in exprs) {
    if (!(is.call(ex) && as.character(ex[[1L]]) %in% c("<-", "="))) {
      stop(sprintf("%s has a top-level expression that is not an assignment: %s", file,
                   paste(deparse(ex)[1L], collapse = "")), call. = FALSE)
    }
    eval(ex, e)
  }
  invisible(e)
}

real_deputy <- function(dir) {
  r <- file.path(dir, "R")
  needed <- file.path(r, c("hooks.R", "hook-validation.R", "permissions.R"))
  absent <- needed[!file.exists(needed)]
  if (length(absent) > 0L) {
    stop("not a deputy source tree (missing ", paste(absent, collapse = ", "), ")", call. = FALSE)
  }
  e <- .real_deputy_imports(new.env(parent = globalenv()))
  .real_deputy_source(file.path(r, "hook-validation.R"), e)
  .real_deputy_source(file.path(r, "hooks.R"), e)
  # permissions.R also holds the Permissions class and its many helpers:
  # only the two result constructors a hook returns are taken.
  .real_deputy_take(file.path(r, "permissions.R"), c("PermissionResultAllow", "PermissionResultDeny"), e)
  # hook_log_tools(verbose = TRUE) calls utils.R's truncate_string().
  if (file.exists(file.path(r, "utils.R"))) {
    .real_deputy_take(file.path(r, "utils.R"), "truncate_string", e)
  }
  # The run's usage as deputy passes it in a hook's context, when this
  # deputy has run-usage.R.
  if (file.exists(file.path(r, "run-usage.R"))) {
    tryCatch(.real_deputy_take(file.path(r, "run-usage.R"),
                               c("AgentUsage", "validate_agent_usage_value", "validate_usage_limit"), e),
             error = function(err) NULL)
  }
  e
}

# What the loaded deputy offers, for the report's header.
real_deputy_summary <- function(e) {
  has <- function(name) exists(name, envir = e, inherits = FALSE)
  sprintf("HookEvent: %d events (%s); HookResultStop: %s; HookMatcher: %s",
          length(e$HookEvent), paste(e$HookEvent, collapse = ", "),
          if (has("HookResultStop")) "yes" else "no",
          if (inherits(e$HookMatcher, "R6ClassGenerator")) "R6 (HookMatcher$new)" else "a function")
}
