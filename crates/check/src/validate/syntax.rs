//! `json-syntax` diagnostics: where and why a file is not JSON.
//!
//! [`crate::json`] finds every error and says what it is as data (an
//! [`ErrorKind`] with the expected token, the character found, the line a
//! bracket opened on, ...) and gives the exact repair when there is one; it
//! knows no message. This module words each kind (its message and help
//! line, in every language), turns each byte range into a line and a column
//! counted in characters, and each repair into a [`Fix`].

use crate::diagnostics::{Diagnostic, Fix, locate};
use crate::i18n::{Msg, msg};
use crate::json::{
    Container, ErrorKind, Expected, LineEnd, Lookalike, Role, SyntaxError, SyntaxErrors,
    escape_control, without_leading_zeros,
};

pub fn diagnostic(rel: &str, text: &str, err: &SyntaxError) -> Diagnostic {
    let at = locate(text, err.start, err.end);
    let diagnostic = Diagnostic::json_syntax(
        rel,
        at.line,
        at.column,
        at.width,
        message(&err.kind),
        help(&err.kind),
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

/// What went wrong, in words.
fn message(kind: &ErrorKind) -> Msg {
    match kind {
        ErrorKind::ByteOrderMark => msg!("syntax-bom"),
        ErrorKind::Empty => msg!("syntax-empty"),
        ErrorKind::AfterEnd { .. } => msg!("syntax-after-end"),
        ErrorKind::EndOfText { expected } => {
            msg!("syntax-eof-expected", expected = expected_token(*expected))
        }
        ErrorKind::Unexpected {
            expected, found, ..
        } => msg!(
            "syntax-expected-found",
            expected = expected_token(*expected),
            found = describe(*found)
        ),
        ErrorKind::Lookalike(found) if found.ascii() == " " => msg!(
            "syntax-lookalike-space",
            name = lookalike_name(*found),
            code = code(found.char())
        ),
        ErrorKind::Lookalike(found) => msg!(
            "syntax-lookalike",
            name = lookalike_name(*found),
            char = found.char(),
            code = code(found.char())
        ),
        ErrorKind::Comment | ErrorKind::UnclosedComment => msg!("syntax-comment"),
        ErrorKind::SingleQuotes => msg!("syntax-single-quotes"),
        ErrorKind::NotANumber { word } => msg!("syntax-not-a-number", word = *word),
        ErrorKind::Plus => msg!("syntax-plus"),
        ErrorKind::NeverClosed(bracket) => msg!(
            "syntax-never-closed",
            open = bracket.container.open(),
            line = bracket.line
        ),
        ErrorKind::TrailingComma { container } => {
            msg!(
                "syntax-trailing-comma",
                container = container_name(*container)
            )
        }
        ErrorKind::MissingComma { .. } => msg!("syntax-missing-comma"),
        ErrorKind::BareKey { .. } => msg!("syntax-bare-key"),
        ErrorKind::TooDeep { max } => msg!("syntax-too-deep", max = *max),
        ErrorKind::LeadingZero { .. } => msg!("syntax-leading-zero"),
        ErrorKind::NumberRange => msg!("syntax-number-range"),
        ErrorKind::InvalidEscape { escape } => msg!("syntax-invalid-escape", escape = escape),
        ErrorKind::UnicodeEscape => msg!("syntax-unicode-escape"),
        ErrorKind::LoneSurrogate => msg!("syntax-lone-surrogate"),
        ErrorKind::Unterminated => msg!("syntax-unterminated"),
        ErrorKind::ControlInString { byte } => {
            msg!("syntax-control-in-string", what = control_name(*byte))
        }
        ErrorKind::OpenAtLineEnd { .. } => msg!("syntax-open-at-line-end"),
        ErrorKind::TypographicClose { quote } => msg!(
            "syntax-typographic-close",
            name = quote_name(*quote),
            char = *quote,
            code = code(*quote)
        ),
        ErrorKind::TypographicString {
            role, open, close, ..
        } => msg!(
            "syntax-typographic-string",
            key = if *role == Role::Key { "yes" } else { "no" },
            open = *open,
            close = *close
        ),
    }
}

/// What to do about it, when there is something to say.
fn help(kind: &ErrorKind) -> Option<Msg> {
    Some(match kind {
        ErrorKind::ByteOrderMark => msg!("syntax-bom-help"),
        ErrorKind::AfterEnd { line } => msg!("syntax-after-end-help", line = *line),
        ErrorKind::Unexpected {
            open: Some(bracket),
            ..
        } => msg!(
            "syntax-still-open-help",
            open = bracket.container.open(),
            line = bracket.line,
            close = bracket.container.close()
        ),
        ErrorKind::Lookalike(found) => {
            let instead = match found.ascii() {
                " " => msg!("ascii-space"),
                ascii => msg!("ascii-char", char = ascii),
            };
            msg!("syntax-lookalike-help", instead = instead)
        }
        ErrorKind::Comment => msg!("syntax-comment-help"),
        ErrorKind::UnclosedComment => msg!("syntax-comment-unclosed-help"),
        ErrorKind::SingleQuotes => msg!("syntax-single-quotes-help"),
        ErrorKind::NotANumber { .. } => msg!("syntax-not-a-number-help"),
        ErrorKind::Plus => msg!("syntax-plus-help"),
        ErrorKind::NeverClosed(bracket) => msg!(
            "syntax-never-closed-help",
            close = bracket.container.close(),
            open = bracket.container.open(),
            line = bracket.line
        ),
        ErrorKind::TrailingComma { .. } => msg!("syntax-trailing-comma-help"),
        ErrorKind::MissingComma { container } => msg!(
            "syntax-missing-comma-help",
            container = container_name(*container)
        ),
        ErrorKind::BareKey { word } => msg!("syntax-bare-key-help", word = word),
        ErrorKind::LeadingZero { digits } => msg!(
            "syntax-leading-zero-help",
            trimmed = without_leading_zeros(digits),
            digits = digits
        ),
        ErrorKind::InvalidEscape { .. } => msg!("syntax-invalid-escape-help"),
        ErrorKind::Unterminated => msg!("syntax-unterminated-help"),
        ErrorKind::ControlInString { byte } => msg!(
            "syntax-control-in-string-help",
            escape = escape_control(*byte)
        ),
        ErrorKind::OpenAtLineEnd { close } => line_end_help(*close),
        ErrorKind::TypographicClose { .. } => msg!(
            "syntax-lookalike-help",
            instead = msg!("ascii-char", char = "\"")
        ),
        ErrorKind::TypographicString { content, .. } => msg!(
            "syntax-typographic-string-help",
            fixed = format!("\"{content}\"")
        ),
        ErrorKind::Empty
        | ErrorKind::EndOfText { .. }
        | ErrorKind::Unexpected { open: None, .. }
        | ErrorKind::TooDeep { .. }
        | ErrorKind::NumberRange
        | ErrorKind::UnicodeEscape
        | ErrorKind::LoneSurrogate => return None,
    })
}

/// The help of a string left open at the end of its line: where its
/// closing quote goes.
fn line_end_help(close: LineEnd) -> Msg {
    match close {
        LineEnd::TypographicQuote(quote) => msg!(
            "syntax-typographic-end-help",
            name = quote_name(quote),
            char = quote,
            code = code(quote)
        ),
        LineEnd::BeforeComma(comma) => msg!("syntax-open-at-line-end-comma-help", comma = comma),
        LineEnd::AfterText => msg!("syntax-open-at-line-end-help"),
    }
}

/// What the parser wanted, as a message names it.
fn expected_token(expected: Expected) -> Msg {
    match expected {
        Expected::Value => msg!("expected-value"),
        Expected::Key => msg!("expected-key"),
        Expected::Colon => msg!("expected-colon"),
        Expected::Digit => msg!("expected-digit"),
        Expected::FractionDigit => msg!("expected-digit-fraction"),
        Expected::ExponentDigit => msg!("expected-digit-exponent"),
        Expected::CommaOrClose(Container::Object) => msg!("expected-comma-or-brace"),
        Expected::CommaOrClose(Container::Array) => msg!("expected-comma-or-bracket"),
    }
}

/// The variant of the messages that say `object` or `array`.
fn container_name(container: Container) -> &'static str {
    match container {
        Container::Object => "object",
        Container::Array => "array",
    }
}

/// The name of a look-alike of JSON punctuation (全角逗号 in Chinese).
fn lookalike_name(lookalike: Lookalike) -> Msg {
    match lookalike {
        Lookalike::FullWidthComma => msg!("char-full-width-comma"),
        Lookalike::FullWidthColon => msg!("char-full-width-colon"),
        Lookalike::LeftDoubleQuote => msg!("char-left-double-quote"),
        Lookalike::RightDoubleQuote => msg!("char-right-double-quote"),
        Lookalike::LeftSingleQuote => msg!("char-left-single-quote"),
        Lookalike::RightSingleQuote => msg!("char-right-single-quote"),
        Lookalike::FullWidthQuote => msg!("char-full-width-quote"),
        Lookalike::FullWidthLeftBrace => msg!("char-full-width-left-brace"),
        Lookalike::FullWidthRightBrace => msg!("char-full-width-right-brace"),
        Lookalike::FullWidthLeftBracket => msg!("char-full-width-left-bracket"),
        Lookalike::FullWidthRightBracket => msg!("char-full-width-right-bracket"),
        Lookalike::IdeographicSpace => msg!("char-ideographic-space"),
        Lookalike::LeftCornerBracket => msg!("char-left-corner-bracket"),
        Lookalike::RightCornerBracket => msg!("char-right-corner-bracket"),
        Lookalike::LeftWhiteCornerBracket => msg!("char-left-white-corner-bracket"),
        Lookalike::RightWhiteCornerBracket => msg!("char-right-white-corner-bracket"),
    }
}

/// The name of a quote that is no JSON quote: its look-alike name, or
/// "quotation mark".
fn quote_name(quote: char) -> Msg {
    crate::json::lookalike(quote).map_or_else(|| msg!("char-quotation-mark"), lookalike_name)
}

/// How a message names a control character inside a string.
fn control_name(byte: u8) -> Msg {
    match byte {
        b'\t' => msg!("char-tab"),
        _ => msg!("char-control", code = format!("{byte:04X}")),
    }
}

/// A character's code point, as `U+` is followed in the messages (`FF0C`).
fn code(c: char) -> String {
    format!("{:04X}", c as u32)
}

/// A character found where something else belongs: itself in backticks, or
/// its code point when it cannot be seen.
fn describe(c: char) -> String {
    if c.is_control() || c.is_whitespace() {
        format!("U+{:04X}", c as u32)
    } else {
        format!("`{c}`")
    }
}
