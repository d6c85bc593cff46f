//! The `hookrun` binary: hand the command line to the library.

fn main() -> std::process::ExitCode {
    hookrun::main()
}
