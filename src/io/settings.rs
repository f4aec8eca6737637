//! The process's settings, as the front end read them from the environment once at start
//! (`front/settings.rs`) and handed down here: the layers below take each value from
//! [`get`] and never read the environment themselves (the test `architecture` holds it).
//! A value of autofix's own that was set but bad is kept as its error, naming the
//! variable, which the first operation that needs the value reports (exit 2): a command
//! that does not use it is not failed by it, and an agent's hook keeps working.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

/// Every setting below the front end, typed. A number left unset is `Ok(None)`: the
/// module that uses it keeps its default. `Default` is an empty environment.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    /// `AUTOFIX_FILE` and `AUTOFIX_CEILING_DIRECTORIES`, as discovery takes them.
    pub rules_file: Option<OsString>,
    pub ceilings: Option<OsString>,
    /// `AUTOFIX_LOCK_TIMEOUT`: how long a writer waits for a lock.
    pub lock_timeout: Checked<Option<Duration>>,
    /// `AUTOFIX_MAX_FILE_BYTES`: the cap on any file read.
    pub max_file_bytes: Checked<Option<u64>>,
    /// `AUTOFIX_SOURCES_TIMEOUT`: how long each git step of a source fetch may take.
    pub sources_timeout: Checked<Option<Duration>>,
    /// `AUTOFIX_SOURCES_MAX_FETCH`: the cap on what one fetch may bring.
    pub sources_max_fetch: Checked<Option<u64>>,
    /// `AUTOFIX_MERGE_UPSTREAM` and `AUTOFIX_MERGE_DRIVER` (non-empty values only), and
    /// git's `GIT_REFLOG_ACTION`, which the merge driver reads.
    pub merge_upstream: Option<String>,
    pub merge_driver: Option<String>,
    pub git_reflog_action: Option<String>,
    /// `$XDG_CONFIG_HOME` (absolute) else `$HOME/.config`; `$XDG_CACHE_HOME` likewise.
    pub config_home: Option<PathBuf>,
    pub cache_home: Option<PathBuf>,
    /// The agents' own homes (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `COPILOT_HOME`).
    pub claude_config_dir: Option<PathBuf>,
    pub codex_home: Option<PathBuf>,
    pub copilot_home: Option<PathBuf>,
    /// `HOME` (`USERPROFILE` on Windows) when set and not empty.
    pub home: Option<PathBuf>,
    /// `PATH`, where `doctor` and `preset requirements` look programs up.
    pub path: Option<OsString>,
    /// Whether `CI` is set and not empty.
    pub ci: bool,
    /// The locale `learn` answers in: the first of `LC_ALL`, `LC_MESSAGES` and `LANG` set
    /// to a non-empty value.
    pub locale: Option<String>,
    /// `COLUMNS` when it is a positive number (the shell's variable: anything else is
    /// ignored, as other programs do).
    pub columns: Option<usize>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            rules_file: None,
            ceilings: None,
            lock_timeout: Ok(None),
            max_file_bytes: Ok(None),
            sources_timeout: Ok(None),
            sources_max_fetch: Ok(None),
            merge_upstream: None,
            merge_driver: None,
            git_reflog_action: None,
            config_home: None,
            cache_home: None,
            claude_config_dir: None,
            codex_home: None,
            copilot_home: None,
            home: None,
            path: None,
            ci: false,
            locale: None,
            columns: None,
        }
    }
}

/// A setting's value, or the error a bad one is (the variable named, the value shown).
pub(crate) type Checked<T> = Result<T, String>;

static SETTINGS: OnceLock<Settings> = OnceLock::new();

/// Keeps the front end's settings for the process; a second call changes nothing.
pub(crate) fn install(settings: Settings) {
    let _ = SETTINGS.set(settings);
}

/// The settings the front end installed; an empty environment's before that (the unit
/// tests of the layers below, which start no front end).
pub(crate) fn get() -> &'static Settings {
    SETTINGS.get_or_init(Settings::default)
}
