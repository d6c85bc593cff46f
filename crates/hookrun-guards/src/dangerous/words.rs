//! The words a command's program really gets and the files its
//! redirections open, once the shell has expanded them: brace
//! alternatives, variables the line assigned, and relative paths against
//! the directory it moved to.

use crate::dangerous::cwd;
use crate::dangerous::vars;
use hookrun_sh::Command;
use hookrun_sh::expand;

/// The arguments with their brace alternatives expanded (`{/,/tmp}` is two
/// words), or `None` when none has braces.
pub(crate) fn braced(args: &[String]) -> Option<Vec<String>> {
    args.iter()
        .any(|a| a.contains('{'))
        .then(|| args.iter().flat_map(|a| expand::braces(a)).collect())
}

/// A command's redirections with their targets as the shell opens them.
pub(crate) fn redirect_targets(cmd: &Command) -> Vec<(String, String)> {
    cmd.redirects
        .iter()
        .map(|(op, target)| {
            let t = vars::expand_one(target);
            let t = cwd::resolve_path(&t).unwrap_or(t);
            (op.clone(), t)
        })
        .collect()
}
