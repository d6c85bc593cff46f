//! `git-history`, the worktree half: commands that throw away uncommitted
//! changes or untracked files, which exist nowhere else (`reset --hard`,
//! `clean -f`, `checkout -- x`, `checkout REV x`, `restore x`, `switch -f`).

use crate::command::argv::{self, Args, GNU, Spec, Takes};

pub(crate) fn check(sub: &str, args: &[String], config: &[String]) -> Option<String> {
    match sub {
        "reset" => reset(args),
        "clean" => clean(args, config),
        "checkout" => checkout(args),
        "switch" => switch(args),
        _ => restore(args),
    }
}

const RESET: Spec = Spec {
    short_value: "",
    long: &[
        ("hard", Takes::Nothing),
        ("merge", Takes::Nothing),
        ("keep", Takes::Nothing),
        ("pathspec-from-file", Takes::Value),
    ],
    ..GNU
};

fn reset(args: &[String]) -> Option<String> {
    let p = argv::parse(&RESET, args);
    if p.long("hard") {
        return Some("`git reset --hard` discards uncommitted changes".into());
    }
    p.long("merge")
        .then(|| "`git reset --merge` discards uncommitted changes".into())
}

const CLEAN: Spec = Spec {
    short_value: "e",
    long: &[
        ("force", Takes::Nothing),
        ("dry-run", Takes::Nothing),
        ("exclude", Takes::Value),
    ],
    ..GNU
};

fn clean(args: &[String], config: &[String]) -> Option<String> {
    let p = argv::parse(&CLEAN, args);
    if p.has('n', "dry-run") {
        return None;
    }
    // `-c clean.requireForce=false` makes a bare `git clean` delete.
    let unforced = config.iter().any(|c| {
        c.split_once('=').is_some_and(|(k, v)| {
            k.eq_ignore_ascii_case("clean.requireforce")
                && matches!(
                    v.to_ascii_lowercase().as_str(),
                    "false" | "no" | "off" | "0"
                )
        })
    });
    (p.has('f', "force") || unforced)
        .then(|| "`git clean -f` deletes untracked files, which git cannot restore".into())
}

/// Options whose optional value git users write in the next word.
const TRACK: &[&str] = &["direct", "inherit"];
const SUBMODULES: &[&str] = &["checkout", "on-demand", "yes", "no"];

const CHECKOUT: Spec = Spec {
    short_value: "bBU",
    long: &[
        ("force", Takes::Nothing),
        ("pathspec-from-file", Takes::Value),
        ("orphan", Takes::Value),
        ("conflict", Takes::Value),
        ("unified", Takes::Value),
        ("inter-hunk-context", Takes::Value),
        ("track", Takes::Optional(TRACK)),
        ("recurse-submodules", Takes::Optional(SUBMODULES)),
    ],
    ..GNU
};

fn checkout(args: &[String]) -> Option<String> {
    let p = argv::parse(&CHECKOUT, args);
    if p.has('f', "force") {
        return Some("`git checkout --force` discards uncommitted changes".into());
    }
    let creates = p.has('b', "") || p.has('B', "") || p.long("orphan");
    (paths_given(&p) || (!creates && p.operands.len() >= 2) || whole_tree(&p))
        .then(|| "`git checkout` of paths overwrites their uncommitted changes".into())
}

/// `-- paths` or `--pathspec-from-file`: the command names paths.
fn paths_given(p: &Args) -> bool {
    p.after_dashdash > 0 || p.long("pathspec-from-file")
}

/// `git checkout .`: a lone operand that can only be the worktree.
fn whole_tree(p: &Args) -> bool {
    matches!(p.operands.as_slice(), [only] if only == "." || only == "*" || only.starts_with(":/"))
}

const SWITCH: Spec = Spec {
    short_value: "cC",
    long: &[
        ("discard-changes", Takes::Nothing),
        ("force", Takes::Nothing),
        ("create", Takes::Value),
        ("force-create", Takes::Value),
        ("orphan", Takes::Value),
        ("conflict", Takes::Value),
        ("track", Takes::Optional(TRACK)),
        ("recurse-submodules", Takes::Optional(SUBMODULES)),
    ],
    ..GNU
};

fn switch(args: &[String]) -> Option<String> {
    let p = argv::parse(&SWITCH, args);
    (p.has('f', "force") || p.long("discard-changes"))
        .then(|| "`git switch --discard-changes` discards uncommitted changes".into())
}

const RESTORE: Spec = Spec {
    short_value: "s",
    long: &[
        ("worktree", Takes::Nothing),
        ("staged", Takes::Nothing),
        ("source", Takes::Value),
        ("pathspec-from-file", Takes::Value),
        ("conflict", Takes::Value),
        ("recurse-submodules", Takes::Optional(SUBMODULES)),
    ],
    ..GNU
};

fn restore(args: &[String]) -> Option<String> {
    let p = argv::parse(&RESTORE, args);
    // Without `--staged`, or with `--worktree`, restore writes the worktree.
    let worktree = p.has('W', "worktree") || !p.has('S', "staged");
    (worktree && (!p.operands.is_empty() || paths_given(&p)))
        .then(|| "`git restore` of worktree files overwrites their uncommitted changes".into())
}
