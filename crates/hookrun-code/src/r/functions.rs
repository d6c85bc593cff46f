//! R's functions over strings, folded when their arguments are written in
//! the code: `c()`, `paste()`/`paste0()`/`str_c()`, `file.path()` and
//! the `fs`/`here` path builders, `glue()`, `sprintf()`, `shQuote()`,
//! `sub`/`gsub` of plain text, `tolower`/`toupper`, `trimws`,
//! `path.expand`/`normalizePath` (kept as written: `~` stays the home),
//! `Sys.getenv("HOME")`, `getwd()`, `ifelse`/`switch` (every branch); a
//! decoder (`rawToChar`, `intToUtf8`, base64) gives `DECODED`, and any
//! other function `UNKNOWN`.

use super::args::matched;
use super::calls::DECODERS;
use super::tree::Arg;
use super::values::{
    DECODED, Piece, Value, combine, env, glue_pieces, map, pasted, sprintf, substituted, unknown,
};

/// How the functions read their arguments: the value of a node, and of
/// a name (a glue template's `{name}`).
pub(super) trait Eval {
    fn value(&mut self, at: usize) -> Value;
    fn named(&mut self, name: &str) -> Value;
}

fn args_of(e: &mut dyn Eval, nodes: &[usize]) -> Vec<Value> {
    nodes.iter().map(|&n| e.value(n)).collect()
}

pub(super) fn call(name: &str, args: &[Arg], e: &mut dyn Eval) -> Value {
    let positional = |args: &[Arg]| -> Vec<usize> { args.iter().filter_map(|a| a.value).collect() };
    match name {
        "c" | "list" | "unlist" | "as.character" | "as.vector" => {
            let values = args_of(e, &positional(args));
            combine(&values, |parts| Some(parts.concat()))
        }
        "identity" | "invisible" | "I" | "force" | "noquote" | "enc2utf8" | "enc2native"
        | "path.expand" | "normalizePath" | "path_expand" | "path_norm" | "path_real"
        | "suppressWarnings" | "suppressMessages" | "Sys.glob" | "trimws" => {
            let m = matched(&["x"], args);
            let v = m.params[0].map_or_else(unknown, |x| e.value(x));
            if name == "trimws" {
                return map(v, |s| s.trim().to_owned());
            }
            v
        }
        "tolower" | "toupper" | "casefold" => {
            let m = matched(&["x", "upper"], args);
            let upper = name == "toupper"
                || m.params[1].is_some_and(|u| e.value(u) == [vec!["TRUE".to_owned()]]);
            let v = m.params[0].map_or_else(unknown, |x| e.value(x));
            map(v, |s| {
                if upper {
                    s.to_uppercase()
                } else {
                    s.to_lowercase()
                }
            })
        }
        "shQuote" => {
            let m = matched(&["string", "type"], args);
            let v = m.params[0].map_or_else(unknown, |x| e.value(x));
            map(v, |s| hookrun_sh::word::quoted(&s))
        }
        "paste" | "paste0" | "file.path" | "path" | "here" | "path_home" | "str_c" => {
            paste(e, name, args)
        }
        "glue" | "str_glue" => {
            let m = matched(&["...", ".sep"], args);
            let mut texts = Vec::new();
            for &x in &m.dots {
                texts.push(e.value(x));
            }
            let vars: Vec<(String, usize)> = args
                .iter()
                .filter_map(|a| Some((a.name.clone()?, a.value?)))
                .collect();
            let joined = combine(&texts, |parts| Some(vec![parts.concat().concat()]));
            let mut out = Value::new();
            for alt in joined {
                for text in alt {
                    out.extend(glued(e, &text, &vars));
                }
            }
            out
        }
        "sprintf" | "gettextf" => {
            let m = matched(&["fmt", "..."], args);
            let Some(fmt) = m.params[0] else {
                return unknown();
            };
            let mut values = vec![e.value(fmt)];
            values.extend(args_of(e, &m.dots));
            combine(&values, |parts| Some(sprintf(parts)))
        }
        "sub" | "gsub" => {
            let m = matched(
                &[
                    "pattern",
                    "replacement",
                    "x",
                    "ignore.case",
                    "perl",
                    "fixed",
                ],
                args,
            );
            let fixed = m.params[5].is_some_and(|f| e.value(f) == [vec!["TRUE".to_owned()]]);
            let [Some(p), Some(r), Some(x)] = [m.params[0], m.params[1], m.params[2]] else {
                return unknown();
            };
            let values = [e.value(p), e.value(r), e.value(x)];
            let all = name == "gsub";
            combine(&values, |parts| substituted(parts, fixed, all))
        }
        "Sys.getenv" => {
            let m = matched(&["x", "unset", "names"], args);
            let v = m.params[0].map_or_else(unknown, |x| e.value(x));
            map(v, |s| env(&s))
        }
        "getwd" => vec![vec![".".to_owned()]],
        "get" | "get0" | "dynGet" => {
            let m = matched(&["x"], args);
            let names = m.params[0].map_or_else(unknown, |x| e.value(x));
            let mut v = Value::new();
            for n in names.into_iter().flatten() {
                v.extend(e.named(&n));
            }
            v
        }
        "dirname" | "basename" | "path_dir" | "path_file" => {
            let m = matched(&["path"], args);
            let v = m.params[0].map_or_else(unknown, |x| e.value(x));
            let dir = matches!(name, "dirname" | "path_dir");
            map(v, |s| if dir { dirname(&s) } else { basename(&s) })
        }
        "list.files" | "dir" | "list.dirs" | "dir_ls" => listed(e, name, args),
        "ifelse" | "if_else" => {
            let m = matched(&["test", "yes", "no"], args);
            let mut v = Value::new();
            for x in [m.params[1], m.params[2]].into_iter().flatten() {
                v.extend(e.value(x));
            }
            v
        }
        "switch" => {
            let m = matched(&["EXPR", "..."], args);
            let mut v = Value::new();
            for x in m.dots {
                v.extend(e.value(x));
            }
            v
        }
        n if DECODERS.contains(&n) => vec![vec![DECODED.to_owned()]],
        _ => unknown(),
    }
}

/// A glue template with each `{name}` filled from the call's named
/// arguments or the code's names (an expression is [`UNKNOWN`]).
fn glued(e: &mut dyn Eval, text: &str, named: &[(String, usize)]) -> Value {
    let mut values: Vec<Value> = Vec::new();
    for piece in glue_pieces(text) {
        values.push(match piece {
            Piece::Text(t) => vec![vec![t.to_owned()]],
            Piece::Name(n) => match named.iter().find(|(name, _)| name == n) {
                Some((_, at)) => e.value(*at),
                None => e.named(n),
            },
            Piece::Other => unknown(),
        });
    }
    combine(&values, |parts| Some(pasted(parts, "")))
}

/// `paste`, `paste0`, `file.path` and the `fs`/`here` path builders.
fn paste(e: &mut dyn Eval, name: &str, args: &[Arg]) -> Value {
    let m = matched(&["...", "sep", "collapse"], args);
    let mut values = Vec::new();
    match name {
        "here" => values.push(vec![vec![".".to_owned()]]),
        "path_home" => values.push(vec![vec!["~".to_owned()]]),
        _ => {}
    }
    values.extend(args_of(e, &m.dots));
    let literal = |e: &mut dyn Eval, at: Option<usize>, default: &str| match at {
        Some(x) => e.value(x).first().and_then(|a| a.first().cloned()),
        None => Some(default.to_owned()),
    };
    let default_sep = match name {
        "paste" => " ",
        "paste0" | "str_c" => "",
        _ => "/",
    };
    let sep_given = m.params[1].filter(|_| matches!(name, "paste" | "str_c"));
    let Some(sep) = literal(e, sep_given, default_sep) else {
        return unknown();
    };
    let collapse = match m.params[2] {
        Some(c) => match literal(e, Some(c), "") {
            Some(c) => Some(c),
            None => return unknown(),
        },
        None => None,
    };
    combine(&values, |parts| {
        let joined = pasted(parts, &sep);
        Some(match &collapse {
            Some(c) => vec![joined.join(c)],
            None => joined,
        })
    })
}

/// R's `dirname`: the path less its last component (`.` for a bare name,
/// `..` for `.`, so `dirname(getwd())` is the parent).
fn dirname(p: &str) -> String {
    let t = p.trim_end_matches('/');
    match t.rsplit_once('/') {
        Some(("", _)) => "/".to_owned(),
        Some((d, _)) => d.to_owned(),
        None if t == "." => "..".to_owned(),
        None if t.is_empty() && p.starts_with('/') => "/".to_owned(),
        None => ".".to_owned(),
    }
}

/// R's `basename`: the last component.
fn basename(p: &str) -> String {
    let t = p.trim_end_matches('/');
    t.rsplit('/').next().unwrap_or(t).to_owned()
}

/// What a directory listing (`list.files`, `dir`, `list.dirs`,
/// `fs::dir_ls`) gives, when it gives full paths and no filter: every
/// entry of the directory (`DIR/*`); otherwise names the guard cannot
/// tell.
fn listed(e: &mut dyn Eval, name: &str, args: &[Arg]) -> Value {
    let params: &[&str] = match name {
        "list.dirs" => &["path", "full.names", "recursive"],
        "dir_ls" => &["path", "all", "recurse", "type", "glob", "regexp"],
        _ => &["path", "pattern", "all.files", "full.names", "recursive"],
    };
    let m = matched(params, args);
    let at = |p: &str| {
        params
            .iter()
            .position(|x| *x == p)
            .and_then(|i| m.params[i])
    };
    let filtered = ["pattern", "glob", "regexp"]
        .iter()
        .any(|p| at(p).is_some());
    let full = match (name, at("full.names")) {
        ("list.dirs" | "dir_ls", None) => true,
        (_, Some(f)) => e
            .value(f)
            .iter()
            .all(|a| a.first().is_some_and(|v| v == "TRUE")),
        (_, None) => false,
    };
    if filtered || !full {
        return unknown();
    }
    let dirs = at("path").map_or_else(|| vec![vec![".".to_owned()]], |p| e.value(p));
    map(dirs, |d| format!("{}/*", d.trim_end_matches('/')))
}
