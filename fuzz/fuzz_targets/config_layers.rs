//! Config layering with broken layers: the bytes are split into one to three
//! layers (TOML or JSON by the selector byte), some of them missing. Loading
//! them together never panics, and every layer that fails on its own is in
//! `Config::unreadable`, never silently dropped, while the others load.
#![no_main]
use std::path::PathBuf;

use hookrun::internals::config::{self, FailMode, Found, LoadOptions, Source};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("hookrun-fuzz-layers-{}", std::process::id()));
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    let count = usize::from(selector % 3) + 1;
    let mut parts = rest.splitn(count, |&b| b == 0);
    let mut files = Vec::new();
    for i in 0..count {
        let ext = if selector & (8 << i) == 0 {
            "toml"
        } else {
            "json"
        };
        let path: PathBuf = dir.join(format!("layer-{i}.{ext}"));
        let _ = std::fs::remove_file(&path);
        let missing = i > 0 && selector & (32 << i) != 0;
        if !missing && std::fs::write(&path, parts.next().unwrap_or_default()).is_err() {
            return;
        }
        files.push(Found {
            path,
            source: Source::Explicit,
        });
    }
    let options = LoadOptions {
        explicit: false,
        default_fail_mode: FailMode::Open,
        format: None,
        foreign: hookrun::internals::convert::HOOKS_FILES,
    };
    let Ok(all) = config::load_found(&files, options) else {
        return;
    };
    for f in &files {
        let alone = config::load(std::slice::from_ref(&f.path), options);
        let listed = all.unreadable.iter().any(|u| u.path == f.path);
        assert_eq!(
            alone.is_err(),
            listed,
            "{}: alone {alone:?}",
            f.path.display()
        );
        assert!(
            listed || all.files.contains(&f.path),
            "{} neither loaded nor listed",
            f.path.display()
        );
    }
});
