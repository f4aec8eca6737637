//! The environment, read once: [`settle`] reads every variable autofix or the layers
//! below use into one typed [`Settings`] and installs it (`io/settings.rs`) before any
//! command runs. One policy for a bad value of autofix's own numbers: an error naming the
//! variable and the value, which the operation that needs it reports (exit 2).

use std::ffi::OsString;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use crate::io::settings::{self, Checked, Settings};

/// Reads the process's environment into [`Settings`] and installs them, once.
pub(crate) fn settle() {
    settings::install(from(|name| std::env::var_os(name)));
}

/// The settings that `var` (a variable's value by name) describes.
pub(crate) fn from(var: impl Fn(&str) -> Option<OsString>) -> Settings {
    let text = |name: &str| {
        var(name)
            .map(|value| value.to_string_lossy().into_owned())
            .filter(|value| !value.trim().is_empty())
    };
    let nonempty = |name: &str| {
        var(name)
            .map(|value| value.to_string_lossy().into_owned())
            .filter(|value| !value.is_empty())
    };
    let absolute = |name: &str| var(name).map(PathBuf::from).filter(|p| p.is_absolute());
    let home = var(if cfg!(windows) { "USERPROFILE" } else { "HOME" })
        .filter(|home| !home.is_empty())
        .map(PathBuf::from);
    let path = |name: &str| var(name).map(PathBuf::from);
    Settings {
        rules_file: var(crate::io::workspace::FILE_ENV),
        ceilings: var(crate::io::workspace::CEILING_ENV),
        lock_timeout: seconds("AUTOFIX_LOCK_TIMEOUT", text("AUTOFIX_LOCK_TIMEOUT")),
        max_file_bytes: positive("AUTOFIX_MAX_FILE_BYTES", text("AUTOFIX_MAX_FILE_BYTES")),
        sources_timeout: seconds("AUTOFIX_SOURCES_TIMEOUT", text("AUTOFIX_SOURCES_TIMEOUT")),
        sources_max_fetch: positive(
            "AUTOFIX_SOURCES_MAX_FETCH",
            text("AUTOFIX_SOURCES_MAX_FETCH"),
        ),
        merge_upstream: nonempty("AUTOFIX_MERGE_UPSTREAM"),
        merge_driver: nonempty("AUTOFIX_MERGE_DRIVER"),
        git_reflog_action: nonempty("GIT_REFLOG_ACTION"),
        config_home: absolute("XDG_CONFIG_HOME").or_else(|| Some(home.clone()?.join(".config"))),
        cache_home: absolute("XDG_CACHE_HOME").or_else(|| Some(home.clone()?.join(".cache"))),
        claude_config_dir: path("CLAUDE_CONFIG_DIR"),
        codex_home: path("CODEX_HOME"),
        copilot_home: path("COPILOT_HOME"),
        home: home.clone(),
        path: var("PATH"),
        ci: var("CI").is_some_and(|ci| !ci.is_empty()),
        locale: ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .find_map(|name| var(name)?.into_string().ok().filter(|v| !v.is_empty())),
        columns: text("COLUMNS")
            .and_then(|c| c.trim().parse().ok())
            .filter(|&c: &usize| c > 0),
    }
}

/// A number of seconds (fractions allowed); more than a `Duration` holds means "wait as
/// long as it takes".
fn seconds(name: &str, value: Option<String>) -> Checked<Option<Duration>> {
    let Some(value) = value else { return Ok(None) };
    match value.trim().parse::<f64>() {
        Ok(secs) if secs >= 0.0 => Ok(Some(
            Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX),
        )),
        _ => Err(format!(
            "{name} is `{value}`, not a number of seconds (such as 10 or 0.5)"
        )),
    }
}

/// A positive whole number (of bytes).
fn positive<T: FromStr + PartialOrd + Default>(
    name: &str,
    value: Option<String>,
) -> Checked<Option<T>> {
    let Some(value) = value else { return Ok(None) };
    match value.trim().parse::<T>() {
        Ok(number) if number > T::default() => Ok(Some(number)),
        _ => Err(format!(
            "{name} is `{value}`, not a positive number of bytes"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(pairs: &[(&str, &str)]) -> Settings {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect();
        from(move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| OsString::from(v))
        })
    }

    #[test]
    fn numbers_are_checked_and_blank_is_unset() {
        let empty = with(&[
            ("AUTOFIX_MAX_FILE_BYTES", " "),
            ("AUTOFIX_LOCK_TIMEOUT", ""),
        ]);
        assert_eq!(empty.max_file_bytes, Ok(None));
        assert_eq!(empty.lock_timeout, Ok(None));
        let good = with(&[
            ("AUTOFIX_MAX_FILE_BYTES", " 40 "),
            ("AUTOFIX_SOURCES_TIMEOUT", "0.5"),
        ]);
        assert_eq!(good.max_file_bytes, Ok(Some(40)));
        assert_eq!(good.sources_timeout, Ok(Some(Duration::from_millis(500))));
        for bad in ["0", "ten", "-1"] {
            let error = with(&[("AUTOFIX_SOURCES_MAX_FETCH", bad)])
                .sources_max_fetch
                .unwrap_err();
            assert!(
                error.contains(&format!("AUTOFIX_SOURCES_MAX_FETCH is `{bad}`")),
                "{error}"
            );
        }
        let huge = with(&[("AUTOFIX_LOCK_TIMEOUT", "1e300")]);
        assert_eq!(huge.lock_timeout, Ok(Some(Duration::MAX)));
    }

    #[test]
    fn folders_follow_xdg_then_home() {
        let relative = with(&[("XDG_CONFIG_HOME", "rel"), ("HOME", "/h")]);
        assert_eq!(relative.config_home, Some(PathBuf::from("/h/.config")));
        assert_eq!(relative.cache_home, Some(PathBuf::from("/h/.cache")));
        let set = with(&[("XDG_CACHE_HOME", "/c"), ("HOME", "")]);
        assert_eq!(set.cache_home, Some(PathBuf::from("/c")));
        assert_eq!(set.config_home, None);
    }
}
