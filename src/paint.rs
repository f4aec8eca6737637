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

    /// Decides for a stream: `always` and `never` win; `auto` colors a terminal unless
    /// `NO_COLOR` is set to a non-empty value (no-color.org).
    pub(crate) fn for_stream(choice: ColorChoice, stream: &impl IsTerminal) -> Self {
        let enabled = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && stream.is_terminal()
            }
        };
        Painter { enabled }
    }

    fn style(self, code: &str, text: &str) -> String {
        if self.enabled {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    pub(crate) fn error(self, text: &str) -> String {
        self.style("1;31", text)
    }

    pub(crate) fn warning(self, text: &str) -> String {
        self.style("1;33", text)
    }

    pub(crate) fn good(self, text: &str) -> String {
        self.style("32", text)
    }

    pub(crate) fn bold(self, text: &str) -> String {
        self.style("1", text)
    }

    pub(crate) fn dim(self, text: &str) -> String {
        self.style("2", text)
    }

    /// A rule's category: cyan, so the eye finds it in a long listing.
    pub(crate) fn category(self, text: &str) -> String {
        self.style("36", text)
    }

    pub(crate) fn is_enabled(self) -> bool {
        self.enabled
    }
}

/// The width to wrap text at: `COLUMNS` when set to a number, else the terminal's width
/// when `stream` is one, else `None` (a pipe or a file: no wrapping).
pub(crate) fn terminal_width(stream: &(impl IsTerminal + std::os::fd::AsRawFd)) -> Option<usize> {
    if let Some(columns) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse().ok())
    {
        return Some(columns).filter(|&c: &usize| c > 0);
    }
    if !stream.is_terminal() {
        return None;
    }
    // SAFETY: TIOCGWINSZ only writes a `winsize` into the struct we pass, on a descriptor
    // we hold for the duration of the call.
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::ioctl(stream.as_raw_fd(), libc::TIOCGWINSZ, &mut size) } == 0;
    (ok && size.ws_col > 0).then_some(usize::from(size.ws_col))
}
