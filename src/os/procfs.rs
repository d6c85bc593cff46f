//! What only Linux's `/proc` can tell the Unix side of the seam: which
//! processes hold a given pipe. Elsewhere (no `/proc`, or one without
//! `fd` links) no holder is ever found, and only process groups are
//! stopped (docs/processes.md).

/// The processes other than this one that hold a descriptor on one of the
/// pipes with these inodes (either end). Only processes whose `fd` directory
/// this process may read are seen: those of the same user that are not
/// setuid, which are also the only ones it could signal.
///
/// Reads every process's descriptors, so it is only called where the pipes
/// are known to be held past the hook's end (a leak, a timeout, hookrun's
/// interruption); a pipe that is closed everywhere costs one pass that
/// finds nothing.
pub(super) fn pipe_holders(inodes: &[u64]) -> Vec<i32> {
    if inodes.is_empty() || !cfg!(any(target_os = "linux", target_os = "android")) {
        return Vec::new();
    }
    let targets: Vec<String> = inodes.iter().map(|i| format!("pipe:[{i}]")).collect();
    let me = std::process::id();
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    procs
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != me && holds(pid, &targets))
        .filter_map(|pid| i32::try_from(pid).ok())
        .collect()
}

/// Whether process `pid` has a descriptor whose link names one of `targets`.
fn holds(pid: u32, targets: &[String]) -> bool {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    fds.flatten().any(|fd| {
        std::fs::read_link(fd.path()).is_ok_and(|link| {
            link.to_str()
                .is_some_and(|l| targets.iter().any(|t| t == l))
        })
    })
}
