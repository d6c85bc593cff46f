//! Properties of the merge (proptest): deny dominates whatever the order;
//! reasons, contexts and rewrites come in config order, whatever order the
//! hooks are listed in or finish in; a hook that gives no answer never
//! changes the result.
//!
//! Every hook's answer carries its own id (`deny 3`, `ctx 3`, `ls 3`), so a
//! merge that read answers in any other order than the config's, sorted them
//! or dropped one would show in the result.

use hookrun::internals::answer::Answer;
use hookrun::internals::config::FailMode;
use hookrun::internals::decision::{Decision, Input, Permission, merge};
use hookrun::internals::events::Family;
use hookrun::internals::exec::{Captured, HookRun, RunStatus};
use proptest::prelude::*;
use serde_json::json;

use crate::support::{HookTest, cmd, finish, settings};

/// One hook in a generated config: the kind of answer it gives and its id.
type Hook = (u8, usize);

/// What a hook of `kind` prints: nothing, allow, ask, defer, deny (each with
/// a reason naming the hook), or a context and a rewrite of the command.
fn stdout_of((kind, id): Hook) -> String {
    let permission = |p: &str| {
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": p, "permissionDecisionReason": format!("{p} {id}")}}).to_string()
    };
    match kind {
        0 => String::new(),
        1 => permission("allow"),
        2 => permission("ask"),
        3 => permission("defer"),
        4 => permission("deny"),
        _ => json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": format!("ctx {id}"), "updatedInput": {"command": format!("ls {id}")}}}).to_string(),
    }
}

fn answer(hook: Hook) -> Answer {
    let run = HookRun {
        status: RunStatus::Exited(0),
        stdout: Captured {
            bytes: stdout_of(hook).into_bytes(),
            dropped: 0,
        },
        stderr: Captured::default(),
        leaked: false,
        duration: std::time::Duration::ZERO,
        started: std::time::Instant::now(),
        pid: None,
        in_process: false,
    };
    hookrun::internals::answer::classify("PreToolUse", "cmd", &run)
}

/// The merge of `hooks`, listed in this config order.
fn decide(hooks: &[Hook]) -> Decision {
    let answers: Vec<Answer> = hooks.iter().map(|h| answer(*h)).collect();
    let inputs: Vec<Input<'_>> = hooks
        .iter()
        .zip(&answers)
        .map(|((_, id), a)| Input {
            name: format!("h{id}"),
            label: format!("h{id}"),
            fail_mode: FailMode::Open,
            answer: a,
            on_failure_note: None,
        })
        .collect();
    let fields = json!({"tool_input": {"command": "ls"}});
    merge(
        "PreToolUse",
        Family::PreTool,
        fields.as_object().unwrap(),
        &inputs,
        &[],
    )
}

/// Hooks of these kinds, with ids in config order.
fn numbered(kinds: &[u8]) -> Vec<Hook> {
    kinds.iter().copied().zip(0..).collect()
}

fn permission_of(kind: u8) -> Option<Permission> {
    match kind {
        1 => Some(Permission::Allow),
        2 => Some(Permission::Ask),
        3 => Some(Permission::Defer),
        4 => Some(Permission::Deny),
        _ => None,
    }
}

fn precedence(kinds: &[u8]) -> Option<Permission> {
    kinds.iter().filter_map(|k| permission_of(*k)).max()
}

/// A deterministic shuffle from the seed.
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut s = seed;
    for i in (1..items.len()).rev() {
        s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        items.swap(i, (s >> 33) as usize % (i + 1));
    }
}

proptest! {
    #[test]
    fn deny_dominates_in_any_order(kinds in prop::collection::vec(0u8..6, 1..8), seed in any::<u64>()) {
        let mut shuffled = numbered(&kinds);
        shuffle(&mut shuffled, seed);
        let (a, b) = (decide(&numbered(&kinds)), decide(&shuffled));
        prop_assert_eq!(a.permission, precedence(&kinds));
        prop_assert_eq!(a.permission, b.permission);
        prop_assert_eq!(a.blocked, kinds.contains(&4));
        prop_assert_eq!(b.blocked, kinds.contains(&4));
        if kinds.contains(&4) {
            prop_assert!(a.updated_input.is_none());
        }
    }

    /// The same hooks listed in any order: the reasons of the winning
    /// permission, the contexts and the rewrite that wins are those of the
    /// order given, hook by hook.
    #[test]
    fn reasons_contexts_and_rewrites_come_in_config_order(kinds in prop::collection::vec(0u8..6, 0..8), seed in any::<u64>()) {
        let mut hooks = numbered(&kinds);
        shuffle(&mut hooks, seed);
        let d = decide(&hooks);
        let winner = precedence(&kinds);
        let reasons: Vec<String> = hooks
            .iter()
            .filter(|(k, _)| winner.is_some() && permission_of(*k) == winner)
            .map(|(k, id)| format!("{} {id}", permission_of(*k).map_or("", Permission::as_str)))
            .collect();
        let contexts: Vec<String> = hooks
            .iter()
            .filter(|(k, _)| *k == 5)
            .map(|(_, id)| format!("ctx {id}"))
            .collect();
        let rewrite = hooks
            .iter()
            .rfind(|(k, _)| *k == 5)
            .filter(|_| !matches!(winner, Some(Permission::Deny | Permission::Defer)))
            .map(|(_, id)| json!({"command": format!("ls {id}")}));
        prop_assert_eq!(d.permission, winner);
        prop_assert_eq!(d.reasons, reasons);
        prop_assert_eq!(d.contexts, contexts);
        prop_assert_eq!(d.updated_input.map(serde_json::Value::Object), rewrite);
    }

    #[test]
    fn a_hook_without_an_answer_changes_nothing(kinds in prop::collection::vec(0u8..6, 0..8), at in 0usize..8) {
        let mut with = numbered(&kinds);
        with.insert(at.min(kinds.len()), (0, 99));
        prop_assert_eq!(serde_json::to_string(&decide(&numbered(&kinds))).unwrap(), serde_json::to_string(&decide(&with)).unwrap());
    }
}

/// A PreToolUse config whose hook `i` prints the answer of `hooks[i]` after
/// `delays[i]` hundredths of a second. The delay is read from a file, so the
/// commands, which name the hooks in messages, are the same whatever the
/// delays.
fn finishing_after(hooks: &[Hook], delays: &[u64]) -> HookTest {
    let commands: Vec<_> = (0..hooks.len())
        .map(|i| cmd(&format!("sleep \"$(cat d{i})\"; cat a{i}.json")))
        .collect();
    let mut t = HookTest::new().json(settings("PreToolUse", "Bash", json!(commands)));
    for (i, (hook, delay)) in hooks.iter().zip(delays).enumerate() {
        t = t
            .file(&format!("a{i}.json"), &stdout_of(*hook))
            .file(&format!("d{i}"), &format!("0.{delay:02}"));
    }
    t.pre_tool_use("ls")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Real hooks that finish in config order and the same hooks finishing
    /// in a shuffled order give the same decision. Two hooks always add a
    /// context, so an answer taken in finishing order would show.
    #[test]
    fn the_decision_does_not_depend_on_which_hook_finishes_first(kinds in prop::collection::vec(0u8..6, 0..3), seed in any::<u64>()) {
        let mut kinds = kinds;
        kinds.extend([5, 5]);
        shuffle(&mut kinds, seed);
        let hooks = numbered(&kinds);
        // 40 ms apart, in config order in the first run and in another
        // order in the second.
        let in_order: Vec<u64> = (0..hooks.len() as u64).map(|i| i * 4).collect();
        let mut shuffled = in_order.clone();
        shuffle(&mut shuffled, seed.rotate_left(32));
        if shuffled == in_order {
            shuffled.reverse();
        }
        let (a, b) = (finishing_after(&hooks, &in_order), finishing_after(&hooks, &shuffled));
        let start = std::time::Instant::now();
        let (ra, rb) = (a.spawn(), b.spawn());
        let (oa, ob) = (finish(ra, start), finish(rb, start));
        prop_assert_eq!(oa.code, i32::from(kinds.contains(&4)) * 2, "{:?}", oa);
        for (_, id) in hooks.iter().filter(|(k, _)| *k == 5) {
            prop_assert!(oa.stdout.contains(&format!("ctx {id}")), "{:?}", oa);
        }
        prop_assert_eq!((oa.code, &oa.stdout), (ob.code, &ob.stdout), "finishing in config order, then in the order {:?}", shuffled);
    }
}
