//! Meaning: which rules a text comes near, by a pretrained sentence model compiled into
//! the binary ([`encoder`]), the rules' vectors kept on disk ([`cache`]). Two retrievals,
//! one model: what a user typed against the rules ([`rank`], the prompt hook and
//! `reflect`), and rule against rule ([`near_rules`], [`near_pairs`]: `learn`, `check`,
//! `import`, `sources`), compared by their contents with what every rule shares taken out.
//! It ranks and scores; it judges nothing. What a text means to do is for the one who
//! reads the whole conversation (the agent, or the person at the terminal).

pub(crate) mod cache;
pub(crate) mod encoder;

pub(crate) use cache::Cache;
pub(crate) use encoder::ModelError;

use crate::text::{content, directive, worded_sentences};

/// A rule near a text: its position among the rules ranked, and the cosine of the two.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Near {
    pub at: usize,
    pub score: f32,
}

/// The most pieces of a text compared one by one: its sentences, past the whole.
const MAX_PIECES: usize = 8;

/// `rules` ranked by how near each one's directive (its text before the reason) comes to
/// `text`, best first. A text is compared whole and sentence by sentence (a rule said
/// again is often one sentence of a longer request), each rule scored by its nearest
/// piece. Of two rules scored alike, the later comes first: callers list local rules
/// after imported ones, and a local rule wins. The model reads the rules the cache does
/// not hold for at most `budget` (at least one batch): a rule it had no time for is left
/// out of this ranking (and read by a later call).
pub(crate) fn rank(
    text: &str,
    rules: &[&str],
    cache: &mut Cache,
    budget: Option<std::time::Duration>,
) -> Result<Vec<Near>, ModelError> {
    if rules.is_empty() || text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let mut pieces = vec![text.trim()];
    let sentences: Vec<&str> = worded_sentences(text).collect();
    if sentences.len() > 1 {
        pieces.extend(sentences.into_iter().take(MAX_PIECES));
    }
    let piece_vectors = encoder::embed(&pieces)?;
    let directives: Vec<&str> = rules.iter().map(|rule| directive(rule)).collect();
    let deadline = budget.map(|budget| std::time::Instant::now() + budget);
    let rule_vectors = cache.vectors(&directives, deadline)?;
    let mut ranked: Vec<Near> = (rule_vectors.iter().enumerate())
        .filter_map(|(at, rule)| {
            let rule = rule.as_ref()?;
            let score = (piece_vectors.iter())
                .map(|piece| encoder::cosine(piece, rule))
                .fold(f32::MIN, f32::max);
            Some(Near { at, score })
        })
        .collect();
    ranked.sort_by(|a, b| b.score.total_cmp(&a.score).then(b.at.cmp(&a.at)));
    Ok(ranked)
}

/// Past this many rules, `check`, `learn` and `import` do not ask the model which are near:
/// every pair is compared, and the model reads each rule its cache does not hold (see
/// `src/docs/performance.md`). A file that large is bulk work.
pub(crate) const MAX_COMPARED: usize = 5_000;

/// The centred cosine from which two rules are near: the same rule in other words or
/// another language, its reversal, or the same job done another way ("Use npm …" beside
/// "Use pnpm …"), for the one who knows the project to settle. Chosen on the rule pairs'
/// dev split, in one file of its 55 rules (see `src/docs/consistency.md`); never tuned on
/// the held-out sets.
pub(crate) const NEAR_RULES: f32 = 0.35;

/// What every rule's vector shares, taken out before two rules are compared: raw, any two
/// rules of a file score 0.85 to 0.97, and the part that tells them apart is small. The
/// mean of the contents ([`crate::text::content`]) of the rule pairs' train split's rules
/// (`tests/fixtures/pairs/train.tsv`): 384 little-endian `f32`, written by the ignored
/// test `meaning::tests::write_the_centre` and compared with a fresh mean in every test
/// run.
static CENTRE: &[u8; encoder::DIMENSIONS * 4] = include_bytes!("centre.bin");

/// `vector` less the [`CENTRE`], made a unit vector again.
fn centred(vector: &[f32]) -> encoder::Vector {
    let centre = CENTRE
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let mut out: Vec<f32> = vector.iter().zip(centre).map(|(x, m)| x - m).collect();
    let length = out.iter().map(|x| x * x).sum::<f32>().sqrt();
    if length > 0.0 {
        out.iter_mut().for_each(|x| *x /= length);
    }
    out
}

/// The rules near `text`, as one rule is near another ([`NEAR_RULES`]), best first: what
/// `learn` lists beside a new rule. The model reads the rules the cache does not hold for
/// at most `budget`.
pub(crate) fn near_rules(
    text: &str,
    rules: &[&str],
    cache: &mut Cache,
    budget: Option<std::time::Duration>,
) -> Result<Vec<Near>, ModelError> {
    if rules.is_empty() || text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let mine = content(text);
    if mine.is_empty() {
        return Ok(Vec::new());
    }
    // Through the cache: the text is often a rule just learned, which the next call
    // compares with its own.
    let Some(mine) = cache.vectors(&[mine.as_str()], None)?.remove(0) else {
        return Ok(Vec::new());
    };
    let mine = centred(&mine);
    let contents: Vec<String> = rules.iter().map(|rule| content(rule)).collect();
    let contents: Vec<&str> = contents.iter().map(String::as_str).collect();
    let deadline = budget.map(|budget| std::time::Instant::now() + budget);
    let mut near: Vec<Near> = (cache.vectors(&contents, deadline)?.iter().enumerate())
        .filter(|(at, _)| !contents[*at].is_empty())
        .filter_map(|(at, rule)| {
            let score = encoder::cosine(&mine, &centred(rule.as_ref()?));
            (score >= NEAR_RULES).then_some(Near { at, score })
        })
        .collect();
    near.sort_by(|a, b| b.score.total_cmp(&a.score).then(b.at.cmp(&a.at)));
    Ok(near)
}

/// Two rules of a list near each other: their positions (`earlier` < `later`) and cosine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Pair {
    pub earlier: usize,
    pub later: usize,
    pub score: f32,
}

/// The pairs of `rules` near each other ([`NEAR_RULES`]), best first. Every pair is
/// compared (one dot product each: 1,000 rules are 500,000 of them, a few tenths of a
/// second); the model reads the rules the cache does not hold.
pub(crate) fn near_pairs(rules: &[&str], cache: &mut Cache) -> Result<Vec<Pair>, ModelError> {
    let contents: Vec<String> = rules.iter().map(|rule| content(rule)).collect();
    let contents: Vec<&str> = contents.iter().map(String::as_str).collect();
    // A rule with nothing but its polarity is near no rule.
    let vectors: Vec<Option<encoder::Vector>> = (cache.vectors(&contents, None)?.iter())
        .zip(&contents)
        .map(|(vector, content)| {
            vector
                .as_deref()
                .filter(|_| !content.is_empty())
                .map(centred)
        })
        .collect();
    let mut pairs = Vec::new();
    for (later, b) in vectors.iter().enumerate() {
        let Some(b) = b else { continue };
        for (earlier, a) in vectors[..later].iter().enumerate() {
            let Some(a) = a else { continue };
            let score = encoder::cosine(a, b);
            if score >= NEAR_RULES {
                pairs.push(Pair {
                    earlier,
                    later,
                    score,
                });
            }
        }
    }
    pairs.sort_by(|a, b| {
        (b.score.total_cmp(&a.score)).then((a.earlier, a.later).cmp(&(b.earlier, b.later)))
    });
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The contents of the rule pairs' train split's rules, each once, sorted.
    fn train_contents() -> Vec<String> {
        let train = include_str!("../../tests/fixtures/pairs/train.tsv");
        let mut rules: Vec<String> = (train.lines())
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split('\t').nth(2))
            .flat_map(|rules| rules.split(" ¦ "))
            .map(content)
            .collect();
        rules.sort_unstable();
        rules.dedup();
        rules
    }

    /// Their mean vector, as `centre.bin` holds it.
    fn mean_of_train_contents() -> Vec<u8> {
        let rules = train_contents();
        let rules: Vec<&str> = rules.iter().map(String::as_str).collect();
        let vectors = encoder::embed(&rules).unwrap();
        let mut mean = vec![0f64; encoder::DIMENSIONS];
        for vector in &vectors {
            for (m, x) in mean.iter_mut().zip(vector) {
                *m += f64::from(*x);
            }
        }
        (mean.iter())
            .flat_map(|m| ((m / vectors.len() as f64) as f32).to_le_bytes())
            .collect()
    }

    #[test]
    fn the_committed_centre_is_the_train_splits_mean() {
        let fresh = mean_of_train_contents();
        let committed: Vec<f32> = (CENTRE.chunks_exact(4))
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        let fresh: Vec<f32> = (fresh.chunks_exact(4))
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        // The model's arithmetic may differ in the last bits between machines.
        let worst = (committed.iter().zip(&fresh))
            .map(|(a, b)| (a - b).abs())
            .fold(0f32, f32::max);
        assert!(
            worst < 1e-4,
            "centre.bin drifted by {worst}: run write_the_centre"
        );
    }

    /// Writes `centre.bin`: `cargo test --lib meaning::tests::write_the_centre -- --ignored`.
    #[test]
    #[ignore]
    fn write_the_centre() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/meaning/centre.bin");
        std::fs::write(path, mean_of_train_contents()).unwrap();
    }

    #[test]
    fn a_french_correction_finds_its_english_rule_first() {
        let rules = [
            "Use pnpm to install packages - because the lockfile is pnpm's.",
            "Never call the database directly from React components.",
            "Run cargo fmt before committing.",
            "Prefer named exports over default exports.",
        ];
        let mut cache = Cache::default();
        let rank = |text: &str, cache: &mut Cache| rank(text, &rules, cache, None).unwrap()[0].at;
        assert_eq!(rank("Non, utilise pnpm, pas npm.", &mut cache), 0);
        assert_eq!(
            rank(
                "N'appelle pas la base depuis un composant React",
                &mut cache
            ),
            1
        );
        assert_eq!(
            rank(
                "you forgot to format the code before the commit again",
                &mut cache
            ),
            2
        );
        assert_eq!(rank("pas d'export par défaut", &mut cache), 3);
    }
}

#[cfg(test)]
mod tuning {
    #![allow(clippy::print_stderr)]
    use super::*;

    const DEV: &str = include_str!("../../tests/fixtures/pairs/dev.tsv");

    /// The dev split's pairs, each line's columns.
    fn dev_lines() -> impl Iterator<Item = Vec<&'static str>> {
        (DEV.lines().filter(|l| !l.starts_with('#')))
            .map(|l| l.split('\t').collect::<Vec<_>>())
            .filter(|f| f.len() >= 6)
    }

    fn vector(cache: &mut Cache, text: &str) -> Vec<f32> {
        cache.vectors(&[content(text).as_str()], None).unwrap()[0]
            .clone()
            .unwrap()
    }

    /// Prints, for the dev split's rule-form pairs (a rule written against a file's rules),
    /// the share of repeats and reversals whose cosine to their rule reaches each floor,
    /// of related rules (another rule of the topic) reaching their nearest, and of the
    /// pairs of rules in each file, raw and centred.
    /// Tuning only: `cargo test --release --lib meaning::tuning -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn near_rules_on_the_dev_pairs() {
        let mut cache = Cache::default();
        let mut found: Vec<(&str, f32, f32)> = Vec::new();
        for f in dev_lines() {
            let v: Vec<Vec<f32>> = f[2].split(" ¦ ").map(|r| vector(&mut cache, r)).collect();
            for i in 0..v.len() {
                for j in 0..i {
                    let centred_cosine = encoder::cosine(&centred(&v[i]), &centred(&v[j]));
                    found.push(("other-rule", encoder::cosine(&v[i], &v[j]), centred_cosine));
                }
            }
            if f[4] != "rule" {
                continue;
            }
            let text = vector(&mut cache, f[3]);
            let best = |score: &dyn Fn(&[f32], &[f32]) -> f32| -> f32 {
                match f[1].parse::<usize>() {
                    Ok(n) => score(&text, &v[n - 1]),
                    Err(_) => v.iter().map(|r| score(&text, r)).fold(f32::MIN, f32::max),
                }
            };
            let raw = best(&|a, b| encoder::cosine(a, b));
            let centred_cosine = best(&|a, b| encoder::cosine(&centred(a), &centred(b)));
            found.push((f[0], raw, centred_cosine));
        }
        let labels = ["repeat", "reversal", "related", "unrelated", "other-rule"];
        let show = |name: &str, floors: &[f32], pick: &dyn Fn(&(&str, f32, f32)) -> f32| {
            for floor in floors {
                let line: Vec<String> = (labels.iter())
                    .map(|label| {
                        let of: Vec<f32> =
                            found.iter().filter(|x| x.0 == *label).map(pick).collect();
                        let above = of.iter().filter(|s| **s >= *floor).count();
                        format!("{label} {above}/{}", of.len())
                    })
                    .collect();
                eprintln!("{name} {floor:.2}: {}", line.join(", "));
            }
        };
        show("raw", &[0.85, 0.88], &|x| x.1);
        show("centred", &[0.2, 0.25, 0.3, 0.35, 0.4], &|x| x.2);
    }

    /// As a user lives: one file of every rule of the dev split (each a concern of its
    /// own, some in both languages), each rule-form repeat or reversal added to it in
    /// turn; prints the pairs found and the pairs among the file's own rules per floor.
    #[test]
    #[ignore]
    fn near_rules_in_one_dev_file() {
        let mut cache = Cache::default();
        let mut file: Vec<&str> = dev_lines()
            .flat_map(|f| f[2].split(" ¦ ").map(directive).collect::<Vec<_>>())
            .collect();
        file.sort_unstable();
        file.dedup();
        let rules: Vec<Vec<f32>> = file
            .iter()
            .map(|r| centred(&vector(&mut cache, r)))
            .collect();
        let tests: Vec<(Vec<f32>, usize)> = dev_lines()
            .filter(|f| f[4] == "rule" && (f[0] == "repeat" || f[0] == "reversal"))
            .map(|f| {
                let target = f[2].split(" ¦ ").nth(f[1].parse::<usize>().unwrap() - 1);
                let at = file.binary_search(&directive(target.unwrap())).unwrap();
                (centred(&vector(&mut cache, f[3])), at)
            })
            .collect();
        let n = rules.len();
        eprintln!("file of {n} rules, {} repeats and reversals", tests.len());
        for floor in [0.25f32, 0.3, 0.35, 0.4, 0.45] {
            let among: usize = (0..n)
                .map(|i| {
                    (0..i)
                        .filter(|&j| encoder::cosine(&rules[i], &rules[j]) >= floor)
                        .count()
                })
                .sum();
            let found = (tests.iter())
                .filter(|(v, at)| encoder::cosine(v, &rules[*at]) >= floor)
                .count();
            eprintln!(
                "centred {floor:.2}: pairs found {found}/{}, pairs among the file's rules {among}",
                tests.len()
            );
        }
    }
}
