//! Fuzzes the rules-file reader and everything downstream of it: precedence, the listing
//! renderers, the lint, and the append (whose output must read back as the old rules,
//! byte for byte, plus the new one).
#![no_main]

use std::path::Path;

use autofix::rules::append::{StoredRule, append};
use autofix::rules::{check, file, listing, supersede};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = autofix::jsonpos::locate(text, "/0/Rule_number");
    let report = check::check(Path::new("autofix.json"), Ok(Some(text.to_string())));
    let _ = report.expect("text that was read always lints").to_json();
    let Ok(document) = file::parse(text) else {
        return;
    };
    let _ = supersede::resolve(&document);
    let query = listing::Query::default();
    let shown = listing::build("autofix.json".into(), Some(&document), &query);
    let _ = (shown.to_text(), shown.to_json(), shown.to_markdown());
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
    };
    let new_text = append(&document, &rule);
    let reread = file::parse(&new_text).expect("the appended text parses");
    assert_eq!(reread.rules.len(), document.rules.len() + 1);
    for (old, new) in document.rules.iter().zip(&reread.rules) {
        assert_eq!(old.raw, new.raw);
    }
    assert_eq!(reread.rules.last().unwrap().instruction.as_str(), Some(rule.instruction.as_str()));
});
