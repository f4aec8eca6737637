//! Whether a correction says a rule already recorded. The tool's own verdict is the
//! strict one (`rules::similar`: a sentence of it is a rule's directive in the same words,
//! or its exact reversal), on what the user typed once autofix's injected text is dropped,
//! so "No, always use named exports. Fix the header." still finds rule "Always use named
//! exports". Else the rule the sentence model finds nearest it, if near enough, for whoever
//! reads the whole conversation to judge; and what the prompt hook hears: a rule said again
//! in its own words, or a correction and the rules nearest it.

use std::path::PathBuf;

use serde::Serialize;

use super::{classify, injected};
use crate::rules::similar::{self, Kind};

/// An active rule, as the hook and `reflect` compare corrections with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ActiveRule {
    pub(crate) number: u64,
    pub(crate) instruction: String,
    /// The source of an imported rule (`org` for `org:12`); `None` for a local rule.
    pub(crate) source: Option<String>,
    /// When the commit that added it was made (ISO 8601, UTC), when known: a correction
    /// typed before is the one the rule was learned from, not a repeat of it.
    pub(crate) learned: Option<String>,
}

/// The rule a correction repeats or contradicts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Known {
    pub rule: u64,
    /// The source of an imported rule (`org` for `org:12`); absent for a local rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// `duplicate` (the rule says this already) or `contradiction` (the rule says otherwise).
    pub kind: Kind,
    pub instruction: String,
    /// When the rule was committed, when known.
    #[serde(skip)]
    pub learned: Option<String>,
}

/// A prompt longer than this is compared only in the sentences the classifier reads as
/// corrections: a pasted log must not cost one comparison per line.
const MAX_WHOLE: usize = 4_000;

impl Known {
    /// Whether `time` (ISO 8601, UTC) is before the rule was committed.
    pub(crate) fn before(&self, time: &str) -> bool {
        // To the second, as both are written: `2026-11-05T10:00:00.000Z`, `…:00Z`.
        let second = |t: &str| t.get(..19).unwrap_or(t).to_string();
        self.learned
            .as_deref()
            .is_some_and(|learned| second(time) < second(learned))
    }
}

/// How a person reads a rule's name: `#12`, or `org:12` for one imported from `org`.
pub(crate) fn rule_shown(source: Option<&str>, rule: u64) -> String {
    match source {
        Some(_) => rule_id(source, rule),
        None => format!("#{rule}"),
    }
}

/// How a command names a rule: `12`, or `org:12` for one imported from `org`.
fn rule_id(source: Option<&str>, rule: u64) -> String {
    match source {
        Some(source) => format!("{source}:{rule}"),
        None => rule.to_string(),
    }
}

/// A rule the sentence model finds near a correction that repeats or reverses none in
/// the same words: shown to the agent or the person, who can tell a rule in other words
/// from another rule of its topic.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Nearby {
    pub rule: u64,
    /// The source of an imported rule; absent for a local rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub instruction: String,
    /// How near it comes: the sentence model's cosine, rounded (1 for the same words).
    pub score: f64,
}

impl Nearby {
    /// How a command names the rule: `12`, or `org:12` for an imported one.
    pub(crate) fn id(&self) -> String {
        rule_id(self.source.as_deref(), self.rule)
    }

    /// How a person reads the rule's name: `#12`, or `org:12` for an imported one.
    pub(crate) fn shown(&self) -> String {
        rule_shown(self.source.as_deref(), self.rule)
    }
}

/// What a text says of the active rules.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Recall {
    /// It repeats or reverses this rule.
    Known(Known),
    /// It repeats or reverses none, and comes near this one.
    Near(Nearby),
    /// It is new.
    New,
}

/// The rule `prompt` repeats or reverses in the same words, if any ([`similar::matches`],
/// the relation `learn` refuses); `prompt` as the user typed it, autofix's injected text is
/// dropped here. Of two rules matched as closely, the later in `rules` wins (list
/// the local rules last: they win over imported ones).
pub(crate) fn find(prompt: &str, rules: &[ActiveRule]) -> Option<Known> {
    match recall(prompt, rules, None) {
        Recall::Known(known) => Some(known),
        Recall::Near(_) | Recall::New => None,
    }
}

/// What the prompt hook hears of a prompt.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Heard {
    /// A sentence of it is an active rule's directive, word for word: the one verdict the
    /// hook states.
    Restates(Nearby),
    /// A correction or a convention, and the active rules the sentence model finds nearest
    /// it, best first (at most [`SHOWN`], none when no rule comes near): the agent, who
    /// reads the whole conversation, judges whether it says one again, changes one, or is
    /// new.
    Correction(Vec<Nearby>),
}

/// How long the hook lets the model load and read rules its cache does not hold yet: no
/// batch starts that should end past it, so a call ends well within a second.
const READING: std::time::Duration = std::time::Duration::from_millis(600);

/// The most rules a note shows.
pub(crate) const SHOWN: usize = 3;

/// The cosine below which a rule is not shown beside a correction. On the rule pairs' dev
/// split it keeps the right rule among the top three for 293 of 300 repeats and reversals
/// (295 with no floor) and drops only rules of another field; no floor tells a repeat from
/// a request on its topic (see `src/docs/consistency.md`). Never tuned on the held-out
/// sets.
pub(crate) const NEAR: f32 = 0.80;

/// What the prompt hook hears of `prompt`: a correction (as the classifier reads it) with
/// the active rules nearest it, or a sentence that is an active rule word for word; `None`
/// otherwise: a question or a request that corrects nothing gets no note, whatever rule
/// it is about. `rules` is read only when needed; `git_dir` (where the rules' vectors are
/// kept) only when the model runs. A model that cannot run leaves the correction with no
/// rule shown.
pub(crate) fn hear(
    prompt: &str,
    rules: impl FnOnce() -> Vec<ActiveRule>,
    git_dir: impl FnOnce() -> Option<PathBuf>,
) -> Option<Heard> {
    let correction = classify::is_correction(prompt);
    let mut text = injected::strip(prompt);
    if text.len() > MAX_WHOLE {
        if !correction {
            return None;
        }
        // A pasted log must not cost one comparison per line: its corrections are judged.
        text = std::borrow::Cow::Owned(
            (crate::text::sentences(&text))
                .filter(|s| classify::is_correction(s))
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
    let rules = rules();
    if let Some(rule) = restated(&text, &rules) {
        return Some(Heard::Restates(rule));
    }
    if !correction {
        return None;
    }
    let mut cache = crate::meaning::Cache::open(git_dir().as_deref());
    let texts: Vec<&str> = rules.iter().map(|r| r.instruction.as_str()).collect();
    // Past the deadline the rules not yet read are left out: a hook call must end within
    // a second whatever the cache holds (a first call on 1,000 rules fills it over a few).
    let ranked = crate::meaning::rank(&text, &texts, &mut cache, Some(READING)).unwrap_or_default();
    cache.save();
    let near = (ranked.into_iter())
        .take_while(|near| near.score >= NEAR)
        .take(SHOWN)
        .map(|near| nearby(&rules[near.at], f64::from(near.score)))
        .collect();
    Some(Heard::Correction(near))
}

/// The active rule `text` says again in the same words ([`similar::matches`]); the later
/// of two.
fn restated(text: &str, rules: &[ActiveRule]) -> Option<Nearby> {
    let candidates = (0u64..).zip(rules.iter().map(|r| r.instruction.as_str()));
    let found = similar::matches(text, candidates).into_iter().next()?;
    let rule = usize::try_from(found.rule)
        .ok()
        .and_then(|at| rules.get(at))?;
    (found.kind == Kind::Duplicate).then(|| nearby(rule, 1.0))
}

fn nearby(rule: &ActiveRule, score: f64) -> Nearby {
    Nearby {
        rule: rule.number,
        source: rule.source.clone(),
        instruction: rule.instruction.clone(),
        score: (score * 100.0).round() / 100.0,
    }
}

/// [`find`], and, when it finds none and `cache` is given, the rule the sentence model
/// finds nearest `prompt` as the hook ranks the rules near a correction, if its cosine
/// reaches [`NEAR`]: what the user typed is read as the hook reads it.
pub(crate) fn recall(
    prompt: &str,
    rules: &[ActiveRule],
    cache: Option<&mut crate::meaning::Cache>,
) -> Recall {
    if rules.is_empty() {
        return Recall::New;
    }
    let mut text = injected::strip(prompt);
    if text.len() > MAX_WHOLE {
        text = std::borrow::Cow::Owned(
            crate::text::sentences(&text)
                .filter(|s| classify::is_correction(s))
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
    // Numbered by position: a local rule and `org:N` may share a number.
    let candidates = (0u64..).zip(rules.iter().map(|r| r.instruction.as_str()));
    let rule_at = |at: u64| usize::try_from(at).ok().and_then(|at| rules.get(at));
    if let Some(best) = similar::matches(&text, candidates).into_iter().next() {
        let Some(rule) = rule_at(best.rule) else {
            return Recall::New;
        };
        return Recall::Known(Known {
            rule: rule.number,
            source: rule.source.clone(),
            kind: best.kind,
            instruction: best.instruction,
            learned: rule.learned.clone(),
        });
    }
    let Some(cache) = cache else {
        return Recall::New;
    };
    let texts: Vec<&str> = rules.iter().map(|r| r.instruction.as_str()).collect();
    let ranked = crate::meaning::rank(&text, &texts, cache, None).unwrap_or_default();
    match ranked.first() {
        Some(near) if near.score >= NEAR => {
            Recall::Near(nearby(&rules[near.at], f64::from(near.score)))
        }
        _ => Recall::New,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Vec<ActiveRule> {
        [
            (1, "Always run cargo fmt before committing"),
            (2, "Always use named exports"),
            (3, "Never push directly to main"),
        ]
        .into_iter()
        .map(|(number, text)| ActiveRule {
            number,
            instruction: text.to_string(),
            source: None,
            learned: None,
        })
        .collect()
    }

    #[test]
    fn finds_the_rule_a_correction_repeats() {
        let known = find("No, always use named exports", &rules()).unwrap();
        assert_eq!((known.rule, known.kind), (2, Kind::Duplicate));
        let buried = find(
            "Fix the header. No, always use named exports! Thanks",
            &rules(),
        );
        assert_eq!(buried.map(|k| k.rule), Some(2));
        assert_eq!(find("Use tabs, not spaces", &rules()), None);
        // Deep in a long prompt, the sentence that is a correction is still compared.
        let long = format!(
            "{}No, always use named exports.",
            "Please refactor the upload handler and keep the tests green. ".repeat(2_000)
        );
        assert_eq!(find(&long, &rules()).map(|k| k.rule), Some(2));
        assert_eq!(find("No, always use named exports", &[]), None);
    }

    #[test]
    fn the_hook_hears_corrections_and_rules_said_word_for_word_only() {
        let heard = |text: &str, rules: &[ActiveRule]| hear(text, || rules.to_vec(), || None);
        let logger = [ActiveRule {
            number: 1,
            instruction: "Use the logger, never console.log - because logs are shipped."
                .to_string(),
            source: None,
            learned: None,
        }];
        // Its directive word for word, without its reason: a verdict.
        let Some(Heard::Restates(rule)) = heard("Use the logger, never console.log.", &logger)
        else {
            panic!("not heard as a restatement");
        };
        assert_eq!((rule.rule, rule.score), (1, 1.0));
        // A request on the rule's topic corrects nothing: no note, whatever the rule.
        assert_eq!(
            heard("show me where the logger is configured", &logger),
            None
        );
        assert_eq!(heard("run the tests", &logger), None);
        let pnpm = [ActiveRule {
            instruction: "Always use pnpm to install packages.".to_string(),
            ..logger[0].clone()
        }];
        assert_eq!(heard("Now add tests", &pnpm), None);
        // A correction with no rule at all: a note that shows none.
        assert_eq!(
            heard("No, always use named exports", &[]),
            Some(Heard::Correction(Vec::new()))
        );
        // Past the length judged whole, a prompt the classifier passes over is not judged.
        let long = "Where is the logger set up? ".repeat(300);
        assert_eq!(heard(&long, &logger), None);
    }

    #[test]
    fn of_two_rules_matched_as_closely_the_later_wins() {
        let rule = |number, text: &str, source: Option<&str>| ActiveRule {
            number,
            instruction: text.to_string(),
            source: source.map(str::to_string),
            learned: None,
        };
        // In one piece: the same text imported and local.
        let same = [
            rule(1, "Always use named exports", Some("org")),
            rule(5, "Always use named exports", None),
        ];
        let known = find("Always use named exports", &same).unwrap();
        assert_eq!((known.rule, known.source), (5, None));
        // In two pieces: each sentence repeats another rule, word for word.
        let two = [
            rule(1, "Always use tabs for indentation", Some("org")),
            rule(5, "Never push directly to main", None),
        ];
        let prompt = "Always use tabs for indentation. Never push directly to main.";
        let known = find(prompt, &two).unwrap();
        assert_eq!((known.rule, known.source), (5, None));
    }

    #[test]
    fn a_dot_inside_a_word_does_not_end_the_sentence() {
        let rules = [ActiveRule {
            number: 7,
            instruction: "Never commit the .env file".to_string(),
            source: None,
            learned: None,
        }];
        let prompt = "That broke the deploy again, and I had to rotate every key we have. \
                      No, never commit the .env file. Revert it and push the fix to main.";
        assert_eq!(find(prompt, &rules).map(|k| k.rule), Some(7));
    }
}

#[cfg(test)]
mod tuning {
    #![allow(clippy::print_stderr)]
    use crate::meaning::{Cache, rank};

    /// Prints, for the dev split's prompt-form pairs, the share of repeats and reversals
    /// whose rule is among the top 3 above each floor, and of other texts shown any rule.
    /// Tuning only: `cargo test --release --lib capture::repeats::tuning -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn floors_on_the_dev_split() {
        let corpus = include_str!("../../tests/fixtures/pairs/dev.tsv");
        let mut cache = Cache::default();
        let floors = [0.0f32, 0.78, 0.80, 0.82, 0.84, 0.86, 0.88];
        let mut right = vec![0usize; floors.len()];
        let mut shown_other = vec![0usize; floors.len()];
        let (mut positives, mut others, mut gated) = (0, 0, 0);
        let mut passed: Vec<(Option<usize>, f32, bool)> = Vec::new();
        let mut logits: Vec<f32> = Vec::new();
        for line in corpus.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() < 6 || f[4] != "prompt" {
                continue;
            }
            let correction = crate::capture::classify::is_correction(f[3]);
            let rules: Vec<&str> = f[2].split(" ¦ ").collect();
            let ranked = rank(f[3], &rules, &mut cache, None).unwrap();
            let target = f[1].parse::<usize>().ok().map(|n| n - 1);
            gated += usize::from(correction);
            passed.push((target, ranked.first().map_or(0.0, |n| n.score), correction));
            logits.push(crate::capture::classify::score(f[3]));
            for (at, floor) in floors.iter().enumerate() {
                let shown: Vec<usize> = (ranked.iter().take(3))
                    .filter(|n| n.score >= *floor)
                    .map(|n| n.at)
                    .collect();
                match target {
                    Some(t) => right[at] += usize::from(shown.contains(&t)),
                    None => shown_other[at] += usize::from(!shown.is_empty()),
                }
            }
            match target {
                Some(_) => positives += 1,
                None => others += 1,
            }
        }
        eprintln!("positives {positives}, others {others}, classifier fired {gated}");
        // The texts the classifier passes over: would a high cosine alone be a gate?
        for gray in [-4.0f32, -3.0, -2.0, -1.5, -1.0, -0.5] {
            for cut in [0.86f32, 0.87, 0.88, 0.89, 0.90] {
                let (mut rescued, mut missed, mut noted, mut in_gray, mut all) = (0, 0, 0, 0, 0);
                for ((target, best, correction), logit) in passed.iter().zip(&logits) {
                    if *correction {
                        continue;
                    }
                    all += 1;
                    let gate = *logit >= gray;
                    in_gray += usize::from(gate);
                    match target {
                        Some(_) if gate && *best >= cut => rescued += 1,
                        Some(_) => missed += 1,
                        None if gate && *best >= cut => noted += 1,
                        None => {}
                    }
                }
                eprintln!(
                    "gray {gray:.1} cut {cut:.2}: rescued {rescued}/{}, others noted {noted}, model loaded for {in_gray}/{all} the classifier passed",
                    rescued + missed
                );
            }
        }
        let cuts = [0.86f32, 0.87, 0.88, 0.89, 0.90, 0.91, 0.92];
        for cut in cuts {
            let (mut rescued, mut missed, mut noted, mut quiet) = (0, 0, 0, 0);
            for (target, best, correction) in &passed {
                if *correction {
                    continue;
                }
                match target {
                    Some(_) if *best >= cut => rescued += 1,
                    Some(_) => missed += 1,
                    None if *best >= cut => noted += 1,
                    None => quiet += 1,
                }
            }
            eprintln!(
                "cosine gate {cut:.2}: positives the classifier missed, rescued {rescued}/{}, others noted {noted}/{}",
                rescued + missed,
                noted + quiet
            );
        }
        for (at, floor) in floors.iter().enumerate() {
            eprintln!(
                "floor {floor:.2}: right in top 3 {}/{positives}, others shown a rule {}/{others}",
                right[at], shown_other[at]
            );
        }
    }
}
