//! `dangerous-commands`: account files removed or edited in place, devices
//! written by copying tools, every dot file of a home, and aliases whose
//! value is a dangerous command. Through the library, each line a real
//! event evaluated by the real rule set.

use std::path::Path;

use crate::support::{Builtin, at, event};
use hookrun_guards::Verdict;
use serde_json::{Value, json};

fn verdict(command: &str) -> Verdict {
    let b = Builtin::new("dangerous-commands", Value::Null).expect("guard");
    let ev = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command}, "cwd": "/tmp"});
    let ev = event(&ev).expect("event");
    b.evaluate(&ev, &at(Path::new("/tmp")))
}

/// (command, a fragment of the reason).
const DENIED: &[(&str, &str)] = &[
    ("rm /etc/passwd", "removes `/etc/passwd`"),
    ("rm -f /etc/shadow", "removes `/etc/shadow`"),
    ("sudo rm -- /etc/sudoers", "removes `/etc/sudoers`"),
    ("unlink /etc/group", "removes `/etc/group`"),
    ("rm /etc/sudoers.d/90-users", "removes"),
    ("rm /etc/cron.d/backup", "removes"),
    ("mv /etc/passwd /tmp/", "removes `/etc/passwd`"),
    ("mv -t /tmp /etc/shadow", "removes `/etc/shadow`"),
    ("mv /etc/../etc/gshadow x", "removes `/etc/gshadow`"),
    (
        "perl -pi -e 's/x//' /etc/passwd",
        "`perl -i` overwrites `/etc/passwd`",
    ),
    (
        "perl -i.bak -pe 's/x//' /etc/shadow",
        "overwrites `/etc/shadow`",
    ),
    ("perl -p -i -e 's/a/b/' /etc/sudoers", "overwrites"),
    ("ruby -i -pe 'x' /etc/passwd", "`ruby -i` overwrites"),
    ("cp /dev/zero /dev/sda", "writes to the device `/dev/sda`"),
    ("cp image.iso /dev/sdb", "device"),
    ("cat /dev/zero | tee /dev/nvme0n1", "device"),
    ("install -m 644 blob /dev/sda", "device"),
    ("rsync x.img /dev/sdc", "device"),
    ("rm -rf ~/.*", "recursively deletes"),
    ("rm -rf $HOME/.*", "recursively deletes"),
    ("rm -rf /.*", "recursively deletes"),
    ("rm -rf .*", "recursively deletes"),
    ("alias x='rm -rf /'; x", "an alias runs a command"),
    (
        "alias ll='ls -l' c='mkfs.ext4 /dev/sda'",
        "an alias runs a command",
    ),
];

/// Ordinary commands on the same programs.
const ALLOWED: &[&str] = &[
    "rm passwd.txt",
    "rm -f ./etc/passwd",
    "mv etc/passwd.sample etc/passwd",
    "cp /etc/passwd /tmp/passwd.copy",
    "mv notes.txt /tmp/",
    "perl -pi -e 's/a/b/' src/main.c",
    "perl -ne 'print' /etc/passwd",
    "ruby -pe 'x' /etc/passwd",
    "cp disk.img backup.img",
    "tee /dev/null < x",
    "cat x | tee /dev/stderr",
    "rm -rf build/.*.tmp",
    "rm -f ~/.cache/pip/x.whl",
    "alias ll='ls -la'",
    "alias",
    "unalias x",
];

#[test]
fn account_files_removed_devices_copied_onto_dot_files_and_aliases_are_denied() {
    for (cmd, why) in DENIED {
        match verdict(cmd) {
            Verdict::Deny(w) => assert!(w.contains(why), "{cmd}: reason {w:?} lacks {why:?}"),
            other => panic!("{cmd}: want deny, got {other:?}"),
        }
    }
}

#[test]
fn the_same_programs_on_ordinary_files_are_allowed() {
    for cmd in ALLOWED {
        let got = verdict(cmd);
        assert!(
            matches!(got, Verdict::Pass),
            "{cmd}: want pass, got {got:?}"
        );
    }
}
