//! The workspace's crates ship together: every library crate under
//! `crates/` carries hookrun's version, and hookrun asks for exactly that
//! version of it, so the release publishes one consistent set.

use std::path::Path;

/// The `version = "…"` of a manifest's `[package]`.
fn package_version(manifest: &str) -> Option<String> {
    let package = manifest.split("\n[").next()?;
    package.lines().find_map(|l| {
        let v = l.strip_prefix("version = \"")?;
        Some(v.trim_end_matches('"').to_owned())
    })
}

#[test]
fn every_library_crate_has_hookruns_version_and_hookrun_asks_for_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let own = env!("CARGO_PKG_VERSION");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let mut crates = 0;
    for entry in std::fs::read_dir(root.join("crates")).expect("crates/") {
        let dir = entry.expect("entry").path();
        let text = std::fs::read_to_string(dir.join("Cargo.toml")).expect("a crate's Cargo.toml");
        let name = dir.file_name().and_then(|n| n.to_str()).expect("name");
        assert_eq!(package_version(&text).as_deref(), Some(own), "{name}");
        let wanted = format!("{name} = {{ path = \"crates/{name}\", version = \"{own}\" }}");
        assert!(
            manifest.contains(&wanted),
            "Cargo.toml must depend on {name} as `{wanted}`"
        );
        crates += 1;
    }
    assert!(crates > 0, "no crate under crates/");
}
