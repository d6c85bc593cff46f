//! Commands that run other commands: assignments, privilege and scheduling
//! wrappers, `xargs`/`parallel` (which feed their input in as arguments)
//! and multiplexers (`busybox rm`), stripped to the command that runs.

/// The program name: basename, lowercased (`/bin/RM` is `rm`).
pub(super) fn program(word: &str) -> String {
    word.rsplit('/').next().unwrap_or(word).to_ascii_lowercase()
}

/// Strips leading assignments and wrappers (`sudo -u x`, `env A=1 -i`,
/// `command`, `nohup`, `time`, `nice -n 5`, `exec`, `xargs`, `busybox`, …)
/// to the command that really runs.
pub(super) fn unwrap(words: &[String]) -> Vec<String> {
    unwrap_fed(words).0
}

/// As `unwrap`, and whether a wrapper on the way feeds the command
/// arguments read from its input (`xargs`, GNU `parallel`): those
/// arguments cannot be checked.
pub(super) fn unwrap_fed(words: &[String]) -> (Vec<String>, bool) {
    let mut fed = false;
    let mut w: &[String] = words;
    loop {
        while w.first().is_some_and(|x| is_assignment(x)) {
            w = &w[1..];
        }
        let Some(first) = w.first() else {
            return (Vec::new(), fed);
        };
        let prog = program(first);
        let with_value: &[&str] = match prog.as_str() {
            "sudo" | "doas" => &["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T"],
            "env" => &["-u", "-C", "-S", "--unset", "--chdir"],
            "nice" => &["-n"],
            "ionice" => &["-c", "-n", "-p"],
            "timeout" => &["-s", "-k", "--signal", "--kill-after"],
            "xargs" => &[
                "-I",
                "-n",
                "-P",
                "-d",
                "-L",
                "-s",
                "-E",
                "-a",
                "--arg-file",
                "--delimiter",
                "--max-args",
                "--max-procs",
            ],
            "parallel" => &["-j", "--jobs", "-S", "--sshlogin", "--arg-file", "-a"],
            // Multiplexers: the next word is the applet that runs.
            "busybox" | "toybox" if w.get(1).is_some_and(|a| !a.starts_with('-')) => &[],
            "command" | "builtin" | "nohup" | "time" | "exec" | "stdbuf" | "setsid"
            | "unbuffer" | "chroot" => &[],
            _ => return (w.to_vec(), fed),
        };
        fed |= matches!(prog.as_str(), "xargs" | "parallel");
        if prog == "command" && w.get(1).is_some_and(|a| a == "-v" || a == "-V") {
            return (Vec::new(), fed); // a lookup, not a run
        }
        w = &w[1..];
        while let Some(a) = w.first() {
            if a == "--" {
                w = &w[1..];
                break;
            }
            if !(a.starts_with('-') || (prog == "env" && is_assignment(a))) {
                break;
            }
            let takes_value = with_value.contains(&a.as_str());
            w = &w[1..];
            if takes_value && !w.is_empty() {
                w = &w[1..];
            }
        }
        if prog == "timeout" && !w.is_empty() {
            w = &w[1..]; // the duration
        }
        if prog == "chroot" && !w.is_empty() {
            w = &w[1..]; // the new root
        }
    }
}

pub(super) fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}
