//! `hookrun audit verify PATH`: one line per problem, naming the line, then
//! a summary; the head of an intact log, to record elsewhere.

use std::fmt::Write as _;
use std::path::Path;

use crate::audit::{Expect, Key, Verdict};
use crate::error::{Error, ExitStatus};
use crate::output;

/// Verifies the log; exit 0 when intact, 1 when anything is wrong.
///
/// # Errors
/// The log or the key file cannot be read.
pub(crate) fn verify(
    path: &Path,
    key_file: Option<&Path>,
    expect: &[Expect],
) -> Result<ExitStatus, Error> {
    let key = key_file.map(Key::read).transpose().map_err(Error::Usage)?;
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        what: format!("cannot read audit log `{}`", path.display()),
        source,
    })?;
    let verdict = crate::audit::verify(&bytes, key.as_ref(), expect);
    output::print(&render(&path.display().to_string(), &verdict));
    Ok(if verdict.problems.is_empty() { 0 } else { 1 })
}

/// The text `verify` prints.
fn render(name: &str, v: &Verdict) -> String {
    let mut out = String::new();
    for p in &v.problems {
        let _ = match p.line {
            Some(n) => writeln!(out, "{name}:{n}: this line {}", p.what),
            None => writeln!(out, "{name}: {}", p.what),
        };
    }
    let lines = plural(v.lines, "line");
    if v.problems.is_empty() {
        let seal = if v.keyed > 0 { "keyed" } else { "unkeyed" };
        let _ = writeln!(out, "{name}: {lines}, hash chain intact ({seal})");
        if let Some(head) = &v.head {
            let _ = writeln!(out, "head: {head}:{}", v.lines);
        }
    } else {
        let problems = plural(v.problems.len(), "problem");
        let _ = writeln!(out, "{name}: {lines}, {problems}: NOT intact");
    }
    out
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}
