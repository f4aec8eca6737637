//! A rule reference as a person or an agent writes it: `12`, this repository's rule 12, or
//! `org:12`, rule 12 of the imported source `org` (`user:12`: of the personal layer). The
//! one parser every front end and the manifest's `overrides` use, so `rules org:4`,
//! `retire org:5`, `learn --supersedes org:2`, MCP's `"org:12"` and `check` read it alike.

use std::fmt;
use std::str::FromStr;

/// `12` or `org:12`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum RuleRef {
    Local(u64),
    Imported { source: String, number: u64 },
}

/// Whether `name` may name a layer: a lower-case letter, then letters, digits or `-`, at
/// most 40 (the sources manifest adds its reserved names).
pub(crate) fn is_layer_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && name.len() <= 40
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

impl FromStr for RuleRef {
    type Err = String;

    fn from_str(text: &str) -> Result<RuleRef, String> {
        let bad = || format!("`{text}` is neither a rule number nor an imported rule NAME:N");
        let number = |digits: &str| {
            // `+3` and ` 3` parse as u64 but are no rule number anyone writes.
            (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                .then(|| digits.parse::<u64>().ok())
                .flatten()
                .filter(|&n| n > 0)
        };
        match text.split_once(':') {
            None => number(text).map(RuleRef::Local).ok_or_else(bad),
            Some((source, digits)) if is_layer_name(source) => number(digits)
                .map(|number| RuleRef::Imported {
                    source: source.to_string(),
                    number,
                })
                .ok_or_else(bad),
            Some(_) => Err(bad()),
        }
    }
}

impl fmt::Display for RuleRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleRef::Local(number) => write!(f, "{number}"),
            RuleRef::Imported { source, number } => write!(f, "{source}:{number}"),
        }
    }
}

/// A rule as JSON gives it (MCP's arguments, `learn --json`): a number (`4`) or a string
/// (`"4"`, `"org:4"`), read by the one parser.
impl<'de> serde::Deserialize<'de> for RuleRef {
    fn deserialize<D: serde::Deserializer<'de>>(input: D) -> Result<RuleRef, D::Error> {
        input.deserialize_any(Visitor)
    }
}

struct Visitor;

impl serde::de::Visitor<'_> for Visitor {
    type Value = RuleRef;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a rule number or an imported rule (\"org:12\")")
    }

    fn visit_u64<E: serde::de::Error>(self, number: u64) -> Result<RuleRef, E> {
        match number {
            0 => Err(E::invalid_value(serde::de::Unexpected::Unsigned(0), &self)),
            number => Ok(RuleRef::Local(number)),
        }
    }

    fn visit_i64<E: serde::de::Error>(self, number: i64) -> Result<RuleRef, E> {
        match u64::try_from(number) {
            Ok(number) => self.visit_u64(number),
            Err(_) => Err(E::invalid_value(
                serde::de::Unexpected::Signed(number),
                &self,
            )),
        }
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<RuleRef, E> {
        text.parse()
            .map_err(|_| E::invalid_value(serde::de::Unexpected::Str(text), &self))
    }
}

impl RuleRef {
    /// The parser clap calls.
    pub(crate) fn parse(text: &str) -> Result<RuleRef, String> {
        text.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::RuleRef;

    #[test]
    fn numbers_and_qualified_numbers() {
        assert_eq!("12".parse(), Ok(RuleRef::Local(12)));
        assert_eq!(
            "org:4".parse(),
            Ok(RuleRef::Imported {
                source: "org".into(),
                number: 4
            })
        );
        assert_eq!(
            "team-a:7".parse::<RuleRef>().unwrap().to_string(),
            "team-a:7"
        );
        for bad in [
            "", "0", "+3", "org:", ":3", "Org:3", "org:x", "org:3:4", "1a", "org:-1",
        ] {
            assert!(bad.parse::<RuleRef>().is_err(), "{bad}");
        }
    }
}
