//! What the fuzz targets in `tests/fuzz` run, kept in the library so its modules stay
//! private. Not an API: each function panics when an invariant breaks, never on bad input.
//! It calls only what the commands call too, so its being public hides no dead code.

use std::collections::BTreeMap;
use std::path::Path;

use crate::preset::{self, render, report, requirements};
use crate::rules::append::{StoredRule, splice};
use crate::rules::{check, file, listing, supersede};

/// The rules-file reader and everything downstream of it: precedence, the listing
/// renderers, the lint, and the append, whose output must read back as the old rules,
/// byte for byte, plus the new one.
pub fn rules_file(text: &str) {
    let _ = crate::jsonpos::locate(text, "/0/Rule_number");
    let report = check::check(Path::new("autofix.json"), Ok(Some(text.to_string())));
    let _ = report.expect("text that was read always lints").to_json();
    let Ok(document) = file::parse(text) else {
        return;
    };
    let _ = supersede::resolve(&document);
    let query = listing::Query::default();
    let shown = listing::build("autofix.json".into(), Some(&document), &query);
    let mut out = Vec::new();
    let _ = (
        shown.to_text(),
        shown.write_json(&mut out),
        shown.write_markdown(&mut out),
    );
    let writable = document
        .rules
        .iter()
        .all(|r| r.malformed.is_none() && r.number.value().is_some());
    if !writable {
        return;
    }
    let rule = StoredRule {
        number: document.max_number().saturating_add(1),
        category: "CODE".into(),
        instruction: "Always \"fuzz\" </x> \u{e9}".into(),
        why: "fuzzing".into(),
        paths: vec!["src/**".into()],
        retirement: false,
    };
    let new_text = splice(&document, &rule).to_text();
    let reread = file::parse(&new_text).expect("the appended text parses");
    assert_eq!(reread.rules.len(), document.rules.len() + 1);
    for (old, new) in document.rules.iter().zip(&reread.rules) {
        assert_eq!(old.raw, new.raw);
    }
    assert_eq!(
        reread.rules.last().unwrap().instruction.as_str(),
        Some(rule.instruction.as_str())
    );
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
    let _ = report::validate_json(&presets, false);
    let _ = report::list_json(&presets);
    let request = render::Request {
        commands: Vec::new(),
        values: BTreeMap::from([("query".to_string(), "{query} /x".to_string())]),
        strict: false,
    };
    if let Ok(lines) = render::render(loaded, &request) {
        let _ = report::render_json(loaded, &lines);
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
    let _ = report::requirements_json(loaded, &summaries);
}
