//! Text the guard cannot read before it runs: the output of a decoder
//! (`base64 -d`, `xxd -r`, `openssl enc -d`, `gunzip`, `rev`, `tr`,
//! `printf '\x72\x6d'`) handed to a shell as code, piped into it or
//! substituted into `sh -c "$(…)"`, `eval "$(…)"`, `bash <(…)`. What it
//! decodes to is only known when it runs, so it is not trusted.

use crate::command::wrappers::{program, unwrap};
use hookrun_sh as shell;

/// Compressors whose `-d` decompresses.
const COMPRESSORS: &[&str] = &["gzip", "bzip2", "xz", "zstd", "lz4", "lzma", "brotli"];
/// Tools whose output is always decoded or rearranged text.
const ALWAYS: &[&str] = &[
    "gunzip",
    "zcat",
    "gzcat",
    "bzcat",
    "bunzip2",
    "xzcat",
    "unxz",
    "lzcat",
    "unlzma",
    "zstdcat",
    "unzstd",
    "uncompress",
    "uudecode",
    "rev",
    "tr",
];

/// The decoder `argv` is, named for a reason (`` `base64 -d` ``), if any.
pub(crate) fn decoder(argv: &[String]) -> Option<String> {
    let (first, args) = argv.split_first()?;
    let prog = program(first);
    let flag = |short: char, long: &str| {
        args.iter().any(|a| {
            a.strip_prefix("--")
                .map_or(a.starts_with('-') && a.contains(short), |l| {
                    l.len() >= 3 && long.starts_with(l)
                })
        })
    };
    let decodes = match prog.as_str() {
        "base64" | "base32" | "basenc" | "gbase64" => flag('d', "decode") || flag('D', "decode"),
        "xxd" => flag('r', "revert"),
        "openssl" => args
            .iter()
            .any(|a| a == "-d" || a == "-base64" || a == "base64"),
        p if COMPRESSORS.contains(&p) => flag('d', "decompress"),
        p if ALWAYS.contains(&p) => true,
        "printf" => args.iter().any(|a| escapes(a)),
        "echo" => {
            args.iter().any(|a| a.starts_with("-") && a.contains('e'))
                && args.iter().any(|a| escapes(a))
        }
        _ => false,
    };
    decodes.then(|| format!("`{}`", argv.join(" ")))
}

/// `\x72`, `\162`, `\u0072`: characters written as codes.
fn escapes(text: &str) -> bool {
    text.split('\\')
        .skip(1)
        .any(|s| s.starts_with(['x', 'u', 'U']) || s.starts_with(|c: char| c.is_ascii_digit()))
}

/// A decoder among the commands of `text` (a substitution's body).
pub(crate) fn decoded_in(text: &str) -> Option<String> {
    shell::parse(text)
        .iter()
        .flatten()
        .find_map(|c| decoder(&unwrap(&c.words)))
}
