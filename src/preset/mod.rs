//! Presets: load the design's flat form and real HagiTask packages into one model,
//! cross-validate command skills against requirements, render final command lines.
//!
//! The pieces, in the order a command uses them:
//! - [`collection`]: which directories are presets (a path, its children, the defaults);
//! - [`load`](mod@load): read one preset directory, in either form, into a [`Preset`] — the form
//!   specific parts live in [`flat`] and [`hagitask`], file access in [`source`];
//! - `package` (with `frontmatter` and `task_preset`): the rest of what HagiCode's own
//!   package validator checks in a HagiTask package (locales, store pages, targets,
//!   requirement shapes);
//! - [`validate`]: the cross-checks on a loaded preset (the gate vs the binding);
//! - [`render`]: placeholders and the idempotent `/skill` prelude;
//! - [`requirements`]: each requirement once, and whether it is installed;
//! - [`report`]: the text and JSON renderers of the `preset` subcommands.
//!
//! Loading never executes anything a preset names and never panics on bad input: every
//! problem with the files becomes a [`Diagnostic`], and a preset with an error diagnostic
//! is disabled.

pub(crate) mod collection;
pub(crate) mod flat;
mod frontmatter;
pub(crate) mod hagitask;
pub(crate) mod load;
mod package;
mod parts;
pub(crate) mod render;
pub(crate) mod requirements;
pub(crate) mod source;
mod task_preset;
pub(crate) mod validate;

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::report::diagnostics::{Diagnostic, Position};

pub(crate) use collection::{CollectionError, discover, load_collection};
pub(crate) use load::load;
pub(crate) use source::LoadError;

/// Why presets could not be found or read (exit 2).
#[derive(Debug, thiserror::Error)]
pub(crate) enum PresetError {
    #[error(transparent)]
    Collection(#[from] CollectionError),
    #[error(transparent)]
    Load(#[from] LoadError),
}

impl PresetError {
    /// The same error, the file it names relative to `cwd` when it lies below it.
    pub(crate) fn shown_from(self, cwd: &std::path::Path) -> PresetError {
        match self {
            PresetError::Load(LoadError::Read { path, source }) => {
                PresetError::Load(LoadError::Read {
                    path: crate::io::workspace::below(&path, &[cwd.to_path_buf()]),
                    source,
                })
            }
            other => other,
        }
    }
}

/// Which on-disk format a preset uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// The design's form: `commands.json` (+ `task-preset.json` or `prompts.json`) at the top.
    Flat,
    /// A HagiTask package: `manifest.json` names `ui.panel`, `ui.commands`, `backend.*`.
    HagiTask,
}

impl Form {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Form::Flat => "flat",
            Form::HagiTask => "hagitask",
        }
    }
}

/// One command a preset offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Command {
    pub id: String,
    /// The skill the command routes to (normalised: trimmed, never empty).
    pub skill: Option<String>,
    /// `preludeTemplate` (HagiTask) or `prompt` (flat); never empty or whitespace.
    pub template: Option<String>,
    /// The file that defines the command.
    pub file: PathBuf,
    /// The command's JSON pointer in `file` (`/commands/3`).
    pub pointer: String,
    /// The member the template came from (`preludeTemplate` or `prompt`).
    pub template_field: &'static str,
}

/// What a requirement asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Kind {
    Skill,
    Cli,
    Agent,
}

impl Kind {
    /// The prefix of cache keys (`skill:`, `cli:`, `agent:`).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Kind::Skill => "skill",
            Kind::Cli => "cli",
            Kind::Agent => "agent",
        }
    }
}

/// One declared requirement (the gate).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Requirement {
    pub kind: Kind,
    /// The skill, CLI or agent name (agent alternatives joined with `,`).
    pub key: String,
    /// What deduplicates requirements: `skill:last30days`, `cli:gh`, `agent:any`.
    pub cache_key: String,
    /// For `cli`: the program to look up (else `key` is looked up).
    pub command: Option<String>,
    pub args: Vec<String>,
    pub file: PathBuf,
    /// The requirement's JSON pointer in `file` (`/requirements/1`).
    pub pointer: String,
}

/// A file and, where one was found, the place in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Location {
    pub file: PathBuf,
    pub pointer: String,
    pub position: Option<Position>,
}

/// A loaded preset: the model both forms share, and what was wrong with it.
#[derive(Clone, Debug)]
pub(crate) struct Preset {
    /// `taskPresetId` from the manifest, else the directory name.
    pub id: String,
    /// The directory, as the user named it (used to build every displayed path).
    pub dir: PathBuf,
    pub form: Form,
    /// In file order.
    pub commands: Vec<Command>,
    /// As declared, repeats included; see [`Preset::unique_requirements`].
    pub requirements: Vec<Requirement>,
    /// Every name a template may use, or `None` when the preset declares no inputs.
    pub inputs: Option<BTreeSet<String>>,
    pub diagnostics: Vec<Diagnostic>,
    /// Where the id was declared (`manifest.json` `/taskPresetId`), if it was.
    pub id_location: Option<Location>,
    /// The requirements file, relative to the preset (for help text).
    pub requirements_file: Option<PathBuf>,
}

impl Preset {
    /// Enabled iff no error diagnostic.
    pub(crate) fn enabled(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Requirements deduplicated by cache key, first declaration wins, in file order.
    pub(crate) fn unique_requirements(&self) -> Vec<&Requirement> {
        let mut seen = BTreeSet::new();
        self.requirements
            .iter()
            .filter(|r| seen.insert(r.cache_key.as_str()))
            .collect()
    }

    /// The distinct skills commands are bound to, in order of first use.
    pub(crate) fn bound_skills(&self) -> Vec<&str> {
        let mut seen = BTreeSet::new();
        self.commands
            .iter()
            .filter_map(|c| c.skill.as_deref())
            .filter(|s| seen.insert(*s))
            .collect()
    }

    /// Whether some skill requirement declares `skill`.
    pub(crate) fn requires_skill(&self, skill: &str) -> bool {
        self.requirements
            .iter()
            .any(|r| r.kind == Kind::Skill && r.key == skill)
    }
}
