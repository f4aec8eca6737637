//! `learn`: validate a new rule, then append it under the sidecar lock with an atomic
//! replace (RELIABILITY.md): lock, re-read and parse strictly, number = highest + 1, splice
//! the text, check it reads back, write a temp file, fsync, rename, fsync the directory.
//! Once the rename has happened the rule is committed; later trouble is only a warning.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use super::append::{Splice, StoredRule, splice};
use super::category::normalize;
use super::file::{self, Document, MAX_RULE_NUMBER, Number};
use super::{Category, RulesError, same_instruction, supersede};
use crate::atomic::AtomicError;
use crate::i18n::{Lang, Message};
use crate::safe_write::Fence;

/// What to learn, as the user or agent gave it.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Request {
    #[serde(rename = "Category", alias = "category")]
    pub category: String,
    #[serde(rename = "Instruction", alias = "instruction")]
    pub instruction: String,
    #[serde(rename = "Why", alias = "why")]
    pub why: String,
    #[serde(rename = "Supersedes", alias = "supersedes", default)]
    pub supersedes: Vec<u64>,
}

/// How to learn it.
#[derive(Clone, Debug)]
pub struct Options {
    pub dry_run: bool,
    pub lock_timeout: Duration,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The rule was appended.
    Learned,
    /// An active rule already holds this instruction; nothing was written.
    Duplicate,
    /// `--dry-run`: the rule that would be appended.
    DryRun,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Learned => "learned",
            Status::Duplicate => "duplicate",
            Status::DryRun => "dry_run",
        }
    }
}

/// The outcome of a `learn`.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub status: Status,
    /// Every rule the new rule supersedes, and where the reference was read.
    pub supersedes: Vec<SupersedeReference>,
    /// The rules file, as discovered or named (not the symlink target).
    pub path: PathBuf,
    /// The new rule, or for a duplicate the rule that already holds the instruction.
    pub rule: StoredRule,
    pub warnings: Vec<String>,
}

/// A rule the new rule supersedes, and where that was said: `--supersedes` (the
/// `Supersedes` array of `--json`), or a marker in `Why` or `Instruction`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SupersedeReference {
    pub rule: u64,
    pub from: &'static str,
}

/// A request checked and normalised: category upper-case, texts trimmed, supersede
/// markers added to `Why`.
#[derive(Clone, Debug)]
struct Validated {
    category: Category,
    instruction: String,
    why: String,
    /// Every reference, checked like `--supersedes`: a marker in free text is as real.
    references: Vec<SupersedeReference>,
}

fn validate(request: &Request) -> Result<Validated, RulesError> {
    let category =
        Category::parse(&request.category).ok_or_else(|| RulesError::UnknownCategory {
            given: request.category.clone(),
            allowed: Category::list(),
            hint: crate::text::did_you_mean(&crate::text::closest(
                &normalize(&request.category),
                Category::ALL.map(Category::as_str),
            )),
        })?;
    let instruction = request.instruction.trim();
    if instruction.is_empty() {
        return Err(RulesError::EmptyField {
            field: "instruction",
        });
    }
    let why = request.why.trim();
    if why.is_empty() {
        return Err(RulesError::EmptyField { field: "why" });
    }
    // A rule is one line wherever it is shown: a line break could forge another rule.
    for (field, text) in [("instruction", instruction), ("why", why)] {
        if text.chars().any(char::is_control) {
            return Err(RulesError::ControlCharacter { field });
        }
    }
    let mut supersedes = request.supersedes.clone();
    supersedes.sort_unstable();
    supersedes.dedup();
    let mut references: Vec<SupersedeReference> = supersedes
        .iter()
        .map(|&rule| SupersedeReference {
            rule,
            from: "--supersedes",
        })
        .collect();
    for (from, text) in [("Why", why), ("Instruction", instruction)] {
        for rule in supersede::markers(text) {
            if !references.iter().any(|r| r.rule == rule) {
                references.push(SupersedeReference { rule, from });
            }
        }
    }
    Ok(Validated {
        category,
        instruction: instruction.to_string(),
        why: with_marker(why, &supersedes),
        references,
    })
}

/// `why (supersedes rule 1)`, or `(supersedes rules 1 and 3)`, unless `why` already says so.
fn with_marker(why: &str, supersedes: &[u64]) -> String {
    let present = supersede::markers(why);
    let missing: Vec<String> = supersedes
        .iter()
        .filter(|n| !present.contains(n))
        .map(u64::to_string)
        .collect();
    match missing.as_slice() {
        [] => why.to_string(),
        [one] => format!("{why} (supersedes rule {one})"),
        [init @ .., last] => format!("{why} (supersedes rules {} and {last})", init.join(", ")),
    }
}

/// Learns a rule into the rules file at `path` (created, with its directory, if absent).
pub fn learn(path: &Path, request: &Request, options: &Options) -> Result<Outcome, RulesError> {
    let rule = validate(request)?;
    let target = Fence::rules_file().resolve(path)?;
    target.check_writable()?;
    if options.dry_run {
        let source = super::read(&target.path)?.unwrap_or_default();
        let document = super::parse_strict(path, &source)?;
        return plan(path, &document, &rule, Status::DryRun).map(|(outcome, _)| outcome);
    }
    // The one safe-write path: the sidecar lock, stale temp files swept, re-read under the
    // lock (another writer may have appended since we resolved).
    let locked = Fence::rules_file()
        .lock(path, options.lock_timeout)
        .map_err(from_atomic)?;
    let source = super::read(&locked.target().path)?;
    let document = super::parse_strict(path, source.as_deref().unwrap_or_default())?;
    let (mut outcome, text) = plan(path, &document, &rule, Status::Learned)?;
    let Some(text) = text else {
        return Ok(outcome);
    };
    verify(path, &document, &text, &outcome.rule)?;
    let pieces: Vec<&[u8]> = text.pieces().iter().map(|piece| piece.as_bytes()).collect();
    let expected = source.as_deref().map(str::as_bytes);
    if let Some(warning) = locked.write(&pieces, expected).map_err(from_atomic)? {
        outcome.warnings.push(warning);
    }
    Ok(outcome)
}

/// A lock failure stays a lock failure (it has its own message in every language).
fn from_atomic(error: AtomicError) -> RulesError {
    match error {
        AtomicError::Lock(error) => RulesError::Lock(error),
        other => RulesError::Write(other),
    }
}

/// Decides what learning means for this document: a duplicate (no text), or the new rule
/// and the new text.
fn plan<'a>(
    path: &Path,
    document: &Document<'a>,
    rule: &Validated,
    status: Status,
) -> Result<(Outcome, Option<Splice<'a>>), RulesError> {
    // Precedence (a scan of every rule's text) matters only when some rule holds the same
    // instruction, which is rare: find those first.
    let mut same: Vec<usize> = document
        .rules
        .iter()
        .filter(|existing| {
            existing
                .instruction
                .as_str()
                .is_some_and(|text| same_instruction(text, &rule.instruction))
        })
        .map(|existing| existing.index)
        .collect();
    if !same.is_empty() {
        let resolution = supersede::resolve(document);
        same.retain(|&index| resolution.is_active(index));
        // Restating a rule in order to replace it (under another category, say) is not a
        // repeat: the new rule supersedes the holder.
        same.retain(|&index| {
            let number = document.rules[index].number.value();
            !rule.references.iter().any(|r| Some(r.rule) == number)
        });
    }
    let holder = same.first().map(|&index| &document.rules[index]);
    if let Some(existing) = holder {
        let outcome = Outcome {
            status: Status::Duplicate,
            supersedes: Vec::new(),
            path: path.to_path_buf(),
            rule: StoredRule {
                number: existing.number.value().unwrap_or_default(),
                category: existing.category.display().to_string(),
                instruction: existing.instruction.display().to_string(),
                why: existing.why.display().to_string(),
            },
            warnings: Vec::new(),
        };
        return Ok((outcome, None));
    }
    let mut numbers: Vec<u64> = document
        .rules
        .iter()
        .filter_map(|r| r.number.value())
        .collect();
    numbers.sort_unstable();
    for reference in &rule.references {
        if numbers.binary_search(&reference.rule).is_err() {
            return Err(RulesError::UnknownSupersedes {
                path: path.to_path_buf(),
                number: reference.rule,
                from: reference.from,
            });
        }
    }
    let number = document
        .max_number()
        .checked_add(1)
        .filter(|n| *n <= MAX_RULE_NUMBER)
        .ok_or_else(|| RulesError::NumberOverflow {
            path: path.to_path_buf(),
        })?;
    let stored = StoredRule {
        number,
        category: rule.category.as_str().to_string(),
        instruction: rule.instruction.clone(),
        why: rule.why.clone(),
    };
    let mut warnings = Vec::new();
    if has_duplicate_numbers(document) {
        warnings.push(format!(
            "{} has duplicate Rule_numbers; learned as {number} (highest + 1). Run `autofix check`.",
            path.display()
        ));
    }
    let text = splice(document, &stored);
    let outcome = Outcome {
        status,
        supersedes: rule.references.clone(),
        path: path.to_path_buf(),
        rule: stored,
        warnings,
    };
    Ok((outcome, Some(text)))
}

fn has_duplicate_numbers(document: &Document<'_>) -> bool {
    let mut numbers: Vec<u64> = document
        .rules
        .iter()
        .filter_map(|r| r.number.value())
        .collect();
    numbers.sort_unstable();
    numbers.windows(2).any(|pair| pair[0] == pair[1])
}

/// The new text must read back as exactly the old rules (same bytes) plus the new one.
/// `append` only inserts between the last rule and the closing `]`, so it is enough to
/// check that everything around the insertion is the old text, byte for byte, and that the
/// inserted text is one comma and one object holding the new rule: together with the old
/// text being a valid array (it was parsed), that makes the new text the old array plus
/// that object, without parsing the whole file a second time.
fn verify(
    path: &Path,
    old: &Document<'_>,
    new: &Splice<'_>,
    rule: &StoredRule,
) -> Result<(), RulesError> {
    let failed = || RulesError::Verify {
        path: path.to_path_buf(),
    };
    let source = old.source;
    let trimmed = source.trim_end();
    // The old text around the insertion: up to the last rule (or `[`), and from `]` on. A
    // file that was empty keeps only its BOM, and the insertion is a whole array.
    let (head, tail) = match trimmed.strip_suffix(']') {
        Some(before) => (before.trim_end(), &source[before.len()..]),
        None => (if old.has_bom { file::BOM } else { "" }, ""),
    };
    // `append` ends the text with a newline when the old one had none.
    if new.head != head || new.tail != tail || !["", "\n", "\r\n"].contains(&new.end) {
        return Err(failed());
    }
    let middle = new.inserted.trim();
    let wrapped = match (tail.is_empty(), old.rules.is_empty()) {
        (true, _) => middle.to_string(),
        (false, true) => format!("[{middle}]"),
        (false, false) => format!("[{}]", middle.strip_prefix(',').ok_or_else(failed)?),
    };
    let new = file::parse(&wrapped).map_err(|_| failed())?;
    let [last] = new.rules.as_slice() else {
        return Err(failed());
    };
    let same_new = last.number == Number::Valid(rule.number)
        && last.category.as_str() == Some(&rule.category)
        && last.instruction.as_str() == Some(&rule.instruction)
        && last.why.as_str() == Some(&rule.why);
    if same_new { Ok(()) } else { Err(failed()) }
}

impl Outcome {
    /// The acknowledgement in `lang`, `shown` being how the path is displayed,
    /// then a line for every rule the new one supersedes.
    pub fn to_text(&self, shown: &str, lang: Lang) -> String {
        let mut text = self.acknowledgement(shown, lang);
        for reference in &self.supersedes {
            text.push_str(&Message::SupersedesFrom.fill(
                lang,
                &[("number", &reference.rule), ("from", &reference.from)],
            ));
            text.push('\n');
        }
        text
    }

    fn acknowledgement(&self, shown: &str, lang: Lang) -> String {
        let rule = &self.rule;
        let message = match self.status {
            Status::Learned => Message::Learned,
            Status::Duplicate => Message::Duplicate,
            Status::DryRun => Message::DryRun,
        };
        let mut text = message.fill(
            lang,
            &[
                ("number", &rule.number),
                ("category", &rule.category),
                ("instruction", &rule.instruction),
                ("path", &shown),
            ],
        );
        text.push('\n');
        text
    }

    /// The `learn --format json` document.
    pub fn to_json(&self, shown: &str) -> String {
        #[derive(serde::Serialize)]
        struct Json<'a> {
            version: u32,
            status: &'static str,
            path: &'a str,
            rule: &'a StoredRule,
            supersedes: &'a [SupersedeReference],
            warnings: &'a [String],
        }
        let json = Json {
            version: 1,
            status: self.status.as_str(),
            path: shown,
            rule: &self.rule,
            supersedes: &self.supersedes,
            warnings: &self.warnings,
        };
        let mut text = serde_json::to_string_pretty(&json).expect("an outcome always serialises");
        text.push('\n');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn supersede_markers_are_readable_and_not_repeated() {
        assert_eq!(with_marker("pref", &[]), "pref");
        assert_eq!(with_marker("pref", &[1]), "pref (supersedes rule 1)");
        assert_eq!(
            with_marker("pref", &[1, 2, 3]),
            "pref (supersedes rules 1, 2 and 3)"
        );
        assert_eq!(with_marker("supersedes rule 1", &[1]), "supersedes rule 1");
        assert_eq!(supersede::markers(&with_marker("x", &[4, 5, 6])), [4, 5, 6]);
    }

    #[test]
    fn verify_accepts_every_append_and_refuses_tampering() {
        let path = Path::new("autofix.json");
        for source in [
            "",
            "  \n",
            "\u{feff}",
            "[]",
            "[ ]\n",
            "[\n]",
            "[{\"Rule_number\":1}]",
            "\u{feff}[\r\n  {\"Rule_number\": 1}\r\n]\r\n",
            "[\n    {\"Rule_number\": 1},\n    {\"Rule_number\": 5}\n]\n\n",
        ] {
            let document = file::parse(source).unwrap();
            let rule = StoredRule {
                number: document.max_number() + 1,
                category: "CODE".into(),
                instruction: "Always \"verify\"".into(),
                why: "w".into(),
            };
            let text = splice(&document, &rule);
            verify(path, &document, &text, &rule).unwrap_or_else(|e| panic!("{source:?}: {e}"));
            let other = StoredRule {
                why: "other".into(),
                ..rule.clone()
            };
            assert!(
                verify(path, &document, &text, &other).is_err(),
                "{source:?}"
            );
            let no_comma = Splice {
                inserted: text.inserted.replacen(',', "", 1),
                ..text.clone()
            };
            if !document.rules.is_empty() {
                assert!(
                    verify(path, &document, &no_comma, &rule).is_err(),
                    "{source:?}"
                );
            }
            if let Some((last, _)) = text.head.char_indices().next_back() {
                let shorter_head = Splice {
                    head: &text.head[..last],
                    ..text.clone()
                };
                assert!(
                    verify(path, &document, &shorter_head, &rule).is_err(),
                    "{source:?}"
                );
            }
            let renamed = Splice {
                inserted: text.inserted.replacen("Rule_number", "Rule_numbeR", 1),
                ..text.clone()
            };
            assert!(
                verify(path, &document, &renamed, &rule).is_err(),
                "{source:?}"
            );
        }
    }

    #[test]
    fn categories_and_texts_are_checked() {
        let request = |category: &str, instruction: &str, why: &str| Request {
            category: category.into(),
            instruction: instruction.into(),
            why: why.into(),
            supersedes: vec![],
        };
        assert_eq!(
            validate(&request("[code]", " Do x ", "y"))
                .unwrap()
                .instruction,
            "Do x"
        );
        assert!(matches!(
            validate(&request("UI", "Do x", "y")),
            Err(RulesError::UnknownCategory { .. })
        ));
        assert!(matches!(
            validate(&request("CODE", "  ", "y")),
            Err(RulesError::EmptyField {
                field: "instruction"
            })
        ));
        assert!(matches!(
            validate(&request("CODE", "x", "")),
            Err(RulesError::EmptyField { field: "why" })
        ));
    }
}
