//! Properties of the merge (proptest): deny dominates whatever the order,
//! merging is deterministic, and a hook that gives no answer never changes
//! the result.

use hookrun::answer::Answer;
use hookrun::config::FailMode;
use hookrun::decision::{Decision, Input, Permission, merge};
use hookrun::events::Family;
use hookrun::exec::{Captured, HookRun, RunStatus};
use proptest::prelude::*;

fn answer(kind: u8) -> Answer {
    let stdout = match kind {
        0 => String::new(),
        1 => r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#.into(),
        2 => r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}"#.into(),
        3 => r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}"#.into(),
        4 => r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#.into(),
        _ => r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"ctx","updatedInput":{"command":"ls -a"}}}"#.into(),
    };
    let run = HookRun {
        status: RunStatus::Exited(0),
        stdout: Captured {
            bytes: stdout.into_bytes(),
            dropped: 0,
        },
        stderr: Captured::default(),
        leaked: false,
        duration: std::time::Duration::ZERO,
        pid: None,
    };
    hookrun::answer::classify("PreToolUse", "cmd", &run)
}

fn decide(kinds: &[u8]) -> Decision {
    let answers: Vec<Answer> = kinds.iter().map(|k| answer(*k)).collect();
    let inputs: Vec<Input<'_>> = answers
        .iter()
        .enumerate()
        .map(|(i, a)| Input {
            name: format!("h{i}"),
            label: format!("h{i}"),
            fail_mode: FailMode::Open,
            answer: a,
        })
        .collect();
    let fields = serde_json::json!({"tool_input": {"command": "ls"}});
    merge(
        "PreToolUse",
        Family::PreTool,
        fields.as_object().unwrap(),
        &inputs,
        &[],
    )
}

fn precedence(kinds: &[u8]) -> Option<Permission> {
    kinds
        .iter()
        .filter_map(|k| match k {
            1 => Some(Permission::Allow),
            2 => Some(Permission::Ask),
            3 => Some(Permission::Defer),
            4 => Some(Permission::Deny),
            _ => None,
        })
        .max()
}

proptest! {
    #[test]
    fn deny_dominates_in_any_order(kinds in prop::collection::vec(0u8..6, 1..8), seed in any::<u64>()) {
        let mut shuffled = kinds.clone();
        // A deterministic shuffle from the seed.
        let mut s = seed;
        for i in (1..shuffled.len()).rev() {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            shuffled.swap(i, (s >> 33) as usize % (i + 1));
        }
        let (a, b) = (decide(&kinds), decide(&shuffled));
        prop_assert_eq!(a.permission, precedence(&kinds));
        prop_assert_eq!(a.permission, b.permission);
        prop_assert_eq!(a.blocked, kinds.contains(&4));
        if kinds.contains(&4) {
            prop_assert!(a.updated_input.is_none());
        }
    }

    #[test]
    fn merging_is_deterministic(kinds in prop::collection::vec(0u8..6, 0..8)) {
        let (a, b) = (decide(&kinds), decide(&kinds));
        prop_assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
    }

    #[test]
    fn a_hook_without_an_answer_changes_nothing(kinds in prop::collection::vec(0u8..6, 0..8), at in 0usize..8) {
        let mut with = kinds.clone();
        with.insert(at.min(kinds.len()), 0);
        prop_assert_eq!(serde_json::to_string(&decide(&kinds)).unwrap(), serde_json::to_string(&decide(&with)).unwrap());
    }
}
