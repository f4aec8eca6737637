//! The judgment as a model: each (text, rule) pair is read into a few features (the strict
//! statement match, how much of the rule the text says and how much else it says, whether
//! it reports the thing the rule forbids or moves to another tool of its group, its cues,
//! how close their meanings are, as wholes and word by word), and two logistic models weigh
//! them into the odds of a repeat and of a reversal; a text has the verdict of its closest
//! piece (sentences, clauses). The
//! weights are `weights.rs`, fitted on our own pair corpus by `train.rs`; the same features
//! give the same verdict in every caller.

use super::paraphrase::{self, Overlap};
use super::{Kind, Shape, Stems, meaning, relate, weights};

/// The features, in the order of the weights.
pub(super) const NAMES: [&str; 53] = [
    "strict repeat",
    "strict reversal",
    "covered",
    "precise",
    "covered × precise",
    "substituted",
    "covered, same polarity",
    "covered, opposite polarity",
    "covered through the opposite word, same polarity",
    "covered through the opposite word, opposite polarity",
    "reason covered",
    "reports the forbidden thing",
    "moves to another tool of the group",
    "asks for what the rule replaces",
    "replaces what the rule asks for",
    "cue: again",
    "cue: from now on",
    "cue: question",
    "cue: report",
    "shares a tool",
    "shared words",
    "words of its own",
    "loosely covered",
    "reason loosely covered",
    "loosely precise",
    "loosely covered × precise",
    "cue: permits",
    "permits what the rule forbids",
    "moves to another tool, scope kept",
    "another object or verb",
    "another scope",
    "reads as a rule",
    "reads as a rule × another object",
    "reads as a rule × another scope",
    "reads as a rule × substituted",
    "reads as a rule × covered × precise",
    "reads as a rule × reason covered",
    "means the same",
    "means the same, opposite polarity",
    "aligned, same polarity",
    "aligned, opposite polarity",
    "aligned precise",
    "reports what the rule replaces",
    "again asks for what the rule replaces",
    "the object said",
    "the object said × aligned",
    "replaced covered, same polarity",
    "replaced covered, opposite polarity",
    "stance agreed, word by word",
    "stance opposed, word by word",
    "cue: report × stance opposed",
    "cue: question × stance opposed",
    "cue: again × stance opposed",
];

pub(super) type Features = [f64; NAMES.len()];

/// The features of one piece of a text against a rule.
pub(super) fn features(text: &Shape, rule: &Shape, stems: &Stems) -> Features {
    let mut f = [0.0; NAMES.len()];
    match relate(text, rule) {
        Some((Kind::Duplicate, score)) => f[0] = score,
        Some((Kind::Contradiction, score)) => f[1] = score,
        None => {}
    }
    let main = paraphrase::overlap_of(&rule.main, text, rule, stems);
    let same = text.main.negative == rule.main.negative;
    f[2] = main.covered;
    f[3] = main.precise;
    f[4] = main.covered * main.precise;
    f[5] = f64::from(u8::from(main.substituted));
    f[6] = if same {
        main.covered * main.precise
    } else {
        0.0
    };
    f[7] = if same {
        0.0
    } else {
        main.covered * main.precise
    };
    said_other_ways(&mut f, text, rule, stems);
    f[10] = paraphrase::reason_covered(text, rule, stems);
    f[11] = paraphrase::complains(text, rule, stems).unwrap_or(0.0);
    let moved = paraphrase::substitutes(text, rule, stems);
    f[12] = f64::from(u8::from(moved.is_some()));
    f[28] = moved.unwrap_or(0.0);
    f[13] = paraphrase::asks_for_replaced(text, rule);
    f[14] = paraphrase::replaces_the_object(text, rule);
    let cues = text.cues;
    f[15] = f64::from(u8::from(cues.repeat));
    f[16] = f64::from(u8::from(cues.change));
    f[17] = f64::from(u8::from(cues.question));
    f[18] = f64::from(u8::from(cues.report));
    let (keys, shared, own) = paraphrase::counts(text, rule, stems);
    f[19] = f64::from(u8::from(keys > 0));
    f[20] = (shared.min(4) as f64) / 4.0;
    f[21] = (own.min(6) as f64) / 6.0;
    let (covered, reason, precise) = paraphrase::loosely(text, rule, stems);
    f[22] = covered;
    f[23] = reason;
    f[24] = precise;
    f[25] = covered * precise;
    f[26] = f64::from(u8::from(cues.permits));
    let (object, scope) = paraphrase::substitutions(text, rule, stems);
    f[29] = f64::from(u8::from(object));
    f[30] = f64::from(u8::from(scope));
    let rule_like = f64::from(u8::from(cues.rule_like));
    f[31] = rule_like;
    f[32] = rule_like * f[29];
    f[33] = rule_like * f[30];
    f[34] = rule_like * f[5];
    f[35] = rule_like * f[4];
    f[36] = rule_like * f[10].max(f[23]);
    // Rules of one file are close in meaning: a rule is read against a rule by its words.
    f[37] = if cues.rule_like {
        0.0
    } else {
        closeness(text, rule)
    };
    f[38] = if text.main.negative == rule.main.negative {
        0.0
    } else {
        f[37]
    };
    // A piece that shares no word with the rule is matched word by word only when close in
    // meaning as a whole (and never when it reads as a rule, which `weighs` would not weigh:
    // most of `check`'s pairs): the words of a far text are no paraphrase.
    let unshared = f[0] == 0.0 && f[1] == 0.0 && f[20] == 0.0 && f[12] + f[13] + f[14] == 0.0;
    let aligned = if unshared && (cues.rule_like || f[37] == 0.0) {
        paraphrase::Aligned::default()
    } else {
        paraphrase::aligned(text, rule, stems)
    };
    if text.main.negative == rule.main.negative {
        f[39] = aligned.covered;
    } else {
        f[40] = aligned.covered;
    }
    f[41] = aligned.precise;
    f[44] = aligned.object;
    f[45] = aligned.object * aligned.covered;
    // "You imported moment again" names what the rule replaces to complain, not to ask.
    f[42] = f[18] * f[13];
    f[43] = f[15] * f[13];
    // So does "you used expect() in main.rs" or "why is there Action *?" for a rule against
    // it: a complaint takes the stance the rule forbids.
    f[50] = f[18] * f[49];
    f[51] = f[17] * f[49];
    f[52] = f[15] * f[49];
    f[27] = if cues.permits && rule.main.negative {
        covered
    } else {
        0.0
    };
    f
}

/// How much of the rule the text says through its word's opposite ("no default exports"
/// for "use named exports") and through what it replaces ("never use MD5 for passwords"
/// for "hash with argon2id, never MD5"), each with its polarity against the text's.
fn said_other_ways(f: &mut Features, text: &Shape, rule: &Shape, stems: &Stems) {
    if let Some(flipped) = rule.flipped.as_deref() {
        let o: Overlap = paraphrase::overlap_of(flipped, text, rule, stems);
        let same = text.main.negative == flipped.negative;
        f[8] = if same { o.covered * o.precise } else { 0.0 };
        f[9] = if same { 0.0 } else { o.covered * o.precise };
    }
    if let Some(replaced) = rule.replaced.as_deref() {
        let o = paraphrase::overlap_of_replaced(replaced, text, rule, stems);
        let at = if text.main.negative == replaced.negative {
            46
        } else {
            47
        };
        f[at] = o.covered * o.precise;
    }
    (f[48], f[49]) = paraphrase::stances(text, rule, stems);
}

pub(super) fn logistic(weights: &[f64], bias: f64, f: &Features) -> f64 {
    let z = bias + weights.iter().zip(f).map(|(w, x)| w * x).sum::<f64>();
    1.0 / (1.0 + (-z).exp())
}

/// How close two texts' meanings are, from 0, with nothing below [`MEANING_GATE`]: a
/// direction is noise until it is close.
fn closeness(text: &Shape, rule: &Shape) -> f64 {
    match (text.meaning(), rule.meaning()) {
        (Some(a), Some(b)) => {
            let cosine = meaning::closeness(a, b);
            if cosine >= MEANING_GATE {
                (cosine - MEANING_GATE) / (1.0 - MEANING_GATE)
            } else {
                0.0
            }
        }
        _ => 0.0,
    }
}

/// The share of a rule's words a text says in meaning from which it is judged.
const ALIGNED_GATE: f64 = 0.3;

/// The closeness of meaning from which a text is judged against a rule with no other sign.
pub(super) const MEANING_GATE: f64 = 0.45;

/// Whether a piece says enough of the rule for the model to weigh it: a part of its words
/// (or of its reason, or of their meanings), the thing it forbids, a move to another tool
/// of its group, or the strict match; one shared word and an "I told you" are not a
/// repeat. A piece that reads as a rule is held to the same gate and to thresholds of its
/// own: gating it on two shared words as well (until the tenth session) left rules that
/// reverse another in other words ("Use SELECT * for simplicity.") unjudged, and named no
/// fewer wrong rules.
pub(super) fn says_enough(f: &Features) -> bool {
    f[0] > 0.0
        || f[37] > 0.0
        || f[39].max(f[40]) >= ALIGNED_GATE
        || f[1] > 0.0
        // Half the rule in two words or more, or most of it.
        || (f[2].max(f[22]) >= 0.5 && f[20] >= 0.5)
        || f[2] >= 0.75
        || f[10] >= 0.5
        || f[11] > 0.0
        || f[12] > 0.0
        || f[13] > 0.0
        || f[14] > 0.0
}

/// The odds of a repeat and of a reversal that one piece's features give.
pub(super) fn odds(f: &Features) -> (f64, f64) {
    (
        logistic(&weights::REPEAT, weights::REPEAT_BIAS, f),
        logistic(&weights::REVERSAL, weights::REVERSAL_BIAS, f),
    )
}

/// Whether a piece the model does not weigh may still come near the rule: it shares a
/// meaningful word with it.
pub(super) fn comes_near(f: &Features) -> bool {
    f[20] > 0.0
}

/// The odds that a piece, weighed or not, repeats or reverses the rule at all: how near
/// it comes, for the near rule shown when there is no verdict.
pub(super) fn near_odds(f: &Features) -> f64 {
    logistic(&weights::NEAR, weights::NEAR_BIAS, f)
}

/// The verdict of a piece's odds: the more likely of a repeat and a reversal, when it
/// reaches its threshold, with its probability as the score. A piece that reads as a rule
/// has thresholds of its own: `learn` refuses on them, and a wrong refusal costs a
/// correction.
pub(super) fn verdict(odds: (f64, f64), rule_like: bool) -> Option<(Kind, f64)> {
    let thresholds = if rule_like {
        (
            weights::RULE_REPEAT_THRESHOLD,
            weights::RULE_REVERSAL_THRESHOLD,
        )
    } else {
        (weights::REPEAT_THRESHOLD, weights::REVERSAL_THRESHOLD)
    };
    verdict_at(odds, thresholds)
}

/// The verdict of odds against the thresholds (repeat, reversal).
pub(super) fn verdict_at(
    (repeat, reversal): (f64, f64),
    (for_repeat, for_reversal): (f64, f64),
) -> Option<(Kind, f64)> {
    let repeat = (repeat >= for_repeat).then_some((Kind::Duplicate, repeat));
    let reversal = (reversal >= for_reversal).then_some((Kind::Contradiction, reversal));
    [repeat, reversal]
        .into_iter()
        .flatten()
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
}
