//! The strings an R expression is, when the code says them: literals,
//! what R's string functions make of them (`functions.rs`), the last
//! statement of a bracketed expression, both branches of `if`/`else`, and
//! every value the code gives a name (`bindings.rs`). What is not written
//! in the code is `UNKNOWN` (`values.rs`), so a path or command stays
//! judgeable in the parts that are written (`file.path(x, ".ssh")`).
//! Also which function a callee names, through packages, aliases
//! (`s <- system`), wrappers (`Vectorize(system)`) and `get("…")`.
//!
//! Each name is folded once and remembered; depth and the budget bound
//! the rest.

use std::collections::HashMap;

use super::bindings::bindings;
use super::budget::{self, MAX_DEPTH};
use super::calls::{self, WRAPPERS, short};
use super::functions::{self, Eval};
use super::tree::{Arg, Node, Tree};
use super::values::{MAX_ALTS, Value, unknown};

/// Reads values out of one tree.
pub(super) struct Folder<'t> {
    pub tree: &'t Tree,
    vars: HashMap<String, Vec<usize>>,
    visiting: Vec<String>,
    /// Names already folded, so a name used many times (or built from
    /// itself twice, `a <- paste0(b, b)`) is folded once.
    known: HashMap<String, Value>,
    /// The function each called name was found to name.
    resolved: HashMap<String, String>,
    /// How many times a name was met inside its own value (a result cut
    /// short there is not remembered).
    cuts: usize,
    /// Set when the budget or the depth ran out.
    pub spent: bool,
}

impl<'t> Folder<'t> {
    pub(super) fn new(tree: &'t Tree) -> Self {
        let b = bindings(tree);
        Folder {
            tree,
            vars: b.vars,
            visiting: Vec::new(),
            known: HashMap::new(),
            resolved: HashMap::new(),
            cuts: 0,
            spent: b.spent,
        }
    }

    /// Every string of every alternative of a node.
    pub(super) fn strings(&mut self, at: usize) -> Vec<String> {
        self.value(at, 0).into_iter().flatten().collect()
    }

    /// The alternatives of a node.
    pub(super) fn alts(&mut self, at: usize) -> Value {
        self.value(at, 0)
    }

    /// The function a callee names (`system`, `base::system`,
    /// `` `system` ``, `"system"`, `get("system")`, `(system)`, or a name
    /// the code assigned one of those), without its package.
    pub(super) fn callee(&mut self, at: usize) -> Option<String> {
        self.callee_at(at, 0)
    }

    fn callee_at(&mut self, at: usize, depth: usize) -> Option<String> {
        if depth > MAX_DEPTH {
            self.spent = true;
            return None;
        }
        let t = self.tree;
        match t.nodes.get(at)? {
            Node::Str(s) => Some(short(s).to_owned()),
            Node::Name(n) => {
                let own = short(n);
                if let Some(r) = self.resolved.get(own) {
                    return Some(r.clone());
                }
                let alias = self.vars.get(own).cloned().unwrap_or_default();
                if alias.is_empty() || self.visiting.iter().any(|v| v == own) {
                    return Some(own.to_owned());
                }
                self.visiting.push(own.to_owned());
                let via = alias.iter().find_map(|&v| match t.nodes.get(v) {
                    Some(Node::Name(_) | Node::Call { .. } | Node::Group(b'(', _)) => {
                        self.callee_at(v, depth + 1).filter(|v| calls::known(v))
                    }
                    _ => None,
                });
                self.visiting.pop();
                let r = via.unwrap_or_else(|| own.to_owned());
                self.resolved.insert(own.to_owned(), r.clone());
                Some(r)
            }
            Node::Group(b'(' | b'{', items) => match items.as_slice() {
                [one] => self.callee_at(*one, depth + 1),
                _ => None,
            },
            Node::Call { callee, args } => {
                let by = t.name(*callee).map(short)?;
                if WRAPPERS.contains(&by) {
                    // `Vectorize(system)`: the function it wraps.
                    let first = args.first()?.value?;
                    return self.callee_at(first, depth + 1);
                }
                if matches!(by, "as.name" | "as.symbol" | "sym" | "quote") {
                    // `as.call(list(as.name("system"), …))`.
                    return match t.nodes.get(args.first()?.value?)? {
                        Node::Str(s) | Node::Name(s) => Some(short(s).to_owned()),
                        _ => None,
                    };
                }
                if !matches!(
                    by,
                    "get" | "get0" | "match.fun" | "getFunction" | "getExportedValue"
                ) {
                    return None;
                }
                let named = if by == "getExportedValue" {
                    args.get(1)
                } else {
                    args.first()
                };
                match t.nodes.get(named?.value?)? {
                    Node::Str(s) => Some(short(s).to_owned()),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn value(&mut self, at: usize, depth: usize) -> Value {
        if self.spent {
            return unknown();
        }
        if depth > MAX_DEPTH {
            self.spent = true;
            return unknown();
        }
        let t = self.tree;
        let v = match t.nodes.get(at) {
            Some(Node::Str(s)) => vec![vec![s.clone()]],
            Some(Node::Num(n)) => vec![vec![n.clone()]],
            Some(Node::Name(n)) => self.named(n, depth),
            Some(Node::Group(_, items)) => self.statement(items, depth),
            Some(Node::Call { callee, args }) => match self.callee_at(*callee, depth + 1) {
                Some(name) => self.call(&name, args, depth),
                None => unknown(),
            },
            _ => unknown(),
        };
        let size: usize = v.iter().flatten().map(String::len).sum();
        if v.len() > MAX_ALTS || !budget::charge(size) {
            self.spent = true;
            return unknown();
        }
        v
    }

    fn named(&mut self, n: &str, depth: usize) -> Value {
        let Some(bound) = self.vars.get(n).cloned() else {
            return match n {
                "T" | "TRUE" => vec![vec!["TRUE".into()]],
                "F" | "FALSE" => vec![vec!["FALSE".into()]],
                "NULL" => vec![vec![]],
                // `x$cmd`, `x@cmd`: every value of `x` (a superset).
                _ => match n.split_once(['$', '@']) {
                    Some((base, _)) if !base.is_empty() => self.named(base, depth + 1),
                    _ => unknown(),
                },
            };
        };
        if let Some(v) = self.known.get(n) {
            return v.clone();
        }
        if self.visiting.iter().any(|v| v == n) {
            self.cuts += 1;
            return unknown();
        }
        let (cuts, top) = (self.cuts, self.visiting.is_empty());
        self.visiting.push(n.to_owned());
        let mut out = Value::new();
        for v in bound {
            out.extend(self.value(v, depth + 1));
            if out.len() > MAX_ALTS {
                break;
            }
        }
        self.visiting.pop();
        // At the top, a cut can only be the name's own cycle: the result
        // is the same each time.
        if (top || self.cuts == cuts) && !self.spent {
            self.known.insert(n.to_owned(), out.clone());
        }
        out
    }

    /// A bracketed or multi-token expression: its last statement, read
    /// through assignments (`(x <- "a")`) and `if`/`else` (both branches).
    fn statement(&mut self, items: &[usize], depth: usize) -> Value {
        let t = self.tree;
        let last = items
            .split(|&i| matches!(t.nodes[i], Node::End | Node::Op(",")))
            .rfind(|s| !s.is_empty())
            .unwrap_or_default();
        let op = |i: usize, ops: &[&str]| matches!(&t.nodes[i], Node::Op(o) if ops.contains(o));
        match last {
            [one] => self.value(*one, depth + 1),
            [_, a, rest @ ..] if op(*a, &["<-", "<<-", "="]) && !rest.is_empty() => {
                self.statement(rest, depth + 1)
            }
            [rest @ .., a, _] if op(*a, &["->", "->>"]) && !rest.is_empty() => {
                self.statement(rest, depth + 1)
            }
            // `x[2]`, `x[["cmd"]]`: every value of `x` (a superset).
            [x, index @ ..]
                if !index.is_empty()
                    && index
                        .iter()
                        .all(|&i| matches!(t.nodes[i], Node::Group(b'[', _))) =>
            {
                self.value(*x, depth + 1)
            }
            [cond, then, rest @ ..] if matches!(&t.nodes[*cond], Node::Call { callee, .. } if t.name(*callee) == Some("if")) =>
            {
                let mut v = self.value(*then, depth + 1);
                if let [kw, other @ ..] = rest
                    && t.name(*kw) == Some("else")
                {
                    v.extend(self.statement(other, depth + 1));
                }
                v
            }
            _ => unknown(),
        }
    }

    /// The call a node is, or the call the name it is was given first
    /// (`con <- pipe("sh", "w")`): the function's name and the arguments.
    pub(super) fn bound_call(&mut self, at: usize) -> Option<(String, &'t [Arg])> {
        let t = self.tree;
        let at = match t.nodes.get(at)? {
            Node::Name(n) => *self.vars.get(n.as_str())?.first()?,
            _ => at,
        };
        match t.nodes.get(at)? {
            Node::Call { callee, args } => Some((self.callee(*callee)?, args.as_slice())),
            _ => None,
        }
    }

    /// A call of a function R's string functions (`functions.rs`) fold.
    fn call(&mut self, name: &str, args: &[Arg], depth: usize) -> Value {
        functions::call(name, args, &mut At { f: self, depth })
    }
}

/// The folder at one depth, as the string functions see it.
struct At<'a, 't> {
    f: &'a mut Folder<'t>,
    depth: usize,
}

impl Eval for At<'_, '_> {
    fn value(&mut self, at: usize) -> Value {
        self.f.value(at, self.depth + 1)
    }

    fn named(&mut self, name: &str) -> Value {
        self.f.named(name, self.depth + 1)
    }
}
