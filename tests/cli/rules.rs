//! `autofix learn`, `rules`, `check` and `where` through the binary.
