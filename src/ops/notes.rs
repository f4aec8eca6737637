//! Notes and verdicts: each note the prompt hook gives the agent (a short id, the prompt,
//! the rules it showed) and the agent's verdict on it — the user restated rule N, changed
//! it (`learn --supersedes N --note ID`), said something new (`learn --note ID`), or none
//! of these — kept on this machine in `autofix/notes.jsonl` under git's common directory
//! ([`Journal`]: never committed, one locked write each, the newest [`MAX_BYTES`] kept).
//! The hook's own verdict (a rule said word for word) is kept there too, marked as the
//! tool's. `ledger` counts them per rule, and the next note on a rule the user had to
//! restate twice asks for a check.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::capture::prompt::{Note, Restated};
use crate::capture::repeats::Nearby;
use crate::io::journal::{self, Journal};
use crate::io::workspace::Workspace;
use crate::rules::reference::RuleRef;

/// The most bytes the notes file keeps (some 3,000 notes and their verdicts); the oldest
/// go first, and a verdict for a note gone with them is refused as unknown.
const MAX_BYTES: usize = 1024 * 1024;

/// The most characters of a prompt a note keeps (what `ledger` shows of it).
const PROMPT_CHARS: usize = 400;

/// One line of the notes file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub(crate) enum Entry {
    Note(Given),
    Verdict(Verdict),
}

/// A note the hook gave.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Given {
    pub id: String,
    /// When, UTC (`2026-12-07T10:00:00Z`).
    pub time: String,
    pub agent: String,
    pub session: String,
    /// What the user typed, cut to [`PROMPT_CHARS`].
    pub prompt: String,
    pub shown: Vec<RuleNamed>,
}

/// A rule as a note or a verdict names it: its number, its source when imported, and its
/// text then (which finds it again after a merge renumbered it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct RuleNamed {
    pub rule: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub instruction: String,
}

impl RuleNamed {
    /// How a command names it: `12`, or `org:12`.
    pub(crate) fn id(&self) -> String {
        crate::rules::reference::RuleRef::from(self).to_string()
    }
}

impl From<&RuleNamed> for RuleRef {
    fn from(rule: &RuleNamed) -> RuleRef {
        match &rule.source {
            Some(source) => RuleRef::Imported {
                source: source.clone(),
                number: rule.rule,
            },
            None => RuleRef::Local(rule.rule),
        }
    }
}

/// What the user said, as the agent (or the hook, word for word) judged it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Said {
    /// A recorded rule again: the rule did not hold.
    Restated,
    /// A change to a recorded rule, learned as a rule that supersedes it.
    Changed,
    /// Something new, learned as a rule.
    New,
    /// No lasting rule.
    Nothing,
}

impl Said {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Said::Restated => "restated",
            Said::Changed => "changed",
            Said::New => "new",
            Said::Nothing => "nothing",
        }
    }
}

/// Who judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum By {
    /// The agent (or the person), answering a note.
    Agent,
    /// The hook itself: a rule said word for word, no note to answer.
    Tool,
}

/// A verdict.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Verdict {
    /// The note answered; empty for the tool's own verdict.
    pub note: String,
    pub time: String,
    pub said: Said,
    pub by: By,
    /// The rule restated or changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<RuleNamed>,
    /// The rule learned (new, or the change).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub learned: Option<u64>,
    /// For the tool's verdict: the agent, session and prompt (a note holds them otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heard: Option<Heard>,
}

/// Where the tool heard a rule word for word.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Heard {
    pub agent: String,
    pub session: String,
    pub prompt: String,
}

/// Why a verdict is refused.
#[derive(Debug, thiserror::Error)]
pub(crate) enum NotesError {
    #[error(
        "`{0}` is no note id: the prompt hook's notes carry six letters and digits, e.g. `note 3f9a2c`"
    )]
    Malformed(String),
    #[error(
        "notes are kept in git's directory, and {0} is in no git repository: there is no note to answer"
    )]
    NoRepository(String),
    #[error(
        "note {0}: the prompt hook gave no such note in this repository (or it is older than the notes kept)"
    )]
    Unknown(String),
    #[error("note {id} was answered already: {said}")]
    Answered { id: String, said: String },
    #[error("rule {rule} is not an active rule of {path}: `autofix rules` lists them")]
    NoSuchRule { rule: String, path: String },
    #[error("`restated` names the rule the user said again: `autofix verdict {0} restated N`")]
    RuleMissing(String),
    #[error("`nothing` takes no rule: `autofix verdict {0} nothing`")]
    RuleNotWanted(String),
    #[error("a change or a new rule is answered by learning it: `autofix learn \"…\" --note {0}`")]
    Learned(String),
    #[error(transparent)]
    Write(#[from] anyhow::Error),
}

fn journal_at(root: &Path) -> Option<Journal> {
    Journal::of_repository(root, "notes.jsonl", MAX_BYTES)
}

/// Every note and verdict kept for the workspace's repository, oldest first.
pub(crate) fn read(workspace: &Workspace) -> Vec<Entry> {
    journal_at(&workspace.root).map_or_else(Vec::new, |journal| journal.read())
}

/// What one prompt hook call asks of the notes: who typed what, where.
pub(crate) struct Asked<'a> {
    pub root: &'a Path,
    pub agent: &'a str,
    pub session: &'a str,
    pub prompt: &'a str,
}

/// Gives a note on a correction and the rules `shown` beside it: its id, and how often
/// the user has had to restate each shown rule. `None` outside git (the note then has no
/// id to answer).
pub(crate) fn give(asked: &Asked<'_>, shown: &[Nearby]) -> anyhow::Result<Option<Note>> {
    let Some(journal) = journal_at(asked.root) else {
        return Ok(None);
    };
    let time = crate::report::calendar::now();
    let shown: Vec<RuleNamed> = shown.iter().map(named).collect();
    journal
        .append(|old| {
            let entries: Vec<Entry> = journal::parse(old).collect();
            let taken: std::collections::HashSet<&str> = (entries.iter())
                .filter_map(|entry| match entry {
                    Entry::Note(given) => Some(given.id.as_str()),
                    Entry::Verdict(_) => None,
                })
                .collect();
            let id = (0u32..)
                .map(|salt| fresh_id(asked, &time, salt))
                .find(|id| !taken.contains(id.as_str()))
                .unwrap_or_default();
            let counts = restated_counts(&entries);
            let restated = (shown.iter())
                .filter_map(|rule| {
                    let times = counts.get(&key(rule)).copied().unwrap_or(0);
                    (times > 0).then(|| Restated {
                        rule: rule.id(),
                        shown: crate::capture::repeats::rule_shown(
                            rule.source.as_deref(),
                            rule.rule,
                        ),
                        instruction: rule.instruction.clone(),
                        times,
                    })
                })
                .collect();
            let given = Entry::Note(Given {
                id: id.clone(),
                time: time.clone(),
                agent: asked.agent.to_string(),
                session: asked.session.to_string(),
                prompt: cut(asked.prompt),
                shown: shown.clone(),
            });
            let line = format!("{}\n", serde_json::to_string(&given)?);
            Ok((line, Note { id, restated }))
        })
        .map(Some)
}

/// Records the hook's own verdict: `rule` said word for word. Nothing outside git.
pub(crate) fn heard_word_for_word(asked: &Asked<'_>, rule: &Nearby) -> anyhow::Result<()> {
    let Some(journal) = journal_at(asked.root) else {
        return Ok(());
    };
    let verdict = Entry::Verdict(Verdict {
        note: String::new(),
        time: crate::report::calendar::now(),
        said: Said::Restated,
        by: By::Tool,
        rule: Some(named(rule)),
        learned: None,
        heard: Some(Heard {
            agent: asked.agent.to_string(),
            session: asked.session.to_string(),
            prompt: cut(asked.prompt),
        }),
    });
    journal.append(|_| Ok((format!("{}\n", serde_json::to_string(&verdict)?), ())))
}

/// A verdict to record: what was said, of which rule, and the rule learned for it.
pub(crate) struct Answer<'a> {
    pub note: &'a str,
    pub said: Said,
    pub rule: Option<&'a RuleRef>,
    pub learned: Option<u64>,
}

/// The note `id` if the hook gave it in this repository and nobody answered it yet: what
/// `learn --note` asks before it writes a rule.
pub(crate) fn open(workspace: &Workspace, id: &str) -> Result<Given, NotesError> {
    well_formed(id)?;
    let journal = journal_at(&workspace.root)
        .ok_or_else(|| NotesError::NoRepository(workspace.shown.clone()))?;
    unanswered(&journal.read(), id).cloned()
}

/// Records the agent's verdict on a note: refused for a note the hook never gave (or one
/// answered already), and for `restated` of a rule that is not active here.
pub(crate) fn answer(workspace: &Workspace, answer: &Answer<'_>) -> Result<Verdict, NotesError> {
    if answer.said != Said::Restated && answer.said != Said::Nothing {
        // A change or a new rule is answered by `learn --note`, which learns it.
        return Err(NotesError::Learned(answer.note.to_string()));
    }
    answer_with(workspace, answer)
}

fn answer_with(workspace: &Workspace, answer: &Answer<'_>) -> Result<Verdict, NotesError> {
    let id = answer.note;
    well_formed(id)?;
    let journal = journal_at(&workspace.root)
        .ok_or_else(|| NotesError::NoRepository(workspace.shown.clone()))?;
    let rule = match (answer.said, answer.rule) {
        (Said::Restated, None) => return Err(NotesError::RuleMissing(id.to_string())),
        (Said::Nothing, Some(_)) => return Err(NotesError::RuleNotWanted(id.to_string())),
        // A rule changed is superseded by then: it is named among all the file's rules.
        (said, Some(rule)) => Some(named_rule(workspace, rule, said != Said::Changed)?),
        (_, None) => None,
    };
    let verdict = Verdict {
        note: id.to_string(),
        time: crate::report::calendar::now(),
        said: answer.said,
        by: By::Agent,
        rule,
        learned: answer.learned,
        heard: None,
    };
    journal.append(|old| {
        let entries: Vec<Entry> = journal::parse(old).collect();
        unanswered(&entries, id)?;
        Ok((
            format!(
                "{}\n",
                serde_json::to_string(&Entry::Verdict(verdict.clone()))?
            ),
            (),
        ))
    })?;
    Ok(verdict)
}

/// Records what `learn --note ID` answered, once `outcome` is known: a change of the rule
/// `superseded`, or a new rule; a rule the file held already is the user restating it. A
/// refusal or a dry run answers nothing (`None`).
pub(crate) fn learned(
    workspace: &Workspace,
    note: &str,
    superseded: Option<&RuleRef>,
    outcome: &crate::rules::learn::Outcome,
) -> Result<Option<Verdict>, NotesError> {
    use crate::rules::learn::Status;
    let held = RuleRef::Local(outcome.rule.number);
    let (said, rule, learned) = match (outcome.status, superseded) {
        (Status::Learned, Some(superseded)) => (Said::Changed, Some(superseded), true),
        (Status::Learned, None) => (Said::New, None, true),
        (Status::Duplicate, _) => (Said::Restated, Some(&held), false),
        (Status::DryRun | Status::Refused, _) => return Ok(None),
    };
    let answer = Answer {
        note,
        said,
        rule,
        learned: learned.then_some(outcome.rule.number),
    };
    answer_with(workspace, &answer).map(Some)
}

/// The note `id` among `entries`, unanswered.
fn unanswered<'e>(entries: &'e [Entry], id: &str) -> Result<&'e Given, NotesError> {
    let given = (entries.iter())
        .find_map(|entry| match entry {
            Entry::Note(given) if given.id == id => Some(given),
            _ => None,
        })
        .ok_or_else(|| NotesError::Unknown(id.to_string()))?;
    let earlier = entries.iter().find_map(|entry| match entry {
        Entry::Verdict(verdict) if verdict.note == id => Some(verdict),
        _ => None,
    });
    match earlier {
        None => Ok(given),
        Some(verdict) => Err(NotesError::Answered {
            id: id.to_string(),
            said: describe(verdict),
        }),
    }
}

/// A verdict in a few words: `restated rule 3`, `new (rule 9 learned)`.
pub(crate) fn describe(verdict: &Verdict) -> String {
    let mut text = verdict.said.as_str().to_string();
    if let Some(rule) = &verdict.rule {
        text.push_str(&format!(" rule {}", rule.id()));
    }
    if let Some(learned) = verdict.learned {
        text.push_str(&format!(" (rule {learned} learned)"));
    }
    text
}

/// The rule `reference` names (local, or imported), as a verdict keeps it: an active
/// one, or with `active` false, any local rule of the file.
fn named_rule(
    workspace: &Workspace,
    reference: &RuleRef,
    active: bool,
) -> Result<RuleNamed, NotesError> {
    let (source, number) = match reference {
        RuleRef::Local(number) => (None, *number),
        RuleRef::Imported { source, number } => (Some(source.as_str()), *number),
    };
    let mut found = (super::reflect::active_rules(workspace).map_err(anyhow::Error::from)?)
        .into_iter()
        .rev()
        .find(|rule| rule.number == number && rule.source.as_deref() == source)
        .map(|rule| RuleNamed {
            rule: rule.number,
            source: rule.source,
            instruction: rule.instruction,
        });
    if found.is_none() && !active && source.is_none() {
        let document = crate::rules::load(workspace.shown_path()).map_err(anyhow::Error::from)?;
        found = (document
            .iter()
            .flat_map(crate::rules::file::Document::rules))
        .filter(|rule| rule.number().value() == Some(number))
        .find_map(|rule| {
            Some(RuleNamed {
                rule: number,
                source: None,
                instruction: rule.instruction().as_str()?.trim().to_string(),
            })
        });
    }
    found.ok_or_else(|| NotesError::NoSuchRule {
        rule: reference.to_string(),
        path: workspace.shown.clone(),
    })
}

fn well_formed(id: &str) -> Result<(), NotesError> {
    let ok = id.len() == 6
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase());
    if ok {
        Ok(())
    } else {
        Err(NotesError::Malformed(
            crate::report::text::shown(id).into_owned(),
        ))
    }
}

/// How many times each rule (by source and text) was restated, by the agent's verdict or
/// the tool's.
fn restated_counts(entries: &[Entry]) -> HashMap<(Option<String>, String), usize> {
    let mut counts = HashMap::new();
    for entry in entries {
        if let Entry::Verdict(Verdict {
            said: Said::Restated,
            rule: Some(rule),
            ..
        }) = entry
        {
            *counts.entry(key(rule)).or_insert(0) += 1;
        }
    }
    counts
}

fn key(rule: &RuleNamed) -> (Option<String>, String) {
    (rule.source.clone(), rule.instruction.clone())
}

fn named(rule: &Nearby) -> RuleNamed {
    RuleNamed {
        rule: rule.rule,
        source: rule.source.clone(),
        instruction: rule.instruction.clone(),
    }
}

/// Six lower-case hex digits from the call's time, process, prompt and `salt`.
fn fresh_id(asked: &Asked<'_>, time: &str, salt: u32) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    crate::report::digest::hex_of_parts([
        time.as_bytes(),
        &nanos.to_le_bytes(),
        &std::process::id().to_le_bytes(),
        asked.session.as_bytes(),
        asked.prompt.as_bytes(),
        &salt.to_le_bytes(),
    ])[..6]
        .to_string()
}

fn cut(prompt: &str) -> String {
    match prompt.char_indices().nth(PROMPT_CHARS) {
        Some((at, _)) => format!("{}…", &prompt[..at]),
        None => prompt.to_string(),
    }
}
