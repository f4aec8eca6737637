//! The `autofix` skill: one `SKILL.md`, written to `.agents/skills/autofix/` and
//! `.claude/skills/autofix/` (or, where rulesync or Ruler generates those, to its skills
//! folder), generated from the CLI's own category list so it never drifts from what
//! `learn` accepts.

use crate::export::markdown;
use crate::rules::Category;

/// Bumped whenever the text changes meaning, so an old copy is recognisably old.
const VERSION: &str = "5";

/// The skill's name: lowercase, at most 64 characters, equal to its folder.
pub(crate) const NAME: &str = "autofix";

/// Where the skill goes, relative to the root.
pub(crate) const PATHS: [&str; 2] = [
    ".agents/skills/autofix/SKILL.md",
    ".claude/skills/autofix/SKILL.md",
];

const DESCRIPTION: &str = "Use whenever the user corrects you, states a convention, or a bug \
teaches a lesson, and before editing a file: records rules with `autofix learn` and lists the \
rules for a file with `autofix rules --for PATH`, so that the same correction is never needed \
twice.";

/// The description as a YAML double-quoted scalar (a JSON string is one): unquoted, its
/// `": "` would start a mapping, and strict YAML readers (PyYAML, GitHub Copilot CLI) reject
/// the whole frontmatter.
fn quoted_description() -> String {
    serde_json::to_string(DESCRIPTION).expect("strings always serialise")
}

/// The `SKILL.md` text for a repository whose rules file is `rules_file` (relative). Short
/// on purpose: the rules themselves reach the agent through its instructions files (or the
/// session hook), so the skill only says what those cannot.
pub(crate) fn render(rules_file: &str) -> String {
    let categories = Category::ALL.map(Category::as_str).join(", ");
    let description = quoted_description();
    format!(
        "---
name: {NAME}
description: {description}
metadata:
  generator: autofix
  autofix-skill-version: \"{VERSION}\"
---

# autofix: the project's rules memory

The project's rules, numbered, are recorded in `{rules_file}` and are already in your
instructions (if they are not, run `autofix rules`); on conflict, the higher-numbered rule
wins.

- **Before editing a file**, run `autofix rules --for PATH`: some rules apply only to some
  paths.
- **Every correction** the user makes (and every convention stated, every lesson from a
  bug) becomes a rule, before you go on:

  ```sh
  autofix learn -c CATEGORY -w \"WHY\" \"Always/Never do X - because Y.\"
  ```

  CATEGORY is one of {categories}; WHY is brief (\"user preference\", \"bug lesson\");
  add `--supersedes N` when it replaces rule N. `autofix learn` lists the recorded rules
  near the new one: if it replaces one of them, learn it again with `--supersedes N`. Then
  redo the work so it follows the rule, and acknowledge with the line `autofix learn`
  prints. `/learn <the rule>` is the same.
- A note from `autofix hook user-prompt` (`note 3f9a2c. This prompt looks like a
  correction…`) is a question, not an order: a local classifier noticed the prompt, and a
  sentence model found the recorded rules nearest it. You read the whole conversation, so
  you judge, and answer the note with the one command it gives for your verdict: the user
  said a shown rule again (follow it: `autofix verdict ID restated N`), changed one
  (`autofix learn \"…\" --supersedes N --note ID`), said something new (`autofix learn
  \"…\" --note ID`), or none of these (`autofix verdict ID nothing`). `autofix ledger`
  counts your answers. When the note says the user had to say a rule again several times,
  give that rule a check if a pattern can catch a break of it. Only a note that says the
  user repeated a rule word for word is a verdict of its own: follow it.

Never edit `{rules_file}` or the generated rules (the autofix-rules block, files stamped
`autofix:owned`) by hand, and never delete a rule: supersede it.
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
