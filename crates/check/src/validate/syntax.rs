//! `json-syntax` diagnostics: where and why a file is not JSON.
//!
//! [`crate::json`] finds every error and names it (message, help line,
//! exact repair when there is one); this module turns each byte range into a
//! line and a column counted in characters, and each repair into a [`Fix`].

use crate::diagnostics::{Diagnostic, Fix, locate};
use crate::i18n::msg;
use crate::json::{SyntaxError, SyntaxErrors};

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

/// Every error of a file, the last one saying how many more were not shown.
pub fn diagnostics(rel: &str, text: &str, errors: &SyntaxErrors) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = errors
        .errors
        .iter()
        .map(|err| diagnostic(rel, text, err))
        .collect();
    if errors.more > 0
        && let Some(last) = out.last_mut()
    {
        let note = msg!("syntax-more-errors", count = errors.more);
        last.help = Some(match last.help.take() {
            Some(help) => msg!("lines", first = help, second = note),
            None => note,
        });
    }
    out
}
