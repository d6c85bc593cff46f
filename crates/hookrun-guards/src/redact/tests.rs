//! Unit tests of `redact.rs`: lazy compilation behind the anchors.
use super::*;

/// The default rules compile only when a text needs them: each must
/// compile, in the ASCII mode they are built in.
#[test]
fn every_default_rule_compiles_and_has_anchors() {
    let r = Redactor::new(Options::default()).expect("defaults");
    assert!(r.automaton().is_some(), "the anchors build");
    for (rule, def) in r.rules.iter().zip(RULES) {
        assert!(rule.regex().is_some(), "{} does not compile", def.name);
        assert!(!def.anchors.is_empty(), "{} has no anchor", def.name);
    }
}

/// Ordinary text compiles no rule; text with an anchor compiles only
/// the rules that anchor belongs to.
#[test]
fn rules_compile_only_when_their_anchor_appears() {
    let r = Redactor::new(Options::default()).expect("defaults");
    assert_eq!(r.text("ls -la /tmp && echo done").1, 0);
    assert!(r.rules.iter().all(|c| c.re.get().is_none()));
    let key = format!("ghp_{}", "a1B2".repeat(9));
    assert_eq!(r.text(&format!("token is {key}")).1, 1);
    let compiled: Vec<&str> = r
        .rules
        .iter()
        .zip(RULES)
        .filter(|(c, _)| c.re.get().is_some())
        .map(|(_, d)| d.name)
        .collect();
    assert!(compiled.contains(&"github-token"), "{compiled:?}");
    assert!(!compiled.contains(&"jwt"), "{compiled:?}");
}

/// A custom pattern is compiled when the guard is built, so a bad one
/// is an error then.
#[test]
fn a_bad_custom_pattern_is_an_error_at_load() {
    let o = Options {
        patterns: None,
        extra_patterns: vec!["(unclosed".into()],
    };
    let err = Redactor::new(o).expect_err("bad regex");
    assert!(err.contains("(unclosed"), "{err}");
}
