//! The merge driver of the sources' lock and vendored copies (`merge=autofix-sources`):
//! two branches that each moved a pin merge cleanly only when one pin descends from the
//! other (asked of the source itself, with the same safe fetch as `update`); the copy
//! follows the pin that won. Anything else — two pins on diverged histories, different
//! URLs, refs or paths, a file that does not parse, a copy that does not match its side's
//! pin — is left to a person as `git merge-file` leaves it (exit 1). The manifest merges
//! entry by entry: two branches that each add a source merge cleanly.

use std::collections::BTreeSet;
use std::path::Path;

use crate::io::git::Git;
use crate::io::safe_write::{self, Fence};

use super::fetch;
use super::lock::{Lock, Pin};
use super::manifest::Source;

/// git's config section and attribute value for this driver.
pub(crate) const DRIVER: &str = "autofix-sources";
/// `merge.autofix-sources.driver`.
pub(crate) const DRIVER_COMMAND: &str =
    "autofix sources merge-driver --ours-label %X --theirs-label %Y %O %A %B %P";

/// The commits a driver run merges, as git names them: its labels (`%X`, `%Y`, git 2.44
/// on: a branch name, or `<id> (<subject>)`), else the refs a merge, cherry-pick, revert
/// or rebase leaves.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sides {
    pub ours_label: Option<String>,
    pub theirs_label: Option<String>,
}

/// The first word of a label, when git substituted it (older git passes `%X` itself).
fn label_rev(label: Option<&str>) -> Option<String> {
    let word = label?.split_whitespace().next()?;
    (!word.starts_with('%')).then(|| word.to_string())
}

/// Which side's pin is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Ours,
    Theirs,
}

/// Which of two pins of `name` to keep: the one that descends from the other.
fn decide(name: &str, ours: &Pin, theirs: &Pin) -> Result<Side, String> {
    if ours == theirs {
        return Ok(Side::Ours);
    }
    if ours.url != theirs.url || ours.reference != theirs.reference || ours.path != theirs.path {
        return Err(format!(
            "the two sides pin `{name}` to different URLs, refs or paths"
        ));
    }
    let source = Source {
        name: name.to_string(),
        url: ours.url.clone(),
        reference: ours.reference.clone(),
        path: ours.path.clone(),
        categories: Vec::new(),
        rules: Vec::new(),
    };
    match fetch::descends(&source, &ours.commit, &theirs.commit) {
        Ok(Some(true)) => Ok(Side::Theirs),
        Ok(Some(false)) => Ok(Side::Ours),
        Ok(None) => Err(format!(
            "neither pin of `{name}` descends from the other ({} and {})",
            short(&ours.commit),
            short(&theirs.commit)
        )),
        Err(error) => Err(format!("cannot compare the pins of `{name}`: {error}")),
    }
}

fn short(commit: &str) -> &str {
    super::layers::short(commit)
}

/// What the driver did: git's exit status, one line for the log, and whether it refused
/// to merge by the rules (`source-merge-refused`) and fell back to a text merge.
pub(crate) struct Merged {
    pub status: u8,
    pub report: String,
    pub refused: bool,
}

impl Merged {
    fn new(status: u8, report: String, refused: bool) -> Merged {
        Merged {
            status,
            report,
            refused,
        }
    }
}

/// Runs the driver on git's three files and writes the result over `ours` (exit status 0
/// merged, 1 conflict).
pub(crate) fn run(base: &Path, ours: &Path, theirs: &Path, path: &str, sides: &Sides) -> Merged {
    let read = |p: &Path| crate::io::limits::read_file(p).unwrap_or_default();
    let (o, a, b) = (read(base), read(ours), read(theirs));
    let file_name = Path::new(path).file_name();
    let merged = if file_name.is_some_and(|n| n == super::LOCK) {
        merge_lock(&o, &a, &b)
    } else if file_name.is_some_and(|n| n == super::MANIFEST) {
        merge_manifest(&o, &a, &b)
    } else {
        merge_copy(path, &o, &a, &b, sides)
    };
    match merged {
        Ok((bytes, note)) => match write(ours, &a, &bytes) {
            Ok(()) => Merged::new(0, format!("{path}: {note}"), false),
            Err(error) => Merged::new(255, format!("{path}: {error}"), false),
        },
        Err(why) => {
            let (status, note) = text_merge(base, ours, theirs);
            let report = format!("{path}: {why}; merged as text by `git merge-file`: {note}");
            Merged::new(status.max(1), report, true)
        }
    }
}

fn write(path: &Path, before: &[u8], bytes: &[u8]) -> Result<(), String> {
    safe_write::write(&Fence::rules_file(), path, bytes, Some(before))
        .map(|_| ())
        .map_err(|error| error.to_string())
}

fn parse_lock(bytes: &[u8]) -> Result<Lock, String> {
    if bytes.is_empty() {
        return Ok(Lock {
            version: 1,
            ..Lock::default()
        });
    }
    Lock::parse(&String::from_utf8_lossy(bytes))
}

/// Merges the lock source by source: a side that changed nothing yields to the other; two
/// changed pins keep the one that descends from the other.
fn merge_lock(o: &[u8], a: &[u8], b: &[u8]) -> Result<(Vec<u8>, String), String> {
    let (base, ours, theirs) = (parse_lock(o)?, parse_lock(a)?, parse_lock(b)?);
    let names: BTreeSet<&String> = base
        .sources
        .keys()
        .chain(ours.sources.keys())
        .chain(theirs.sources.keys())
        .collect();
    let mut merged = Lock {
        version: 1,
        ..Lock::default()
    };
    let mut notes = Vec::new();
    for name in names {
        let (was, mine, other) = (
            base.sources.get(name),
            ours.sources.get(name),
            theirs.sources.get(name),
        );
        let kept = if mine == other || other == was {
            mine
        } else if mine == was {
            other
        } else {
            let (Some(mine), Some(other)) = (mine, other) else {
                return Err(format!(
                    "`{name}` was removed on one side and moved on the other"
                ));
            };
            let side = decide(name, mine, other)?;
            notes.push(format!(
                "kept {} pin of `{name}` ({}), which descends from the other",
                if side == Side::Ours { "our" } else { "their" },
                short(if side == Side::Ours {
                    &mine.commit
                } else {
                    &other.commit
                })
            ));
            Some(if side == Side::Ours { mine } else { other })
        };
        if let Some(pin) = kept {
            merged.sources.insert(name.clone(), pin.clone());
        }
    }
    let note = if notes.is_empty() {
        "merged the pins".to_string()
    } else {
        notes.join("; ")
    };
    Ok((merged.file_text().into_bytes(), note))
}

fn parse_manifest(bytes: &[u8]) -> Result<super::manifest::Manifest, String> {
    if bytes.is_empty() {
        return Ok(super::manifest::Manifest {
            version: 1,
            ..Default::default()
        });
    }
    super::manifest::Manifest::parse(&String::from_utf8_lossy(bytes))
}

/// One entry merged three ways: a side that changed nothing yields to the other; two
/// sides that changed it alike agree; two different changes are `Err`.
fn three_way<'a, V: PartialEq>(
    was: Option<&'a V>,
    mine: Option<&'a V>,
    other: Option<&'a V>,
) -> Result<Option<&'a V>, ()> {
    if mine == other || other == was {
        Ok(mine)
    } else if mine == was {
        Ok(other)
    } else {
        Err(())
    }
}

/// Merges the manifest entry by entry, so two branches that each add (or change, or
/// remove) a different source, override or lock merge cleanly: sources by name (ours in
/// our order, then theirs' new ones in theirs), `overrides` by rule, `locked` as a set. The
/// same entry changed two ways stays a conflict for a person.
fn merge_manifest(o: &[u8], a: &[u8], b: &[u8]) -> Result<(Vec<u8>, String), String> {
    let (base, ours, theirs) = (parse_manifest(o)?, parse_manifest(a)?, parse_manifest(b)?);
    let by_name = |m: &super::manifest::Manifest| -> std::collections::BTreeMap<String, Source> {
        m.sources
            .iter()
            .map(|s| (s.name.clone(), s.clone()))
            .collect()
    };
    let (was, mine, other) = (by_name(&base), by_name(&ours), by_name(&theirs));
    let order: Vec<&String> = ours
        .sources
        .iter()
        .chain(&theirs.sources)
        .chain(&base.sources)
        .map(|s| &s.name)
        .collect();
    let mut merged = super::manifest::Manifest {
        version: 1,
        ..Default::default()
    };
    let mut seen = BTreeSet::new();
    for name in order {
        if !seen.insert(name) {
            continue;
        }
        match three_way(was.get(name), mine.get(name), other.get(name)) {
            Ok(Some(source)) => merged.sources.push(source.clone()),
            Ok(None) => {}
            Err(()) => return Err(format!("source `{name}` was changed two ways")),
        }
    }
    let keys: BTreeSet<&String> = base
        .overrides
        .keys()
        .chain(ours.overrides.keys())
        .chain(theirs.overrides.keys())
        .collect();
    for id in keys {
        let side = three_way(
            base.overrides.get(id),
            ours.overrides.get(id),
            theirs.overrides.get(id),
        );
        match side {
            Ok(Some(reason)) => {
                merged.overrides.insert(id.clone(), reason.clone());
            }
            Ok(None) => {}
            Err(()) => return Err(format!("the override of {id} was changed two ways")),
        }
    }
    let locked: BTreeSet<&String> = ours.locked.iter().chain(&theirs.locked).collect();
    merged.locked = locked
        .into_iter()
        .filter(|id| {
            // Unlocked on one side (it was in the base): unlocked.
            !base.locked.contains(id) || (ours.locked.contains(id) && theirs.locked.contains(id))
        })
        .cloned()
        .collect();
    let text = merged.file_text();
    // What git would have to say about it, parsed again: a merge never writes what the
    // readers refuse (a name used twice cannot happen by name, but stay strict).
    super::manifest::Manifest::parse(&text)?;
    Ok((text.into_bytes(), "merged the sources by name".to_string()))
}

/// The lock of `rev` (`HEAD`, `MERGE_HEAD`, …), if it has one.
fn lock_at(git: &Git, rev: &str, lock_path: &str) -> Option<Lock> {
    let bytes = git.blob(&format!("{rev}:{lock_path}")).ok()?;
    Lock::parse(&String::from_utf8_lossy(&bytes)).ok()
}

/// Merges a vendored copy: the side that changed nothing yields; otherwise the copy of the
/// side whose pin (in that side's lock) won, provided each copy matches its own pin.
fn merge_copy(
    path: &str,
    o: &[u8],
    a: &[u8],
    b: &[u8],
    sides: &Sides,
) -> Result<(Vec<u8>, String), String> {
    if a == b || b == o {
        return Ok((a.to_vec(), "kept ours".into()));
    }
    if a == o {
        return Ok((b.to_vec(), "took theirs".into()));
    }
    let file = Path::new(path);
    let name = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .ok_or("not a vendored copy")?;
    let lock_path = file.parent().and_then(Path::parent).map_or_else(
        || super::LOCK.to_string(),
        |dir| {
            let dir = dir.to_string_lossy();
            if dir.is_empty() {
                super::LOCK.to_string()
            } else {
                format!("{dir}/{}", super::LOCK)
            }
        },
    );
    let git = Git::new(".");
    let pin_of = |rev: &str| {
        lock_at(&git, rev, &lock_path).and_then(|lock| lock.sources.get(&name).cloned())
    };
    let first_pin = |candidates: Vec<String>| candidates.iter().find_map(|rev| pin_of(rev));
    let mut theirs_revs: Vec<String> = label_rev(sides.theirs_label.as_deref())
        .into_iter()
        .collect();
    theirs_revs.extend(
        [
            "MERGE_HEAD",
            "CHERRY_PICK_HEAD",
            "REVERT_HEAD",
            "REBASE_HEAD",
        ]
        .map(String::from),
    );
    let mut ours_revs: Vec<String> = label_rev(sides.ours_label.as_deref()).into_iter().collect();
    ours_revs.push("HEAD".into());
    let (Some(mine), Some(other)) = (first_pin(ours_revs), first_pin(theirs_revs)) else {
        return Err(format!(
            "cannot read both sides' pins of `{name}` (from {lock_path} at the commits merged)"
        ));
    };
    if !mine.holds(a) || !other.holds(b) {
        return Err(format!(
            "a side's copy of `{name}` does not match its own lock"
        ));
    }
    match decide(&name, &mine, &other)? {
        Side::Ours => Ok((
            a.to_vec(),
            "kept ours, whose pin descends from theirs".into(),
        )),
        Side::Theirs => Ok((
            b.to_vec(),
            "took theirs, whose pin descends from ours".into(),
        )),
    }
}

/// `git merge-file` of the three files, written over `ours`: the status and a note.
fn text_merge(base: &Path, ours: &Path, theirs: &Path) -> (u8, String) {
    let git = Git::new(".");
    let args: Vec<&std::ffi::OsStr> = vec![
        "merge-file".as_ref(),
        "-p".as_ref(),
        "-L".as_ref(),
        "ours".as_ref(),
        "-L".as_ref(),
        "base".as_ref(),
        "-L".as_ref(),
        "theirs".as_ref(),
        "--".as_ref(),
        ours.as_os_str(),
        base.as_os_str(),
        theirs.as_os_str(),
    ];
    let Ok(output) = git.output(&args) else {
        return (255, "git merge-file could not run".into());
    };
    let before = crate::io::limits::read_file(ours).unwrap_or_default();
    let written = write(ours, &before, &output.stdout);
    match (output.status.code(), written) {
        (_, Err(error)) => (255, error),
        (Some(0), Ok(())) => (0, "clean".into()),
        (Some(n @ 1..=127), Ok(())) => {
            (1, format!("{n} conflict{}", if n == 1 { "" } else { "s" }))
        }
        _ => (255, "git merge-file failed".into()),
    }
}

/// `sources merge-driver --install`: the driver in the local git config and the
/// `merge=autofix-sources` attribute for the lock and the copies in `.gitattributes`.
pub(crate) fn install(
    layout: &super::Layout,
    cwd: &Path,
) -> Result<Vec<String>, super::SourceError> {
    let git = Git::new(cwd);
    let top = git.require_top_level("")?;
    let mut done = Vec::new();
    for (key, value) in [
        (
            format!("merge.{DRIVER}.name"),
            "autofix sources lock (a pin merges only when one descends from the other)",
        ),
        (format!("merge.{DRIVER}.driver"), DRIVER_COMMAND),
    ] {
        if git
            .config_get(Some(crate::io::git::Scope::Local), &key)?
            .as_deref()
            != Some(value)
        {
            git.run(&["config", "--local", &key, value])?;
            done.push(format!("set {key} (local config)"));
        }
    }
    let relative = |path: &Path| {
        crate::io::git::relative_to_top(&top, path).map(|p| p.to_string_lossy().replace('\\', "/"))
    };
    let (Some(lock_path), Some(vendor), Some(manifest)) = (
        relative(&layout.lock),
        relative(&layout.vendor),
        relative(&layout.manifest),
    ) else {
        return Err(super::SourceError::Invalid(
            "the rules file is outside the work tree".into(),
        ));
    };
    let attributes = top.join(".gitattributes");
    let before = super::read_bytes(&attributes)?;
    let mut text = String::from_utf8_lossy(before.as_deref().unwrap_or_default()).into_owned();
    for pattern in [lock_path, format!("{vendor}/*.json"), manifest] {
        let line = format!("{pattern} merge={DRIVER}");
        if !text.lines().any(|l| l.trim() == line) {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&line);
            text.push('\n');
            done.push(format!("added `{line}` to .gitattributes (commit it)"));
        }
    }
    if before.as_deref() != Some(text.as_bytes()) {
        safe_write::write(
            &layout.fence,
            &attributes,
            text.as_bytes(),
            before.as_deref(),
        )?;
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pin(commit: char) -> Pin {
        Pin {
            url: "file:///x".into(),
            reference: "main".into(),
            path: ".agents/autofix.json".into(),
            commit: commit.to_string().repeat(40),
            blob: "b".repeat(40),
            sha256: commit.to_string().repeat(64),
            rules: 1,
            highest: 1,
        }
    }

    fn lock(pins: &[(&str, char)]) -> Vec<u8> {
        let mut lock = Lock {
            version: 1,
            ..Lock::default()
        };
        for (name, commit) in pins {
            lock.sources.insert((*name).to_string(), pin(*commit));
        }
        lock.file_text().into_bytes()
    }

    #[test]
    fn a_pin_changed_on_one_side_is_taken_and_sources_of_both_sides_are_kept() {
        let base = lock(&[("org", 'a'), ("team", 'a')]);
        let ours = lock(&[("org", 'b'), ("team", 'a'), ("mine", 'c')]);
        let theirs = lock(&[("org", 'a'), ("team", 'd'), ("yours", 'e')]);
        let (merged, _) = merge_lock(&base, &ours, &theirs).unwrap();
        assert_eq!(
            merged,
            lock(&[("org", 'b'), ("team", 'd'), ("mine", 'c'), ("yours", 'e')])
        );
        // Merging the result with itself changes nothing.
        assert_eq!(merge_lock(&base, &merged, &merged).unwrap().0, merged);
    }

    fn manifest(names: &[&str], locked: &[&str]) -> Vec<u8> {
        let sources = names
            .iter()
            .map(|name| Source {
                name: (*name).to_string(),
                url: format!("file:///{name}"),
                reference: "main".into(),
                path: ".agents/autofix.json".into(),
                categories: Vec::new(),
                rules: Vec::new(),
            })
            .collect();
        super::super::manifest::Manifest {
            version: 1,
            sources,
            overrides: Default::default(),
            locked: locked.iter().map(ToString::to_string).collect(),
        }
        .file_text()
        .into_bytes()
    }

    #[test]
    fn manifests_merge_by_source_and_two_changes_of_one_conflict() {
        let base = manifest(&["org"], &["org:1"]);
        let ours = manifest(&["org", "team"], &["org:1", "org:2"]);
        let theirs = manifest(&["org", "infra"], &[]);
        let (merged, _) = merge_manifest(&base, &ours, &theirs).unwrap();
        assert_eq!(merged, manifest(&["org", "team", "infra"], &["org:2"]));
        let mut changed = String::from_utf8(manifest(&["org"], &[])).unwrap();
        changed = changed.replace("file:///org", "file:///other");
        let mut also = String::from_utf8(manifest(&["org"], &[])).unwrap();
        also = also.replace("file:///org", "file:///third");
        let error = merge_manifest(&base, changed.as_bytes(), also.as_bytes()).unwrap_err();
        assert!(error.contains("`org` was changed two ways"), "{error}");
    }

    #[test]
    fn removed_on_one_side_and_moved_on_the_other_is_a_conflict() {
        let base = lock(&[("org", 'a')]);
        let error = merge_lock(&base, &lock(&[]), &lock(&[("org", 'b')])).unwrap_err();
        assert!(error.contains("removed on one side"), "{error}");
        // Removed on one side only: removed.
        assert_eq!(merge_lock(&base, &lock(&[]), &base).unwrap().0, lock(&[]));
    }

    #[test]
    fn pins_of_different_urls_conflict_without_a_fetch_and_bad_input_is_refused() {
        let mut other = pin('b');
        other.url = "file:///y".into();
        let error = decide("org", &pin('a'), &other).unwrap_err();
        assert!(error.contains("different URLs"), "{error}");
        assert!(merge_lock(b"", b"{", &lock(&[])).is_err());
        assert_eq!(
            label_rev(Some("abc123 (subject)")).as_deref(),
            Some("abc123")
        );
        assert_eq!(label_rev(Some("%Y")), None);
    }
}
