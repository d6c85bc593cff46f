//! What the parser marked on a command before any rule reads it: more
//! words or a longer pipeline than the guard keeps, a fork bomb, a
//! command name split at `$IFS`.

use crate::dangerous::destructive;
use crate::dangerous::limits::{too_long_pipeline, too_many_words};
use hookrun_sh::Command;

/// Why `cmd`'s shape alone is refused (the fork bomb and `$IFS` rules are
/// built-in rules, off when `patterns` replace them).
pub(crate) fn refused(cmd: &Command, builtin_rules: bool) -> Option<String> {
    if cmd.too_many_words {
        return Some(too_many_words());
    }
    if cmd.too_long_pipeline {
        return Some(too_long_pipeline());
    }
    if !builtin_rules {
        return None;
    }
    if let Some(name) = &cmd.fork_bomb {
        return Some(format!(
            "a fork bomb: function `{name}` starts copies of itself in a pipeline or in the background"
        ));
    }
    let (name, fields) = cmd.ifs_name.as_ref()?;
    destructive::rules(name, cmd.words.get(*fields..).unwrap_or_default())
}
