//! Named categories of `dangerous-commands`: commands that lose work or
//! stop a machine but that ordinary work also runs (force-pushes, `git
//! reset --hard`, `find -delete`, reboots, disk and account tools). They
//! are off by default — the always-on rules keep to disasters — and a user
//! switches them on by name with the `categories` option (`"all"`, a list,
//! or a comma-separated string).
//!
//! Each rule sees a command already stripped of its wrappers (`sudo`,
//! `env`, `xargs`, …) and reads its arguments as the tool does (`args`).

mod command;
mod disk;
mod find;
mod git;
mod git_worktree;
mod rm;
mod system;

use serde::Deserialize;

pub(super) use command::Command;

/// One category: its switch, what it covers, and its rule.
pub(super) struct Category {
    pub name: &'static str,
    pub description: &'static str,
    rule: fn(&Command<'_>) -> Option<String>,
}

/// Every category, in the order they are documented.
pub(super) const CATEGORIES: &[Category] = &[
    Category {
        name: "git-history",
        description: "force-pushes, remote branch deletion, `reset --hard`, `clean -f`, discarding worktree changes (`checkout -- x`, `restore`, `switch -f`), `branch -D`, `stash drop/clear`, `filter-branch`, reflog expiry",
        rule: git::check,
    },
    Category {
        name: "find-delete",
        description: "`find` deleting (`-delete`, `-exec`/`-execdir`/`-ok rm`) under a root, home or system directory, or a whole tree with no test narrowing it",
        rule: find::check,
    },
    Category {
        name: "rm-outside-project",
        description: "`rm -rf` of a path not shown to be inside the project: absolute paths other than /tmp and /var/tmp, `~` and `$HOME` paths, paths climbing out with `..`, computed paths",
        rule: rm::check,
    },
    Category {
        name: "kill-all",
        description: "signals to every process (`kill -9 -1`) or to init, `killall5`, `pkill`/`killall` of every process or every process of a user",
        rule: system::kill_all,
    },
    Category {
        name: "shutdown",
        description: "`shutdown`, `reboot`, `halt`, `poweroff`, `init 0/6`, `telinit`, `systemctl poweroff/reboot/halt/kexec/rescue`",
        rule: system::shutdown,
    },
    Category {
        name: "crontab",
        description: "`crontab -r`: removing a user's whole crontab",
        rule: system::crontab,
    },
    Category {
        name: "disk-tools",
        description: "partition, signature and volume tools that erase disks: wipefs, sgdisk `-Z/-o`, blkdiscard, fdisk/sfdisk/parted writes, `hdparm --security-erase`, `cryptsetup luksFormat/erase`, lvremove/vgremove/pvremove, `zpool destroy`, `zfs destroy`, `mdadm --zero-superblock`",
        rule: disk::check,
    },
    Category {
        name: "account-tools",
        description: "removing or locking accounts and passwords: `passwd -d/-l`, `usermod -p/-L`, userdel, deluser, groupdel, chpasswd",
        rule: system::accounts,
    },
];

/// The `categories` option as written: `"all"`, `"git-history,crontab"`
/// or `["git-history", "crontab"]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "serde_json::Value")]
pub enum Selection {
    One(String),
    Many(Vec<String>),
}

impl TryFrom<serde_json::Value> for Selection {
    type Error = String;

    fn try_from(value: serde_json::Value) -> Result<Self, String> {
        let wrong = || {
            format!(
                "`categories` must be \"all\", a category name or a list of names, not `{value}`"
            )
        };
        match &value {
            serde_json::Value::String(s) => Ok(Selection::One(s.clone())),
            serde_json::Value::Array(items) => items
                .iter()
                .map(|i| i.as_str().map(str::to_owned).ok_or_else(wrong))
                .collect::<Result<_, _>>()
                .map(Selection::Many),
            _ => Err(wrong()),
        }
    }
}

/// The categories switched on.
#[derive(Debug, Default)]
pub(super) struct Categories {
    on: Vec<&'static str>,
}

impl Categories {
    /// # Errors
    /// A name that is not a category, with the valid names.
    pub(super) fn new(selection: Option<&Selection>) -> Result<Self, String> {
        let names: Vec<&str> = match selection {
            None => Vec::new(),
            Some(Selection::One(s)) => s.split(',').map(str::trim).collect(),
            Some(Selection::Many(v)) => v.iter().map(|s| s.trim()).collect(),
        };
        let mut on = Vec::new();
        for name in names.into_iter().filter(|n| !n.is_empty()) {
            if name == "all" {
                on.extend(CATEGORIES.iter().map(|c| c.name));
            } else if let Some(c) = CATEGORIES.iter().find(|c| c.name == name) {
                on.push(c.name);
            } else {
                let valid: Vec<&str> = CATEGORIES.iter().map(|c| c.name).collect();
                let described: String = CATEGORIES
                    .iter()
                    .map(|c| format!("\n  {}: {}", c.name, c.description))
                    .collect();
                return Err(format!(
                    "unknown category `{name}` in `categories`; valid: all, {}{described}",
                    valid.join(", ")
                ));
            }
        }
        Ok(Categories { on })
    }

    /// Why the command falls in a category switched on, or `None`.
    #[must_use]
    pub(super) fn check(
        &self,
        prog: &str,
        args: &[String],
        catastrophic: fn(&str) -> bool,
    ) -> Option<String> {
        if self.on.is_empty() {
            return None;
        }
        let cmd = Command {
            prog,
            args,
            catastrophic,
        };
        CATEGORIES
            .iter()
            .filter(|c| self.on.contains(&c.name))
            .find_map(|c| {
                (c.rule)(&cmd).map(|why| {
                    format!(
                        "{why} (category `{}`; take it out of the `categories` option to allow)",
                        c.name
                    )
                })
            })
    }
}
