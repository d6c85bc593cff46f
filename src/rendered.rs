//! What hookrun answers its caller: the bytes of stdout, the lines of
//! stderr and the exit code, as a dialect rendered them and before `output`
//! writes them.

/// What hookrun prints and how it exits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rendered {
    pub stdout: String,
    pub stderr: Vec<String>,
    pub exit_code: u8,
}
