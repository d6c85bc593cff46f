//! Small pieces several dialects share: mapping an agent's event names,
//! translating an agent's answer into a Claude-shaped one, and a JSON
//! rendering with notices. A leaf: it knows no dialect.

use serde_json::{Map, Value};

use crate::answer::Answer;
use crate::exec::HookRun;
use crate::rendered::Rendered;

/// The caller's event name (`hook_event_name`), and hookrun's name for it
/// through an agent's table of (theirs, hookrun's) names.
pub(crate) fn mapped_name(obj: &Map<String, Value>, table: &[(&str, &str)]) -> (String, String) {
    let given = obj
        .get("hook_event_name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let name = table
        .iter()
        .find(|(theirs, _)| *theirs == given)
        .map_or_else(|| given.clone(), |(_, ours)| (*ours).to_owned());
    (given, name)
}

/// An answer built from a Claude-shaped JSON object as if a hook had
/// printed it with exit 0 (how other dialects' answers are translated).
#[must_use]
pub(crate) fn answer_from_json(
    event: &str,
    label: &str,
    run: &HookRun,
    json: &Value,
    status: i32,
) -> Answer {
    let mut synthetic = run.clone();
    synthetic.status = crate::exec::RunStatus::Exited(status);
    synthetic.stdout = crate::exec::Captured {
        bytes: json.to_string().into_bytes(),
        dropped: 0,
    };
    crate::answer::classify(event, label, &synthetic)
}

/// A rendered JSON decision with `notices` on stderr.
pub(crate) fn rendered(
    obj: &Value,
    exit_code: u8,
    reason: Option<&str>,
    notices: &[String],
) -> Rendered {
    let mut stderr = notice_lines(notices);
    if exit_code == 2 {
        put_reason_first(&mut stderr, reason.unwrap_or("blocked by hook"));
    }
    Rendered {
        stdout: obj.to_string(),
        stderr,
        exit_code,
    }
}

/// `bash -c`: how Gemini CLI and Copilot CLI run a hook's command line.
pub(crate) fn bash_c() -> Option<(String, Vec<String>)> {
    Some(("bash".to_owned(), vec!["-c".to_owned()]))
}

/// A notice as a line of hookrun's stderr: prefixed `hookrun:` once, also
/// when it is hookrun's own reason (which starts so already).
pub(crate) fn notice_line(notice: &str) -> String {
    if notice.starts_with("hookrun: ") {
        notice.to_owned()
    } else {
        format!("hookrun: {notice}")
    }
}

/// Notices as lines of hookrun's stderr, in order.
pub(crate) fn notice_lines<'a>(notices: impl IntoIterator<Item = &'a String>) -> Vec<String> {
    notices.into_iter().map(|n| notice_line(n)).collect()
}

/// Puts a block's reason first on stderr, where the agents that read it as
/// the reason find it: once (a notice repeating a line of it is dropped, as
/// hookrun's own failure is both the reason and a message for the user),
/// and without trailing newlines, as each stderr line gets one.
pub(crate) fn put_reason_first(stderr: &mut Vec<String>, reason: &str) {
    stderr.retain(|line| !reason.split('\n').any(|r| r == line));
    stderr.insert(0, reason.trim_end_matches('\n').to_owned());
}

/// An exit-2 block in the hook's own words: without the `[command]: ` that
/// Claude Code puts before a hook's stderr for its model, trimmed, and
/// `Blocked by hook` where the hook wrote nothing. For the agents that show
/// the model the hook's stderr as written.
pub(crate) fn unlabel_block(answer: &mut Answer, label: &str) {
    if let Some(block) = answer.blocking_error.as_mut()
        && let Some(text) = block.strip_prefix(&format!("[{label}]: "))
    {
        *block = match text.trim() {
            "" | "No stderr output" => "Blocked by hook".to_owned(),
            words => words.to_owned(),
        };
    }
}

/// The notice for a tool output a hook replaced (`redact-secrets`, a hook's
/// `updatedToolOutput`) where the agent takes no replacement: the model has
/// the original, and the user must be told so rather than trust a
/// redaction that did not happen.
pub(crate) fn output_not_replaced(agent: &str, d: &crate::decision::Decision) -> Option<String> {
    let key = ["updatedToolOutput", "updatedMCPToolOutput"]
        .into_iter()
        .find(|k| d.specific.contains_key(*k))?;
    Some(format!(
        "{agent} cannot replace what the model sees of a tool's output: the rewritten output \
         (`{key}`) was not passed on; the model has the original"
    ))
}
