//! The `autofix` skill: one `SKILL.md`, written to `.agents/skills/autofix/` and
//! `.claude/skills/autofix/` (or, where rulesync or Ruler generates those, to its skills
//! folder), generated from the CLI's own category list so it never drifts from what
//! `learn` accepts.

use crate::export::markdown;
use crate::rules::Category;

/// Bumped whenever the text changes meaning, so an old copy is recognisably old.
const VERSION: &str = "3";

/// The skill's name: lowercase, at most 64 characters, equal to its folder.
pub(crate) const NAME: &str = "autofix";

/// Where the skill goes, relative to the root.
pub(crate) const PATHS: [&str; 2] = [
    ".agents/skills/autofix/SKILL.md",
    ".claude/skills/autofix/SKILL.md",
];

const DESCRIPTION: &str = "Use at the start of every coding task in this repository, and \
whenever the user corrects you, states a convention, or a bug teaches a lesson. Loads the \
project's recorded rules with `autofix rules` and records new ones with `autofix learn`, so \
that the same correction is never needed twice.";

/// The `SKILL.md` text for a repository whose rules file is `rules_file` (relative).
pub(crate) fn render(rules_file: &str) -> String {
    let categories = Category::ALL.map(Category::as_str).join(", ");
    format!(
        "---
name: {NAME}
description: {DESCRIPTION}
metadata:
  generator: autofix
  autofix-skill-version: \"{VERSION}\"
---

# autofix: the project's rules memory

This repository records corrections, conventions and bug lessons as numbered rules in
`{rules_file}`. A newer rule supersedes an older one; on conflict, the higher-numbered
rule wins.

## Before every task

Run `autofix rules` and treat every rule it prints as a hard constraint.

## When the user corrects you

1. Record the correction as one imperative rule:

   ```sh
   autofix learn -c CATEGORY -w \"WHY\" \"Always/Never do X - because Y.\"
   ```

   CATEGORY is one of {categories}. WHY is brief: \"user preference\",
   \"codebase pattern\", \"framework limitation\", \"bug lesson\".
2. Redo the work so that it follows the rule.
3. Acknowledge with the line `autofix learn` prints: \"Learned rule #N ([CATEGORY]): ...\".

`autofix learn` also refreshes every copy exported before (`AGENTS.md`, `CLAUDE.md`, the
agents' rule folders), so agents never read a stale list: commit those files together
with `{rules_file}`. The user may also type `/learn <the rule>`: treat it as a correction.

## When a note says the prompt looks like a correction

With the hooks installed, `autofix hook user-prompt` adds a note to a prompt that reads
like a correction or a convention (\"no, use pnpm not npm\", \"from now on ...\"). It is
a reminder, not an order: if the user did state a lasting rule, record it as above
before continuing (with `--supersedes N` when it replaces rule N); if it was a one-off
instruction, carry on. The note comes from a simple local classifier, so it can be wrong.
`autofix reflect` lists the corrections of earlier sessions that no rule states yet.

## To change a rule

Rules are never deleted. Learn the new rule with `--supersedes N` (repeatable); the old
one stops being active.

## Never

- Edit `{rules_file}` by hand: `autofix learn` numbers, validates and writes it safely.
- Edit the generated rules in `AGENTS.md`, `CLAUDE.md` or the agents' rule folders (the
  autofix-rules block and files stamped `autofix:owned`): run `autofix export` instead.
- Delete a rule: supersede it.
"
    )
}

/// Whether an existing `SKILL.md` is ours (`generator: autofix` in its frontmatter).
pub(crate) fn is_ours(source: &str) -> bool {
    markdown::frontmatter_value(&markdown::lines(source), "generator") == Some("autofix")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_follows_the_skill_rules() {
        let text = render(".agents/autofix.json");
        let lines = markdown::lines(&text);
        assert_eq!(markdown::frontmatter_value(&lines, "name"), Some(NAME));
        assert!(NAME.len() <= 64 && NAME.bytes().all(|b| b.is_ascii_lowercase()));
        for path in PATHS {
            assert!(path.ends_with(&format!("/{NAME}/SKILL.md")));
        }
        let description = markdown::frontmatter_value(&lines, "description").unwrap();
        assert_eq!(description, DESCRIPTION);
        assert!(description.len() <= 1024);
        assert!(is_ours(&text));
        for category in Category::ALL {
            assert!(text.contains(category.as_str()));
        }
        assert!(!crate::export::block::mentions_markers(&text));
        assert!(!is_ours("---\nname: autofix\n---\n"));
    }
}
