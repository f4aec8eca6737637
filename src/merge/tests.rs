//! The merge function over many small cases. Files are built the way `learn` writes them,
//! so "the result equals ours plus an append" can be checked byte for byte.

use super::*;
use crate::rules::append::{StoredRule, append};
use crate::rules::file::parse_str as parse;

/// A rule: number, instruction, why.
type R<'a> = (u64, &'a str, &'a str);

fn file(rules: &[R<'_>]) -> String {
    let mut text = String::new();
    for &(number, instruction, why) in rules {
        let document = parse(&text).unwrap();
        text = append(
            &document,
            &StoredRule {
                number,
                category: "CODE".into(),
                instruction: instruction.into(),
                why: why.into(),
                paths: Vec::new(),
                check: None,
                retirement: false,
                distinct: None,
            },
        );
    }
    if text.is_empty() {
        text.push_str("[]\n");
    }
    text
}

fn base_rules() -> Vec<R<'static>> {
    vec![
        (1, "Always use tabs", "user preference"),
        (2, "Never commit secrets", "bug lesson"),
        (3, "Use pnpm", "codebase pattern"),
    ]
}

fn with(extra: &[R<'static>]) -> String {
    let mut rules = base_rules();
    rules.extend_from_slice(extra);
    file(&rules)
}

fn run(base: &str, ours: &str, theirs: &str, options: &Options) -> Merged {
    let input = Input { base, ours, theirs };
    let merged = merge(&input, options).unwrap_or_else(|e| panic!("{e}"));
    if merged.is_clean() {
        // Running the merge on its own output changes nothing.
        let again = merge(
            &Input {
                base,
                ours: &merged.text,
                theirs,
            },
            options,
        )
        .unwrap();
        assert_eq!(again.text, merged.text, "not a fixed point");
        if options.keep == Side::Ours {
            assert!(again.added.is_empty(), "{:?}", again.added);
        }
    }
    merged
}

fn clean(base: &str, ours: &str, theirs: &str) -> Merged {
    let merged = run(base, ours, theirs, &Options::default());
    assert!(merged.is_clean(), "{}", merged.text);
    merged
}

/// (number, instruction, why) of every rule.
fn rules_of(text: &str) -> Vec<(u64, String, String)> {
    let value: serde_json::Value =
        serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| {
            (
                rule["Rule_number"].as_u64().unwrap(),
                rule["Instruction"].as_str().unwrap().to_string(),
                rule["Why"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn numbers(text: &str) -> Vec<u64> {
    rules_of(text).into_iter().map(|r| r.0).collect()
}

const A: R<'static> = (4, "Always write tests first", "user preference");
const B: R<'static> = (4, "Never use default exports", "codebase pattern");

#[test]
fn both_sides_add_a_rule_with_the_same_number() {
    let merged = clean(&with(&[]), &with(&[A]), &with(&[B]));
    assert_eq!(numbers(&merged.text), [1, 2, 3, 4, 5]);
    assert_eq!(merged.added, [Added { from: 4, to: 5 }]);
    let ours = with(&[A]);
    assert!(
        merged
            .text
            .starts_with(ours.trim_end().trim_end_matches(']').trim_end())
    );
    assert_eq!(
        merged.text,
        file(&[base_rules(), vec![A, (5, B.1, B.2)]].concat())
    );
    assert!(
        merged
            .report("x.json", "test")
            .contains("theirs' rule 4 \u{2192} 5")
    );
}

#[test]
fn theirs_supersede_markers_follow_the_renumbering() {
    let theirs = with(&[
        B,
        (
            5,
            "Always use named exports",
            "user preference (supersedes rule 4)",
        ),
        (6, "Use yarn", "moved (replaces rule 3, overrides #5)"),
    ]);
    let merged = clean(&with(&[]), &with(&[A]), &theirs);
    assert_eq!(
        rules_of(&merged.text)[4..],
        [
            (5, B.1.into(), B.2.into()),
            (
                6,
                "Always use named exports".into(),
                "user preference (supersedes rule 5)".into()
            ),
            (
                7,
                "Use yarn".into(),
                "moved (replaces rule 3, overrides #6)".into()
            ),
        ]
    );
}

#[test]
fn the_supersedes_array_follows_the_renumbering() {
    let theirs = with(&[B]).replace(
        "\"Why\": \"codebase pattern\"\n  }\n]",
        "\"Why\": \"codebase pattern\"\n  },\n  {\"Rule_number\": 5, \"Category\": \"CODE\", \"Instruction\": \"Always x\", \"Why\": \"y\", \"Supersedes\": [4, 2]}\n]",
    );
    let merged = clean(&with(&[]), &with(&[A]), &theirs);
    assert!(
        merged
            .text
            .contains("{\"Rule_number\": 6, \"Category\": \"CODE\", \"Instruction\": \"Always x\", \"Why\": \"y\", \"Supersedes\": [5, 2]}"),
        "{}",
        merged.text
    );
}

#[test]
fn the_same_rule_learned_on_both_sides_is_kept_once() {
    let merged = clean(&with(&[]), &with(&[A]), &with(&[A]));
    assert_eq!(merged.text, with(&[A]));
    assert_eq!(
        merged.dropped,
        [Dropped {
            from: 4,
            to: 4,
            reason: DropReason::SameContent
        }]
    );
    // The same instruction for another reason, in another case: learn would not add it.
    let theirs = with(&[(4, "always write tests FIRST ", "team decision")]);
    let merged = clean(&with(&[]), &with(&[B, (5, A.1, A.2)]), &theirs);
    assert_eq!(merged.text, with(&[B, (5, A.1, A.2)]));
    assert_eq!(merged.dropped[0].reason, DropReason::SameInstruction);
    assert_eq!(merged.dropped[0].to, 5);
}

#[test]
fn a_superseded_instruction_may_come_back() {
    // Rule 1 was superseded in the base; theirs learns its instruction again.
    let base = with(&[(4, "Use spaces", "changed (supersedes rule 1)")]);
    let theirs = with(&[
        (4, "Use spaces", "changed (supersedes rule 1)"),
        (5, "Always use tabs", "changed back (supersedes rule 4)"),
    ]);
    let ours = with(&[
        (4, "Use spaces", "changed (supersedes rule 1)"),
        (5, B.1, B.2),
    ]);
    let merged = clean(&base, &ours, &theirs);
    assert_eq!(
        rules_of(&merged.text)[5],
        (
            6,
            "Always use tabs".into(),
            "changed back (supersedes rule 4)".into()
        )
    );
}

#[test]
fn an_instruction_ours_superseded_since_the_base_is_not_learned_again() {
    let ours = with(&[
        A,
        (5, "Always write tests after", "changed (supersedes rule 4)"),
    ]);
    let theirs = with(&[(4, A.1, "another reason"), (5, B.1, B.2)]);
    let merged = clean(&with(&[]), &ours, &theirs);
    assert_eq!(numbers(&merged.text), [1, 2, 3, 4, 5, 6]);
    assert_eq!(rules_of(&merged.text)[5].1, B.1);
    assert_eq!(merged.dropped[0].to, 4);
}

#[test]
fn the_second_commit_of_a_rebase_finds_its_renumbered_parent() {
    // Commit 1 (A as 4) was replayed onto main (B as 4) as 5; commit 2 supersedes "rule 4".
    let base = with(&[A]);
    let ours = with(&[B, (5, A.1, A.2)]);
    let theirs = with(&[A, (5, "Always write tests", "simpler (supersedes rule 4)")]);
    let merged = clean(&base, &ours, &theirs);
    assert_eq!(
        rules_of(&merged.text)[5],
        (
            6,
            "Always write tests".into(),
            "simpler (supersedes rule 5)".into()
        )
    );
    assert_eq!(merged.added, [Added { from: 5, to: 6 }]);
}

#[test]
fn rules_are_matched_through_their_references_not_their_numbers() {
    // Ours got theirs' two rules earlier, under other numbers.
    let theirs = with(&[A, (5, "Always write tests", "simpler (supersedes rule 4)")]);
    let ours = with(&[
        B,
        (5, A.1, A.2),
        (6, "Always write tests", "simpler (supersedes rule 5)"),
    ]);
    let merged = clean(&with(&[]), &ours, &theirs);
    assert_eq!(merged.text, ours);
    assert_eq!(merged.dropped.len(), 2);
}

#[test]
fn one_side_unchanged_gives_the_other() {
    let merged = clean(&with(&[]), &with(&[]), &with(&[A, B]));
    assert_eq!(numbers(&merged.text), [1, 2, 3, 4, 5]);
    assert_eq!(merged.text, with(&[A, (5, B.1, B.2)]));
    let merged = clean(&with(&[]), &with(&[A]), &with(&[]));
    assert_eq!(merged.text, with(&[A]));
}

#[test]
fn upstream_theirs_keeps_theirs_numbers() {
    let options = Options {
        keep: Side::Theirs,
        ..Options::default()
    };
    let main = with(&[B, (5, "Use tabs in Makefiles", "tool")]);
    let feature = with(&[A, (5, "Always write tests", "simpler (supersedes rule 4)")]);
    let merged = run(&with(&[]), &feature, &main, &options);
    assert!(merged.is_clean());
    assert!(
        merged
            .text
            .starts_with(main.trim_end().trim_end_matches(']').trim_end())
    );
    assert_eq!(
        rules_of(&merged.text)[5..],
        [
            (6, A.1.into(), A.2.into()),
            (
                7,
                "Always write tests".into(),
                "simpler (supersedes rule 6)".into()
            )
        ]
    );
    assert!(
        merged
            .report("f", "test")
            .contains("ours' rule 4 \u{2192} 6")
    );
}

#[test]
fn an_edit_on_both_sides_is_a_conflict_around_that_rule_only() {
    let base = with(&[A]);
    let ours = base.replace("\"bug lesson\"", "\"a leaked key\"");
    let theirs = base.replace("Never commit secrets", "Never commit secrets or keys");
    let options = Options {
        labels: Labels {
            base: None,
            ours: Some("HEAD".into()),
            theirs: Some("feature".into()),
        },
        ..Options::default()
    };
    let merged = run(&base, &ours, &theirs, &options);
    assert_eq!(
        merged.conflicts,
        [Conflict {
            number: 2,
            ours: Change::Edited,
            theirs: Change::Edited
        }]
    );
    let text = &merged.text;
    assert_eq!(text.matches("<<<<<<< HEAD\n").count(), 1);
    assert_eq!(text.matches(">>>>>>> feature\n").count(), 1);
    let block = &text[text.find("<<<<<<<").unwrap()..text.find(">>>>>>>").unwrap()];
    assert_eq!(block.matches("Rule_number").count(), 2, "{text}");
    assert_eq!(pick(text, Pick::Ours, 7), ours);
    assert_eq!(pick(text, Pick::Theirs, 7), theirs);
}

#[test]
fn a_conflict_and_new_rules_together() {
    let base = with(&[]);
    let ours = with(&[A]).replace("\"Use pnpm\"", "\"Use pnpm 8\"");
    let theirs = with(&[B]).replace("\"Use pnpm\"", "\"Use pnpm 9\"");
    let merged = run(&base, &ours, &theirs, &Options::default());
    assert_eq!(merged.conflicts.len(), 1);
    assert_eq!(merged.conflicts[0].number, 3);
    assert_eq!(numbers(&pick(&merged.text, Pick::Ours, 7)), [1, 2, 3, 4, 5]);
    assert_eq!(
        rules_of(&pick(&merged.text, Pick::Theirs, 7))[2].1,
        "Use pnpm 9"
    );
}

#[test]
fn one_sided_edits_conflict_unless_accepted() {
    let base = with(&[]);
    let edited = base.replace("\"Use pnpm\"", "\"Use pnpm 9\"");
    for (ours, theirs) in [(&edited, &base), (&base, &edited)] {
        let merged = run(&base, ours, theirs, &Options::default());
        assert_eq!(merged.conflicts.len(), 1);
        let accept = Options {
            accept_one_sided_edits: true,
            ..Options::default()
        };
        let merged = run(&base, ours, theirs, &accept);
        assert!(merged.is_clean());
        assert_eq!(merged.text, edited);
        assert_eq!(merged.accepted.len(), 1);
    }
}

#[test]
fn deletions_conflict_and_either_side_is_valid() {
    let base = with(&[]);
    let deleted_last = file(&base_rules()[..2]);
    let deleted_middle = file(&[base_rules()[0], base_rules()[2]]);
    for deleted in [&deleted_last, &deleted_middle] {
        for (ours, theirs) in [(deleted, &base), (&base, deleted)] {
            let merged = run(&base, ours, theirs, &Options::default());
            assert_eq!(merged.conflicts.len(), 1, "{}", merged.text);
            assert_eq!(rules_of(&pick(&merged.text, Pick::Ours, 7)), rules_of(ours));
            assert_eq!(
                rules_of(&pick(&merged.text, Pick::Theirs, 7)),
                rules_of(theirs)
            );
            let accept = Options {
                accept_one_sided_edits: true,
                ..Options::default()
            };
            let merged = run(&base, ours, theirs, &accept);
            assert_eq!(rules_of(&merged.text), rules_of(deleted));
        }
    }
    // Deleted on both sides: agreed.
    let merged = clean(&base, &deleted_middle, &deleted_middle);
    assert_eq!(merged.text, deleted_middle);
}

#[test]
fn the_same_edit_on_both_sides_is_no_conflict() {
    let base = with(&[]);
    let edited = base.replace("\"Use pnpm\"", "\"Use pnpm 9\"");
    let merged = clean(&base, &edited, &edited);
    assert_eq!(merged.text, edited);
}

#[test]
fn an_edit_of_a_referenced_rule_does_not_spread() {
    let base = with(&[(4, "Use spaces", "changed (supersedes rule 1)")]);
    let ours = base.replace("\"Always use tabs\"", "\"Always use tabs, width 4\"");
    let merged = run(
        &base,
        &ours,
        &with(&[
            (4, "Use spaces", "changed (supersedes rule 1)"),
            (5, B.1, B.2),
        ]),
        &Options::default(),
    );
    assert_eq!(merged.conflicts.len(), 1);
    assert_eq!(merged.conflicts[0].number, 1);
}

#[test]
fn both_superseding_the_same_rule_merges_and_warns() {
    let ours = with(&[(4, "Use npm", "moved (supersedes rule 3)")]);
    let theirs = with(&[(4, "Use bun", "moved (supersedes rule 3)")]);
    let merged = clean(&with(&[]), &ours, &theirs);
    assert_eq!(numbers(&merged.text), [1, 2, 3, 4, 5]);
    assert_eq!(merged.warnings.len(), 1, "{:?}", merged.warnings);
    assert!(
        merged.warnings[0]
            .message
            .contains("rules 4 and 5 both supersede rule 3")
    );
}

#[test]
fn criss_cross_bases_are_matched_by_content() {
    let a1 = (4, "Always a1", "x");
    let b1 = (5, "Always b1", "x");
    let base = with(&[a1, b1]);
    let ours = with(&[a1, b1, (6, "Always a2", "x")]);
    let theirs = with(&[
        (4, b1.1, b1.2),
        (5, a1.1, a1.2),
        (6, "Always b2", "after a1 (supersedes rule 5)"),
    ]);
    let merged = clean(&base, &ours, &theirs);
    assert_eq!(
        rules_of(&merged.text)[6],
        (7, "Always b2".into(), "after a1 (supersedes rule 4)".into())
    );
}

#[test]
fn a_file_added_on_both_sides_has_an_empty_base() {
    let merged = clean(
        "",
        &file(&[(1, "Always a", "x")]),
        &file(&[(1, "Always b", "x")]),
    );
    assert_eq!(numbers(&merged.text), [1, 2]);
    let merged = clean("", "", &file(&[(1, "Always b", "x")]));
    assert_eq!(merged.text, file(&[(1, "Always b", "x")]));
    let merged = clean("", "[]", &file(&[(1, "Always b", "x")]));
    assert_eq!(merged.text, file(&[(1, "Always b", "x")]));
}

#[test]
fn numbers_are_never_reused_from_the_base() {
    // Ours deleted base rule 3 (accepted); theirs' new rule does not take number 3.
    let base = with(&[]);
    let ours = file(&base_rules()[..2]);
    let accept = Options {
        accept_one_sided_edits: true,
        ..Options::default()
    };
    let merged = run(&base, &ours, &with(&[A]), &accept);
    assert_eq!(numbers(&merged.text), [1, 2, 4]);
}

#[test]
fn theirs_layout_is_converted_to_ours() {
    let ours = with(&[A]).replace("\n  ", "\n    ").replace('\n', "\r\n");
    let base = with(&[]);
    let merged = clean(&base, &ours, &with(&[B]));
    assert!(merged.text.starts_with(&ours[..ours.len() - 5]));
    assert!(
        merged
            .text
            .ends_with("    {\r\n        \"Rule_number\": 5,\r\n        \"Category\": \"CODE\",\r\n        \"Instruction\": \"Never use default exports\",\r\n        \"Why\": \"codebase pattern\"\r\n    }\r\n]\r\n"),
        "{:?}",
        merged.text
    );
}

#[test]
fn extra_fields_and_compact_files_survive() {
    let base =
        "[{\"Rule_number\":1,\"Category\":\"CODE\",\"Instruction\":\"Always a\",\"Why\":\"x\"}]";
    let ours = "[{\"Rule_number\":1,\"Category\":\"CODE\",\"Instruction\":\"Always a\",\"Why\":\"x\"},{\"Rule_number\":2,\"Category\":\"CODE\",\"Instruction\":\"Always o\",\"Why\":\"x\"}]";
    let theirs = "[{\"Rule_number\":1,\"Category\":\"CODE\",\"Instruction\":\"Always a\",\"Why\":\"x\"},{\"Rule_number\":2,\"Category\":\"CODE\",\"Instruction\":\"Always t\",\"Why\":\"x (supersedes rule 1)\",\"source\":{\"pr\":7}}]";
    let merged = clean(base, ours, theirs);
    assert!(merged.text.starts_with(&ours[..ours.len() - 1]));
    assert!(merged.text.contains("{\"Rule_number\":3,\"Category\":\"CODE\",\"Instruction\":\"Always t\",\"Why\":\"x (supersedes rule 1)\",\"source\":{\"pr\":7}}"));
}

#[test]
fn dangling_references_are_left_and_reported() {
    let merged = clean(
        &with(&[]),
        &with(&[A]),
        &with(&[(4, "Always z", "x (supersedes rule 9)")]),
    );
    assert_eq!(
        merged.warnings[0].code,
        crate::report::diagnostics::Code::MergeDanglingReference
    );
    assert!(
        merged.warnings[0].message.contains("refers to rule 9"),
        "{:?}",
        merged.warnings
    );
    assert!(merged.text.contains("x (supersedes rule 9)"));
}

#[test]
fn unparsable_versions_are_refused() {
    let good = with(&[]);
    for bad in ["[\n<<<<<<< HEAD\n]", "{}", "[{\"Rule_number\": \"4\"}]"] {
        for input in [
            Input {
                base: bad,
                ours: &good,
                theirs: &good,
            },
            Input {
                base: &good,
                ours: bad,
                theirs: &good,
            },
            Input {
                base: &good,
                ours: &good,
                theirs: bad,
            },
        ] {
            assert!(matches!(
                merge(&input, &Options::default()),
                Err(MergeError::Unparsable(_))
            ));
        }
    }
}

#[test]
fn marker_size_and_default_labels() {
    let base = with(&[]);
    let ours = base.replace("\"Use pnpm\"", "\"Use pnpm 9\"");
    let theirs = base.replace("\"Use pnpm\"", "\"Use pnpm 10\"");
    let options = Options {
        marker_size: 10,
        ..Options::default()
    };
    let merged = run(&base, &ours, &theirs, &options);
    assert!(merged.text.contains("\n<<<<<<<<<< ours\n"));
    assert!(merged.text.contains("\n==========\n"));
    assert!(merged.text.contains("\n>>>>>>>>>> theirs\n"));
    assert_eq!(pick(&merged.text, Pick::Theirs, 10), theirs);
}

#[test]
fn relayout_moves_units_and_newlines() {
    let two = Layout {
        unit: "  ",
        newline: "\n",
    };
    let tab = Layout {
        unit: "\t",
        newline: "\r\n",
    };
    assert_eq!(
        relayout("{\n    \"a\": 1\n  }", two, tab),
        "{\r\n\t\t\"a\": 1\r\n\t}"
    );
    assert_eq!(relayout("{\"a\": 1}", two, tab), "{\"a\": 1}");
}

#[test]
fn a_base_rule_ours_never_had_gets_a_free_number_in_the_conflict() {
    // A cherry-pick of a branch's second commit: the base holds the branch's first rule.
    let base = with(&[A]);
    let ours = with(&[B]);
    let theirs = with(&[A, (5, "Always write tests", "simpler (supersedes rule 4)")]);
    let merged = run(&base, &ours, &theirs, &Options::default());
    assert_eq!(
        merged.conflicts,
        [Conflict {
            number: 5,
            ours: Change::Deleted,
            theirs: Change::Unchanged
        }]
    );
    let picked = rules_of(&pick(&merged.text, Pick::Theirs, 7));
    assert_eq!(
        numbers(&pick(&merged.text, Pick::Theirs, 7)),
        [1, 2, 3, 4, 5, 6]
    );
    assert_eq!(picked[4].1, A.1);
    assert_eq!(picked[5].2, "simpler (supersedes rule 5)");
    let accept = Options {
        accept_one_sided_edits: true,
        ..Options::default()
    };
    let merged = run(&base, &ours, &theirs, &accept);
    assert_eq!(numbers(&merged.text), [1, 2, 3, 4, 6]);
    assert!(
        merged.warnings.iter().any(|w| w
            .message
            .contains("rule 6 supersedes rule 5, which the result does not have")),
        "{:?}",
        merged.warnings
    );
}

#[test]
fn only_a_similar_rule_under_the_same_number_is_an_edit() {
    let base = with(&[]);
    // Reworded: most words kept, so an edit (a conflict around rule 3).
    let reworded = base.replace("\"Use pnpm\"", "\"Always use pnpm\"");
    let merged = run(&base, &base, &reworded, &Options::default());
    assert_eq!(merged.conflicts[0].theirs, Change::Edited);
    assert!(merged.added.is_empty());
    // Unrelated: theirs dropped rule 3 and wrote another rule under its number. That rule
    // is new (appended, renumbered) and the deletion is the conflict.
    let replaced = base.replace("\"Use pnpm\"", "\"Never mock the database\"");
    let merged = run(&base, &base, &replaced, &Options::default());
    assert_eq!(merged.conflicts[0].theirs, Change::Deleted);
    assert_eq!(merged.added, [Added { from: 3, to: 4 }]);
    assert_eq!(
        rules_of(&pick(&merged.text, Pick::Ours, 7))[3].1,
        "Never mock the database"
    );
}

#[test]
fn conflicts_keep_ours_first_when_theirs_numbers_are_kept() {
    let base = with(&[]);
    let feature = with(&[A]).replace("\"Use pnpm\"", "\"Use pnpm 8\"");
    let main = with(&[B]).replace("\"Use pnpm\"", "\"Use pnpm 9\"");
    let options = Options {
        keep: Side::Theirs,
        labels: Labels {
            base: None,
            ours: Some("HEAD".into()),
            theirs: Some("main".into()),
        },
        ..Options::default()
    };
    let merged = run(&base, &feature, &main, &options);
    assert_eq!(merged.conflicts.len(), 1);
    assert!(merged.text.find("<<<<<<< HEAD").unwrap() < merged.text.find("Use pnpm 8").unwrap());
    let ours = rules_of(&pick(&merged.text, Pick::Ours, 7));
    let theirs = rules_of(&pick(&merged.text, Pick::Theirs, 7));
    assert_eq!(ours[2].1, "Use pnpm 8");
    assert_eq!(theirs[2].1, "Use pnpm 9");
    // Main's new rule keeps 4; the feature's is renumbered to 5 on both sides.
    assert_eq!(ours[3..], theirs[3..]);
    assert_eq!(ours[3], (4, B.1.to_string(), B.2.to_string()));
    assert_eq!(ours[4], (5, A.1.to_string(), A.2.to_string()));
}
