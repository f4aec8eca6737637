//! The operations both front ends offer — the CLI (`front/cmd/`) and the MCP server — as
//! library calls on a resolved [`Workspace`]: list the rules, check them, load presets.
//! Learning lives in [`crate::ops::learning`]. A front end only converts its arguments, calls
//! these, and renders what they return; nothing here prints.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::io::git::Git;
use crate::io::workspace::Workspace;
use crate::preset::{self, Preset, collection};
use crate::rules::budget::{Budget, Delivered};
use crate::rules::{self, RulesError, check, listing};

/// The listing of the workspace's rules (named by its display path in it); it owns the file it lists.
pub(crate) fn list(
    workspace: &Workspace,
    query: &listing::Query,
) -> Result<listing::Listing, RulesError> {
    let document = rules::load(workspace.shown_path())?;
    listing::check_filter(query, document.as_ref())?;
    Ok(listing::build(
        workspace.shown.clone(),
        document.map(Arc::new),
        query,
    ))
}

/// Lints the workspace's rules file (named by its display path in diagnostics), with the budgets of the
/// targets enabled here (measured with the imported rules delivered beside the local ones)
/// and the files git tracks.
pub(crate) fn check(workspace: &Workspace) -> Result<check::Report, RulesError> {
    let budgets = crate::export::targets::enabled_budgets(&workspace.root);
    let imported = if budgets.is_empty() {
        Vec::new()
    } else {
        crate::sources::layers::for_export(&workspace.root, &workspace.rules_file)
    };
    let (imported_text, hook) = crate::sources::layers::delivered(&imported);
    let measure = |budget: Budget, listing: &listing::Listing| Delivered {
        rules: listing.counts.active + imported.len(),
        size: match budget {
            Budget::HookChars(..) => crate::export::hook::full_size(listing, &hook),
            _ => budget.measure(&(listing.plain_text() + &imported_text)).0,
        },
        tokens: listing.tokens + rules::budget::tokens(imported_text.chars().count()),
    };
    let git = Git::new(&workspace.root);
    let tracked = git.tracked_files();
    let git_dir = git.common_dir().ok();
    let context = check::Context {
        budgets: &budgets,
        delivered: Some(&measure),
        tracked: tracked.as_deref(),
        root: Some(&workspace.root),
        near_rules: true,
        git_dir: git_dir.as_deref(),
    };
    let mut report = check::check_with(
        Path::new(&workspace.shown),
        rules::read(workspace.shown_path()),
        &context,
    )?;
    // The sources, offline: manifest, lock, vendored copies, `name:N` references.
    report
        .diagnostics
        .extend(crate::sources::verify::for_workspace(workspace));
    report.diagnostics.extend(stated_by_hand(workspace));
    Ok(report)
}

/// The active rules a hand-written file states where an agent also reads autofix's
/// copy (`handwritten-duplicate`). Most repositories have no such file: nothing more is
/// read then.
fn stated_by_hand(workspace: &Workspace) -> Vec<crate::report::diagnostics::Diagnostic> {
    use crate::export::handwritten;
    let Some(found) = handwritten::worth_comparing(&workspace.root, &[]) else {
        return Vec::new();
    };
    let Ok(listing) = list(workspace, &listing::Query::default()) else {
        return Vec::new();
    };
    let rules = handwritten::active_rules(&listing);
    handwritten::stated_by_hand(&workspace.root, &found, &workspace.shown, &rules, &|file| {
        from_cwd(workspace, file)
    })
}

/// A path relative to the workspace root as the rules file is shown: from the current
/// directory when it lies below it.
pub(crate) fn from_cwd(workspace: &Workspace, relative: &str) -> String {
    let path = workspace.root.join(relative);
    path.strip_prefix(&workspace.cwd)
        .unwrap_or(&path)
        .display()
        .to_string()
}

/// The presets found, and whether the search found none in the default folders (a front
/// end says so: an empty result is otherwise indistinguishable from a typo).
pub(crate) struct Presets {
    pub presets: Vec<Preset>,
    pub none_in_defaults: bool,
}

/// Loads the presets under `paths` (relative to the workspace's current directory), or in
/// the workspace's default preset folders when there are none.
pub(crate) fn load_presets(
    workspace: &Workspace,
    paths: &[PathBuf],
) -> Result<Presets, preset::PresetError> {
    let dirs = preset::discover(paths, &workspace.root, &workspace.cwd)?;
    let none_in_defaults = dirs.is_empty();
    let presets = preset::load_collection(&dirs)
        .map_err(|error| preset::PresetError::from(error).shown_from(&workspace.cwd))?;
    Ok(Presets {
        presets,
        none_in_defaults,
    })
}

/// Loads one preset: a directory, or the name of a preset in the default folders.
pub(crate) fn load_one(workspace: &Workspace, path: &Path) -> Result<Preset, preset::PresetError> {
    let dir = collection::find(path, &workspace.root, &workspace.cwd)?;
    preset::load(&dir).map_err(|error| preset::PresetError::from(error).shown_from(&workspace.cwd))
}
