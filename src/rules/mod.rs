//! The rules half: the `autofix.json` format, precedence ("newest wins"), the lint, the
//! locked atomic append, and the renderers of `rules`.
