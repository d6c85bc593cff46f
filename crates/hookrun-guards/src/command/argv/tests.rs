use super::*;
use crate::dangerous::destructive::RM;

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

/// A git-like table: value flags `-b`/`-C`, long options most dangerous
/// first, an optional value with known bare words.
const GIT_LIKE: Spec = Spec {
    short_value: "bC",
    long: &[
        ("force", Takes::Nothing),
        ("force-with-lease", Takes::Optional(&[])),
        ("exclude", Takes::Value),
        ("track", Takes::Optional(&["direct"])),
        ("follow-tags", Takes::Nothing),
    ],
    ..GNU
};

#[test]
fn long_options_match_by_prefix() {
    let a = parse(&RM, &words("--recur --forc /"));
    assert!(a.has('r', "recursive") && a.has('f', "force"));
    assert_eq!(a.operands, ["/"]);
    assert!(parse(&RM, &words("--no-p /")).long("no-preserve-root"));
    assert!(!parse(&RM, &words("--pres /")).long("no-preserve-root"));
    // An unknown name is kept as written, and is no known option.
    let a = parse(&RM, &words("--frobnicate /"));
    assert_eq!(a.opts[0].name, "frobnicate");
    assert!(!a.has('f', "force"));
}

#[test]
fn an_ambiguous_prefix_reads_as_the_first_listed_most_dangerous() {
    // `--f` could be force, force-with-lease or follow-tags.
    assert!(parse(&GIT_LIKE, &words("--f")).long("force"));
    assert!(parse(&GIT_LIKE, &words("--force-w")).long("force-with-lease"));
    assert!(!parse(&GIT_LIKE, &words("--fo")).long("follow-tags"));
    assert!(parse(&GIT_LIKE, &words("--fol")).long("follow-tags"));
}

#[test]
fn options_after_operands_and_double_dash() {
    let a = parse(&RM, &words("/ -rf"));
    assert!(a.has('r', "") && a.has('f', ""));
    let a = parse(&RM, &words("-- -rf /"));
    assert!(!a.has('r', ""));
    assert_eq!(a.operands, ["-rf", "/"]);
    assert_eq!(a.after_dashdash, 2);
    assert_eq!(a.rest, 1);
}

#[test]
fn clusters_and_glued_values() {
    let a = parse(&GIT_LIKE, &words("-qbfeature -C repo x -- -f"));
    assert!(a.has('q', ""));
    assert_eq!(a.value('b', ""), Some("feature"));
    assert_eq!(a.value('C', ""), Some("repo"));
    // `f` inside `-qbfeature` is the value of `-b`, not a flag.
    assert!(!a.has('f', "force"));
    assert_eq!(a.operands, ["x", "-f"]);
    assert_eq!(a.after_dashdash, 1);
}

#[test]
fn long_values_after_equals_or_in_the_next_word() {
    let a = parse(
        &GIT_LIKE,
        &words("--exclude x --track direct main --force-with-lease=a --track up"),
    );
    assert_eq!(a.value('\0', "exclude"), Some("x"));
    assert_eq!(a.value('\0', "force-with-lease"), Some("a"));
    assert!(!a.long("force"));
    // `direct` is a known bare value of `--track`; `up` is not, so it is an
    // operand.
    assert_eq!(a.operands, ["main", "up"]);
    assert_eq!(a.opts[1].value.as_deref(), Some("direct"));
    assert_eq!(a.value('\0', "track"), None);
}

#[test]
fn values_attached_separate_and_optional_without_permuting() {
    let spec = Spec {
        short_value: "ue",
        short_optional: "i",
        long: &[("user", Takes::Value)],
        permute: false,
    };
    let a = parse(&spec, &words("-u root -eX -i.save --us=bob rm -rf /"));
    assert_eq!(a.value('u', "user"), Some("bob"));
    assert_eq!(a.value('e', ""), Some("X"));
    assert_eq!(a.value('i', ""), Some(".save"));
    assert_eq!(a.rest, 5);
    assert!(a.operands.is_empty());
    // The optional value is only ever attached: `-i rm` runs `rm`.
    let a = parse(&spec, &words("-i rm -rf /"));
    assert_eq!(a.value('i', ""), None);
    assert_eq!(a.rest, 1);
}

#[test]
fn a_missing_value_at_the_end_does_not_panic() {
    assert_eq!(parse(&GIT_LIKE, &words("-b")).value('b', ""), None);
    assert!(parse(&GIT_LIKE, &words("-b")).has('b', ""));
    assert_eq!(
        parse(&GIT_LIKE, &words("--exclude")).value('\0', "exclude"),
        None
    );
    let a = parse(&GIT_LIKE, &words("-- "));
    assert_eq!((a.after_dashdash, a.operands.len()), (0, 0));
    // A lone `-` is an operand (stdin), and a multibyte cluster is read
    // letter by letter.
    assert_eq!(parse(&GIT_LIKE, &words("- -é")).operands, ["-"]);
}
