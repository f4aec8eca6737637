//! The languages `learn` answers in: which one the locale asks for, and the messages in
//! one table (`Message::texts`: a row per message, a column per language). The JSON
//! output, the rules file and the exit statuses never change with the language.
//!
//! To add a message, add a [`Message`] variant and its row; to add a language, add a
//! [`Lang`] variant, its locale prefix and a column: the compiler then points at every row
//! that lacks it.

use std::fmt;

use crate::rules::category::normalize;
use crate::rules::scope::GlobProblem;
use crate::rules::{Category, RulesError};

/// A language `learn` speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lang {
    En,
    Fr,
}

/// How many languages there are: the width of the table.
const LANGS: usize = 2;

impl Lang {
    pub(crate) const ALL: [Lang; LANGS] = [Lang::En, Lang::Fr];

    /// The language code of a locale name (`fr_FR.UTF-8` → `fr`).
    fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }

    /// The language's column in the table: its place in [`Lang::ALL`].
    fn column(self) -> usize {
        self as usize
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

    /// The language of this process's locale environment.
    pub(crate) fn from_env() -> Lang {
        let values = ["LC_ALL", "LC_MESSAGES", "LANG"].map(std::env::var_os);
        Lang::from_locale_vars(values.iter().map(|v| v.as_ref().and_then(|v| v.to_str())))
    }
}

/// Every sentence `learn` says to a person.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Message {
    Learned,
    Duplicate,
    DryRun,
    UnknownCategory,
    /// Appended to [`Message::UnknownCategory`] when a category is close.
    DidYouMean,
    /// Joins the suggestions of [`Message::DidYouMean`].
    Or,
    EmptyInstruction,
    EmptyWhy,
    ControlInInstruction,
    ControlInWhy,
    UnknownSupersedes,
    /// A rule the learned one supersedes, and where that was said.
    SupersedesFrom,
    /// The exported files `learn` brought up to date.
    ExportsRefreshed,
    /// A rule refused because it repeats an active rule in other words.
    RefusedDuplicate,
    /// A rule refused because it contradicts an active rule.
    RefusedContradiction,
    /// The active rule a refused (or forced) rule repeats.
    MatchSame,
    /// The active rule a refused (or forced) rule contradicts.
    MatchContradicts,
    /// The ways on after a refusal, for one matching rule and for several.
    WaysOnOne,
    WaysOnMany,
    NumberOverflow,
    Verify,
    StdinUnreadable,
    StdinNotARule,
    /// A `--path` glob refused; `{problem}` is one of the `Glob…` rows.
    InvalidGlob,
    GlobControl,
    GlobEmpty,
    GlobSpaces,
    GlobEmptySegment,
    GlobDots,
    GlobLoneBackslash,
    GlobUnclosed,
    GlobBackwardRange,
    GlobOnlyExcludes,
    GlobInvisible,
    GlobComma,
    GlobTooManyAlternatives,
    /// After the acknowledgement of a scoped rule.
    AppliesTo,
}

impl Message {
    /// The row: the message in each language, in [`Lang::ALL`] order. `{name}` is filled by
    /// [`Message::fill`]; any other brace is text.
    fn texts(self) -> [&'static str; LANGS] {
        self.learn_texts().unwrap_or_else(|| self.glob_texts())
    }

    /// The rows of `learn`'s acknowledgements and refusals.
    fn learn_texts(self) -> Option<[&'static str; LANGS]> {
        Some(match self {
            Message::Learned => [
                "Learned rule #{number} ([{category}]): {instruction} \u{2014} saved to {path}",
                "Règle apprise n°{number} ([{category}]) : {instruction} \u{2014} enregistrée dans {path}",
            ],
            Message::Duplicate => [
                "Already known as rule #{number} ([{category}]): {instruction} \u{2014} nothing learned ({path} unchanged)",
                "Déjà connue comme règle n°{number} ([{category}]) : {instruction} \u{2014} rien d'appris ({path} inchangé)",
            ],
            Message::DryRun => [
                "Would learn rule #{number} ([{category}]): {instruction} \u{2014} into {path} (dry run, nothing written)",
                "Apprendrait la règle n°{number} ([{category}]) : {instruction} \u{2014} dans {path} (simulation, rien n'est écrit)",
            ],
            Message::UnknownCategory => [
                "unknown category `{given}`; use one of {allowed}{hint}",
                "catégorie inconnue `{given}` ; utilisez l'une de {allowed}{hint}",
            ],
            Message::DidYouMean => ["; did you mean {names}?", " ; vouliez-vous dire {names} ?"],
            Message::Or => [" or ", " ou "],
            Message::EmptyInstruction => ["the instruction is empty", "l'instruction est vide"],
            Message::EmptyWhy => ["the why is empty", "la raison (--why) est vide"],
            Message::ControlInInstruction => [
                "the instruction contains a line break, a line separator or another control character (bidirectional controls and invisible tag characters included); write it on one line, in plain text",
                "l'instruction contient un saut de ligne, un séparateur de ligne ou un autre caractère de contrôle (contrôles bidirectionnels et caractères d'étiquette invisibles compris) ; écrivez-la sur une ligne, en texte simple",
            ],
            Message::ControlInWhy => [
                "the why contains a line break, a line separator or another control character (bidirectional controls and invisible tag characters included); write it on one line, in plain text",
                "la raison (--why) contient un saut de ligne, un séparateur de ligne ou un autre caractère de contrôle (contrôles bidirectionnels et caractères d'étiquette invisibles compris) ; écrivez-la sur une ligne, en texte simple",
            ],
            Message::UnknownSupersedes => [
                "cannot supersede rule {number} (from {from}): {path} has no rule with that number",
                "impossible de remplacer la règle n°{number} (d'après {from}) : {path} n'a aucune règle de ce numéro",
            ],
            Message::RefusedDuplicate => [
                "Not learned: \"{instruction}\" repeats an active rule in other words \u{2014} {path} unchanged.",
                "Non apprise : \"{instruction}\" répète une règle active en d'autres termes \u{2014} {path} inchangé.",
            ],
            Message::RefusedContradiction => [
                "Not learned: \"{instruction}\" contradicts an active rule \u{2014} {path} unchanged.",
                "Non apprise : \"{instruction}\" contredit une règle active \u{2014} {path} inchangé.",
            ],
            Message::MatchSame => [
                "  same rule as rule #{number}: {instruction} (score {score})",
                "  même règle que la règle n°{number} : {instruction} (score {score})",
            ],
            Message::MatchContradicts => [
                "  contradicts rule #{number}: {instruction} (score {score})",
                "  contredit la règle n°{number} : {instruction} (score {score})",
            ],
            Message::WaysOnOne => [
                "If the new rule replaces it, learn it with `{supersede}`; to keep both, learn it with `{force}`.",
                "Si la nouvelle règle la remplace, apprenez-la avec `{supersede}` ; pour garder les deux, avec `{force}`.",
            ],
            Message::WaysOnMany => [
                "If the new rule replaces them, learn it with `{supersede}`; to keep both, learn it with `{force}`.",
                "Si la nouvelle règle les remplace, apprenez-la avec `{supersede}` ; pour garder les deux, avec `{force}`.",
            ],
            Message::ExportsRefreshed => [
                "  exported copies refreshed: {paths}",
                "  copies exportées mises à jour : {paths}",
            ],
            Message::SupersedesFrom => [
                "  supersedes rule {number} (from {from})",
                "  remplace la règle n°{number} (d'après {from})",
            ],
            Message::NumberOverflow => [
                "{path}: the next rule number would exceed 2^63 - 1",
                "{path} : le prochain numéro de règle dépasserait 2^63 - 1",
            ],
            Message::Verify => [
                "refusing to write {path}: the new text does not read back as the old rules plus the new one (this is a bug in autofix; the file is unchanged)",
                "écriture de {path} refusée : le nouveau texte ne se relit pas comme les anciennes règles plus la nouvelle (c'est un bogue d'autofix ; le fichier est inchangé)",
            ],
            Message::StdinUnreadable => [
                "cannot read the rule from standard input",
                "impossible de lire la règle sur l'entrée standard",
            ],
            Message::StdinNotARule => [
                "standard input is not a rule: expected {\"Category\", \"Instruction\", \"Why\"[, \"Supersedes\", \"Paths\", \"Force\"]}",
                "l'entrée standard n'est pas une règle : attendu {\"Category\", \"Instruction\", \"Why\"[, \"Supersedes\", \"Paths\", \"Force\"]}",
            ],
            // Named, not `_`: a new message without a row is a compile error.
            Message::InvalidGlob
            | Message::GlobControl
            | Message::GlobEmpty
            | Message::GlobSpaces
            | Message::GlobEmptySegment
            | Message::GlobDots
            | Message::GlobLoneBackslash
            | Message::GlobUnclosed
            | Message::GlobBackwardRange
            | Message::GlobOnlyExcludes
            | Message::GlobInvisible
            | Message::GlobComma
            | Message::GlobTooManyAlternatives
            | Message::AppliesTo => return None,
        })
    }

    /// The rows about a rule's scope (`--path` globs).
    fn glob_texts(self) -> [&'static str; LANGS] {
        match self {
            Message::InvalidGlob => [
                "invalid glob `{glob}` for --path: it {problem}",
                "motif invalide `{glob}` pour --path : il {problem}",
            ],
            Message::GlobControl => [
                "contains a control character",
                "contient un caractère de contrôle",
            ],
            Message::GlobEmpty => ["is empty", "est vide"],
            Message::GlobSpaces => [
                "starts or ends with a space",
                "commence ou finit par une espace",
            ],
            Message::GlobEmptySegment => {
                ["has an empty path segment", "a un segment de chemin vide"]
            }
            Message::GlobDots => [
                "names `.` or `..`; write paths from the workspace root",
                "nomme `.` ou `..` ; écrivez les chemins depuis la racine de l'espace de travail",
            ],
            Message::GlobLoneBackslash => ["ends with a lone `\\`", "finit par un `\\` isolé"],
            Message::GlobUnclosed => [
                "has a `[` class without its `]`",
                "a une classe `[` sans son `]`",
            ],
            Message::GlobBackwardRange => [
                "has a class range whose end comes before its start",
                "a un intervalle de classe dont la fin précède le début",
            ],
            Message::GlobOnlyExcludes => [
                "only excludes; a scope needs a glob that includes paths",
                "ne fait qu'exclure ; une portée a besoin d'un motif qui inclut des chemins",
            ],
            Message::GlobComma => [
                "has a `,` outside `{}`: Cursor, Windsurf and Copilot read a comma as the end of a glob; write two globs, or `{a,b}`",
                "contient une `,` hors de `{}` : Cursor, Windsurf et Copilot y voient la fin d'un motif ; écrivez deux motifs, ou `{a,b}`",
            ],
            Message::GlobTooManyAlternatives => [
                "has braces that expand to more than 64 globs",
                "a des accolades qui donnent plus de 64 motifs",
            ],
            Message::GlobInvisible => [
                "contains an invisible character (a zero-width space, a word joiner, a soft hyphen or a byte order mark)",
                "contient un caractère invisible (espace sans chasse, gluon de mots, trait d'union conditionnel ou indicateur d'ordre des octets)",
            ],
            Message::AppliesTo => ["  applies to {globs}", "  s'applique à {globs}"],
            _ => unreachable!("`learn_texts` has the other rows"),
        }
    }

    /// The message in `lang`, each `{name}` replaced by its value in one pass (a value is
    /// never searched for placeholders, so a rule's text is printed as it is).
    pub(crate) fn fill(self, lang: Lang, values: &[(&str, &dyn fmt::Display)]) -> String {
        let template = self.texts()[lang.column()];
        let mut out = String::with_capacity(template.len() + 64);
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let value = after.find('}').and_then(|close| {
                let name = &after[..close];
                values
                    .iter()
                    .find(|(key, _)| *key == name)
                    .map(|(_, value)| (close, value))
            });
            match value {
                Some((close, value)) => {
                    // A value may quote the rules file (an existing rule's text).
                    out.push_str(&crate::report::text::shown(&value.to_string()));
                    rest = &after[close + 1..];
                }
                None => {
                    out.push('{');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// The message in `lang` when it has no placeholder.
    pub(crate) fn text(self, lang: Lang) -> &'static str {
        self.texts()[lang.column()]
    }
}

/// `error`'s message in `lang` when it is one of `learn`'s own refusals; `None` for the
/// errors `learn` shares with every command (an unreadable or invalid file, the lock),
/// which keep their English message.
pub(crate) fn learn_error(lang: Lang, error: &RulesError) -> Option<String> {
    let path = |path: &std::path::Path| path.display().to_string();
    Some(match error {
        RulesError::UnknownCategory { given, allowed, .. } => {
            let names: Vec<String> = crate::report::text::closest(
                &normalize(given),
                Category::ALL.map(Category::as_str),
            )
            .iter()
            .map(|name| format!("`{name}`"))
            .collect();
            let hint = if names.is_empty() {
                String::new()
            } else {
                let names = names.join(Message::Or.text(lang));
                Message::DidYouMean.fill(lang, &[("names", &names)])
            };
            Message::UnknownCategory.fill(
                lang,
                &[("given", given), ("allowed", allowed), ("hint", &hint)],
            )
        }
        RulesError::EmptyField { field } => {
            by_field(lang, field, Message::EmptyInstruction, Message::EmptyWhy)?
        }
        RulesError::ControlCharacter { field } => by_field(
            lang,
            field,
            Message::ControlInInstruction,
            Message::ControlInWhy,
        )?,
        RulesError::UnknownSupersedes {
            path: file,
            number,
            from,
        } => Message::UnknownSupersedes.fill(
            lang,
            &[("number", number), ("from", from), ("path", &path(file))],
        ),
        RulesError::NumberOverflow { path: file } => {
            Message::NumberOverflow.fill(lang, &[("path", &path(file))])
        }
        RulesError::Verify { path: file } => Message::Verify.fill(lang, &[("path", &path(file))]),
        RulesError::InvalidGlob { glob, problem } => {
            let problem = glob_problem(*problem).text(lang);
            Message::InvalidGlob.fill(lang, &[("glob", glob), ("problem", &problem)])
        }
        _ => return None,
    })
}

/// The row that says what is wrong with a glob.
fn glob_problem(problem: GlobProblem) -> Message {
    match problem {
        GlobProblem::Control => Message::GlobControl,
        GlobProblem::Empty => Message::GlobEmpty,
        GlobProblem::Spaces => Message::GlobSpaces,
        GlobProblem::EmptySegment => Message::GlobEmptySegment,
        GlobProblem::Dots => Message::GlobDots,
        GlobProblem::LoneBackslash => Message::GlobLoneBackslash,
        GlobProblem::Unclosed => Message::GlobUnclosed,
        GlobProblem::BackwardRange => Message::GlobBackwardRange,
        GlobProblem::OnlyExcludes => Message::GlobOnlyExcludes,
        GlobProblem::Invisible => Message::GlobInvisible,
        GlobProblem::Comma => Message::GlobComma,
        GlobProblem::TooManyAlternatives => Message::GlobTooManyAlternatives,
    }
}

/// The message for a refusal about one of the two texts.
fn by_field(lang: Lang, field: &str, instruction: Message, why: Message) -> Option<String> {
    match field {
        "instruction" => Some(instruction.text(lang).to_string()),
        "why" => Some(why.text(lang).to_string()),
        _ => None,
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
        for (column, lang) in Lang::ALL.into_iter().enumerate() {
            assert_eq!(lang.column(), column);
        }
    }

    #[test]
    fn placeholders_are_filled_once_and_other_braces_kept() {
        let text = Message::Learned.fill(
            Lang::Fr,
            &[
                ("number", &3),
                ("category", &"CODE"),
                ("instruction", &"Always {path} {"),
                ("path", &"a.json"),
            ],
        );
        assert_eq!(
            text,
            "Règle apprise n°3 ([CODE]) : Always {path} { \u{2014} enregistrée dans a.json"
        );
        assert!(
            Message::StdinNotARule
                .fill(Lang::En, &[])
                .ends_with("\"Paths\", \"Force\"]}")
        );
    }

    /// The English column is what the errors say in English: the table cannot drift from
    /// the library's own messages.
    #[test]
    fn the_english_column_matches_the_library_messages() {
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
