//! Unit tests of the merge.

use super::rewrite::merge_rewrites;
use super::*;
use crate::answer::Answer;
use crate::answer::Failure;
use crate::answer::Outcome;
use crate::config::FailMode;
use serde_json::json;

fn answer(json: Value) -> Answer {
    let obj = json.as_object().cloned();
    let blocking = obj.as_ref().and_then(|o| {
        (o.get("hookSpecificOutput")?.get("permissionDecision")? == "deny")
            .then(|| "why".to_owned())
    });
    Answer {
        outcome: if blocking.is_some() {
            Outcome::Blocking
        } else {
            Outcome::Success
        },
        blocking_error: blocking,
        json: obj,
        plain_stdout: None,
        notice: None,
        failure: None,
        status: Some(0),
        raw_stdout: String::new(),
        stderr: String::new(),
    }
}

fn decide(p: &str) -> Answer {
    answer(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": p}}))
}

fn merge_pre(answers: &[Answer]) -> Decision {
    let inputs: Vec<Input<'_>> = answers
        .iter()
        .enumerate()
        .map(|(i, a)| Input {
            name: format!("h{i}"),
            label: format!("c{i}"),
            fail_mode: FailMode::Open,
            answer: a,
            on_failure_note: None,
        })
        .collect();
    let fields = json!({"tool_input": {"command": "ls", "description": "d"}});
    merge(
        "PreToolUse",
        Family::PreTool,
        fields.as_object().unwrap(),
        &inputs,
        &[],
    )
}

#[test]
fn precedence_is_independent_of_order() {
    let all = ["allow", "ask", "defer", "deny"];
    for a in all {
        for b in all {
            let one = merge_pre(&[decide(a), decide(b)]).permission;
            let two = merge_pre(&[decide(b), decide(a)]).permission;
            assert_eq!(one, two, "{a} {b}");
            assert_eq!(one, Permission::parse(a).max(Permission::parse(b)));
        }
    }
}

#[test]
fn an_empty_answer_changes_nothing() {
    let d = merge_pre(&[decide("ask"), answer(json!({}))]);
    assert_eq!(d.permission, Some(Permission::Ask));
    assert!(merge_pre(&[answer(json!({}))]).permission.is_none());
}

#[test]
fn rewrites_merge_by_key() {
    let original = json!({"command": "ls", "description": "d"});
    let a = json!({"command": "ls -a", "description": "d"});
    let b = json!({"command": "ls", "description": "d", "timeout": 5});
    let c = json!({"command": "ls -c"});
    let rewrites = vec![
        ("a".to_owned(), a.as_object().unwrap().clone()),
        ("b".to_owned(), b.as_object().unwrap().clone()),
        ("c".to_owned(), c.as_object().unwrap().clone()),
    ];
    let (merged, conflicts) = merge_rewrites(original.as_object().unwrap(), &rewrites);
    assert_eq!(
        Value::Object(merged),
        json!({"command": "ls -c", "timeout": 5})
    );
    assert_eq!(conflicts.len(), 1, "{conflicts:?}");
    assert!(conflicts[0].contains("`a` and `c`"));
}

#[test]
fn closed_failure_blocks_and_open_failure_notifies() {
    let mut failed = answer(json!({}));
    failed.json = None;
    failed.outcome = Outcome::Cancelled;
    failed.failure = Some(Failure::TimedOut { seconds: 2.0 });
    let fields = Map::new();
    let open = [Input {
        name: "g".into(),
        label: "g".into(),
        fail_mode: FailMode::Open,
        answer: &failed,
        on_failure_note: None,
    }];
    let d = merge("PreToolUse", Family::PreTool, &fields, &open, &[]);
    assert!(d.permission.is_none());
    assert!(d.system_messages[0].contains("timed out after 2s"));
    let closed = [Input {
        fail_mode: FailMode::Closed,
        ..open[0].clone()
    }];
    let d = merge("PreToolUse", Family::PreTool, &fields, &closed, &[]);
    assert_eq!(d.permission, Some(Permission::Deny));
    assert!(d.reasons[0].starts_with("[g]: timed out after 2s; blocking"));
    // Claude Code ignores onFailure on Stop.
    let d = merge("Stop", Family::Stop, &fields, &closed, &[true]);
    assert!(!d.blocked);
}
