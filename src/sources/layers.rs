//! The layers, resolved: this repository's rules first, then each source in manifest
//! order (then the personal layer). An imported rule is `name:N`; a local rule supersedes
//! it with a marker (`supersedes org:12`, written by `learn --supersedes org:12`), except
//! a locked rule, which needs a manifest override. Read offline from the vendored copies
//! only: a copy that does not match its pin is left out, never trusted.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::rules::Document;

use super::Layout;
use super::vendor::{self, Imported};

/// A reference of a local rule to an imported one: local rule `local` names `source:number`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SourceRef {
    pub local: u64,
    pub source: String,
    pub number: u64,
}

use crate::rules::supersede::VERBS;

/// The `name:N` references that supersede markers in `text` make: a verb, an optional
/// `rule`/`rules`, then `name:N` items separated by `,`, `&`, `and` or `et`.
pub(crate) fn qualified_references(text: &str) -> Vec<(String, u64)> {
    let lower = text.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < lower.len() {
        let boundary = at == 0 || !bytes[at - 1].is_ascii_alphanumeric();
        let Some(verb) = VERBS
            .iter()
            .find(|verb| boundary && bytes[at..].starts_with(verb.as_bytes()))
        else {
            at += 1;
            continue;
        };
        at += verb.len();
        let mut rest = &lower[at..];
        if !rest.starts_with(|c: char| c.is_ascii_whitespace()) {
            continue;
        }
        rest = rest.trim_start();
        for noun in ["rules", "rule"] {
            if let Some(after) = rest.strip_prefix(noun) {
                rest = after.trim_start();
                break;
            }
        }
        while let Some((name, number, after)) = qualified(rest) {
            found.push((name.to_string(), number));
            rest = after.trim_start();
            let Some(next) = [",", "&", "and ", "et "]
                .iter()
                .find_map(|sep| rest.strip_prefix(sep))
            else {
                break;
            };
            rest = next.trim_start();
        }
        at = lower.len() - rest.len();
    }
    found
}

/// `name:N` at the start of `text`: the name, the number and what follows.
fn qualified(text: &str) -> Option<(&str, u64, &str)> {
    let name_end = text
        .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
        .unwrap_or(text.len());
    let name = &text[..name_end];
    let rest = text[name_end..].strip_prefix(':')?;
    let digits_end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_lowercase()) || digits_end == 0 {
        return None;
    }
    if rest[digits_end..].starts_with(|c: char| c.is_alphanumeric()) {
        return None;
    }
    let number = rest[..digits_end].parse().ok()?;
    Some((name, number, &rest[digits_end..]))
}

/// The local rules file parsed for its `name:N` references: a file whose text holds no
/// such marker is not parsed (`None`), so listings stay one parse.
pub(crate) fn referencing(rules_file: &std::path::Path) -> Option<Document> {
    let source = crate::rules::read(rules_file).ok().flatten();
    let source =
        source.filter(|text| may_reference(text) && !qualified_references(text).is_empty());
    source.and_then(|source| crate::rules::parse_tolerant(rules_file, source).ok())
}

/// Whether `text` holds `x:1` anywhere (a letter, digit or `-`, a colon, a digit): a
/// quick scan that spares the full one for a file with no `name:N` at all.
fn may_reference(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b':', bytes).any(|at| {
        at > 0
            && bytes.get(at + 1).is_some_and(u8::is_ascii_digit)
            && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'-')
    })
}

/// Every `name:N` reference the local rules make.
pub(crate) fn local_references(document: Option<&Document>) -> Vec<SourceRef> {
    let mut refs = Vec::new();
    for rule in document.iter().flat_map(|d| d.rules()) {
        let Some(local) = rule.number().value() else {
            continue;
        };
        for text in [rule.why().display(), rule.instruction().display()] {
            for (source, number) in qualified_references(text) {
                let reference = SourceRef {
                    local,
                    source,
                    number,
                };
                if !refs.contains(&reference) {
                    refs.push(reference);
                }
            }
        }
    }
    refs
}

/// One source's rules, from its verified copy.
#[derive(Debug)]
pub(crate) struct Layer {
    pub name: String,
    pub url: String,
    pub reference: String,
    pub commit: String,
    pub rules: Vec<Imported>,
    /// Whether the manifest's selection keeps each rule.
    pub selected: Vec<bool>,
}

/// Why an imported rule is or is not active.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Active,
    /// Left out by the manifest's selection.
    NotSelected,
    /// Superseded by the source's own rules.
    InSource(Vec<u64>),
    /// Superseded by these local rules.
    Locally(Vec<u64>),
    /// Locked: these local rules supersede it without a manifest override, so it stays.
    LockedKept(Vec<u64>),
}

/// All layers of a workspace.
#[derive(Debug, Default)]
pub(crate) struct Layers {
    pub layers: Vec<Layer>,
    pub refs: Vec<SourceRef>,
    pub overrides: BTreeMap<String, String>,
    /// Sources left out (not locked, copy missing or not matching its pin), with why.
    pub left_out: Vec<String>,
    /// Every source the manifest names, loaded or left out.
    pub named: Vec<String>,
    /// The personal layer (`user:N`), for `rules` and the session hook only.
    pub personal: Option<Personal>,
}

/// The rules beyond this repository's file that the session hook carries.
#[derive(Debug, Default)]
pub(crate) struct ForHook {
    /// One line for each unscoped rule: `org:3 [CODE] …`, `user:1 [STYLE] …`.
    pub lines: Vec<String>,
    /// The globs of each scoped rule (not in the session's context: counted in its note).
    pub scoped: Vec<Vec<String>>,
}

impl ForHook {
    pub(crate) fn is_empty(&self) -> bool {
        self.lines.is_empty() && self.scoped.is_empty()
    }

    /// `name:N`'s line when it applies everywhere, else its globs for the note.
    fn add(&mut self, name: &str, rule: &Imported) {
        if rule.paths.is_empty() {
            self.lines.push(line(name, rule, locked_mark(rule)));
        } else {
            self.scoped.push(rule.paths.clone());
        }
    }
}

/// The user's own rules file, outside every repository.
#[derive(Debug)]
pub(crate) struct Personal {
    pub path: std::path::PathBuf,
    pub rules: Vec<Imported>,
}

/// Where the personal rules file is; `None` when neither `XDG_CONFIG_HOME` (absolute) nor
/// `HOME` is set.
pub(crate) fn personal_path() -> Option<std::path::PathBuf> {
    let config = crate::io::settings::get().config_home.clone()?; // `$XDG_CONFIG_HOME`, else `~/.config`
    Some(config.join("autofix").join("autofix.json"))
}

/// The personal layer, when its file exists; one that cannot be read is left out, with why.
fn personal(left_out: &mut Vec<String>) -> Option<Personal> {
    let path = personal_path()?;
    let bytes = super::read_bytes(&path).ok().flatten()?;
    match vendor::parse("user", &bytes) {
        Ok(rules) => Some(Personal { path, rules }),
        Err(error) => {
            left_out.push(format!("the personal rules ({}): {error}", path.display()));
            None
        }
    }
}

/// Loads the layers offline; problems leave a source out and say why (`check` reports
/// them as errors).
pub(crate) fn load(layout: &Layout, document: Option<&Document>) -> Layers {
    let mut layers = Layers {
        refs: local_references(document),
        ..Layers::default()
    };
    let state = match layout.read() {
        Ok(state) => state,
        Err(error) => {
            layers.left_out.push(error.to_string());
            return layers;
        }
    };
    layers.overrides = state.manifest.overrides.clone();
    layers.named = state
        .manifest
        .sources
        .iter()
        .map(|s| s.name.clone())
        .collect();
    for source in &state.manifest.sources {
        let Some(pin) = state.lock.sources.get(&source.name) else {
            layers
                .left_out
                .push(format!("source `{}` is not locked", source.name));
            continue;
        };
        let rules = layout
            .pinned_copy(&source.name, pin)
            .trusted()
            .and_then(|bytes| vendor::parse(&source.name, &bytes).ok())
            .map(|mut rules| {
                // Locked here (`sources lock`) as if the source locked it.
                for rule in &mut rules {
                    rule.locked |= state
                        .manifest
                        .locked
                        .contains(&id(&source.name, rule.number));
                }
                rules
            });
        let Some(rules) = rules else {
            layers.left_out.push(format!(
                "source `{}`: its vendored copy is missing or does not match the lock",
                source.name
            ));
            continue;
        };
        let selected = rules
            .iter()
            .map(|rule| {
                (source.categories.is_empty() || source.categories.contains(&rule.category))
                    && (source.rules.is_empty() || source.rules.contains(&rule.number))
            })
            .collect();
        layers.layers.push(Layer {
            name: source.name.clone(),
            url: source.url.clone(),
            reference: source.reference.clone(),
            commit: pin.commit.clone(),
            rules,
            selected,
        });
    }
    layers
}

/// The layers of a workspace, its local rules read for their `name:N` references.
pub(crate) fn for_workspace(workspace: &crate::io::workspace::Workspace) -> Layers {
    let layout = Layout::of(workspace);
    let mut left_out = Vec::new();
    let personal = personal(&mut left_out);
    // No manifest and no lock: no source, and the rules file need not be read again.
    if layout.manifest.symlink_metadata().is_err() && layout.lock.symlink_metadata().is_err() {
        return Layers {
            left_out,
            personal,
            ..Layers::default()
        };
    }
    let mut layers = load(&layout, referencing(&workspace.rules_file).as_ref());
    layers.left_out.extend(left_out);
    layers.personal = personal;
    layers
}

impl Layers {
    pub(crate) fn is_empty(&self) -> bool {
        self.layers.is_empty() && self.left_out.is_empty() && self.personal.is_none()
    }

    /// What the session hook carries of the active personal and (with `imported`)
    /// imported rules of `categories` when given: a line for each unscoped one, personal
    /// first (the first left out to fit), and the globs of each scoped one, which the
    /// hook counts with the local scoped rules (`rules --for PATH` lists them).
    pub(crate) fn for_hook(&self, categories: &[String], imported: bool) -> ForHook {
        let categories: Vec<String> = categories
            .iter()
            .map(|c| crate::rules::category::normalize(c))
            .collect();
        let wanted = |rule: &Imported| categories.is_empty() || categories.contains(&rule.category);
        let personal = self.personal.iter().flat_map(|p| {
            p.rules
                .iter()
                .filter(|r| r.superseded_by.is_empty())
                .map(|r| ("user", r))
        });
        let imported = self
            .active()
            .filter(move |_| imported)
            .map(|(layer, rule)| (layer.name.as_str(), rule));
        let mut hook = ForHook::default();
        for (name, rule) in personal.chain(imported).filter(|(_, rule)| wanted(rule)) {
            hook.add(name, rule);
        }
        hook
    }

    /// The layer named `name`.
    pub(crate) fn layer(&self, name: &str) -> Option<&Layer> {
        self.layers.iter().find(|layer| layer.name == name)
    }

    /// The local rules that name `source:number`.
    fn superseders(&self, source: &str, number: u64) -> Vec<u64> {
        let mut by: Vec<u64> = self
            .refs
            .iter()
            .filter(|r| r.source == source && r.number == number)
            .map(|r| r.local)
            .collect();
        by.sort_unstable();
        by.dedup();
        by
    }

    /// Why rule `at` of `layer` is active or not.
    pub(crate) fn status(&self, layer: &Layer, at: usize) -> Status {
        let rule = &layer.rules[at];
        if !layer.selected[at] {
            return Status::NotSelected;
        }
        if !rule.superseded_by.is_empty() {
            return Status::InSource(rule.superseded_by.clone());
        }
        let by = self.superseders(&layer.name, rule.number);
        if by.is_empty() {
            Status::Active
        } else if rule.locked && !self.overrides.contains_key(&id(&layer.name, rule.number)) {
            Status::LockedKept(by)
        } else {
            Status::Locally(by)
        }
    }

    /// The imported rules that reach agents: selected, active in their source and not
    /// superseded locally (a locked one without an override stays).
    pub(crate) fn active(&self) -> impl Iterator<Item = (&Layer, &Imported)> {
        self.layers.iter().flat_map(move |layer| {
            layer
                .rules
                .iter()
                .enumerate()
                .filter(move |(at, _)| {
                    matches!(
                        self.status(layer, *at),
                        Status::Active | Status::LockedKept(_)
                    )
                })
                .map(move |(_, rule)| (layer, rule))
        })
    }
}

/// The active imported rules, from verified copies, never the personal layer: what the
/// exported files carry (a scoped one goes where a local rule of its scope goes), what
/// `check` measures against the budgets, what the prompt hook and `reflect` compare a
/// correction with. Empty when there is no manifest or lock.
pub(crate) fn for_export(
    repository: &std::path::Path,
    rules_file: &std::path::Path,
) -> Vec<(String, Imported)> {
    let layout = Layout::beside(rules_file, repository);
    if layout.manifest.symlink_metadata().is_err() && layout.lock.symlink_metadata().is_err() {
        return Vec::new();
    }
    let mut layers = load(&layout, referencing(rules_file).as_ref());
    // Which rules are active, then each moved out of its layer rather than copied.
    let keep: Vec<Vec<bool>> = layers
        .layers
        .iter()
        .map(|layer| {
            (0..layer.rules.len())
                .map(|at| {
                    matches!(
                        layers.status(layer, at),
                        Status::Active | Status::LockedKept(_)
                    )
                })
                .collect()
        })
        .collect();
    let mut out = Vec::new();
    for (layer, keep) in layers.layers.iter_mut().zip(keep) {
        let rules = std::mem::take(&mut layer.rules);
        out.extend(
            rules
                .into_iter()
                .zip(keep)
                .filter(|(_, keep)| *keep)
                .map(|(rule, _)| (layer.name.clone(), rule)),
        );
    }
    out
}

/// What the imported rules `imported` (as [`for_export`] gives them) take where they are
/// delivered: their lines as `rules` prints them, and what the session hook carries of
/// them (`check` measures both against the budgets).
pub(crate) fn delivered(imported: &[(String, Imported)]) -> (String, ForHook) {
    let mut text = String::new();
    let mut hook = ForHook::default();
    for (name, rule) in imported {
        text.push_str(&line(name, rule, ""));
        hook.add(name, rule);
    }
    (text, hook)
}

/// The sentence an exported file's lead gains when it carries imported rules.
pub(crate) const EXPORT_NOTE: &str = "Rules `name:N` are imported from git sources (`autofix sources list`); this repository's numbered rules win over them, except a rule marked [locked], which holds whatever a local rule says.";

/// `text` of source `name`'s rule with each of its supersede references qualified: the
/// source's `supersedes rule 2` is `supersedes rule org:2` where the rule is delivered, so
/// no agent reads it as this repository's rule 2.
pub(crate) fn with_qualified_refs(name: &str, text: &str) -> String {
    // A reference has digits: most texts have none, and are not scanned for markers.
    if !text.bytes().any(|b| b.is_ascii_digit()) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut copied = 0;
    for reference in crate::rules::supersede::marker_references(text) {
        out.push_str(&text[copied..reference.digits.start]);
        out.push_str(&id(name, reference.number));
        copied = reference.digits.end;
    }
    out.push_str(&text[copied..]);
    out
}

/// ` [locked]` for a rule its source locks, as every delivered form marks it.
fn locked_mark(rule: &Imported) -> &'static str {
    if rule.locked { " [locked]" } else { "" }
}

/// One imported rule as an exported Markdown item, as local ones are written:
/// `- **org:3** [CODE] Instruction — _why_`, ` [locked]` after a locked one.
pub(crate) fn markdown_item(
    name: &str,
    rule: &Imported,
    escape: &dyn Fn(&str) -> std::borrow::Cow<'_, str>,
) -> String {
    format!(
        "- **{}** [{}] {} \u{2014} _{}_{}\n",
        id(name, rule.number),
        escape(&crate::report::text::shown(&rule.category)),
        escape(&crate::report::text::shown(&with_qualified_refs(
            name,
            &rule.instruction
        ))),
        escape(&crate::report::text::shown(&with_qualified_refs(
            name, &rule.why
        ))),
        locked_mark(rule),
    )
}

/// What `rules` asked for: categories (bare, upper-case), `--all`, and the paths of
/// `--for` (an imported rule scoped by `Paths` is listed only for a path it matches).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Filter<'a> {
    pub categories: &'a [String],
    pub all: bool,
    pub paths: &'a [String],
    /// `--search TEXT`: only the rules whose instruction or why holds it.
    pub search: Option<&'a str>,
}

impl Filter<'_> {
    /// What `rules` says of a rule's scope, as of a local rule's: ` [paths: a, b]`, or with
    /// `--for` ` [applies: unscoped]`, ` [applies to src/a.rs: src/**]`; each path and glob
    /// shown safely, as the local listing shows them.
    fn scope_note(&self, rule: &Imported) -> String {
        use crate::report::text::shown;
        if self.paths.is_empty() {
            return if rule.paths.is_empty() {
                String::new()
            } else {
                let globs: Vec<_> = rule.paths.iter().map(|glob| shown(glob)).collect();
                format!(" [paths: {}]", globs.join(", "))
            };
        }
        if rule.paths.is_empty() {
            return " [applies: unscoped]".to_string();
        }
        self.paths
            .iter()
            .filter_map(|path| {
                let glob =
                    crate::rules::scope::matching(rule.paths.iter().map(String::as_str), path)?;
                Some(format!(" [applies to {}: {}]", shown(path), shown(glob)))
            })
            .collect()
    }

    pub(crate) fn keeps(&self, rule: &Imported) -> bool {
        self.search.is_none_or(|text| {
            crate::rules::listing::mentions_text(&rule.instruction, &rule.why, text)
        }) && (self.categories.is_empty() || self.categories.contains(&rule.category))
            && (self.paths.is_empty()
                || rule.paths.is_empty()
                || self.paths.iter().any(|path| {
                    crate::rules::scope::matching(rule.paths.iter().map(String::as_str), path)
                        .is_some()
                }))
    }
}

/// The reason of a rule that supersedes the imported rules `imported`, with their
/// `(supersedes org:12)` marker; `Err` inside when one is locked and the manifest does not
/// override it (a refusal, nothing learned). A rule that does not exist is an error
/// (named after `option`, as the front end calls it).
pub(crate) fn mark_superseded(
    workspace: &crate::io::workspace::Workspace,
    why: &str,
    imported: &[(String, u64)],
    option: &str,
) -> Result<Result<String, String>, super::SourceError> {
    let layers = for_workspace(workspace);
    let mut ids = Vec::new();
    for (name, number) in imported {
        let id = id(name, *number);
        let Some(layer) = layers.layer(name) else {
            return Err(super::SourceError::Invalid(format!(
                "{option} {id}: no source `{name}` is imported here (autofix sources list)"
            )));
        };
        let Some(rule) = layer.rules.iter().find(|r| r.number == *number) else {
            return Err(super::SourceError::Invalid(format!(
                "{option} {id}: source `{name}` holds no rule {number} at {}",
                short(&layer.commit)
            )));
        };
        if rule.locked && !layers.overrides.contains_key(&id) {
            let manifest = Layout::of(workspace).manifest;
            return Ok(Err(format!(
                "{id} is locked by its source: overriding it needs a reviewed entry \
                 `\"{id}\": \"<reason>\"` in `overrides` of {}; nothing learned",
                workspace.show(&manifest)
            )));
        }
        ids.push(id);
    }
    let marker = format!("(supersedes {})", ids.join(", "));
    Ok(Ok(if why.trim().is_empty() {
        marker
    } else {
        format!("{} {marker}", why.trim_end())
    }))
}

/// Why `request` may not be learned here over the imported rules, if it may not: it
/// repeats an active imported rule word for word (it reaches every agent already), or
/// repeats or reverses one in other words (the matcher of `learn`) without `--force`, or
/// repeats or reverses a locked one at all (a local rule cannot reverse it, `--force` or
/// not; the manifest's override and `--supersedes` are the reviewed way). A rule the
/// request supersedes (`(supersedes org:2)` in its reason) is none of these.
pub(crate) fn imported_refusal(
    workspace: &crate::io::workspace::Workspace,
    request: &crate::rules::learn::Request,
) -> Option<NotLearned> {
    Imports::open(workspace)?.refusal(workspace, request)
}

/// The imported rules of a workspace that has sources, read once for many requests
/// (`import` asks for each rule it found).
pub(crate) struct Imports {
    layout: Layout,
    layers: Layers,
}

impl Imports {
    /// The workspace's imported rules; `None` when it has no sources.
    pub(crate) fn open(workspace: &crate::io::workspace::Workspace) -> Option<Imports> {
        let layout = Layout::of(workspace);
        if layout.manifest.symlink_metadata().is_err() && layout.lock.symlink_metadata().is_err() {
            return None;
        }
        let layers = load(&layout, referencing(&workspace.rules_file).as_ref());
        Some(Imports { layout, layers })
    }

    /// [`imported_refusal`] of `request`.
    pub(crate) fn refusal(
        &self,
        workspace: &crate::io::workspace::Workspace,
        request: &crate::rules::learn::Request,
    ) -> Option<NotLearned> {
        refusal(workspace, &self.layout, &self.layers, request)
    }
}

fn refusal(
    workspace: &crate::io::workspace::Workspace,
    layout: &Layout,
    layers: &Layers,
    request: &crate::rules::learn::Request,
) -> Option<NotLearned> {
    let superseded = qualified_references(&request.why);
    let mut scope: Vec<&str> = request.paths.iter().map(String::as_str).collect();
    scope.sort_unstable();
    let candidates: Vec<(&Layer, &Imported)> = layers
        .active()
        .filter(|(layer, rule)| {
            let mut globs: Vec<&str> = rule.paths.iter().map(String::as_str).collect();
            globs.sort_unstable();
            globs == scope && !superseded.contains(&(layer.name.clone(), rule.number))
        })
        .collect();
    let named = |layer: &Layer, rule: &Imported| {
        format!(
            "{} ([{}] {})",
            id(&layer.name, rule.number),
            rule.category,
            crate::report::text::shown(&rule.instruction)
        )
    };
    if let Some((layer, rule)) = candidates
        .iter()
        .find(|(_, rule)| crate::rules::same_instruction(&rule.instruction, &request.instruction))
    {
        return Some(NotLearned::Repeat {
            id: id(&layer.name, rule.number),
            message: format!(
                "Already known as {} ([{}]): {} \u{2014} imported from `{}`, it reaches every agent already; nothing learned ({} unchanged)",
                id(&layer.name, rule.number),
                rule.category,
                crate::report::text::shown(&rule.instruction),
                layer.name,
                workspace.shown
            ),
        });
    }
    let texts = candidates
        .iter()
        .enumerate()
        .map(|(at, (_, rule))| (at as u64, rule.instruction.as_str()));
    let found = crate::rules::similar::matches(&request.instruction, texts);
    let overridden = |layer: &Layer, rule: &Imported| {
        layers.overrides.contains_key(&id(&layer.name, rule.number))
    };
    let pick = |locked: bool| {
        found.iter().find_map(|m| {
            let (layer, rule) = candidates[usize::try_from(m.rule).ok()?];
            (!locked || (rule.locked && !overridden(layer, rule))).then_some((m, layer, rule))
        })
    };
    let verb = |m: &crate::rules::similar::Match| match m.kind {
        crate::rules::similar::Kind::Duplicate => "repeats",
        crate::rules::similar::Kind::Contradiction => "contradicts",
    };
    if let Some((m, layer, rule)) = pick(true) {
        return Some(NotLearned::Refused(format!(
            "the rule {} the locked {}: a local rule cannot reverse or restate it, --force or not; \
             overriding it needs a reviewed entry `\"{}\": \"<reason>\"` in `overrides` of {} and \
             `--supersedes {}`; nothing learned",
            verb(m),
            named(layer, rule),
            id(&layer.name, rule.number),
            workspace.show(&layout.manifest),
            id(&layer.name, rule.number)
        )));
    }
    if request.force {
        return None;
    }
    pick(false).map(|(m, layer, rule)| {
        NotLearned::Refused(format!(
            "the rule {} the imported {}: learn it with `--supersedes {}` to replace it, or \
             `--force` to keep both; nothing learned",
            verb(m),
            named(layer, rule),
            id(&layer.name, rule.number)
        ))
    })
}

/// Why a rule is not learned over the imported rules.
#[derive(Debug)]
pub(crate) enum NotLearned {
    /// Word for word an active imported rule `id`: nothing to learn, as for a local repeat.
    Repeat { id: String, message: String },
    /// A repeat or reversal in other words (of a locked rule, or without `--force`).
    Refused(String),
}

/// `rules org:4`: the imported rule whole, as text and JSON: its text, scope, lock, status
/// and the pin it comes from. An error names what is missing.
pub(crate) fn shown(
    layers: &Layers,
    source: &str,
    number: u64,
) -> Result<(String, String), String> {
    let rule_id = id(source, number);
    let Some(layer) = layers.layer(source) else {
        return Err(if layers.named.iter().any(|n| n == source) {
            format!("{rule_id}: source `{source}` is left out (run `autofix check`)")
        } else {
            format!("{rule_id}: no source `{source}` is imported here (autofix sources list)")
        });
    };
    let Some(at) = layer.rules.iter().position(|r| r.number == number) else {
        return Err(format!(
            "{rule_id}: source `{source}` holds no rule {number} at {}",
            short(&layer.commit)
        ));
    };
    let rule = &layer.rules[at];
    let status = match layers.status(layer, at) {
        Status::Active if rule.locked => "active, locked by its source".to_string(),
        Status::Active => "active".to_string(),
        Status::NotSelected => "not selected by the manifest".to_string(),
        Status::InSource(by) => format!(
            "superseded by {}",
            by.iter()
                .map(|n| id(source, *n))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Status::Locally(by) => format!("superseded by local {}", numbers(&by)),
        Status::LockedKept(by) => {
            format!("locked: kept over {} (no manifest override)", numbers(&by))
        }
    };
    let mut text = line(source, rule, "");
    let _ = writeln!(text, "  status: {status}");
    if !rule.paths.is_empty() {
        let _ = writeln!(text, "  paths: {}", rule.paths.join(", "));
    }
    let _ = writeln!(
        text,
        "  from: {} {} @ {}",
        crate::report::text::shown(&layer.url),
        layer.reference,
        layer.commit
    );
    let json = serde_json::json!({
        "version": 1,
        "id": rule_id,
        "source": {"name": source, "url": layer.url, "ref": layer.reference, "commit": layer.commit},
        "number": number,
        "category": rule.category,
        "instruction": rule.instruction,
        "why": rule.why,
        "paths": rule.paths,
        "locked": rule.locked,
        "status": status,
    });
    Ok((text, crate::report::text::json_document(&json)))
}

/// `retire org:5`: the learn request of a local retirement record that supersedes the
/// imported rule (`(supersedes org:5)` in its reason), or why it is refused (a locked rule
/// without the manifest's override, as `learn --supersedes` refuses it).
pub(crate) fn retirement(
    workspace: &crate::io::workspace::Workspace,
    source: &str,
    number: u64,
    reason: &str,
) -> Result<Result<crate::rules::learn::Request, String>, super::SourceError> {
    let reason = reason.trim();
    let rule_id = id(source, number);
    if reason.is_empty() {
        return Ok(Err(format!(
            "the reason is empty; say why {rule_id} no longer holds (--why)"
        )));
    }
    let why = match mark_superseded(
        workspace,
        &format!("retired: {reason}"),
        &[(source.to_string(), number)],
        "retire",
    )? {
        Ok(why) => why,
        Err(refusal) => return Ok(Err(refusal.replace("nothing learned", "nothing retired"))),
    };
    let because = reason
        .trim_end_matches('.')
        .trim_start_matches("because ")
        .trim();
    Ok(Ok(crate::rules::learn::Request {
        category: "OTHER".to_string(),
        instruction: format!("Stop following {rule_id} - because {because}."),
        why,
        supersedes: Vec::new(),
        // A retirement repeats nothing: it is no rule an agent follows.
        force: true,
        paths: Vec::new(),
        check: None,
        retirement: true,
        distinct: None,
    }))
}

/// `name:N`.
pub(crate) fn id(name: &str, number: u64) -> String {
    format!("{name}:{number}")
}

/// The text section `rules` prints after the local listing: a headline per source, then
/// one imported rule a line. With `all`, also the rules not active, and why.
pub(crate) fn render_text(layers: &Layers, filter: &Filter<'_>) -> String {
    let all = filter.all;
    let mut out = String::new();
    for note in &layers.left_out {
        let _ = writeln!(out, "Left out: {note} (run `autofix check`).");
    }

    for layer in &layers.layers {
        let statuses: Vec<Status> = (0..layer.rules.len())
            .map(|at| layers.status(layer, at))
            .collect();
        let active = statuses
            .iter()
            .filter(|s| matches!(s, Status::Active | Status::LockedKept(_)))
            .count();
        let _ = writeln!(
            out,
            "Imported from {} ({} {} @ {}): {active} active of {}. Local rules come first; a local rule supersedes `{}:N` only by saying so.",
            layer.name,
            crate::report::text::shown(&layer.url),
            layer.reference,
            short(&layer.commit),
            layer.rules.len(),
            layer.name,
        );
        for (rule, status) in layer.rules.iter().zip(&statuses) {
            if !filter.keeps(rule) {
                continue;
            }
            let note = match status {
                Status::Active => String::new(),
                Status::LockedKept(by) => format!(
                    " [locked: kept over {} (no manifest override)]",
                    numbers(by)
                ),
                _ if !all => continue,
                Status::NotSelected => " [not selected by the manifest]".into(),
                Status::InSource(by) => format!(
                    " [superseded by {}]",
                    by.iter()
                        .map(|n| id(&layer.name, *n))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Status::Locally(by) => format!(" [superseded by local {}]", numbers(by)),
            };
            let locked = if rule.locked && matches!(status, Status::Active) {
                " [locked]"
            } else {
                ""
            };
            let paths = filter.scope_note(rule);
            let _ = writeln!(
                out,
                "{} [{}] {} — {}{paths}{locked}{note}",
                id(&layer.name, rule.number),
                crate::report::text::shown(&rule.category),
                crate::report::text::shown(&with_qualified_refs(&layer.name, &rule.instruction)),
                crate::report::text::shown(&with_qualified_refs(&layer.name, &rule.why)),
            );
        }
    }
    if let Some(personal) = &layers.personal {
        render_personal(&mut out, personal, filter);
    }
    out
}

/// The `imported` array `rules --format json` adds when there are sources: one object a
/// source, each rule with its `id`, its status and what superseded it.
pub(crate) fn imported_json(layers: &Layers, filter: &Filter<'_>) -> serde_json::Value {
    use serde_json::json;
    let all = filter.all;
    let sources: Vec<serde_json::Value> = layers
        .layers
        .iter()
        .map(|layer| {
            let rules: Vec<serde_json::Value> = layer
                .rules
                .iter()
                .enumerate()
                .filter(|(_, rule)| filter.keeps(rule))
                .filter_map(|(at, rule)| {
                    let status = layers.status(layer, at);
                    let (active, why, by): (bool, &str, Vec<String>) = match &status {
                        Status::Active => (true, "active", Vec::new()),
                        Status::LockedKept(by) => {
                            (true, "locked", by.iter().map(ToString::to_string).collect())
                        }
                        Status::NotSelected => (false, "not_selected", Vec::new()),
                        Status::InSource(by) => (
                            false,
                            "superseded_in_source",
                            by.iter().map(|n| id(&layer.name, *n)).collect(),
                        ),
                        Status::Locally(by) => (
                            false,
                            "superseded_locally",
                            by.iter().map(ToString::to_string).collect(),
                        ),
                    };
                    (active || all).then(|| {
                        let mut object = json!({
                            "id": id(&layer.name, rule.number),
                            "number": rule.number,
                            "category": rule.category,
                            "instruction": rule.instruction,
                            "why": rule.why,
                            "locked": rule.locked,
                            "active": active,
                            "status": why,
                            "superseded_by": by,
                        });
                        // As a local rule's: `paths` only when scoped.
                        if !rule.paths.is_empty() {
                            object["paths"] = json!(rule.paths);
                        }
                        object
                    })
                })
                .collect();
            json!({
                "name": layer.name,
                "url": layer.url,
                "ref": layer.reference,
                "commit": layer.commit,
                "rules": rules,
            })
        })
        .collect();
    let personal = layers.personal.as_ref().map(|personal| {
        let rules: Vec<serde_json::Value> = personal
            .rules
            .iter()
            .filter(|rule| filter.keeps(rule))
            .filter(|rule| all || rule.superseded_by.is_empty())
            .map(|rule| {
                json!({
                    "id": id("user", rule.number),
                    "number": rule.number,
                    "category": rule.category,
                    "instruction": rule.instruction,
                    "why": rule.why,
                    "active": rule.superseded_by.is_empty(),
                    "superseded_by": rule.superseded_by.iter().map(|n| id("user", *n)).collect::<Vec<_>>(),
                })
            })
            .collect();
        json!({ "path": personal.path.display().to_string(), "rules": rules })
    });
    json!({ "sources": sources, "user": personal, "left_out": layers.left_out })
}

/// One rule's line: `org:3 [CAT] instruction — why`, then `note`; its references
/// qualified (`supersedes rule org:2`).
fn line(name: &str, rule: &Imported, note: &str) -> String {
    format!(
        "{} [{}] {} — {}{note}\n",
        id(name, rule.number),
        crate::report::text::shown(&rule.category),
        crate::report::text::shown(&with_qualified_refs(name, &rule.instruction)),
        crate::report::text::shown(&with_qualified_refs(name, &rule.why)),
    )
}

/// The personal section of `rules`: the user's own rules, said to be theirs only.
fn render_personal(out: &mut String, personal: &Personal, filter: &Filter<'_>) {
    let active = personal
        .rules
        .iter()
        .filter(|r| r.superseded_by.is_empty())
        .count();
    let _ = writeln!(
        out,
        "Personal rules from {} (yours only: never exported or committed): {active} active of {}.",
        personal.path.display(),
        personal.rules.len()
    );
    for rule in personal.rules.iter().filter(|rule| filter.keeps(rule)) {
        if rule.superseded_by.is_empty() {
            out.push_str(&line("user", rule, ""));
        } else if filter.all {
            let by: Vec<String> = rule.superseded_by.iter().map(|n| id("user", *n)).collect();
            out.push_str(&line(
                "user",
                rule,
                &format!(" [superseded by {}]", by.join(", ")),
            ));
        }
    }
}

fn numbers(by: &[u64]) -> String {
    let list: Vec<String> = by.iter().map(ToString::to_string).collect();
    format!(
        "rule{} {}",
        if by.len() == 1 { "" } else { "s" },
        list.join(", ")
    )
}

pub(crate) fn short(commit: &str) -> &str {
    &commit[..commit.len().min(12)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualified_markers() {
        let refs = |text| qualified_references(text);
        assert_eq!(
            refs("user preference (supersedes org:12)"),
            [("org".into(), 12)]
        );
        assert_eq!(
            refs("Replaces rules org:1, org:3 and team-a:7"),
            [("org".into(), 1), ("org".into(), 3), ("team-a".into(), 7)]
        );
        assert!(refs("supersedes rule 12").is_empty());
        assert!(refs("unsupersedes org:1").is_empty());
        assert!(refs("supersedes org:12b").is_empty());
        assert!(refs("see org:12").is_empty());
    }
}
