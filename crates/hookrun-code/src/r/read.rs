//! Reading R code: every call in the tree, in the order its `(` opens,
//! with the function it names (`fold.rs`) and its arguments matched as R
//! matches them; each use handed on, placed where `setwd` moved. Calls
//! that call another function (`do.call`, `call`, `rlang::exec`,
//! `lapply`/`Map`/`purrr::walk`) are followed to it; R code given as a
//! string (`parse(text = …)`, `str2lang`, `source(textConnection(…))`)
//! is read in turn.

use super::act::{Act, Use, Visit};
use super::args::matched;
use super::budget;
use super::calls::{self, Kind, short};
use super::fold::Folder;
use super::lex;
use super::tree::{self, Arg, Node};
use super::uses::{Call, direct, first_string, is_url, paths};
use super::values::DECODED;
use hookrun_sh::word::quoted;

/// How deep R code given as a string (`parse(text = …)`) is followed.
const MAX_NESTING: usize = 8;
/// How many `do.call`/`lapply` hops a call is followed through.
const MAX_HOPS: usize = 8;
/// The longest R code read (each `-e`, each string of code): far beyond
/// what a tool call holds, and a bound on the memory its tree takes.
const MAX_CODE: usize = 1 << 20;

/// Where later relative paths start (`setwd`), and how deep the reading is.
struct Cx {
    dir: Option<String>,
    /// `Sys.setenv` values, as the shell assignments later commands get.
    env: Vec<String>,
    depth: usize,
}

/// Reads `code` found `depth` strings deep, handing each use to `visit`.
pub(super) fn read(code: &str, depth: usize, visit: Visit<'_>) -> Option<String> {
    if depth > MAX_NESTING {
        return Some(format!(
            "R code given as a string (`parse(text = …)`) more than {MAX_NESTING} levels deep is more than the guard analyses"
        ));
    }
    if !budget::charge(code.len()) {
        return Some(budget::spent());
    }
    if code.len() > MAX_CODE {
        return Some(format!(
            "R code of {} bytes is longer than the {} MiB the guard reads",
            code.len(),
            MAX_CODE >> 20
        ));
    }
    let tree = tree::build(lex::tokens(code));
    if tree.too_deep {
        return Some(format!(
            "R code with brackets nested more than {} deep is more than the guard analyses",
            tree::MAX_BRACKETS
        ));
    }
    let mut f = Folder::new(&tree);
    let mut cx = Cx {
        dir: None,
        env: Vec::new(),
        depth,
    };
    for &call in &tree.calls {
        let Some(Node::Call { callee, args }) = tree.nodes.get(call) else {
            continue;
        };
        let Some(name) = f.callee(*callee) else {
            continue;
        };
        let why = uses(&mut f, &mut cx, &name, args, 0, visit);
        if why.is_some() {
            return why;
        }
        if f.spent {
            return Some(budget::spent());
        }
    }
    None
}

/// The uses of one call of `name`, handed to `visit`.
fn uses(
    f: &mut Folder,
    cx: &mut Cx,
    name: &str,
    args: &[Arg],
    hops: usize,
    visit: Visit<'_>,
) -> Option<String> {
    let (kind, params) = calls::kind(name)?;
    let c = Call {
        name,
        params,
        args,
        m: matched(params, args),
    };
    let at = |p: &str| c.at(p);
    let mut found: Vec<(Act, String)> = Vec::new();
    match kind {
        Kind::Setwd => {
            let dirs = at(params[0]).map(|n| paths(f, n)).unwrap_or_default();
            cx.dir = match dirs.as_slice() {
                [one] => Some(resolve(cx.dir.as_deref(), one)),
                _ => None,
            };
        }
        Kind::Setenv => {
            for a in args {
                let (Some(name), Some(v)) = (&a.name, a.value) else {
                    continue;
                };
                if let [value] = f.strings(v).as_slice() {
                    cx.env.push(format!("{name}={}", quoted(value)));
                }
            }
        }
        Kind::AsCall if hops < MAX_HOPS => {
            let t = f.tree;
            if let Some(Node::Call { args: listed, .. }) = at("x").and_then(|n| t.nodes.get(n))
                && let Some((first, rest)) = listed.split_first()
                && let Some(what) = first.value.and_then(|n| f.callee(n))
            {
                return uses(f, cx, &what, rest, hops + 1, visit);
            }
        }
        Kind::Code(p) => {
            // `parse("https://…")`, `parse(url(…))`: code from the network.
            match at("file").and_then(|n| called(f, n)) {
                Some(("url", inner)) => found.push((Act::RunsDownloaded, first_string(f, inner))),
                _ => {
                    for s in at("file").map(|n| paths(f, n)).unwrap_or_default() {
                        let act = if is_url(&s) {
                            Act::RunsDownloaded
                        } else {
                            Act::Reads
                        };
                        found.push((act, s));
                    }
                }
            }
            for text in at(p).map(|n| f.strings(n)).unwrap_or_default() {
                if let Some(why) = read(&text, cx.depth + 1, visit) {
                    return Some(why);
                }
            }
        }
        Kind::Source => match at("file").and_then(|n| called(f, n)) {
            Some(("url", inner)) => found.push((Act::RunsDownloaded, first_string(f, inner))),
            Some((_, inner)) => {
                for text in inner.map(|n| f.strings(n)).unwrap_or_default() {
                    if let Some(why) = read(&text, cx.depth + 1, visit) {
                        return Some(why);
                    }
                }
            }
            None => found = direct(f, &c, kind),
        },
        Kind::DoCall if hops < MAX_HOPS => {
            let what = at(params[0]).and_then(|n| f.callee(n));
            let t = f.tree;
            let given = at(params[1]);
            let listed = given.and_then(|n| match t.nodes.get(n) {
                Some(Node::Call { callee, args }) => {
                    let by = t.name(*callee).map(short);
                    matches!(by, Some("list" | "c" | "alist" | "pairlist"))
                        .then_some(args.as_slice())
                }
                _ => None,
            });
            // A list the code built elsewhere: its values as the first
            // argument.
            let one = [Arg {
                name: None,
                value: given,
            }];
            if let Some(what) = what {
                return uses(f, cx, &what, listed.unwrap_or(&one), hops + 1, visit);
            }
        }
        Kind::Invoke if hops < MAX_HOPS => {
            let named = at(params[0]);
            let what = named.and_then(|n| f.callee(n));
            let rest: Vec<Arg> = args.iter().filter(|a| a.value != named).cloned().collect();
            if let Some(what) = what {
                return uses(f, cx, &what, &rest, hops + 1, visit);
            }
        }
        Kind::Apply(data, fun) if hops < MAX_HOPS => {
            let inner = at(fun)
                .and_then(|n| f.callee(n))
                .filter(|n| calls::known(n))?;
            let data: Vec<Arg> = c
                .nodes(data)
                .into_iter()
                .map(|v| Arg {
                    name: None,
                    value: Some(v),
                })
                .collect();
            return uses(f, cx, &inner, &data, hops + 1, visit);
        }
        Kind::DoCall | Kind::Invoke | Kind::Apply(..) | Kind::AsCall => {}
        _ => found = direct(f, &c, kind),
    }
    for (act, text) in found {
        let u = placed(cx, name, act, text);
        if let Some(why) = visit(&u) {
            return Some(why);
        }
    }
    None
}

/// A use with its text placed where `setwd` moved (a command line runs
/// after a `cd` there), and a command decoded at run time marked so.
fn placed(cx: &Cx, by: &str, act: Act, text: String) -> Use {
    let (act, mut text) = match (act, &cx.dir) {
        (Act::Runs, _) if text.contains(DECODED) => (Act::RunsDecoded, text),
        (Act::Runs | Act::Does, Some(d)) => (act, format!("cd {} && {text}", quoted(d))),
        (Act::Reads | Act::Writes, Some(d)) => (act, resolve(Some(d), &text)),
        _ => (act, text),
    };
    if matches!(act, Act::Runs | Act::Does) && !cx.env.is_empty() {
        // `Sys.setenv(X = "/"); system("rm -rf $X")`.
        text = format!("{}; {text}", cx.env.join("; "));
    }
    Use {
        by: by.to_owned(),
        act,
        text,
    }
}

/// `path` from `dir`, when it is relative.
fn resolve(dir: Option<&str>, path: &str) -> String {
    match dir {
        Some(d) if !path.starts_with(['/', '~', '$']) => {
            format!("{}/{path}", d.trim_end_matches('/'))
        }
        _ => path.to_owned(),
    }
}

/// The function a node calls, and its first argument.
fn called(f: &mut Folder, node: usize) -> Option<(&'static str, Option<usize>)> {
    let t = f.tree;
    let Some(Node::Call { callee, args }) = t.nodes.get(node) else {
        return None;
    };
    let first = args.first().and_then(|a| a.value);
    match f.callee(*callee)?.as_str() {
        "url" => Some(("url", first)),
        "textConnection" => Some(("textConnection", first)),
        _ => None,
    }
}
