//! `convert --to gemini` keeps meaning: exec-form words reach the program
//! unchanged through Gemini's shell, and built-in options and mode are kept.

use std::process::Command;

use crate::support::BIN;

fn to_gemini(toml: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("hooks.toml");
    std::fs::write(&path, toml).expect("write");
    let out = Command::new(BIN)
        .args(["convert", "--to", "gemini"])
        .arg(&path)
        .output()
        .expect("run convert");
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn commands(v: &serde_json::Value) -> Vec<String> {
    v["hooks"]["BeforeTool"]
        .as_array()
        .expect("BeforeTool")
        .iter()
        .map(|g| {
            g["hooks"][0]["command"]
                .as_str()
                .expect("command")
                .to_owned()
        })
        .collect()
}

#[test]
fn exec_form_words_survive_the_shell() {
    let words = ["a b", "$HOME", "it's", "*", "x;y", "", "plain-word"];
    let toml = format!(
        "[[hooks]]\nevent = \"PreToolUse\"\ncommand = \"printf\"\nargs = {}\n",
        serde_json::to_string(&std::iter::once("%s|").chain(words).collect::<Vec<_>>())
            .expect("args")
    );
    let cmds = commands(&to_gemini(&toml));
    let out = Command::new("sh")
        .arg("-c")
        .arg(&cmds[0])
        .output()
        .expect("sh");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        words.iter().map(|w| format!("{w}|")).collect::<String>(),
        "{}",
        cmds[0]
    );
}

#[test]
fn builtin_options_and_mode_are_kept() {
    let toml = concat!(
        "[[hooks]]\nevent = \"PreToolUse\"\nbuiltin = \"dangerous-commands\"\nmode = \"warn\"\n",
        "options = { extra_patterns = [\"curl .*\\\\| sh\", \"it's\"] }\n",
    );
    let cmds = commands(&to_gemini(toml));
    let (name, options, mode) =
        hookrun::internals::convert::builtin_of(&cmds[0]).unwrap_or_else(|| panic!("{}", cmds[0]));
    assert_eq!(name, "dangerous-commands");
    assert_eq!(mode.as_deref(), Some("warn"));
    let options = serde_json::to_value(options.expect("options")).expect("json");
    assert_eq!(
        options,
        serde_json::json!({"extra_patterns": ["curl .*\\| sh", "it's"]})
    );
}
