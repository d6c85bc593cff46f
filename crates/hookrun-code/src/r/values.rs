//! Values as the guard folds them, and R's string functions over them: a
//! value is every alternative the code allows (a name assigned twice has
//! two), each a character vector; functions are vectorised as R's are
//! (arguments recycled to the longest) and applied to every combination
//! of their arguments' alternatives, sized against the check's budget
//! before any is built. What is not written in the code is [`UNKNOWN`]
//! (or [`DECODED`]).

use super::budget;

/// What a value not written in the code reads as: a shell variable, so
/// the shell guard judges it as it judges any unknown word.
pub(crate) const UNKNOWN: &str = "$R_VALUE";
/// Text decoded at run time (`rawToChar`, `intToUtf8`, base64).
pub(crate) const DECODED: &str = "$R_DECODED";
/// The most alternatives one value may have.
pub(super) const MAX_ALTS: usize = 1 << 16;

/// Each alternative value: a character vector.
pub(super) type Value = Vec<Vec<String>>;

/// A value not written in the code.
pub(super) fn unknown() -> Value {
    vec![vec![UNKNOWN.to_owned()]]
}

/// Each string of each alternative mapped.
pub(super) fn map(v: Value, f: impl Fn(String) -> String) -> Value {
    v.into_iter()
        .map(|alt| alt.into_iter().map(&f).collect())
        .collect()
}

/// Every combination of the arguments' alternatives, each made into one
/// vector by `f` (`None`: unknown). More than `MAX_ALTS` combinations, or
/// combinations holding more text than the budget has left, give more
/// than `MAX_ALTS` (empty) alternatives, which the caller finds too many,
/// before any is built.
pub(super) fn combine(
    values: &[Value],
    f: impl Fn(&[Vec<String>]) -> Option<Vec<String>>,
) -> Value {
    let too_many = || vec![Vec::new(); MAX_ALTS + 1];
    let mut count: usize = 1;
    let mut text: usize = 0;
    for v in values {
        let len: usize = v.iter().flatten().map(String::len).sum();
        // Each alternative's text appears in count / v.len() combinations.
        text = text
            .saturating_mul(v.len())
            .saturating_add(len.saturating_mul(count));
        count = count.saturating_mul(v.len());
        if count > MAX_ALTS {
            return too_many();
        }
    }
    if text > budget::left() {
        return too_many();
    }
    let mut combos: Vec<Vec<Vec<String>>> = vec![Vec::new()];
    for v in values {
        if v.is_empty() {
            return unknown();
        }
        if let [one] = v.as_slice() {
            // One alternative (the common case): no copy of the others.
            combos.iter_mut().for_each(|c| c.push(one.clone()));
            continue;
        }
        combos = combos
            .into_iter()
            .flat_map(|c| {
                v.iter().map(move |alt| {
                    let mut c = c.clone();
                    c.push(alt.clone());
                    c
                })
            })
            .collect();
    }
    combos
        .iter()
        .map(|c| f(c).unwrap_or_else(|| vec![UNKNOWN.to_owned()]))
        .collect()
}

/// `paste(…, sep)` of one combination: element by element, recycled to
/// the longest; zero-length arguments left out, as R leaves them.
pub(super) fn pasted(parts: &[Vec<String>], sep: &str) -> Vec<String> {
    let n = parts.iter().map(Vec::len).max().unwrap_or(0);
    let pieces: Vec<&Vec<String>> = parts.iter().filter(|p| !p.is_empty()).collect();
    (0..n)
        .map(|i| {
            pieces
                .iter()
                .map(|p| p[i % p.len()].as_str())
                .collect::<Vec<_>>()
                .join(sep)
        })
        .collect()
}

/// One piece of a glue template.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Piece<'a> {
    Text(&'a str),
    /// `{name}`.
    Name(&'a str),
    /// `{expression}`: not read.
    Other,
}

/// A glue template (`"rm -rf {dir}"`) as text and `{…}` pieces.
pub(super) fn glue_pieces(text: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push(Piece::Text(&rest[..open]));
        let Some(len) = rest[open..].find('}') else {
            rest = &rest[open..];
            break;
        };
        let inner = rest[open + 1..open + len].trim();
        let name = !inner.is_empty()
            && inner
                .chars()
                .all(|c| c.is_alphanumeric() || c == '.' || c == '_');
        // `{'/'}`: a string literal.
        let literal = ['\'', '"']
            .iter()
            .find_map(|q| inner.strip_prefix(*q)?.strip_suffix(*q))
            .filter(|l| !l.contains(['\'', '"', '\\']));
        out.push(match literal {
            Some(l) => Piece::Text(l),
            None if name => Piece::Name(inner),
            None => Piece::Other,
        });
        rest = &rest[open + len + 1..];
    }
    out.push(Piece::Text(rest));
    out
}

/// What `Sys.getenv(name)` is read as: `~` for the home, `$NAME` for
/// another variable (judged as the shell judges it).
pub(super) fn env(name: &str) -> String {
    match name {
        "HOME" | "USERPROFILE" | "R_USER" => "~".to_owned(),
        n if !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
            format!("${n}")
        }
        _ => UNKNOWN.to_owned(),
    }
}

/// `sprintf(fmt, …)`: `%s`, `%d`, `%i`, `%f`, `%g`, `%e`, `%x`, `%o`
/// (flags, width and precision ignored: they only pad) take the next
/// argument, or the one `%n$` names; `%%` is `%`. A missing argument or
/// another conversion gives [`UNKNOWN`].
pub(super) fn sprintf(parts: &[Vec<String>]) -> Vec<String> {
    let Some((fmt, args)) = parts.split_first() else {
        return Vec::new();
    };
    let n = parts.iter().map(Vec::len).max().unwrap_or(0);
    if parts.iter().any(Vec::is_empty) {
        return Vec::new();
    }
    (0..n)
        .map(|i| {
            let f = &fmt[i % fmt.len()];
            let arg = |k: usize| args.get(k).map_or(UNKNOWN, |a| a[i % a.len()].as_str());
            one(f, &arg)
        })
        .collect()
}

fn one<'a>(fmt: &str, arg: &dyn Fn(usize) -> &'a str) -> String {
    let mut out = String::with_capacity(fmt.len());
    let mut next = 0;
    let mut rest = fmt;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        let spec = &rest[at + 1..];
        if let Some(after) = spec.strip_prefix('%') {
            out.push('%');
            rest = after;
            continue;
        }
        let len = spec.find(|c: char| c.is_ascii_alphabetic()).filter(|&k| {
            spec[..k]
                .chars()
                .all(|c| c.is_ascii_digit() || "$-+ #.*".contains(c))
        });
        let Some(len) = len else {
            out.push('%');
            rest = spec;
            continue;
        };
        let flags = &spec[..len];
        let index = match flags.split_once('$') {
            Some((n, _)) => n.parse::<usize>().ok().and_then(|n| n.checked_sub(1)),
            None => {
                next += 1;
                Some(next - 1)
            }
        };
        let conv = spec[len..].chars().next().unwrap_or('s');
        if "sdifgeGExXo".contains(conv) {
            out.push_str(index.map_or(UNKNOWN, arg));
        } else {
            out.push_str(UNKNOWN);
        }
        rest = &spec[len + conv.len_utf8()..];
    }
    out.push_str(rest);
    out
}

/// `sub`/`gsub(pattern, replacement, x)` when the pattern is plain text
/// (`fixed = TRUE`, or no regex character in it) and the replacement has
/// no back-reference; `None` otherwise.
pub(super) fn substituted(parts: &[Vec<String>], fixed: bool, all: bool) -> Option<Vec<String>> {
    let [pattern, replacement, x] = parts else {
        return None;
    };
    let (p, r) = (pattern.first()?, replacement.first()?);
    let plain = fixed || !p.contains(|c: char| ".^$*+?()[]{}|\\".contains(c));
    if !plain || p.is_empty() || (!fixed && r.contains('\\')) {
        return None;
    }
    Some(
        x.iter()
            .map(|s| {
                if all {
                    s.replace(p, r)
                } else {
                    s.replacen(p, r, 1)
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn combinations_recycling_and_templates() {
        let two: Value = vec![v(&["a"]), v(&["b"])];
        let got = combine(&[two, vec![v(&["1", "2"])]], |p| Some(pasted(p, "-")));
        assert_eq!(got, [v(&["a-1", "a-2"]), v(&["b-1", "b-2"])]);
        assert_eq!(
            pasted(&[v(&["x"]), vec![], v(&["1", "2"])], ""),
            v(&["x1", "x2"])
        );
        let many: Vec<Value> = (0..17).map(|_| vec![v(&["a"]), v(&["b"])]).collect();
        assert!(combine(&many, |p| Some(p.concat())).len() > MAX_ALTS);
        assert_eq!(
            glue_pieces("{'/'}"),
            [Piece::Text(""), Piece::Text("/"), Piece::Text("")]
        );
        assert_eq!(
            glue_pieces("rm {d} {f(x)}"),
            [
                Piece::Text("rm "),
                Piece::Name("d"),
                Piece::Text(" "),
                Piece::Other,
                Piece::Text("")
            ]
        );
        assert_eq!(env("HOME"), "~");
        assert_eq!(env("TMPDIR"), "$TMPDIR");
    }

    #[test]
    fn sprintf_fills_each_conversion() {
        let f = sprintf;
        assert_eq!(f(&[v(&["rm -%s %s"]), v(&["rf"]), v(&["/"])]), ["rm -rf /"]);
        assert_eq!(f(&[v(&["%2$s %1$s %%"]), v(&["a"]), v(&["b"])]), ["b a %"]);
        assert_eq!(f(&[v(&["%5s|%q"]), v(&["x"])]), [format!("x|{UNKNOWN}")]);
        assert_eq!(f(&[v(&["%s"])]), [UNKNOWN]);
        assert_eq!(f(&[v(&["a%"])]), ["a%"]);
    }

    #[test]
    fn plain_substitutions_only() {
        let parts = [v(&["X"]), v(&[""]), v(&["rXm -rf /X"])];
        assert_eq!(substituted(&parts, false, true), Some(v(&["rm -rf /"])));
        assert_eq!(substituted(&parts, false, false), Some(v(&["rm -rf /X"])));
        assert_eq!(
            substituted(&[v(&["."]), v(&[""]), v(&["a"])], false, true),
            None
        );
        assert_eq!(
            substituted(&[v(&["."]), v(&[""]), v(&["a.b"])], true, true),
            Some(v(&["ab"]))
        );
    }
}
