//! Fuzzes the preset loader on both forms: the input is split at NUL bytes into the files
//! of one preset, written to a scratch directory, loaded, validated, rendered (every
//! command, with a value for one placeholder) and summarised.
#![no_main]

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;
use std::sync::OnceLock;

use autofix::preset::{self, render, report, requirements};
use libfuzzer_sys::fuzz_target;

const HAGITASK: [&str; 5] = [
    "manifest.json",
    "frontend/panel.json",
    "frontend/commands.json",
    "backend/task-preset.json",
    "backend/prompts.json",
];
const FLAT: [&str; 4] = ["commands.json", "task-preset.json", "panel.json", "manifest.json"];

fn scratch() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("autofix-fuzz-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let names: &[&str] = if selector % 2 == 0 { &HAGITASK } else { &FLAT };
    let dir = scratch().join("p");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("frontend")).unwrap();
    fs::create_dir_all(dir.join("backend")).unwrap();
    for (name, contents) in names.iter().zip(rest.split(|&b| b == 0)) {
        fs::write(dir.join(name), contents).unwrap();
    }
    let Ok(loaded) = preset::load(&dir) else {
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
            // The prelude is idempotent: rendering a rendered line adds nothing.
            for command in &loaded.commands {
                if let Some(skill) = command.skill.as_deref() {
                    let once = render::prelude(Some(skill), Some(line)).unwrap();
                    let twice = render::prelude(Some(skill), Some(&once)).unwrap();
                    assert_eq!(once, twice);
                }
            }
        }
    }
    let environment = requirements::Environment::new(&dir, None, &[], None);
    let summaries = requirements::summarize(loaded, &environment);
    let _ = report::requirements_json(loaded, &summaries);
});
