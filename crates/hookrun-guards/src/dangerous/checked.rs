//! Texts already found harmless during one check. The same text is often
//! reached twice: `sh -c "$(X)"` runs X as a substitution of the outer
//! command, and the inner script's text holds `$(X)` again. Looking at it
//! once keeps the work linear in the line's length; without it, each level
//! of such nesting would multiply the work.
//!
//! Texts are keyed by a hash with per-process random keys (`RandomState`)
//! and their length, so nothing is copied and no crafted text can collide
//! on purpose.

use std::cell::RefCell;
use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;

/// (hash of a text, its length) -> the shallowest depth it was found
/// harmless at.
type Clean = HashMap<(u64, usize), usize>;

thread_local! {
    static CLEAN: RefCell<(RandomState, Clean)> = RefCell::new((RandomState::new(), Clean::new()));
}

/// Forgets what a check found, and frees the memory it took: a guard in
/// a long-lived process (`serve`) keeps nothing between events.
pub(crate) fn reset() {
    CLEAN.with(|c| c.borrow_mut().1 = Clean::new());
}

/// Whether `text` was found harmless at `depth` or shallower: deeper, it
/// can only be harmless too, or deeper than the guard follows, which it
/// is not, having been followed once.
pub(crate) fn is_clean(text: &str, depth: usize) -> bool {
    CLEAN.with(|c| {
        let c = c.borrow();
        let key = (c.0.hash_one(text), text.len());
        c.1.get(&key).is_some_and(|&d| d <= depth)
    })
}

/// Records that `text` is harmless at `depth`.
pub(crate) fn mark_clean(text: &str, depth: usize) {
    CLEAN.with(|c| {
        let mut c = c.borrow_mut();
        let key = (c.0.hash_one(text), text.len());
        let d = c.1.entry(key).or_insert(depth);
        *d = (*d).min(depth);
    });
}
