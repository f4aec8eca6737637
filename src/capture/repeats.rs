//! Whether a correction repeats, or reverses, a rule already recorded: the one judgment
//! `learn` makes of a new rule (`rules::similar::matches`), on what the user typed once
//! autofix's injected text is dropped, so "No, always use named exports. Fix the header."
//! still finds rule "Always use named exports"; else the rule it comes near, if any; and
//! what the prompt hook hears.

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

    /// How a command names the rule: `12`, or `org:12` for an imported one.
    pub(crate) fn id(&self) -> String {
        rule_id(self.source.as_deref(), self.rule)
    }

    /// How a person reads the rule's name: `#12`, or `org:12` for an imported one.
    pub(crate) fn shown(&self) -> String {
        rule_shown(self.source.as_deref(), self.rule)
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

/// The rule a correction comes nearest to saying when it repeats or reverses none
/// ([`similar::Near`]): shown to the agent, which can tell a rule in other words from
/// another rule of its topic.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct Nearby {
    pub rule: u64,
    /// The source of an imported rule; absent for a local rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub instruction: String,
    /// The model's odds that the correction repeats or reverses it, rounded.
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

/// The rule `prompt` repeats or reverses, if any, as [`similar::matches`] judges it (the
/// judgment `learn` makes of a new rule); `prompt` as the user typed it, autofix's injected
/// text is dropped here. Of two rules matched as closely, the later in `rules` wins (list
/// the local rules last: they win over imported ones).
pub(crate) fn find(prompt: &str, rules: &[ActiveRule]) -> Option<Known> {
    match recall(prompt, rules) {
        Recall::Known(known) => Some(known),
        Recall::Near(_) | Recall::New => None,
    }
}

/// What the prompt hook hears of `prompt`: what it says of the active rules (`rules`, read
/// only when needed) when the classifier takes it for a correction or when it repeats one
/// of them; `None` otherwise. A user who says a rule again rarely words it as a correction
/// ("replace the console.error calls with the logger"); the matcher knows it. A reversal
/// is not enough: its cues ("now", "you can", "go ahead") open many a plain request. A long
/// prompt the classifier passes over is not judged: only its corrections would be.
pub(crate) fn hear(prompt: &str, rules: impl FnOnce() -> Vec<ActiveRule>) -> Option<Recall> {
    let correction = classify::is_correction(prompt);
    if !correction && injected::strip(prompt).len() > MAX_WHOLE {
        return None;
    }
    let recalled = recall(prompt, &rules());
    let repeats = matches!(&recalled, Recall::Known(known) if known.kind == Kind::Duplicate);
    (correction || repeats).then_some(recalled)
}

/// [`find`], and the rule `prompt` comes near when it repeats or reverses none.
pub(crate) fn recall(prompt: &str, rules: &[ActiveRule]) -> Recall {
    if rules.is_empty() {
        return Recall::New;
    }
    let mut text = injected::strip(prompt);
    if text.len() > MAX_WHOLE {
        text = std::borrow::Cow::Owned(
            similar::sentences(&text)
                .filter(|s| classify::is_correction(s))
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
    // Numbered by position: a local rule and `org:N` may share a number.
    let candidates = (0u64..).zip(rules.iter().map(|r| r.instruction.as_str()));
    let judgment = similar::judgment(&text, candidates);
    let rule_at = |at: u64| usize::try_from(at).ok().and_then(|at| rules.get(at));
    if let Some(best) = judgment.matches.into_iter().next() {
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
    match judgment
        .near
        .and_then(|near| Some((rule_at(near.rule)?, near)))
    {
        Some((rule, near)) => Recall::Near(Nearby {
            rule: rule.number,
            source: rule.source.clone(),
            instruction: near.instruction,
            score: near.score,
        }),
        None => Recall::New,
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
    fn a_rule_said_again_is_heard_though_not_worded_as_a_correction() {
        let heard = |text: &str, rules: &[ActiveRule]| hear(text, || rules.to_vec()).is_some();
        let restated = "please replace the console.error calls with the logger";
        assert!(!classify::is_correction(restated));
        let logger = [ActiveRule {
            number: 1,
            instruction: "Use the logger, never console.log.".to_string(),
            source: None,
            learned: None,
        }];
        assert!(heard(restated, &logger));
        assert!(!heard(restated, &[]));
        assert!(!heard("run the tests", &logger));
        assert!(heard("No, always use named exports", &[]));
        // Read as a reversal ("now" is a cue of change), yet a plain request.
        let pnpm = [ActiveRule {
            instruction: "Always use pnpm to install packages.".to_string(),
            ..logger[0].clone()
        }];
        let plain = "Now add tests";
        assert_eq!(
            find(plain, &pnpm).map(|k| k.kind),
            Some(Kind::Contradiction)
        );
        assert!(!heard(plain, &pnpm));
        // Past the length judged whole, a prompt the classifier passes over is not judged.
        let long = format!("{restated}. {}", "Tidy the module. ".repeat(300));
        assert!(!heard(&long, &logger));
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
        assert_eq!(
            similar::sentences("Use e.g. tabs. Keep src/main.rs small!Done\nnext; last")
                .map(str::trim)
                .collect::<Vec<_>>(),
            [
                "Use e.g.",
                "tabs.",
                "Keep src/main.rs small!Done",
                "next",
                "last"
            ]
        );
    }
}
