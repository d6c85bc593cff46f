//! Here-doc bodies: the lines after the line that opens them, up to the
//! delimiter line.

use super::lexer::{Lexer, Token};

/// The body of a here-doc whose delimiter was just read: the lines after
/// the current line (after earlier bodies on it) up to the delimiter line,
/// or to the end of the script. The lexer skips them at the line's newline.
/// Inside a substitution (`level > 0`) the body is only skipped, not kept.
pub(super) fn body(lx: &mut Lexer<'_>, delim: &str, strip_tabs: bool) -> String {
    let mut at = match lx.after_bodies {
        Some(end) => end,
        None => {
            let mut j = lx.i;
            while lx.byte(j).is_some_and(|c| c != b'\n') {
                j += 1;
            }
            lx.count(j - lx.i);
            j + 1
        }
    };
    let keep = lx.level == 0;
    let mut body = String::new();
    while at < lx.len() {
        let start = at;
        while lx.byte(at).is_some_and(|c| c != b'\n') {
            at += 1;
        }
        lx.count(at - start + 1);
        let line = lx.slice(start, at);
        at += 1;
        let line = if strip_tabs {
            line.trim_start_matches('\t')
        } else {
            line
        };
        if line == delim {
            break;
        }
        if keep {
            body.push_str(line);
            body.push('\n');
        }
    }
    lx.after_bodies = Some(at.min(lx.len()));
    body
}

/// The command substitutions of an unquoted here-doc's body: bash expands
/// `$(…)` and backquotes there as inside double quotes, so they run
/// whatever command reads the body (`cat <<EOF` … `$(rm -rf /)`). The body
/// is read again as one double-quoted word; the work is counted on `lx`.
pub(super) fn substitutions(lx: &mut Lexer<'_>, body: &str) -> Vec<String> {
    if !body.contains(['$', '`']) {
        return Vec::new();
    }
    let quoted = format!("\"{}\"", body.replace('"', "\\\""));
    let mut inner = Lexer::new(&quoted, lx.nested);
    let mut subs = Vec::new();
    while let Some(token) = inner.token() {
        if let Token::Word(w) = token {
            subs.extend(w.subs);
        }
    }
    lx.count(usize::try_from(inner.steps()).unwrap_or(usize::MAX));
    lx.nesting = lx.nesting.max(inner.nesting());
    subs
}
