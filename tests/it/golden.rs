//! Golden cases per dialect, from `tests/dialects/golden.json`: a config,
//! an event as the agent sends it, and what hookrun must answer.
//!
//! Each case is its own test, named after the case (its name in snake case),
//! so a failing case is named by the test runner and the others still run.
//! The cases stay data: the list below only names them, and
//! `every_case_in_the_file_has_a_test` fails when a case is added, renamed or
//! removed in the file without the list following.

use std::path::Path;

use serde_json::Value;

use crate::support::HookTest;

/// One `#[test]` per case name, and `TESTS`, the names generated.
macro_rules! golden {
    ($($test:ident)*) => {
        /// The tests generated, one per golden case.
        const TESTS: &[&str] = &[$(stringify!($test)),*];
        $(
            #[test]
            fn $test() {
                check(stringify!($test));
            }
        )*
    };
}

golden! {
    gemini_aftertool_maps_to_posttooluse_a_block_is_a_deny
    gemini_beforeagent_maps_to_userpromptsubmit_context_is_additionalcontext
    gemini_afteragent_maps_to_stop_a_deny_forces_a_retry
    gemini_precompress_maps_to_precompact
    gemini_beforemodel_deny_blocks_the_model_call_its_request_rewrite_and_reason_kept
    gemini_beforemodel_exit_2_blocks_with_stderr_and_a_later_allow_does_not_undo_it
    gemini_aftermodel_the_later_response_replaces_the_earlier_one
    gemini_beforetoolselection_unites_function_names_and_none_wins
    gemini_beforetoolselection_none_empties_the_list
    gemini_beforetoolselection_any_answer_applies_auto
    gemini_a_timed_out_hook_is_said_by_the_exit_status_alone
    gemini_beforetoolselection_a_silent_hook_gets_an_empty_answer
    gemini_mcp_tools_keep_their_own_names_mcp_server_tool
    cursor_beforereadfile_maps_to_pretooluse_on_read
    cursor_beforemcpexecution_maps_to_pretooluse_with_the_mcp_tool
    cursor_afterfileedit_maps_to_posttooluse_on_edit_context_is_additional_context
    cursor_other_non_zero_exits_fail_open
    cursor_precompact_maps_to_precompact
    copilot_posttooluse_maps_to_posttooluse
    copilot_userpromptsubmitted_maps_to_userpromptsubmit_exit_2_blocks
    copilot_agentstop_maps_to_stop
    copilot_rewrites_travel_as_modifiedargs
    codex_other_non_zero_exits_fail_open
    pydantic_deep_after_run_is_a_lifecycle_event_its_hooks_run_answers_ignored
    deputy_pretooluse_the_guard_denies_rm_rf_on_run_bash_as_hookresultpretooluse
    deputy_pretooluse_exit_2_denies_with_the_hook_s_own_words
    deputy_pretooluse_an_allow_is_null_so_deputy_s_later_hooks_still_run
    deputy_run_r_code_is_in_the_code_family
    deputy_hooks_read_claude_code_s_field_names_beside_deputy_s
    deputy_stop_a_block_sends_the_run_on_with_hookresultstop
    deputy_stop_with_stop_hook_active_the_same_hook_lets_the_run_end
    deputy_permissionrequest_allow_is_permissionresultallow
    deputy_permissionrequest_deny_is_permissionresultdeny_with_the_message
    deputy_posttooluse_continue_false_stops_the_run
    deputy_posttooluse_a_redaction_is_passed_on_and_said_not_to_reach_the_model
    deputy_userpromptsubmit_context_deputy_ignores_is_named_not_dropped
    deputy_postmodelrequest_hooks_run_with_the_run_s_usage
}

/// Every golden case, in file order (`snapshots` runs them too).
pub(crate) fn cases() -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dialects/golden.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

pub(crate) fn name_of(case: &Value) -> &str {
    case["name"].as_str().expect("every golden case has a name")
}

/// The test name of a case: its name in lowercase, every run of other
/// characters than letters and digits one `_`.
pub(crate) fn test_name(case_name: &str) -> String {
    let mut out = String::new();
    for c in case_name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_owned()
}

/// The hookrun TOML of a case's `hooks`.
pub(crate) fn toml_of(hooks: &[Value]) -> String {
    let mut s = String::new();
    for h in hooks {
        s.push_str("[[hooks]]\n");
        for (k, v) in h.as_object().unwrap() {
            let value = match v {
                Value::String(text) => toml::Value::String(text.clone()).to_string(),
                other => other.to_string(),
            };
            s.push_str(&format!("{k} = {value}\n"));
        }
    }
    s
}

/// Runs the case whose test name is `test` and checks what hookrun answers.
fn check(test: &str) {
    let case = cases()
        .into_iter()
        .find(|c| test_name(name_of(c)) == test)
        .unwrap_or_else(|| panic!("no case in golden.json has the test name `{test}`"));
    let name = name_of(&case);
    let mut t = HookTest::new()
        .toml(&toml_of(case["hooks"].as_array().unwrap()))
        .stdin(case["event"].to_string().as_bytes());
    if let Some(d) = case["dialect"].as_str() {
        t = t.args(&["--dialect", d]);
    }
    let out = t.run();
    let expect = &case["expect"];
    assert_eq!(
        i64::from(out.code),
        expect["exit_code"].as_i64().unwrap(),
        "{name}: {out:?}"
    );
    if let Some(want) = expect.get("stdout") {
        let got: Value = serde_json::from_str(&out.stdout).unwrap_or(Value::Null);
        assert_eq!(&got, want, "{name}: {out:?}");
    }
    for needle in expect["stdout_has"].as_array().into_iter().flatten() {
        assert!(
            out.stdout.contains(needle.as_str().unwrap()),
            "{name}: {out:?}"
        );
    }
    if let Some(marker) = expect["ran"].as_str() {
        assert!(t.path().join(marker).exists(), "{name}: hook did not run");
    }
}

#[test]
fn every_case_in_the_file_has_a_test() {
    let mut in_file: Vec<String> = cases().iter().map(|c| test_name(name_of(c))).collect();
    in_file.sort();
    let count = in_file.len();
    in_file.dedup();
    assert_eq!(in_file.len(), count, "two golden cases share a test name");
    let missing: Vec<&String> = in_file
        .iter()
        .filter(|n| !TESTS.contains(&n.as_str()))
        .collect();
    let stale: Vec<&&str> = TESTS
        .iter()
        .filter(|t| !in_file.iter().any(|n| n == **t))
        .collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "add to the `golden!` list: {missing:?}; remove from it: {stale:?}"
    );
}
