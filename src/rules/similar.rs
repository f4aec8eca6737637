//! Near-duplicate and contradicting rules, found without a model: each instruction is
//! reduced to its directive (the text before "- because"), a polarity (Always/Never, Prefer/
//! Avoid, toujours/jamais, ne … pas) and a set of normalised content words; two rules say
//! the same thing when those sets nearly coincide, and contradict when they do with
//! opposite polarities, or when one replaces ("X instead of Y") what the other asks for.
//! `learn` compares one new rule with every rule; `check` finds pairs through an index
//! over the words, so it never compares all pairs.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use memchr::memmem::Finder;

use serde::Serialize;

/// The weighted Jaccard score from which two clauses are the same statement.
const SAME_STATEMENT: f64 = 0.75;
/// Words common to most rules count this much; every other word counts 1.
const GENERIC_WEIGHT: f64 = 0.25;
/// `check` compares a rule with at most this many rules sharing its rarest word, so a file
/// of near-identical rules stays linear.
const MAX_CANDIDATES: usize = 2_000;

/// How a rule relates to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Kind {
    /// The same rule in other words.
    Duplicate,
    /// The same statement with the opposite polarity, or a replacement of what it asks for.
    Contradiction,
}

/// An existing rule that a new one repeats or contradicts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Match {
    /// The existing rule's number.
    pub rule: u64,
    pub kind: Kind,
    /// How much of the two statements' words coincide (weighted Jaccard, 0 to 1).
    pub score: f64,
    /// The existing rule's instruction.
    pub instruction: String,
}

/// The stems of the words compared, each stored once: a word holds its stem's number in
/// this table, so a word costs 8 bytes and compares as an integer. (As an owned string in
/// every word, the words of 100,000 rules took most of `check`'s memory, and comparing
/// them most of its time.)
struct Stems {
    /// Each stem's number, by its text: the one lookup per word read.
    ids: HashMap<Box<str>, u32>,
    /// Each number's text, for the needles `matches` searches for.
    texts: Vec<Box<str>>,
    /// The stems of [`OPPOSITES`], each pair both ways.
    opposites: Vec<(u32, u32)>,
}

impl Stems {
    fn new() -> Stems {
        let mut stems = Stems {
            ids: HashMap::new(),
            texts: Vec::new(),
            opposites: Vec::new(),
        };
        for (a, b) in OPPOSITES {
            let (a, b) = (stems.id(stem(a)), stems.id(stem(b)));
            stems.opposites.extend([(a, b), (b, a)]);
        }
        stems
    }

    /// The number of `stem`, given it on its first sight.
    fn id(&mut self, stem: &str) -> u32 {
        if let Some(&id) = self.ids.get(stem) {
            return id;
        }
        // Distinct stems are fewer than the bytes of the text they come from: 2^32 of them
        // would need a rules file of many GiB, past the file cap and the memory alike.
        let id = u32::try_from(self.texts.len()).expect("fewer than 2^32 distinct stems");
        self.ids.insert(stem.into(), id);
        self.texts.push(stem.into());
        id
    }

    fn text(&self, id: u32) -> &str {
        &self.texts[id as usize]
    }
}

/// One normalised word: its stem's number in the [`Stems`] its rules were read with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Word {
    stem: u32,
    /// A word most rules share ("use", "code", "project"): it weighs little and never makes
    /// two rules different on its own.
    generic: bool,
}

impl Word {
    fn weight(self) -> f64 {
        if self.generic { GENERIC_WEIGHT } else { 1.0 }
    }
}

/// A statement: a polarity and the words it is about (sorted, without repeats). The word
/// lists are boxed slices: read once, never grown, so no spare capacity is kept per rule.
#[derive(Clone, Debug, Default, PartialEq)]
struct Clause {
    negative: bool,
    words: Box<[Word]>,
    /// The first content word, unless a marker was the verb ("Avoid X", "Prefer X").
    verb: Option<Word>,
    /// The meaningful words of the object: after the verb, before the first preposition
    /// ("use [npm scripts] for builds"), sorted.
    object: Box<[Word]>,
    /// Whether the statement says more than its verb and object ("… for DOM updates").
    scoped: bool,
}

/// What an instruction says: its main statement and, for "X instead of Y", the replaced
/// thing Y as a statement of the opposite polarity (all of it object, no verb). The two
/// rare clauses are boxed, so a rule without them costs two pointers, not two clauses.
#[derive(Clone, Debug, Default, PartialEq)]
struct Shape {
    main: Clause,
    replaced: Option<Box<Clause>>,
    /// The main statement said the other way round, through a word with one opposite
    /// ("named exports" is "no default exports", "single quotes" is "no double quotes").
    flipped: Option<Box<Clause>>,
}

impl Shape {
    fn of(instruction: &str, stems: &mut Stems) -> Shape {
        // Only what `learn` accepts of an instruction is compared: a 7 MiB one is not one
        // statement, and reading all of it into words took 27 times the file in memory.
        let instruction = clip(instruction, crate::rules::file::MAX_FIELD_CHARS);
        let folded = fold(instruction);
        let directive = directive(&folded);
        let (main_text, replaced_text) = split_replacement(directive, stems);
        let main = clause(main_text, stems);
        let replaced = replaced_text.map(|text| {
            // What follows "instead of" has no verb of its own: all of it is the object.
            let mut replaced = clause_with(text, false, stems);
            replaced.negative = !main.negative;
            Box::new(replaced)
        });
        let flipped = flip(&main, stems).map(Box::new);
        Shape {
            main,
            replaced,
            flipped,
        }
    }

    fn meaningful(&self) -> impl Iterator<Item = &Word> {
        self.main.words.iter().filter(|w| !w.generic)
    }
}

/// Whether `new` repeats or contradicts `old`, and how closely.
fn relate(new: &Shape, old: &Shape) -> Option<(Kind, f64)> {
    let mut best: Option<(Kind, f64)> = None;
    let mut consider = |found: Option<(Kind, f64)>| {
        if let Some((kind, score)) = found
            && best.is_none_or(|(k, s)| (kind, score) > (k, s))
        {
            best = Some((kind, score));
        }
    };
    if let Some(score) = same_statement(&new.main, &old.main) {
        let kind = if new.main.negative == old.main.negative {
            Kind::Duplicate
        } else {
            Kind::Contradiction
        };
        consider(Some((kind, score)));
    }
    consider(narrows(&new.main, &old.main));
    if let Some(replaced) = &new.replaced {
        consider(replaces(replaced, &new.main, &old.main));
    }
    for (flipped, other) in [(&new.flipped, &old.main), (&old.flipped, &new.main)] {
        if let Some(flipped) = flipped
            && let Some(score) = same_statement(flipped, other)
        {
            let kind = if flipped.negative == other.negative {
                Kind::Duplicate
            } else {
                Kind::Contradiction
            };
            consider(Some((kind, score)));
        }
    }
    if let Some(replaced) = &old.replaced {
        consider(replaces(replaced, &old.main, &new.main));
    }
    best
}

/// The weighted Jaccard score of two clauses' words when they are the same statement: no
/// side has a meaningful word the other lacks on both sides ("cargo fmt" against "cargo
/// clippy" is a different rule, whatever else they share).
fn same_statement(a: &Clause, b: &Clause) -> Option<f64> {
    let only = |x: &Clause, y: &Clause| {
        x.words
            .iter()
            .any(|w| !w.generic && y.words.binary_search(w).is_err())
    };
    if only(a, b) && only(b, a) {
        return None;
    }
    let shared_meaningful = a
        .words
        .iter()
        .any(|w| !w.generic && b.words.binary_search(w).is_ok());
    if !shared_meaningful {
        return None;
    }
    let score = jaccard(a, b);
    (score >= SAME_STATEMENT).then_some(score)
}

fn jaccard(a: &Clause, b: &Clause) -> f64 {
    let total = |c: &Clause| c.words.iter().copied().map(Word::weight).sum::<f64>();
    let shared: f64 = a
        .words
        .iter()
        .filter(|w| b.words.binary_search(w).is_ok())
        .copied()
        .map(Word::weight)
        .sum();
    let union = total(a) + total(b) - shared;
    if union == 0.0 { 0.0 } else { shared / union }
}

/// Words with one opposite in the statements rules make: to use one is not to use the
/// other (English and French; compared as stems).
const OPPOSITES: &[(&str, &str)] = &[("named", "default"), ("single", "double")];

/// `clause` said through its word's opposite, with the other polarity: "Always use named
/// exports" is "Never use default exports". `None` when it has no such word.
fn flip(clause: &Clause, stems: &Stems) -> Option<Clause> {
    let opposite = |word: Word| {
        stems
            .opposites
            .iter()
            .find(|(from, _)| *from == word.stem)
            .map(|&(_, to)| Word {
                stem: to,
                generic: false,
            })
    };
    if !clause.words.iter().any(|&w| opposite(w).is_some()) {
        return None;
    }
    let swap = |words: &[Word]| -> Box<[Word]> {
        let mut out: Vec<Word> = words.iter().map(|&w| opposite(w).unwrap_or(w)).collect();
        out.sort();
        out.dedup();
        out.into_boxed_slice()
    };
    Some(Clause {
        negative: !clause.negative,
        words: swap(&clause.words),
        verb: clause.verb,
        object: swap(&clause.object),
        scoped: clause.scoped,
    })
}

/// "Use fetch instead of Axios" (`replaced` = "Axios", negative) against "Use Axios for
/// HTTP requests": a contradiction when the other rule's object is exactly what is
/// replaced, with the opposite polarity ("Use npm scripts" is not "use npm"), and it does
/// not name the replacement too.
fn replaces(replaced: &Clause, main: &Clause, other: &Clause) -> Option<(Kind, f64)> {
    if replaced.negative == other.negative
        || replaced.object.is_empty()
        || replaced.object != other.object
        || main
            .object
            .iter()
            .all(|w| other.words.binary_search(w).is_ok())
    {
        return None;
    }
    Some((Kind::Contradiction, jaccard(replaced, other)))
}

/// "Never use force push" against "Always use force push on feature branches": the same
/// verb and object with opposite polarities, one of them everywhere and the other in a
/// scope, contradict where the scope applies.
fn narrows(a: &Clause, b: &Clause) -> Option<(Kind, f64)> {
    let same_action = a.verb.is_some() && a.verb == b.verb && a.object == b.object;
    (a.negative != b.negative && same_action && !a.object.is_empty() && a.scoped != b.scoped)
        .then(|| (Kind::Contradiction, jaccard(a, b)))
}

/// The first `max` characters of `text`.
fn clip(text: &str, max: usize) -> &str {
    text.char_indices()
        .nth(max)
        .map_or(text, |(at, _)| &text[..at])
}

/// Lower case, accents removed (French "dépôt" and "depot" are one word).
fn fold(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        match c {
            'à' | 'â' | 'ä' | 'á' => out.push('a'),
            'é' | 'è' | 'ê' | 'ë' => out.push('e'),
            'î' | 'ï' | 'í' => out.push('i'),
            'ô' | 'ö' | 'ó' => out.push('o'),
            'ù' | 'û' | 'ü' | 'ú' => out.push('u'),
            'ç' => out.push('c'),
            'œ' => out.push_str("oe"),
            '’' | 'ʼ' => out.push('\''),
            other => out.push(other),
        }
    }
    out
}

/// The instruction without its reason: the text before " - because", " — ", "because",
/// "parce que", "car".
fn directive(folded: &str) -> &str {
    static SEPARATORS: LazyLock<Vec<Finder<'static>>> = LazyLock::new(|| {
        [
            " - ",
            " — ",
            " – ",
            " because ",
            " parce qu",
            " car ",
            " since ",
        ]
        .into_iter()
        .map(Finder::new)
        .collect()
    });
    let end = SEPARATORS
        .iter()
        .filter_map(|finder| finder.find(folded.as_bytes()))
        .min()
        .unwrap_or(folded.len());
    &folded[..end]
}

/// Splits "X instead of Y" (and its English and French variants) into X and Y.
fn split_replacement<'a>(directive: &'a str, stems: &mut Stems) -> (&'a str, Option<&'a str>) {
    static MARKERS: LazyLock<Vec<Finder<'static>>> = LazyLock::new(|| {
        [
            " instead of ",
            " rather than ",
            " au lieu de ",
            " au lieu d'",
            " plutot que ",
            " plutot qu'",
            ", not ",
            ", pas ",
            ", never ",
            ", jamais ",
        ]
        .into_iter()
        .map(Finder::new)
        .collect()
    });
    // After "prefer X", these introduce what X is preferred to.
    static PREFERRED_TO: LazyLock<Vec<Finder<'static>>> = LazyLock::new(|| {
        [" over ", " to ", " a ", " aux ", " au "]
            .into_iter()
            .map(Finder::new)
            .collect()
    });
    let prefers = ["prefer", "privilegi"]
        .iter()
        .any(|p| directive.trim_start().starts_with(p));
    let preferred_to: &[Finder<'static>] = if prefers { &PREFERRED_TO } else { &[] };
    // "Prefer to use X": a marker right after the verb leaves no object; it is not one.
    let found = MARKERS
        .iter()
        .chain(preferred_to)
        .filter_map(|m| {
            let at = m.find(directive.as_bytes())?;
            Some((at, m.needle().len()))
        })
        .filter(|&(at, _)| !clause(&directive[..at], stems).object.is_empty())
        .min();
    match found {
        Some((at, len)) => (&directive[..at], Some(&directive[at + len..])),
        None => (directive, None),
    }
}

/// The polarity and content words of one statement that starts with its verb.
fn clause(text: &str, stems: &mut Stems) -> Clause {
    clause_with(text, true, stems)
}

/// The polarity and content words of one statement; `has_verb`: its first content word is
/// the verb, not part of the object.
fn clause_with(text: &str, has_verb: bool, stems: &mut Stems) -> Clause {
    let mut clause = Clause::default();
    let (mut words_read, mut object) = (Vec::new(), Vec::new());
    let mut french_negation = false;
    let mut expect_verb = has_verb;
    let mut in_object = true;
    for raw in words(text) {
        match raw {
            "avoid" | "stop" | "arretez" | "cessez" | "evitez" | "eviter" | "evite" => {
                // The marker is the verb: "Avoid default exports".
                clause.negative = true;
                expect_verb = false;
            }
            "prefer" | "privilegiez" | "privilegier" | "preferez" | "preferer" => {
                expect_verb = false;
            }
            "never" | "not" | "no" | "don" | "dont" | "doesn" | "shouldn" | "mustn" | "cannot"
            | "jamais" | "pas" | "aucun" | "aucune" => {
                clause.negative = true;
            }
            "ne" | "n" => {
                clause.negative = true;
                french_negation = true;
            }
            "plus" if french_negation => {}
            _ if is_preposition(raw) => in_object = false,
            _ if is_marker_or_stopword(raw) => {}
            _ => {
                let word = match raw.split_once('-') {
                    // "2-space", "two-space", "utf-8": one word, each part normalised.
                    Some(_) => Word {
                        stem: stems.id(&raw
                            .split('-')
                            .map(synonym)
                            .map(stem)
                            .collect::<Vec<_>>()
                            .join("-")),
                        generic: false,
                    },
                    None => Word {
                        stem: stems.id(stem(synonym(raw))),
                        generic: is_generic(synonym(raw)),
                    },
                };
                if std::mem::take(&mut expect_verb) {
                    clause.verb = Some(word);
                } else if !in_object {
                    clause.scoped = true;
                } else if !word.generic {
                    object.push(word);
                }
                words_read.push(word);
            }
        }
    }
    words_read.sort();
    words_read.dedup();
    object.sort();
    object.dedup();
    clause.words = words_read.into_boxed_slice();
    clause.object = object.into_boxed_slice();
    clause
}

/// The words of `text`: letters, digits and `_`; a hyphen joins words when one of them
/// holds a digit ("2-space", "two-space", "utf-8"), since the number is what tells such rules apart.
fn words(text: &str) -> impl Iterator<Item = &str> {
    let mut pieces = Vec::new();
    for chunk in text.split(|c: char| !c.is_alphanumeric() && c != '_' && c != '-') {
        let parts = || chunk.split('-').filter(|p| !p.is_empty());
        if parts().count() > 1 && parts().any(|p| synonym(p).bytes().any(|b| b.is_ascii_digit())) {
            pieces.push(chunk.trim_matches('-'));
        } else {
            pieces.extend(parts());
        }
    }
    pieces.into_iter()
}

/// Words that end the object of a verb ("use Axios [for] HTTP requests").
fn is_preposition(word: &str) -> bool {
    matches!(
        word,
        "for"
            | "to"
            | "in"
            | "on"
            | "with"
            | "when"
            | "before"
            | "after"
            | "at"
            | "from"
            | "by"
            | "into"
            | "pour"
            | "dans"
            | "en"
            | "avec"
            | "sur"
            | "quand"
            | "avant"
            | "apres"
            | "au"
            | "aux"
    )
}

/// Words that carry positive polarity or no content.
fn is_marker_or_stopword(word: &str) -> bool {
    static WORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
        [POSITIVE_MARKERS, ENGLISH_STOPWORDS, FRENCH_STOPWORDS]
            .concat()
            .into_iter()
            .collect()
    });
    WORDS.contains(word)
}

/// Words that say "do it": the default polarity, so they carry nothing.
const POSITIVE_MARKERS: &[&str] = &[
    "always", "do", "does", "must", "should", "please", "ensure", "sure", "toujours", "veillez",
    "faut", "il", "devez",
];

const ENGLISH_STOPWORDS: &[&str] = &[
    "a", "an", "the", "to", "in", "into", "of", "for", "on", "at", "by", "with", "from", "every",
    "each", "all", "any", "your", "our", "my", "this", "that", "these", "those", "it", "its", "be",
    "is", "are", "was", "as", "and", "or", "when", "while", "so", "if", "then", "only", "also",
    "just", "ever", "we", "you", "i", "t", "s", "there", "here", "make", "via", "per", "whole",
];

const FRENCH_STOPWORDS: &[&str] = &[
    "le", "la", "les", "l", "un", "une", "des", "de", "du", "d", "dans", "en", "au", "aux", "pour",
    "avec", "sur", "par", "chaque", "tous", "toutes", "tout", "toute", "ce", "cet", "cette", "ces",
    "et", "ou", "vous", "tu", "se", "sa", "son", "ses", "votre", "vos", "nos", "notre", "mon",
    "ma", "mes", "que", "qu", "lors", "quand", "si", "y", "est", "sont",
];

/// Words most rules share: they weigh little and never separate two rules on their own.
fn is_generic(word: &str) -> bool {
    matches!(
        word,
        "use"
            | "using"
            | "used"
            | "uses"
            | "utilisez"
            | "utiliser"
            | "utilise"
            | "code"
            | "codebase"
            | "project"
            | "projet"
            | "module"
            | "modules"
            | "everywhere"
            | "partout"
            | "place"
            | "places"
            | "new"
            | "nouveau"
            | "nouvelle"
            | "file"
            | "files"
            | "fichier"
            | "fichiers"
            | "repository"
    )
}

/// One spelling for words written several ways.
fn synonym(word: &str) -> &str {
    static BY_SPELLING: LazyLock<HashMap<&'static str, &'static str>> = LazyLock::new(|| {
        SYNONYMS
            .iter()
            .flat_map(|(canonical, spellings)| spellings.iter().map(move |s| (*s, *canonical)))
            .collect()
    });
    BY_SPELLING.get(word).copied().unwrap_or(word)
}

/// Each word's other spellings, English and French.
const SYNONYMS: &[(&str, &[&str])] = &[
    (
        "repository",
        &["repo", "repos", "repositories", "depot", "depots"],
    ),
    ("configuration", &["config", "configs", "conf"]),
    (
        "directory",
        &["dir", "dirs", "folder", "folders", "dossier", "dossiers"],
    ),
    (
        "dependency",
        &["deps", "dependencies", "dependances", "dependance"],
    ),
    ("documentation", &["docs", "doc"]),
    ("javascript", &["js"]),
    ("typescript", &["ts"]),
    ("environment", &["env"]),
    ("2", &["two", "deux"]),
    ("4", &["four", "quatre"]),
    (
        "use",
        &["using", "used", "uses", "utilisez", "utiliser", "utilise"],
    ),
    ("run", &["ran", "running", "runs"]),
    ("write", &["wrote", "written", "writing", "writes"]),
    ("space", &["espace", "espaces", "spaces"]),
    (
        "commit",
        &["committer", "commitez", "committez", "commiter"],
    ),
    ("test", &["tests", "testing"]),
    // French "guillemets simples" are single quotes (never "simple" in English rules'
    // sense of easy, which a quote preference does not use).
    ("single", &["simple", "simples"]),
    ("quote", &["quotes", "guillemet", "guillemets"]),
];

/// Text that any rule sharing a meaningful word with `shape` contains once folded: each
/// word's stem (a prefix of the word as written) and its other spellings.
fn needles(shape: &Shape, stems: &Stems) -> Vec<String> {
    let replaced = shape.replaced.iter().flat_map(|r| r.object.iter());
    let flipped = shape
        .flipped
        .iter()
        .flat_map(|f| f.words.iter().filter(|w| !w.generic));
    let mut needles: Vec<String> = Vec::new();
    for word in shape.meaningful().chain(replaced).chain(flipped) {
        for part in stems.text(word.stem).split('-').filter(|p| !p.is_empty()) {
            needles.push(part.to_string());
            for (canonical, spellings) in SYNONYMS {
                if stem(canonical) == part {
                    needles.extend(spellings.iter().map(ToString::to_string));
                }
            }
        }
    }
    needles.sort();
    needles.dedup();
    needles
}

/// A light stemmer for English and French: plural, then one verb ending, then a final
/// doubled letter ("committing" and "commits" are both "commit").
fn stem(word: &str) -> &str {
    // A number or a version ("1000", "es2020") is compared as written.
    if word.len() <= 3 || !word.is_ascii() || word.bytes().any(|b| b.is_ascii_digit()) {
        return word;
    }
    let mut stem = word;
    let strip = |w: &str, suffix: &str, keep: usize| -> Option<usize> {
        (w.len() >= suffix.len() + keep && w.ends_with(suffix)).then(|| w.len() - suffix.len())
    };
    let es_plural = ["ses", "xes", "zes", "ches", "shes"]
        .iter()
        .any(|s| stem.ends_with(s));
    if es_plural && let Some(end) = strip(stem, "es", 3) {
        stem = &stem[..end];
    } else if !stem.ends_with("ss")
        && !stem.ends_with("us")
        && !stem.ends_with("is")
        && let Some(end) = strip(stem, "s", 3)
    {
        stem = &stem[..end];
    }
    for (suffix, keep) in [("ing", 3), ("ed", 3), ("ez", 4), ("er", 4), ("e", 3)] {
        if let Some(end) = strip(stem, suffix, keep) {
            stem = &stem[..end];
            break;
        }
    }
    let bytes = stem.as_bytes();
    if bytes.len() >= 4 && bytes[bytes.len() - 1] == bytes[bytes.len() - 2] {
        stem = &stem[..stem.len() - 1];
    }
    stem
}

/// The rules among `candidates` (number, instruction) that `instruction` repeats or
/// contradicts, best first.
pub(crate) fn matches<'a>(
    instruction: &str,
    candidates: impl Iterator<Item = (u64, &'a str)>,
) -> Vec<Match> {
    let mut stems = Stems::new();
    let new = Shape::of(instruction, &mut stems);
    if new.meaningful().next().is_none() {
        return Vec::new();
    }
    // Most rules share no meaningful word with the new one: a substring search rules them
    // out before they are parsed into words.
    let finders: Vec<Finder<'_>> = needles(&new, &stems)
        .into_iter()
        .map(|needle| Finder::new(needle.as_bytes()).into_owned())
        .collect();
    let mut found: Vec<Match> = candidates
        .filter_map(|(rule, text)| {
            let folded = fold(clip(text, crate::rules::file::MAX_FIELD_CHARS));
            if !finders.iter().any(|f| f.find(folded.as_bytes()).is_some()) {
                return None;
            }
            let (kind, score) = relate(&new, &Shape::of(text, &mut stems))?;
            Some(Match {
                rule,
                kind,
                score: round(score),
                instruction: text.trim().to_string(),
            })
        })
        .collect();
    // Contradictions first, then the closest, then the newest.
    found.sort_by(|a, b| {
        b.kind
            .cmp(&a.kind)
            .then(b.score.total_cmp(&a.score))
            .then(b.rule.cmp(&a.rule))
    });
    found
}

fn round(score: f64) -> f64 {
    (score * 100.0).round() / 100.0
}

/// The rules in both postings lists (each ascending, as the index is built), the first
/// the shorter: each of its rules is looked up by bisection in what is left of the second,
/// so a rare word beside a common one costs a few steps, not a walk of the common one's
/// list (rules differing only in a number made that quadratic). Instead of a look into
/// each candidate's words: a cache miss per rule, most of `check`'s time on 100k rules.
fn both<'a>(first: &'a [u32], second: &'a [u32]) -> impl Iterator<Item = u32> + 'a {
    let mut rest = second;
    first.iter().copied().filter(move |&rule| {
        rest = &rest[rest.partition_point(|&other| other < rule)..];
        rest.first() == Some(&rule)
    })
}

/// A pair of rules found by [`pairs`]: `later` repeats or contradicts `earlier` (indices
/// into the slice given).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Pair {
    pub(crate) earlier: usize,
    pub(crate) later: usize,
    pub(crate) kind: Kind,
    pub(crate) score: f64,
}

/// Every pair of `instructions` that repeat or contradict each other, each pair once,
/// ordered by the later rule. An index from each word to the rules holding it gives the
/// candidates: two clauses that are the same statement share the rarest meaningful word
/// of the one with fewer meaningful words (the other has all of them), and a replaced
/// statement's words are all in the rule it contradicts.
pub(crate) fn pairs(instructions: &[&str]) -> Vec<Pair> {
    let mut stems = Stems::new();
    let shapes: Vec<Shape> = instructions
        .iter()
        .map(|text| Shape::of(text, &mut stems))
        .collect();
    // The rules holding each meaningful stem, by the stem's number: stems are numbered from
    // 0 without gaps, so a vector is the map. A rule's index fits in a `u32` (half a `usize`).
    let mut index: Vec<Vec<u32>> = vec![Vec::new(); stems.texts.len()];
    for (i, shape) in shapes.iter().enumerate() {
        let i = u32::try_from(i).expect("fewer than 2^32 rules");
        for word in shape.meaningful() {
            index[word.stem as usize].push(i);
        }
    }
    // A candidate holds every word of a key set, so the two rarest of them: the postings of
    // the rarest, kept to the rules that also hold the second (the rarest itself when it is
    // the only one), keep the number of pairs to relate near the number of true matches
    // however many rules share a word.
    let rarest = |words: &mut dyn Iterator<Item = &Word>| -> Option<(&[u32], &[u32])> {
        let mut ranked: Vec<(u32, &[u32])> = words
            .map(|w| (w.stem, index[w.stem as usize].as_slice()))
            .filter(|(_, postings)| !postings.is_empty())
            .collect();
        ranked.sort_by_key(|&(stem, postings)| (postings.len(), stem));
        ranked.dedup_by_key(|(stem, _)| *stem);
        let &(_, first) = ranked.first()?;
        Some((first, ranked.get(1).map_or(first, |&(_, second)| second)))
    };
    let mut found: HashMap<(usize, usize), (Kind, f64)> = HashMap::new();
    for (i, shape) in shapes.iter().enumerate() {
        let mut keys = Vec::new();
        keys.extend(rarest(&mut shape.meaningful()));
        if let Some(replaced) = &shape.replaced {
            keys.extend(rarest(&mut replaced.object.iter()));
        }
        if let Some(flipped) = &shape.flipped {
            keys.extend(rarest(&mut flipped.words.iter().filter(|w| !w.generic)));
        }
        for (first, second) in keys {
            for j in both(first, second).map(|j| j as usize).take(MAX_CANDIDATES) {
                if j == i {
                    continue;
                }
                let Some((kind, score)) = relate(shape, &shapes[j]) else {
                    continue;
                };
                let key = (i.min(j), i.max(j));
                let entry = found.entry(key).or_insert((kind, score));
                if (kind, score) > *entry {
                    *entry = (kind, score);
                }
            }
        }
    }
    let mut pairs: Vec<Pair> = found
        .into_iter()
        .map(|((earlier, later), (kind, score))| Pair {
            earlier,
            later,
            kind,
            score: round(score),
        })
        .collect();
    pairs.sort_by_key(|p| (p.later, p.earlier));
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(a: &str, b: &str) -> Option<Kind> {
        let mut stems = Stems::new();
        let (a, b) = (Shape::of(a, &mut stems), Shape::of(b, &mut stems));
        relate(&a, &b).map(|(kind, _)| kind)
    }

    #[test]
    fn the_issue_examples() {
        let dup = Some(Kind::Duplicate);
        let contra = Some(Kind::Contradiction);
        assert_eq!(
            kind(
                "Always use named exports in every module.",
                "Always use named exports."
            ),
            dup
        );
        assert_eq!(
            kind("Always use named exports", "Never use default exports"),
            dup
        );
        assert_eq!(kind("Use single quotes", "Use double quotes"), contra);
        assert_eq!(
            kind(
                "Utilisez des guillemets simples",
                "Utilisez des guillemets doubles"
            ),
            contra
        );
        assert_eq!(
            kind(
                "Never commit secrets into the repo.",
                "Never commit secrets to the repository."
            ),
            dup
        );
        assert_eq!(
            kind("Always use semicolons.", "Never use semicolons."),
            contra
        );
        assert_eq!(
            kind(
                "Use native fetch instead of Axios.",
                "Always use Axios for HTTP requests."
            ),
            contra
        );
        assert_eq!(
            kind(
                "Ne committez jamais de secrets.",
                "Committez toujours les secrets."
            ),
            contra
        );
        for (a, b) in [
            (
                "Always run cargo fmt before committing.",
                "Always run cargo clippy before committing.",
            ),
            ("Never commit secrets.", "Never commit generated files."),
            (
                "Use 2-space indentation in YAML.",
                "Use 4-space indentation in Python.",
            ),
        ] {
            assert_eq!(kind(a, b), None, "{a} / {b}");
        }
    }

    #[test]
    fn stems_agree_across_forms() {
        for (a, b) in [
            ("committing", "commits"),
            ("exports", "exported"),
            ("classes", "class"),
            ("files", "file"),
            ("fichiers", "fichier"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} / {b}");
        }
        for number in ["1000", "100", "es2020", "utf-8"] {
            assert_eq!(stem(number), number);
        }
    }

    #[test]
    fn needles_hold_stems_and_other_spellings() {
        let mut stems = Stems::new();
        let shape = Shape::of(
            "Never commit secrets into the config repo - because leaks.",
            &mut stems,
        );
        let needles = needles(&shape, &stems);
        for needle in [
            "commit",
            "secret",
            "configuration",
            "config",
            "conf",
            "committez",
        ] {
            assert!(needles.iter().any(|n| n == needle), "{needle}: {needles:?}");
        }
        // The reason and generic words ("repo") are never what makes two rules the same.
        for absent in ["leak", "repo", "repository"] {
            assert!(
                !needles.iter().any(|n| n == absent),
                "{absent}: {needles:?}"
            );
        }
    }

    #[test]
    fn both_keeps_the_rules_in_both_lists() {
        let both = |a: &[u32], b: &[u32]| both(a, b).collect::<Vec<_>>();
        assert_eq!(both(&[1, 3, 5, 8, 9], &[0, 3, 4, 8, 10]), [3, 8]);
        assert_eq!(both(&[2, 4], &[2, 4]), [2, 4]);
        assert_eq!(both(&[2, 4], &[]), Vec::<u32>::new());
        assert_eq!(both(&[7], &[1, 2, 7]), [7]);
    }

    #[test]
    fn pairs_are_found_through_the_index() {
        let rules = [
            "Always use named exports.",
            "Run cargo fmt before committing.",
            "Never use named exports.",
            "Run cargo clippy before committing.",
            "Always use named exports in every module.",
        ];
        let found: Vec<(usize, usize, Kind)> = pairs(&rules)
            .iter()
            .map(|p| (p.earlier, p.later, p.kind))
            .collect();
        assert_eq!(
            found,
            [
                (0, 2, Kind::Contradiction),
                (0, 4, Kind::Duplicate),
                (2, 4, Kind::Contradiction)
            ]
        );
    }
}
