//! R tokens as a tree of calls: each `f(…)` with its arguments (named or
//! not), groups in brackets, and the other tokens as they come. Built
//! without recursion, into one arena, so neither building nor dropping
//! the tree of deeply nested (or unbalanced) code can exhaust the stack.
//! Two rewrites make later reading simple: `pkg::name$method` is one
//! name, and a pipe (`x |> f()`, `x %>% f`) becomes the call it is
//! (`f(x)`). Operators and statement ends are one shared node each, so
//! the arena grows with the code's names, numbers, strings and brackets
//! only; brackets open deeper than `MAX_BRACKETS` stop the building (the
//! guards say so).

use std::collections::HashMap;

use super::lex::Tok;

/// How deep brackets may nest: far beyond written R code.
pub(super) const MAX_BRACKETS: usize = 256;

/// A node of the tree; children are indices into [`Tree::nodes`].
#[derive(Debug, Clone)]
pub(super) enum Node {
    Str(String),
    /// A name, qualified names joined (`base::system`, `process$new`).
    Name(String),
    Num(String),
    Op(&'static str),
    /// Where a statement may end (a newline or `;`).
    End,
    Call {
        callee: usize,
        args: Vec<Arg>,
    },
    /// `(…)`, `[…]` or `{…}` that is not a call's argument list.
    Group(u8, Vec<usize>),
}

/// One argument: its name when given (`intern = TRUE`), and its value
/// (absent in `f(a, , b)`).
#[derive(Debug, Clone)]
pub(super) struct Arg {
    pub name: Option<String>,
    pub value: Option<usize>,
}

/// The nodes, and every call in the order its `(` appears.
#[derive(Debug, Default)]
pub(super) struct Tree {
    pub nodes: Vec<Node>,
    pub calls: Vec<usize>,
    /// Brackets nested deeper than `MAX_BRACKETS`: the code was not read
    /// to its end.
    pub too_deep: bool,
    /// While building: a slot per call, in the order calls open.
    pending: Vec<Option<usize>>,
    /// The one node of each operator, and of a statement's end.
    shared: HashMap<&'static str, usize>,
}

/// An open bracket being filled.
struct Frame {
    /// `Some(callee)` for a call's argument list.
    callee: Option<usize>,
    bracket: u8,
    items: Vec<usize>,
    args: Vec<Arg>,
    /// Index into `calls` reserved when the call opened (source order).
    slot: usize,
}

impl Tree {
    fn add(&mut self, n: Node) -> usize {
        self.nodes.push(n);
        self.nodes.len() - 1
    }

    /// The shared node of an operator (`""`: a statement's end).
    fn shared(&mut self, op: &'static str) -> usize {
        if let Some(&at) = self.shared.get(op) {
            return at;
        }
        let at = self.add(if op.is_empty() {
            Node::End
        } else {
            Node::Op(op)
        });
        self.shared.insert(op, at);
        at
    }

    /// The name a node is, if it is one.
    pub(super) fn name(&self, at: usize) -> Option<&str> {
        match self.nodes.get(at)? {
            Node::Name(n) => Some(n),
            _ => None,
        }
    }
}

/// The tree of `tokens`. Unbalanced brackets are closed where the code
/// ends; a stray closing bracket closes the innermost open one. The whole
/// code is a `{` group, the last node.
pub(super) fn build(tokens: impl Iterator<Item = Tok>) -> Tree {
    let mut t = Tree::default();
    let mut stack: Vec<Frame> = vec![frame(None, b'{', 0)];
    for tok in tokens {
        let depth = stack.len();
        if depth > MAX_BRACKETS {
            t.too_deep = true;
            break;
        }
        let Some(top) = stack.last_mut() else { break };
        match tok {
            Tok::Open(b'(') if top.items.last().is_some_and(|&i| callable(&t.nodes[i])) => {
                let callee = top.items.pop();
                t.pending.push(None);
                let slot = t.pending.len() - 1;
                stack.push(frame(callee, b'(', slot));
            }
            Tok::Open(b) => stack.push(frame(None, b, usize::MAX)),
            Tok::Close(_) if depth > 1 => {
                if let Some(done) = stack.pop() {
                    let node = close(&mut t, done);
                    if let Some(parent) = stack.last_mut() {
                        parent.items.push(node);
                    }
                }
            }
            Tok::Close(_) => {}
            Tok::Comma if top.callee.is_some() => {
                let items = std::mem::take(&mut top.items);
                let arg = argument(&mut t, items);
                top.args.push(arg);
            }
            // Inside `(…)` and `[…]`, and after an operator, a newline ends
            // nothing; nor does a second end in a row.
            Tok::End if top.bracket != b'{' => {}
            Tok::End
                if top
                    .items
                    .last()
                    .is_none_or(|&i| matches!(t.nodes[i], Node::Op(_) | Node::End)) => {}
            Tok::Name(n) => name(&mut t, &mut top.items, n),
            other => {
                let node = match other {
                    Tok::Str(s) => t.add(Node::Str(s)),
                    Tok::Num(s) => t.add(Node::Num(s)),
                    // `\(x) …` is `function(x) …`.
                    Tok::Op("\\") => t.add(Node::Name("\\".to_owned())),
                    Tok::Op(o) => t.shared(o),
                    Tok::Comma => t.shared(","),
                    _ => t.shared(""),
                };
                top.items.push(node);
            }
        }
    }
    while stack.len() > 1 {
        if let Some(done) = stack.pop() {
            let node = close(&mut t, done);
            if let Some(parent) = stack.last_mut() {
                parent.items.push(node);
            }
        }
    }
    if let Some(top) = stack.pop() {
        let items = piped(&mut t, top.items);
        t.add(Node::Group(b'{', items));
    }
    t.calls = std::mem::take(&mut t.pending)
        .into_iter()
        .flatten()
        .collect();
    t.shared = HashMap::new();
    t
}

fn frame(callee: Option<usize>, bracket: u8, slot: usize) -> Frame {
    Frame {
        callee,
        bracket,
        items: Vec::new(),
        args: Vec::new(),
        slot,
    }
}

/// Whether a node can be called: a name, a string (`"system"(…)`), a call
/// (`get("system")(…)`) or a bracketed expression (`(system)(…)`,
/// `{system}(…)`).
fn callable(n: &Node) -> bool {
    matches!(
        n,
        Node::Name(_) | Node::Str(_) | Node::Call { .. } | Node::Group(..)
    )
}

/// A name pushed after `::`, `:::`, `$` or `@` joins the name before it.
fn name(t: &mut Tree, items: &mut Vec<usize>, n: String) {
    let len = items.len();
    if len >= 2 {
        let (prev, op) = (items[len - 2], items[len - 1]);
        if let (Node::Name(p), Node::Op(o)) = (&t.nodes[prev], &t.nodes[op])
            && matches!(*o, "::" | ":::" | "$" | "@")
        {
            let joined = format!("{p}{o}{n}");
            t.nodes[prev] = Node::Name(joined);
            items.pop();
            return;
        }
    }
    let at = t.add(Node::Name(n));
    items.push(at);
}

/// The node a closed bracket makes.
fn close(t: &mut Tree, done: Frame) -> usize {
    let Some(callee) = done.callee else {
        let items = piped(t, done.items);
        return t.add(Node::Group(done.bracket, items));
    };
    let mut args = done.args;
    if !done.items.is_empty() || !args.is_empty() {
        args.push(argument(t, done.items));
    }
    let at = t.add(Node::Call { callee, args });
    if let Some(slot) = t.pending.get_mut(done.slot) {
        *slot = Some(at);
    }
    at
}

/// One argument from its tokens: `name = value` or a value.
fn argument(t: &mut Tree, mut items: Vec<usize>) -> Arg {
    let named = items.len() >= 2
        && matches!(t.nodes[items[1]], Node::Op("="))
        && matches!(&t.nodes[items[0]], Node::Name(_) | Node::Str(_));
    let name = if named {
        let n = match &t.nodes[items[0]] {
            Node::Name(s) | Node::Str(s) => Some(s.clone()),
            _ => None,
        };
        items.drain(..2);
        n
    } else {
        None
    };
    let items = piped(t, items);
    let value = match items.as_slice() {
        [] => None,
        [one] => Some(*one),
        _ => Some(t.add(Node::Group(b'(', items))),
    };
    Arg { name, value }
}

/// Items with each pipe made the call it is: `x |> f(a)` is `f(x, a)`,
/// `x |> f(y = _)` is `f(y = x)`, `x %>% f` is `f(x)`.
fn piped(t: &mut Tree, items: Vec<usize>) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::with_capacity(items.len());
    let mut it = items.into_iter();
    while let Some(i) = it.next() {
        let pipe = matches!(t.nodes[i], Node::Op("|>" | "%>%" | "%T>%"));
        if !pipe || out.is_empty() {
            out.push(i);
            continue;
        }
        let Some(rhs) = it.next() else {
            out.push(i);
            break;
        };
        let Some(lhs) = out.pop() else { break };
        let placeholder = match &t.nodes[rhs] {
            Node::Call { args, .. } => Some(args.iter().position(|a| {
                a.value
                    .is_some_and(|v| matches!(&t.nodes[v], Node::Name(n) if n == "_" || n == "."))
            })),
            _ => None,
        };
        let lhs_arg = Arg {
            name: None,
            value: Some(lhs),
        };
        let call = match (&mut t.nodes[rhs], placeholder) {
            (Node::Call { args, .. }, Some(Some(at))) => {
                if let Some(a) = args.get_mut(at) {
                    a.value = Some(lhs);
                }
                rhs
            }
            (Node::Call { args, .. }, _) => {
                args.insert(0, lhs_arg);
                rhs
            }
            (Node::Name(_), _) => {
                let at = t.add(Node::Call {
                    callee: rhs,
                    args: vec![lhs_arg],
                });
                t.pending.push(Some(at));
                at
            }
            _ => rhs,
        };
        out.push(call);
    }
    out
}
