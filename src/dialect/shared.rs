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
    let mut stderr: Vec<String> = Vec::new();
    if exit_code == 2 {
        stderr.push(reason.unwrap_or("blocked by hook").to_owned());
    }
    stderr.extend(
        notices
            .iter()
            .map(|n| crate::dialect::shared::notice_line(n)),
    );
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
