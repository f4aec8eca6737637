//! Terminal color: whether to use it (`--color`, `NO_COLOR`, a terminal) and the few
//! styles the text renderers need. JSON and GitHub output are never colored.

use std::io::IsTerminal;

/// The user's `--color` choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

/// Applies ANSI styles when enabled, and passes text through otherwise.
#[derive(Clone, Copy, Debug, Default)]
pub struct Painter {
    enabled: bool,
}

impl Painter {
    pub fn new(enabled: bool) -> Self {
        Painter { enabled }
    }

    /// Decides for a stream: `always` and `never` win; `auto` colors a terminal unless
    /// `NO_COLOR` is set to a non-empty value (no-color.org).
    pub fn for_stream(choice: ColorChoice, stream: &impl IsTerminal) -> Self {
        let enabled = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && stream.is_terminal()
            }
        };
        Painter { enabled }
    }

    fn style(&self, code: &str, text: &str) -> String {
        if self.enabled {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    pub fn error(&self, text: &str) -> String {
        self.style("1;31", text)
    }

    pub fn warning(&self, text: &str) -> String {
        self.style("1;33", text)
    }

    pub fn good(&self, text: &str) -> String {
        self.style("32", text)
    }

    pub fn bold(&self, text: &str) -> String {
        self.style("1", text)
    }

    pub fn dim(&self, text: &str) -> String {
        self.style("2", text)
    }
}
