//! `hookrun config show`: every file in discovery order and every hook with
//! the file it came from.

use super::Setup;

#[test]
fn config_show_lists_layers_and_where_each_hook_came_from() {
    let s = Setup::new();
    let user = s.user_config_dir();
    std::fs::create_dir_all(&user).expect("mkdir");
    std::fs::write(
        user.join("hookrun.toml"),
        "[[hooks]]\nname = \"mine\"\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\n",
    )
    .expect("write");
    std::fs::write(
        s.project().join("hookrun.toml"),
        "\n[[hooks]]\nname = \"theirs\"\nevent = \"Stop\"\ncommand = \"true\"\n",
    )
    .expect("write");
    for args in [&["config"][..], &["config", "show"][..]] {
        let out = s.ok(args);
        let user_file = user.join("hookrun.toml").display().to_string();
        let lines: Vec<&str> = out.stdout.lines().collect();
        let user_at = lines
            .iter()
            .position(|l| {
                l.starts_with("1. ") && l.contains(&user_file) && l.contains("user config")
            })
            .unwrap_or_else(|| panic!("{out:?}"));
        let project_at = lines
            .iter()
            .position(|l| {
                l.starts_with("2. ") && l.contains("hookrun.toml (project config) [untrusted")
            })
            .unwrap_or_else(|| panic!("{out:?}"));
        assert!(user_at < project_at);
        assert!(
            out.stdout.contains(&format!(
                "PreToolUse  mine  builtin dangerous-commands\n    from {user_file}:1"
            )),
            "{out:?}"
        );
        assert!(
            out.stdout.contains("Stop  theirs  command true\n    from "),
            "{out:?}"
        );
        assert!(out.stdout.contains("hookrun.toml:2 `hooks[0]`"), "{out:?}");
    }
}

#[test]
fn config_show_with_named_files() {
    let s = Setup::new();
    s.ok(&["init"]);
    let out = s.ok(&["config", "show", "-c", "hookrun.toml"]);
    assert!(out.stdout.contains("1. hookrun.toml (--config)"), "{out:?}");
    assert!(
        out.stdout
            .contains("PostToolUse  redact-secrets  builtin redact-secrets"),
        "{out:?}"
    );
}
