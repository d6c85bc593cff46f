//! The benchmark floor: spawn the hook commands given as arguments, each as
//! `/bin/sh -c CMD` with the event from stdin on its stdin, all at once, and
//! wait for them. No config, no matching, no merging: the physical cost of
//! running the hooks at all.
//!
//!     cargo build --release --example floor
//!     target/release/examples/floor 'true' 'true' < event.json

use std::io::{Read, Write};
use std::process::{Command, Stdio};

fn main() {
    let mut event = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut event);
    let children: Vec<_> = std::env::args()
        .skip(1)
        .filter_map(|cmd| {
            let mut child = Command::new("/bin/sh")
                .args(["-c", &cmd])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .ok()?;
            let mut stdin = child.stdin.take()?;
            let bytes = event.clone();
            let writer = std::thread::spawn(move || {
                let _ = stdin.write_all(&bytes);
            });
            Some((child, writer))
        })
        .collect();
    for (child, writer) in children {
        let _ = child.wait_with_output();
        let _ = writer.join();
    }
}
