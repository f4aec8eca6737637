//! A rule's check: the optional `Check` of a rule object, `{"Forbid": "REGEX"}` (no line
//! of a file in the rule's scope may match) or `{"Require": "REGEX"}` (every file in scope
//! must match somewhere), in the syntax of the `regex` crate
//! (<https://docs.rs/regex/latest/regex/#syntax>). Compiled with a size limit, so a check
//! is bounded in memory, and run in time linear in the text (the crate has no
//! backtracking). `learn` proposes one for the common shapes ([`propose`]).

use serde::Serialize;

/// The most bytes a check's pattern may hold: a pattern, not a program.
pub(crate) const MAX_PATTERN_BYTES: usize = 1024;

/// The most memory a compiled check may take (the crate's `size_limit`; its default is
/// 10 MiB, far more than one line's pattern needs). `\w{1000}` and the like are refused.
pub(crate) const MAX_COMPILED_BYTES: usize = 1 << 20;

/// Whether the pattern must not, or must, appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub(crate) enum Kind {
    Forbid,
    Require,
}

impl Kind {
    /// The key in the rules file: `Forbid` or `Require`.
    pub(crate) fn key(self) -> &'static str {
        match self {
            Kind::Forbid => "Forbid",
            Kind::Require => "Require",
        }
    }
}

/// A check as written in the rules file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Check {
    pub kind: Kind,
    pub pattern: String,
}

impl Serialize for Check {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(self.kind.key(), &self.pattern)?;
        map.end()
    }
}

/// `learn --json` reads `"Check"` as the rules file holds it.
impl<'de> serde::Deserialize<'de> for Check {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        Check::from_value(&value).map_err(serde::de::Error::custom)
    }
}

impl Check {
    /// Reads the raw JSON of a `Check` member: an object with exactly one of `Forbid` or
    /// `Require`, a string. The error says what is off.
    pub(crate) fn from_json(raw: &str) -> Result<Check, String> {
        let value: serde_json::Value =
            serde_json::from_str(raw).map_err(|_| "`Check` is not valid JSON".to_string())?;
        Check::from_value(&value)
    }

    /// [`Check::from_json`] of a value already parsed.
    pub(crate) fn from_value(value: &serde_json::Value) -> Result<Check, String> {
        let Some(object) = value.as_object() else {
            return Err(
                "`Check` must be an object: {\"Forbid\": \"REGEX\"} or {\"Require\": \"REGEX\"}"
                    .to_string(),
            );
        };
        let mut found = None;
        for (key, value) in object {
            let kind = match key.as_str() {
                "Forbid" => Kind::Forbid,
                "Require" => Kind::Require,
                other => {
                    return Err(format!(
                        "`Check` has an unknown key `{other}` (expected `Forbid` or `Require`)"
                    ));
                }
            };
            let Some(pattern) = value.as_str() else {
                return Err(format!(
                    "`Check.{key}` must be a string (a regular expression)"
                ));
            };
            if found.is_some() {
                return Err("`Check` holds both `Forbid` and `Require`; keep one".to_string());
            }
            found = Some(Check {
                kind,
                pattern: pattern.to_string(),
            });
        }
        found.ok_or_else(|| "`Check` is empty: give `Forbid` or `Require`".to_string())
    }

    /// The compiled pattern, or why it cannot be used: empty, too long, not a valid
    /// regular expression, or over the size limit.
    pub(crate) fn compile(&self) -> Result<regex::Regex, String> {
        compile(&self.pattern)
    }
}

/// Compiles `pattern` as a check does (see [`Check::compile`]).
pub(crate) fn compile(pattern: &str) -> Result<regex::Regex, String> {
    if pattern.is_empty() {
        return Err("the pattern is empty, so it would match every line".to_string());
    }
    if pattern.len() > MAX_PATTERN_BYTES {
        return Err(format!(
            "the pattern is {} bytes long; at most {MAX_PATTERN_BYTES} are allowed",
            pattern.len()
        ));
    }
    regex::RegexBuilder::new(pattern)
        .size_limit(MAX_COMPILED_BYTES)
        .dfa_size_limit(MAX_COMPILED_BYTES)
        .build()
        .map_err(|error| match error {
            regex::Error::CompiledTooBig(limit) => format!(
                "the pattern compiles to more than {limit} bytes; write a smaller one \
                 (a bounded repeat such as `\\w{{1000}}` is the usual cause)"
            ),
            other => format!(
                "not a valid regular expression: {}",
                one_line(&other.to_string())
            ),
        })
}

/// The crate's message, which draws the pattern over several lines, on one.
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .rfind(|line| !line.is_empty())
        .unwrap_or(message)
        .trim_start_matches("error: ")
        .to_string()
}

/// The check `learn` proposes for an instruction of a common shape: "Never use X",
/// "Never call `X`", "Do not import X" forbid X (a code span when there is one, else the
/// word after the verb), escaped to match literally. `None` for any other shape: a
/// proposal is shown, never added unasked.
pub(crate) fn propose(instruction: &str) -> Option<Check> {
    let lower = instruction.to_lowercase();
    let rest = ["never ", "do not ", "don't ", "avoid "]
        .iter()
        .find_map(|prefix| lower.strip_prefix(prefix))?;
    let verb = ["use ", "call ", "import ", "write ", "add ", "commit "]
        .iter()
        .find(|verb| rest.starts_with(*verb))?;
    // Back in the original text (lowercasing keeps ASCII offsets; bail out otherwise).
    let start = instruction.len().checked_sub(rest.len())? + verb.len();
    let object = instruction.get(start..)?;
    let literal = match object.strip_prefix('`') {
        Some(code) => code.split('`').next().filter(|span| !span.is_empty())?,
        None => {
            let word = object.split_whitespace().next()?;
            let word = word.trim_end_matches([',', '.', ';', ':']);
            // A plain word ("Never use tabs") is no code to search for.
            if !word.contains(['.', '(', '_', ':', '/', '-']) || word.len() < 3 {
                return None;
            }
            word
        }
    };
    Some(Check {
        kind: Kind::Forbid,
        pattern: regex::escape(literal),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_two_forms_and_refuses_others() {
        let forbid = Check::from_json(r#"{"Forbid": "console\\.log"}"#).unwrap();
        assert_eq!(forbid.kind, Kind::Forbid);
        assert_eq!(forbid.pattern, "console\\.log");
        assert_eq!(
            Check::from_json(r#"{"Require": "x"}"#).unwrap().kind,
            Kind::Require
        );
        for bad in [
            r#""x""#,
            "{}",
            r#"{"Forbid": 1}"#,
            r#"{"Match": "x"}"#,
            r#"{"Forbid": "a", "Require": "b"}"#,
        ] {
            assert!(Check::from_json(bad).is_err(), "{bad}");
        }
        let written = serde_json::to_string(&forbid).unwrap();
        assert_eq!(written, r#"{"Forbid":"console\\.log"}"#);
    }

    #[test]
    fn compiles_bounded() {
        assert!(compile("console\\.log").is_ok());
        assert!(compile("").is_err());
        assert!(compile("(").unwrap_err().contains("not a valid"));
        assert!(
            compile("\\w{1000}{1000}")
                .unwrap_err()
                .contains("compiles to more")
        );
        assert!(compile(&"a".repeat(MAX_PATTERN_BYTES + 1)).is_err());
    }

    #[test]
    fn proposes_for_the_common_shapes_only() {
        let pattern = |text: &str| propose(text).map(|check| check.pattern);
        assert_eq!(
            pattern("Never call `console.log` in src - because it leaks.").as_deref(),
            Some("console\\.log")
        );
        assert_eq!(
            pattern("Never use moment.js - because it is heavy.").as_deref(),
            Some("moment\\.js")
        );
        assert_eq!(
            pattern("Do not import `lodash` - because of size.").as_deref(),
            Some("lodash")
        );
        assert_eq!(pattern("Never use tabs - because."), None);
        assert_eq!(pattern("Always use pnpm."), None);
        assert_eq!(pattern("Never commit secrets."), None);
    }
}
