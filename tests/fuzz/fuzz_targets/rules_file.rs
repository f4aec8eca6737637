//! Fuzzes the rules-file reader and everything downstream of it: precedence, the listing
//! renderers, the lint, and the append (whose output must read back as the old rules,
//! byte for byte, plus the new one).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        autofix::fuzz::rules_file(text);
    }
});
