//! `autofix explain CODE`: what a diagnostic code means, why it matters, how to fix it and
//! an example — the same text as the diagnostics page's table and the SARIF rule help, from the one
//! table in [`crate::diagnostics`].

use std::fmt::Write as _;

use crate::diagnostics::Code;

/// The explanation as plain text.
pub fn text(code: Code) -> String {
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
pub fn markdown(code: Code) -> String {
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
pub fn list() -> String {
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
pub fn closest(name: &str) -> Vec<&'static str> {
    let name = name.to_ascii_lowercase();
    let mut scored: Vec<(usize, &'static str)> = Code::ALL
        .iter()
        .map(|code| {
            let candidate = code.as_str();
            let distance = if candidate.contains(name.as_str()) && !name.is_empty() {
                0
            } else {
                edit_distance(&name, candidate)
            };
            (distance, candidate)
        })
        .collect();
    scored.sort();
    // A third of the name may be wrong (at least two edits), as with cargo's suggestions.
    let limit = (name.len() / 3).max(2);
    scored
        .into_iter()
        .take_while(|(d, _)| *d <= limit)
        .take(3)
        .map(|(_, c)| c)
        .collect()
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
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
