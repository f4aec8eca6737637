//! Context budgets: how many tokens a listing costs, and which of the newest rules fit a
//! budget. A token is estimated as four characters, the rule of thumb OpenAI gives for
//! English text (<https://help.openai.com/en/articles/4936856-what-are-tokens-and-how-to-count-them>);
//! it errs high for code-heavy rules in no language in particular, which is the safe side.

/// The estimated tokens of `chars` characters of text.
pub(crate) fn tokens(chars: usize) -> usize {
    chars.div_ceil(4)
}

/// The line that says what a cut listing leaves out and how to see it.
pub(crate) fn omitted_note(omitted: usize, to_fit: &str) -> String {
    format!(
        "({omitted} older rule{} omitted to fit {to_fit}; `autofix rules` lists them all.)",
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
