//! The source tree against its architecture page: every `crate::`, `super::` and `self::`
//! path in `src/` is an arrow from one module to another (followed through re-exports),
//! and the floors written in `src/docs/architecture.md` say which arrows may exist. No
//! arrow may go up a floor or across one (between two rooms of the same floor), inside a
//! room the modules may use each other only without a cycle, and every room of the page
//! holds a module. This reads source text rather than running the binary: it holds the
//! page and the code to each other.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The floors, top to bottom, from the page's fenced `text floors` block: each line a floor,
/// each word on it a room (a file, or a folder written with its `/`).
fn floors(page: &str) -> Vec<Vec<String>> {
    let start = page
        .find("```text floors\n")
        .expect("architecture.md has a ```text floors block")
        + "```text floors\n".len();
    let block = &page[start..start + page[start..].find("```").unwrap()];
    block
        .lines()
        .map(|line| line.split('#').next().unwrap())
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.split_whitespace().map(str::to_owned).collect())
        .collect()
}

/// Every `.rs` file under `dir`, as its path relative to `src/`.
fn sources(src: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(src, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.strip_prefix(src).unwrap().to_path_buf());
        }
    }
}

/// The module path of a file: `rules/mod.rs` is `rules`, `io/git.rs` is `io::git` (and the
/// crate root `lib.rs` is `lib`, a room of its own).
fn module_of(file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The text with comments, string and char literals blanked and `#[cfg(test)] mod … { … }`
/// blocks dropped, so that only code is read (a doc link is not an import, nor is a test's
/// helper).
fn code_only(text: &str) -> String {
    drop_test_modules(&blank_literals(text))
}

/// The text with comments, string and char literals blanked; the lines they spanned are
/// kept, so a line of the result is the same line of the file.
fn blank_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut code = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let at = |i: usize, n: usize| chars.get(i + n).copied().unwrap_or('\0');
        // Whether `i` starts a token: `r"…"` is a raw string, `for"` is not.
        let starts_word = |i: usize| {
            !chars
                .get(i.wrapping_sub(1))
                .is_some_and(|c| c.is_alphanumeric() || *c == '_')
        };
        match (at(i, 0), at(i, 1)) {
            ('/', '/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            ('/', '*') => {
                let start = i;
                i += 2;
                while i < chars.len() && !(chars[i] == '*' && at(i, 1) == '/') {
                    i += 1;
                }
                i += 2;
                keep_lines(&mut code, &chars[start..i.min(chars.len())]);
            }
            // A byte string or byte char (`b"…"`, `br"…"`, `b'x'`) is read as its plain form.
            ('b', '"' | '\'') if starts_word(i) => i += 1,
            ('r', '"' | '#')
                if starts_word(i) || (i > 0 && chars[i - 1] == 'b' && starts_word(i - 1)) =>
            {
                let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
                if at(i, 1 + hashes) != '"' {
                    code.push('r');
                    i += 1;
                    continue;
                }
                let start = i;
                i += 2 + hashes;
                while i < chars.len() && !(chars[i] == '"' && (1..=hashes).all(|n| at(i, n) == '#'))
                {
                    i += 1;
                }
                i += 1 + hashes;
                code.push_str("\"\"");
                keep_lines(&mut code, &chars[start..i.min(chars.len())]);
            }
            ('"', _) => {
                let start = i;
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
                code.push_str("\"\"");
                keep_lines(&mut code, &chars[start..i.min(chars.len())]);
            }
            // A char literal ('x', '\n', '\'', '{'), not a lifetime ('a): past the
            // backslash and the character it escapes, then to the closing quote.
            ('\'', '\\') => {
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            }
            ('\'', _) if at(i, 2) == '\'' => i += 3,
            (c, _) => {
                code.push(c);
                i += 1;
            }
        }
    }
    code
}

/// As many line breaks in `code` as `skipped` held.
fn keep_lines(code: &mut String, skipped: &[char]) {
    code.extend(skipped.iter().filter(|c| **c == '\n'));
}

/// `code` without its `#[cfg(test)] mod name { … }` blocks (braces balance: no literals).
fn drop_test_modules(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        if !after.trim_start().starts_with("mod ") {
            out.push_str("#[cfg(test)]");
            rest = after;
            continue;
        }
        let Some(open) = after.find(['{', ';']) else {
            return out;
        };
        if after.as_bytes()[open] == b';' {
            rest = &after[open + 1..];
            continue;
        }
        let mut depth = 0;
        let mut end = after.len();
        for (offset, c) in after[open..].char_indices() {
            depth += match c {
                '{' => 1,
                '}' => -1,
                _ => 0,
            };
            if depth == 0 {
                end = open + offset + 1;
                break;
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The paths of one `crate::…` or `super::…` occurrence, `{a, b::c}` groups expanded.
fn expand(path: &str) -> Vec<String> {
    let Some(open) = path.find('{') else {
        return vec![path.trim_end_matches("::").to_owned()];
    };
    let (head, group) = (&path[..open], &path[open + 1..path.len() - 1]);
    let mut items = Vec::new();
    let (mut depth, mut from) = (0, 0);
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[from..at]);
                from = at + 1;
            }
            _ => {}
        }
    }
    items.push(&group[from..]);
    items
        .into_iter()
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| {
            if item.contains('{') {
                item
            } else {
                item.split(" as ").next().unwrap()
            }
        })
        // `{self, …}` names the group's own path.
        .flat_map(|item| match item {
            "self" => vec![head.trim_end_matches("::").to_owned()],
            item => expand(&format!("{head}{item}")),
        })
        .collect()
}

/// The module paths `code` names, made absolute from `module` (`self`/`super` resolved).
fn references(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(start) {
            let at = from + at;
            from = at + start.len();
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut end = at;
            let mut depth = 0;
            for (offset, c) in code[at..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    c if depth > 0 || c.is_alphanumeric() || c == '_' || c == ':' => {}
                    _ => break,
                }
                end = at + offset + c.len_utf8();
            }
            for path in expand(&code[at..end]) {
                let mut segments: Vec<&str> = path.split("::").collect();
                let mut base: Vec<String> = module.to_vec();
                match segments[0] {
                    "crate" => base.clear(),
                    "super" => {
                        while segments.first() == Some(&"super") {
                            base.pop();
                            segments.remove(0);
                        }
                        found.push(
                            base.iter()
                                .cloned()
                                .chain(segments.iter().map(|s| (*s).to_owned()))
                                .collect(),
                        );
                        continue;
                    }
                    _ => {}
                }
                segments.remove(0);
                found.push(
                    base.into_iter()
                        .chain(segments.iter().map(|s| (*s).to_owned()))
                        .collect(),
                );
            }
        }
    }
    found
}

struct Tree {
    /// Each module and the modules it names (the longest known prefix of each path, seen
    /// through the re-exports).
    arrows: BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
}

/// The module whose items a file's paths are relative to: `lib.rs` is the crate root.
fn scope_of(module: &[String]) -> Vec<String> {
    if module == ["lib"] {
        Vec::new()
    } else {
        module.to_vec()
    }
}

/// The re-exports of a module (`pub use a::B;`, `pub(crate) use c::{D, E};`): each name it
/// exports, and the absolute path it stands for.
fn reexports(code: &str, scope: &[String]) -> Vec<(String, Vec<String>)> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("pub") {
        let after = &rest[at + 3..];
        rest = after;
        let after = match after.strip_prefix('(') {
            Some(inner) => inner.split_once(')').map_or("", |(_, tail)| tail),
            None => after,
        };
        let Some(statement) = after.trim_start().strip_prefix("use ") else {
            continue;
        };
        let Some((path, _)) = statement.split_once(';') else {
            continue;
        };
        let path: String = path.chars().filter(|c| !c.is_whitespace()).collect();
        for expanded in expand(&path) {
            let mut segments: Vec<&str> = expanded.split("::").collect();
            let mut base = scope.to_vec();
            match segments[0] {
                "crate" => {
                    base.clear();
                    segments.remove(0);
                }
                "self" => {
                    segments.remove(0);
                }
                _ => {
                    while segments.first() == Some(&"super") {
                        base.pop();
                        segments.remove(0);
                    }
                }
            }
            let Some(name) = segments.last().filter(|name| **name != "*") else {
                continue;
            };
            let target = base
                .into_iter()
                .chain(segments.iter().map(|s| (*s).to_owned()));
            found.push(((*name).to_owned(), target.collect()));
        }
    }
    found
}

/// The module `path` lands in: its longest known prefix, followed through re-exports (a
/// path to `rules::RulesError` is an arrow to `rules::error`); an item of the crate root
/// that is no re-export lands in `lib`.
fn land(
    path: &[String],
    modules: &BTreeSet<Vec<String>>,
    aliases: &BTreeMap<(Vec<String>, String), Vec<String>>,
) -> Vec<String> {
    let mut path = path.to_vec();
    for _ in 0..8 {
        let known = (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|prefix| modules.contains(prefix))
            .unwrap_or_default();
        let Some(next) = path.get(known.len()) else {
            return known;
        };
        match aliases.get(&(known.clone(), next.clone())) {
            Some(target) if *target != path[..=known.len()] => {
                path = target
                    .iter()
                    .chain(&path[known.len() + 1..])
                    .cloned()
                    .collect();
            }
            _ if known.is_empty() => return vec!["lib".to_owned()],
            _ => return known,
        }
    }
    path
}

fn read_tree(src: &Path) -> Tree {
    let mut files = Vec::new();
    sources(src, src, &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| scope_of(&module_of(f))).collect();
    let codes: Vec<(Vec<String>, String)> = files
        .iter()
        .map(|file| {
            let code = code_only(&fs::read_to_string(src.join(file)).unwrap());
            (module_of(file), code)
        })
        .collect();
    let mut aliases = BTreeMap::new();
    for (module, code) in &codes {
        let scope = scope_of(module);
        for (name, target) in reexports(code, &scope) {
            aliases.insert((scope.clone(), name), target);
        }
    }
    let mut arrows = BTreeMap::new();
    for (module, code) in &codes {
        let scope = scope_of(module);
        let mut targets = BTreeSet::new();
        for path in references(code, &scope) {
            let landed = land(&path, &modules, &aliases);
            let landed = if landed.is_empty() {
                vec!["lib".to_owned()]
            } else {
                landed
            };
            // A module may use what its own ancestors declare (a parent's types); every
            // other arrow counts.
            if !scope.starts_with(&landed) && landed != *module {
                targets.insert(landed);
            }
        }
        arrows.insert(module.clone(), targets);
    }
    Tree { arrows }
}

/// The room a module lives in: the longest room of the page that names it or its folder.
fn room_of<'a>(module: &[String], rooms: &'a [(String, usize)]) -> Option<&'a (String, usize)> {
    let path = module.join("/");
    rooms
        .iter()
        .filter(|(room, _)| {
            let room = room.trim_end_matches(".rs");
            match room.strip_suffix('/') {
                Some(folder) => path == folder || path.starts_with(&format!("{folder}/")),
                None => path == room,
            }
        })
        .max_by_key(|(room, _)| room.len())
}

/// The cycles among `members` by the arrows: each group of two or more modules that all
/// reach one another, named in order.
fn cycles(
    arrows: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    members: &BTreeSet<Vec<String>>,
) -> Vec<Vec<String>> {
    let reach = |from: &Vec<String>| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(at) = todo.pop() {
            for next in arrows.get(&at).into_iter().flatten() {
                if members.contains(next) && seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&Vec<String>, BTreeSet<Vec<String>>> =
        members.iter().map(|m| (m, reach(m))).collect();
    let mut groups: BTreeSet<Vec<String>> = BTreeSet::new();
    for (member, from) in &reached {
        let group: Vec<String> = from
            .iter()
            .filter(|other| reached[other].contains(*member))
            .map(|m| m.join("::"))
            .collect();
        if group.len() > 1 {
            groups.insert(group);
        }
    }
    groups.into_iter().collect()
}

/// Where the tree under `src` and the floors of `page` disagree, one line each; a room of
/// the page that holds no module counts too, so the page cannot list what is gone.
fn disagreements(page: &str, src: &Path) -> Vec<String> {
    let rooms: Vec<(String, usize)> = floors(page)
        .into_iter()
        .enumerate()
        .flat_map(|(floor, rooms)| rooms.into_iter().map(move |room| (room, floor)))
        .collect();
    let tree = read_tree(src);
    let mut wrong = Vec::new();
    let mut inside: BTreeMap<&str, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (module, targets) in &tree.arrows {
        let Some((room, floor)) = room_of(module, &rooms) else {
            wrong.push(format!("{} is in no room of the page", module.join("/")));
            continue;
        };
        inside.entry(room).or_default().insert(module.clone());
        for target in targets {
            let Some((to_room, to_floor)) = room_of(target, &rooms) else {
                wrong.push(format!(
                    "{} names {}, in no room",
                    module.join("::"),
                    target.join("::")
                ));
                continue;
            };
            if to_room != room && to_floor <= floor {
                let how = if to_floor == floor { "across" } else { "up" };
                wrong.push(format!(
                    "{} ({room}) uses {} ({to_room}): an arrow {how} a floor",
                    module.join("::"),
                    target.join("::")
                ));
            }
        }
    }
    for (room, _) in &rooms {
        if !inside.contains_key(room.as_str()) {
            wrong.push(format!("the page's room {room} holds no module"));
        }
    }
    for (room, members) in &inside {
        for group in cycles(&tree.arrows, members) {
            wrong.push(format!("a cycle inside {room}: {}", group.join(", ")));
        }
    }
    wrong
}

#[test]
fn the_imports_follow_the_floors_of_the_architecture_page() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = fs::read_to_string(root.join("src/docs/architecture.md")).unwrap();
    let wrong = disagreements(&page, &root.join("src"));
    assert!(
        wrong.is_empty(),
        "the code and src/docs/architecture.md disagree:\n{}",
        wrong.join("\n")
    );
}

/// A made-up source tree of `files` (path, text), for the checks' own tests.
fn fake_src(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        fake_file(dir.path(), path, text);
    }
    dir
}

fn fake_file(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

#[test]
fn the_checker_reports_each_kind_of_disagreement() {
    let files = [
        (
            "lib.rs",
            "mod top; mod low; mod side; pub use low::thing::Item; pub fn run() {}",
        ),
        // Down, through the crate root's re-export: no disagreement.
        ("top.rs", "use crate::Item;"),
        // Up a floor, to an item of the crate root itself.
        (
            "low/mod.rs",
            "pub(crate) mod thing; pub(crate) mod other;\nfn f() { crate::run(); }",
        ),
        // A cycle inside low/, one side seen through a re-export of the parent.
        ("low/thing.rs", "use super::other::f;\npub struct Item;"),
        (
            "low/other.rs",
            "pub(crate) use super::thing::Item as Thing; fn g() { super::thing::Item; }",
        ),
        // Across a floor: side/ and low/ share one.
        (
            "side.rs",
            "fn h() { let c = ('\\'','\"'); let s = \"crate::top\"; crate::low::other::g(); }",
        ),
    ];
    let dir = fake_src(&files);
    let page = "```text floors\nlib.rs\ntop.rs\nlow/ side.rs\ngone/\n```\n";
    let wrong = disagreements(page, dir.path());
    let expected = [
        "low (low/) uses lib (lib.rs): an arrow up a floor",
        "side (side.rs) uses low::other (low/): an arrow across a floor",
        "the page's room gone/ holds no module",
        "a cycle inside low/: low::other, low::thing",
    ];
    assert_eq!(wrong, expected);
}

#[test]
fn the_reader_sees_uses_in_every_form() {
    let module: Vec<String> = vec!["rules".into(), "check".into()];
    let code = code_only(
        "use crate::{io::git, report::{text, paint::Painter as P}};\n\
         // crate::docs::x is a comment\n\
         let s = \"crate::front\";\n\
         super::listing::build(); self::inner::f();\n\
         pub(crate) use crate::export::{\n    self,\n    hook::{Agent, CAP},\n};\n\
         let b = br#\"crate::merge\"#; let c = b'\"'; let d = '\\''; format!(\"{}\", crate::ops::x);\n\
         /* crate::init in a block comment */\n\
         #[cfg(test)]\nmod tests { use crate::preset; }\n",
    );
    let found: BTreeSet<String> = references(&code, &module)
        .into_iter()
        .map(|p| p.join("::"))
        .collect();
    let expected: BTreeSet<String> = [
        "io::git",
        "report::text",
        "report::paint::Painter",
        "rules::listing::build",
        "rules::check::inner::f",
        "export",
        "export::hook::Agent",
        "export::hook::CAP",
        "ops::x",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect();
    assert_eq!(found, expected);
}

/// Each arrow from one command's handler (`front/cmd/X.rs`) to another's: what two
/// commands share lives in `ops/` or `front/context.rs`, so a handler converts, calls
/// below and prints. (The dispatcher, `front/cmd/mod.rs`, calls each; an arrow to it is
/// to a parent, which the tree does not count.)
fn handler_calls(src: &Path) -> Vec<String> {
    let cmd = ["front".to_owned(), "cmd".to_owned()];
    let tree = read_tree(src);
    let mut found = Vec::new();
    for (module, targets) in &tree.arrows {
        if module.len() <= cmd.len() || !module.starts_with(&cmd) {
            continue;
        }
        for target in targets.iter().filter(|t| t.starts_with(&cmd)) {
            if target.get(2) != module.get(2) {
                found.push(format!("{} uses {}", module.join("::"), target.join("::")));
            }
        }
    }
    found
}

#[test]
fn no_command_handler_calls_another() {
    let calls = handler_calls(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(
        calls.is_empty(),
        "move what two commands share into ops/ or front/context.rs:\n{}",
        calls.join("\n")
    );
}

#[test]
fn the_handler_check_sees_a_call_between_commands() {
    let files = [
        ("lib.rs", "mod front; mod ops;"),
        ("ops/mod.rs", "pub(crate) fn list() {}"),
        (
            "front/mod.rs",
            "pub(crate) mod cmd; pub(crate) mod context;",
        ),
        ("front/context.rs", "pub(crate) fn print() {}"),
        (
            "front/cmd/mod.rs",
            "pub(crate) mod rules; pub(crate) mod sources;\nfn run() { rules::run(); crate::front::cmd::sources::run(); }",
        ),
        // Down to ops/ and across to the shared context: allowed.
        (
            "front/cmd/sources.rs",
            "pub(crate) fn run() { crate::ops::list(); crate::front::context::print(); }",
        ),
        // To another handler: not.
        (
            "front/cmd/rules.rs",
            "use super::sources;\npub(crate) fn run() { sources::run(); }",
        ),
    ];
    let dir = fake_src(&files);
    assert_eq!(
        handler_calls(dir.path()),
        ["front::cmd::rules uses front::cmd::sources"]
    );
}

/// What reads the process's environment (or asks it for its directory or arguments).
const ENVIRONMENT_READS: [&str; 4] = ["env::var", "env::home_dir", "env::current_dir", "env::args"];

/// The files that a `#[cfg(test)] mod name;` declares: compiled into the unit tests only.
fn test_only_files(src: &Path, files: &[PathBuf]) -> BTreeSet<PathBuf> {
    let mut test_only = BTreeSet::new();
    for file in files {
        let text = fs::read_to_string(src.join(file)).unwrap();
        let folder = match file.file_name().and_then(|n| n.to_str()) {
            Some("mod.rs" | "lib.rs" | "main.rs") => file.parent().unwrap().to_path_buf(),
            _ => file.with_extension(""),
        };
        for (at, _) in text.match_indices("#[cfg(test)]") {
            let after = text[at + "#[cfg(test)]".len()..].trim_start();
            let Some(name) = after
                .strip_prefix("mod ")
                .and_then(|rest| rest.split_once(';'))
                .map(|(name, _)| name.trim())
                .filter(|name| name.chars().all(|c| c.is_alphanumeric() || c == '_'))
            else {
                continue;
            };
            test_only.insert(folder.join(format!("{name}.rs")));
            test_only.insert(folder.join(name).join("mod.rs"));
        }
    }
    test_only
}

/// Each file (test code left out) that reads the environment where it may not: below the
/// front ends (outside `front/`, `main.rs` and `lib.rs`) nothing asks the process for its
/// variables, directory or arguments; inside them only `front/settings.rs` reads the
/// variables, once, into `Settings`.
fn environment_reads(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    sources(src, src, &mut files);
    let test_only = test_only_files(src, &files);
    let mut found = Vec::new();
    for file in &files {
        let front = file.starts_with("front")
            || file == Path::new("main.rs")
            || file == Path::new("lib.rs");
        if file == Path::new("front/settings.rs") || test_only.contains(file) {
            continue;
        }
        // The front ends ask the process for its directory and arguments themselves.
        let reads = if front {
            &ENVIRONMENT_READS[..2]
        } else {
            &ENVIRONMENT_READS[..]
        };
        let code = code_only(&fs::read_to_string(src.join(file)).unwrap());
        // By file (the test modules dropped from the code shift its line numbers).
        for read in reads.iter().filter(|read| code.contains(*read)) {
            found.push(format!("src/{}: {read}", file.display()));
        }
    }
    found
}

#[test]
fn only_the_front_ends_settings_read_the_environment() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let reads = environment_reads(&src);
    assert!(
        reads.is_empty(),
        "read the environment in front/settings.rs, take the value from io::settings::get():\n{}",
        reads.join("\n")
    );
}

#[test]
fn the_environment_check_sees_each_read_outside_the_settings() {
    let dir = tempfile::tempdir().unwrap();
    let write = |path: &str, text: &str| fake_file(dir.path(), path, text);
    write(
        "front/settings.rs",
        "fn f() { std::env::var_os(\"HOME\"); }\n",
    );
    write("front/context.rs", "fn f() { std::env::current_dir(); }\n");
    write(
        "front/cmd/team.rs",
        "fn f() { std::env::var_os(\"PATH\"); }\n",
    );
    write(
        "io/lock.rs",
        "fn f() {\n    let _ = std::env::var(\"X\");\n}\n",
    );
    write("io/mod.rs", "mod lock;\n#[cfg(test)]\nmod train;\n");
    write("io/train.rs", "fn f() { std::env::var(\"TRAIN\"); }\n");
    write(
        "io/git.rs",
        "// std::env::var in a comment\nfn f() { \"env::var\"; }\n\
         #[cfg(test)]\nmod tests { fn t() { std::env::var(\"T\"); } }\n\
         fn g() { use std::env; env::current_dir(); }\n",
    );
    assert_eq!(
        environment_reads(dir.path()),
        [
            "src/front/cmd/team.rs: env::var",
            "src/io/git.rs: env::current_dir",
            "src/io/lock.rs: env::var"
        ]
    );
}

/// The longest a function may be, in lines from its `fn` to its closing brace.
const MAX_FUNCTION_LINES: usize = 100;

/// Each function in `src/` (test code too) longer than `limit` lines, from the line of its
/// `fn` to the line of its closing brace, as `src/file:line: name (N lines)`. Clippy's
/// `too_many_lines` counts only lines of code; this counts what a reader scrolls through.
fn long_functions(src: &Path, limit: usize) -> Vec<String> {
    let mut files = Vec::new();
    sources(src, src, &mut files);
    files.sort();
    let mut found = Vec::new();
    for file in &files {
        let code = blank_literals(&fs::read_to_string(src.join(file)).unwrap());
        let line_of = |at: usize| code[..at].matches('\n').count() + 1;
        for (at, _) in code.match_indices("fn") {
            let before = code[..at].chars().next_back();
            let rest = &code[at + 2..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                || !rest.starts_with(char::is_whitespace)
            {
                continue;
            }
            let name: String = (rest.trim_start().chars())
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            // A declaration without a body (`fn f();` in a trait) has no length.
            let Some(open) = rest
                .find(['{', ';'])
                .filter(|&o| rest.as_bytes()[o] == b'{')
            else {
                continue;
            };
            let mut depth = 0usize;
            let close = rest[open..].char_indices().find_map(|(offset, c)| {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                (depth == 0).then_some(open + offset)
            });
            let Some(close) = close else { continue };
            let lines = line_of(at + 2 + close) - line_of(at) + 1;
            if !name.is_empty() && lines > limit {
                found.push(format!(
                    "src/{}:{}: {name} ({lines} lines)",
                    file.display(),
                    line_of(at)
                ));
            }
        }
    }
    found
}

#[test]
fn no_function_is_over_a_hundred_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let long = long_functions(&src, MAX_FUNCTION_LINES);
    assert!(
        long.is_empty(),
        "split these into functions of at most {MAX_FUNCTION_LINES} lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_length_check_counts_each_function_from_fn_to_its_brace() {
    let dir = tempfile::tempdir().unwrap();
    let body = |n: usize| "    let _ = 1;\n".repeat(n);
    let text = format!(
        "/// fn in a comment {{\nfn short() {{\n{}}}\n\npub(crate) fn long<T: Fn(u8)>(f: T) -> u8 {{\n    \
         let s = \"}}\n\n\";\n    fn inner() {{}}\n{}    f(1)\n}}\n\ntrait T {{\n    fn declared(&self);\n}}\n",
        body(3),
        body(2)
    );
    fs::write(dir.path().join("lib.rs"), text).unwrap();
    // `long` spans lines 8 to 16: its string's two line breaks count, its braces do not.
    assert_eq!(long_functions(dir.path(), 9), Vec::<String>::new());
    assert_eq!(
        long_functions(dir.path(), 8),
        ["src/lib.rs:8: long (9 lines)"]
    );
    assert_eq!(
        long_functions(dir.path(), 2),
        [
            "src/lib.rs:2: short (5 lines)",
            "src/lib.rs:8: long (9 lines)"
        ]
    );
}

/// The domains and the application layer: they return data, and `render/` (or, for the one
/// finding type, `report/`) turns it into text, JSON, GitHub commands, SARIF or Markdown.
const DOMAINS: [&str; 8] = [
    "rules", "preset", "sources", "capture", "export", "merge", "init", "ops",
];

/// The names a renderer of a report goes by.
const RENDERERS: [&str; 6] = [
    "to_text",
    "to_json",
    "to_markdown",
    "to_sarif",
    "to_github",
    "to_html",
];

/// Each renderer defined in a domain module (test code left out), as `src/file: fn name`.
fn renderers_in_domains(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    sources(src, src, &mut files);
    files.sort();
    let mut found = Vec::new();
    for file in files
        .iter()
        .filter(|f| DOMAINS.iter().any(|d| f.starts_with(d)))
    {
        let code = code_only(&fs::read_to_string(src.join(file)).unwrap());
        let words: Vec<&str> = code
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        for pair in words.windows(2) {
            if pair[0] == "fn" && RENDERERS.contains(&pair[1]) {
                found.push(format!("src/{}: fn {}", file.display(), pair[1]));
            }
        }
    }
    found
}

#[test]
fn no_domain_module_defines_a_renderer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = renderers_in_domains(&src);
    assert!(
        found.is_empty(),
        "render reports in src/render/ (the domains return data):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_renderer_check_sees_each_renderer_in_a_domain() {
    let dir = tempfile::tempdir().unwrap();
    let write = |path: &str, text: &str| fake_file(dir.path(), path, text);
    write(
        "render/check.rs",
        "fn to_text(&self) -> String { todo() }\n",
    );
    write("report/sarif.rs", "fn to_sarif() {}\n");
    write(
        "rules/check.rs",
        "// fn to_json in a comment\nimpl R {\n    pub(crate) fn to_text(&self) {}\n}\n\
         #[cfg(test)]\nmod tests { fn to_github() {} }\n",
    );
    write("ops/ledger.rs", "fn to_html () {}\nfn to_json_value() {}\n");
    assert_eq!(
        renderers_in_domains(dir.path()),
        [
            "src/ops/ledger.rs: fn to_html",
            "src/rules/check.rs: fn to_text"
        ]
    );
}
