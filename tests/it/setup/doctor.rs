//! `hookrun doctor` over real setups: `init` and `install` for every
//! agent, then each way the wiring breaks, each named by its code. The
//! canaries run through the very commands `install` wrote, started the way
//! each agent starts them.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use serde_json::{Value, json};

use super::Setup;
use crate::support::{BIN, Out, finish};

/// The agents' launchers a test puts first on doctor's PATH: each prints
/// the version hookrun is tested with, in the agent's own words, unless a
/// test writes its own; so a real agent on the developer's PATH cannot
/// change a test's outcome. Cursor's launcher is left out (no version of
/// it is tested, and its installer puts it in `~/.local/bin`, under HOME).
const TESTED_AGENTS: &[(&str, &str)] = &[
    ("claude", "echo '2.1.332 (Claude Code)'"),
    ("codex", "echo 'codex-cli 0.171.0'"),
    ("gemini", "echo '0.61.0'"),
    (
        "copilot",
        "echo 'GitHub Copilot CLI 1.0.102.'; echo \"Run 'copilot update' to check for updates.\"",
    ),
];

/// The directory of fake agent launchers in this setup's HOME.
fn agents_dir(s: &Setup) -> std::path::PathBuf {
    s.home().join("agents-bin")
}

/// Writes an executable `agents-bin/NAME` running `body` under `/bin/sh`.
fn fake_agent(s: &Setup, name: &str, body: &str) {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = agents_dir(s);
    std::fs::create_dir_all(&dir).expect("agents dir");
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).expect("fake agent");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// `hookrun doctor ARGS` with `/bin/sh` as the user's shell (Codex's
/// login shell), whose profile puts the built hookrun on PATH as a user's
/// profile would (a login shell resets PATH from /etc/profile), and the
/// fake agent launchers first on PATH (`path`, or the setup's).
fn doctor_command(s: &Setup, args: &[&str], path: Option<&str>) -> Command {
    let bin_dir = Path::new(BIN).parent().expect("bin dir");
    std::fs::write(
        s.home().join(".profile"),
        format!("PATH={}:$PATH\n", bin_dir.display()),
    )
    .expect("profile");
    for (name, body) in TESTED_AGENTS {
        if !agents_dir(s).join(name).exists() {
            fake_agent(s, name, body);
        }
    }
    let mut cmd: Command = s.command(BIN);
    cmd.arg("doctor").args(args).env("SHELL", "/bin/sh").env(
        "PATH",
        format!(
            "{}:{}",
            agents_dir(s).display(),
            path.map_or_else(|| s.path_var(), str::to_owned)
        ),
    );
    cmd
}

/// `hookrun doctor ARGS --format json`, as [`doctor_command`] runs it.
pub(super) fn doctor(s: &Setup, args: &[&str], path: Option<&str>) -> (Out, Value) {
    doctor_with(s, args, path, &[])
}

/// [`doctor`] with these variables set.
pub(super) fn doctor_with(
    s: &Setup,
    args: &[&str],
    path: Option<&str>,
    env: &[(&str, &str)],
) -> (Out, Value) {
    let mut cmd = doctor_command(s, args, path);
    cmd.args(["--format", "json"]);
    cmd.envs(env.iter().copied());
    let out = finish(cmd.spawn().expect("spawn"), Instant::now());
    let v: Value =
        serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("doctor's JSON: {e}: {out:?}"));
    (out, v)
}

/// `hookrun doctor ARGS` in text, as [`doctor_command`] runs it.
fn doctor_text(s: &Setup, args: &[&str]) -> Out {
    let mut cmd = doctor_command(s, args, None);
    finish(cmd.spawn().expect("spawn"), Instant::now())
}

/// Every problem code of every registration.
pub(super) fn codes(v: &Value) -> Vec<String> {
    v["registrations"]
        .as_array()
        .expect("registrations")
        .iter()
        .flat_map(|r| r["problems"].as_array().cloned().unwrap_or_default())
        .map(|p| p["code"].as_str().unwrap_or("").to_owned())
        .collect()
}

fn write(s: &Setup, rel: &str, v: &Value) {
    let p = s.project().join(rel);
    std::fs::create_dir_all(p.parent().expect("parent")).expect("dir");
    std::fs::write(p, serde_json::to_string_pretty(v).expect("json")).expect("write");
}

/// A starter config, trusted, and hookrun registered for `agents` at
/// project scope.
fn installed(agents: &[&str]) -> Setup {
    let s = Setup::new().on_path();
    s.ok(&["init"]);
    for agent in agents {
        s.ok(&["install", "--agent", agent, "--scope", "project"]);
    }
    s
}

/// The hashes Codex CLI 0.171.0 computes (`hooks/list`'s `currentHash`)
/// of the handlers `install --agent codex --scope project` writes, with
/// the starter config: (event label, command, hash). Taken from the real
/// binary, not from hookrun, so that a wrong hash in hookrun fails here.
const CODEX_HASHES: &[(&str, &str, &str)] = &[
    (
        "pre_tool_use",
        "hookrun run --dialect codex",
        "sha256:8b8e5130afa86947fd0a36ead89e676f3ec25885cbc4951b53e3c5831517b565",
    ),
    (
        "post_tool_use",
        "hookrun run --dialect codex",
        "sha256:bd859d79a3cea00d81ef7fa3408be7a289b608b09f47d7fcf22d0fec37f40a49",
    ),
    (
        "pre_tool_use",
        "hookrun run --dialect codex --config hookrun.toml",
        "sha256:cd38712b7fdae067284a7edd5a0fa53f6ccdbaffc69e11bbcf8368dbaf83ba6c",
    ),
    (
        "post_tool_use",
        "hookrun run --dialect codex --config hookrun.toml",
        "sha256:9c4bc984b3d1540e6fd50ea3fc65996672c440d34e098b0d4079970bf22de808",
    ),
];

/// Writes `~/.codex/config.toml` as Codex does once the user trusts the
/// project and reviews its hooks: the project trusted, and each hook of
/// the project's `.codex/hooks.json` running `command` trusted with its
/// known hash, plus `extra` lines.
fn trust_codex(s: &Setup, command: &str, extra: &str) {
    let file = s.project().join(".codex/hooks.json");
    let mut text = format!(
        "[projects.{:?}]\ntrust_level = \"trusted\"\n",
        s.project().display().to_string()
    );
    for (label, _, hash) in CODEX_HASHES.iter().filter(|(_, c, _)| *c == command) {
        text.push_str(&format!(
            "\n[hooks.state.\"{}:{label}:0:0\"]\ntrusted_hash = \"{hash}\"\n",
            file.display()
        ));
    }
    text.push_str(extra);
    let dir = s.home().join(".codex");
    std::fs::create_dir_all(&dir).expect("codex home");
    std::fs::write(dir.join("config.toml"), text).expect("config.toml");
}

/// The messages of every problem with `code`.
pub(super) fn messages(v: &Value, code: &str) -> Vec<String> {
    v["registrations"]
        .as_array()
        .expect("registrations")
        .iter()
        .flat_map(|r| r["problems"].as_array().cloned().unwrap_or_default())
        .filter(|p| p["code"] == code)
        .map(|p| p["message"].as_str().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn a_healthy_setup_for_every_agent_holds_every_canary() {
    let s = installed(&["claude", "codex", "gemini", "cursor", "copilot"]);
    trust_codex(&s, "hookrun run --dialect codex", "");
    let (out, v) = doctor(&s, &[], None);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(codes(&v).is_empty(), "{v:#}");
    // Each agent's launcher answered with a tested version (Cursor's is
    // not on this PATH).
    let agents = v["agents"].as_array().expect("agents");
    assert_eq!(agents.len(), 5, "{v:#}");
    for a in agents.iter().filter(|a| a["agent"] != "cursor") {
        assert_eq!(a["tested"], true, "{v:#}");
    }
    let canaries = v["canaries"].as_array().expect("canaries");
    for agent in ["claude", "codex", "gemini", "cursor", "copilot"] {
        let mine: Vec<&Value> = canaries.iter().filter(|c| c["agent"] == agent).collect();
        assert!(
            mine.iter()
                .any(|c| c["guard"] == "dangerous-commands" && c["got"] == "blocked"),
            "{agent}: {v:#}"
        );
        assert!(
            mine.iter()
                .any(|c| c["guard"] == "dangerous-commands" && c["got"] == "allowed"),
            "{agent}: {v:#}"
        );
        assert!(mine.iter().all(|c| c["holds"] == true), "{agent}: {v:#}");
    }
    // Output redaction where the agent takes a replaced output.
    for agent in ["claude", "codex"] {
        assert!(
            canaries.iter().any(|c| c["agent"] == agent
                && c["guard"] == "redact-secrets"
                && c["got"] == "redacted"),
            "{agent}: {v:#}"
        );
    }
    assert!(
        canaries.iter().any(|c| c["agent"] == "claude"
            && c["guard"] == "protect-paths"
            && c["got"] == "blocked"),
        "{v:#}"
    );
    let regs = v["registrations"].as_array().expect("registrations");
    assert!(
        regs.iter().all(|r| r["trust"] == "trusted"
            && !r["config_layers"].as_array().expect("layers").is_empty()),
        "{v:#}"
    );

    // The text report says the same, and --agent narrows it.
    let text = doctor_text(&s, &["--agent", "claude", "--no-hooks"]);
    assert_eq!(text.code, 0, "{text:?}");
    assert!(text.stdout.contains("guarded"), "{text:?}");
    assert!(!text.stdout.contains("codex"), "{text:?}");
}

#[test]
fn hookrun_missing_from_the_agents_path_is_d001_and_its_canaries_fail() {
    let s = installed(&["claude"]);
    let (out, v) = doctor(&s, &[], Some("/usr/local/bin:/usr/bin:/bin"));
    assert_eq!(out.code, 1, "{out:?}");
    let c = codes(&v);
    assert!(c.contains(&"D001".to_owned()), "{v:#}");
    assert!(c.contains(&"D009".to_owned()), "{v:#}");
    assert!(
        v["canaries"]
            .as_array()
            .expect("canaries")
            .iter()
            .all(|c| c["holds"] == false),
        "{v:#}"
    );
}

fn claude_settings(command: &str, on_failure: bool) -> Value {
    let mut handler = json!({"type": "command", "command": command, "timeout": 15});
    if on_failure {
        handler["onFailure"] = json!("block");
    }
    json!({"hooks": {
        "PreToolUse": [{"hooks": [handler.clone()]}],
        "PostToolUse": [{"hooks": [handler]}],
    }})
}

#[test]
fn a_path_of_this_machine_in_the_projects_settings_is_d002() {
    let s = installed(&[]);
    write(
        &s,
        ".claude/settings.json",
        &claude_settings(&format!("{BIN} run --dialect claude"), true),
    );
    let (out, v) = doctor(&s, &[], None);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(codes(&v), ["D002"], "{v:#}");

    // The config named by an absolute path, for Codex.
    let s = installed(&[]);
    let config = s.project().join("hookrun.toml");
    write(
        &s,
        ".codex/hooks.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": format!("hookrun run --dialect codex --config {}", config.display())}]}]}}),
    );
    let (out, v) = doctor(&s, &[], None);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(codes(&v).contains(&"D002".to_owned()), "{v:#}");
}

#[test]
fn a_copilot_registration_without_its_event_is_d003_and_blocks_nothing() {
    let s = installed(&[]);
    write(
        &s,
        ".github/hooks/hookrun.json",
        &json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "hookrun run --dialect copilot", "timeoutSec": 15}]}}),
    );
    let (out, v) = doctor(&s, &[], None);
    assert_eq!(out.code, 1, "{out:?}");
    let c = codes(&v);
    assert!(c.contains(&"D003".to_owned()), "{v:#}");
    assert!(c.contains(&"D009".to_owned()), "{v:#}");
}

#[test]
fn a_claude_registration_without_on_failure_is_d004() {
    let s = installed(&[]);
    write(
        &s,
        ".claude/settings.json",
        &claude_settings("hookrun run --dialect claude", false),
    );
    let (out, v) = doctor(&s, &[], None);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(codes(&v), ["D004"], "{v:#}");
    assert!(
        v["registrations"][0]["problems"][0]["fix"]
            .as_str()
            .expect("fix")
            .contains("hookrun install --agent claude --scope project")
    );
}

#[test]
fn an_event_no_registration_receives_is_d005() {
    let s = installed(&["claude"]);
    let config = s.project().join("hookrun.toml");
    let mut text = std::fs::read_to_string(&config).expect("read");
    text.push_str("\n[[hooks]]\nevent = \"UserPromptSubmit\"\ncommand = \"true\"\n");
    std::fs::write(&config, text).expect("write");
    s.ok(&["trust", "hookrun.toml"]);
    let (out, v) = doctor(&s, &["--no-hooks"], None);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(codes(&v), ["D005"], "{v:#}");
}

#[test]
fn a_hook_both_the_agent_and_hookrun_run_is_d006() {
    let s = installed(&[]);
    let config = s.project().join("hookrun.toml");
    let mut text = std::fs::read_to_string(&config).expect("read");
    text.push_str("\n[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"true\"\n");
    std::fs::write(&config, text).expect("write");
    s.ok(&["trust", "hookrun.toml"]);
    let mut settings = claude_settings("hookrun run --dialect claude", true);
    settings["hooks"]["PreToolUse"]
        .as_array_mut()
        .expect("array")
        .push(json!({"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}));
    write(&s, ".claude/settings.json", &settings);
    let (out, v) = doctor(&s, &[], None);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(codes(&v).contains(&"D006".to_owned()), "{v:#}");
}

#[test]
fn an_untrusted_project_config_is_d007_and_its_redaction_fails() {
    let s = Setup::new().on_path();
    s.ok(&["init", "--no-trust"]);
    s.ok(&["install", "--agent", "claude", "--scope", "project"]);
    let (out, v) = doctor(&s, &[], None);
    assert_eq!(out.code, 1, "{out:?}");
    let c = codes(&v);
    assert!(c.contains(&"D007".to_owned()), "{v:#}");
    assert!(c.contains(&"D009".to_owned()), "{v:#}");
    assert_eq!(v["registrations"][0]["trust"], "untrusted", "{v:#}");
    let redact = v["canaries"]
        .as_array()
        .expect("canaries")
        .iter()
        .find(|c| c["guard"] == "redact-secrets")
        .cloned()
        .expect("a redaction canary");
    assert_eq!(redact["got"], "not redacted", "{v:#}");
    // Trusting it is the fix.
    s.ok(&["trust", "hookrun.toml"]);
    let (out, _) = doctor(&s, &[], None);
    assert_eq!(out.code, 0, "{out:?}");
}

#[test]
fn no_registration_at_all_is_not_guarded_and_a_bad_flag_is_usage() {
    let s = installed(&[]);
    let (out, v) = doctor(&s, &[], None);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(v["registrations"].as_array().expect("array").is_empty());
    let text = doctor_text(&s, &[]);
    assert_eq!(text.code, 1, "{text:?}");
    assert!(
        text.stdout.contains("no hookrun registration found"),
        "{text:?}"
    );
    assert_eq!(doctor_text(&s, &["--format", "yaml"]).code, 2);
    assert_eq!(doctor_text(&s, &["--scope", "local"]).code, 2);
}

#[test]
fn the_command_hooks_canaries_reach_are_listed_and_no_hooks_keeps_them_from_running() {
    let s = installed(&["claude"]);
    let marker = s.home().join("ran");
    let config = s.project().join("hookrun.toml");
    let mut text = std::fs::read_to_string(&config).expect("read");
    text.push_str(&format!(
        "\n[[hooks]]\nname = \"notify\"\nevent = \"PreToolUse\"\ncommand = \"touch '{}'\"\n",
        marker.display()
    ));
    std::fs::write(&config, text).expect("write");
    s.ok(&["trust", "hookrun.toml"]);
    let out = doctor_text(&s, &["--no-hooks"]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!marker.exists(), "a command hook ran under --no-hooks");
    // The switch `--no-hooks` uses is never quiet: set anywhere else, every
    // answer says which hooks it left out.
    let mut cmd = s.command(crate::support::BIN);
    cmd.env("HOOKRUN_BUILTINS_ONLY", "1")
        .args(["run", "--dialect", "claude"]);
    let out = s.pipe(cmd, &s.bash_event("ls"));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(!marker.exists(), "{out:?}");
    assert!(
        out.system_message()
            .contains("HOOKRUN_BUILTINS_ONLY=1 is set: 1 command hook(s)"),
        "{out:?}"
    );
    let out = doctor_text(&s, &[]);
    assert_eq!(out.code, 0, "{out:?}");
    let listed = out.stdout.find("notify").expect("the hook is listed");
    assert!(
        listed < out.stdout.find("canaries:").expect("canaries"),
        "{out:?}"
    );
    assert!(marker.exists(), "the canaries reach the command hook");
}

#[test]
fn a_config_named_from_each_agents_project_directory_is_read_and_guards() {
    for agent in ["claude", "codex", "gemini", "cursor", "copilot"] {
        let s = Setup::new().on_path();
        s.ok(&["init"]);
        s.ok(&[
            "install",
            "--agent",
            agent,
            "--scope",
            "project",
            "--config",
            "hookrun.toml",
        ]);
        trust_codex(&s, "hookrun run --dialect codex --config hookrun.toml", "");
        let (out, v) = doctor(&s, &[], None);
        assert_eq!(out.code, 0, "{agent}: {out:?}");
        let reg = &v["registrations"][0];
        assert!(
            reg["command"]
                .as_str()
                .expect("command")
                .contains("--config"),
            "{agent}: {v:#}"
        );
        let layers = reg["config_layers"].as_array().expect("layers");
        assert_eq!(layers.len(), 1, "{agent}: {v:#}");
        assert_eq!(layers[0]["source"], "explicit", "{agent}: {v:#}");
        assert!(
            layers[0]["path"]
                .as_str()
                .expect("path")
                .ends_with("/hookrun.toml"),
            "{agent}: {v:#}"
        );
        assert!(
            v["canaries"]
                .as_array()
                .expect("canaries")
                .iter()
                .any(|c| c["guard"] == "dangerous-commands" && c["got"] == "blocked"),
            "{agent}: {v:#}"
        );
    }
}

#[test]
fn a_config_the_registration_names_that_is_gone_is_d008_and_blocks_everything() {
    let s = installed(&[]);
    write(
        &s,
        ".claude/settings.json",
        &claude_settings(
            "hookrun run --dialect claude --config \"$CLAUDE_PROJECT_DIR\"/gone.toml",
            true,
        ),
    );
    let (out, v) = doctor(&s, &[], None);
    assert_eq!(out.code, 1, "{out:?}");
    let c = codes(&v);
    assert!(c.contains(&"D008".to_owned()), "{v:#}");
    assert_eq!(
        v["registrations"][0]["config_layers"][0]["trust"],
        "missing"
    );
    // hookrun blocks what it cannot evaluate: `ls` is blocked too, so the
    // allow canaries fail.
    assert!(
        v["canaries"]
            .as_array()
            .expect("canaries")
            .iter()
            .all(|c| c["expected"] != "allowed" || c["holds"] == false),
        "{v:#}"
    );
}

#[test]
fn a_settings_file_that_is_not_json_is_d010() {
    let s = installed(&["claude"]);
    std::fs::create_dir_all(s.project().join(".cursor")).expect("dir");
    std::fs::write(s.project().join(".cursor/hooks.json"), "{ not json").expect("write");
    let (out, v) = doctor(&s, &[], None);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(v["problems"][0]["code"], "D010", "{v:#}");
    assert!(codes(&v).is_empty(), "{v:#}");
    // Not an agent asked about: not reported.
    let (out, _) = doctor(&s, &["--agent", "claude"], None);
    assert_eq!(out.code, 0, "{out:?}");
}

#[test]
fn a_cursor_registration_without_fail_closed_is_d004() {
    let s = installed(&[]);
    write(
        &s,
        ".cursor/hooks.json",
        &json!({"version": 1, "hooks": {
            "preToolUse": [{"command": "hookrun run --dialect cursor", "timeout": 15}],
            "postToolUse": [{"command": "hookrun run --dialect cursor", "timeout": 15}],
        }}),
    );
    let (out, v) = doctor(&s, &[], None);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(codes(&v), ["D004"], "{v:#}");
    assert!(
        v["registrations"][0]["problems"][0]["message"]
            .as_str()
            .expect("message")
            .contains("failClosed"),
        "{v:#}"
    );
}

#[test]
fn a_codex_hook_codex_has_not_trusted_is_d011_until_it_is() {
    let s = installed(&["codex"]);
    let hooks = s.project().join(".codex/hooks.json");
    let key = |label: &str| format!("{}:{label}:0:0", hooks.display());

    // Codex loads no `.codex/` of a project it does not trust.
    let (out, v) = doctor(&s, &[], None);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(codes(&v), ["D011"], "{v:#}");
    assert!(messages(&v, "D011")[0].contains("is not trusted"), "{v:#}");

    // Trusted project, hooks never reviewed: one D011 per hook, by key.
    let dir = s.home().join(".codex");
    std::fs::create_dir_all(&dir).expect("codex home");
    std::fs::write(
        dir.join("config.toml"),
        format!(
            "[projects.{:?}]\ntrust_level = \"trusted\"\n",
            s.project().display().to_string()
        ),
    )
    .expect("config.toml");
    let (out, v) = doctor(&s, &[], None);
    assert_eq!(out.code, 1, "{out:?}");
    let m = messages(&v, "D011");
    assert_eq!(m.len(), 2, "{v:#}");
    for label in ["pre_tool_use", "post_tool_use"] {
        assert!(
            m.iter()
                .any(|m| m.contains(&key(label)) && m.contains("never reviewed")),
            "{label}: {v:#}"
        );
    }
    let text = s.run(&["doctor", "--no-hooks"]);
    assert_eq!(text.code, 1, "{text:?}");
    assert!(text.stdout.contains("D011"), "{text:?}");
    assert!(text.stdout.contains("/hooks"), "{text:?}");

    // Trusted as the review writes it: healthy.
    trust_codex(&s, "hookrun run --dialect codex", "");
    let (out, v) = doctor(&s, &[], None);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(codes(&v).is_empty(), "{v:#}");

    // Disabled in Codex: skipped, trusted or not.
    trust_codex(
        &s,
        "hookrun run --dialect codex",
        &format!("\n[hooks.state.\"{}\"]\nenabled = false\n", key("stop")),
    );
    let (out, _) = doctor(&s, &[], None);
    assert_eq!(
        out.code, 0,
        "a state of another hook changes nothing: {out:?}"
    );
    let config = dir.join("config.toml");
    let text = std::fs::read_to_string(&config).expect("config.toml");
    let disabled = text.replacen(
        &format!("[hooks.state.\"{}\"]\n", key("pre_tool_use")),
        &format!(
            "[hooks.state.\"{}\"]\nenabled = false\n",
            key("pre_tool_use")
        ),
        1,
    );
    assert_ne!(disabled, text);
    std::fs::write(&config, disabled).expect("config.toml");
    let (out, v) = doctor(&s, &[], None);
    assert_eq!(out.code, 1, "{out:?}");
    let m = messages(&v, "D011");
    assert_eq!(m.len(), 1, "{v:#}");
    assert!(
        m[0].contains(&key("pre_tool_use")) && m[0].contains("disabled"),
        "{v:#}"
    );

    // The command changed after the review: waiting to be trusted again.
    trust_codex(&s, "hookrun run --dialect codex", "");
    s.ok(&[
        "install",
        "--agent",
        "codex",
        "--scope",
        "project",
        "--on-error",
        "allow",
    ]);
    let (out, v) = doctor(&s, &[], None);
    assert_eq!(out.code, 1, "{out:?}");
    let m = messages(&v, "D011");
    assert!(!m.is_empty(), "{v:#}");
    assert!(m.iter().all(|m| m.contains("trusted again")), "{v:#}");
}

#[test]
fn a_codex_hook_installed_for_the_user_is_d011_until_reviewed() {
    let s = Setup::new().on_path();
    s.ok(&["init"]);
    s.ok(&[
        "install",
        "--agent",
        "codex",
        "--scope",
        "user",
        "--config",
        "hookrun.toml",
    ]);
    let (out, v) = doctor(&s, &[], None);
    assert_eq!(out.code, 1, "{out:?}");
    let m = messages(&v, "D011");
    assert!(!m.is_empty(), "{v:#}");
    let user_file = s.home().join(".codex/hooks.json");
    assert!(
        m.iter()
            .all(|m| m.contains(&format!("`{}:", user_file.display()))
                && m.contains("never reviewed")),
        "the user's own file needs no project trust: {v:#}"
    );
}

#[test]
fn codex_keys_a_hook_by_the_real_path_of_its_file() {
    let s = installed(&[]);
    let real = s.home().join("codex-real");
    std::fs::create_dir_all(&real).expect("dir");
    let link = s.home().join("codex-link");
    std::os::unix::fs::symlink(&real, &link).expect("symlink");
    std::fs::write(
        real.join("hooks.json"),
        serde_json::to_string(&json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": "hookrun run --dialect codex", "timeout": 15}
        ]}]}}))
        .expect("json"),
    )
    .expect("hooks.json");
    let (_, _, hash) = CODEX_HASHES[0];
    let state = |dir: &Path| {
        format!(
            "[hooks.state.\"{}:pre_tool_use:0:0\"]\ntrusted_hash = \"{hash}\"\n",
            dir.join("hooks.json").display()
        )
    };
    let run = || {
        let mut cmd: Command = s.command(BIN);
        cmd.args([
            "doctor",
            "--agent",
            "codex",
            "--no-hooks",
            "--format",
            "json",
        ])
        .env("CODEX_HOME", &link);
        let out = finish(cmd.spawn().expect("spawn"), Instant::now());
        let v: Value = serde_json::from_str(&out.stdout).expect("doctor's JSON");
        messages(&v, "D011")
    };
    // Trusted under the path Codex uses: through the symlink.
    std::fs::write(real.join("config.toml"), state(&real)).expect("config.toml");
    assert!(run().is_empty());
    // Under the link's path Codex finds no state for it.
    std::fs::write(real.join("config.toml"), state(&link)).expect("config.toml");
    let m = run();
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].contains("never reviewed"), "{m:?}");
}

/// The top-level problems' codes and messages.
fn top_problems(v: &Value) -> Vec<(String, String)> {
    v["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .map(|p| {
            (
                p["code"].as_str().unwrap_or("").to_owned(),
                p["message"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

#[test]
fn an_agent_version_hookrun_is_not_tested_with_is_d012_and_a_tested_one_is_not() {
    let s = installed(&["claude"]);
    let (out, v) = doctor(&s, &["--no-hooks"], None);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(top_problems(&v).is_empty(), "{v:#}");
    assert_eq!(v["agents"][0]["agent"], "claude", "{v:#}");
    assert_eq!(v["agents"][0]["version"], "2.1.332", "{v:#}");
    assert_eq!(v["agents"][0]["tested"], true, "{v:#}");
    assert_eq!(v["agents"][0]["tested_by"], "live", "{v:#}");
    assert_eq!(
        v["agents"][0]["path"],
        agents_dir(&s).join("claude").display().to_string(),
        "{v:#}"
    );

    fake_agent(&s, "claude", "echo '2.1.340 (Claude Code)'");
    let (out, v) = doctor(&s, &["--no-hooks"], None);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(
        top_problems(&v),
        [(
            "D012".to_owned(),
            "Claude Code 2.1.340 is a version hookrun has not been tested with (tested: 2.1.332)"
                .to_owned()
        )],
        "{v:#}"
    );
    assert_eq!(v["agents"][0]["tested"], false, "{v:#}");
    assert_eq!(v["ok"], false, "{v:#}");
    // The canaries still hold: the version is the only thing wrong.
    assert!(codes(&v).is_empty(), "{v:#}");
    let text = doctor_text(&s, &["--no-hooks"]);
    assert_eq!(text.code, 1, "{text:?}");
    assert!(
        text.stdout
            .contains("D012: Claude Code 2.1.340 is a version hookrun has not been tested with"),
        "{text:?}"
    );
    assert!(
        text.stdout.contains("NOT guarded as configured"),
        "{text:?}"
    );
}

#[test]
fn an_agent_version_that_cannot_be_read_is_d012_with_the_reason() {
    let s = installed(&["codex", "gemini"]);
    fake_agent(&s, "codex", "echo garbage");
    fake_agent(&s, "gemini", "echo 'no such option' >&2; exit 3");
    let (out, v) = doctor(&s, &["--no-hooks"], None);
    assert_eq!(out.code, 1, "{out:?}");
    let problems = top_problems(&v);
    assert_eq!(problems.len(), 2, "{v:#}");
    assert!(problems.iter().all(|(c, _)| c == "D012"), "{v:#}");
    assert!(
        problems[0]
            .1
            .contains("codex --version` printed no version (`garbage`)"),
        "{v:#}"
    );
    assert!(
        problems[1]
            .1
            .contains("gemini --version` exited with 3: no such option"),
        "{v:#}"
    );
    for a in v["agents"].as_array().expect("agents") {
        assert!(a["version"].is_null(), "{v:#}");
        assert!(a["tested"].is_null(), "{v:#}");
    }
}

#[test]
fn a_version_probe_that_hangs_is_killed_and_doctor_still_answers() {
    let s = installed(&["claude"]);
    let pidfile = s.home().join("probe.pid");
    // A background child holding the probe's output, and the probe itself
    // never answering.
    fake_agent(
        &s,
        "claude",
        &format!(
            "sleep 600 & echo $! > '{}'; exec sleep 600",
            pidfile.display()
        ),
    );
    let mut cmd = doctor_command(&s, &["--no-hooks", "--format", "json"], None);
    cmd.env("HOOKRUN_DOCTOR_VERSION_TIMEOUT", "2");
    let out = finish(cmd.spawn().expect("spawn"), Instant::now());
    let v: Value = serde_json::from_str(&out.stdout).expect("doctor's JSON");
    assert_eq!(out.code, 1, "{out:?}");
    let problems = top_problems(&v);
    assert_eq!(problems.len(), 1, "{v:#}");
    assert_eq!(problems[0].0, "D012", "{v:#}");
    assert!(problems[0].1.contains("did not answer within 2 s"), "{v:#}");
    // The canaries ran after it, and nothing of the probe is left.
    assert!(
        !v["canaries"].as_array().expect("canaries").is_empty(),
        "{v:#}"
    );
    let pid: i32 = std::fs::read_to_string(&pidfile)
        .expect("pidfile")
        .trim()
        .parse()
        .expect("pid");
    assert!(
        crate::support::wait_for(std::time::Duration::from_secs(10), || {
            !crate::support::alive(pid)
        }),
        "the probe's background child {pid} survived"
    );
}

#[test]
fn an_agent_not_on_path_is_no_problem_and_is_said() {
    let s = installed(&["claude"]);
    let bin_dir = Path::new(BIN)
        .parent()
        .expect("bin dir")
        .display()
        .to_string();
    // Only hookrun's directory: no launcher of any agent at all.
    let mut cmd = doctor_command(&s, &["--no-hooks", "--format", "json"], None);
    cmd.env("PATH", &bin_dir);
    let out = finish(cmd.spawn().expect("spawn"), Instant::now());
    assert_eq!(out.code, 0, "{out:?}");
    let v: Value = serde_json::from_str(&out.stdout).expect("json");
    assert!(top_problems(&v).is_empty(), "{v:#}");
    let a = &v["agents"][0];
    assert_eq!(a["agent"], "claude", "{v:#}");
    assert!(a["path"].is_null() && a["version"].is_null(), "{v:#}");
    assert!(
        a["note"]
            .as_str()
            .is_some_and(|n| n.contains("`claude` is not on PATH")),
        "{v:#}"
    );
    let mut cmd = doctor_command(&s, &["--no-hooks"], None);
    cmd.env("PATH", &bin_dir);
    let out = finish(cmd.spawn().expect("spawn"), Instant::now());
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stdout.contains(
            "agent claude: `claude` is not on PATH: Claude Code's version is not checked"
        ),
        "{out:?}"
    );
}
