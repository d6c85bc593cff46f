//! What R code does, as the guards receive it: each use names the R
//! function, what it does (runs a command line, does a file operation
//! written as the shell command doing the same, reads, writes, …) and the
//! text (the command line, or the path).

/// What a use does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act {
    /// A command line R hands to a shell, or runs as an argument vector
    /// (quoted as the shell would pass it).
    Runs,
    /// An R file operation as the shell command doing the same.
    Does,
    /// A command line decoded at run time (`rawToChar`, base64).
    RunsDecoded,
    /// R code fetched from the network and run (`source("https://…")`).
    RunsDownloaded,
    Reads,
    Writes,
}

/// One thing R code does: which function, what, on what text (a command
/// line, or a path).
#[derive(Debug, Clone)]
pub struct Use {
    pub by: String,
    pub act: Act,
    pub text: String,
}

/// What a guard concludes on each use; the first reason stops the reading.
pub type Visit<'a> = &'a mut dyn FnMut(&Use) -> Option<String>;
