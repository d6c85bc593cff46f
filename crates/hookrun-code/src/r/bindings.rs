//! The values the code gives its names, flow-insensitively (every value
//! a name is ever given, in any order: the stricter reading): `x <- v`,
//! `x = v`, `v -> x`, `x <<- v`, `assign("x", v)`, a parameter's default
//! (`function(x = v)`), a loop variable (`for (x in v)`), and the
//! arguments of each call of a function the code defines (`f <-
//! function(cmd) system(cmd); f("…")` gives `cmd` that value).

use std::collections::HashMap;

use super::args::matched;
use super::budget;
use super::calls::short;
use super::tree::{Node, Tree};

/// Each name's values (nodes of the tree).
pub(super) struct Bindings {
    pub vars: HashMap<String, Vec<usize>>,
    /// Matching calls to the code's functions spent the budget.
    pub spent: bool,
}

/// Every name the code gives a value: `x <- v`, `x = v`, `v -> x`,
/// `x <<- v`, `assign("x", v)`, a default (`function(x = v)`), a loop
/// variable (`for (x in v)`).
pub(super) fn bindings(t: &Tree) -> Bindings {
    let name = |at: usize| match t.nodes.get(at) {
        Some(Node::Name(n) | Node::Str(n)) => Some(n.clone()),
        _ => None,
    };
    let mut found: Vec<(String, usize)> = Vec::new();
    for node in &t.nodes {
        let Node::Group(_, items) = node else {
            continue;
        };
        for (i, &at) in items.iter().enumerate() {
            let Node::Op(op) = &t.nodes[at] else { continue };
            let (target, value) = match *op {
                "<-" | "<<-" | "=" | ":=" if i > 0 => (items[i - 1], items.get(i + 1)),
                "->" | "->>" if i > 0 => match items.get(i + 1) {
                    Some(&n) => (n, Some(&items[i - 1])),
                    None => continue,
                },
                _ => continue,
            };
            if let (Some(n), Some(&v)) = (name(target), value) {
                found.push((n, v));
            }
        }
    }
    for &call in &t.calls {
        let Some(Node::Call { callee, args }) = t.nodes.get(call) else {
            continue;
        };
        match t.name(*callee).map(short) {
            Some("assign") => {
                let m = matched(&["x", "value", "pos", "envir"], args);
                if let (Some(Some(n)), Some(Some(v))) = (m.params.first(), m.params.get(1))
                    && let Some(Node::Str(n)) = t.nodes.get(*n)
                {
                    found.push((n.clone(), *v));
                }
            }
            Some("function" | "\\") => {
                for a in args {
                    if let (Some(n), Some(v)) = (&a.name, a.value) {
                        found.push((n.clone(), v));
                    }
                }
            }
            Some("for") => {
                if let Some(Some(Node::Group(_, items))) =
                    args.first().and_then(|a| a.value).map(|v| t.nodes.get(v))
                    && let [var, kw, value] = items.as_slice()
                    && t.name(*kw) == Some("in")
                    && let Some(n) = name(*var)
                {
                    found.push((n, *value));
                }
            }
            _ => {}
        }
    }
    let (formals, spent) = formals_at_calls(t, &found);
    found.extend(formals);
    let mut vars: HashMap<String, Vec<usize>> = HashMap::new();
    for (n, v) in found {
        vars.entry(n).or_default().push(v);
    }
    Bindings { vars, spent }
}

/// A function the code defines (`f <- function(cmd) system(cmd)`, or
/// writes in place: `(\(x) system(x))("…")`) and calls with values
/// (`f("rm -rf /")`): each parameter is given the values of every call,
/// matched as R matches them.
fn formals_at_calls(t: &Tree, found: &[(String, usize)]) -> (Vec<(String, usize)>, bool) {
    let mut defs: HashMap<&str, Vec<Vec<String>>> = HashMap::new();
    for (name, v) in found {
        if let Some(formals) = formals(t, *v) {
            defs.entry(name.as_str()).or_default().push(formals);
        }
    }
    let mut out = Vec::new();
    for &call in &t.calls {
        let Some(Node::Call { callee, args }) = t.nodes.get(call) else {
            continue;
        };
        let in_place = match t.nodes.get(*callee) {
            // `(function(x) …)(…)`: the group holds the definition and
            // its body.
            Some(Node::Group(b'(', items)) => items.first().and_then(|&i| formals(t, i)),
            _ => formals(t, *callee),
        };
        let named = t.name(*callee).and_then(|n| defs.get(n));
        for formals in named.into_iter().flatten().chain(in_place.as_ref()) {
            // Matching costs up to arguments times parameters.
            if !budget::charge(
                formals
                    .len()
                    .saturating_mul(args.len())
                    .saturating_add(formals.len()),
            ) {
                return (out, true);
            }
            let params: Vec<&str> = formals.iter().map(String::as_str).collect();
            let m = matched(&params, args);
            for (p, v) in params.iter().zip(m.params) {
                if let Some(v) = v.filter(|_| *p != "...") {
                    out.push(((*p).to_owned(), v));
                }
            }
        }
    }
    (out, false)
}

/// The parameters of a function definition (`function(a, b = 1)`,
/// `\(x)`), if the node is one.
fn formals(t: &Tree, at: usize) -> Option<Vec<String>> {
    let Some(Node::Call { callee, args }) = t.nodes.get(at) else {
        return None;
    };
    if !matches!(t.name(*callee), Some("function" | "\\")) {
        return None;
    }
    let names = args.iter().filter_map(|a| {
        a.name
            .clone()
            .or_else(|| a.value.and_then(|v| t.name(v)).map(str::to_owned))
    });
    Some(names.collect())
}
