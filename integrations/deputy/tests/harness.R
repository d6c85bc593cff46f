# The test harness shared by run.R (the stand-in suite) and real-registry.R
# (deputy's real hook registry). No test framework: check(name, expr) prints
# PASS or FAIL per case; finish() prints the counts and exits 1 when a case
# failed or none ran. Cases are skipped when `only` (a regex) is set and
# does not match their name.

tally <- new.env()
tally$pass <- 0L
tally$fail <- character(0)
tally$started <- Sys.time()

check <- function(name, expr) {
  if (nzchar(only) && !grepl(only, name)) return(invisible())
  t0 <- Sys.time()
  problem <- tryCatch({
    if (identical(force(expr), FALSE)) "the check returned FALSE" else NULL
  }, error = function(e) conditionMessage(e))
  ms <- round(1000 * as.numeric(difftime(Sys.time(), t0, units = "secs")))
  if (is.null(problem)) {
    tally$pass <- tally$pass + 1L
    cat(sprintf("PASS %s (%d ms)\n", name, ms))
  } else {
    tally$fail <- c(tally$fail, name)
    cat(sprintf("FAIL %s (%d ms)\n     %s\n", name, ms, gsub("\n", "\n     ", problem)))
  }
  invisible()
}

expect <- function(cond, what) {
  if (!isTRUE(cond)) stop(what, call. = FALSE)
}

expect_equal <- function(actual, expected, what) {
  if (!identical(actual, expected)) {
    stop(what, ": expected ", paste(deparse(expected), collapse = " "),
         ", got ", paste(deparse(actual), collapse = " "), call. = FALSE)
  }
}

expect_match <- function(text, pattern, what) {
  if (!is.character(text) || length(text) < 1L || !any(grepl(pattern, text, fixed = TRUE))) {
    stop(what, ": ", deparse(pattern), " not in ", paste(deparse(text), collapse = " "), call. = FALSE)
  }
}

# Runs expr, keeping its value (or its error's message), warnings and messages.
capture <- function(expr) {
  warnings <- character(0)
  messages <- character(0)
  value <- withCallingHandlers(
    tryCatch(expr, error = function(e) structure(list(conditionMessage(e)), class = "failed")),
    warning = function(w) {
      warnings <<- c(warnings, conditionMessage(w))
      invokeRestart("muffleWarning")
    },
    message = function(m) {
      messages <<- c(messages, conditionMessage(m))
      invokeRestart("muffleMessage")
    }
  )
  list(value = value, warnings = warnings, messages = messages)
}

# Prints the counts; exits 1 when a case failed or no case matched `only`.
finish <- function() {
  total <- tally$pass + length(tally$fail)
  cat(sprintf("\n%d passed, %d failed, %d cases in %.1f s\n", tally$pass, length(tally$fail),
              total, as.numeric(difftime(Sys.time(), tally$started, units = "secs"))))
  if (length(tally$fail) > 0L) {
    cat("failed:\n", paste0("  ", tally$fail, "\n"), sep = "")
    quit(status = 1)
  }
  if (total == 0L) {
    cat("no case matched --filter\n")
    quit(status = 1)
  }
}
