//! `git-history`: git commands that rewrite or delete history others have,
//! or throw away work that exists nowhere else. Git's own options come
//! before the subcommand (`git -C dir -c k=v --git-dir=x reset --hard`) and
//! are skipped as git skips them; `-c alias.x=…` aliases are expanded
//! (aliases in the user's git config are not seen: the guard reads the
//! command line only).
//!
//! Deliberate choices: `--force-with-lease` (alone or with `--force`) and
//! `git rebase` stay allowed, as both peers allow them: a lease refuses to
//! overwrite work the pusher has not seen, and a rebase keeps the old
//! commits in the reflog. A dry run (`push -n`, `clean -n`) is allowed.

use crate::command::argv::{self, GNU, Spec, Takes};
use crate::dangerous::categories::command::Command;
use crate::dangerous::categories::git_worktree;

/// Git's options before the subcommand that take a value in the next word.
const GLOBAL_WITH_VALUE: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--super-prefix",
    "--config-env",
    "--attr-source",
];

pub(crate) fn check(cmd: &Command<'_>) -> Option<String> {
    if cmd.prog != "git" {
        return None;
    }
    let (config, rest) = global_options(cmd.args)?;
    let (sub, args) = rest.split_first()?;
    // As the program name is: `GIT CHECKOUT` runs on case-insensitive
    // file systems, where git finds `git-checkout` for `CHECKOUT`.
    let sub = &sub.to_ascii_lowercase();
    // `git restore --help`: git shows the manual and runs nothing.
    if args
        .iter()
        .take_while(|a| *a != "--")
        .any(|a| a == "--help" || a == "-h")
    {
        return None;
    }
    // `git -c alias.wipe='reset --hard' wipe`: the alias runs.
    let expanded: Vec<String>;
    let (sub, args) = match alias(&config, sub) {
        Some(words) => {
            expanded = words.into_iter().chain(args.iter().cloned()).collect();
            let (s, a) = expanded.split_first()?;
            (s.as_str(), a)
        }
        None => (sub.as_str(), args),
    };
    match sub {
        "push" => push(args),
        "reset" | "clean" | "checkout" | "switch" | "restore" => {
            git_worktree::check(sub, args, &config)
        }
        "branch" => branch(args),
        "stash" => matches!(first_operand(args), Some("drop" | "clear"))
            .then(|| "`git stash drop/clear` deletes stashed changes".to_owned()),
        "worktree" => worktree(args),
        "filter-branch" | "filter-repo" => Some(format!("`git {sub}` rewrites the whole history")),
        "reflog" => matches!(first_operand(args), Some("expire" | "delete"))
            .then(|| "`git reflog expire/delete` drops the record of lost commits".to_owned()),
        "gc" | "prune" => prune_now(sub, args),
        _ => None,
    }
}

/// Skips git's options before the subcommand; returns the `-c` settings
/// and the words from the subcommand on. `None` for `--help`/`--version`.
fn global_options(args: &[String]) -> Option<(Vec<String>, &[String])> {
    let mut config = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if !a.starts_with('-') {
            break;
        }
        if matches!(a.as_str(), "-h" | "--help" | "-v" | "--version") {
            return None;
        }
        if GLOBAL_WITH_VALUE.contains(&a.as_str()) {
            if a == "-c" {
                config.extend(args.get(i + 1).cloned());
            }
            i += 2;
            continue;
        }
        if let Some(setting) = a.strip_prefix("-c").filter(|_| !a.starts_with("--")) {
            config.push(setting.to_owned());
        }
        i += 1;
    }
    Some((config, args.get(i..).unwrap_or_default()))
}

/// The words of a `-c alias.NAME=…` alias of `sub` (not `!shell` ones,
/// which the shell-command rules do not see here).
fn alias(config: &[String], sub: &str) -> Option<Vec<String>> {
    config.iter().rev().find_map(|setting| {
        let (key, value) = setting.split_once('=')?;
        let name = key
            .strip_prefix("alias.")
            .or_else(|| key.strip_prefix("ALIAS."))?;
        (name.eq_ignore_ascii_case(sub) && !value.starts_with('!'))
            .then(|| value.split_whitespace().map(str::to_owned).collect())
    })
}

/// The first word that is not an option (`git stash -q drop` is `drop`).
fn first_operand(args: &[String]) -> Option<&str> {
    args.iter()
        .map(String::as_str)
        .find(|a| !a.starts_with('-'))
}

const PUSH: Spec = Spec {
    short_value: "o",
    long: &[
        ("force", Takes::Nothing),
        ("force-with-lease", Takes::Optional(&[])),
        ("force-if-includes", Takes::Nothing),
        ("mirror", Takes::Nothing),
        ("delete", Takes::Nothing),
        ("prune", Takes::Nothing),
        ("dry-run", Takes::Nothing),
        ("repo", Takes::Value),
        ("receive-pack", Takes::Value),
        ("exec", Takes::Value),
        ("push-option", Takes::Value),
        ("recurse-submodules", Takes::Value),
        ("signed", Takes::Optional(&[])),
        ("set-upstream", Takes::Nothing),
        ("all", Takes::Nothing),
        ("tags", Takes::Nothing),
        ("follow-tags", Takes::Nothing),
    ],
    ..GNU
};

fn push(args: &[String]) -> Option<String> {
    let p = argv::parse(&PUSH, args);
    if p.has('n', "dry-run") {
        return None;
    }
    let lease = p.long("force-with-lease");
    // Unknown spellings that start like `--force` are read as a force.
    let force = p.has('f', "")
        || p.opts
            .iter()
            .map(|o| o.name.as_str())
            .any(|n| n.starts_with("force") && n != "force-with-lease" && n != "force-if-includes");
    // The first operand is the remote; refspecs follow.
    let refspecs = p.operands.get(1..).unwrap_or_default();
    if (force || refspecs.iter().any(|r| r.starts_with('+'))) && !lease {
        return Some("`git push --force` overwrites the remote's history".into());
    }
    if p.long("mirror") {
        return Some("`git push --mirror` overwrites and deletes the remote's refs".into());
    }
    if p.has('d', "delete") || refspecs.iter().any(|r| r.starts_with(':') && r.len() > 1) {
        return Some("`git push --delete` deletes a branch or tag on the remote".into());
    }
    p.long("prune")
        .then(|| "`git push --prune` deletes the remote's branches missing here".into())
}

const BRANCH: Spec = Spec {
    short_value: "u",
    long: &[
        ("delete", Takes::Nothing),
        ("force", Takes::Nothing),
        ("set-upstream-to", Takes::Value),
        ("points-at", Takes::Value),
        ("sort", Takes::Value),
        ("format", Takes::Value),
    ],
    ..GNU
};

fn branch(args: &[String]) -> Option<String> {
    let p = argv::parse(&BRANCH, args);
    let force = p.has('f', "force");
    if p.has('D', "") || (p.has('d', "delete") && force) {
        return Some("`git branch -D` deletes a branch even when it is not merged".into());
    }
    // `git branch -f name [start]` moves an existing branch; its commits
    // may be reachable from nowhere else.
    (force && !p.operands.is_empty() && !p.has('m', "move") && !p.has('c', "copy"))
        .then(|| "`git branch -f` resets an existing branch, dropping its commits".into())
}

fn worktree(args: &[String]) -> Option<String> {
    let spec = Spec {
        short_value: "",
        long: &[("force", Takes::Nothing)],
        ..GNU
    };
    let p = argv::parse(&spec, args);
    (p.operands.first().map(String::as_str) == Some("remove") && p.has('f', "force")).then(|| {
        "`git worktree remove --force` deletes a worktree with its uncommitted changes".into()
    })
}

fn prune_now(sub: &str, args: &[String]) -> Option<String> {
    let spec = Spec {
        short_value: "",
        long: &[("prune", Takes::Optional(&[])), ("expire", Takes::Value)],
        ..GNU
    };
    let p = argv::parse(&spec, args);
    let value = if sub == "gc" {
        p.value('\0', "prune")
    } else {
        p.value('\0', "expire")
    };
    matches!(value, Some("now" | "all"))
        .then(|| format!("`git {sub}` deletes unreachable commits now, with no grace period"))
}
