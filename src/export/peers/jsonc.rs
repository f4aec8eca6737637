//! JSON with comments and trailing commas (`rulesync.jsonc`), read by blanking the
//! comments and dropping the trailing commas outside strings, then parsing as JSON.

use serde_json::Value;

/// The value, or `None` when the text is not JSONC.
pub(super) fn parse(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str(&strip(text))
}

/// `text` without comments and without commas that close nothing.
fn strip(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut in_string = false;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if in_string {
            out.push(c);
            if c == '\\' {
                out.extend(next);
                i += 1;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
            continue;
        } else if c == ',' && closes(&chars[i + 1..]) {
            // A trailing comma: dropped.
        } else {
            in_string = c == '"';
            out.push(c);
        }
        i += 1;
    }
    out
}

/// Whether only whitespace and comments stand between here and a `}` or `]`.
fn closes(rest: &[char]) -> bool {
    let mut i = 0;
    while i < rest.len() {
        match (rest[i], rest.get(i + 1)) {
            (c, _) if c.is_whitespace() => i += 1,
            ('/', Some('/')) => {
                while i < rest.len() && rest[i] != '\n' {
                    i += 1;
                }
            }
            ('/', Some('*')) => {
                i += 2;
                while i < rest.len() && !(rest[i] == '*' && rest.get(i + 1) == Some(&'/')) {
                    i += 1;
                }
                i += 2;
            }
            (c, _) => return c == '}' || c == ']',
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_trailing_commas() {
        let value = parse(
            "{\n  // a \"comment\"\n  \"a\": \"x // not a comment\", /* b */\n  \"b\": [1, 2, /* c */ ],\n}\n",
        )
        .unwrap();
        assert_eq!(value["a"], "x // not a comment");
        assert_eq!(value["b"], serde_json::json!([1, 2]));
        assert_eq!(parse("{\"a\": \"\\\"\", }").unwrap()["a"], "\"");
        assert!(parse("{ nope }").is_err());
    }
}
