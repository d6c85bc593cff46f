//! What `dangerous-commands` concludes on R code (`r_code` reads it):
//! each command line R runs, and each file operation written as the shell
//! command doing the same, is checked exactly as that command given to
//! the shell tool (every rule, category and pattern); a file R writes is
//! checked as a redirection onto it (devices, kernel files, account
//! files); a command decoded at run time, and R code fetched from the
//! network, are denied unread, as `base64 -d | sh` and `curl … | sh` are.

use crate::dangerous::piped::Check;
use hookrun_code::r::{self as r_code, Act, Use};
use hookrun_sh::word::quoted;

/// Why R `code` is dangerous, or `None`; `check` reads shell text.
pub(crate) fn judged(code: &str, check: Check<'_>) -> Option<String> {
    r_code::each_use(code, &mut |u| judge(u, check))
}

fn judge(u: &Use, check: Check<'_>) -> Option<String> {
    let by = &u.by;
    match u.act {
        Act::Runs => check(&u.text).map(|why| format!("R `{by}(…)` runs a shell command: {why}")),
        Act::Does => check(&u.text).map(|why| format!("R `{by}(…)`: {why}")),
        Act::Writes => check(&format!(": > {}", quoted(&u.text)))
            .map(|why| format!("R `{by}(…)` writes `{}`: {why}", u.text)),
        Act::RunsDecoded => Some(format!(
            "R `{by}(…)` runs a command decoded at run time, which the guard cannot read"
        )),
        Act::RunsDownloaded => Some(format!(
            "R `{by}(…)` runs R code from the network (`{}`) unseen",
            u.text
        )),
        Act::Reads => None,
    }
}
