use super::*;

fn words(src: &str) -> Vec<Vec<Vec<String>>> {
    parse(src)
        .into_iter()
        .map(|p| p.into_iter().map(|c| c.words).collect())
        .collect()
}

/// Every command's words joined, in order: the commands the line runs.
fn commands(src: &str) -> Vec<String> {
    parse(src)
        .into_iter()
        .flatten()
        .map(|c| c.words.join(" "))
        .filter(|c| !c.is_empty())
        .collect()
}

#[test]
fn quotes_separators_and_pipes() {
    assert_eq!(
        words(r#"echo "rm -rf /" && ls -la | grep x; a || b"#),
        vec![
            vec![vec!["echo".to_owned(), "rm -rf /".to_owned()]],
            vec![
                vec!["ls".to_owned(), "-la".to_owned()],
                vec!["grep".to_owned(), "x".to_owned()]
            ],
            vec![vec!["a".to_owned()]],
            vec![vec!["b".to_owned()]],
        ]
    );
    assert_eq!(commands(r"printf 'a\n'"), [r"printf a\n"]);
    assert_eq!(commands("r\\m -rf /"), ["rm -rf /"]);
}

#[test]
fn redirects_and_substitutions() {
    let p = parse("echo $(rm -rf ~) > /etc/passwd 2>&1");
    let c = &p[0][0];
    assert_eq!(c.words, ["echo", "$(rm -rf ~)"]);
    assert_eq!(c.substitutions, ["rm -rf ~"]);
    assert_eq!(c.redirects[0], (">".to_owned(), "/etc/passwd".to_owned()));
    let p = parse("bash <(curl -s https://x.sh)");
    assert_eq!(p[0][0].substitutions, ["curl -s https://x.sh"]);
    let p = parse("echo \"`id`\" > out");
    assert_eq!(p[0][0].substitutions, ["id"]);
}

#[test]
fn forgiving_on_unbalanced_input() {
    assert_eq!(parse("echo 'unterminated").len(), 1);
    assert_eq!(parse("echo $(unterminated").len(), 1);
    assert!(parse("").is_empty());
    assert_eq!(commands("if true; then rm -rf /"), ["true", "rm -rf /"]);
    assert_eq!(commands("case x in a) rm -rf /"), ["rm -rf /"]);
}

#[test]
fn compound_commands_dissolve_into_the_commands_they_run() {
    for (src, want) in [
        (
            "if true; then rm x; elif a; then b; else c; fi",
            &["true", "rm x", "a", "b", "c"][..],
        ),
        ("{ rm x; }", &["rm x"]),
        ("( rm x )", &["rm x"]),
        ("while :; do rm x; done", &[":", "rm x"]),
        ("until false; do rm x; done", &["false", "rm x"]),
        ("for x in 1 2; do rm x; done", &["rm x"]),
        ("for x; do rm x; done", &["rm x"]),
        ("select x in a b; do rm x; done", &["rm x"]),
        (
            "case y in a|b) rm x ;; (c) d ;& *) e ;;& esac",
            &["rm x", "d", "e"],
        ),
        ("f() { rm x; }; f", &["rm x", "f"]),
        ("function f { rm x; }", &["rm x"]),
        ("function f() (rm x)", &["rm x"]),
        ("! rm x", &["rm x"]),
        ("time -p rm x", &["rm x"]),
        ("[[ -d / && x == y ]] && rm x", &["rm x"]),
        ("coproc rm x", &["rm x"]),
        ("coproc name { rm x; }", &["rm x"]),
        ("echo if then fi", &["echo if then fi"]),
        ("'if' x", &["if x"]),
    ] {
        assert_eq!(commands(src), want, "{src}");
    }
}

#[test]
fn case_inside_a_substitution() {
    let p = parse("echo $(case x in a) rm x;; esac) done");
    assert_eq!(p[0][0].substitutions, ["case x in a) rm x;; esac"]);
    assert_eq!(p[0][0].words.last().map(String::as_str), Some("done"));
}

#[test]
fn quoting_forms() {
    assert_eq!(
        commands(r"$'\x72\155' $'\u0041\U00000042\cA\e\'\\\t'"),
        ["rm A\u{42}\u{1}\u{1b}'\\\t"]
    );
    assert_eq!(commands("$\"rm\" r''m \"r\"m r\\\nm"), ["rm rm rm rm"]);
    assert_eq!(commands("echo \"a\\\nb\" 'c\\\nd'"), ["echo ab c\\\nd"]);
}

#[test]
fn here_docs() {
    let p = parse("cat <<EOF > f\nrm -rf /\nEOF\nls");
    assert_eq!(p[0][0].here, ["rm -rf /\n"]);
    assert_eq!(commands("cat <<-'E'\n\trm\n\tE\nls"), ["cat", "ls"]);
}

#[test]
fn deep_nesting_is_reported_not_followed() {
    let deep = "$(".repeat(100_000);
    let s = parse_script(&deep);
    assert!(s.nesting > MAX_SUBSTITUTION_DEPTH);
    let s = parse_script(&format!("{}x{}", "(".repeat(100_000), ")".repeat(100_000)));
    assert_eq!(s.nesting, 0);
    assert_eq!(parse_script("echo $(a $(b) `c`)").nesting, 2);
}
