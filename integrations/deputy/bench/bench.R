# What one deputy hook call through the adapter costs, against what
# spawning one process from R costs, measured in the same run:
#
#   Rscript integrations/deputy/bench/bench.R --bin target/release/hookrun [--n 200]
#
# floor:    processx::run("/bin/sh", c("-c", "true")) with the event on stdin
#           (what a deputy hook that spawns one command pays anyway);
# guards:   a PreToolUse call through the adapter, config = the three
#           built-in guards (no process besides hookrun);
# one hook: the same with one command hook (`true`) as well.
# Medians in milliseconds, and each as a multiple of the floor.

argv <- commandArgs(trailingOnly = TRUE)
opt <- function(flag, default = NULL) {
  at <- match(flag, argv)
  if (is.na(at) || at == length(argv)) default else argv[[at + 1L]]
}
bin <- opt("--bin")
n <- as.integer(opt("--n", "200"))
if (is.null(bin) || !file.exists(bin) || is.na(n) || n < 1L) {
  cat("usage: Rscript bench.R --bin PATH/TO/hookrun [--n RUNS]\n", file = stderr())
  quit(status = 1)
}
bin <- normalizePath(bin)
here <- local({
  file <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE))
  normalizePath(dirname(file[1L]))
})
source(file.path(here, "..", "R", "hookrun.R"))
source(file.path(here, "..", "tests", "standin.R"))
attach(standin_deputy("s7"), name = "deputy-standin", warn.conflicts = FALSE)

dir <- tempfile("hookrun-deputy-bench-")
dir.create(dir)
Sys.setenv(XDG_CONFIG_HOME = file.path(dir, "xdg"))
Sys.unsetenv(c("HOOKRUN_CONFIG", "CLAUDE_PROJECT_DIR"))
guards <- c(
  "[[hooks]]", "event = \"PreToolUse\"", "builtin = \"dangerous-commands\"", "",
  "[[hooks]]", "event = \"PreToolUse\"", "builtin = \"protect-paths\"", "",
  "[[hooks]]", "event = \"PostToolUse\"", "builtin = \"redact-secrets\""
)
writeLines(guards, file.path(dir, "guards.toml"))
writeLines(c(guards, "", "[[hooks]]", "event = \"PreToolUse\"", "command = \"true\""),
           file.path(dir, "one-hook.toml"))

context <- list(working_dir = dir, run_id = "bench", agent_id = "a1", tool_call_id = "c1")
input <- list(command = "git status --short")
event_file <- file.path(dir, "event.json")
writeLines(jsonlite::toJSON(list(deputy_event = "PreToolUse", tool_name = "run_bash",
                                 tool_input = input, context = context), auto_unbox = TRUE),
           event_file)

registry_for <- function(config) {
  reg <- HookRegistry$new()
  for (h in hookrun_hooks(config = config, events = "PreToolUse", bin = bin)) reg$add(h)
  reg
}
time_ms <- function(f) {
  f() # warm-up
  vapply(seq_len(n), function(i) {
    t0 <- proc.time()[["elapsed"]]
    f()
    (proc.time()[["elapsed"]] - t0) * 1000
  }, numeric(1))
}

reg_guards <- registry_for(file.path(dir, "guards.toml"))
reg_one <- registry_for(file.path(dir, "one-hook.toml"))
fire <- function(reg) function() {
  res <- reg$fire("PreToolUse", tool_name = "run_bash", tool_input = input, context = context)
  if (!is.null(res)) stop("the benchmark's call was not allowed")
}
# Interleaved rounds, so that drift of the machine affects each alike.
rounds <- 5L
per <- max(1L, n %/% rounds)
samples <- list(floor = numeric(0), guards = numeric(0), one = numeric(0))
n_saved <- n
n <- per
for (r in seq_len(rounds)) {
  samples$floor <- c(samples$floor, time_ms(function() {
    processx::run("/bin/sh", c("-c", "true"), stdin = event_file)
  }))
  samples$guards <- c(samples$guards, time_ms(fire(reg_guards)))
  samples$one <- c(samples$one, time_ms(fire(reg_one)))
}
n <- n_saved
floor_ms <- stats::median(samples$floor)
row <- function(name, x) {
  cat(sprintf("| %s | %.2f | %.2f | %.2fx |\n", name, stats::median(x),
              stats::quantile(x, 0.9), stats::median(x) / floor_ms))
}
cat(sprintf("deputy adapter, %d calls each (%d rounds), %s\n\n", length(samples$floor),
            rounds, R.version.string))
cat("| call | median ms | p90 ms | x floor |\n| --- | --- | --- | --- |\n")
row("floor: one process from R (sh -c true)", samples$floor)
row("adapter: three built-in guards", samples$guards)
row("adapter: the guards and one command hook", samples$one)
unlink(dir, recursive = TRUE)
