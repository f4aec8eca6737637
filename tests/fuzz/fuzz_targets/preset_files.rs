//! Fuzzes the preset loader on both forms: the input is split at NUL bytes into the files
//! of one preset, written to a scratch directory, loaded, validated, rendered (every
//! command, with a value for one placeholder) and summarised.
#![no_main]

use std::fs;
use std::path::PathBuf;
use std::sync::OnceLock;

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
    autofix::fuzz::preset_dir(&dir);
});
