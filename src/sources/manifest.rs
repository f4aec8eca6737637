//! The committed manifest, `autofix.sources.json` beside the rules file: which git sources
//! to import rules from (name, URL, ref, path, an optional selection), and the reviewed
//! overrides of locked imported rules. Read strictly: a typo must not drop a source.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The manifest's shape (`version` 1).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Manifest {
    pub version: u32,
    #[serde(default)]
    pub sources: Vec<Source>,
    /// `"org:4": "reason"`: a local rule may supersede the locked rule `org:4`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub overrides: BTreeMap<String, String>,
    /// Imported rules this repository locks (`sources lock org:2`), beside those their
    /// source locks; sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub locked: Vec<String>,
}

/// One git source.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Source {
    /// The namespace of its rules (`org` gives `org:12`).
    pub name: String,
    pub url: String,
    /// A branch, a tag or a commit id.
    #[serde(rename = "ref")]
    pub reference: String,
    /// The autofix rules file inside the source repository.
    pub path: String,
    /// Only rules of these categories (bare, upper-case); empty: all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    /// Only these rule numbers; empty: all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<u64>,
}

/// Names a source may not take: `local` is this repository's own rules, `user` the
/// personal layer.
const RESERVED: [&str; 2] = ["local", "user"];

/// Why a manifest value is refused.
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    if !crate::rules::reference::is_layer_name(name) {
        return Err(format!(
            "source name `{name}`: use a lower-case letter then letters, digits or `-` (at most 40)"
        ));
    }
    if RESERVED.contains(&name) {
        return Err(format!("source name `{name}` is reserved"));
    }
    Ok(())
}

/// Only https, ssh (`ssh://` or `user@host:path`) and file URLs; never one that git could
/// read as an option or a transport helper (`ext::`, `-u…`).
pub(crate) fn check_url(url: &str) -> Result<(), String> {
    let refuse = |why: &str| Err(format!("source URL `{url}`: {why}"));
    if url.starts_with('-') || url.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return refuse("it must not start with `-` or hold spaces or control characters");
    }
    if url.contains("::") {
        return refuse("transport helpers (`ext::`, `fd::`) are not allowed");
    }
    let scheme_ok = ["https://", "ssh://", "file://"]
        .iter()
        .any(|scheme| url.len() > scheme.len() && url.starts_with(scheme));
    let scp_like = !url.contains("://")
        && url.split_once(':').is_some_and(|(host, path)| {
            host.contains('@') && !host.contains('/') && !path.is_empty()
        });
    if scheme_ok || scp_like {
        Ok(())
    } else {
        refuse("only https://, ssh://, user@host:path and file:// URLs are allowed")
    }
}

/// A branch, tag or commit id: no leading `-`, no spaces or control characters, none of
/// what git refuses in a ref name.
pub(crate) fn check_ref(reference: &str) -> Result<(), String> {
    let bad = reference.is_empty()
        || reference.starts_with('-')
        || reference.len() > 255
        || reference.contains("..")
        || reference.contains("@{")
        || reference.ends_with('/')
        || reference.ends_with(".lock")
        || reference
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || "~^:?*[\\".contains(c));
    if bad {
        Err(format!(
            "ref `{reference}`: name a branch, a tag or a commit id (no leading `-`, spaces, `..`, `~^:?*[\\`)"
        ))
    } else {
        Ok(())
    }
}

/// A relative path inside the source repository, `/`-separated, with no `..`.
pub(crate) fn check_path(path: &str) -> Result<(), String> {
    let bad = path.is_empty()
        || path.starts_with('/')
        || path.starts_with('-')
        || path.contains('\\')
        || path.chars().any(char::is_control)
        || path
            .split('/')
            .any(|part| part.is_empty() || part == "." || part == "..");
    if bad {
        Err(format!(
            "source path `{path}`: a relative path inside the source repository, without `.` or `..`"
        ))
    } else {
        Ok(())
    }
}

impl Source {
    /// Every value checked, as `add` and every reader check them.
    pub(crate) fn validate(&self) -> Result<(), String> {
        check_name(&self.name)?;
        check_url(&self.url)?;
        check_ref(&self.reference)?;
        check_path(&self.path)
    }
}

impl Manifest {
    /// Parses and validates manifest text.
    pub(crate) fn parse(text: &str) -> Result<Manifest, String> {
        let manifest: Manifest = serde_json::from_str(text.trim_start_matches('\u{feff}'))
            .map_err(|error| error.to_string())?;
        if manifest.version != 1 {
            return Err(format!("version {} is not 1", manifest.version));
        }
        for id in manifest.overrides.keys().chain(&manifest.locked) {
            if !matches!(
                id.parse::<crate::rules::reference::RuleRef>(),
                Ok(crate::rules::reference::RuleRef::Imported { .. })
            ) {
                return Err(format!(
                    "`{id}` in `overrides` or `locked`: name an imported rule, NAME:N"
                ));
            }
        }
        let mut names = std::collections::HashSet::new();
        for source in &manifest.sources {
            source.validate()?;
            if !names.insert(source.name.as_str()) {
                return Err(format!("the source name `{}` is used twice", source.name));
            }
        }
        Ok(manifest)
    }

    pub(crate) fn source(&self, name: &str) -> Option<&Source> {
        self.sources.iter().find(|source| source.name == name)
    }

    /// The text written: pretty JSON, 2-space indented, with a final newline.
    pub(crate) fn file_text(&self) -> String {
        crate::report::text::json_document(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_safe_urls_refs_and_paths_pass() {
        for url in [
            "https://h/x.git",
            "ssh://git@h/x",
            "git@h:org/x.git",
            "file:///tmp/x",
        ] {
            assert!(check_url(url).is_ok(), "{url}");
        }
        for url in [
            "http://h/x",
            "ext::sh -c touch% /tmp/p",
            "-uhttps://h",
            "/tmp/x",
            "git://h/x",
            "https://",
            "h:x",
        ] {
            assert!(check_url(url).is_err(), "{url}");
        }
        for reference in ["main", "v1.2", "release/2", "0123abcd"] {
            assert!(check_ref(reference).is_ok(), "{reference}");
        }
        for reference in ["--upload-pack=x", "-x", "a..b", "a b", "a:b", ""] {
            assert!(check_ref(reference).is_err(), "{reference}");
        }
        assert!(check_path(".agents/autofix.json").is_ok());
        for path in ["/etc/passwd", "../x", "a//b", "a/./b", "-x"] {
            assert!(check_path(path).is_err(), "{path}");
        }
        assert!(check_name("org").is_ok());
        for name in ["user", "local", "Org", "1a", "a_b", ""] {
            assert!(check_name(name).is_err(), "{name}");
        }
    }
}
