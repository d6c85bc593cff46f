//! How much text one check may read and build from R code: the code
//! itself, each nested reading (`parse(text = …)`, `Rscript -e` inside a
//! shell command R runs), and every string folded from literals
//! (`paste0`, variables used twice). One budget for the whole check, kept
//! per thread like the shell guard's other per-check state, so that
//! nesting and reuse add up instead of multiplying; past it the guards
//! deny, saying so, rather than allow code they have not read.

use std::cell::Cell;

/// How deep expressions are followed (calls in calls, names for names,
/// wrappers of functions).
pub(super) const MAX_DEPTH: usize = 32;
/// Text allowed whatever the input's size.
const FIXED: usize = 1 << 20;
/// Text allowed per byte of input.
const PER_BYTE: usize = 4;

thread_local! {
    static LEFT: Cell<usize> = const { Cell::new(FIXED) };
    static WORK: Cell<u64> = const { Cell::new(0) };
}

/// Starts a check of an input of `len` bytes.
pub fn reset(len: usize) {
    LEFT.with(|l| l.set(len.saturating_mul(PER_BYTE).saturating_add(FIXED)));
}

/// Takes `n` bytes from the budget; `false` once it is spent.
pub(super) fn charge(n: usize) -> bool {
    WORK.with(|w| w.set(w.get().saturating_add(n as u64)));
    LEFT.with(|l| match l.get().checked_sub(n) {
        Some(left) => {
            l.set(left);
            true
        }
        None => {
            l.set(0);
            false
        }
    })
}

/// Bytes the check may still read and build.
pub(super) fn left() -> usize {
    LEFT.with(Cell::get)
}

/// Bytes read and built so far on this thread (for cost tests).
#[must_use]
pub fn work() -> u64 {
    WORK.with(Cell::get)
}

/// The reason given when the budget or the depth is spent.
pub(super) fn spent() -> String {
    format!(
        "R code whose expressions nest more than {MAX_DEPTH} levels deep, or that reads and builds more than {PER_BYTE} times its size plus {} MiB of text, is more than the guard analyses",
        FIXED >> 20
    )
}
