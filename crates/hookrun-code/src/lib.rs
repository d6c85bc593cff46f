//! Readers of the code a shell command hands to another language: an R
//! program (`Rscript -e`, `R -e`, deputy's `run_r_code`) read into the
//! calls it makes ([`r`]), and the inline programs of other interpreters
//! (`python -c`, `perl -e`, `node -e`, here-docs; [`inline`]) and of awk
//! ([`awk`]) read for their string literals ([`literals`]). What comes out
//! is in the shell's words — a command line, or the command that does the
//! same (`unlink(x, recursive = TRUE)` is `rm -rf -- 'x'`) — so a guard
//! judges it with the rules it judges a shell command with.
//!
//! No I/O, and bounded: every reader works in one pass over the text, with
//! fixed depths and a per-thread budget for R (`r::reset`, `r::work`).
//!
//! Non-goals: running or evaluating code, reporting syntax errors, and
//! values computed at run time: only strings written in the code are seen
//! (a path read from a file, an argument or the network is not).
//!
//! ```
//! let uses = hookrun_code::r::inline_uses(
//!     &["-e".to_owned(), "unlink('/data', recursive = TRUE)".to_owned()],
//!     &[],
//! );
//! assert!(!uses.is_empty());
//! let deleted = hookrun_code::inline::deleted_paths("import shutil; shutil.rmtree('/srv')");
//! assert_eq!(deleted, ["/srv"]);
//! ```

pub mod awk;
pub mod inline;
pub mod literals;
pub mod r;
