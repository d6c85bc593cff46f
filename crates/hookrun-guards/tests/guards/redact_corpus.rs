//! `redact-secrets` leaves ordinary text alone: a named corpus of prose,
//! source code, lock files, hashes, ids, images and documented placeholders.

use hookrun_guards::redact::Redactor;

use crate::redact_gen::{an, chars, digits};

fn base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..=c.len() {
            out.push(char::from(A[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    while out.len() % 4 != 0 {
        out.push('=');
    }
    out
}

const PROSE: &str = "Ask the user before deleting files. The task-runner uses sk-learn \
and scikit-learn; AKIA is the prefix of AWS key ids, eyJ starts a JWT, and ghp_ a \
GitHub token. Never paste your password or API key into chat: rotate the secret, \
then set the token in the vault. BEGIN PRIVATE KEY is mentioned here. The key AIza is short.";

const RUST: &str = r#"pub struct Config { pub password: String, pub token: Option<String> }
fn login(password: &str, api_key: &str) -> Result<Token, Error> {
    let token = client.authenticate(password, api_key)?;
    let secret = std::env::var("APP_SECRET").unwrap_or_default();
    match kind { Kind::Token => "token", Kind::Secret => "secret" };
    if password == "" { return Err(Error::EmptyPassword); }
    Ok(token)
}"#;

const PYTHON: &str = r#"import os
API_KEY = os.environ["API_KEY"]
password = getpass.getpass("Password: ")
token: str = ""
secret_key: Optional[str] = None
def connect(user, password=None, token=settings.TOKEN):
    headers = {"Authorization": f"Bearer {token}"}
    max_tokens = 4096
"#;

const JS: &str = r#"const token = req.headers['x-token'];
interface Credentials { password: string; apiKey?: string }
export const API_KEY = process.env.API_KEY ?? '';
const tokenizer = "gpt2";
const { secret } = await vault.read(path);
password: string
"#;

const CARGO_LOCK: &str = r#"[[package]]
name = "regex"
version = "1.13.2"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "b544ef1b4eac5dc2db33ea63606ae9ffcfac26c1416a2806ae0bf5f56b201191"
dependencies = [
 "aho-corasick",
 "memchr",
]"#;

const PACKAGE_LOCK: &str = r#"    "node_modules/lodash": {
      "version": "4.17.21",
      "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz",
      "integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg==",
      "license": "MIT"
    },"#;

const PLACEHOLDERS: &str = r#"password = ""
PASSWORD=changeme
API_KEY=<your-api-key>
TOKEN=${GITHUB_TOKEN}
PASSWORD=$DB_PASSWORD
SECRET_KEY=xxxxxxxxxxxx
password: xxx
secret: "***"
token: "{{ secrets.TOKEN }}"
api_key: "your_api_key_here"
password: "example-password"
DB_PASSWORD=
export API_KEY="..."
GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}
private_key: "/etc/ssl/private/server.key"
postgres://user:password@localhost:5432/app
https://user:${PASS}@example.com/
AccountKey=<storage-account-key>
token: !vault |
password: REPLACE_ME
secret: [REDACTED]
"#;

fn corpus() -> Vec<(&'static str, String)> {
    let mut c: Vec<(&'static str, String)> = [
        ("prose", PROSE),
        ("rust source", RUST),
        ("python source", PYTHON),
        ("js source", JS),
        ("cargo lock", CARGO_LOCK),
        ("package lock", PACKAGE_LOCK),
        ("documented placeholders", PLACEHOLDERS),
        (
            "public key and certificate",
            "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n\
             -----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
        ),
        (
            "env output",
            "PWD=/home/dev/project\nOLDPWD=/home/dev\nSSH_AUTH_SOCK=/tmp/ssh-abc/agent.42\n\
             TOKENIZERS_PARALLELISM=false\nHISTCONTROL=ignoredups\nCOLORTERM=truecolor\n\
             PASSWORD_MIN_LENGTH=12\nTOKEN_URL=https://auth.example.com/token",
        ),
        (
            "model usage json",
            r#"{"input_tokens": 1200, "output_tokens": 88, "max_tokens": 4096, "token_type": "Bearer", "secret_name": "db-creds"}"#,
        ),
        (
            "urls",
            "https://example.com:8443/path?q=a:b and git@github.com:o/r.git and \
             ssh://git@host:22/r and https://docs.rs/regex/latest/regex/#syntax",
        ),
        (
            "cli help",
            "--token <TOKEN>  the API token\n--password-file <PATH>\nSet PASSWORD to the \
             database password. Use `api_key = \"\"` to disable.",
        ),
    ]
    .into_iter()
    .map(|(n, t)| (n, t.to_owned()))
    .collect();
    let hex = "0123456789abcdef";
    let commits: Vec<String> = (0..20)
        .map(|i| format!("{} commit message {i}", chars(hex, 40, i)))
        .collect();
    c.push(("git commit hashes", commits.join("\n")));
    let sums: Vec<String> = (0..20)
        .map(|i| format!("{}  file{i}.tar.gz", chars(hex, 64, 100 + i)))
        .collect();
    c.push(("sha256 sums", sums.join("\n")));
    let uuids: Vec<String> = (0..20)
        .map(|i| {
            let h = chars(hex, 32, 200 + i);
            format!(
                "{}-{}-{}-{}-{}",
                &h[..8],
                &h[8..12],
                &h[12..16],
                &h[16..20],
                &h[20..]
            )
        })
        .collect();
    c.push(("uuids", uuids.join("\n")));
    let image: Vec<u8> = b"\x89PNG\r\n\x1a\n"
        .iter()
        .copied()
        .chain(an(6000, 7).bytes().map(|b| b.wrapping_mul(37)))
        .collect();
    c.push((
        "base64 image",
        format!("<img src=\"data:image/png;base64,{}\">", base64(&image)),
    ));
    c.push((
        "identifiers",
        format!(
            "request_id={} trace {}",
            an(20, 9).to_lowercase(),
            chars(hex, 32, 11)
        ),
    ));
    c
}

#[test]
fn redact_leaves_ordinary_text_alone() {
    let r = Redactor::default_set();
    for (name, text) in corpus() {
        let found: Vec<(String, &str)> = r
            .find(&text)
            .into_iter()
            .map(|(range, marker)| (text[range].to_owned(), marker))
            .collect();
        assert!(found.is_empty(), "{name}: {found:?}");
    }
}

#[test]
fn redact_keeps_the_key_of_an_assignment() {
    let v = format!("{}-{}", an(10, 1), digits(4, 2));
    let (out, n) = Redactor::default_set().text(&format!("DB_PASSWORD=\"{v}\" rest"));
    assert_eq!(n, 1);
    assert_eq!(out, "DB_PASSWORD=\"[REDACTED:secret-assignment]\" rest");
}

#[test]
fn redact_counts_overlapping_rules_once() {
    let t = format!("{}{}", "ghp_", an(36, 3));
    let (out, n) = Redactor::default_set().text(&format!("GITHUB_TOKEN={t}\ntoken: {t}"));
    assert_eq!(n, 2, "{out}");
    assert_eq!(
        out,
        "GITHUB_TOKEN=[REDACTED:github-token]\ntoken: [REDACTED:github-token]"
    );
}

#[test]
fn redact_custom_patterns_use_the_plain_marker_and_the_s_group() {
    use hookrun_guards::redact::Options;
    let r = Redactor::new(Options {
        patterns: None,
        extra_patterns: vec![r"\bacme-(?P<s>[0-9]{8,})\b".into()],
    })
    .unwrap();
    let n = digits(10, 4);
    assert_eq!(
        r.text(&format!("id acme-{n} end")),
        ("id acme-[REDACTED] end".to_owned(), 1)
    );
    let only = Redactor::new(Options {
        patterns: Some(vec![r"\bacme-[0-9]{8,}\b".into()]),
        extra_patterns: Vec::new(),
    })
    .unwrap();
    let t = format!("{}{}", "ghp_", an(36, 5));
    assert_eq!(only.text(&t), (t.clone(), 0));
    assert!(
        Redactor::new(Options {
            patterns: Some(vec!["(".into()]),
            extra_patterns: Vec::new(),
        })
        .is_err()
    );
}
