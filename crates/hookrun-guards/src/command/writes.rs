//! Writes that lock users out or run code as root: an account file, a
//! sudoers drop-in or a crontab overwritten by a redirection or by a tool
//! (`cp`, `mv`, `install`, `ln`, `rsync`, `tee`, `sed -i`, `truncate`,
//! `shred`, `dd of=`), and writes to block devices. Destinations are
//! worked out as the tool does: the last operand, a directory it names
//! (`cp passwd /etc/`), or `-t DIR` / `--target-directory=DIR`.

use crate::command::argv::{self, Spec, Takes};
use crate::command::targets::{account_file, device_target, normal};

/// Directories a copy into which can land on an account file.
const ACCOUNT_PARENTS: &[&str] = &[
    "/etc",
    "/etc/sudoers.d",
    "/etc/cron.d",
    "/var/spool/cron",
    "/var/spool/cron/crontabs",
];

const COPY: Spec = Spec {
    short_value: "tSgmo",
    short_optional: "",
    long: &[
        ("target-directory", Takes::Value),
        ("suffix", Takes::Value),
        ("group", Takes::Value),
        ("mode", Takes::Value),
        ("owner", Takes::Value),
        ("strip-program", Takes::Value),
        ("no-target-directory", Takes::Nothing),
        ("backup", Takes::Nothing),
        ("recursive", Takes::Nothing),
        ("force", Takes::Nothing),
        ("archive", Takes::Nothing),
        ("symbolic", Takes::Nothing),
    ],
    permute: true,
};

const SED: Spec = Spec {
    short_value: "efl",
    short_optional: "i",
    long: &[
        ("expression", Takes::Value),
        ("file", Takes::Value),
        ("line-length", Takes::Value),
        ("in-place", Takes::Nothing),
        ("regexp-extended", Takes::Nothing),
        ("separate", Takes::Nothing),
        ("null-data", Takes::Nothing),
        ("quiet", Takes::Nothing),
        ("silent", Takes::Nothing),
    ],
    permute: true,
};

/// Options without values (`rm -f`, `unlink`): everything else is an operand.
const FLAGS: Spec = Spec {
    short_value: "",
    short_optional: "",
    long: &[
        ("interactive", Takes::Nothing),
        ("one-file-system", Takes::Nothing),
    ],
    permute: true,
};

const SIZED: Spec = Spec {
    short_value: "srn",
    short_optional: "",
    long: &[
        ("size", Takes::Value),
        ("reference", Takes::Value),
        ("iterations", Takes::Value),
        ("random-source", Takes::Value),
        ("append", Takes::Nothing),
        ("output-error", Takes::Nothing),
    ],
    permute: true,
};

/// A redirection (`>`, `>>`, `>|`, `&>`, `1>`, `<>`) onto a device or an
/// account file.
pub(crate) fn redirects(redirects: &[(String, String)]) -> Option<String> {
    for (op, target) in redirects {
        if !op.contains('>') || target.chars().all(|c| c.is_ascii_digit() || c == '-') {
            continue;
        }
        if let Some(why) = device_target(target, "a redirection") {
            return Some(why);
        }
        if account_file(target) {
            return Some(format!(
                "a redirection (`{op} {target}`) overwrites `{target}`"
            ));
        }
    }
    None
}

/// `dd of=…` onto a device or an account file (every `of=`: GNU `dd` uses
/// the last one given, and the guard judges them all).
pub(crate) fn dd(args: &[String]) -> Option<String> {
    args.iter()
        .filter_map(|a| a.strip_prefix("of="))
        .find_map(|of| {
            device_target(of, "`dd`")
                .or_else(|| account_file(of).then(|| format!("`dd` overwrites `{of}`")))
        })
}

/// Overwriting, truncating, replacing or removing an account file, and
/// copying or teeing onto a device.
pub(crate) fn account_file_write(prog: &str, args: &[String]) -> Option<String> {
    // What the tool writes, and what it removes.
    let (written, removed): (Vec<String>, Vec<String>) = match prog {
        // Only the destination matters: copying *from* /etc/passwd is fine.
        "cp" | "install" | "ln" | "rsync" => (destinations(&argv::parse(&COPY, args)), Vec::new()),
        // Moving an account file away removes it as surely as `rm`.
        "mv" => {
            let a = argv::parse(&COPY, args);
            let sources = match a.value('t', "target-directory") {
                Some(_) => a.operands.clone(),
                None => a
                    .operands
                    .split_last()
                    .map(|(_, s)| s.to_vec())
                    .unwrap_or_default(),
            };
            (destinations(&a), sources)
        }
        "rm" | "unlink" => (Vec::new(), argv::parse(&FLAGS, args).operands),
        "sed" => {
            let a = argv::parse(&SED, args);
            if !a.has('i', "in-place") {
                return None;
            }
            let script_given = a.has('e', "expression") || a.has('f', "file");
            let files = a.operands.into_iter().skip(usize::from(!script_given));
            (files.collect(), Vec::new())
        }
        _ => (argv::parse(&SIZED, args).operands, Vec::new()),
    };
    if matches!(
        prog,
        "cp" | "mv" | "install" | "rsync" | "tee" | "shred" | "truncate"
    ) {
        let who = format!("`{prog}`");
        if let Some(why) = written.iter().find_map(|t| device_target(t, &who)) {
            return Some(why);
        }
    }
    if let Some(t) = removed.iter().find(|t| account_file(t)) {
        return Some(format!("`{prog}` removes `{}`", normal(t)));
    }
    let target = written.iter().find(|t| account_file(t))?;
    Some(format!("`{prog}` overwrites `{}`", normal(target)))
}

/// Where `cp`/`mv`/`install`/`ln`/`rsync` write: into `-t DIR`, or the
/// last operand, and into it when it is a directory.
fn destinations(a: &argv::Args) -> Vec<String> {
    let into = |dir: &str, sources: &[String]| -> Vec<String> {
        sources
            .iter()
            .map(|s| {
                let name = s.trim_end_matches('/').rsplit('/').next().unwrap_or(s);
                format!("{}/{name}", dir.trim_end_matches('/'))
            })
            .collect()
    };
    if let Some(dir) = a.value('t', "target-directory") {
        return into(dir, &a.operands);
    }
    let Some((dest, sources)) = a.operands.split_last() else {
        return Vec::new();
    };
    if sources.is_empty() {
        // `ln -s /etc/passwd` links into the current directory.
        return Vec::new();
    }
    let mut out = vec![dest.clone()];
    if dest.ends_with('/') || ACCOUNT_PARENTS.contains(&normal(dest).as_str()) {
        out.extend(into(dest, sources));
    }
    out
}
