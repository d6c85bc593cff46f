//! The workspace's crates ship together: every library crate under
//! `crates/` carries hookrun's version, every dependency on one of them
//! asks for exactly that version (and its path), and the release publishes
//! each before the crates that depend on it, so it uploads one consistent
//! set.

use std::path::Path;

/// The `version = "…"` of a manifest's `[package]`.
fn package_version(manifest: &str) -> Option<String> {
    let package = manifest.split("\n[").next()?;
    package.lines().find_map(|l| {
        let v = l.strip_prefix("version = \"")?;
        Some(v.trim_end_matches('"').to_owned())
    })
}

/// The workspace's library crates: (name, manifest text).
fn crates(root: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(root.join("crates")).expect("crates/") {
        let dir = entry.expect("entry").path();
        let text = std::fs::read_to_string(dir.join("Cargo.toml")).expect("a crate's Cargo.toml");
        let name = dir.file_name().and_then(|n| n.to_str()).expect("name");
        out.push((name.to_owned(), text));
    }
    out.sort();
    out
}

#[test]
fn every_library_crate_has_hookruns_version_and_is_asked_for_at_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let own = env!("CARGO_PKG_VERSION");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let crates = crates(root);
    assert!(!crates.is_empty(), "no crate under crates/");
    for (name, text) in &crates {
        assert_eq!(package_version(text).as_deref(), Some(own), "{name}");
    }
    // Every manifest's dependency on a workspace crate names its path and
    // hookrun's version.
    let manifests = std::iter::once(("hookrun".to_owned(), manifest.clone())).chain(crates.clone());
    for (owner, text) in manifests {
        for (name, _) in &crates {
            for line in text
                .lines()
                .filter(|l| l.starts_with(&format!("{name} = ")))
            {
                assert!(
                    line.contains("path = \"") && line.contains(&format!("version = \"{own}\"")),
                    "{owner}'s Cargo.toml must ask for {name} by path at version {own}: {line}"
                );
            }
        }
    }
    let guards =
        format!("hookrun-guards = {{ path = \"crates/hookrun-guards\", version = \"{own}\" }}");
    assert!(
        manifest.contains(&guards),
        "Cargo.toml must depend on `{guards}`"
    );
}

#[test]
fn the_release_publishes_each_crate_before_those_that_depend_on_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let release =
        std::fs::read_to_string(root.join(".github/workflows/release.yml")).expect("release.yml");
    let at = |name: &str| {
        release
            .find(&format!("cargo publish --locked -p {name}\n"))
            .unwrap_or_else(|| panic!("release.yml does not publish {name}"))
    };
    let crates = crates(root);
    for (name, text) in &crates {
        assert!(
            at(name) < at("hookrun"),
            "{name} is published after hookrun"
        );
        for (dep, _) in &crates {
            if text.lines().any(|l| l.starts_with(&format!("{dep} = "))) {
                assert!(
                    at(dep) < at(name),
                    "{dep} is published after {name}, which needs it"
                );
            }
        }
    }
}
