//! hookrun's Claude Code plugin (`plugins/hookrun`): its hook script run as
//! Claude Code runs it, its manifests, and `check`'s warning when it and
//! `hookrun install` both register hookrun.

use std::path::{Path, PathBuf};

use super::{Setup, json};

fn plugin_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("plugins/hookrun")
}

/// Runs the plugin's hook for `event` as its hooks.json says (`sh SCRIPT
/// EVENT`), with a Bash `command` event on stdin.
fn guard(s: &Setup, event: &str, bash: &str) -> crate::support::Out {
    let mut cmd = s.command("sh");
    cmd.arg(plugin_dir().join("scripts/hookrun-guard"))
        .arg(event);
    let mut input: serde_json::Value = serde_json::from_slice(&s.bash_event(bash)).expect("event");
    input["hook_event_name"] = event.into();
    if event == "PostToolUse" {
        input["tool_response"] = serde_json::json!({"stdout": "", "stderr": ""});
    }
    s.pipe(cmd, input.to_string().as_bytes())
}

#[test]
fn the_plugin_hook_denies_rm_rf_root_and_allows_ls_with_the_bundled_guards() {
    let s = Setup::new().on_path();
    let denied = guard(&s, "PreToolUse", "rm -rf /");
    assert_eq!(denied.code, 2, "{denied:?}");
    assert_eq!(denied.hso()["permissionDecision"], "deny", "{denied:?}");
    assert!(denied.stderr.contains("dangerous command"), "{denied:?}");
    let allowed = guard(&s, "PreToolUse", "ls");
    assert_eq!(allowed.code, 0, "{allowed:?}");
    assert_ne!(allowed.hso()["permissionDecision"], "deny", "{allowed:?}");
}

#[test]
fn the_plugin_hook_uses_the_users_own_config_when_there_is_one() {
    let s = Setup::new().on_path();
    let dir = s.user_config_dir();
    std::fs::create_dir_all(&dir).expect("config dir");
    let config =
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"echo from the user config >&2; exit 2\"\n";
    std::fs::write(dir.join("hookrun.toml"), config).expect("user config");
    let out = guard(&s, "PreToolUse", "ls");
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("from the user config"), "{out:?}");
}

#[test]
fn without_hookrun_on_path_the_plugin_blocks_with_install_advice_where_it_can() {
    let s = Setup::new();
    let pre = guard(&s, "PreToolUse", "ls");
    assert_eq!(pre.code, 2, "{pre:?}");
    assert!(pre.stderr.contains("npm i -g hookrun"), "{pre:?}");
    assert!(pre.stderr.contains("pipx install hookrun"), "{pre:?}");
    // Exit 2 decides nothing on PermissionRequest: the deny is JSON.
    let permission = guard(&s, "PermissionRequest", "ls");
    assert_eq!(permission.code, 0, "{permission:?}");
    let decision = &permission.hso()["decision"];
    assert_eq!(decision["behavior"], "deny", "{permission:?}");
    assert!(
        decision["message"]
            .as_str()
            .is_some_and(|m| m.contains("npm i -g hookrun")),
        "{permission:?}"
    );
    // An event that cannot block goes ahead.
    let post = guard(&s, "PostToolUse", "ls");
    assert_eq!(post.code, 0, "{post:?}");
    assert_eq!(post.stdout, "", "{post:?}");
}

#[test]
fn the_plugin_files_agree_and_check_strict() {
    let s = Setup::new();
    let hooks = plugin_dir().join("hooks/hooks.json");
    let config = plugin_dir().join("hookrun.toml");
    let out = s.ok(&[
        "check",
        "--strict",
        hooks.to_str().expect("utf-8"),
        config.to_str().expect("utf-8"),
    ]);
    assert!(out.stdout.contains("0 errors, 0 warnings"), "{out:?}");

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let marketplace = json(&root.join(".claude-plugin/marketplace.json"));
    let manifest = json(&plugin_dir().join(".claude-plugin/plugin.json"));
    let entry = &marketplace["plugins"][0];
    assert_eq!(entry["name"], manifest["name"]);
    assert_eq!(entry["source"], "./plugins/hookrun");
    assert_eq!(entry["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(manifest["version"], env!("CARGO_PKG_VERSION"));

    // The bundled config holds the starter's hooks, comments aside.
    let hooks_of = |text: &str| -> Vec<String> {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_owned)
            .collect()
    };
    let starter =
        std::fs::read_to_string(root.join("src/commands/init/hookrun.toml")).expect("starter");
    let bundled = std::fs::read_to_string(&config).expect("bundled");
    assert_eq!(hooks_of(&bundled), hooks_of(&starter));
}

/// Project settings as `hookrun install --agent claude --scope project`
/// writes them, then `enabledPlugins` set as `/plugin install` would.
fn installed_and_plugin(enabled: serde_json::Value) -> Setup {
    let s = Setup::new().on_path();
    s.ok(&["init"]);
    s.ok(&["install", "--agent", "claude", "--scope", "project"]);
    let path = s.project().join(".claude/settings.json");
    let mut settings = json(&path);
    settings["enabledPlugins"] = serde_json::json!({ "hookrun@hookrun": enabled });
    std::fs::write(&path, settings.to_string()).expect("settings");
    s
}

#[test]
fn check_warns_when_install_and_the_plugin_both_register_hookrun() {
    let s = installed_and_plugin(true.into());
    let out = s.ok(&["check", ".claude/settings.json"]);
    assert!(out.stdout.contains("warning[W016]"), "{out:?}");
    assert!(out.stdout.contains("runs twice"), "{out:?}");
    assert_eq!(
        out.stdout.matches("W016").count(),
        1,
        "one per file: {out:?}"
    );
    let strict = s.run(&["check", "--strict", ".claude/settings.json"]);
    assert_eq!(strict.code, 1, "{strict:?}");

    // The plugin enabled in the user's settings, hookrun registered in the
    // project's: found by discovery, as Claude Code layers them.
    let user = s.home().join(".claude");
    std::fs::create_dir_all(&user).expect("user dir");
    std::fs::write(
        user.join("settings.json"),
        r#"{"enabledPlugins": {"hookrun@some-marketplace": true}}"#,
    )
    .expect("user settings");
    let path = s.project().join(".claude/settings.json");
    let mut settings = json(&path);
    settings
        .as_object_mut()
        .expect("object")
        .remove("enabledPlugins");
    std::fs::write(&path, settings.to_string()).expect("settings");
    let layered = s.ok(&["check"]);
    assert!(layered.stdout.contains("warning[W016]"), "{layered:?}");
    assert!(
        layered.stdout.contains("hookrun@some-marketplace"),
        "{layered:?}"
    );
}

#[test]
fn check_is_quiet_when_the_plugin_is_off_or_alone() {
    let s = installed_and_plugin(false.into());
    let off = s.ok(&["check", "--strict", ".claude/settings.json"]);
    assert!(!off.stdout.contains("W016"), "{off:?}");

    let alone = Setup::new();
    let path = alone.project().join("settings.json");
    std::fs::write(
        &path,
        r#"{"enabledPlugins": {"hookrun@hookrun": true}, "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#,
    )
    .expect("settings");
    let out = alone.ok(&["check", "--strict", "settings.json"]);
    assert!(!out.stdout.contains("W016"), "{out:?}");
}
