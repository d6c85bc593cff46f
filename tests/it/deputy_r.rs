//! The deputy adapter (`integrations/deputy/`, R) against this build: its
//! R suite runs real `hookrun run --dialect deputy` processes through the
//! adapter and a stand-in for deputy. Without `Rscript` (or its packages)
//! the test says it was skipped and passes, so `cargo test` needs no R;
//! `HOOKRUN_REQUIRE_R=1` (set by CI, which installs R) makes that a failure.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::BIN;

/// The suite takes a few seconds; past this it is hung.
const LIMIT: Duration = Duration::from_secs(120);

/// run.R's exit status when an R package it needs is missing.
const MISSING_PACKAGES: i32 = 77;

const INSTALL: &str = "apt-get install r-base-core r-cran-jsonlite r-cran-processx r-cran-r6";

fn skip_or_fail(why: &str) {
    if std::env::var("HOOKRUN_REQUIRE_R").is_ok_and(|v| v == "1") {
        panic!("HOOKRUN_REQUIRE_R=1 but {why}; {INSTALL}");
    }
    eprintln!("skipped: {why}; {INSTALL}");
}

#[test]
fn r_adapter_suite_passes_against_this_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let spawned = Command::new("Rscript")
        .arg(root.join("integrations/deputy/tests/run.R"))
        .arg("--bin")
        .arg(BIN)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return skip_or_fail("Rscript not found");
        }
        Err(e) => panic!("cannot start Rscript: {e}"),
    };
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for Rscript") {
            break status;
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            panic!("the R suite did not finish within {LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    match status.code() {
        Some(0) => eprintln!("{stdout}"),
        Some(MISSING_PACKAGES) => {
            skip_or_fail(stderr.lines().next().unwrap_or("R packages are missing"));
        }
        code => panic!("the R suite failed (exit {code:?}):\n{stdout}\n{stderr}"),
    }
}
