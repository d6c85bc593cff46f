//! What a category's rule is given: one command, stripped of wrappers.

/// A command as a rule sees it.
pub(crate) struct Command<'a> {
    /// The program's name (basename, lowercased).
    pub prog: &'a str,
    pub args: &'a [String],
    /// Whether a path names a root, home or system directory (the
    /// always-on rules' judgment of `rm -r` targets).
    pub catastrophic: fn(&str) -> bool,
}
