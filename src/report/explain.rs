//! `autofix explain CODE`: what a diagnostic code means, why it matters, how to fix it and
//! an example — the same text as the diagnostics page's table and the SARIF rule help, from the one
//! table in [`crate::report::diagnostics`].

use std::fmt::Write as _;

use crate::report::diagnostics::Code;

/// The explanation as plain text.
pub(crate) fn text(code: Code) -> String {
    let mut out = format!("{} ({})\n\n", code.as_str(), code.severity().as_str());
    let _ = writeln!(out, "What it means: {}\n", code.summary());
    let _ = writeln!(out, "Why it matters: {}\n", code.why());
    let _ = writeln!(out, "How to fix it: {}\n", code.fix());
    out.push_str("Example:\n");
    for line in code.example().lines() {
        let _ = writeln!(out, "    {line}");
    }
    out
}

/// The explanation as Markdown (SARIF `help.markdown`).
pub(crate) fn markdown(code: Code) -> String {
    format!(
        "**{}** ({})\n\n{}\n\n**Why it matters.** {}\n\n**How to fix it.** {}\n\n```text\n{}\n```\n",
        code.as_str(),
        code.severity().as_str(),
        code.summary(),
        code.why(),
        code.fix(),
        code.example()
    )
}

/// One line a code: name, severity, meaning.
pub(crate) fn list() -> String {
    let width = Code::ALL
        .iter()
        .map(|c| c.as_str().len())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for code in Code::ALL {
        let _ = writeln!(
            out,
            "{:<width$}  {:<7}  {}",
            code.as_str(),
            code.severity().as_str(),
            code.summary()
        );
    }
    out
}

/// The known codes closest to `name` (by edit distance), for "did you mean".
pub(crate) fn closest(name: &str) -> Vec<&'static str> {
    crate::report::text::closest(name, Code::ALL.iter().map(|code| code.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        assert_eq!(closest("invalid-jsn"), ["invalid-json"]);
        assert_eq!(closest("skill")[0], "command-skill-not-in-requirements");
        assert!(closest("zzzzzzzzzzzzzzzzzzzz").is_empty());
    }
}
