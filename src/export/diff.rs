//! A unified diff of two texts, line by line, for `export --diff`: common lines trimmed at
//! both ends, a longest-common-subsequence for the rest (plain remove/add past a size
//! limit), hunks with three lines of context.

use std::fmt::Write as _;

const CONTEXT: usize = 3;
/// Beyond this many cells the middle is shown as removed then added.
const LCS_LIMIT: usize = 4_000_000;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Keep,
    Remove,
    Add,
}

/// The diff from `old` to `new` (each with `\n` endings), labelled `a/<label>` and
/// `b/<label>` (`/dev/null` for a side that does not exist). Empty when they are equal.
pub(crate) fn unified(old: Option<&str>, new: Option<&str>, label: &str) -> String {
    let old_lines = split(old.unwrap_or(""));
    let new_lines = split(new.unwrap_or(""));
    let script = edit_script(&old_lines, &new_lines);
    if script.iter().all(|(op, _)| *op == Op::Keep) {
        return String::new();
    }
    let mut out = String::new();
    let side = |text: Option<&str>, prefix: &str| match text {
        Some(_) => format!("{prefix}/{label}"),
        None => "/dev/null".to_string(),
    };
    let _ = writeln!(out, "--- {}", side(old, "a"));
    let _ = writeln!(out, "+++ {}", side(new, "b"));
    // Positions in the old and new files before each script entry.
    let mut positions = Vec::with_capacity(script.len() + 1);
    let (mut o, mut n) = (0, 0);
    for (op, _) in &script {
        positions.push((o, n));
        match op {
            Op::Keep => {
                o += 1;
                n += 1;
            }
            Op::Remove => o += 1,
            Op::Add => n += 1,
        }
    }
    positions.push((o, n));
    let changed: Vec<usize> = (0..script.len())
        .filter(|&i| script[i].0 != Op::Keep)
        .collect();
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(CONTEXT);
        let mut last = changed[k];
        while k + 1 < changed.len() && changed[k + 1] <= last + 2 * CONTEXT + 1 {
            k += 1;
            last = changed[k];
        }
        let end = (last + CONTEXT + 1).min(script.len());
        let (o_start, n_start) = positions[start];
        let (o_end, n_end) = positions[end];
        let range = |start: usize, count: usize| {
            if count == 0 {
                format!("{start},0")
            } else if count == 1 {
                format!("{}", start + 1)
            } else {
                format!("{},{count}", start + 1)
            }
        };
        let _ = writeln!(
            out,
            "@@ -{} +{} @@",
            range(o_start, o_end - o_start),
            range(n_start, n_end - n_start)
        );
        for (op, line) in &script[start..end] {
            let mark = match op {
                Op::Keep => ' ',
                Op::Remove => '-',
                Op::Add => '+',
            };
            let _ = writeln!(out, "{mark}{line}");
        }
        k += 1;
    }
    out
}

fn split(text: &str) -> Vec<&str> {
    text.lines().collect()
}

fn edit_script<'a>(old: &[&'a str], new: &[&'a str]) -> Vec<(Op, &'a str)> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (a, b) = (
        &old[prefix..old.len() - suffix],
        &new[prefix..new.len() - suffix],
    );
    let mut script: Vec<(Op, &str)> = old[..prefix].iter().map(|l| (Op::Keep, *l)).collect();
    if a.len().saturating_mul(b.len()) <= LCS_LIMIT {
        // lengths[i][j]: the LCS of a[i..] and b[j..].
        let width = b.len() + 1;
        let mut lengths = vec![0u32; (a.len() + 1) * width];
        for i in (0..a.len()).rev() {
            for j in (0..b.len()).rev() {
                lengths[i * width + j] = if a[i] == b[j] {
                    lengths[(i + 1) * width + j + 1] + 1
                } else {
                    lengths[(i + 1) * width + j].max(lengths[i * width + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            if i < a.len() && j < b.len() && a[i] == b[j] {
                script.push((Op::Keep, a[i]));
                i += 1;
                j += 1;
            } else if i < a.len()
                && (j == b.len() || lengths[(i + 1) * width + j] >= lengths[i * width + j + 1])
            {
                // Removals first, as diff(1) shows them.
                script.push((Op::Remove, a[i]));
                i += 1;
            } else {
                script.push((Op::Add, b[j]));
                j += 1;
            }
        }
    } else {
        script.extend(a.iter().map(|l| (Op::Remove, *l)));
        script.extend(b.iter().map(|l| (Op::Add, *l)));
    }
    script.extend(old[old.len() - suffix..].iter().map(|l| (Op::Keep, *l)));
    script
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
}
