//! `rules`: the listing of the workspace's rules with the layers merged, the imported
//! rules (`org:N`) and the personal ones (`user:N`) after the local ones, as the CLI and
//! the MCP tool both print it.

use std::sync::Arc;

use crate::io::workspace::Workspace;
use crate::rules::listing::{self, Listing, MarkdownStyle};
use crate::rules::provenance::History;
use crate::rules::{RulesError, category};
use crate::sources::layers::{self, Layers};

/// What to list, as a front end was asked it.
#[derive(Debug, Default)]
pub(crate) struct Request {
    /// Only these categories (any case, brackets allowed); empty: all.
    pub categories: Vec<String>,
    /// Also the superseded rules.
    pub all: bool,
    /// Only the newest rules that fit this many tokens.
    pub budget: Option<usize>,
    /// Only the rules that apply to these files (relative to the current directory).
    pub for_paths: Vec<String>,
    /// Only the rules whose instruction or why holds this text.
    pub search: Option<String>,
    /// Each rule's origin from the rules file's git history.
    pub provenance: bool,
}

/// Why nothing is listed.
#[derive(Debug)]
pub(crate) enum ListError {
    /// A `for` path outside the workspace (the front end names its option).
    Paths(String),
    Rules(RulesError),
}

/// The local listing and the layers beside it.
pub(crate) struct Listed {
    pub listing: Listing,
    pub layers: Layers,
    query: listing::Query,
    /// The categories asked, normalized as the layers compare them.
    categories: Vec<String>,
}

/// Lists the workspace's rules and its layers.
pub(crate) fn list(workspace: &Workspace, request: Request) -> Result<Listed, ListError> {
    let paths = if request.for_paths.is_empty() {
        Vec::new()
    } else {
        (workspace.paths_inside(&request.for_paths))
            .map_err(|error| ListError::Paths(error.to_string()))?
    };
    let query = listing::Query {
        categories: request.categories,
        all: request.all,
        budget: request.budget,
        paths,
        search: request.search,
        provenance: (request.provenance).then(|| Arc::new(History::read(&workspace.rules_file))),
    };
    let listing = crate::ops::service::list(workspace, &query).map_err(ListError::Rules)?;
    let categories = query.categories.iter().map(|c| category::normalize(c));
    Ok(Listed {
        listing,
        layers: layers::for_workspace(workspace),
        categories: categories.collect(),
        query,
    })
}

impl Listed {
    fn filter(&self) -> layers::Filter<'_> {
        layers::Filter {
            categories: &self.categories,
            all: self.query.all,
            paths: &self.query.paths,
            search: self.query.search.as_deref(),
        }
    }

    /// The text listing: the local rules, then each layer's.
    pub(crate) fn text(&self) -> String {
        let mut text = self.listing.plain_text();
        if !self.layers.is_empty() {
            text.push_str(&layers::render_text(&self.layers, &self.filter()));
        }
        text
    }

    /// The JSON document: the local listing's, with an `imported` member when there are layers.
    pub(crate) fn json(&self) -> serde_json::Value {
        let mut json = serde_json::to_value(&self.listing).expect("a listing always serialises");
        if !self.layers.is_empty() {
            json["imported"] = layers::imported_json(&self.layers, &self.filter());
        }
        json
    }

    /// The Markdown listing, for pasting into a committed file: the imported rules, never
    /// the personal ones, each under its scope's heading beside the local ones, as an
    /// exported file has them.
    pub(crate) fn markdown(&self) -> String {
        let style = MarkdownStyle::PLAIN;
        let listing = &self.listing;
        let mut text = listing::to_string(|out| listing.write_markdown_head(out, &style));
        let filter = self.filter();
        let mut items: Vec<(String, String)> = (self.layers.active())
            .filter(|(_, rule)| filter.keeps(rule))
            .map(|(layer, rule)| {
                let heading = listing::heading_for(&rule.paths);
                (
                    heading,
                    layers::markdown_item(&layer.name, rule, style.escape),
                )
            })
            .collect();
        if !items.is_empty() {
            text.push_str(&format!("{}\n\n", layers::EXPORT_NOTE));
        }
        items.extend(listing.markdown_items(&style));
        text.push_str(&listing::group_by_scope(&items));
        text
    }
}

/// What `rules --format hook` prints for `agent`: the session hook's text with the active
/// rules of these categories (all of them with `all`), cut to `budget`. An instructions
/// file the agent loads carries the rules already: then only the personal rules, which no
/// exported file carries (and Gemini CLI would show a second copy to the model as data,
/// not instructions).
pub(crate) fn hook(
    workspace: &Workspace,
    agent: crate::export::hook::Agent,
    categories: Vec<String>,
    all: bool,
    budget: Option<usize>,
) -> Result<String, RulesError> {
    use crate::export::hook;
    let path = &workspace.rules_file;
    let delivered = crate::export::delivers(&workspace.root, path, agent.reader());
    // The personal rules, and the imported ones where none is delivered.
    let layers = layers::for_workspace(workspace).for_hook(&categories, !delivered);
    let document = if delivered {
        None
    } else {
        crate::rules::load(workspace.shown_path())?
    };
    let Some(document) =
        document.or_else(|| (!layers.is_empty()).then(crate::rules::Document::default))
    else {
        return Ok(hook::empty(agent).to_string());
    };
    let query = listing::Query {
        categories,
        all,
        ..listing::Query::default()
    };
    let shown = crate::io::workspace::display_path(path, &workspace.root);
    let listing = listing::build(shown, Some(Arc::new(document)), &query);
    Ok(hook::render(agent, &listing, budget, &layers))
}
