//! `dangerous-commands` follows how the shell moves text around: `$IFS`
//! splitting a word into a command, a group's output piped into a shell,
//! functions that fork themselves, `cd` and variable assignments before a
//! delete, awk and lua programs that run commands or write devices,
//! interpreters that run argument lists, and writes to devices
//! and the kernel's control files by tools that size or wipe. Each class
//! has its evasions and the ordinary commands that must stay allowed.

use crate::support::{assert_guard_allows, assert_guard_denies};
use hookrun_guards::dangerous::{DangerousCommands, Options};
use hookrun_sh::MAX_WORDS;

fn guard() -> DangerousCommands {
    DangerousCommands::new(Options::default()).expect("built-in rules")
}

/// (command, a fragment the reason must hold).
const DENIED: &[(&str, &str)] = &[
    // `$IFS` splitting.
    ("rm${IFS}-rf${IFS}/", "`rm` recursively deletes `/`"),
    ("rm$IFS-rf$IFS/", "`rm` recursively deletes `/`"),
    ("rm${IFS:0:1}-rf${IFS:0:1}/usr", "deletes `/usr`"),
    ("sudo rm${IFS}-rf${IFS}/etc", "deletes `/etc`"),
    ("mkfs.ext4${IFS}/dev/sda", "formats"),
    // A group's output piped into a shell.
    ("{ echo 'rm -rf /'; } | sh", "rm"),
    ("( echo 'rm -rf /' ) | bash", "rm"),
    ("if true; then echo 'rm -rf /'; fi | sh", "rm"),
    (
        "for i in 1; do printf 'mkfs.ext4 /dev/sda'; done | bash",
        "formats",
    ),
    ("{ echo ls; echo 'rm -rf ~'; } | sh -s", "rm"),
    // Fork bombs, whatever their names and spacing.
    (":(){ :|:& };:", "a fork bomb"),
    (":(){ : | : & }; :", "a fork bomb"),
    ("bomb(){ bomb|bomb& }; bomb", "a fork bomb: function `bomb`"),
    ("f(){ f & f; }; f", "a fork bomb"),
    ("function b { b | b & }; b", "a fork bomb"),
    // `cd` before a relative target.
    ("(cd / && rm -rf bin)", "deletes `/bin`"),
    ("cd / ; rm -rf usr", "deletes `/usr`"),
    ("cd /usr && rm -rf lib", "deletes `/usr/lib`"),
    ("cd /etc; rm passwd", "removes `/etc/passwd`"),
    ("cd ~ && rm -rf Documents", "deletes `~/Documents`"),
    ("cd /usr/share && cd .. && rm -rf bin", "deletes `/usr/bin`"),
    ("pushd / >/dev/null; rm -rf etc", "deletes `/etc`"),
    ("bash -c 'cd / && rm -rf bin'", "deletes `/bin`"),
    // Variables the line assigns itself.
    ("X=/; rm -rf $X", "`rm` recursively deletes `/`"),
    ("D=/usr; rm -rf \"${D}\"", "deletes `/usr`"),
    (
        "export T=/etc; chmod -R 777 $T",
        "changes everything under `/etc`",
    ),
    ("declare -x H=~; rm -rf $H/", "deletes"),
    ("env X=/ rm -rf $X", "deletes `/`"),
    ("sudo env -i D=/usr rm -rf $D", "deletes `/usr`"),
    // Argument lists run without a shell, and paths wrapped in calls.
    (
        "python3 -c 'import subprocess; subprocess.run([\"rm\", \"-rf\", \"/\"])'",
        "inline `python3` code runs a command",
    ),
    (
        "node -e 'require(\"child_process\").execFileSync(\"rm\", [\"-rf\", \"/\"])'",
        "inline `node` code runs a command",
    ),
    (
        "node -e 'require(\"child_process\").spawn(\"mkfs.ext4\", [\"/dev/sda\"])'",
        "formats",
    ),
    ("perl -e 'system(\"rm\", \"-rf\", \"/\")'", "inline `perl`"),
    (
        "ruby -e 'system(\"rm\", \"-rf\", \"/etc\")'",
        "deletes `/etc`",
    ),
    (
        "python3 -c 'import os; os.execvp(\"rm\", [\"rm\", \"-rf\", \"/\"])'",
        "inline `python3`",
    ),
    (
        "perl -e 'unlink glob(\"/etc/*\")'",
        "inline `perl` code deletes `/etc/*`",
    ),
    (
        "python3 -c 'import shutil, pathlib; shutil.rmtree(pathlib.Path(\"/\"))'",
        "deletes `/`",
    ),
    (
        "ruby -e 'FileUtils.rm_rf(Dir.glob(\"/*\"))'",
        "deletes `/*`",
    ),
    (
        "python3 <<EOF\nimport subprocess\nsubprocess.run([\"rm\", \"-rf\", \"/\"])\nEOF",
        "inline `python3`",
    ),
    // awk and lua programs.
    (
        "awk 'BEGIN{system(\"rm -rf /\")}'",
        "inline `awk` code runs a command",
    ),
    (
        "gawk 'BEGIN { system(\"mkfs.ext4 /dev/sda1\") }'",
        "inline `gawk` code runs a command",
    ),
    ("awk 'BEGIN{print \"rm -rf /\" | \"sh\"}'", "inline `awk`"),
    ("awk 'BEGIN{ \"rm -rf /\" | getline x }'", "inline `awk`"),
    (
        "awk -F: -v x=1 -- 'BEGIN{system(\"rm -rf ~\")}'",
        "inline `awk`",
    ),
    ("awk 'BEGIN{print \"rm -rf /\"}' | sh", "rm"),
    (
        "mawk 'BEGIN{print \"x\" > \"/dev/sda\"}'",
        "the device `/dev/sda`",
    ),
    (
        "awk '{print > \"/etc/passwd\"}' list",
        "overwrites `/etc/passwd`",
    ),
    (
        "lua -e 'os.execute(\"rm -rf /\")'",
        "inline `lua` code runs a command",
    ),
    ("lua -e 'io.popen(\"rm -rf ~\")'", "inline `lua`"),
    // Devices and kernel control files.
    ("shred /dev/sda", "writes to the device `/dev/sda`"),
    ("shred -n 1 -z /dev/sdb", "the device `/dev/sdb`"),
    ("truncate -s 0 /dev/nvme0n1", "the device `/dev/nvme0n1`"),
    (
        "echo b > /proc/sysrq-trigger",
        "controls the running kernel",
    ),
    (
        "echo c | sudo tee /proc/sysrq-trigger",
        "controls the running kernel",
    ),
    (
        "echo 1 | sudo tee /proc/sys/kernel/panic",
        "controls the running kernel",
    ),
    (
        "echo 1 > /sys/block/sda/device/delete",
        "controls the running kernel",
    ),
    (
        "dd if=/dev/zero of=/proc/sysrq-trigger",
        "controls the running kernel",
    ),
];

/// Ordinary commands of the same shapes.
const ALLOWED: &[&str] = &[
    "x=a${IFS}b; echo $x",
    "echo \"a${IFS}b\"",
    "IFS=: read -r a b <<< \"x:y\"",
    "echo ':(){ :|:& };:'",
    "git commit -m ':(){ :|:& };:'",
    "grep -F ':(){ :|:& };:' notes.md",
    "f(){ echo hi; }; f & f",
    "worker(){ sleep 1; }; worker & worker & wait",
    "{ echo a; echo b; } | sort",
    "( echo 'rm -rf /' ) > notes.txt",
    "if true; then echo 'rm -rf /'; fi | grep rm",
    "cd /tmp && rm -rf build",
    "cd project && rm -rf bin",
    "cd \"$dir\" && rm -rf bin",
    "rm -rf bin",
    "cd / && ls",
    "cd /var/tmp && rm -rf cache",
    "awk -F: '{print $1}' /etc/passwd",
    "awk '{ print \"rm -rf /\" }' list.txt",
    "awk 'BEGIN{ cmd = \"ls\"; while ((cmd | getline line) > 0) print line }'",
    "awk '{ print $0 | \"sort\" }' data",
    "awk 'BEGIN { print \"echo hi\" | \"sh\" }'",
    "awk '{print > \"out.txt\"}' data",
    "awk -f prog.awk data",
    "lua -e 'print(\"rm -rf /\")'",
    "B=build; rm -rf $B",
    "rm -rf $UNSET_DIR",
    "X=/; ls $X",
    "python3 -c 'import subprocess; subprocess.run([\"git\", \"commit\", \"-m\", \"x; rm -rf /\"])'",
    "python3 -c 'import subprocess; subprocess.run([\"ls\", \"-la\"], check=True)'",
    "python3 -c 'print(\"subprocess.run([\\\"rm\\\", \\\"-rf\\\", \\\"/\\\"])\")'",
    "python3 -c 'import shutil; shutil.rmtree(\"build\")'",
    "shred secrets.txt",
    "truncate -s 0 app.log",
    "cat /proc/sys/kernel/hostname",
    "ls /sys/class/net",
    "cat /proc/sysrq-trigger",
    "echo 3 > ./sys/drop_caches",
];

#[test]
fn each_evasion_is_denied_naming_what_runs() {
    assert_guard_denies(DENIED);
}

#[test]
fn ordinary_commands_of_the_same_shapes_are_allowed() {
    assert_guard_allows(ALLOWED);
}

/// A `cd` is followed within its own script only: a nested script starts
/// afresh, so a later check of the same text is not changed by an earlier
/// `cd` (the guard's cache of harmless texts stays sound).
#[test]
fn a_cd_does_not_leak_between_checks_or_into_a_cached_nested_script() {
    let g = guard();
    assert!(g.check("cd /").is_none());
    assert_eq!(g.check("rm -rf bin"), None, "a new check starts with no cd");
    let twice = "sh -c 'rm -rf bin'; cd /; sh -c 'rm -rf bin'";
    assert_eq!(g.check(twice), None);
}

/// Past `MAX_WORDS` words in one command the rest is not kept: the guard
/// denies, saying so, whether the words are written out or made by
/// `$IFS`; just under the limit an ordinary command is still judged.
#[test]
fn a_command_of_more_words_than_any_program_takes_is_denied_saying_so() {
    let g = guard();
    let spaced = format!("echo {}", "a ".repeat(MAX_WORDS + 1));
    let why = g.check(&spaced).expect("denied");
    assert!(
        why.contains(&format!("more than {MAX_WORDS} words")),
        "{why}"
    );
    let split = format!("echo {}", "a${IFS}".repeat(MAX_WORDS + 1));
    assert!(g.check(&split).is_some_and(|w| w.contains("words")));
    let under = format!("echo {}", "a ".repeat(MAX_WORDS - 10));
    assert_eq!(g.check(&under), None);
    let hidden = format!("echo {}; rm -rf /", "a ".repeat(MAX_WORDS - 10));
    assert!(g.check(&hidden).is_some_and(|w| w.contains("deletes `/`")));
}
