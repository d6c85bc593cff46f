use super::*;
use crate::builtin::destructive::RM;

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

#[test]
fn long_options_match_by_unique_prefix() {
    let a = parse(&RM, &words("--recur --forc /"));
    assert!(a.has('r', "recursive") && a.has('f', "force"));
    assert_eq!(a.operands, ["/"]);
    // `--pres` is a prefix of one name only; `--p` of none unambiguously
    // once `--no-…` is excluded, but `--` + `no-p` is unique.
    assert!(parse(&RM, &words("--no-p /")).has('\0', "no-preserve-root"));
    assert!(!parse(&RM, &words("--pres /")).has('\0', "no-preserve-root"));
}

#[test]
fn options_after_operands_and_double_dash() {
    let a = parse(&RM, &words("/ -rf"));
    assert!(a.has('r', "") && a.has('f', ""));
    let a = parse(&RM, &words("-- -rf /"));
    assert!(!a.has('r', ""));
    assert_eq!(a.operands, ["-rf", "/"]);
}

#[test]
fn values_attached_separate_and_optional() {
    let spec = Spec {
        short_value: "ue",
        short_optional: "i",
        long: &[("user", true)],
        permute: false,
    };
    let a = parse(&spec, &words("-u root -eX -i.save --us=bob rm -rf /"));
    assert_eq!(a.value('u', "user"), Some("bob"));
    assert_eq!(a.value('e', ""), Some("X"));
    assert_eq!(a.value('i', ""), Some(".save"));
    assert_eq!(a.rest, 5);
    assert!(a.operands.is_empty());
    let a = parse(&spec, &words("-u"));
    assert_eq!(a.value('u', "user"), None);
}
