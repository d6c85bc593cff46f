//! What a command line does, as the guards read it: the words of a simple
//! command read against its options (`argv`), the wrappers stripped to the
//! command that really runs (`wrappers`), the paths it names (`targets`,
//! `resolve`), what a tool's input means (`tools`) and where a command
//! writes (`writes`). Shared by `dangerous-commands` and `protect-paths`.

pub(crate) mod argv;
pub(crate) mod resolve;
pub(crate) mod targets;
pub(crate) mod tools;
pub(crate) mod wrappers;
pub(crate) mod writes;
