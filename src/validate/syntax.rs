//! `json-syntax` diagnostics: where and why a file is not JSON.
//!
//! [`crate::json`] finds the first error. jsonc-parser (all leniencies off)
//! names most problems better, so its message is used when it also refuses
//! the text; otherwise (a lone surrogate, a number out of range, a raw control
//! character in a string) the parser's own message stands. Either way the
//! byte range becomes a line and a column counted in characters.

use crate::diagnostics::{Diagnostic, locate};
use crate::json::SyntaxError;

pub fn diagnostic(rel: &str, text: &str, err: &SyntaxError) -> Diagnostic {
    if nests_deeper_than(text, crate::json::MAX_DEPTH) {
        // jsonc-parser recurses without a limit: deep enough, it would
        // overflow the stack. The parser's own message will do.
        return own(rel, text, err);
    }
    let strict = jsonc_parser::ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let collect = jsonc_parser::CollectOptions::default();
    match jsonc_parser::parse_to_ast(text, &collect, &strict) {
        Err(jsonc) => {
            let range = jsonc.range();
            let kind = lowercase_first(&jsonc.kind().to_string());
            if kind.starts_with("unterminated") {
                // Point at the end, where the closing bracket or quote is missing.
                let opened = locate(text, range.start, range.end);
                let end = text.trim_end().len();
                let at = locate(text, end, end);
                let message = format!(
                    "unexpected end of file: {} opened at {}:{} is never closed",
                    kind.trim_start_matches("unterminated "),
                    opened.line,
                    opened.column
                );
                return Diagnostic::json_syntax(
                    rel,
                    at.line,
                    at.column,
                    1,
                    message,
                    Some("add the missing closing bracket or quote".to_string()),
                );
            }
            let at = locate(text, range.start, range.end);
            let help = syntax_help(&kind);
            Diagnostic::json_syntax(rel, at.line, at.column, at.width, kind, help)
        }
        Ok(result) if result.value.is_none() => {
            Diagnostic::json_syntax(rel, 1, 1, 1, "the file is empty".to_string(), None)
        }
        Ok(_) => own(rel, text, err),
    }
}

/// The diagnostic from the parser's own error.
fn own(rel: &str, text: &str, err: &SyntaxError) -> Diagnostic {
    let at = locate(text, err.start, err.end);
    let help = err
        .message
        .contains("must be escaped")
        .then(|| "write it as an escape such as `\\n` or `\\u0007`, or remove it".to_string());
    Diagnostic::json_syntax(rel, at.line, at.column, at.width, err.message.clone(), help)
}

/// Whether brackets outside strings ever nest deeper than `limit`.
fn nests_deeper_than(text: &str, limit: usize) -> bool {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for b in text.bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or(String::new(), |c| c.to_lowercase().chain(chars).collect())
}

fn syntax_help(kind: &str) -> Option<String> {
    let lower = kind.to_ascii_lowercase();
    let help = if lower.contains("trailing comma") {
        "remove the comma after the last element"
    } else if lower.contains("comment") {
        "JSON has no comments; remove it"
    } else if lower.contains("single-quoted") || lower.contains("single quoted") {
        "JSON strings use double quotes"
    } else if lower.contains("comma") {
        "separate elements with a comma"
    } else {
        return None;
    };
    Some(help.to_string())
}
