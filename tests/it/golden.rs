//! Golden cases per dialect, from `tests/dialects/golden.json`: a config,
//! an event as the agent sends it, and what hookrun must answer.

use std::path::Path;

use serde_json::Value;

use crate::support::HookTest;

fn toml_of(hooks: &[Value]) -> String {
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

#[test]
fn golden_dialect_cases() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/dialects/golden.json");
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(cases.len() >= 15);
    for case in cases {
        let name = case["name"].as_str().unwrap();
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
}
