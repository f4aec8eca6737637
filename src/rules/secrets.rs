//! Credentials in a rule's text. A rule is committed and exported into every agent's file,
//! so one that holds a token, a key or a password is refused wherever a rule comes in
//! (`learn`, the MCP server, `import`, `sources`) and reported by `check`: named by its
//! kind, its value never shown. The token formats are the ones of gitleaks' ruleset
//! (<https://github.com/gitleaks/gitleaks/blob/master/config/gitleaks.toml>); beside them,
//! a long, varied value assigned to a name that says key, secret, token or password.

use std::sync::OnceLock;

use regex::Regex;

/// Each kind of credential and the pattern that finds it.
const FORMATS: [(&str, &str); 12] = [
    ("a private key", r"-----BEGIN [A-Z ]*PRIVATE KEY"),
    (
        "a GitHub token",
        r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b",
    ),
    ("a GitHub token", r"\bgithub_pat_[A-Za-z0-9_]{50,}"),
    ("a GitLab token", r"\bglpat-[A-Za-z0-9_-]{20,}"),
    (
        "an AWS access key",
        r"\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b",
    ),
    ("a Slack token", r"\bxox[baprs]-[A-Za-z0-9-]{10,}"),
    (
        "an OpenAI or Anthropic key",
        r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}",
    ),
    ("a Stripe key", r"\b[rs]k_live_[A-Za-z0-9]{20,}"),
    ("a Google API key", r"\bAIza[A-Za-z0-9_-]{35}"),
    ("an npm token", r"\bnpm_[A-Za-z0-9]{36}\b"),
    (
        "a JSON web token",
        r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
    ),
    (
        "a password in a URL",
        r"\b[a-z][a-z0-9+.-]*://[^\s/:@]+:[^\s/@]{6,}@",
    ),
];

/// A value assigned to a credential's name: `API_KEY=…`, `password: "…"`, `token …`.
const ASSIGNED: &str = r#"(?i)\b(?:[a-z0-9_-]*(?:api[_-]?key|secret|token|passw(?:or)?d|pwd|access[_-]?key|private[_-]?key)[a-z0-9_-]*)\b["']?\s*(?:[:=]|\bis\b)\s*["'`]?([^\s"'`,;]{15,}[^\s"'`,;.])"#;

fn compiled() -> &'static (Vec<(&'static str, Regex)>, Regex) {
    static COMPILED: OnceLock<(Vec<(&'static str, Regex)>, Regex)> = OnceLock::new();
    COMPILED.get_or_init(|| {
        let formats = (FORMATS.iter())
            .map(|(kind, pattern)| (*kind, Regex::new(pattern).expect("a valid pattern")))
            .collect();
        (formats, Regex::new(ASSIGNED).expect("a valid pattern"))
    })
}

/// The kind of credential `text` holds, if any.
pub(crate) fn find(text: &str) -> Option<&'static str> {
    let (formats, assigned) = compiled();
    if let Some((kind, _)) = formats.iter().find(|(_, pattern)| pattern.is_match(text)) {
        return Some(kind);
    }
    (assigned.captures_iter(text))
        .filter_map(|found| found.get(1))
        .any(|value| looks_secret(value.as_str()))
        .then_some("a secret assigned to a key, token or password name")
}

/// `text` with every credential [`find`] sees in it replaced by `[hidden]`: what a report
/// may show of a line it refused.
pub(crate) fn redacted(text: &str) -> String {
    let (formats, assigned) = compiled();
    let mut out = text.to_string();
    for (_, pattern) in formats {
        out = pattern.replace_all(&out, "[hidden]").into_owned();
    }
    let values: Vec<String> = (assigned.captures_iter(&out))
        .filter_map(|found| found.get(1))
        .map(|value| value.as_str().to_string())
        .filter(|value| looks_secret(value))
        .collect();
    for value in values {
        out = out.replace(&value, "[hidden]");
    }
    out
}

/// A value that reads as a generated secret rather than a placeholder or a variable:
/// letters and digits mixed, varied (over 3.5 bits a character), and not a reference
/// (`$VAR`, `${VAR}`, `<your-token>`, `process.env.TOKEN`).
fn looks_secret(value: &str) -> bool {
    let reference = value.starts_with(['$', '<', '{', '%'])
        || value.contains("env.")
        || value.contains("example")
        || value.chars().all(|c| c.is_ascii_uppercase() || c == '_');
    let letters = value.chars().any(|c| c.is_ascii_alphabetic());
    let digits = value.chars().any(|c| c.is_ascii_digit());
    !reference && letters && digits && entropy(value) > 3.5
}

/// Shannon entropy of `value`'s characters, in bits a character.
fn entropy(value: &str) -> f64 {
    let mut counts = std::collections::HashMap::new();
    for c in value.chars() {
        *counts.entry(c).or_insert(0usize) += 1;
    }
    let length = value.chars().count() as f64;
    (counts.values())
        .map(|&n| {
            let p = n as f64 / length;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::find;

    #[test]
    fn credentials_are_found_by_kind() {
        let cases = [
            (
                "Always call the staging API with the token ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5",
                "a GitHub token",
            ),
            (
                "Use AKIAIOSFODNN7EXAMPLE with secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                "an AWS access key",
            ),
            (
                "Never rotate -----BEGIN RSA PRIVATE KEY----- by hand",
                "a private key",
            ),
            (
                "Set DB_PASSWORD=Zx8qLm2Vt9RkP4sW in the CI settings",
                "a secret assigned to a key, token or password name",
            ),
            (
                "Connect with postgres://app:Hunter2Secret@db.internal:5432/app",
                "a password in a URL",
            ),
        ];
        for (text, kind) in cases {
            assert_eq!(find(text), Some(kind), "{text}");
        }
    }

    #[test]
    fn a_redacted_text_keeps_its_words_and_hides_the_values() {
        assert_eq!(
            super::redacted(
                "Deploy with ghp_aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5 and DB_PASSWORD=Zx8qLm2Vt9RkP4sW."
            ),
            "Deploy with [hidden] and DB_PASSWORD=[hidden]."
        );
    }

    #[test]
    fn rules_about_secrets_hold_none() {
        for text in [
            "Never log secrets - because logs are shared.",
            "Never commit the .env file - because it holds the API_KEY and the DB password.",
            "Always read the token from $GITHUB_TOKEN, never hard-code it.",
            "Use process.env.STRIPE_SECRET_KEY for the payments client.",
            "Set API_KEY=<your-key> in .env.local, never in the code.",
            "Always use pnpm to install packages - because the lockfile is pnpm-lock.yaml.",
            "Name secrets SCREAMING_SNAKE_CASE: API_TOKEN=MY_SERVICE_TOKEN_VALUE.",
            "Never use the sk-stub key outside tests.",
        ] {
            assert_eq!(find(text), None, "{text}");
        }
    }
}
