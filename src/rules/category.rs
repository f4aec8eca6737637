//! Rule categories: the fixed list, and the normalisation the writer applies
//! (`[code]` → `CODE`).

use std::fmt;

/// The categories `learn` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Category {
    Style,
    Code,
    Arch,
    Tool,
    Process,
    Data,
    Ux,
    Other,
}

impl Category {
    pub(crate) const ALL: [Category; 8] = [
        Category::Style,
        Category::Code,
        Category::Arch,
        Category::Tool,
        Category::Process,
        Category::Data,
        Category::Ux,
        Category::Other,
    ];

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Category::Style => "STYLE",
            Category::Code => "CODE",
            Category::Arch => "ARCH",
            Category::Tool => "TOOL",
            Category::Process => "PROCESS",
            Category::Data => "DATA",
            Category::Ux => "UX",
            Category::Other => "OTHER",
        }
    }

    /// Parses a category in any case, with or without surrounding brackets.
    pub(crate) fn parse(text: &str) -> Option<Category> {
        let name = normalize(text);
        Category::ALL.into_iter().find(|c| c.as_str() == name)
    }

    /// The allowed names, for messages: `STYLE, CODE, ...`.
    pub(crate) fn list() -> String {
        Category::ALL.map(Category::as_str).join(", ")
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The bare upper-case form of a category as written in a file: trimmed, brackets removed.
pub(crate) fn normalize(text: &str) -> String {
    let trimmed = text.trim();
    let bare = trimmed
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .unwrap_or(trimmed);
    bare.trim().to_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_case_and_brackets() {
        assert_eq!(Category::parse("code"), Some(Category::Code));
        assert_eq!(Category::parse(" [Ux] "), Some(Category::Ux));
        assert_eq!(Category::parse("UI"), None);
        assert_eq!(normalize("[ui]"), "UI");
    }
}
