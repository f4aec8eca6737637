//! Context budgets: how many tokens a listing costs, and which of the newest rules fit a
//! budget. A token is estimated as four characters, the rule of thumb OpenAI gives for
//! English text (<https://help.openai.com/en/articles/4936856-what-are-tokens-and-how-to-count-them>);
//! it errs high for code-heavy rules in no language in particular, which is the safe side.

/// The most an agent reads of a file (each export target declares its own).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Budget {
    /// At most this many bytes of the whole file.
    Bytes(usize, &'static str),
    /// At most this many characters of the whole file.
    Chars(usize, &'static str),
    /// At most this many characters of the session hook's output, as the hook renders it.
    HookChars(usize, &'static str),
}

impl Budget {
    /// The limit, in the budget's unit.
    pub(crate) fn limit(self) -> usize {
        match self {
            Budget::Bytes(limit, _) | Budget::Chars(limit, _) | Budget::HookChars(limit, _) => {
                limit
            }
        }
    }

    /// The file's size in the budget's unit, and the limit.
    pub(crate) fn measure(self, text: &str) -> (usize, usize) {
        match self {
            Budget::Bytes(limit, _) => (text.len(), limit),
            Budget::Chars(limit, _) | Budget::HookChars(limit, _) => (text.chars().count(), limit),
        }
    }

    /// A size in the budget's unit: "5000295 bytes", "12001 characters".
    pub(crate) fn amount(self, size: usize) -> String {
        match self {
            Budget::Bytes(..) => crate::report::text::counted(size, "byte"),
            Budget::Chars(..) | Budget::HookChars(..) => {
                crate::report::text::counted(size, "character")
            }
        }
    }

    pub(crate) fn describe(self) -> &'static str {
        match self {
            Budget::Bytes(_, text) | Budget::Chars(_, text) | Budget::HookChars(_, text) => text,
        }
    }
}

/// What the rules delivered to the agents take against one budget: how many rules, their
/// size in the budget's unit, and their estimated tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Delivered {
    pub rules: usize,
    pub size: usize,
    pub tokens: usize,
}

/// The estimated tokens of `chars` characters of text.
pub(crate) fn tokens(chars: usize) -> usize {
    chars.div_ceil(4)
}

/// The middle of the line that says what a cut listing leaves out; the prompt hook knows
/// the line by it and its end (`capture::injected`) when an agent pastes it back.
pub(crate) const OMITTED: &str = " omitted to fit ";
/// The end of that line.
pub(crate) const OMITTED_END: &str = "`autofix rules` lists them all.)";

/// The line that says what a cut listing leaves out and how to see it.
pub(crate) fn omitted_note(omitted: usize, to_fit: &str) -> String {
    format!(
        "({omitted} older rule{}{OMITTED}{to_fit}; {OMITTED_END}",
        if omitted == 1 { "" } else { "s" }
    )
}

/// How many of the oldest of `count` lines to leave out so that `fits(omitted)` holds;
/// `fits` must hold whenever it holds for fewer lines shown. All of them when nothing fits.
pub(crate) fn fit_newest(count: usize, fits: impl Fn(usize) -> bool) -> usize {
    if fits(0) {
        return 0;
    }
    let (mut low, mut high) = (1, count);
    while low < high {
        let middle = low + (high - low) / 2;
        if fits(middle) {
            high = middle;
        } else {
            low = middle + 1;
        }
    }
    high
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_characters_a_token_rounded_up() {
        assert_eq!(tokens(0), 0);
        assert_eq!(tokens(1), 1);
        assert_eq!(tokens(8), 2);
        assert_eq!(tokens(9), 3);
    }

    #[test]
    fn the_fewest_lines_are_left_out() {
        let sizes = [5, 5, 5, 5];
        let fits =
            |limit: usize| move |omitted: usize| sizes[omitted..].iter().sum::<usize>() <= limit;
        assert_eq!(fit_newest(4, fits(20)), 0);
        assert_eq!(fit_newest(4, fits(12)), 2);
        assert_eq!(fit_newest(4, fits(0)), 4);
        assert_eq!(
            omitted_note(1, "100 tokens"),
            "(1 older rule omitted to fit 100 tokens; `autofix rules` lists them all.)"
        );
    }
}
