//! `hookrun init`: a starter that checks clean, passes its own tests and
//! never overwrites a file unless asked.

use super::Setup;

const FILES: [&str; 3] = ["hookrun.toml", "hookrun.test.toml", "hookrun.schema.json"];

#[test]
fn init_writes_a_config_that_checks_strict_and_passes_its_tests() {
    let s = Setup::new();
    s.ok(&["init"]);
    for f in FILES {
        assert!(s.project().join(f).is_file(), "{f} not written");
    }
    let config = std::fs::read_to_string(s.project().join("hookrun.toml")).expect("config");
    assert!(
        config.starts_with("#:schema ./hookrun.schema.json\n"),
        "{config}"
    );
    assert!(config.contains("${HOOKRUN_CONFIG_DIR}/"), "{config}");
    assert!(
        !config.contains("closed"),
        "no closed guard in the starter: {config}"
    );
    // The schema the first line names is the one `hookrun schema` prints.
    let schema = std::fs::read_to_string(s.project().join("hookrun.schema.json")).expect("schema");
    assert_eq!(schema, s.ok(&["schema"]).stdout);

    let check = s.ok(&["check", "--strict", "hookrun.toml"]);
    assert!(check.stdout.contains("0 errors, 0 warnings"), "{check:?}");
    let test = s.ok(&["test"]);
    assert!(test.stdout.contains("4 passed, 0 failed"), "{test:?}");
    assert!(test.stdout.contains("rm -rf / is denied"), "{test:?}");
    assert!(test.stdout.contains("ls is allowed"), "{test:?}");
}

#[test]
fn init_into_a_new_directory() {
    let s = Setup::new();
    let dir = s.user_config_dir();
    s.ok(&["init", &dir.display().to_string()]);
    for f in FILES {
        assert!(dir.join(f).is_file(), "{f} not written");
    }
    let test = s.ok(&["test", &dir.display().to_string()]);
    assert!(test.stdout.contains("4 passed, 0 failed"), "{test:?}");
}

#[test]
fn init_refuses_to_overwrite_without_force() {
    let s = Setup::new();
    std::fs::write(s.project().join("hookrun.toml"), "# mine\n").expect("write");
    let out = s.run(&["init"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert!(out.stderr.contains("hookrun.toml"), "{out:?}");
    assert!(out.stderr.contains("--force"), "{out:?}");
    assert_eq!(
        std::fs::read_to_string(s.project().join("hookrun.toml")).expect("read"),
        "# mine\n"
    );
    // Nothing else was written either.
    assert!(!s.project().join("hookrun.test.toml").exists());

    s.ok(&["init", "--force"]);
    let config = std::fs::read_to_string(s.project().join("hookrun.toml")).expect("read");
    assert!(config.contains("dangerous-commands"), "{config}");
}
