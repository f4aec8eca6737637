//! What a text means, as one direction: the sum of its word pieces' vectors from a table
//! distilled from the sentence model all-MiniLM-L6-v2 (`tests/scripts/meaning.py` writes
//! `meaning/table.bin`), so "e2e" lands near "end-to-end" and "libellés" near "textes"
//! with no word in common. No model runs here: the table is read in place, and a text
//! costs one hash lookup a word piece.

/// The table (its layout is described in `tests/scripts/meaning.py`).
static TABLE: &[u8] = include_bytes!("meaning/table.bin");

const fn u32_at(at: usize) -> usize {
    u32::from_le_bytes([TABLE[at], TABLE[at + 1], TABLE[at + 2], TABLE[at + 3]]) as usize
}

const PIECES: usize = u32_at(4);
pub(super) const DIMS: usize = 128;
const SLOTS: usize = u32_at(12);
const SLOTS_AT: usize = 16;
const OFFSETS_AT: usize = SLOTS_AT + 2 * SLOTS;
const TEXT_AT: usize = OFFSETS_AT + 4 * (PIECES + 1);
const ROWS_AT: usize = TEXT_AT + u32_at(OFFSETS_AT + 4 * PIECES);
const ROW: usize = 4 + DIMS;
const EMPTY: usize = 0xFFFF;
/// A word longer than this is no word the table cuts (BERT's limit is 100 characters).
const MAX_WORD: usize = 100;

// The table is what this reader expects: checked when the crate compiles.
const _: () = assert!(TABLE[0] == b'A' && TABLE[3] == b'1');
const _: () = assert!(u32_at(8) == DIMS);
const _: () = assert!(ROWS_AT + PIECES * ROW == TABLE.len());

/// A text's direction, of length 1.
pub(super) type Meaning = Box<[f32; DIMS]>;

/// The direction of `text`, or `None` when the table knows none of its words.
#[cfg(test)]
fn of(text: &str) -> Option<Meaning> {
    of_folded(&super::fold(text))
}

/// The direction of a text already folded (lower case, French accents off: [`super::fold`]).
pub(super) fn of_folded(folded: &str) -> Option<Meaning> {
    let mut sum = Box::new([0.0f32; DIMS]);
    let mut any = false;
    let mut piece = String::new();
    for word in words(folded) {
        // A word the table knows whole is read as it is, in one lookup: the glossary's
        // French words are seldom English word pieces, and the weights were fitted so.
        if let Some(row) = find(word.as_bytes()) {
            add_row(row, &mut sum);
            any = true;
            continue;
        }
        for word in super::translated(word) {
            any |= add_word(word, &mut piece, &mut sum);
        }
    }
    let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
    (any && norm > 0.0).then(|| {
        sum.iter_mut().for_each(|x| *x /= norm);
        sum
    })
}

/// Whether the table holds `word` (folded) as one whole piece.
pub(super) fn is_piece(word: &str) -> bool {
    find(word.as_bytes()).is_some()
}

/// How close two directions are: their cosine, from -1 to 1.
pub(super) fn closeness(a: &Meaning, b: &Meaning) -> f64 {
    f64::from(a.iter().zip(b.iter()).map(|(x, y)| x * y).sum::<f32>())
}

/// BERT's basic split: runs of letters and digits; each punctuation mark is a word of its
/// own, which the table knows too.
fn words(folded: &str) -> impl Iterator<Item = &str> {
    let mut out = Vec::new();
    let mut start = None;
    for (at, c) in folded.char_indices() {
        let punctuation = c.is_ascii_punctuation() || (!c.is_ascii() && !c.is_alphanumeric());
        if c.is_whitespace() || punctuation {
            if let Some(from) = start.take() {
                out.push(&folded[from..at]);
            }
            if punctuation {
                out.push(&folded[at..at + c.len_utf8()]);
            }
        } else if start.is_none() {
            start = Some(at);
        }
    }
    if let Some(from) = start {
        out.push(&folded[from..]);
    }
    out.into_iter()
}

/// Adds the pieces of one word (WordPiece: the longest known start, then "##" and the
/// longest known rest); a word it cannot cut whole adds nothing.
fn add_word(word: &str, piece: &mut String, sum: &mut [f32; DIMS]) -> bool {
    if word.len() > MAX_WORD || !word.is_ascii() {
        return false;
    }
    // A word of more pieces than this is no word (a hash, a long identifier).
    let mut rows = [0usize; 16];
    let mut count = 0;
    let mut start = 0;
    // The hash of each prefix of the rest, in one pass: the longest known one is then
    // looked for without hashing each candidate anew.
    let mut hashes = [0u64; MAX_WORD + 1];
    while start < word.len() {
        piece.clear();
        if start > 0 {
            piece.push_str("##");
        }
        let marker = piece.len();
        piece.push_str(&word[start..]);
        let mut hash = fnv1a(&piece.as_bytes()[..marker]);
        for (at, &b) in piece.as_bytes()[marker..].iter().enumerate() {
            hash = fnv1a_step(hash, b);
            hashes[at + 1] = hash;
        }
        let rest = word.len() - start;
        let found = (1..=rest).rev().find_map(|len| {
            find_hashed(&piece.as_bytes()[..marker + len], hashes[len]).map(|row| (row, len))
        });
        let Some((row, len)) = found.filter(|_| count < rows.len()) else {
            return false;
        };
        rows[count] = row;
        count += 1;
        start += len;
    }
    for &row in &rows[..count] {
        add_row(row, sum);
    }
    true
}

/// The row of a piece, by its hash slot.
fn find(piece: &[u8]) -> Option<usize> {
    find_hashed(piece, fnv1a(piece))
}

/// The row of a piece whose hash is known.
fn find_hashed(piece: &[u8], hash: u64) -> Option<usize> {
    let mut slot = (hash as usize) & (SLOTS - 1);
    loop {
        let at = SLOTS_AT + 2 * slot;
        let row = usize::from(u16::from_le_bytes([TABLE[at], TABLE[at + 1]]));
        if row == EMPTY {
            return None;
        }
        let from = TEXT_AT + u32_at(OFFSETS_AT + 4 * row);
        let to = TEXT_AT + u32_at(OFFSETS_AT + 4 * row + 4);
        if &TABLE[from..to] == piece {
            return Some(row);
        }
        slot = (slot + 1) & (SLOTS - 1);
    }
}

fn add_row(row: usize, sum: &mut [f32; DIMS]) {
    let at = ROWS_AT + row * ROW;
    let scale = f32::from_le_bytes([TABLE[at], TABLE[at + 1], TABLE[at + 2], TABLE[at + 3]]);
    // A fixed length, so the loop compiles to vector instructions.
    let Ok(bytes) = <&[u8; DIMS]>::try_from(&TABLE[at + 4..at + ROW]) else {
        return;
    };
    for (x, &q) in sum.iter_mut().zip(bytes) {
        *x += scale * f32::from(q.cast_signed());
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xCBF2_9CE4_8422_2325, |h, &b| fnv1a_step(h, b))
}

pub(super) const fn fnv1a_step(hash: u64, byte: u8) -> u64 {
    (hash ^ byte as u64).wrapping_mul(0x0100_0000_01B3)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &str, b: &str) -> f64 {
        closeness(&of(a).unwrap(), &of(b).unwrap())
    }

    #[test]
    fn every_piece_is_found_in_its_own_slot_chain() {
        for row in 0..PIECES {
            let from = TEXT_AT + u32_at(OFFSETS_AT + 4 * row);
            let to = TEXT_AT + u32_at(OFFSETS_AT + 4 * row + 4);
            assert_eq!(find(&TABLE[from..to]), Some(row));
        }
        assert_eq!(find(b"no such piece at all"), None);
    }

    #[test]
    fn paraphrases_are_closer_than_other_rules() {
        let rule = "Always use rg instead of grep in scripts.";
        assert!(
            close(rule, "grep again? We use ripgrep in our scripts.")
                > close(rule, "Indent with two spaces in YAML files.")
        );
        let rule = "Toujours écrire les textes de l'interface en français.";
        assert!(
            close(rule, "Les libellés de l'interface sont en français.")
                > close(rule, "Ne jamais committer de secrets.")
        );
    }

    #[test]
    fn a_text_of_unknown_words_has_no_meaning() {
        assert!(of("").is_none());
        assert!(of("日本語").is_none());
        assert!(of("Use tabs").is_some());
    }
}
