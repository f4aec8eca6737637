//! Writing a merge result that is more than an append: the kept side's array with some
//! elements replaced, removed, or wrapped in conflict markers. Every side of a conflict is
//! a run of whole objects with its own commas, so keeping either side gives valid JSON.
//! Unchanged neighbours keep their bytes and the separators between them.

use crate::rules::append::Layout;
use crate::rules::file::{BOM, Document};

/// One element of the result, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// The kept side's element, byte for byte.
    Keep(usize),
    /// A new or replaced element, laid out for the file.
    Text(String),
    /// A conflict: ours' objects and theirs' objects (either may be empty).
    Block {
        ours: Vec<String>,
        theirs: Vec<String>,
    },
}

/// The conflict markers: their length and the labels after `<<<<<<<` and `>>>>>>>`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Markers<'a> {
    pub(crate) size: usize,
    pub(crate) ours: &'a str,
    pub(crate) theirs: &'a str,
}

impl Slot {
    fn plain<'a>(&'a self, document: &'a Document) -> Option<&'a str> {
        match self {
            Slot::Keep(index) => Some(document.rule(*index).raw),
            Slot::Text(text) => Some(text),
            Slot::Block { .. } => None,
        }
    }
}

/// The text of the array made of `slots`, framed by `document`'s own brackets, layout and
/// surrounding bytes.
pub(crate) fn render(
    document: &Document,
    layout: Layout<'_>,
    slots: Vec<Slot>,
    markers: &Markers<'_>,
) -> String {
    let slots = shape(document, slots);
    let Layout { unit, newline } = layout;
    let source = document.source.as_str();
    let Frame {
        bracket,
        close,
        after_close,
    } = frame(document, newline);
    let end_of = |index: usize| document.rule(index).offset + document.rule(index).raw.len();
    let last_kept = document.len().checked_sub(1);

    let mut out = String::with_capacity(source.len() + 256);
    match slots.first() {
        None => {
            out.push_str(bracket);
            out.push(']');
            out.push_str(after_close);
            return out;
        }
        Some(Slot::Keep(0)) => out.push_str(&source[..document.rule(0).offset]),
        Some(Slot::Block { .. }) => {
            out.push_str(bracket);
            out.push_str(newline);
        }
        Some(_) => {
            out.push_str(bracket);
            out.push_str(newline);
            out.push_str(unit);
        }
    }
    for (at, slot) in slots.iter().enumerate() {
        let next = slots.get(at + 1);
        if let Some(text) = slot.plain(document) {
            out.push_str(text);
            match (slot, next) {
                (Slot::Keep(i), Some(Slot::Keep(j))) if *j == i + 1 => {
                    out.push_str(&source[end_of(*i)..document.rule(*j).offset]);
                }
                (_, Some(Slot::Block { .. })) => {
                    out.push(',');
                    out.push_str(newline);
                }
                (_, Some(_)) => {
                    out.push(',');
                    out.push_str(newline);
                    out.push_str(unit);
                }
                (Slot::Keep(i), None) if Some(*i) == last_kept && close.is_some() => {
                    out.push_str(&source[end_of(*i)..]);
                }
                (_, None) => {
                    out.push_str(newline);
                    out.push(']');
                    out.push_str(after_close);
                }
            }
            continue;
        }
        let Slot::Block { ours, theirs } = slot else {
            unreachable!("plain slots were handled above")
        };
        write_block(&mut out, [ours, theirs], next.is_some(), layout, markers);
        match next {
            Some(_) => out.push_str(unit),
            None => {
                out.push(']');
                out.push_str(after_close);
            }
        }
    }
    out
}

/// What surrounds the rules in the kept file: the text up to and with `[`, where `]` is,
/// and what follows it.
struct Frame<'s> {
    bracket: &'s str,
    close: Option<usize>,
    after_close: &'s str,
}

fn frame<'s>(document: &'s Document, newline: &'s str) -> Frame<'s> {
    let source = document.source.as_str();
    let body_start = if document.has_bom { BOM.len() } else { 0 };
    let open = source[body_start..]
        .find('[')
        .map(|at| body_start + at + 1)
        .filter(|_| !source.trim().trim_start_matches(BOM).is_empty());
    let close = {
        let trimmed = source.trim_end();
        (open.is_some() && trimmed.ends_with(']')).then(|| trimmed.len() - 1)
    };
    let after_close = match close {
        Some(close) if close + 1 < source.len() => &source[close + 1..],
        _ => newline,
    };
    let bracket = match open {
        Some(open) => &source[..open],
        None if document.has_bom => "\u{feff}[",
        None => "[",
    };
    Frame {
        bracket,
        close,
        after_close,
    }
}

/// One conflict: ours' objects and theirs' between the three marker lines, each object
/// indented and followed by a comma unless it is the last element of the array.
fn write_block(
    out: &mut String,
    [ours, theirs]: [&[String]; 2],
    has_next: bool,
    Layout { unit, newline }: Layout<'_>,
    markers: &Markers<'_>,
) {
    let line = |out: &mut String, marker: char, label: &str| {
        out.extend(std::iter::repeat_n(marker, markers.size));
        if !label.is_empty() {
            out.push(' ');
            out.push_str(label);
        }
        out.push_str(newline);
    };
    let side = |out: &mut String, objects: &[String]| {
        for (j, object) in objects.iter().enumerate() {
            out.push_str(unit);
            out.push_str(object);
            if j + 1 < objects.len() || has_next {
                out.push(',');
            }
            out.push_str(newline);
        }
    };
    line(out, '<', markers.ours);
    side(out, ours);
    line(out, '=', "");
    side(out, theirs);
    line(out, '>', markers.theirs);
}

/// Merges adjacent conflicts into one, and lets a final conflict with an empty side take
/// in the element before it: otherwise keeping the empty side would leave that element's
/// comma dangling before `]`.
fn shape(document: &Document, slots: Vec<Slot>) -> Vec<Slot> {
    let mut shaped: Vec<Slot> = Vec::with_capacity(slots.len());
    for slot in slots {
        match (shaped.last_mut(), slot) {
            (
                Some(Slot::Block { ours, theirs }),
                Slot::Block {
                    ours: more_ours,
                    theirs: more_theirs,
                },
            ) => {
                ours.extend(more_ours);
                theirs.extend(more_theirs);
            }
            (_, slot) => shaped.push(slot),
        }
    }
    let absorb = match shaped.as_slice() {
        [.., previous, Slot::Block { ours, theirs }] if ours.is_empty() || theirs.is_empty() => {
            previous.plain(document).map(str::to_string)
        }
        _ => None,
    };
    if let Some(previous) = absorb {
        let block = shaped.pop();
        shaped.pop();
        if let Some(Slot::Block {
            mut ours,
            mut theirs,
        }) = block
        {
            ours.insert(0, previous.clone());
            theirs.insert(0, previous);
            shaped.push(Slot::Block { ours, theirs });
        }
    }
    shaped
}

/// Which side of every conflict to keep, for [`pick`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    Ours,
    Theirs,
}

/// `text` with every conflict replaced by one of its sides, as a person picking "ours" or
/// "theirs" in a merge tool would do. Markers are lines that start with `size` times `<`,
/// `|`, `=` or `>`.
pub(crate) fn pick(text: &str, side: Pick, size: usize) -> String {
    #[derive(PartialEq)]
    enum State {
        Outside,
        Ours,
        Base,
        Theirs,
    }
    let is_marker = |line: &str, marker: char| {
        let rest = line.trim_end_matches(['\n', '\r']);
        let prefix: String = std::iter::repeat_n(marker, size).collect();
        rest.strip_prefix(&prefix)
            .is_some_and(|after| after.is_empty() || after.starts_with(' '))
    };
    let mut state = State::Outside;
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        state = match state {
            State::Outside if is_marker(line, '<') => State::Ours,
            State::Ours if is_marker(line, '|') => State::Base,
            State::Ours | State::Base if is_marker(line, '=') => State::Theirs,
            State::Theirs if is_marker(line, '>') => State::Outside,
            state => {
                let keep = match state {
                    State::Outside => true,
                    State::Ours => side == Pick::Ours,
                    State::Theirs => side == Pick::Theirs,
                    State::Base => false,
                };
                if keep {
                    out.push_str(line);
                }
                state
            }
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::append::layout;
    use crate::rules::file::parse_str as parse;

    const MARKERS: Markers<'static> = Markers {
        size: 7,
        ours: "HEAD",
        theirs: "main",
    };

    fn object(n: u64) -> String {
        format!("{{\n    \"Rule_number\": {n}\n  }}")
    }

    fn numbers(text: &str) -> Vec<u64> {
        let value: serde_json::Value =
            serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
        value
            .as_array()
            .unwrap()
            .iter()
            .map(|rule| rule["Rule_number"].as_u64().unwrap())
            .collect()
    }

    const THREE: &str = "[\n  {\n    \"Rule_number\": 1\n  },\n  {\n    \"Rule_number\": 2\n  },\n  {\n    \"Rule_number\": 3\n  }\n]\n";

    fn run(source: &str, slots: Vec<Slot>) -> String {
        let document = parse(source).unwrap();
        render(&document, layout(&document), slots, &MARKERS)
    }

    #[test]
    fn keeping_everything_is_the_identity() {
        for source in [
            THREE,
            "[{\"Rule_number\":1} , {\"Rule_number\":2}]",
            "\u{feff}[\r\n  {\"Rule_number\": 1}\r\n]",
        ] {
            let count = parse(source).unwrap().len();
            assert_eq!(run(source, (0..count).map(Slot::Keep).collect()), source);
        }
    }

    #[test]
    fn a_conflict_wraps_only_its_rule_and_either_side_is_valid() {
        let text = run(
            THREE,
            vec![
                Slot::Keep(0),
                Slot::Block {
                    ours: vec![object(2)],
                    theirs: vec![object(20)],
                },
                Slot::Keep(2),
            ],
        );
        assert_eq!(
            text,
            "[\n  {\n    \"Rule_number\": 1\n  },\n<<<<<<< HEAD\n  {\n    \"Rule_number\": 2\n  },\n=======\n  {\n    \"Rule_number\": 20\n  },\n>>>>>>> main\n  {\n    \"Rule_number\": 3\n  }\n]\n"
        );
        assert_eq!(numbers(&pick(&text, Pick::Ours, 7)), [1, 2, 3]);
        assert_eq!(numbers(&pick(&text, Pick::Theirs, 7)), [1, 20, 3]);
    }

    #[test]
    fn every_position_and_empty_side_gives_valid_json() {
        let sides = [
            (vec![object(9)], vec![]),
            (vec![], vec![object(9)]),
            (vec![object(8)], vec![object(9)]),
        ];
        for (ours, theirs) in sides {
            let block = Slot::Block {
                ours: ours.clone(),
                theirs: theirs.clone(),
            };
            for at in 0..=3 {
                let mut slots: Vec<Slot> = (0..3).map(Slot::Keep).collect();
                slots.insert(at, block.clone());
                slots.push(Slot::Text(object(4)));
                for drop_tail in [false, true] {
                    let mut slots = slots.clone();
                    if drop_tail {
                        slots.pop();
                    }
                    let text = run(THREE, slots);
                    for side in [Pick::Ours, Pick::Theirs] {
                        numbers(&pick(&text, side, 7));
                    }
                }
            }
            let alone = run("[]\n", vec![block.clone()]);
            numbers(&pick(&alone, Pick::Ours, 7));
            numbers(&pick(&alone, Pick::Theirs, 7));
            let empty = run("", vec![block, Slot::Text(object(1))]);
            numbers(&pick(&empty, Pick::Theirs, 7));
        }
    }

    #[test]
    fn removing_and_replacing_keep_the_neighbours_bytes() {
        let text = run(THREE, vec![Slot::Keep(0), Slot::Text(object(7))]);
        assert_eq!(numbers(&text), [1, 7]);
        assert!(text.starts_with("[\n  {\n    \"Rule_number\": 1\n  },\n  {\n"));
        assert_eq!(run(THREE, vec![]), "[]\n");
        assert_eq!(
            numbers(&run(THREE, vec![Slot::Keep(1), Slot::Keep(2)])),
            [2, 3]
        );
    }

    #[test]
    fn pick_reads_diff3_and_longer_markers() {
        let text = "a\n<<<<<<<<< x\nb\n||||||||| base\nc\n=========\nd\n>>>>>>>>> y\ne\n";
        assert_eq!(pick(text, Pick::Ours, 9), "a\nb\ne\n");
        assert_eq!(pick(text, Pick::Theirs, 9), "a\nd\ne\n");
    }
}
