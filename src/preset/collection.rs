//! Which directories are presets: the packages under a repository's `data/` folder, a
//! path that is a preset, else its direct children that are presets (sorted by name), else
//! the workspace's `.agents/presets/` and `presets/`.
//! A directory is a preset when it holds `manifest.json` or `commands.json`. Loading a
//! collection adds the one check that needs all of it: `duplicate-preset-id`.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use super::load::load;
use super::source::LoadError;
use super::{Preset, validate};

/// The default collections, relative to the workspace root.
pub(crate) const DEFAULT_DIRS: [&str; 2] = [".agents/presets", "presets"];

/// A path that names no preset. These stop a command (exit 2).
#[derive(Debug, thiserror::Error)]
pub(crate) enum CollectionError {
    #[error("`{}` does not exist", .0.display())]
    NotFound(PathBuf),
    #[error("`{}` is not a directory", .0.display())]
    NotADirectory(PathBuf),
    #[error(
        "`{}` holds no preset (a preset is a directory with `manifest.json` or `commands.json`; \
         a collection is a directory of presets)", .0.display()
    )]
    NoPresets(PathBuf),
    #[error(
        "`{}` is not a preset (a preset is a directory with `manifest.json` or `commands.json`)",
        .0.display()
    )]
    NotAPreset(PathBuf),
    #[error(
        "no preset `{name}` in {} (name a preset directory instead)",
        searched.iter().map(|p| format!("`{}`", p.display())).collect::<Vec<_>>().join(" or ")
    )]
    NoSuchPreset {
        name: String,
        searched: Vec<PathBuf>,
    },
    #[error("cannot read `{}`", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

impl CollectionError {
    /// The same error, its files named relative to `cwd` when they lie below it.
    fn shown_from(self, cwd: &Path) -> CollectionError {
        let b = |path: PathBuf| relative_to(&path, cwd);
        match self {
            CollectionError::NotFound(path) => CollectionError::NotFound(b(path)),
            CollectionError::NotADirectory(path) => CollectionError::NotADirectory(b(path)),
            CollectionError::NoPresets(path) => CollectionError::NoPresets(b(path)),
            CollectionError::NotAPreset(path) => CollectionError::NotAPreset(b(path)),
            CollectionError::NoSuchPreset { name, searched } => CollectionError::NoSuchPreset {
                name,
                searched: searched.into_iter().map(b).collect(),
            },
            CollectionError::Read { path, source } => CollectionError::Read {
                path: b(path),
                source,
            },
        }
    }
}

/// Whether `dir` is a preset directory.
fn is_preset(dir: &Path) -> bool {
    dir.join("manifest.json").is_file() || dir.join("commands.json").is_file()
}

/// The preset directories that `paths` name, or, when there are none, those of the
/// default collections under `root` (shown relative to `cwd` where possible). An explicit
/// path that does not exist or holds no preset is an error (naming it relative to `cwd`
/// when below it); a missing default is not.
pub(crate) fn discover(
    paths: &[PathBuf],
    root: &Path,
    cwd: &Path,
) -> Result<Vec<PathBuf>, CollectionError> {
    discover_in(paths, root, cwd).map_err(|error| error.shown_from(cwd))
}

fn discover_in(
    paths: &[PathBuf],
    root: &Path,
    cwd: &Path,
) -> Result<Vec<PathBuf>, CollectionError> {
    let mut found = Vec::new();
    if paths.is_empty() {
        for dir in DEFAULT_DIRS {
            let dir = relative_to(&root.join(dir), cwd);
            if dir.is_dir() {
                found.extend(presets_in(&dir)?);
            }
        }
    } else {
        for path in paths {
            let metadata = fs::metadata(path).map_err(|source| match source.kind() {
                io::ErrorKind::NotFound => CollectionError::NotFound(path.clone()),
                _ => CollectionError::Read {
                    path: path.clone(),
                    source,
                },
            })?;
            if !metadata.is_dir() {
                return Err(CollectionError::NotADirectory(path.clone()));
            }
            let presets = presets_in(path)?;
            if presets.is_empty() {
                return Err(CollectionError::NoPresets(path.clone()));
            }
            found.extend(presets);
        }
    }
    // The same directory named twice (`a a`, `a/b a`) is one preset. A set of the real
    // paths seen: a list's scan made this quadratic (14% of validating 1000 presets).
    let mut seen = HashSet::new();
    found.retain(|dir| seen.insert(fs::canonicalize(dir).unwrap_or_else(|_| dir.clone())));
    Ok(found)
}

/// The packages of a HagiTask package repository (the children of its `data/` folder;
/// a manifest at the repository root is not a package, as in HagiCode's validator), else
/// `dir` itself when it is a preset, else its direct children that are presets, by name.
fn presets_in(dir: &Path) -> Result<Vec<PathBuf>, CollectionError> {
    let data = dir.join("data");
    if data.is_dir() {
        let packages = children(&data)?;
        if !packages.is_empty() {
            return Ok(packages);
        }
    }
    if is_preset(dir) {
        return Ok(vec![dir.to_path_buf()]);
    }
    children(dir)
}

/// The direct children of `dir` that are presets, by name.
fn children(dir: &Path) -> Result<Vec<PathBuf>, CollectionError> {
    let read_error = |source| CollectionError::Read {
        path: dir.to_path_buf(),
        source,
    };
    let mut children = Vec::new();
    for entry in fs::read_dir(dir).map_err(read_error)? {
        let entry = entry.map_err(read_error)?;
        let path = dir.join(entry.file_name());
        if path.is_dir() && is_preset(&path) {
            children.push(path);
        }
    }
    children.sort();
    Ok(children)
}

/// The one preset `render` or `requirements` works on: a preset directory, or the name of
/// a preset in one of the default collections under `root`; an error names its files
/// relative to `cwd` when below it.
pub(crate) fn find(preset: &Path, root: &Path, cwd: &Path) -> Result<PathBuf, CollectionError> {
    find_in(preset, root, cwd).map_err(|error| error.shown_from(cwd))
}

fn find_in(preset: &Path, root: &Path, cwd: &Path) -> Result<PathBuf, CollectionError> {
    if preset.exists() {
        if !preset.is_dir() {
            return Err(CollectionError::NotADirectory(preset.to_path_buf()));
        }
        if !is_preset(preset) {
            return Err(CollectionError::NotAPreset(preset.to_path_buf()));
        }
        return Ok(preset.to_path_buf());
    }
    let mut components = preset.components();
    let (Some(Component::Normal(name)), None) = (components.next(), components.next()) else {
        return Err(CollectionError::NotFound(preset.to_path_buf()));
    };
    let searched: Vec<PathBuf> = DEFAULT_DIRS
        .iter()
        .map(|dir| relative_to(&root.join(dir), cwd))
        .collect();
    searched
        .iter()
        .map(|dir| dir.join(name))
        .find(|dir| dir.is_dir() && is_preset(dir))
        .ok_or_else(|| CollectionError::NoSuchPreset {
            name: name.to_string_lossy().into_owned(),
            searched,
        })
}

/// Loads every preset and checks the collection for duplicate ids.
pub(crate) fn load_collection(dirs: &[PathBuf]) -> Result<Vec<Preset>, LoadError> {
    let mut presets = dirs
        .iter()
        .map(|dir| load(dir))
        .collect::<Result<Vec<_>, _>>()?;
    validate::check_collection(&mut presets);
    Ok(presets)
}

/// `path` relative to `base` when it lies below it.
fn relative_to(path: &Path, base: &Path) -> PathBuf {
    match path.strip_prefix(base) {
        Ok(rest) if !rest.as_os_str().is_empty() => rest.to_path_buf(),
        _ => path.to_path_buf(),
    }
}
