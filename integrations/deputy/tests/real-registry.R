# The deputy adapter against deputy's REAL hook code: HookMatcher$new(),
# HookRegistry$fire(), the result constructors and hook_block_dangerous_bash()
# are loaded from a deputy source tree (real-deputy.R), not written from its
# documentation as standin.R is. Then a side-by-side table of deputy's
# built-in dangerous-bash hook and hookrun's dangerous-commands guard.
#
#   Rscript integrations/deputy/tests/real-registry.R --deputy DIR --bin PATH [--filter REGEX]
#
# DIR is a deputy source tree (DIR/R/hooks.R, ...); scripts/deputy-live also
# takes a bare git directory. Exit status 1 when a case failed, 77 when an R
# package is missing. Not run by CI, which has no deputy source.

need <- c("jsonlite", "processx", "R6", "cli", "rlang")
missing <- need[!vapply(need, requireNamespace, logical(1), quietly = TRUE)]
if (length(missing) > 0L) {
  cat("deputy real-registry tests: missing R packages: ", paste(missing, collapse = ", "),
      " (deputy's hook code needs R6, cli and rlang; the adapter jsonlite and processx)\n",
      sep = "", file = stderr())
  quit(status = 77)
}

argv <- commandArgs(trailingOnly = TRUE)
opt <- function(flag, default = NULL) {
  at <- match(flag, argv)
  if (is.na(at) || at == length(argv)) default else argv[[at + 1L]]
}
bin <- opt("--bin")
deputy_dir <- opt("--deputy")
only <- opt("--filter", "")
usage <- "usage: Rscript real-registry.R --deputy DEPUTY_SOURCE_DIR --bin PATH/TO/hookrun [--filter REGEX]"
if (is.null(bin) || !file.exists(bin)) {
  cat(usage, "\nno hookrun binary at ", if (is.null(bin)) "(none given)" else bin, "\n",
      sep = "", file = stderr())
  quit(status = 1)
}
if (is.null(deputy_dir) || !dir.exists(deputy_dir)) {
  cat(usage, "\nno deputy source directory at ", if (is.null(deputy_dir)) "(none given)" else deputy_dir,
      "\n", sep = "", file = stderr())
  quit(status = 1)
}
if (requireNamespace("deputy", quietly = TRUE)) {
  cat("deputy real-registry tests: an installed deputy package is here, and the adapter would use it ",
      "instead of the source tree; run with an R library path without deputy\n", sep = "", file = stderr())
  quit(status = 1)
}
bin <- normalizePath(bin)

here <- local({
  file <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
  normalizePath(dirname(file[1L]))
})
source(file.path(here, "harness.R"))
source(file.path(here, "real-deputy.R"))

deputy <- tryCatch(real_deputy(deputy_dir), error = function(e) e)
if (inherits(deputy, "error")) {
  cat("deputy real-registry tests: ", conditionMessage(deputy), "\n", sep = "", file = stderr())
  quit(status = 1)
}
attach(deputy, name = "deputy-source", warn.conflicts = FALSE)
source(file.path(here, "..", "R", "hookrun.R"))
cat("deputy source: ", normalizePath(deputy_dir), "\n", real_deputy_summary(deputy), "\n",
    "hookrun: ", bin, "\n\n", sep = "")

out <- normalizePath(tempfile("hookrun-deputy-real-"), mustWork = FALSE)
dir.create(out)
Sys.setenv(HOOKRUN_TEST_OUT = out, XDG_CONFIG_HOME = file.path(out, "xdg"))
Sys.unsetenv(c("HOOKRUN_CONFIG", "HOOKRUN_BIN", "HOOKRUN_AUDIT_KEY_FILE", "CLAUDE_PROJECT_DIR"))

fixture <- function(name) file.path(here, "fixtures", name)

# A context as deputy main's Agent builds one (hook_context() and
# event_correlation()), with `...` added or replacing fields.
ctx <- function(...) {
  base <- list(working_dir = out, agent_id = "agent_1", run_id = "run_42", run_context = list())
  extra <- list(...)
  base[names(extra)] <- extra
  base
}

# deputy's real registry holding the hooks, then any extra matchers.
registry <- function(hooks, ...) {
  reg <- HookRegistry$new()
  for (h in c(hooks, list(...))) reg$add(h)
  reg
}

hooks_for <- function(events, ...) {
  hookrun_hooks(config = fixture("real-registry.toml"), events = events, bin = bin, ...)
}

pre_tool <- function(reg, tool, input) {
  reg$fire("PreToolUse", tool_name = tool, tool_input = input, context = ctx(tool_call_id = "call_9"))
}

source(file.path(here, "real-cases.R"), local = TRUE)
source(file.path(here, "real-guard-table.R"), local = TRUE)

unlink(out, recursive = TRUE)
finish()
