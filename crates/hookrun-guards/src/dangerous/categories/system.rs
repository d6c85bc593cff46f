//! `kill-all`, `shutdown`, `crontab` and `account-tools`: commands that stop
//! a machine or every process on it, drop a user's scheduled jobs, or lock
//! people out. Their harmless uses (`kill 1234`, `systemctl status`,
//! `crontab -l`, `passwd` alone, `shutdown -c`) stay allowed.

use crate::command::argv::{self, GNU, Spec, Takes};
use crate::dangerous::categories::command::Command;

/// Whether `--help` is asked for (the tool prints help and exits). Not
/// `-h`: to `shutdown` it means halt.
fn help(args: &[String]) -> bool {
    args.iter().any(|a| a == "--help")
}

pub(crate) fn kill_all(cmd: &Command<'_>) -> Option<String> {
    match cmd.prog {
        "killall5" => Some("`killall5` signals every process".into()),
        "kill" => kill(cmd.args),
        "pkill" => pkill(cmd.args),
        "killall" => killall(cmd.args),
        _ => None,
    }
}

/// A signal written as an option (`-9`, `-KILL`, `-SIGHUP`), as opposed
/// to a flag (`-u`) or a negative process id after the signal.
fn is_signal(word: &str) -> bool {
    word.strip_prefix('-').is_some_and(|s| {
        !s.is_empty()
            && (s.chars().all(|c| c.is_ascii_digit())
                || (s.len() >= 2
                    && s.chars().all(|c| {
                        c.is_ascii_uppercase() || c.is_ascii_digit() || c == '+' || c == '-'
                    })))
    })
}

fn kill(args: &[String]) -> Option<String> {
    let mut signal: Option<&str> = None;
    let mut targets = Vec::new();
    let mut words = args.iter();
    let mut options_done = false;
    while let Some(a) = words.next() {
        if options_done || !a.starts_with('-') {
            targets.push(a.as_str());
        } else if a == "--" {
            options_done = true;
        } else if matches!(a.as_str(), "-l" | "-L" | "--list" | "--table") {
            return None;
        } else if matches!(a.as_str(), "-s" | "-n" | "--signal") {
            signal = words.next().map(String::as_str);
        } else if signal.is_none() && is_signal(a) {
            signal = a.get(1..);
        } else {
            targets.push(a.as_str()); // `kill -9 -1`: a process id
        }
    }
    if matches!(signal, Some("0" | "SIG0")) {
        return None;
    }
    let target = targets.iter().find(|t| matches!(**t, "-1" | "1"))?;
    Some(if *target == "-1" {
        "`kill … -1` signals every process".to_owned()
    } else {
        "`kill … 1` signals init, which brings the system down".to_owned()
    })
}

/// A `pkill`/`killall` pattern that matches every process name.
fn matches_all(pattern: &str) -> bool {
    !pattern.chars().any(char::is_alphanumeric)
}

const PKILL: Spec = Spec {
    short_value: "uUGgPstF",
    long: &[
        ("euid", Takes::Value),
        ("uid", Takes::Value),
        ("group", Takes::Value),
        ("signal", Takes::Value),
    ],
    ..GNU
};

fn pkill(args: &[String]) -> Option<String> {
    let args: Vec<String> = args.iter().filter(|a| !is_signal(a)).cloned().collect();
    let p = argv::parse(&PKILL, &args);
    let by_user = p.has('u', "")
        || p.has('U', "")
        || p.has('G', "")
        || p.long("euid")
        || p.long("uid")
        || p.long("group");
    match p.operands.first() {
        Some(pattern) if matches_all(pattern) => {
            Some(format!("`pkill {pattern}` matches every process"))
        }
        None if by_user => {
            Some("`pkill -u` without a pattern kills every process of the user".into())
        }
        _ => None,
    }
}

const KILLALL: Spec = Spec {
    short_value: "usoynZ",
    long: &[
        ("user", Takes::Value),
        ("regexp", Takes::Nothing),
        ("signal", Takes::Value),
        ("older-than", Takes::Value),
        ("younger-than", Takes::Value),
        ("ns", Takes::Value),
        ("context", Takes::Value),
    ],
    ..GNU
};

fn killall(args: &[String]) -> Option<String> {
    let args: Vec<String> = args.iter().filter(|a| !is_signal(a)).cloned().collect();
    let p = argv::parse(&KILLALL, &args);
    if p.operands.is_empty() && p.has('u', "user") {
        return Some("`killall -u` without a name kills every process of the user".into());
    }
    let regex = p.has('r', "regexp");
    p.operands
        .iter()
        .find(|o| regex && matches_all(o))
        .map(|o| format!("`killall -r {o}` matches every process"))
}

pub(crate) fn shutdown(cmd: &Command<'_>) -> Option<String> {
    let args = cmd.args;
    if help(args) {
        return None;
    }
    let prog = cmd.prog;
    match prog {
        "shutdown" if !args.iter().any(|a| a == "-c" || a == "-k") => {
            Some("`shutdown` stops the machine".into())
        }
        "reboot" | "halt" | "poweroff" if !args.iter().any(|a| a == "-w" || a == "--wtmp-only") => {
            Some(format!("`{prog}` stops the machine"))
        }
        "init" | "telinit" => args
            .iter()
            .find(|a| matches!(a.as_str(), "0" | "1" | "6" | "s" | "S" | "single"))
            .map(|level| {
                format!("`{prog} {level}` stops the machine or drops to single-user mode")
            }),
        "systemctl" | "loginctl" => manager(prog, args),
        _ => None,
    }
}

/// Verbs of `systemctl`/`loginctl` that stop or suspend the machine.
const STOPPING: &[&str] = &[
    "poweroff",
    "reboot",
    "halt",
    "kexec",
    "soft-reboot",
    "rescue",
    "emergency",
    "suspend",
    "hibernate",
    "hybrid-sleep",
    "suspend-then-hibernate",
];
/// Targets whose start stops the machine.
const STOP_TARGETS: &[&str] = &[
    "poweroff",
    "reboot",
    "halt",
    "kexec",
    "rescue",
    "emergency",
    "shutdown",
    "runlevel0",
    "runlevel1",
    "runlevel6",
];

const SYSTEMCTL: Spec = Spec {
    short_value: "HMtpPsnoT",
    long: &[
        ("host", Takes::Value),
        ("machine", Takes::Value),
        ("type", Takes::Value),
        ("property", Takes::Value),
        ("signal", Takes::Value),
        ("lines", Takes::Value),
        ("output", Takes::Value),
        ("root", Takes::Value),
        ("state", Takes::Value),
        ("job-mode", Takes::Value),
        ("kill-whom", Takes::Value),
        ("message", Takes::Value),
        ("when", Takes::Value),
    ],
    ..GNU
};

fn manager(prog: &str, args: &[String]) -> Option<String> {
    let p = argv::parse(&SYSTEMCTL, args);
    let (verb, units) = p.operands.split_first()?;
    if STOPPING.contains(&verb.as_str()) {
        return Some(format!("`{prog} {verb}` stops the machine"));
    }
    let stop_target = |u: &&String| STOP_TARGETS.contains(&u.strip_suffix(".target").unwrap_or(u));
    let starts = matches!(verb.as_str(), "isolate" | "start" | "restart");
    units
        .iter()
        .find(|u| starts && stop_target(u))
        .map(|u| format!("`{prog} {verb} {u}` stops the machine"))
}

pub(crate) fn crontab(cmd: &Command<'_>) -> Option<String> {
    if cmd.prog != "crontab" {
        return None;
    }
    let spec = Spec {
        short_value: "unT",
        long: &[],
        ..GNU
    };
    argv::parse(&spec, cmd.args)
        .has('r', "")
        .then(|| "`crontab -r` removes the whole crontab".into())
}

const PASSWD: Spec = Spec {
    short_value: "nrRPwxi",
    long: &[
        ("delete", Takes::Nothing),
        ("lock", Takes::Nothing),
        ("root", Takes::Value),
        ("prefix", Takes::Value),
        ("repository", Takes::Value),
    ],
    ..GNU
};

const USERMOD: Spec = Spec {
    short_value: "cdefgGlpPRsuvVwWZ",
    long: &[
        ("password", Takes::Value),
        ("lock", Takes::Nothing),
        ("root", Takes::Value),
        ("prefix", Takes::Value),
        ("shell", Takes::Value),
        ("home", Takes::Value),
        ("comment", Takes::Value),
    ],
    ..GNU
};

pub(crate) fn accounts(cmd: &Command<'_>) -> Option<String> {
    let (prog, args) = (cmd.prog, cmd.args);
    if help(args) {
        return None;
    }
    match prog {
        "passwd" => {
            let p = argv::parse(&PASSWD, args);
            (p.has('d', "delete") || p.has('l', "lock"))
                .then(|| "`passwd -d/-l` removes or locks a password".into())
        }
        "usermod" => {
            let p = argv::parse(&USERMOD, args);
            (p.has('p', "password") || p.has('L', "lock"))
                .then(|| "`usermod -p/-L` replaces or locks a password".into())
        }
        "userdel" | "deluser" | "groupdel" | "delgroup" => {
            Some(format!("`{prog}` deletes an account"))
        }
        "chpasswd" | "chgpasswd" => Some(format!("`{prog}` replaces passwords")),
        _ => None,
    }
}
