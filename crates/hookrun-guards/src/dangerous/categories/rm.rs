//! `rm-outside-project`: `rm -rf` of a path not shown to be inside the
//! project. The always-on rules deny deleting roots, homes and system
//! directories; this category also keeps recursive forced deletes to the
//! working directory and the temporary directories.
//!
//! The guard reads command text, not the file system: an absolute path is
//! outside unless it is under `/tmp` or `/var/tmp` — an absolute path into
//! the project counts as outside too (use a relative one) — and so is a
//! `~` or `$HOME` path, a path climbing out with `..`, and a computed one
//! (a variable other than `$TMPDIR`, a substitution). Like both peers, only
//! `rm` with both `-r` and `-f` is judged: without `-f`, rm stops to ask
//! before write-protected files.

use crate::command::argv::{self, GNU, Spec, Takes};
use crate::dangerous::categories::command::Command;

const RM: Spec = Spec {
    short_value: "",
    long: &[
        ("recursive", Takes::Nothing),
        ("force", Takes::Nothing),
        ("interactive", Takes::Optional(&[])),
    ],
    ..GNU
};

const TEMPORARY: &[&str] = &["/tmp", "/var/tmp", "$TMPDIR", "${TMPDIR}"];

pub(crate) fn check(cmd: &Command<'_>) -> Option<String> {
    if cmd.prog != "rm" {
        return None;
    }
    let p = argv::parse(&RM, cmd.args);
    let recursive = p.has('r', "recursive") || p.has('R', "");
    if !(recursive && p.has('f', "force")) {
        return None;
    }
    let target = p.operands.iter().find(|t| outside(t))?;
    Some(format!("`rm -rf {target}` deletes outside the project"))
}

/// Whether a target is not shown to be inside the working directory or a
/// temporary directory.
fn outside(target: &str) -> bool {
    let in_temporary = TEMPORARY.iter().any(|t| {
        target == *t
            || target
                .strip_prefix(t)
                .is_some_and(|rest| rest.starts_with('/'))
    }) || target.starts_with("${TMPDIR:-");
    if target.starts_with(['~', '`']) || target.contains("$(") {
        return true;
    }
    if in_temporary {
        return target.split('/').any(|c| c == "..");
    }
    if target.starts_with(['/', '$']) {
        return true;
    }
    // A relative path that climbs above where it starts (`../x`, `a/../../x`).
    let mut depth: i64 = 0;
    for component in target.split('/') {
        match component {
            ".." => depth -= 1,
            "" | "." => {}
            _ => depth += 1,
        }
        if depth < 0 {
            return true;
        }
    }
    false
}
