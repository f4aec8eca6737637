//! Rule scopes: the optional `Paths` of a rule, globs relative to the workspace root read
//! the way `.gitignore` reads them (<https://git-scm.com/docs/gitignore#_pattern_format>):
//! `*` and `?` stay within a path segment, `**` spans segments, `[a-z]`/`[!a-z]` are
//! classes, `\` escapes, a pattern without a `/` (other than a trailing one) matches at any
//! depth, a leading `/` anchors, a trailing `/` matches only a directory, and a pattern
//! that matches a directory covers everything below it. In a list, the last glob that
//! matches decides, so `!` excludes what an earlier glob included.
//!
//! Braces are expanded first, as the agents that read the exported globs expand them
//! (`*.{ts,tsx}` is `*.ts` and `*.tsx`): Claude Code's `paths:`
//! (<https://code.claude.com/docs/en/memory#path-specific-rules>), Copilot's `applyTo`
//! (<https://docs.github.com/en/copilot/how-tos/configure-custom-instructions-in-your-ide/add-repository-instructions-in-your-ide>),
//! Kiro, Continue and Cline match with minimatch-style globs. A group without a comma
//! (`{name}`) stays literal, as there. A comma outside braces is refused: Cursor's and
//! Windsurf's `globs:` and Copilot's `applyTo` are comma-joined lists, so it would split
//! the glob in two.

use std::fmt;

/// One glob of a scope, parsed: its brace alternatives, each a gitignore-style pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Glob {
    /// As written, `!` included.
    text: String,
    negated: bool,
    alternatives: Vec<Pattern>,
}

/// One alternative of a glob, without braces.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pattern {
    /// Only a directory (the pattern ended in `/`): matches the folders a path lies in.
    dir_only: bool,
    segments: Vec<Segment>,
}

/// The most alternatives a glob's braces may expand to.
pub(crate) const MAX_ALTERNATIVES: usize = 64;

/// The longest glob, in bytes: a path pattern, not a text (and it keeps the braces'
/// expansion, which copies the glob once per alternative, small).
pub(crate) const MAX_GLOB_BYTES: usize = 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Segment {
    /// `**`: any number of segments, none included.
    AnyDepth,
    Part(Vec<Token>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Char(char),
    /// `*`: any run of characters but `/`.
    Star,
    /// `?`: one character but `/`.
    One,
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

/// Why a glob was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GlobError {
    pub glob: String,
    pub problem: GlobProblem,
}

/// What is wrong with a glob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GlobProblem {
    Control,
    Empty,
    Spaces,
    EmptySegment,
    Dots,
    LoneBackslash,
    Unclosed,
    BackwardRange,
    OnlyExcludes,
    Invisible,
    Comma,
    TooManyAlternatives,
    TooLong,
}

impl GlobProblem {
    #[cfg(test)]
    pub(crate) const ALL: [GlobProblem; 13] = [
        GlobProblem::Control,
        GlobProblem::Empty,
        GlobProblem::Spaces,
        GlobProblem::EmptySegment,
        GlobProblem::Dots,
        GlobProblem::LoneBackslash,
        GlobProblem::Unclosed,
        GlobProblem::BackwardRange,
        GlobProblem::OnlyExcludes,
        GlobProblem::Invisible,
        GlobProblem::Comma,
        GlobProblem::TooManyAlternatives,
        GlobProblem::TooLong,
    ];

    /// The problem as the end of a sentence that starts "it".
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            GlobProblem::Control => "contains a control character",
            GlobProblem::Empty => "is empty",
            GlobProblem::Spaces => "starts or ends with a space",
            GlobProblem::EmptySegment => "has an empty path segment",
            GlobProblem::Dots => "names `.` or `..`; write paths from the workspace root",
            GlobProblem::LoneBackslash => "ends with a lone `\\`",
            GlobProblem::Unclosed => "has a `[` class without its `]`",
            GlobProblem::BackwardRange => "has a class range whose end comes before its start",
            GlobProblem::OnlyExcludes => "only excludes; a scope needs a glob that includes paths",
            GlobProblem::Invisible => {
                "contains an invisible character (a zero-width space, a word joiner, a soft hyphen or a byte order mark)"
            }
            GlobProblem::Comma => {
                "has a `,` outside `{}`: Cursor, Windsurf and Copilot read a comma as the end of a glob; write two globs, or `{a,b}`"
            }
            GlobProblem::TooManyAlternatives => "has braces that expand to more than 64 globs",
            GlobProblem::TooLong => "is longer than 1024 bytes",
        }
    }
}

impl fmt::Display for GlobProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for GlobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` {}", self.glob, self.problem)
    }
}

impl Glob {
    /// Parses one glob; refuses what cannot mean a path inside the workspace.
    pub(crate) fn parse(text: &str) -> Result<Glob, GlobError> {
        let error = |problem| GlobError {
            glob: text.to_string(),
            problem,
        };
        if text.len() > MAX_GLOB_BYTES {
            return Err(error(GlobProblem::TooLong));
        }
        if text.chars().any(crate::report::text::is_hidden) {
            return Err(error(GlobProblem::Control));
        }
        if crate::report::text::first_invisible(text).is_some() {
            return Err(error(GlobProblem::Invisible));
        }
        let (negated, body) = match text.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        if has_bare_comma(body) {
            return Err(error(GlobProblem::Comma));
        }
        let alternatives = expand_braces(body)
            .ok_or_else(|| error(GlobProblem::TooManyAlternatives))?
            .iter()
            .map(|alternative| Pattern::parse(alternative).map_err(error))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Glob {
            text: text.to_string(),
            negated,
            alternatives,
        })
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    pub(crate) fn is_negated(&self) -> bool {
        self.negated
    }

    /// Whether the glob (ignoring `!`) matches `path` (relative to the root, `/`-separated)
    /// or one of the directories it lies in.
    pub(crate) fn matches(&self, path: &str) -> bool {
        // `check` matches every scope against every tracked file: the segments of a path
        // of up to 32 go on the stack, not in an allocation per call.
        let parts = path.split('/').filter(|p| !p.is_empty());
        let mut stack = [""; 32];
        let mut len = 0;
        for part in parts.clone() {
            if len == stack.len() {
                return self.matches_parts(&parts.collect::<Vec<_>>());
            }
            stack[len] = part;
            len += 1;
        }
        self.matches_parts(&stack[..len])
    }

    fn matches_parts(&self, parts: &[&str]) -> bool {
        (self.alternatives.iter()).any(|pattern| pattern.matches(parts))
    }
}

impl Pattern {
    /// One alternative (no braces left), as `.gitignore` reads it.
    fn parse(body: &str) -> Result<Pattern, GlobProblem> {
        if body.trim().is_empty() {
            return Err(GlobProblem::Empty);
        }
        if body.trim() != body {
            return Err(GlobProblem::Spaces);
        }
        let dir_only = body.ends_with('/') && !body.ends_with("\\/");
        let body = body.strip_suffix('/').filter(|_| dir_only).unwrap_or(body);
        // A `/` at the start or in the middle anchors the glob at the workspace root.
        let anchored = body.contains('/');
        let body = body.strip_prefix('/').unwrap_or(body);
        if body.is_empty() || body.contains("//") {
            return Err(GlobProblem::EmptySegment);
        }
        let mut segments = Vec::new();
        if !anchored {
            segments.push(Segment::AnyDepth);
        }
        for part in body.split('/') {
            if matches!(part, "." | "..") {
                return Err(GlobProblem::Dots);
            }
            if part == "**" {
                if segments.last() != Some(&Segment::AnyDepth) {
                    segments.push(Segment::AnyDepth);
                }
                continue;
            }
            segments.push(Segment::Part(tokens(part)?));
        }
        Ok(Pattern { dir_only, segments })
    }

    fn matches(&self, parts: &[&str]) -> bool {
        let last = if self.dir_only {
            parts.len().saturating_sub(1)
        } else {
            parts.len()
        };
        (1..=last).any(|end| match_segments(&self.segments, &parts[..end]))
    }
}

/// Whether `body` has a `,` outside braces (and not escaped, not in a class).
fn has_bare_comma(body: &str) -> bool {
    let mut depth = 0usize;
    let mut chars = body.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            _ if in_class => {}
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => return true,
            _ => {}
        }
    }
    false
}

/// The alternatives of `body`'s braces, outermost first: `a{b,c{d,e}}` is `ab`, `acd` and
/// `ace`. A group without a comma at its own level, or without its `}`, is literal (as in
/// minimatch); `\{` is a literal brace. `None` past [`MAX_ALTERNATIVES`].
///
/// The groups are taken left to right, each group's choices expanded once and the partial
/// results deduplicated as they grow, so the work is bounded by the size of the result:
/// `{a,a}` written 24 times is one glob, found in 24 steps (expanding each choice together
/// with the rest of the glob took 2^24). A product never has fewer distinct strings than
/// either side, so a partial result past the cap means the whole is past it too.
pub(crate) fn expand_braces(body: &str) -> Option<Vec<String>> {
    if body.len() > MAX_GLOB_BYTES {
        return None;
    }
    let mut results = vec![String::new()];
    let mut rest = body;
    while let Some((open, close, commas)) = first_group(rest) {
        append(&mut results, &rest[..open]);
        let mut choices = Distinct::default();
        let mut start = open + 1;
        for end in commas.iter().copied().chain([close]) {
            for choice in expand_braces(&rest[start..end])? {
                choices.insert(choice)?;
            }
            start = end + 1;
        }
        results = match choices.list.as_slice() {
            [only] => {
                append(&mut results, only);
                results
            }
            many => {
                let mut product = Distinct::default();
                for head in &results {
                    for choice in many {
                        product.insert(format!("{head}{choice}"))?;
                    }
                }
                product.list
            }
        };
        rest = &rest[close + 1..];
    }
    append(&mut results, rest);
    Some(results)
}

/// Literal text after every alternative (which keeps them distinct).
fn append(alternatives: &mut [String], text: &str) {
    for alternative in alternatives {
        alternative.push_str(text);
    }
}

/// Distinct strings in the order found, at most [`MAX_ALTERNATIVES`].
#[derive(Default)]
struct Distinct {
    list: Vec<String>,
    seen: std::collections::HashSet<String>,
}

impl Distinct {
    /// Adds `text` unless present; `None` once there are too many.
    fn insert(&mut self, text: String) -> Option<()> {
        if self.seen.insert(text.clone()) {
            self.list.push(text);
        }
        (self.list.len() <= MAX_ALTERNATIVES).then_some(())
    }
}

/// The first brace group of `body` that has a comma at its own level: its `{`, its `}`
/// and those commas (byte offsets).
fn first_group(body: &str) -> Option<(usize, usize, Vec<usize>)> {
    let bytes = body.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'[' => at = class_end(bytes, at),
            b'{' => {
                if let Some((close, commas)) = group_end(bytes, at)
                    && !commas.is_empty()
                {
                    return Some((at, close, commas));
                }
                at += 1;
            }
            _ => at += 1,
        }
    }
    None
}

/// The `}` closing the `{` at `open`, and the commas at its own level.
fn group_end(bytes: &[u8], open: usize) -> Option<(usize, Vec<usize>)> {
    let mut depth = 0usize;
    let mut commas = Vec::new();
    let mut at = open;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => {
                at += 2;
                continue;
            }
            b'[' => {
                at = class_end(bytes, at);
                continue;
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some((at, commas));
                }
            }
            b',' if depth == 1 => commas.push(at),
            _ => {}
        }
        at += 1;
    }
    None
}

/// Past the `]` of the class at `open` (or past the `[` alone when it has none).
fn class_end(bytes: &[u8], open: usize) -> usize {
    let mut at = open + 1;
    if matches!(bytes.get(at), Some(b'!' | b'^')) {
        at += 1;
    }
    if bytes.get(at) == Some(&b']') {
        at += 1;
    }
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b']' => return at + 1,
            _ => at += 1,
        }
    }
    open + 1
}

/// The tokens of one segment.
fn tokens(part: &str) -> Result<Vec<Token>, GlobProblem> {
    let mut out = Vec::new();
    let mut chars = part.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(match c {
            '\\' => Token::Char(chars.next().ok_or(GlobProblem::LoneBackslash)?),
            '*' => {
                // `a**b` is two stars within a segment: the same as one (as in git).
                while chars.peek() == Some(&'*') {
                    chars.next();
                }
                Token::Star
            }
            '?' => Token::One,
            '[' => class(&mut chars)?,
            c => Token::Char(c),
        });
    }
    Ok(out)
}

/// A `[...]` class, its `[` consumed.
fn class(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Result<Token, GlobProblem> {
    const UNCLOSED: GlobProblem = GlobProblem::Unclosed;
    let negated = matches!(chars.peek(), Some('!' | '^'));
    if negated {
        chars.next();
    }
    let mut ranges = Vec::new();
    let mut first = true;
    loop {
        let mut c = chars.next().ok_or(UNCLOSED)?;
        if c == ']' && !first {
            break;
        }
        first = false;
        if c == '\\' {
            c = chars.next().ok_or(UNCLOSED)?;
        }
        let mut end = c;
        if chars.peek() == Some(&'-') {
            let mut ahead = chars.clone();
            ahead.next();
            if let Some(&next) = ahead.peek().filter(|&&n| n != ']') {
                chars.next();
                chars.next();
                end = if next == '\\' {
                    chars.next().ok_or(UNCLOSED)?
                } else {
                    next
                };
                if end < c {
                    return Err(GlobProblem::BackwardRange);
                }
            }
        }
        ranges.push((c, end));
    }
    Ok(Token::Class { negated, ranges })
}

/// Whether `pattern` matches the path `parts`: `**` is any number of parts, every other
/// segment exactly one.
fn match_segments(pattern: &[Segment], parts: &[&str]) -> bool {
    wildcard(
        pattern,
        parts,
        |segment| matches!(segment, Segment::AnyDepth),
        |segment, part| match segment {
            // An ASCII segment (most are) is matched in place, byte by byte.
            Segment::Part(tokens) if part.is_ascii() => wildcard(
                tokens,
                part.as_bytes(),
                |token| matches!(token, Token::Star),
                |token, &byte| one(token, char::from(byte)),
            ),
            Segment::Part(tokens) => {
                let chars: Vec<char> = part.chars().collect();
                match_tokens(tokens, &chars)
            }
            Segment::AnyDepth => true,
        },
    )
}

/// Whether `tokens` match one path segment: `*` is any run of characters, every other
/// token exactly one.
fn match_tokens(tokens: &[Token], text: &[char]) -> bool {
    wildcard(
        tokens,
        text,
        |token| matches!(token, Token::Star),
        |token, &c| one(token, c),
    )
}

/// The classic wildcard match, in O(pattern × text): on a mismatch, go back only to the
/// last star and let it take one more item. A recursive search would try every split at
/// every star, exponential in the stars, and a glob comes from a rules file anyone can
/// commit.
fn wildcard<P, T>(
    pattern: &[P],
    text: &[T],
    is_star: impl Fn(&P) -> bool,
    matches_one: impl Fn(&P, &T) -> bool,
) -> bool {
    let (mut p, mut t) = (0, 0);
    // After the last star: where the pattern resumes, and how much of the text it took.
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(item) if is_star(item) => {
                star = Some((p + 1, t));
                p += 1;
            }
            Some(item) if matches_one(item, &text[t]) => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((resume, taken)) => {
                    star = Some((resume, taken + 1));
                    p = resume;
                    t = taken + 1;
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(is_star)
}

fn one(token: &Token, c: char) -> bool {
    match token {
        Token::Char(expected) => *expected == c,
        Token::One => true,
        Token::Class { negated, ranges } => {
            ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi) != *negated
        }
        Token::Star => true,
    }
}

/// Parses a scope as given to `learn`: every glob valid, at least one that includes.
pub(crate) fn parse_scope(globs: &[String]) -> Result<Vec<Glob>, GlobError> {
    let parsed = globs
        .iter()
        .map(|g| Glob::parse(g))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(first) = parsed.first()
        && parsed.iter().all(Glob::is_negated)
    {
        return Err(GlobError {
            glob: first.as_str().to_string(),
            problem: GlobProblem::OnlyExcludes,
        });
    }
    Ok(parsed)
}

/// The glob that brings `path` into the scope: the last one that matches, when it is not a
/// negation. Globs that do not parse never match.
pub(crate) fn matching<'g>(
    globs: impl IntoIterator<Item = &'g str>,
    path: &str,
) -> Option<&'g str> {
    let mut decided = None;
    for text in globs {
        if let Ok(glob) = Glob::parse(text)
            && glob.matches(path)
        {
            decided = (!glob.negated).then_some(text);
        }
    }
    decided
}

/// A scope in the dialect of the agents' rule files, where a glob is matched against the
/// whole path from the root and there is no exclusion: for their frontmatter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Native {
    /// The including globs, anchored: `*.rs` becomes `**/*.rs`, `build/` becomes
    /// `**/build/**`, and a plain name `src/api` also `src/api/**` (what it holds).
    pub include: Vec<String>,
    /// The excluding globs, without their `!`; the files say them in words.
    pub exclude: Vec<String>,
}

/// `globs` in the agents' dialect (see [`Native`]).
pub(crate) fn native<'g>(globs: impl IntoIterator<Item = &'g str>) -> Native {
    let mut out = Native::default();
    // (excluded, glob) pairs already listed: a lookup, not a scan, however many globs.
    let mut listed = std::collections::HashSet::new();
    for glob in globs {
        let (list, body, excluded) = match glob.strip_prefix('!') {
            Some(rest) => (&mut out.exclude, rest, true),
            None => (&mut out.include, glob, false),
        };
        // Braces expanded, so that no comma of a group is left for a comma-joined list
        // (Cursor's and Windsurf's `globs:`, Copilot's `applyTo`) to split at.
        let alternatives = expand_braces(body).unwrap_or_else(|| vec![body.to_string()]);
        for variant in alternatives.iter().flat_map(|a| anchored(a)) {
            if listed.insert((excluded, variant.clone())) {
                list.push(variant);
            }
        }
    }
    out
}

/// One gitignore-style glob as root-anchored globs.
fn anchored(body: &str) -> Vec<String> {
    let dir_only = body.ends_with('/');
    let body = body.trim_end_matches('/');
    let base = match body.strip_prefix('/') {
        Some(rest) => rest.to_string(),
        None if body.contains('/') => body.to_string(),
        None => format!("**/{body}"),
    };
    let last = base.rsplit('/').next().unwrap_or_default();
    if dir_only {
        vec![format!("{base}/**")]
    } else if last.contains(['*', '?', '[']) {
        // `**` or a pattern: a name that could also be a folder gets its contents below.
        vec![base]
    } else {
        let inside = format!("{base}/**");
        vec![base, inside]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(glob: &str, path: &str) -> bool {
        Glob::parse(glob).unwrap().matches(path)
    }

    #[test]
    fn many_stars_match_without_backtracking_through_every_split() {
        // A recursive matcher takes ~n^9 steps here; this one a few thousand.
        let long = "a".repeat(200);
        assert!(!m("*a*a*a*a*a*a*a*a*a*b", &long));
        assert!(m("*a*a*a*a*a*a*a*a*a*b", &format!("{long}b")));
        let deep = vec!["a"; 200].join("/");
        assert!(!m("**/a/**/a/**/a/**/a/**/b", &deep));
        assert!(m("**/a/**/a/**/a/**/a/**/b", &format!("{deep}/b")));
        assert!(m("a*b*c", "abc") && m("a*b*c", "axxbyyc") && !m("a*b*c", "axxbyy"));
        assert!(m("*", "x") && m("x*", "x") && !m("x?", "x"));
    }

    #[test]
    fn stars_questions_and_classes() {
        assert!(m("*.rs", "main.rs"));
        assert!(m("*.rs", "src/deep/main.rs"));
        assert!(!m("*.rs", "main.rsx"));
        assert!(m("src/*.rs", "src/lib.rs"));
        assert!(!m("src/*.rs", "src/a/lib.rs"));
        assert!(!m("src/*.rs", "other/src/lib.rs"));
        assert!(m("src/**/*.rs", "src/lib.rs"));
        assert!(m("src/**/*.rs", "src/a/b/lib.rs"));
        assert!(m("**/test_*.py", "a/test_x.py"));
        assert!(m("file?.txt", "file1.txt"));
        assert!(!m("file?.txt", "file10.txt"));
        assert!(m("[abc]x", "bx"));
        assert!(!m("[!abc]x", "bx"));
        assert!(m("[^abc]x", "dx"));
        assert!(m("v[0-9].md", "docs/v7.md"));
        assert!(!m("v[0-9].md", "v.md"));
        assert!(m("[]]", "]"));
        assert!(m("a\\*b", "a*b"));
        assert!(!m("a\\*b", "axb"));
        assert!(m("my docs/*.md", "my docs/read me.md"));
        // A class is one character of a segment, never the `/` between two.
        assert!(!m("a[!x]b", "a/b") && !m("/a[!x]b", "a/b") && m("a[!x]b", "a-b"));
        assert!(m("[\\]]x", "]x") && m("[a-]", "-") && m("é[é]", "éé"));
        assert!(m("[\\!a]", "!") && !m("[\\!a]", "b") && m("[a\\-z]", "-") && !m("[a\\-z]", "b"));
        assert!(m("a**b", "axyb") && !m("a**b", "ax/yb"));
        // Character by character, as the agents' minimatch reads a glob: globset (ripgrep's
        // matcher, 0.4.22) reads `?` and classes byte by byte, so `[é]` matched nothing and
        // `a?b` missed `aéb` (<https://github.com/BurntSushi/ripgrep/issues/2873>).
        assert!(m("[é]", "é") && m("a?b", "aéb") && m("[à-ê]", "é") && !m("x[a-z]", "xé"));
    }

    #[test]
    fn directories_cover_what_they_hold() {
        assert!(m("src/api", "src/api/handler.rs"));
        assert!(m("/src/api/", "src/api/handler.rs"));
        assert!(!m("src/api/", "src/api"));
        assert!(m("build/", "x/build/out.o"));
        assert!(m("vendor/**", "vendor/a/b.c"));
        assert!(!m("vendor/**", "src/vendor.c"));
        assert!(m("/README.md", "README.md"));
        assert!(!m("/README.md", "docs/README.md"));
        assert!(m("a/**/b", "a/b"));
        assert!(m("a/**/b", "a/x/y/b"));
    }

    #[test]
    fn the_last_matching_glob_decides() {
        let globs = ["src/**", "!src/gen/**", "src/gen/keep.rs"];
        assert_eq!(matching(globs, "src/a.rs"), Some("src/**"));
        assert_eq!(matching(globs, "src/gen/x.rs"), None);
        assert_eq!(matching(globs, "src/gen/keep.rs"), Some("src/gen/keep.rs"));
        assert_eq!(matching(globs, "docs/a.md"), None);
        assert_eq!(matching(["[", "*.md"], "a.md"), Some("*.md"));
    }

    #[test]
    fn native_globs_keep_the_meaning() {
        let scope = native([
            "*.rs",
            "/docs/",
            "src/api",
            "vendor/**",
            "!src/gen/**",
            "a?/b",
        ]);
        assert_eq!(
            scope.include,
            [
                "**/*.rs",
                "docs/**",
                "src/api",
                "src/api/**",
                "vendor/**",
                "a?/b",
                "a?/b/**"
            ]
        );
        assert_eq!(scope.exclude, ["src/gen/**"]);
        for (glob, path) in [("*.rs", "a/b.rs"), ("src/api", "src/api/x.rs")] {
            let anchored = native([glob]).include;
            assert!(
                anchored
                    .iter()
                    .any(|g| Glob::parse(&format!("/{g}")).unwrap().matches(path))
            );
        }
    }

    #[test]
    fn braces_expand_as_the_agents_expand_them() {
        assert!(m("*.{ts,tsx}", "src/web/app.tsx") && m("*.{ts,tsx}", "a.ts"));
        assert!(!m("*.{ts,tsx}", "a.js") && !m("*.{ts,tsx}", "a.{ts,tsx}"));
        assert!(m("{src,lib}/**/*.rs", "lib/a/b.rs") && !m("{src,lib}/**/*.rs", "x/lib/b.rs"));
        assert!(m("a{b,c{d,e}}", "ace") && m("a{b,c{d,e}}", "ab") && !m("a{b,c{d,e}}", "ac"));
        // No comma, no group; an escaped brace is a brace.
        assert!(m("{name}.md", "{name}.md") && m("\\{a}", "{a}"));
        assert!(m("x{", "x{") && m("[{]a", "{a"));
        assert_eq!(native(["*.{ts,tsx}"]).include, ["**/*.ts", "**/*.tsx"]);
        let many = "{a,b}".repeat(7);
        assert_eq!(
            Glob::parse(&many).unwrap_err().problem,
            GlobProblem::TooManyAlternatives
        );
        assert_eq!(
            Glob::parse("a,b.md").unwrap_err().problem,
            GlobProblem::Comma
        );
        assert!(Glob::parse("[,]x").is_ok() && Glob::parse("a\\,b").is_ok());
    }

    #[test]
    fn bad_globs_are_refused() {
        for bad in [
            "", "!", "  ", "[abc", "a\\", "../x", "./x", "a//b", "x\n", " a", "[z-a]", "/",
        ] {
            assert!(Glob::parse(bad).is_err(), "{bad:?}");
        }
        assert!(parse_scope(&["!a".to_string()]).is_err());
        assert!(parse_scope(&["a".to_string(), "!a/b".to_string()]).is_ok());
    }
}
