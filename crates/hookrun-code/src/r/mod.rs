//! R code (deputy's `run_r_code`, `Rscript -e`, `R -e`): what it hands to
//! a shell, deletes, reads and writes, as far as its strings are written
//! in the code. The guards cannot run R, so they read it: the calls of
//! `calls.rs` are found anywhere in the code (with or without their
//! package, through pipes, `do.call`, `lapply`, `get("…")` and names
//! assigned a function), their arguments matched as R matches them
//! (names, unique prefixes, positions), and each argument's strings
//! folded from literals (`fold.rs`). Each use comes out in the shell's
//! words — a command line, or the command doing the same (`unlink(x,
//! recursive = TRUE)` is `rm -rf -- 'x'`) — so the guards judge it with
//! the rules they judge a shell command with. Only literal strings can be
//! judged: a value R computes from data (a file, an argument, the
//! network) is not seen.
//!
//! No I/O, and bounded: at most 1 MiB of code, one pass to tokens, a tree
//! built without recursion (brackets 256 deep), fixed depths, and one
//! budget per check, kept per thread, for all the text read and folded
//! (`budget.rs`); past any of them the reading stops with the reason.

mod act;
mod args;
mod bindings;
mod budget;
mod calls;
mod fold;
mod functions;
mod lex;
mod read;
mod tree;
mod uses;
mod values;

pub use act::{Act, Use, Visit};
pub use budget::reset;
pub use budget::work;

/// Reads `code`, handing each use to `visit`: the first reason it gives,
/// or the reason the reading stopped short (too deep, too much text).
pub fn each_use(code: &str, visit: Visit<'_>) -> Option<String> {
    read::read(code, 0, visit)
}

/// Whether a program (as `program` names it) runs R code: `Rscript`, `R`,
/// littler's `r`.
pub fn is_r(prog: &str) -> bool {
    matches!(prog, "rscript" | "r" | "rscript.exe" | "r.exe")
}

/// The code of `Rscript -e EXPR…` / `R --vanilla -e EXPR`, the
/// expressions joined by newlines; `None` without `-e` (a script file).
pub fn code_of(args: &[String]) -> Option<String> {
    let mut exprs: Vec<&str> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-e" | "--eval" => exprs.extend(it.next().map(String::as_str)),
            "--args" => break,
            _ if a.starts_with("--eval=") => exprs.push(&a["--eval=".len()..]),
            _ if a.starts_with('-') => {}
            _ => break,
        }
    }
    (!exprs.is_empty()).then(|| exprs.join("\n"))
}

/// Every use of an R command line's code (its `-e` code, else its
/// here-docs); a reading cut short keeps what it found.
pub fn inline_uses(args: &[String], here: &[String]) -> Vec<Use> {
    let codes = code_of(args).map_or_else(|| here.to_vec(), |c| vec![c]);
    let mut out = Vec::new();
    for code in &codes {
        each_use(code, &mut |u| {
            out.push(u.clone());
            None
        });
    }
    out
}

#[cfg(test)]
mod tests;
