//! The named categories of `dangerous-commands`: each case is denied with
//! its category switched on and allowed with the categories off; ordinary
//! work passes with every category on; the switch works from a TOML config
//! and from `hookrun builtin --option`, and a wrong name is a clear error.

use std::path::Path;
use std::process::{Command, Stdio};

use hookrun::internals::builtin::{Builtin, Mode};
use hookrun_guards::{Context, Verdict};
use serde_json::{Value, json};

use crate::support::{BIN, HookTest};

fn verdict(options: Value, command: &str) -> Verdict {
    let b = Builtin::new("dangerous-commands", options, Mode::Enforce).expect("options");
    let ev = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command}, "cwd": "/tmp"});
    let ev =
        hookrun::internals::dialect::read_event(ev.to_string().as_bytes(), None).expect("event");
    b.evaluate(&ev, &Context::new(Path::new("/tmp"), String::new))
}

/// (category, command): denied only when the category is on.
const IN_CATEGORY: &[(&str, &str)] = &[
    ("git-history", "git push --force"),
    ("git-history", "git push -f origin main"),
    ("git-history", "git push origin main --force"),
    ("git-history", "git push --forc origin main"),
    ("git-history", "git push --force=true origin main"),
    ("git-history", "git push origin +main"),
    ("git-history", "git push origin +HEAD:refs/heads/main"),
    ("git-history", "git push --mirror backup"),
    ("git-history", "git push origin --delete feature"),
    ("git-history", "git push origin :feature"),
    ("git-history", "git push --prune origin"),
    ("git-history", "git -C repo push -f"),
    ("git-history", "git reset --hard"),
    ("git-history", "git reset --hard HEAD~5"),
    ("git-history", "git reset -q --hard"),
    ("git-history", "git reset --har"),
    ("git-history", "git reset --merge"),
    ("git-history", "git -C repo reset --hard"),
    ("git-history", "git -Crepo reset --hard"),
    ("git-history", "git -c user.name=x reset --hard"),
    ("git-history", "git --git-dir=repo/.git reset --hard"),
    (
        "git-history",
        "git --git-dir repo/.git --work-tree repo reset --hard",
    ),
    ("git-history", "git --no-pager reset --hard origin/main"),
    ("git-history", "git -c alias.wipe='reset --hard' wipe"),
    ("git-history", "sudo git reset --hard"),
    ("git-history", "bash -c 'git reset --hard'"),
    ("git-history", "git clean -f"),
    ("git-history", "git clean -fdx"),
    ("git-history", "git clean -xf"),
    ("git-history", "git clean -d --force"),
    ("git-history", "git -c clean.requireForce=false clean"),
    ("git-history", "git checkout -- ."),
    ("git-history", "git checkout ."),
    ("git-history", "git checkout -- file.txt"),
    ("git-history", "git checkout HEAD -- file.txt"),
    ("git-history", "git checkout main a.txt b.txt"),
    ("git-history", "git checkout -f main"),
    ("git-history", "git checkout -qf main"),
    (
        "git-history",
        "git checkout HEAD --pathspec-from-file=paths.txt",
    ),
    ("git-history", "git switch --discard-changes main"),
    ("git-history", "git switch -qf main"),
    ("git-history", "git restore file.txt"),
    ("git-history", "git restore ."),
    ("git-history", "git restore --staged --worktree file.txt"),
    ("git-history", "git restore -s HEAD~2 src"),
    ("git-history", "git branch -D feature"),
    ("git-history", "git branch -Dv feature"),
    ("git-history", "git branch --delete --force feature"),
    ("git-history", "git branch -f main HEAD~3"),
    ("git-history", "git stash drop"),
    ("git-history", "git stash drop stash@{0}"),
    ("git-history", "git stash clear"),
    ("git-history", "git worktree remove --force ../wt"),
    (
        "git-history",
        "git filter-branch --tree-filter 'rm -f x' HEAD",
    ),
    ("git-history", "git reflog expire --expire=now --all"),
    ("git-history", "git gc --prune=now"),
    ("find-delete", "find / -name '*.log' -delete"),
    ("find-delete", "find /home -type f -delete"),
    ("find-delete", "find ~ -name x -delete"),
    ("find-delete", "find /etc -exec rm {} \\;"),
    ("find-delete", "find / -execdir rm -rf {} +"),
    ("find-delete", "find / -ok rm {} \\;"),
    ("find-delete", "find /usr -exec sudo rm -f {} +"),
    ("find-delete", "find -L / -delete"),
    ("find-delete", "find . -delete"),
    ("find-delete", "find ./ -delete"),
    ("find-delete", "find -delete"),
    ("find-delete", "find . -type f -delete"),
    ("find-delete", "find . -exec rm -rf {} \\;"),
    ("find-delete", "find src -exec env rm -rf {} ;"),
    ("find-delete", "busybox find . -delete"),
    ("rm-outside-project", "rm -rf /some/path"),
    ("rm-outside-project", "rm -Rf /opt/app/cache"),
    ("rm-outside-project", "rm -r -f /srv/data/old"),
    ("rm-outside-project", "rm --recursive --force /mnt/backup/x"),
    ("rm-outside-project", "rm -rf /tmp/../Users/some/path"),
    ("rm-outside-project", "rm -rf ~/projects/other"),
    ("rm-outside-project", "rm -rf ~someone/src/escape"),
    ("rm-outside-project", "rm -rf ../sibling"),
    ("rm-outside-project", "rm -rf build/../../x"),
    ("rm-outside-project", "rm -rf `pwd`/escape"),
    ("rm-outside-project", "rm -rf /var/tmp/../../opt/x/y"),
    ("rm-outside-project", "rm -rf $BUILD_ROOT/out"),
    ("kill-all", "kill -9 -1"),
    ("kill-all", "kill -KILL -1"),
    ("kill-all", "kill -s KILL -1"),
    ("kill-all", "kill -- -1"),
    ("kill-all", "kill -9 1"),
    ("kill-all", "killall5 -9"),
    ("kill-all", "pkill -9 ."),
    ("kill-all", "pkill -f '.*'"),
    ("kill-all", "pkill -u bob"),
    ("kill-all", "pkill -KILL -U 1000"),
    ("kill-all", "killall -u bob"),
    ("kill-all", "killall -r ."),
    ("shutdown", "shutdown -h now"),
    ("shutdown", "shutdown -r +5"),
    ("shutdown", "sudo reboot"),
    ("shutdown", "halt -p"),
    ("shutdown", "poweroff"),
    ("shutdown", "init 0"),
    ("shutdown", "init 6"),
    ("shutdown", "telinit 1"),
    ("shutdown", "systemctl poweroff"),
    ("shutdown", "systemctl reboot --force"),
    ("shutdown", "systemctl -i halt"),
    ("shutdown", "systemctl kexec"),
    ("shutdown", "systemctl isolate rescue.target"),
    ("shutdown", "systemctl -H host start poweroff.target"),
    ("shutdown", "loginctl reboot"),
    ("crontab", "crontab -r"),
    ("crontab", "crontab -ri"),
    ("crontab", "crontab -ir"),
    ("crontab", "crontab -u bob -r"),
    ("disk-tools", "sgdisk -Z /dev/sda"),
    ("disk-tools", "sgdisk --zap-all /dev/sda"),
    ("disk-tools", "sgdisk -o /dev/nvme0n1"),
    ("disk-tools", "sgdisk -d 1 /dev/sda"),
    ("disk-tools", "blkdiscard /dev/sda"),
    ("disk-tools", "sfdisk /dev/sda < layout"),
    ("disk-tools", "sfdisk --delete /dev/sda 1"),
    ("disk-tools", "parted -s /dev/sda mklabel gpt"),
    ("disk-tools", "parted /dev/sda rm 1"),
    ("disk-tools", "hdparm --security-erase pass /dev/sda"),
    ("disk-tools", "cryptsetup luksFormat /dev/sdb1"),
    ("disk-tools", "cryptsetup -q erase /dev/sdb1"),
    ("disk-tools", "lvremove -f vg/lv"),
    ("disk-tools", "vgremove vg0"),
    ("disk-tools", "zpool destroy tank"),
    ("disk-tools", "zfs destroy -r tank/data"),
    ("disk-tools", "mdadm --zero-superblock /dev/sdb1"),
    ("account-tools", "passwd -d root"),
    ("account-tools", "passwd --delete bob"),
    ("account-tools", "passwd -l bob"),
    ("account-tools", "usermod -p '' root"),
    ("account-tools", "usermod --password x bob"),
    ("account-tools", "usermod -L bob"),
    ("account-tools", "userdel -r bob"),
    ("account-tools", "deluser bob"),
    ("account-tools", "groupdel staff"),
    ("account-tools", "echo 'root:x' | chpasswd"),
];

/// Ordinary work: allowed with every category on.
const ORDINARY: &[&str] = &[
    "git push",
    "git push origin main",
    "git push -u origin feature",
    "git push --force-with-lease",
    "git push --force-with-lease=main origin main",
    "git push --force --dry-run",
    "git push --tags",
    "git reset --soft HEAD~1",
    "git reset HEAD~1",
    "git reset HEAD file.txt",
    "git reset --keep HEAD~1",
    "git clean -n",
    "git clean -nd",
    "git clean --dry-run -x",
    "git checkout main",
    "git checkout -b feature",
    "git checkout -qbfeature",
    "git checkout -b feature origin/main",
    "git checkout --conflict merge main",
    "git checkout --track direct main",
    "git checkout -",
    "git switch main",
    "git switch -c fix",
    "git switch -- -f",
    "git restore --staged file.txt",
    "git restore -S .",
    "git restore --help",
    "git branch -d merged",
    "git branch -M main",
    "git branch feature",
    "git stash",
    "git stash pop",
    "git stash list",
    "git rebase main",
    "git rebase -i HEAD~3",
    "git commit -m 'git reset --hard was a mistake'",
    "git worktree remove ../wt",
    "git worktree remove -- -f",
    "git gc",
    "git reflog",
    "git -C repo status",
    "git --help",
    "find . -name '*.pyc' -delete",
    "find ./ -name '*.orig' -delete",
    "find build -name '*.o' -exec rm {} +",
    "find . -name -delete -print",
    "find . -exec echo -delete \\; -print",
    "find / -name passwd",
    "find . -type f -exec cat {} +",
    "find /tmp/cache -mtime +7 -delete",
    "rm -rf ./build",
    "rm -rf node_modules target/debug",
    "rm -rf /tmp/test-dir",
    "rm -rf /var/tmp/cache",
    "rm -rf \"$TMPDIR/test\"",
    "rm -rf ${TMPDIR:-/tmp}/build",
    "rm -r /some/path",
    "rm -f /some/file",
    "rm -rf build/../dist",
    "kill 1234",
    "kill -9 1234",
    "kill -0 -1",
    "kill -l",
    "kill -HUP 4321",
    "pkill -f 'node server.js'",
    "pkill -u bob node",
    "killall node",
    "systemctl status nginx",
    "systemctl restart nginx",
    "systemctl --user start app.service",
    "shutdown -c",
    "reboot --help",
    "crontab -l",
    "crontab -e",
    "crontab -u bob -l",
    "crontab jobs.txt",
    "passwd",
    "passwd -S bob",
    "usermod -aG docker bob",
    "fdisk -l",
    "sfdisk -d /dev/sda",
    "parted /dev/sda print",
    "lvs",
    "zpool status",
    "cryptsetup status cryptroot",
    "echo 'kill -9 -1'",
];

#[test]
fn each_category_denies_its_commands_only_when_switched_on() {
    for (category, command) in IN_CATEGORY {
        match verdict(json!({"categories": [category]}), command) {
            Verdict::Deny(why) => assert!(
                why.contains(&format!("category `{category}`")) && why.contains("categories"),
                "{command}: the reason names the category and its switch: {why}"
            ),
            other => panic!("{command}: not denied with `{category}` on: {other:?}"),
        }
        assert_eq!(
            verdict(Value::Null, command),
            Verdict::Pass,
            "{command}: denied with the categories off"
        );
    }
}

#[test]
fn a_category_does_not_catch_another_categorys_commands() {
    for (category, command) in IN_CATEGORY {
        let others: Vec<&str> = IN_CATEGORY
            .iter()
            .map(|(c, _)| *c)
            .filter(|c| c != category)
            .collect();
        assert_eq!(
            verdict(json!({"categories": others}), command),
            Verdict::Pass,
            "{command}: denied without `{category}`"
        );
    }
}

#[test]
fn ordinary_work_passes_with_every_category_on() {
    for command in ORDINARY {
        assert_eq!(
            verdict(json!({"categories": "all"}), command),
            Verdict::Pass,
            "{command}"
        );
    }
}

#[test]
fn a_comma_separated_string_switches_categories_on() {
    let on = json!({"categories": "crontab, shutdown"});
    assert!(matches!(
        verdict(on.clone(), "crontab -r"),
        Verdict::Deny(_)
    ));
    assert!(matches!(verdict(on.clone(), "reboot"), Verdict::Deny(_)));
    assert_eq!(verdict(on, "git reset --hard"), Verdict::Pass);
}

#[test]
fn categories_apply_when_patterns_replace_the_built_in_rules() {
    let on = json!({"patterns": ["^terraform destroy"], "categories": ["crontab"]});
    assert!(matches!(
        verdict(on.clone(), "crontab -r"),
        Verdict::Deny(_)
    ));
    assert!(matches!(
        verdict(on.clone(), "terraform destroy"),
        Verdict::Deny(_)
    ));
    assert_eq!(verdict(on, "rm -rf /"), Verdict::Pass);
}

fn builtin(options: &[&str], command: &str) -> std::process::Output {
    let mut child = Command::new(BIN)
        .args(["builtin", "dangerous-commands"])
        .args(options.iter().flat_map(|o| ["--option", o]))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn hookrun");
    let ev = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command}});
    if let Some(mut stdin) = child.stdin.take() {
        let _ = std::io::Write::write_all(&mut stdin, ev.to_string().as_bytes());
    }
    child.wait_with_output().expect("hookrun output")
}

#[test]
fn the_option_switches_categories_on_from_the_command_line() {
    let list = builtin(&["categories=[\"git-history\"]"], "git push -f");
    assert_eq!(list.status.code(), Some(2), "{list:?}");
    assert!(String::from_utf8_lossy(&list.stderr).contains("category `git-history`"));
    assert_eq!(
        builtin(&["categories=all"], "sudo reboot").status.code(),
        Some(2)
    );
    assert_eq!(
        builtin(&["categories=crontab,kill-all"], "kill -9 -1")
            .status
            .code(),
        Some(2)
    );
    assert_eq!(builtin(&[], "git push -f").status.code(), Some(0));
}

#[test]
fn an_unknown_category_is_an_error_listing_the_valid_ones() {
    let out = builtin(&["categories=[\"git-history\",\"git-histroy\"]"], "ls");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unknown category `git-histroy`"),
        "{stderr}"
    );
    for name in [
        "all",
        "git-history",
        "find-delete",
        "kill-all",
        "shutdown",
        "crontab",
        "disk-tools",
        "account-tools",
    ] {
        assert!(stderr.contains(name), "{name} missing from: {stderr}");
    }
}

#[test]
fn a_wrongly_typed_selection_is_an_error_saying_what_is_expected() {
    let out = builtin(&["categories=[1]"], "ls");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("`categories` must be"), "{stderr}");
}

#[test]
fn a_toml_config_switches_categories_on() {
    let config = "[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\noptions = { categories = [\"find-delete\"] }\n";
    let out = HookTest::new()
        .toml(config)
        .pre_tool_use("find / -delete")
        .run();
    assert_eq!(out.code, 2, "{out:?}");
    let out = HookTest::new()
        .toml(config)
        .pre_tool_use("git reset --hard")
        .run();
    assert_eq!(out.code, 0, "{out:?}");
}

/// Words that stress the argument readers: value flags at the end of the
/// line, `--`, `=`, empty words, clusters, non-ASCII.
const WORDS: &[&str] = &[
    "-",
    "--",
    "-c",
    "-C",
    "-b",
    "-u",
    "-s",
    "-o",
    "-n",
    "-rf",
    "-fdx",
    "--force",
    "--forc",
    "--track",
    "--force-with-lease",
    "=",
    "",
    "-1",
    "1",
    "/",
    ".",
    "..",
    "~",
    "-é",
    "--é=ü",
    "alias.x=reset --hard",
    "push",
    "reset",
    "--hard",
    "clean",
    "checkout",
    "-delete",
    "-exec",
    ";",
    "+",
    "rm",
    "-r",
    "-f",
    "{}",
    "/dev/sda",
    "drop",
    "destroy",
];
const PROGRAMS: &[&str] = &[
    "git",
    "find",
    "rm",
    "kill",
    "pkill",
    "killall",
    "shutdown",
    "systemctl",
    "init",
    "crontab",
    "sgdisk",
    "wipefs",
    "parted",
    "passwd",
    "usermod",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]
    #[test]
    fn every_category_reads_any_arguments_without_panicking(
        prog in 0..PROGRAMS.len(),
        words in proptest::collection::vec(0..WORDS.len(), 0..10),
    ) {
        let line: Vec<String> = std::iter::once(PROGRAMS[prog])
            .chain(words.iter().map(|&w| WORDS[w]))
            .map(|w| format!("'{}'", w.replace('\'', "")))
            .collect();
        let _ = verdict(json!({"categories": "all"}), &line.join(" "));
    }
}
