//! What the fuzz targets in `tests/fuzz` run, kept in the library so its modules stay
//! private. Not an API: each function panics when an invariant breaks, never on bad input.
//! It calls only what the commands call too, so its being public hides no dead code.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use crate::preset::{self, render, requirements};
use crate::render::Render as _;
use crate::render::preset as report;
use crate::rules::append::{StoredRule, splice};
use crate::rules::{check, file, listing, provenance, retire, show, stale, supersede};

/// The rules-file reader and everything downstream of it: precedence, the listing
/// renderers, the lint, and the append, whose output must read back as the old rules,
/// byte for byte, plus the new one.
pub fn rules_file(text: &str) {
    let _ = crate::report::jsonpos::locate(text, "/0/Rule_number");
    let report = check::check(Path::new("autofix.json"), Ok(Some(text.to_string())));
    let _ = report.expect("text that was read always lints").to_json();
    let Ok(document) = file::parse(text.to_string()) else {
        return;
    };
    let document = Arc::new(document);
    let _ = supersede::resolve(&document);
    let query = listing::Query::default();
    let shown = listing::build("autofix.json".into(), Some(document.clone()), &query);
    let mut out = Vec::new();
    let _ = (
        shown.plain_text(),
        shown.write_json(&mut out),
        shown.write_markdown(&mut out),
    );
    history_of(text, &document);
    let writable = document
        .rules()
        .all(|r| r.malformed().is_none() && r.number().value().is_some());
    if !writable {
        return;
    }
    let rule = StoredRule {
        number: document.max_number().saturating_add(1),
        category: "CODE".into(),
        instruction: "Always \"fuzz\" </x> \u{e9}".into(),
        why: "fuzzing".into(),
        paths: vec!["src/**".into()],
        check: None,
        retirement: false,
        distinct: None,
    };
    let new_text = splice(&document, &rule).joined();
    let reread = file::parse(new_text).expect("the appended text parses");
    assert_eq!(reread.len(), document.len() + 1);
    for (old, new) in document.rules().zip(reread.rules()) {
        assert_eq!(old.raw, new.raw);
    }
    assert_eq!(
        reread.rules().next_back().unwrap().instruction().as_str(),
        Some(rule.instruction.as_str())
    );
}

/// The ledger's readers on the same text: read as a `git log` (any text is one), then every
/// rule shown whole with that history, its retirement asked for, its paths read, and the
/// listing searched and given provenance.
fn history_of(text: &str, document: &Arc<file::Document>) {
    let history = provenance::History::parse(text);
    let workspace = crate::io::workspace::Workspace::new(
        ".".into(),
        "autofix.json".into(),
        crate::io::workspace::Source::FileFlag,
        Vec::new(),
        std::path::Path::new("."),
    );
    for rule in document.rules() {
        let _ = stale::named_paths(rule.instruction().display());
        let Some(number) = rule.number().value() else {
            continue;
        };
        let _ = history
            .origin(Some(number), rule.instruction().display())
            .describe();
        if let Some(report) = show::report(&workspace, document, &history, number) {
            let _ = (
                report.to_text(crate::report::paint::Painter::new(false)),
                report.to_json(),
            );
        }
        let _ = retire::request(&workspace, document, number, "fuzzing");
    }
    let query = listing::Query {
        all: true,
        search: Some("a".into()),
        provenance: Some(Arc::new(history)),
        ..listing::Query::default()
    };
    let shown = listing::build("autofix.json".into(), Some(document.clone()), &query);
    let mut out = Vec::new();
    let _ = (shown.plain_text(), shown.write_json(&mut out));
}

/// The preset loader on a directory of either form: load, validate, render every command
/// (with a value for one placeholder, and the prelude idempotent), summarise requirements.
pub fn preset_dir(dir: &Path) {
    let Ok(loaded) = preset::load(dir) else {
        return;
    };
    let mut presets = vec![loaded];
    preset::validate::check_collection(&mut presets);
    let loaded = &presets[0];
    let validated = report::Validated {
        presets: &presets,
        deny_warnings: false,
    };
    let _ = (validated.to_json(), report::Listed(&presets).to_json());
    let request = render::Request {
        commands: Vec::new(),
        values: BTreeMap::from([("query".to_string(), "{query} /x".to_string())]),
        strict: false,
    };
    if let Ok(lines) = render::render(loaded, &request) {
        let commands = report::Commands {
            preset: loaded,
            rendered: &lines,
            nul: false,
        };
        let _ = commands.to_json();
        for line in lines.iter().filter_map(|l| l.line.as_deref()) {
            for command in &loaded.commands {
                if let Some(skill) = command.skill.as_deref() {
                    let once = render::prelude(Some(skill), Some(line)).unwrap();
                    let twice = render::prelude(Some(skill), Some(&once)).unwrap();
                    assert_eq!(once, twice, "the prelude is idempotent");
                }
            }
        }
    }
    let environment = requirements::Environment::new(dir, None, &[], None);
    let summaries = requirements::summarize(loaded, &environment);
    let requirements = report::Requirements {
        preset: loaded,
        summaries: &summaries,
    };
    let _ = requirements.to_json();
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_rules_target_survives_its_seeds_and_log_shaped_text() {
        for seed in [
            include_str!("../tests/fuzz/seeds/rules_file/example.json"),
            include_str!("../tests/fuzz/seeds/rules_file/crlf.json"),
            "",
            // A `git log` header cut short, a multi-byte commit id, a hunk without a header.
            "\u{1e}é\u{1f}a\u{1f}b\u{1f}x\u{1f}s\n+\"Instruction\": \"é\", \"Rule_number\": 1\n\u{1e}\u{1f}",
            "[{\"Rule_number\": 1, \"Instruction\": \"Keep `src/` and `é/*.rs` `",
            "[{\"Rule_number\": 2, \"Instruction\": \"`a/b`\", \"Why\": \"supersedes rule 1\", \"Retirement\": true}, {\"Rule_number\": 1, \"Retirement\": tru}]",
            "[{\"Rule_number\": 1, \"Instruction\": \"Use `src/`\", \"Why\": \"x\"}, {\"Rule_number\": 2, \"Instruction\": \"\u{1e}c\u{1f}A\u{1f}a\u{1f}1\u{1f}s\", \"Why\": \"retired (supersedes rule 1)\", \"Retirement\": true}]",
        ] {
            super::rules_file(seed);
        }
    }
}
