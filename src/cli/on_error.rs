//! The values of `--on-error`, shared by `run` (what hookrun answers on
//! its own failure) and `install` (what the registration asks of the
//! agent): a leaf, so each part of the command line can name it.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub(crate) enum OnError {
    /// Block what can be blocked, saying where and why.
    #[default]
    Block,
    /// Report the error and let the event through.
    Allow,
}
