# The deputy adapter's tests, against a real hookrun binary and a stand-in
# for deputy (standin.R). No test framework (harness.R): check(name, expr)
# prints PASS or FAIL per case; the exit status is 1 when any case failed, 77
# when an R package the tests need is missing.
#
#   Rscript integrations/deputy/tests/run.R --bin target/debug/hookrun [--filter REGEX]

need <- c("jsonlite", "processx", "R6")
missing <- need[!vapply(need, requireNamespace, logical(1), quietly = TRUE)]
if (length(missing) > 0L) {
  cat("deputy adapter tests: missing R packages: ", paste(missing, collapse = ", "),
      "\n  apt-get install r-base-core r-cran-jsonlite r-cran-processx r-cran-r6\n",
      sep = "", file = stderr())
  quit(status = 77)
}

argv <- commandArgs(trailingOnly = TRUE)
opt <- function(flag, default = NULL) {
  at <- match(flag, argv)
  if (is.na(at) || at == length(argv)) default else argv[[at + 1L]]
}
bin <- opt("--bin")
only <- opt("--filter", "")
if (is.null(bin) || !file.exists(bin)) {
  cat("usage: Rscript run.R --bin PATH/TO/hookrun [--filter REGEX]; no binary at ",
      if (is.null(bin)) "(none given)" else bin, "\n", sep = "", file = stderr())
  quit(status = 1)
}
bin <- normalizePath(bin)

here <- local({
  file <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
  normalizePath(dirname(file[1L]))
})
source(file.path(here, "..", "R", "hookrun.R"))
source(file.path(here, "standin.R"))

# A scratch directory for hook output, and an environment in which no user
# config of the machine is read.
out <- normalizePath(tempfile("hookrun-deputy-tests-"), mustWork = FALSE)
dir.create(out)
Sys.setenv(
  HOOKRUN_TEST_OUT = out,
  HOOKRUN_TEST_SLEEP = sprintf("30.%d", Sys.getpid()),
  XDG_CONFIG_HOME = file.path(out, "xdg")
)
Sys.unsetenv(c("HOOKRUN_CONFIG", "HOOKRUN_BIN", "HOOKRUN_AUDIT_KEY_FILE", "CLAUDE_PROJECT_DIR"))

fixture <- function(name) file.path(here, "fixtures", name)

source(file.path(here, "harness.R"))

# Runs expr with a stand-in deputy of that variant on the search path.
with_deputy <- function(variant, expr) {
  attach(standin_deputy(variant), name = "deputy-standin", warn.conflicts = FALSE)
  on.exit(detach("deputy-standin", character.only = TRUE))
  force(expr)
}

# A stand-in registry holding the hooks, then any extra matchers.
registry <- function(hooks, ...) {
  reg <- HookRegistry$new()
  for (h in c(hooks, list(...))) reg$add(h)
  reg
}

ctx <- function(...) standin_context(out, ...)

# The event the capture hook last received, as a list.
last_event <- function() {
  path <- file.path(out, "last.json")
  expect(file.exists(path), "the capture hook wrote no event")
  jsonlite::fromJSON(path, simplifyVector = FALSE)
}

for (cases in c("cases-events.R", "cases-decisions.R", "cases-failures.R")) {
  source(file.path(here, cases), local = TRUE)
}

unlink(out, recursive = TRUE)
finish()
