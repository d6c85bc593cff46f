//! How `install` names hookrun, with real PATH layouts in a temporary
//! directory: `hookrun` when the first `hookrun` on PATH is this binary
//! (also through a symlink or a hard link, or through npm's launcher that
//! started it), without a word on stderr in the five-agent loop; otherwise
//! the absolute path, with one warning per install that says why (at
//! project scope, refused: a shared file must not hold it).

use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::Setup;
use crate::support::{BIN, Out, finish};

/// Each agent's project file, where `install` writes.
const AGENTS: [(&str, &str); 5] = [
    ("claude", ".claude/settings.json"),
    ("codex", ".codex/hooks.json"),
    ("gemini", ".gemini/settings.json"),
    ("cursor", ".cursor/hooks.json"),
    ("copilot", ".github/hooks/hookrun.json"),
];

/// A directory of the test's own, outside the project and HOME.
fn layout() -> tempfile::TempDir {
    tempfile::tempdir().expect("layout dir")
}

/// `dir/hookrun` as a symlink to the built binary.
fn link_bin(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).expect("mkdir");
    let link = dir.join("hookrun");
    symlink(BIN, &link).expect("symlink");
    link
}

fn write_script(path: &Path, text: &str, mode: u32) {
    std::fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
    std::fs::write(path, text).expect("write script");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// A stand-in for npm's Node launcher with the same contract: it runs the
/// binary as its child, with `HOOKRUN_LAUNCHER=<its pid>:<its file>`.
fn fake_launcher(path: &Path) {
    let text = format!(
        "#!/bin/sh\nHOOKRUN_LAUNCHER=\"$$:{}\" '{BIN}' \"$@\"\n",
        path.display()
    );
    write_script(path, &text, 0o755);
}

/// PATH with these directories first, then the system's.
fn path_with(dirs: &[&Path]) -> String {
    let mut parts: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    parts.push("/usr/local/bin:/usr/bin:/bin".into());
    parts.join(":")
}

/// Runs `program ARGS` as the user would, with this PATH.
fn run_with_path(s: &Setup, program: &str, path: &str, args: &[&str]) -> Out {
    let mut cmd = s.command(program);
    cmd.env("PATH", path)
        .env_remove("HOOKRUN_LAUNCHER")
        .args(args);
    finish(cmd.spawn().expect("spawn"), Instant::now())
}

/// `hookrun init` in the project.
fn init(s: &Setup, path: &str) {
    let out = run_with_path(s, BIN, path, &["init"]);
    assert_eq!(out.code, 0, "{out:?}");
}

/// The command written for `agent`: the string in its project file that
/// runs `run --dialect AGENT`.
fn written(s: &Setup, agent: &str, file: &str) -> String {
    let text = std::fs::read_to_string(s.project().join(file))
        .unwrap_or_else(|e| panic!("{agent}: {file}: {e}"));
    let needle = format!(" run --dialect {agent}");
    text.split('"')
        .find(|part| part.contains(&needle))
        .unwrap_or_else(|| panic!("{agent}: no registration in {text}"))
        .to_owned()
}

/// The registered Claude Code command, run as Claude Code runs it (`sh -c`
/// in the project, this PATH), on `rm -rf /`.
fn claude_blocks_rm_rf(s: &Setup, path: &str) {
    claude_file_blocks_rm_rf(s, path, ".claude/settings.json");
}

/// [`claude_blocks_rm_rf`] for the registration in `file`.
fn claude_file_blocks_rm_rf(s: &Setup, path: &str, file: &str) {
    let command = written(s, "claude", file);
    let mut cmd = s.command("sh");
    cmd.env("PATH", path).arg("-c").arg(&command);
    let out = s.pipe(cmd, &s.bash_event("rm -rf /"));
    assert_eq!(out.code, 2, "{command}: {out:?}");
    assert_eq!(out.hso()["permissionDecision"], "deny", "{out:?}");
}

#[test]
fn a_symlink_on_path_to_this_binary_is_hookrun_for_all_five_agents_without_a_word() {
    let s = Setup::new();
    let dir = layout();
    let bin = link_bin(&dir.path().join("bin"));
    let path = path_with(&[&dir.path().join("bin")]);
    init(&s, &path);
    for (agent, file) in AGENTS {
        let out = run_with_path(
            &s,
            &bin.display().to_string(),
            &path,
            &["install", "--agent", agent, "--scope", "project"],
        );
        assert_eq!(out.code, 0, "{agent}: {out:?}");
        assert!(!out.stderr.contains("warning"), "{agent}: {out:?}");
        assert!(!out.stderr.contains("note"), "{agent}: {out:?}");
        let command = written(&s, agent, file);
        assert!(
            command.starts_with("hookrun run --dialect "),
            "{agent}: {command}"
        );
    }
    claude_blocks_rm_rf(&s, &path);
}

#[test]
fn without_hookrun_on_path_a_project_install_is_refused_saying_why_and_a_local_one_warns_once() {
    let s = Setup::new();
    let path = path_with(&[]);
    init(&s, &path);
    let exe = std::fs::canonicalize(BIN).expect("bin");
    for (agent, file) in AGENTS {
        let out = run_with_path(
            &s,
            BIN,
            &path,
            &["install", "--agent", agent, "--scope", "project"],
        );
        // A path of this machine's in the project's shared file: refused,
        // the reason in the error, not in a separate warning.
        assert_eq!(out.code, 1, "{agent}: {out:?}");
        assert!(!out.stderr.contains("warning"), "{agent}: {out:?}");
        assert!(out.stderr.contains("`hookrun` is not on PATH"), "{out:?}");
        assert!(!s.project().join(file).exists(), "{agent}: {out:?}");
    }
    let local = ".claude/settings.local.json";
    let out = run_with_path(
        &s,
        BIN,
        &path,
        &["install", "--agent", "claude", "--scope", "local"],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stderr.matches("warning").count(), 1, "{out:?}");
    assert!(out.stderr.contains("`hookrun` is not on PATH"), "{out:?}");
    let command = written(&s, "claude", local);
    assert!(
        command.starts_with(&format!("{} run --dialect ", exe.display())),
        "{command}"
    );
    claude_file_blocks_rm_rf(&s, &path, local);
}

#[test]
fn another_hookrun_first_on_path_is_named_and_a_non_executable_one_is_skipped() {
    let s = Setup::new();
    let dir = layout();
    let other = dir.path().join("other/hookrun");
    write_script(&other, "#!/bin/sh\nexit 0\n", 0o755);
    let path = path_with(&[&dir.path().join("other")]);
    init(&s, &path);
    let local = ["install", "--agent", "claude", "--scope", "local"];
    let out = run_with_path(&s, BIN, &path, &local);
    assert_eq!(out.code, 0, "{out:?}");
    let other = std::fs::canonicalize(&other).expect("other");
    assert!(
        out.stderr
            .contains(&format!("another program ({})", other.display())),
        "{out:?}"
    );
    let exe = std::fs::canonicalize(BIN).expect("bin");
    assert!(
        written(&s, "claude", ".claude/settings.local.json")
            .starts_with(&exe.display().to_string())
    );

    // A `hookrun` without the execute bit is passed over, as `sh` does.
    let unusable = dir.path().join("unusable/hookrun");
    write_script(&unusable, "#!/bin/sh\nexit 0\n", 0o644);
    let bin_dir = dir.path().join("bin");
    link_bin(&bin_dir);
    let path = path_with(&[&dir.path().join("unusable"), &bin_dir]);
    let install = ["install", "--agent", "claude", "--scope", "project"];
    let out = run_with_path(&s, BIN, &path, &install);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!out.stderr.contains("warning"), "{out:?}");
    assert_eq!(
        written(&s, "claude", ".claude/settings.json"),
        "hookrun run --dialect claude"
    );
    claude_blocks_rm_rf(&s, &path);
}

#[test]
fn node_modules_bin_on_path_is_not_what_the_agent_sees_so_the_path_is_absolute() {
    // `npx hookrun install` in a project with hookrun in its node_modules:
    // npx puts node_modules/.bin first on PATH for that command only.
    let s = Setup::new();
    let npm_bin = s.project().join("node_modules/.bin");
    let bin = link_bin(&npm_bin);
    let path = path_with(&[&npm_bin]);
    init(&s, &path);
    let out = run_with_path(
        &s,
        &bin.display().to_string(),
        &path,
        &["install", "--agent", "claude", "--scope", "local"],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stderr.matches("warning").count(), 1, "{out:?}");
    assert!(out.stderr.contains("node_modules/.bin"), "{out:?}");
    let exe = std::fs::canonicalize(BIN).expect("bin");
    let local = ".claude/settings.local.json";
    assert_eq!(
        written(&s, "claude", local),
        format!("{} run --dialect claude", exe.display())
    );
    // The agent's PATH has no node_modules/.bin: the command still runs.
    claude_file_blocks_rm_rf(&s, &path_with(&[]), local);
}

#[test]
fn npm_launcher_first_on_path_that_started_this_binary_is_hookrun_with_a_note() {
    let s = Setup::new();
    let dir = layout();
    let launcher = dir.path().join("lib/node_modules/hookrun/bin/hookrun");
    fake_launcher(&launcher);
    let bin_dir = dir.path().join("bin");
    std::fs::create_dir_all(&bin_dir).expect("mkdir");
    symlink(&launcher, bin_dir.join("hookrun")).expect("symlink");
    let path = path_with(&[&bin_dir]);
    init(&s, &path);
    let out = run_with_path(
        &s,
        &bin_dir.join("hookrun").display().to_string(),
        &path,
        &["install", "--agent", "claude", "--scope", "project"],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!out.stderr.contains("warning"), "{out:?}");
    assert_eq!(out.stderr.matches("note: ").count(), 1, "{out:?}");
    assert!(out.stderr.contains("Node launcher"), "{out:?}");
    assert!(out.stderr.contains("65 ms"), "{out:?}");
    assert_eq!(
        written(&s, "claude", ".claude/settings.json"),
        "hookrun run --dialect claude"
    );
    // Claude Code's `sh -c` reaches the binary through the launcher.
    claude_blocks_rm_rf(&s, &path);
}

#[test]
fn a_launcher_note_inherited_from_further_up_is_ignored() {
    // What a hook started by a launched hookrun inherits: the variable names
    // the launcher first on PATH, but that launcher is not this process's
    // parent (here the parent is `sh`, the launcher's pid this test's own).
    let s = Setup::new();
    let dir = layout();
    let launcher = dir.path().join("launcher/hookrun");
    fake_launcher(&launcher);
    let path = path_with(&[&dir.path().join("launcher")]);
    init(&s, &path);
    let mut cmd = s.command("sh");
    cmd.env("PATH", &path)
        .env(
            "HOOKRUN_LAUNCHER",
            format!("{}:{}", std::process::id(), launcher.display()),
        )
        .arg("-c")
        .arg(format!(
            "'{BIN}' install --agent claude --scope local; exit $?"
        ));
    let out = finish(cmd.spawn().expect("spawn"), Instant::now());
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains("another program"), "{out:?}");
    let exe = std::fs::canonicalize(BIN).expect("bin");
    assert_eq!(
        written(&s, "claude", ".claude/settings.local.json"),
        format!("{} run --dialect claude", exe.display())
    );
}

#[test]
fn a_hard_link_on_path_to_this_binary_is_hookrun_whichever_name_ran() {
    // What npm's install script makes: bin/hookrun a hard link to the
    // platform package's binary, which is run here by its own path.
    let s = Setup::new();
    let dir = layout();
    let platform = dir.path().join("platform/bin/hookrun");
    std::fs::create_dir_all(platform.parent().expect("dir")).expect("mkdir");
    std::fs::copy(BIN, &platform).expect("copy the binary");
    let bin_dir = dir.path().join("bin");
    std::fs::create_dir_all(&bin_dir).expect("mkdir");
    std::fs::hard_link(&platform, bin_dir.join("hookrun")).expect("hard link");
    let path = path_with(&[&bin_dir]);
    init(&s, &path);
    let out = run_with_path(
        &s,
        &platform.display().to_string(),
        &path,
        &["install", "--agent", "claude", "--scope", "project"],
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!out.stderr.contains("warning"), "{out:?}");
    assert_eq!(
        written(&s, "claude", ".claude/settings.json"),
        "hookrun run --dialect claude"
    );
    claude_blocks_rm_rf(&s, &path);
}
