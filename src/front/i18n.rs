//! The languages `learn` answers in: which one the locale asks for, and every sentence it
//! says as a typed [`Message`] or [`Refusal`] (a variant per sentence, its values as
//! fields), written out with `format!` in one `match` per language. A placeholder that is
//! misspelt or has no value, and a sentence without a text in some language, are compile
//! errors. The JSON output, the rules file and the exit statuses never change with the
//! language.
//!
//! The front ends own this module: the library below them returns structured outcomes
//! ([`crate::ops::learning::Learned`], [`RulesError`]) and the front end says them here.
//!
//! To add a sentence, add a variant and its arm in each language's `match`; to add a
//! language, add a [`Lang`] variant, its locale prefix and its `match`es: the compiler
//! then points at every sentence it lacks.

use std::fmt;

use crate::ops::learning::Learned;
use crate::report::diagnostics::Code;
use crate::rules::category::normalize;
use crate::rules::learn::{Outcome, Status};
use crate::rules::scope::GlobProblem;
use crate::rules::similar::Kind;
use crate::rules::{Category, RulesError};

/// A language `learn` speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lang {
    En,
    Fr,
}

impl Lang {
    pub(crate) const ALL: [Lang; 2] = [Lang::En, Lang::Fr];

    /// The language code of a locale name (`fr_FR.UTF-8` → `fr`).
    fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }

    /// The language of a locale name such as `fr_FR.UTF-8`, `fr`, `fr_CA@euro`; English
    /// for `C`, `POSIX` and any language without a column.
    fn from_locale(locale: &str) -> Lang {
        let code = locale
            .split(['_', '.', '@', '-'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        Lang::ALL
            .into_iter()
            .find(|lang| lang.code() == code)
            .unwrap_or(Lang::En)
    }

    /// The language that `LC_ALL`, `LC_MESSAGES` and `LANG` ask for, given in that order:
    /// as in POSIX, the first one set and non-empty decides.
    /// <https://pubs.opengroup.org/onlinepubs/9799919799/basedefs/V1_chap08.html#tag_08_02>
    fn from_locale_vars<'a>(values: impl IntoIterator<Item = Option<&'a str>>) -> Lang {
        values
            .into_iter()
            .flatten()
            .find(|value| !value.is_empty())
            .map_or(Lang::En, Lang::from_locale)
    }

    /// The language of this process's locale environment (as the settings read it).
    pub(crate) fn from_env() -> Lang {
        Lang::from_locale_vars([crate::io::settings::get().locale.as_deref()])
    }
}

/// A value from the rules file or the user as a sentence shows it: what could forge a line
/// or a workflow command is escaped ([`crate::report::text::shown`]); a value is never read for
/// placeholders, so a rule's text is printed as it is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shown<'a>(pub &'a str);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::report::text::shown(self.0))
    }
}

/// Every sentence `learn` says to a person after it ran.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Message<'a> {
    Learned {
        number: u64,
        category: Shown<'a>,
        instruction: Shown<'a>,
        path: Shown<'a>,
    },
    Duplicate {
        number: u64,
        category: Shown<'a>,
        instruction: Shown<'a>,
        path: Shown<'a>,
    },
    DryRun {
        number: u64,
        category: Shown<'a>,
        instruction: Shown<'a>,
        path: Shown<'a>,
    },
    /// A rule refused because it says an active rule again in its words.
    RefusedDuplicate {
        instruction: Shown<'a>,
        path: Shown<'a>,
    },
    /// A rule refused because it contradicts an active rule.
    RefusedContradiction {
        instruction: Shown<'a>,
        path: Shown<'a>,
    },
    /// A text refused because it states something instead of instructing.
    RefusedStatement {
        instruction: Shown<'a>,
        path: Shown<'a>,
        force: Shown<'a>,
    },
    /// After the acknowledgement of a scoped rule: its globs, each in backquotes.
    AppliesTo { globs: Shown<'a> },
    /// After the acknowledgement of a checked rule: what it forbids or requires.
    Checks { require: bool, pattern: Shown<'a> },
    /// A check the rule's shape suggests, as the option that would add it; never added.
    ProposedCheck { option: Shown<'a> },
    /// A rule the learned one supersedes, and where that was said.
    SupersedesFrom { number: u64, from: &'a str },
    /// The active rule a refused (or forced) rule says in the same words.
    MatchSame { number: u64, instruction: Shown<'a> },
    /// The active rule a refused (or forced) rule reverses, word for word.
    MatchContradicts { number: u64, instruction: Shown<'a> },
    /// An active rule the sentence model finds near the new one, and how to replace it.
    Near {
        number: u64,
        instruction: Shown<'a>,
        score: f64,
        supersede: Shown<'a>,
    },
    /// The ways on after a refusal, for one matching rule and for several.
    WaysOnOne {
        supersede: Shown<'a>,
        force: Shown<'a>,
    },
    WaysOnMany {
        supersede: Shown<'a>,
        force: Shown<'a>,
    },
    /// The exported files `learn` brought up to date.
    ExportsRefreshed { paths: Shown<'a> },
}

impl Message<'_> {
    /// The sentence in `lang`.
    pub(crate) fn text(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.en(),
            Lang::Fr => self.fr(),
        }
    }

    fn en(&self) -> String {
        match *self {
            Message::Learned {
                number,
                category,
                instruction,
                path,
            } => format!(
                "Learned rule #{number} ([{category}]): {instruction} \u{2014} saved to {path}"
            ),
            Message::Duplicate {
                number,
                category,
                instruction,
                path,
            } => format!(
                "Already known as rule #{number} ([{category}]): {instruction} \u{2014} nothing learned ({path} unchanged)"
            ),
            Message::DryRun {
                number,
                category,
                instruction,
                path,
            } => format!(
                "Would learn rule #{number} ([{category}]): {instruction} \u{2014} into {path} (dry run, nothing written)"
            ),
            Message::RefusedDuplicate { instruction, path } => format!(
                "Not learned: \"{instruction}\" repeats an active rule \u{2014} {path} unchanged."
            ),
            Message::RefusedContradiction { instruction, path } => format!(
                "Not learned: \"{instruction}\" contradicts an active rule \u{2014} {path} unchanged."
            ),
            Message::RefusedStatement {
                instruction,
                path,
                force,
            } => format!(
                "Not learned: \"{instruction}\" does not read as an instruction \u{2014} {path} unchanged.\nWrite it in the imperative (\"Always/Never do X - because Y\"), or learn it as it is with `{force}`. [not-imperative]"
            ),
            Message::AppliesTo { globs } => format!("  applies to {globs}"),
            Message::Checks { require, pattern } => {
                let verb = if require { "requires" } else { "forbids" };
                format!("  checked: {verb} `{pattern}` in its scope (`autofix enforce`)")
            }
            Message::ProposedCheck { option } => {
                format!("  a check could enforce it (not added): learn it with {option}")
            }
            Message::SupersedesFrom { number, from } => {
                format!("  supersedes rule {number} (from {from})")
            }
            Message::MatchSame {
                number,
                instruction,
            } => format!("  same words as rule #{number}: {instruction}"),
            Message::MatchContradicts {
                number,
                instruction,
            } => format!("  reverses rule #{number} word for word: {instruction}"),
            Message::Near {
                number,
                instruction,
                score,
                supersede,
            } => format!(
                "  near rule #{number} (cosine {score:.2}): {instruction}\n    if the new rule replaces it, learn it with `{supersede}`"
            ),
            Message::WaysOnOne { supersede, force } => format!(
                "If the new rule replaces it, learn it with `{supersede}`; to keep both, learn it with `{force}`."
            ),
            Message::WaysOnMany { supersede, force } => format!(
                "If the new rule replaces them, learn it with `{supersede}`; to keep both, learn it with `{force}`."
            ),
            Message::ExportsRefreshed { paths } => {
                format!("  exported copies refreshed: {paths}")
            }
        }
    }

    fn fr(&self) -> String {
        match *self {
            Message::Learned {
                number,
                category,
                instruction,
                path,
            } => format!(
                "Règle apprise n°{number} ([{category}]) : {instruction} \u{2014} enregistrée dans {path}"
            ),
            Message::Duplicate {
                number,
                category,
                instruction,
                path,
            } => format!(
                "Déjà connue comme règle n°{number} ([{category}]) : {instruction} \u{2014} rien d'appris ({path} inchangé)"
            ),
            Message::DryRun {
                number,
                category,
                instruction,
                path,
            } => format!(
                "Apprendrait la règle n°{number} ([{category}]) : {instruction} \u{2014} dans {path} (simulation, rien n'est écrit)"
            ),
            Message::RefusedDuplicate { instruction, path } => format!(
                "Non apprise : \"{instruction}\" répète une règle active \u{2014} {path} inchangé."
            ),
            Message::RefusedContradiction { instruction, path } => format!(
                "Non apprise : \"{instruction}\" contredit une règle active \u{2014} {path} inchangé."
            ),
            Message::RefusedStatement {
                instruction,
                path,
                force,
            } => format!(
                "Non apprise : \"{instruction}\" ne se lit pas comme une consigne \u{2014} {path} inchangé.\nÉcrivez-la à l'impératif (« Toujours/Ne jamais faire X - parce que Y »), ou apprenez-la telle quelle avec `{force}`. [not-imperative]"
            ),
            Message::AppliesTo { globs } => format!("  s'applique à {globs}"),
            Message::Checks { require, pattern } => {
                let verb = if require { "exige" } else { "interdit" };
                format!("  vérifiée : {verb} `{pattern}` dans sa portée (`autofix enforce`)")
            }
            Message::ProposedCheck { option } => format!(
                "  une vérification pourrait l'appliquer (non ajoutée) : apprenez-la avec \
                 {option}"
            ),
            Message::SupersedesFrom { number, from } => {
                format!("  remplace la règle n°{number} (d'après {from})")
            }
            Message::MatchSame {
                number,
                instruction,
            } => format!("  mêmes mots que la règle n°{number} : {instruction}"),
            Message::MatchContradicts {
                number,
                instruction,
            } => format!("  inverse mot pour mot la règle n°{number} : {instruction}"),
            Message::Near {
                number,
                instruction,
                score,
                supersede,
            } => format!(
                "  proche de la règle n°{number} (cosinus {}) : {instruction}\n    si la nouvelle règle la remplace, apprenez-la avec `{supersede}`",
                format!("{score:.2}").replace('.', ",")
            ),
            Message::WaysOnOne { supersede, force } => format!(
                "Si la nouvelle règle la remplace, apprenez-la avec `{supersede}` ; pour garder les deux, avec `{force}`."
            ),
            Message::WaysOnMany { supersede, force } => format!(
                "Si la nouvelle règle les remplace, apprenez-la avec `{supersede}` ; pour garder les deux, avec `{force}`."
            ),
            Message::ExportsRefreshed { paths } => {
                format!("  copies exportées mises à jour : {paths}")
            }
        }
    }
}

/// Every refusal `learn` words in the user's language.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Refusal<'a> {
    /// `near`: the categories close to `given`, for "did you mean".
    UnknownCategory {
        given: Shown<'a>,
        allowed: Shown<'a>,
        near: &'a [&'a str],
    },
    EmptyInstruction,
    EmptyWhy,
    ControlInInstruction,
    ControlInWhy,
    UnknownSupersedes {
        number: u64,
        from: &'a str,
        path: Shown<'a>,
    },
    NumberOverflow {
        path: Shown<'a>,
    },
    Verify {
        path: Shown<'a>,
    },
    StdinUnreadable,
    StdinNotARule,
    /// A `--path` glob refused, and what is wrong with it.
    InvalidGlob {
        glob: Shown<'a>,
        problem: GlobProblem,
    },
}

impl Refusal<'_> {
    /// The refusal in `lang`.
    pub(crate) fn text(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.en(),
            Lang::Fr => self.fr(),
        }
    }

    fn en(&self) -> String {
        match *self {
            Refusal::UnknownCategory { given, allowed, near } => {
                let hint = if near.is_empty() {
                    String::new()
                } else {
                    format!("; did you mean {}?", ticked(near, " or "))
                };
                format!("unknown category `{given}`; use one of {allowed}{hint}")
            }
            Refusal::EmptyInstruction => "the instruction is empty".to_string(),
            Refusal::EmptyWhy => "the why is empty".to_string(),
            Refusal::ControlInInstruction => "the instruction contains a line break, a line separator or another control character (bidirectional controls and invisible tag characters included); write it on one line, in plain text".to_string(),
            Refusal::ControlInWhy => "the why contains a line break, a line separator or another control character (bidirectional controls and invisible tag characters included); write it on one line, in plain text".to_string(),
            Refusal::UnknownSupersedes { number, from, path } => format!(
                "cannot supersede rule {number} (from {from}): {path} has no rule with that number"
            ),
            Refusal::NumberOverflow { path } => {
                format!("{path}: the next rule number would exceed 2^63 - 1")
            }
            Refusal::Verify { path } => format!(
                "refusing to write {path}: the new text does not read back as the old rules plus the new one (this is a bug in autofix; the file is unchanged)"
            ),
            Refusal::StdinUnreadable => "cannot read the rule from standard input".to_string(),
            Refusal::StdinNotARule => "standard input is not a rule: expected {\"Category\", \"Instruction\", \"Why\"[, \"Supersedes\", \"Paths\", \"Check\", \"Force\"]}".to_string(),
            Refusal::InvalidGlob { glob, problem } => {
                // A `GlobProblem` displays as its English sentence (`rules/scope.rs`).
                format!("invalid glob `{glob}` for --path: it {problem}")
            }
        }
    }

    fn fr(&self) -> String {
        match *self {
            Refusal::UnknownCategory { given, allowed, near } => {
                let hint = if near.is_empty() {
                    String::new()
                } else {
                    format!(" ; vouliez-vous dire {} ?", ticked(near, " ou "))
                };
                format!("catégorie inconnue `{given}` ; utilisez l'une de {allowed}{hint}")
            }
            Refusal::EmptyInstruction => "l'instruction est vide".to_string(),
            Refusal::EmptyWhy => "la raison (--why) est vide".to_string(),
            Refusal::ControlInInstruction => "l'instruction contient un saut de ligne, un séparateur de ligne ou un autre caractère de contrôle (contrôles bidirectionnels et caractères d'étiquette invisibles compris) ; écrivez-la sur une ligne, en texte simple".to_string(),
            Refusal::ControlInWhy => "la raison (--why) contient un saut de ligne, un séparateur de ligne ou un autre caractère de contrôle (contrôles bidirectionnels et caractères d'étiquette invisibles compris) ; écrivez-la sur une ligne, en texte simple".to_string(),
            Refusal::UnknownSupersedes { number, from, path } => format!(
                "impossible de remplacer la règle n°{number} (d'après {from}) : {path} n'a aucune règle de ce numéro"
            ),
            Refusal::NumberOverflow { path } => {
                format!("{path} : le prochain numéro de règle dépasserait 2^63 - 1")
            }
            Refusal::Verify { path } => format!(
                "écriture de {path} refusée : le nouveau texte ne se relit pas comme les anciennes règles plus la nouvelle (c'est un bogue d'autofix ; le fichier est inchangé)"
            ),
            Refusal::StdinUnreadable => "impossible de lire la règle sur l'entrée standard".to_string(),
            Refusal::StdinNotARule => "l'entrée standard n'est pas une règle : attendu {\"Category\", \"Instruction\", \"Why\"[, \"Supersedes\", \"Paths\", \"Check\", \"Force\"]}".to_string(),
            Refusal::InvalidGlob { glob, problem } => {
                let problem = glob_problem_fr(problem);
                format!("motif invalide `{glob}` pour --path : il {problem}")
            }
        }
    }
}

/// Names in backquotes, joined with `separator` (` or `).
fn ticked(names: &[&str], separator: &str) -> String {
    let names: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    names.join(separator)
}

/// What is wrong with a glob, after « il ».
fn glob_problem_fr(problem: GlobProblem) -> &'static str {
    match problem {
        GlobProblem::Control => "contient un caractère de contrôle",
        GlobProblem::Empty => "est vide",
        GlobProblem::Spaces => "commence ou finit par une espace",
        GlobProblem::EmptySegment => "a un segment de chemin vide",
        GlobProblem::Dots => {
            "nomme `.` ou `..` ; écrivez les chemins depuis la racine de l'espace de travail"
        }
        GlobProblem::LoneBackslash => "finit par un `\\` isolé",
        GlobProblem::Unclosed => "a une classe `[` sans son `]`",
        GlobProblem::BackwardRange => "a un intervalle de classe dont la fin précède le début",
        GlobProblem::OnlyExcludes => {
            "ne fait qu'exclure ; une portée a besoin d'un motif qui inclut des chemins"
        }
        GlobProblem::Comma => {
            "contient une `,` hors de `{}` : Cursor, Windsurf et Copilot y voient la fin d'un motif ; écrivez deux motifs, ou `{a,b}`"
        }
        GlobProblem::TooManyAlternatives => "a des accolades qui donnent plus de 64 motifs",
        GlobProblem::TooLong => "fait plus de 1024 octets",
        GlobProblem::Invisible => {
            "contient un caractère invisible (espace sans chasse, gluon de mots, trait d'union conditionnel ou indicateur d'ordre des octets)"
        }
    }
}

/// `error`'s message in `lang` when it is one of `learn`'s own refusals; `None` for the
/// errors `learn` shares with every command (an unreadable or invalid file, the lock),
/// which keep their English message.
pub(crate) fn learn_error(lang: Lang, error: &RulesError) -> Option<String> {
    let path = |path: &std::path::Path| path.display().to_string();
    let refusal = match error {
        RulesError::UnknownCategory { given, allowed, .. } => {
            let near = crate::report::text::closest(
                &normalize(given),
                Category::ALL.map(Category::as_str),
            );
            return Some(
                Refusal::UnknownCategory {
                    given: Shown(given),
                    allowed: Shown(allowed),
                    near: &near,
                }
                .text(lang),
            );
        }
        RulesError::EmptyField { field } => {
            by_field(field, Refusal::EmptyInstruction, Refusal::EmptyWhy)?
        }
        RulesError::ControlCharacter { field } => {
            by_field(field, Refusal::ControlInInstruction, Refusal::ControlInWhy)?
        }
        RulesError::UnknownSupersedes {
            path: file,
            number,
            from,
        } => {
            let file = path(file);
            return Some(
                Refusal::UnknownSupersedes {
                    number: *number,
                    from,
                    path: Shown(&file),
                }
                .text(lang),
            );
        }
        RulesError::NumberOverflow { path: file } => {
            return Some(
                Refusal::NumberOverflow {
                    path: Shown(&path(file)),
                }
                .text(lang),
            );
        }
        RulesError::Verify { path: file } => {
            return Some(
                Refusal::Verify {
                    path: Shown(&path(file)),
                }
                .text(lang),
            );
        }
        RulesError::InvalidGlob { glob, problem } => Refusal::InvalidGlob {
            glob: Shown(glob),
            problem: *problem,
        },
        _ => return None,
    };
    Some(refusal.text(lang))
}

/// The refusal about one of the two texts.
fn by_field<'a>(field: &str, instruction: Refusal<'a>, why: Refusal<'a>) -> Option<Refusal<'a>> {
    match field {
        "instruction" => Some(instruction),
        "why" => Some(why),
        _ => None,
    }
}

/// Where an outcome is read: the ways on after a refusal are named as that front end
/// spells them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Front {
    Cli,
    Mcp,
}

/// What `learn` says after it ran, in `lang`, naming the rules file by its display path:
/// the acknowledgement, a line for the scope and for every rule the new one
/// supersedes; for a refusal, the rules it repeats or contradicts and the two ways on,
/// spelled as `front` spells them; then the exported copies refreshed.
pub(crate) fn learned(learned: &Learned, lang: Lang, front: Front) -> String {
    let mut text = outcome_text(learned, lang, front);
    text.push_str(&exports_refreshed(learned, lang));
    text
}

/// The line saying which category `learn` guessed from the instruction's words.
pub(crate) fn category_guessed(lang: Lang, category: &str) -> String {
    match lang {
        Lang::En => format!("  category {category}, guessed from its words (`-c` sets another)\n"),
        Lang::Fr => {
            format!("  catégorie {category}, devinée d'après ses mots (`-c` en fixe une autre)\n")
        }
    }
}

/// The line naming the exported copies a write brought up to date (none: nothing), as
/// `learn` and `retire` print it.
pub(crate) fn exports_refreshed(learned: &Learned, lang: Lang) -> String {
    if learned.exports.is_empty() {
        return String::new();
    }
    let paths: Vec<&str> = learned.exports.iter().map(|e| e.path.as_str()).collect();
    let paths = paths.join(", ");
    let mut line = Message::ExportsRefreshed {
        paths: Shown(&paths),
    }
    .text(lang);
    line.push('\n');
    line
}

fn outcome_text(learned: &Learned, lang: Lang, front: Front) -> String {
    let outcome = &learned.outcome;
    let mut lines = vec![acknowledgement(learned, front).text(lang)];
    if !outcome.rule.paths.is_empty() {
        let globs: Vec<String> = outcome
            .rule
            .paths
            .iter()
            .map(|g| format!("`{g}`"))
            .collect();
        let globs = globs.join(", ");
        lines.push(
            Message::AppliesTo {
                globs: Shown(&globs),
            }
            .text(lang),
        );
    }
    lines.extend(check_lines(outcome, lang, front));
    for reference in &outcome.supersedes {
        let message = Message::SupersedesFrom {
            number: reference.rule,
            from: reference.from,
        };
        lines.push(message.text(lang));
    }
    for found in &outcome.matches {
        let (number, instruction) = (found.rule, Shown(&found.instruction));
        // The line ends with the finding's code, as every refused line does.
        let (message, code) = match found.kind {
            Kind::Duplicate => (
                Message::MatchSame {
                    number,
                    instruction,
                },
                Code::SimilarRules,
            ),
            Kind::Contradiction => (
                Message::MatchContradicts {
                    number,
                    instruction,
                },
                Code::ConflictingRules,
            ),
        };
        lines.push(format!("{} [{}]", message.text(lang), code.as_str()));
    }
    if outcome.status == Status::Refused && !outcome.matches.is_empty() {
        lines.push(ways_on(outcome, lang, front));
    }
    for near in &learned.near {
        let supersede = match front {
            Front::Cli => format!("--supersedes {}", near.rule),
            Front::Mcp => format!("supersedes: [{}]", near.rule),
        };
        let message = Message::Near {
            number: near.rule,
            instruction: Shown(&near.instruction),
            score: near.score,
            supersede: Shown(&supersede),
        };
        lines.push(message.text(lang));
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// The rule's check, or the check its shape suggests (`learn` shows it, never adds it).
fn check_lines(outcome: &Outcome, lang: Lang, front: Front) -> Option<String> {
    use crate::rules::pattern::{self, Kind};
    if let Some(check) = &outcome.rule.check {
        let message = Message::Checks {
            require: check.kind == Kind::Require,
            pattern: Shown(&check.pattern),
        };
        return Some(message.text(lang));
    }
    if outcome.status == Status::Refused || outcome.rule.retirement {
        return None;
    }
    let proposal = pattern::propose(&outcome.rule.instruction)?;
    let option = match front {
        Front::Cli => format!("`--check '{}'`", proposal.pattern.replace('\'', "'\\''")),
        Front::Mcp => format!(
            "`check: {}`",
            serde_json::to_string(&proposal.pattern).ok()?
        ),
    };
    Some(
        Message::ProposedCheck {
            option: Shown(&option),
        }
        .text(lang),
    )
}

/// After a refusal: `--supersedes N` if the new rule replaces them, `--force` to keep
/// both.
fn ways_on(outcome: &Outcome, lang: Lang, front: Front) -> String {
    let numbers: Vec<String> = outcome.matches.iter().map(|m| m.rule.to_string()).collect();
    let (supersede, force) = match front {
        Front::Cli => (
            numbers
                .iter()
                .map(|n| format!("--supersedes {n}"))
                .collect::<Vec<_>>()
                .join(" "),
            "--force",
        ),
        Front::Mcp => (
            format!("supersedes: [{}]", numbers.join(", ")),
            "force: true",
        ),
    };
    let (supersede, force) = (Shown(&supersede), Shown(force));
    let message = if numbers.len() == 1 {
        Message::WaysOnOne { supersede, force }
    } else {
        Message::WaysOnMany { supersede, force }
    };
    message.text(lang)
}

/// The first line: learned, known, would be learned, or refused.
fn acknowledgement(learned: &Learned, front: Front) -> Message<'_> {
    let outcome = &learned.outcome;
    let rule = &outcome.rule;
    let (number, category, instruction, path) = (
        rule.number,
        Shown(&rule.category),
        Shown(&rule.instruction),
        Shown(&learned.path),
    );
    match outcome.status {
        Status::Learned => Message::Learned {
            number,
            category,
            instruction,
            path,
        },
        Status::Duplicate => Message::Duplicate {
            number,
            category,
            instruction,
            path,
        },
        Status::DryRun => Message::DryRun {
            number,
            category,
            instruction,
            path,
        },
        Status::Refused => match outcome.matches.first().map(|m| m.kind) {
            Some(Kind::Contradiction) => Message::RefusedContradiction { instruction, path },
            Some(Kind::Duplicate) => Message::RefusedDuplicate { instruction, path },
            None => Message::RefusedStatement {
                instruction,
                path,
                force: Shown(match front {
                    Front::Cli => "--force",
                    Front::Mcp => "force: true",
                }),
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn the_first_locale_variable_set_decides() {
        assert_eq!(Lang::from_locale("fr_FR.UTF-8"), Lang::Fr);
        assert_eq!(Lang::from_locale("fr"), Lang::Fr);
        assert_eq!(Lang::from_locale("FR_ca@euro"), Lang::Fr);
        assert_eq!(Lang::from_locale("C"), Lang::En);
        assert_eq!(Lang::from_locale("POSIX"), Lang::En);
        assert_eq!(Lang::from_locale("de_DE.UTF-8"), Lang::En);
        assert_eq!(Lang::from_locale("french"), Lang::En);
        let decide = |all, messages, lang| Lang::from_locale_vars([all, messages, lang]);
        assert_eq!(decide(None, None, Some("fr_FR.UTF-8")), Lang::Fr);
        assert_eq!(decide(Some("C"), None, Some("fr_FR.UTF-8")), Lang::En);
        assert_eq!(decide(Some(""), Some("fr_BE"), Some("en_US")), Lang::Fr);
        assert_eq!(decide(None, Some("en_GB"), Some("fr_FR")), Lang::En);
        assert_eq!(decide(None, None, None), Lang::En);
    }

    #[test]
    fn values_are_shown_as_they_are_and_other_braces_kept() {
        let text = Message::Learned {
            number: 3,
            category: Shown("CODE"),
            instruction: Shown("Always {path} {"),
            path: Shown("a.json"),
        }
        .text(Lang::Fr);
        assert_eq!(
            text,
            "Règle apprise n°3 ([CODE]) : Always {path} { \u{2014} enregistrée dans a.json"
        );
        let forged = Message::AppliesTo {
            globs: Shown("`a`\n::error::x"),
        }
        .text(Lang::En);
        assert!(!forged.contains('\n'), "{forged}");
        assert!(
            Refusal::StdinNotARule
                .text(Lang::En)
                .ends_with("\"Paths\", \"Check\", \"Force\"]}")
        );
    }

    /// The English sentences are what the errors say in English: they cannot drift from
    /// the library's own messages.
    #[test]
    fn the_english_sentences_match_the_library_messages() {
        let path = PathBuf::from("rules/autofix.json");
        let errors = [
            RulesError::UnknownCategory {
                given: "cdoe".into(),
                allowed: Category::list(),
                hint: crate::report::text::did_you_mean(&["CODE"]),
            },
            RulesError::UnknownCategory {
                given: "zzzzzz".into(),
                allowed: Category::list(),
                hint: String::new(),
            },
            RulesError::EmptyField {
                field: "instruction",
            },
            RulesError::EmptyField { field: "why" },
            RulesError::ControlCharacter {
                field: "instruction",
            },
            RulesError::ControlCharacter { field: "why" },
            RulesError::UnknownSupersedes {
                path: path.clone(),
                number: 4,
                from: "Why",
            },
            RulesError::NumberOverflow { path: path.clone() },
            RulesError::Verify { path },
        ];
        let globs = GlobProblem::ALL.map(|problem| RulesError::InvalidGlob {
            glob: "src/[x".into(),
            problem,
        });
        for error in errors.iter().chain(&globs) {
            assert_eq!(
                learn_error(Lang::En, error).as_deref(),
                Some(&*error.to_string())
            );
            let french = learn_error(Lang::Fr, error).unwrap();
            assert_ne!(french, error.to_string());
        }
        let french = learn_error(Lang::Fr, &errors[0]).unwrap();
        assert!(
            french.ends_with(" ; vouliez-vous dire `CODE` ?"),
            "{french}"
        );
    }
}
