//! The `hookrun` binary: parse the command line, hand it to the library.

use clap::Parser;

fn main() -> std::process::ExitCode {
    hookrun::run(&hookrun::cli::Cli::parse())
}
