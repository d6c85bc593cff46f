//! `redact-secrets`: one table of secrets per format, several spellings each.
//! Every secret is built at run time from parts, so no key-shaped literal
//! sits in the repository.

use hookrun_guards::redact::Redactor;

use crate::redact_gen::{an, b64, chars, digits, hex, upper32, url};

/// (rule, text, secret): the text must come out with `[REDACTED:rule]` and
/// without the secret.
pub(crate) fn cases() -> Vec<(&'static str, String, String)> {
    let mut c: Vec<(&'static str, String, String)> = Vec::new();
    let mut add = |rule: &'static str, text: String, secret: String| c.push((rule, text, secret));
    let mut s = 0u64;
    let mut seed = || {
        s += 1;
        s
    };

    for p in [
        "AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "ABIA", "A3TX",
    ] {
        let k = format!("{p}{}", upper32(16, seed()));
        add("aws-access-key-id", format!("id {k} ok"), k.clone());
    }
    let k = format!("{}{}", "AKIA", upper32(16, seed()));
    add(
        "aws-access-key-id",
        format!("{{\"AccessKeyId\": \"{k}\"}}"),
        k,
    );
    for tpl in [
        "aws_secret_access_key = {}",
        "AWS_SECRET_ACCESS_KEY={}",
        "{\"SecretAccessKey\": \"{}\", \"x\": 1}",
        "aws_secret_key: {}",
        "export AWS_SECRET_ACCESS_KEY=\"{}\"",
        "AwsSecret => '{}'",
    ] {
        let v = format!("{}9/{}", b64(19, seed()), b64(19, seed()));
        add("aws-secret-access-key", tpl.replace("{}", &v), v);
    }

    for p in ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"] {
        let t = format!("{p}{}", an(36, seed()));
        add("github-token", format!("token {t}"), t);
    }
    let t = format!("{}{}", "ghp_", an(36, seed()));
    add("github-token", format!("Authorization: token {t}\n"), t);
    let t = format!("{}{}", "ghs_", an(36, seed()));
    add(
        "github-token",
        format!("https://x-access-token:{t}@github.com/o/r.git"),
        t,
    );
    for _ in 0..2 {
        let t = format!("{}{}_{}", "github_", "pat_", an(22, seed())) + &an(59, seed());
        add("github-fine-grained-token", format!("GH={t}"), t);
    }
    for p in ["glpat-", "glptt-", "gldt-", "glrt-"] {
        let t = format!("{p}{}", url(20, seed()));
        add("gitlab-token", format!("PRIVATE-TOKEN: {t}"), t);
    }

    for p in ["xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe-"] {
        let t = format!(
            "{p}{}-{}-{}",
            digits(12, seed()),
            digits(13, seed()),
            an(24, seed())
        );
        add("slack-token", format!("SLACK {t}"), t);
    }
    for _ in 0..2 {
        let t = format!(
            "{}{}-{}-{}",
            "xapp-1-A",
            upper32(10, seed()),
            digits(13, seed()),
            hex(64, seed())
        );
        add("slack-app-token", format!("app token: {t}"), t);
    }
    let h = format!(
        "{}{}/B{}/{}",
        "https://hooks.slack.com/services/T",
        upper32(10, seed()),
        upper32(10, seed()),
        an(24, seed())
    );
    add("slack-webhook", format!("curl -X POST {h}"), h);

    for p in ["sk_live_", "sk_test_", "rk_live_", "rk_test_"] {
        for n in [24, 99] {
            let k = format!("{p}{}", an(n, seed()));
            add("stripe-key", format!("stripe.api_key = {k}"), k);
        }
    }
    for _ in 0..2 {
        let k = format!("{}{}", "whsec_", an(32, seed()));
        add("stripe-webhook-secret", format!("endpoint secret {k}"), k);
    }

    for tpl in ["key={}&q=x", "\"apiKey\": \"{}\"", "{} in the map url"] {
        let k = format!("{}{}", "AIza", url(35, seed()));
        add("google-api-key", tpl.replace("{}", &k), k);
    }

    for p in ["api03-", "admin01-"] {
        for tpl in ["x-api-key: {}", "ANTHROPIC_API_KEY={}"] {
            let k = format!("{}{p}{}AA", "sk-ant-", url(93, seed()));
            add("anthropic-key", tpl.replace("{}", &k), k);
        }
    }
    for p in ["proj-", "svcacct-", "admin-", "None-"] {
        let k = format!("{}{p}{}", "sk-", url(74, seed()));
        add("openai-key", format!("Bearer {k}"), k);
    }
    for _ in 0..3 {
        let k = format!("{}{}{}{}", "sk-", an(20, seed()), "T3Blbk", "FJ") + &an(20, seed());
        add("openai-legacy-key", format!("openai.api_key = {k}"), k);
    }

    for tpl in [
        "//registry.npmjs.org/:_authToken={}",
        "NPM: {}",
        "\"token\": \"{}\"",
    ] {
        let k = format!("{}{}", "npm_", an(36, seed()));
        add("npm-token", tpl.replace("{}", &k), k);
    }
    for tpl in ["password = {}", "twine upload -p {} dist/*"] {
        let k = format!("{}{}{}", "pypi-", "AgEIcHlwaS5vcmc", url(70, seed()));
        add("pypi-token", tpl.replace("{}", &k), k);
    }
    for tpl in ["hf {}", "HF_TOKEN={}", "login(token=\"{}\")"] {
        let k = format!(
            "{}{}",
            "hf_",
            chars(
                "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                34,
                seed()
            )
        );
        add("huggingface-token", tpl.replace("{}", &k), k);
    }
    for tpl in ["sg {}", "SENDGRID_API_KEY={}"] {
        let k = format!("{}{}.{}", "SG.", url(22, seed()), url(43, seed()));
        add("sendgrid-key", tpl.replace("{}", &k), k);
    }

    for tpl in [
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={};EndpointSuffix=core.windows.net",
        "AZURE_STORAGE_KEY={}",
        "azure_storage_account_key: \"{}\"",
    ] {
        let k = format!("{}==", b64(86, seed()));
        add("azure-storage-key", tpl.replace("{}", &k), k);
    }
    let k = format!("{}=", b64(43, seed()));
    add(
        "azure-storage-key",
        format!(
            "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=R;SharedAccessKey={k}"
        ),
        k,
    );
    let sig = format!("{}%2B{}%3D", an(30, seed()), an(10, seed()));
    add(
        "azure-sas-signature",
        format!("https://a.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig={sig}"),
        sig,
    );

    for tpl in ["sid {}", "TWILIO_API_KEY: {}", "\"{}\""] {
        let k = format!("{}{}", "SK", hex(32, seed()));
        add("twilio-api-key", tpl.replace("{}", &k), k);
    }
    let tok = hex(32, seed());
    add(
        "twilio-credentials",
        format!("curl -u AC{}:{tok} https://api.twilio.com", hex(32, seed())),
        tok,
    );
    for tpl in ["TWILIO_AUTH_TOKEN={}", "twilio.authToken = \"{}\""] {
        let tok = hex(32, seed());
        add("twilio-auth-token", tpl.replace("{}", &tok), tok);
    }

    for tpl in [
        "Authorization: Bearer {}",
        "{\"id_token\":\"{}\"}",
        "jwt={}",
    ] {
        let j = format!(
            "{}{}.{}{}.{}",
            "eyJ",
            url(30, seed()),
            "eyJ",
            url(60, seed()),
            url(43, seed())
        );
        add("jwt", tpl.replace("{}", &j), j);
    }

    let (begin, end, key) = ("-----BEGIN ", "-----END ", "PRIVATE KEY-----");
    for kind in ["RSA ", "EC ", "OPENSSH ", "", "ENCRYPTED ", "DSA "] {
        let body = format!("{}\n{}", b64(64, seed()), b64(40, seed()));
        let pem = format!("{begin}{kind}{key}\n{body}\n{end}{kind}{key}");
        add("private-key", format!("cat id\n{pem}\n$ "), body);
    }
    let body = b64(64, seed());
    add(
        "private-key",
        format!("{begin}{key}\n{body}\n[output truncated]"),
        body,
    );
    add(
        "private-key",
        format!("{begin}RSA {key}"),
        format!("{begin}RSA {key}"),
    );
    let body = b64(64, seed());
    add(
        "private-key",
        format!("{{\"private_key\": \"{begin}{key}\\n{body}\\n\"}}"),
        body,
    );
    let body = b64(64, seed());
    add(
        "private-key",
        format!("{begin}PGP PRIVATE KEY BLOCK-----\n\n{body}\n{end}PGP PRIVATE KEY BLOCK-----"),
        body,
    );

    for scheme in ["postgres", "mysql", "mongodb+srv", "amqp", "https", "redis"] {
        let pw = format!("{}9", an(12, seed()));
        let user = if scheme == "redis" { "" } else { "app" };
        add(
            "url-password",
            format!("{scheme}://{user}:{pw}@db.internal:5432/x"),
            pw,
        );
    }

    for tpl in [
        "PASSWORD={}",
        "DB_PASSWORD='{}'",
        "export API_KEY=\"{}\"",
        "SECRET_KEY={} ./manage.py",
        "docker run -e POSTGRES_PASSWORD={} postgres",
        "CLIENT_SECRET={}",
        "DB_PASS={}",
        "MY_APIKEY={}",
        "password = \"{}\"",
        "{\"password\": \"{}\"}",
        "apiKey: '{}',",
        "$db_password = '{}';",
        ":password => \"{}\"",
        "clientSecret := \"{}\"",
        "access_token=\"{}\"",
        "password: {}",
        "  api_key: {}",
        "- secret: {}",
        "auth_key: {}",
        "password={}",
        "export db_password={}",
        "PGPASSWORD={} psql",
        "AUTHTOKEN={}",
        "[client]\npassword={}\n",
        "mysql --password={} -u root",
        "https://api.x.io/v1?user=a&password={}&x=1",
        "curl -d token={} https://x.io",
    ] {
        let v = format!("{}-{}!", an(8, seed()), digits(4, seed()));
        add("secret-assignment", tpl.replace("{}", &v), v);
    }
    // Known prefixes right after a letter: an ANSI colour code, a name.
    let k = format!("ghp_{}", an(36, seed()));
    add("github-token", format!("\x1b[32m{k}\x1b[0m"), k.clone());
    add("github-token", format!("MY_{k}"), k);
    let k = format!("xoxb-{}-{}", digits(12, seed()), an(24, seed()));
    add("slack-token", format!("tok{k}"), k);
    let k = format!("sk-ant-api03-{}", an(40, seed()));
    add("anthropic-key", format!("key:{k}"), k);
    c
}

#[test]
fn redact_every_format_in_the_table() {
    let r = Redactor::default_set();
    let cases = cases();
    assert!(cases.len() >= 100, "{} cases", cases.len());
    for (rule, text, secret) in &cases {
        let (out, n) = r.text(text);
        assert!(n >= 1, "{rule}: not found in {text:?}");
        assert!(
            out.contains(&format!("[REDACTED:{rule}]")),
            "{rule}: {text:?} -> {out:?}"
        );
        assert!(
            !out.contains(secret.as_str()),
            "{rule}: {text:?} -> {out:?}"
        );
        // Redacting twice changes nothing.
        assert_eq!(r.text(&out), (out.clone(), 0), "{rule}: {text:?}");
    }
}
