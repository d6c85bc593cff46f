//! What each R function the guards read does with its arguments, as
//! uses: the command lines it runs (`system`, `system2` as R builds its
//! line, `processx::run`'s words quoted), its file operations as the shell
//! commands doing the same (`unlink` as `rm`, `file.copy` as `cp`,
//! `Sys.chmod` as `chmod`), and the files it reads and writes. Functions
//! that call others (`do.call`, `lapply`) and read more code
//! (`parse(text = …)`) are `read.rs`'s.

use super::act::Act;
use super::args::Matched;
use super::calls::{self, Kind};
use super::fold::Folder;
use super::tree::Arg;
use super::values::{MAX_ALTS, UNKNOWN, combine};
use crate::inline as inline_code;
use hookrun_sh::word::{quoted, word};

/// The most (source, destination) pairs of one copy, or (mode, path)
/// pairs of one `Sys.chmod`.
const MAX_PAIRS: usize = 1 << 16;

/// One call: the function's name and parameters, and its arguments as
/// matched to them.
pub(super) struct Call<'a> {
    pub name: &'a str,
    pub params: &'a [&'a str],
    pub args: &'a [Arg],
    pub m: Matched,
}

impl Call<'_> {
    /// The argument of parameter `p`.
    pub(super) fn at(&self, p: &str) -> Option<usize> {
        let i = self.params.iter().position(|x| *x == p)?;
        self.m.params.get(i).copied().flatten()
    }

    /// The arguments of parameter `p` (`...`: every one left over).
    pub(super) fn nodes(&self, p: &str) -> Vec<usize> {
        if p == "..." {
            self.m.dots.clone()
        } else {
            self.at(p).into_iter().collect()
        }
    }
}

/// The uses of a call of a function of `kind` that calls nothing else.
pub(super) fn direct(f: &mut Folder, c: &Call, kind: Kind) -> Vec<(Act, String)> {
    let (name, params, args) = (c.name, c.params, c.args);
    let at = |p: &str| c.at(p);
    let nodes = |p: &str| c.nodes(p);
    let mut found: Vec<(Act, String)> = Vec::new();
    match kind {
        Kind::Shell(p) => {
            let input = at("input").map(|n| f.strings(n)).unwrap_or_default();
            for n in nodes(p) {
                for line in f.strings(n) {
                    // `system("sh", input = "…")`: the input is the
                    // command's stdin.
                    found.extend(input.iter().map(|i| (Act::Runs, fed(i, &line))));
                    found.push((Act::Runs, line));
                }
            }
        }
        Kind::System2 => found.extend(system2(f, &c.m.params).into_iter().map(|s| (Act::Runs, s))),
        Kind::Argv(cmd, a) => {
            let command = at(cmd).map(|n| f.alts(n));
            let argv = at(a).map_or_else(|| vec![Vec::new()], |n| f.alts(n));
            let command = match command {
                Some(c) => c,
                None => return found,
            };
            let lines = combine(&[command, argv], |parts| {
                let [cmd, args] = parts else { return None };
                let words: Vec<String> =
                    cmd.iter().take(1).chain(args).map(|w| quoted(w)).collect();
                Some(vec![words.join(" ")])
            });
            if lines.len() > MAX_ALTS {
                f.spent = true;
            }
            found.extend(lines.into_iter().flatten().map(|l| (Act::Runs, l)));
        }
        Kind::Delete(p, recursive, always) => {
            let deep = always || recursive.and_then(at).is_some_and(|r| truthy(f, r));
            let flags = if deep { "-rf" } else { "-f" };
            for n in nodes(p) {
                for s in paths(f, n) {
                    found.push((Act::Does, format!("rm {flags} -- {}", quoted(&s))));
                }
            }
        }
        Kind::Read(p) => each(f, nodes(p), Act::Reads, &mut found),
        Kind::Write(p) => {
            let written = nodes(p);
            if let Some(cmd) = written.first().and_then(|&n| piped_to(f, n)) {
                // `writeLines("…", pipe("sh", "w"))`: the text is the
                // command's stdin.
                let text = match name {
                    "cat" => c.m.dots.clone(),
                    _ => c.m.params.first().copied().flatten().into_iter().collect(),
                };
                for t in text.into_iter().flat_map(|n| f.strings(n)) {
                    found.extend(cmd.iter().map(|cmd| (Act::Runs, fed(&t, cmd))));
                }
            } else {
                each(f, written, Act::Writes, &mut found);
            }
        }
        Kind::Kill => {
            let signal = at("signal").map_or_else(|| vec!["15".to_owned()], |n| f.strings(n));
            for pid in at("pid").map(|n| f.strings(n)).unwrap_or_default() {
                for s in signal.iter().take(16) {
                    let s = if s.chars().all(|c| c.is_ascii_digit()) {
                        s
                    } else {
                        "9"
                    };
                    found.push((Act::Does, format!("kill -{s} -- {}", word(&pid))));
                }
            }
        }
        Kind::ReadAny => each(f, path_arg(args, 0), Act::Reads, &mut found),
        Kind::WriteAny => each(f, path_arg(args, 1), Act::Writes, &mut found),
        Kind::Connection => {
            let open = at("open").map(|n| f.strings(n)).unwrap_or_default();
            let act = if open.iter().any(|o| o.contains(['w', 'a'])) {
                Act::Writes
            } else {
                Act::Reads
            };
            each(f, nodes("description"), act, &mut found);
        }
        Kind::Copy | Kind::Move => {
            let tool = match name {
                "file.rename" | "file_move" => "mv",
                "file.symlink" | "file.link" => "ln -s",
                _ => "cp -r",
            };
            let (from, to) = (params[0], params[1]);
            let targets: Vec<String> = at(to).map(|n| paths(f, n)).unwrap_or_default();
            let sources = at(from).map(|n| paths(f, n)).unwrap_or_default();
            for (s, t) in pairs(f, &sources, &targets) {
                found.push((Act::Does, format!("{tool} -- {} {}", quoted(s), quoted(t))));
            }
        }
        Kind::Append => {
            each(f, nodes("file1"), Act::Writes, &mut found);
            each(f, nodes("file2"), Act::Reads, &mut found);
        }
        Kind::Chmod => {
            let modes = at("mode").map_or_else(|| vec!["0777".to_owned()], |n| f.strings(n));
            let targets = at("paths").map(|n| paths(f, n)).unwrap_or_default();
            for (mode, p) in pairs(f, &modes, &targets) {
                found.push((
                    Act::Does,
                    format!("chmod {} -- {}", quoted(mode), quoted(p)),
                ));
            }
        }
        Kind::SourceUrl => found.push((Act::RunsDownloaded, first_string(f, at("url")))),
        Kind::Source => {
            for s in at("file").map(|n| paths(f, n)).unwrap_or_default() {
                let act = if is_url(&s) {
                    Act::RunsDownloaded
                } else {
                    Act::Reads
                };
                found.push((act, s));
            }
        }
        Kind::Fread => {
            for s in at("cmd").map(|n| f.strings(n)).unwrap_or_default() {
                found.push((Act::Runs, s));
            }
            each(f, nodes("file"), Act::Reads, &mut found);
            for s in at("input").map(|n| paths(f, n)).unwrap_or_default() {
                match (s.contains('\n'), s.contains(' ')) {
                    (true, _) => {}
                    (false, true) => found.push((Act::Runs, s)),
                    (false, false) => found.push((Act::Reads, s)),
                }
            }
        }
        Kind::Foreign(p) => {
            for code in at(p).map(|n| f.strings(n)).unwrap_or_default() {
                for line in inline_code::executed_literals(&code) {
                    found.push((Act::Runs, line));
                }
                for path in inline_code::deleted_paths(&code) {
                    found.push((Act::Does, format!("rm -rf -- {}", quoted(&path))));
                }
            }
        }
        Kind::Setwd
        | Kind::Code(_)
        | Kind::DoCall
        | Kind::Invoke
        | Kind::Apply(..)
        | Kind::AsCall
        | Kind::Setenv => {}
    }
    found
}

/// Every pair of `a` and `b`; past `MAX_PAIRS` the budget is spent (the
/// guard says so) instead.
pub(super) fn pairs<'s>(
    f: &mut Folder,
    a: &'s [String],
    b: &'s [String],
) -> Vec<(&'s String, &'s String)> {
    if a.len().saturating_mul(b.len()) > MAX_PAIRS {
        f.spent = true;
        return Vec::new();
    }
    a.iter()
        .flat_map(|x| b.iter().map(move |y| (x, y)))
        .collect()
}

/// The paths of each node, as uses of `act`.
pub(super) fn each(f: &mut Folder, nodes: Vec<usize>, act: Act, out: &mut Vec<(Act, String)>) {
    for n in nodes {
        out.extend(paths(f, n).into_iter().map(|s| (act, s)));
    }
}

/// The paths a node names: its strings, less the empty and the unknown.
pub(super) fn paths(f: &mut Folder, node: usize) -> Vec<String> {
    let mut p = f.strings(node);
    p.retain(|s| !s.is_empty() && s != UNKNOWN);
    p
}

/// The path argument of a `read.*`/`write.*` function: the one named like
/// a path, else the unnamed one at `position`.
pub(super) fn path_arg(args: &[Arg], position: usize) -> Vec<usize> {
    let named = args.iter().find(|a| {
        a.name
            .as_deref()
            .is_some_and(|n| calls::PATH_NAMES.contains(&n))
    });
    let arg = named.or_else(|| args.iter().filter(|a| a.name.is_none()).nth(position));
    arg.and_then(|a| a.value).into_iter().collect()
}

/// Whether a logical argument is anything but a written `FALSE`.
pub(super) fn truthy(f: &mut Folder, node: usize) -> bool {
    !f.alts(node)
        .iter()
        .all(|alt| matches!(alt.as_slice(), [v] if v == "FALSE" || v == "0"))
}

/// A node's first string (what a URL argument is shown as).
pub(super) fn first_string(f: &mut Folder, node: Option<usize>) -> String {
    node.and_then(|n| f.strings(n).into_iter().next())
        .unwrap_or_else(|| UNKNOWN.to_owned())
}

/// Whether a path is a URL R would fetch.
pub(super) fn is_url(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    ["http://", "https://", "ftp://", "ftps://"]
        .iter()
        .any(|p| l.starts_with(p))
}

/// `system2`'s command line as R builds it: `env`, the command quoted,
/// `args` as written (R does not quote them), and `stdout`/`stderr`/
/// `stdin` files as redirections; with `input`, also the line fed it.
fn system2(f: &mut Folder, given: &[Option<usize>]) -> Vec<String> {
    let at = |name: &str| {
        calls::SYSTEM2
            .iter()
            .position(|p| *p == name)
            .and_then(|i| given.get(i).copied().flatten())
    };
    let Some(command) = at("command") else {
        return Vec::new();
    };
    let mut values = vec![f.alts(command)];
    for p in ["args", "stdout", "stderr", "stdin", "env", "input"] {
        values.push(at(p).map_or_else(|| vec![Vec::new()], |n| f.alts(n)));
    }
    let lines = combine(&values, |parts| {
        let [cmd, args, out, err, input, env, given] = parts else {
            return None;
        };
        let file = |v: &Vec<String>| {
            v.first()
                .filter(|s| !s.is_empty() && *s != "TRUE" && *s != "FALSE")
                .cloned()
        };
        let mut line: Vec<String> = env.clone();
        line.push(quoted(cmd.first()?));
        line.extend(args.iter().cloned());
        match (file(out), file(err)) {
            (Some(o), Some(e)) if o == e => line.push(format!("> {} 2>&1", quoted(&o))),
            (o, e) => {
                line.extend(o.map(|o| format!("> {}", quoted(&o))));
                line.extend(e.map(|e| format!("2> {}", quoted(&e))));
            }
        }
        line.extend(file(input).map(|i| format!("< {}", quoted(&i))));
        let line = line.join(" ");
        // `input = "…"`: the command's stdin.
        let fed_in = given.iter().map(|i| fed(i, &line)).collect::<Vec<_>>();
        Some(std::iter::once(line).chain(fed_in).collect())
    });
    if lines.len() > MAX_ALTS {
        f.spent = true;
    }
    lines.into_iter().flatten().collect()
}

/// A command line fed `input` on its stdin, as the shell would be told:
/// `printf '%s\n' 'input' | cmd` (the shell guard reads what a shell so
/// fed runs).
fn fed(input: &str, cmd: &str) -> String {
    format!("printf '%s\\n' {} | {cmd}", quoted(input))
}

/// The commands a connection pipes into, when the node is `pipe(cmd)` or
/// a name the code gave one.
fn piped_to(f: &mut Folder, node: usize) -> Option<Vec<String>> {
    let (name, args) = f.bound_call(node)?;
    if name != "pipe" {
        return None;
    }
    let description = args.first()?.value?;
    Some(f.strings(description))
}
