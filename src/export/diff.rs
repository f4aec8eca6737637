//! A unified diff of two texts, line by line, for `export --diff`: similar's line diff
//! (Myers), in hunks with three lines of context.

/// The diff from `old` to `new` (each with `\n` endings), labelled `a/<label>` and
/// `b/<label>` (`/dev/null` for a side that does not exist). Empty when they are equal.
pub(crate) fn unified(old: Option<&str>, new: Option<&str>, label: &str) -> String {
    let (before, after) = (old.unwrap_or(""), new.unwrap_or(""));
    if before == after {
        return String::new();
    }
    let side = |text: Option<&str>, prefix: &str| match text {
        Some(_) => format!("{prefix}/{label}"),
        None => "/dev/null".to_string(),
    };
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&side(old, "a"), &side(new, "b"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_hunk_with_context() {
        let old = "1\n2\n3\n4\n5\n6\n7\n8\n";
        let new = "1\n2\n3\n4\nfive\n6\n7\n8\n";
        assert_eq!(
            unified(Some(old), Some(new), "f.md"),
            "--- a/f.md\n+++ b/f.md\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
        );
        assert_eq!(unified(Some(old), Some(old), "f.md"), "");
        assert_eq!(
            unified(None, Some("a\n"), "f.md"),
            "--- /dev/null\n+++ b/f.md\n@@ -0,0 +1 @@\n+a\n"
        );
        assert_eq!(
            unified(Some("a\n"), None, "f.md"),
            "--- a/f.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n"
        );
    }

    #[test]
    fn two_changed_lines_in_a_large_file_are_two_small_hunks() {
        let old: String = (0..20_000).map(|n| format!("rule {n}\n")).collect();
        // Two changes far apart: the whole middle differs for no prefix or suffix trim.
        let new = old
            .replace("rule 100\n", "rule one hundred\n")
            .replace("rule 19900\n", "rule nineteen thousand nine hundred\n");
        let diff = unified(Some(&old), Some(&new), "AGENTS.md");
        let changed = diff
            .lines()
            .skip(2)
            .filter(|l| l.starts_with(['-', '+']))
            .count();
        assert_eq!(changed, 4, "{diff}");
        assert_eq!(diff.matches("\n@@ ").count(), 2);
    }
}
