//! `find-delete`: `find` that deletes (`-delete`, or `-exec`/`-execdir`/
//! `-ok`/`-okdir` running `rm`, `unlink`, `shred`, `rmdir`).
//!
//! Where the walk starts decides: from a root, home or system directory
//! (the always-on rules' judgment of `rm -r` targets) any deleting `find`
//! is denied, whatever its tests; elsewhere it is denied only when no test
//! narrows what it matches (`find . -delete` is `rm -rf .`), so that
//! `find . -name '*.pyc' -delete` in a project stays allowed.

use crate::command::wrappers::{program, unwrap};
use crate::dangerous::categories::command::Command;

/// Expressions that select files by what they are; `-type` alone does not
/// narrow a walk enough (`find . -type f -delete` empties a tree).
const NARROWING: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-wholename",
    "-iwholename",
    "-regex",
    "-iregex",
    "-lname",
    "-ilname",
    "-empty",
    "-newer",
    "-anewer",
    "-cnewer",
    "-newermt",
    "-mtime",
    "-mmin",
    "-atime",
    "-amin",
    "-ctime",
    "-cmin",
    "-size",
    "-user",
    "-uid",
    "-group",
    "-gid",
    "-nouser",
    "-nogroup",
    "-perm",
    "-inum",
    "-samefile",
    "-links",
    "-used",
    "-fstype",
];
/// Narrowing tests that take no argument.
const NO_ARGUMENT: &[&str] = &["-empty", "-nouser", "-nogroup"];
/// Options before the starting points.
const LEADING: &[&str] = &["-H", "-L", "-P", "-O0", "-O1", "-O2", "-O3"];
const DELETERS: &[&str] = &["rm", "unlink", "shred", "rmdir", "srm"];

pub(crate) fn check(cmd: &Command<'_>) -> Option<String> {
    if cmd.prog != "find" {
        return None;
    }
    let mut words = cmd
        .args
        .iter()
        .skip_while(|a| LEADING.contains(&a.as_str()) || a.starts_with("-D") && a.len() == 2);
    let mut starts = Vec::new();
    let mut expression = Vec::new();
    for a in words.by_ref() {
        if expression.is_empty() && !a.starts_with('-') && !matches!(a.as_str(), "(" | "!") {
            starts.push(a.as_str());
        } else {
            expression.push(a.as_str());
        }
    }
    let what = deletes(&expression)?;
    if starts.is_empty() {
        starts.push(".");
    }
    // The working directory (`.`, `./`) is judged by its tests below.
    let here = |s: &str| s.starts_with('.') && s.split('/').all(|c| c == "." || c.is_empty());
    if let Some(root) = starts.iter().find(|s| (cmd.catastrophic)(s) && !here(s)) {
        return Some(format!("`find {root}` {what} under `{root}`"));
    }
    let narrowed = expression.iter().any(|e| NARROWING.contains(e));
    (!narrowed).then(|| {
        format!(
            "`find {}` {what} in the whole tree, with no test narrowing it",
            starts.join(" ")
        )
    })
}

/// What the expression deletes with, if it does: `-delete`, or an
/// `-exec`-style action whose command (through wrappers) deletes.
fn deletes(expression: &[&str]) -> Option<&'static str> {
    let mut i = 0;
    while let Some(e) = expression.get(i) {
        match *e {
            "-delete" => return Some("deletes files"),
            // A test's argument is not an action (`-name -delete`).
            test if NARROWING.contains(&test) && !NO_ARGUMENT.contains(&test) => i += 1,
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                let run: Vec<String> = expression
                    .get(i + 1..)
                    .unwrap_or_default()
                    .iter()
                    .take_while(|w| !matches!(**w, ";" | "\\;" | "+"))
                    .map(|w| (*w).to_owned())
                    .collect();
                i += run.len() + 1;
                let argv = unwrap(&run);
                if argv
                    .first()
                    .is_some_and(|p| DELETERS.contains(&program(p).as_str()))
                {
                    return Some("runs a delete on files");
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}
