//! `autofix preset ...` through the binary.
