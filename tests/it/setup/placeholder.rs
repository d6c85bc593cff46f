//! `${HOOKRUN_CONFIG_DIR}`: a script named through it is found next to the
//! config, whatever the working directory and project.

use std::path::Path;

use super::Setup;
use crate::support::BIN;

const GUARD: &str =
    "#!/bin/sh\ncat >/dev/null\necho \"blocked by the script next to the config\" >&2\nexit 2\n";

/// A config in `dir` whose PreToolUse hook is `command`, with a guard
/// script under `dir/scripts/`.
fn config_with_script(dir: &Path, hook: &str) -> std::path::PathBuf {
    std::fs::create_dir_all(dir.join("scripts")).expect("mkdir");
    let script = dir.join("scripts/guard.sh");
    std::fs::write(&script, GUARD).expect("write script");
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let config = dir.join("hookrun.toml");
    std::fs::write(
        &config,
        format!(
            "[[hooks]]\nname = \"guard\"\nevent = \"PreToolUse\"\nfail_mode = \"closed\"\n{hook}\n"
        ),
    )
    .expect("write config");
    config
}

fn run_event(s: &Setup, config: &Path) -> crate::support::Out {
    let mut cmd = s.command(BIN);
    cmd.args(["run", "--config"]).arg(config);
    s.pipe(cmd, &s.bash_event("ls"))
}

/// The guard script ran, wherever the config is.
fn assert_script_blocked(s: &Setup, config: &Path) {
    let out = run_event(s, config);
    assert_eq!(out.code, 2, "{out:?}");
    let why = "blocked by the script next to the config";
    assert!(out.stderr.contains(why), "{out:?}");
}

#[test]
fn a_shell_command_finds_its_script_next_to_the_config() {
    let s = Setup::new();
    // A directory with a space and a quote: the path is quoted for the shell.
    let dir = s.home().join("my policies's dir");
    let config = config_with_script(&dir, "command = \"${HOOKRUN_CONFIG_DIR}/scripts/guard.sh\"");
    assert_script_blocked(&s, &config);
    // `check` sees the expanded path and finds the script.
    let check = s.ok(&["check", "--strict", &config.display().to_string()]);
    assert!(check.stdout.contains("0 errors, 0 warnings"), "{check:?}");
}

#[test]
fn exec_form_gets_the_directory_in_program_and_args() {
    let s = Setup::new();
    let dir = s.home().join("conf dir");
    let config = config_with_script(
        &dir,
        "command = \"/bin/sh\"\nargs = [\"${HOOKRUN_CONFIG_DIR}/scripts/guard.sh\"]",
    );
    assert_script_blocked(&s, &config);
}

#[test]
fn a_missing_script_under_the_placeholder_is_reported_by_check() {
    let s = Setup::new();
    let dir = s.home().join("conf");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let config = dir.join("hookrun.toml");
    std::fs::write(
        &config,
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"${HOOKRUN_CONFIG_DIR}/scripts/nope.sh\"\n",
    )
    .expect("write");
    let out = s.run(&["check", "--strict", &config.display().to_string()]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stdout.contains("conf/scripts/nope.sh"), "{out:?}");
}
