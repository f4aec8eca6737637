//! Terminal color: whether to use it (`--color`, `NO_COLOR`, a terminal) and the few
//! styles the text renderers need. JSON and GitHub output are never colored.

use std::io::IsTerminal;

/// The user's `--color` choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

/// Applies ANSI styles when enabled, and passes text through otherwise.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Painter {
    enabled: bool,
}

impl Painter {
    pub(crate) fn new(enabled: bool) -> Self {
        Painter { enabled }
    }

    /// Decides for a stream: `always` and `never` win; `auto` asks anstream, which colors a
    /// terminal unless `NO_COLOR` is set (no-color.org), `CLICOLOR=0` or `TERM=dumb`, and
    /// honours `CLICOLOR_FORCE`.
    pub(crate) fn for_stream(
        choice: ColorChoice,
        stream: &impl anstream::stream::RawStream,
    ) -> Self {
        let enabled = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                anstream::AutoStream::choice(stream) != anstream::ColorChoice::Never
            }
        };
        Painter { enabled }
    }

    fn style(self, style: anstyle::Style, text: &str) -> String {
        if self.enabled {
            format!("{style}{text}{style:#}")
        } else {
            text.to_string()
        }
    }

    pub(crate) fn error(self, text: &str) -> String {
        self.style(anstyle::AnsiColor::Red.on_default().bold(), text)
    }

    pub(crate) fn warning(self, text: &str) -> String {
        self.style(anstyle::AnsiColor::Yellow.on_default().bold(), text)
    }

    pub(crate) fn good(self, text: &str) -> String {
        self.style(anstyle::AnsiColor::Green.on_default(), text)
    }

    pub(crate) fn bold(self, text: &str) -> String {
        self.style(anstyle::Style::new().bold(), text)
    }

    pub(crate) fn dim(self, text: &str) -> String {
        self.style(anstyle::Style::new().dimmed(), text)
    }

    /// A rule's category: cyan, so the eye finds it in a long listing.
    pub(crate) fn category(self, text: &str) -> String {
        self.style(anstyle::AnsiColor::Cyan.on_default(), text)
    }

    pub(crate) fn is_enabled(self) -> bool {
        self.enabled
    }
}

/// The width to wrap text at: `COLUMNS` when set to a number, else the terminal's width
/// when `stream` is one, else `None` (a pipe or a file: no wrapping). It takes standard
/// output itself, which `terminal_size` reads by its fd on unix and its handle on Windows.
pub(crate) fn terminal_width(stream: &std::io::Stdout) -> Option<usize> {
    if let Some(columns) = crate::io::settings::get().columns {
        return Some(columns);
    }
    if !stream.is_terminal() {
        return None;
    }
    terminal_size::terminal_size_of(stream)
        .map(|(width, _)| usize::from(width.0))
        .filter(|&width| width > 0)
}
