//! `json-syntax` diagnostics: where and why a file is not JSON.
//!
//! [`crate::json`] finds the first error and names it (message, help line,
//! exact repair when there is one); this module turns its byte range into a
//! line and a column counted in characters, and its repair into a [`Fix`].

use crate::diagnostics::{Diagnostic, Fix, locate};
use crate::json::SyntaxError;

pub fn diagnostic(rel: &str, text: &str, err: &SyntaxError) -> Diagnostic {
    let at = locate(text, err.start, err.end);
    let diagnostic = Diagnostic::json_syntax(
        rel,
        at.line,
        at.column,
        at.width,
        err.message.clone(),
        err.help.clone(),
    );
    match &err.fix {
        Some(edit) => diagnostic.with_fix(Fix {
            start: edit.start,
            end: edit.end,
            replacement: edit.replacement.clone(),
        }),
        None => diagnostic,
    }
}
