//! A strict JSON parser that keeps where everything is.
//!
//! [`parse`] reads RFC 8259 JSON (no comments, no trailing commas, at most
//! [`MAX_DEPTH`] levels of nesting, the same limits as serde_json) into a tree
//! of [`Node`]s that borrow their strings from the source text when they hold
//! no escape. Every node and every object key carries its byte range, so a
//! diagnostic can point at it without parsing the file a second time, and
//! every object records keys it has seen twice ([`Duplicate`]), which a map
//! such as `serde_json::Value` silently collapses.
//!
//! A [`SyntaxError`] names the mistake as a contributor makes it, not as a
//! grammar sees it: full-width punctuation typed by an input method, a string
//! left open at the end of its line, a missing comma (at the end of the value
//! before it), a bracket left open (with the line it opened on), a trailing
//! comma, a comment, single quotes, `NaN`, a leading zero or `+`. Each has a
//! help line and, where the repair is certain, the exact [`Edit`].
//!
//! A leaf: it depends on no other module of the crate and knows nothing about
//! diagnostics, files or rules. Offsets are bytes; turning them into lines and
//! character columns is the caller's business (messages that name another
//! place, such as the line a bracket opened on, count lines themselves).

use std::borrow::Cow;

use crate::i18n::{Msg, msg};

/// How deep arrays and objects may nest (serde_json's recursion limit).
pub const MAX_DEPTH: usize = 128;

/// The bytes that end a run of plain string content: a quote, a backslash,
/// or a control character (which JSON forbids unescaped).
static STRING_STOP: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = true;
        b += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

/// The first position at or after `pos` that holds a quote, a backslash or
/// a control character (see [`STRING_STOP`]), or `bytes.len()`. Looks at
/// eight bytes at a time: a string's content is mostly plain.
fn skip_plain(bytes: &[u8], mut pos: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // A high bit per byte that is zero in `x` (exact for the lowest such
    // byte, which is all that is used).
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    while let Some(chunk) = bytes.get(pos..pos + 8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        // Bytes below 0x20, quotes and backslashes.
        let stop = (x.wrapping_sub(ONES * 0x20) & !x & HIGHS)
            | zero(x ^ (ONES * u64::from(b'"')))
            | zero(x ^ (ONES * u64::from(b'\\')));
        if stop != 0 {
            return pos + (stop.trailing_zeros() / 8) as usize;
        }
        pos += 8;
    }
    while bytes
        .get(pos)
        .is_some_and(|&b| !STRING_STOP[usize::from(b)])
    {
        pos += 1;
    }
    pos
}

/// A value and its byte range in the source text.
#[derive(Debug, Clone, PartialEq)]
pub struct Node<'a> {
    pub start: usize,
    pub end: usize,
    pub value: Json<'a>,
}

/// A JSON value. Numbers are kept as written; strings are unescaped.
#[derive(Debug, Clone, PartialEq)]
pub enum Json<'a> {
    Null,
    Bool(bool),
    Number(&'a str),
    String(Cow<'a, str>),
    Array(Vec<Node<'a>>),
    /// Members in source order, duplicates included.
    Object(Vec<Member<'a>>),
}

/// One `"key": value` of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Member<'a> {
    pub key: Cow<'a, str>,
    /// Byte range of the key, quotes included.
    pub key_start: usize,
    pub key_end: usize,
    pub value: Node<'a>,
}

/// A key written twice in one object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    pub key: String,
    /// Byte offset of the first occurrence of the key.
    pub first: usize,
    /// Byte range of the repeated key (quotes included).
    pub start: usize,
    pub end: usize,
}

/// A parsed document.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed<'a> {
    pub root: Node<'a>,
    /// Repeated keys, in source order of the repetition.
    pub duplicates: Vec<Duplicate>,
}

/// Why the text is not JSON, and where (byte offsets).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub start: usize,
    pub end: usize,
    pub message: Msg,
    /// What to type instead, when the parser can tell.
    pub help: Option<Msg>,
    /// The exact repair, when it is certain.
    pub fix: Option<Edit>,
}

/// Replace the bytes `start..end` of the text with `replacement`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub replacement: String,
}

impl SyntaxError {
    fn help(mut self, help: Msg) -> Self {
        self.help = Some(help);
        self
    }

    fn fix(mut self, start: usize, end: usize, replacement: impl Into<String>) -> Self {
        self.fix = Some(Edit {
            start,
            end,
            replacement: replacement.into(),
        });
        self
    }
}

/// Punctuation an input method types in place of JSON's ASCII: the
/// character, the message that names it (全角逗号, 中文引号 in Chinese) and
/// what to type instead.
const LOOKALIKES: &[(char, &str, &str)] = &[
    ('\u{FF0C}', "char-full-width-comma", ","),
    ('\u{FF1A}', "char-full-width-colon", ":"),
    ('\u{201C}', "char-left-double-quote", "\""),
    ('\u{201D}', "char-right-double-quote", "\""),
    ('\u{2018}', "char-left-single-quote", "\""),
    ('\u{2019}', "char-right-single-quote", "\""),
    ('\u{FF02}', "char-full-width-quote", "\""),
    ('\u{FF5B}', "char-full-width-left-brace", "{"),
    ('\u{FF5D}', "char-full-width-right-brace", "}"),
    ('\u{FF3B}', "char-full-width-left-bracket", "["),
    ('\u{FF3D}', "char-full-width-right-bracket", "]"),
    ('\u{3000}', "char-ideographic-space", " "),
];

/// The name and ASCII replacement of a look-alike of JSON punctuation.
pub fn lookalike(c: char) -> Option<(Msg, &'static str)> {
    LOOKALIKES
        .iter()
        .find(|(l, _, _)| *l == c)
        .map(|(_, name, ascii)| (Msg::new(name), *ascii))
}

/// Parses `text` as one strict JSON value.
pub fn parse(text: &str) -> Result<Parsed<'_>, SyntaxError> {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        duplicates: Vec::new(),
        open: Vec::new(),
    };
    parser.skip_ws();
    if parser.pos == parser.bytes.len() {
        return Err(parser.error_at(0, 0, msg!("syntax-empty")));
    }
    let root = parser.value(0)?;
    parser.skip_ws();
    if parser.pos != parser.bytes.len() {
        if let Some(err) = parser.mistake() {
            return Err(err);
        }
        let line = parser.line_of(root.end.saturating_sub(1));
        return Err(parser
            .error_here(msg!("syntax-after-end"))
            .help(msg!("syntax-after-end-help", line = line)));
    }
    Ok(Parsed {
        root,
        duplicates: parser.duplicates,
    })
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    duplicates: Vec<Duplicate>,
    /// Offsets of the `{` and `[` not closed yet, innermost last: an error
    /// names the one left open.
    open: Vec<usize>,
}

impl<'a> Parser<'a> {
    fn error_at(&self, start: usize, end: usize, message: Msg) -> SyntaxError {
        SyntaxError {
            start,
            end,
            message,
            help: None,
            fix: None,
        }
    }

    /// An error at the current position, one character wide.
    fn error_here(&self, message: Msg) -> SyntaxError {
        self.error_at(self.pos, self.char_end(self.pos), message)
    }

    /// The end of the character at `at` (or `at` at the end of the text).
    fn char_end(&self, at: usize) -> usize {
        self.text[at..]
            .chars()
            .next()
            .map_or(at, |c| at + c.len_utf8())
    }

    /// The 1-based line of byte `at`, for messages that name another place.
    fn line_of(&self, at: usize) -> usize {
        self.bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1
    }

    /// What is found at `pos` is not `expected`: a known mistake (see
    /// [`Parser::mistake`]) or "expected X, found Y".
    fn unexpected(&self, expected: Msg) -> SyntaxError {
        if let Some(err) = self.mistake() {
            return err;
        }
        let Some(c) = self.text[self.pos..].chars().next() else {
            return match self.open.last() {
                Some(&open) => self.never_closed(open),
                None => self.error_here(msg!("syntax-eof-expected", expected = expected)),
            };
        };
        let err = self.error_here(msg!(
            "syntax-expected-found",
            expected = expected,
            found = describe(c)
        ));
        match (self.open.last(), c) {
            (Some(&open), '{' | '[' | '}' | ']') => {
                let (o, close) = brackets(self.bytes[open]);
                err.help(msg!(
                    "syntax-still-open-help",
                    open = o,
                    line = self.line_of(open),
                    close = close
                ))
            }
            _ => err,
        }
    }

    /// The mistakes people make where JSON wants punctuation or a value:
    /// look-alike punctuation from an input method, a comment, single
    /// quotes, `NaN` or `Infinity`, a number with a `+`.
    fn mistake(&self) -> Option<SyntaxError> {
        let at = self.pos;
        let rest = &self.text[at..];
        let c = rest.chars().next()?;
        let end = at + c.len_utf8();
        if let Some((name, ascii)) = lookalike(c) {
            let code = format!("{:04X}", c as u32);
            let (message, instead) = if ascii == " " {
                (
                    msg!("syntax-lookalike-space", name = name, code = code),
                    msg!("ascii-space"),
                )
            } else {
                (
                    msg!("syntax-lookalike", name = name, char = c, code = code),
                    msg!("ascii-char", char = ascii),
                )
            };
            return Some(
                self.error_at(at, end, message)
                    .help(msg!("syntax-lookalike-help", instead = instead))
                    .fix(at, end, ascii),
            );
        }
        if rest.starts_with("//") {
            let line = rest.split('\n').next().unwrap_or(rest);
            let len = line.trim_end_matches('\r').len();
            return Some(
                self.error_at(at, at + len, msg!("syntax-comment"))
                    .help(msg!("syntax-comment-help"))
                    .fix(at, at + len, ""),
            );
        }
        if let Some(body) = rest.strip_prefix("/*") {
            return Some(match body.find("*/") {
                Some(i) => self
                    .error_at(at, at + 2 + i + 2, msg!("syntax-comment"))
                    .help(msg!("syntax-comment-help"))
                    .fix(at, at + 2 + i + 2, ""),
                None => self
                    .error_at(at, at + 2, msg!("syntax-comment"))
                    .help(msg!("syntax-comment-unclosed-help")),
            });
        }
        if c == '\'' {
            let line = rest[1..].split('\n').next().unwrap_or("");
            let err = self
                .error_at(at, end, msg!("syntax-single-quotes"))
                .help(msg!("syntax-single-quotes-help"));
            return Some(match line.find('\'') {
                Some(i) if !line[..i].contains(['"', '\\']) => {
                    err.fix(at, at + 1 + i + 1, format!("\"{}\"", &line[..i]))
                }
                _ => err,
            });
        }
        if let Some(word) = ["NaN", "Infinity"]
            .into_iter()
            .find(|w| rest.starts_with(w))
        {
            return Some(
                self.error_at(
                    at,
                    at + word.len(),
                    msg!("syntax-not-a-number", word = word),
                )
                .help(msg!("syntax-not-a-number-help")),
            );
        }
        if c == '+' && rest[1..].starts_with(|d: char| d.is_ascii_digit()) {
            return Some(
                self.error_at(at, end, msg!("syntax-plus"))
                    .help(msg!("syntax-plus-help"))
                    .fix(at, end, ""),
            );
        }
        None
    }

    /// The end of the text inside the bracket that opened at `open`.
    fn never_closed(&self, open: usize) -> SyntaxError {
        let (o, close) = brackets(self.bytes[open]);
        let line = self.line_of(open);
        let end = self.text.trim_end().len();
        self.error_at(end, end, msg!("syntax-never-closed", open = o, line = line))
            .help(msg!(
                "syntax-never-closed-help",
                close = close,
                open = o,
                line = line
            ))
            .fix(end, end, close.to_string())
    }

    /// After a member or an element, neither `,` nor the closing bracket:
    /// a missing comma points at the end of the value before it.
    fn after_value(&self, open: usize, previous_end: usize) -> SyntaxError {
        let object = self.bytes[open] == b'{';
        let expected = if object {
            msg!("expected-comma-or-brace")
        } else {
            msg!("expected-comma-or-bracket")
        };
        let Some(&b) = self.bytes.get(self.pos) else {
            return self.never_closed(open);
        };
        if let Some(err) = self.mistake() {
            return err;
        }
        let starts_value = if object {
            b == b'"'
        } else {
            matches!(
                b,
                b'"' | b'{' | b'[' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n'
            )
        };
        if !starts_value {
            return self.unexpected(expected);
        }
        let last = self.text[..previous_end]
            .char_indices()
            .next_back()
            .map_or(0, |(i, _)| i);
        let container = if object { "object" } else { "array" };
        self.error_at(last, previous_end, msg!("syntax-missing-comma"))
            .help(msg!("syntax-missing-comma-help", container = container))
            .fix(previous_end, previous_end, ",")
    }

    /// A comma before the closing bracket of an `"object"` or an `"array"`.
    fn trailing_comma(&self, comma: usize, container: &'static str) -> SyntaxError {
        self.error_at(
            comma,
            comma + 1,
            msg!("syntax-trailing-comma", container = container),
        )
        .help(msg!("syntax-trailing-comma-help"))
        .fix(comma, comma + 1, "")
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node<'a>, SyntaxError> {
        let start = self.pos;
        let value = match self.bytes.get(self.pos) {
            Some(b'{') => self.object(depth + 1)?,
            Some(b'[') => self.array(depth + 1)?,
            Some(b'"') => Json::String(self.string()?),
            Some(b't') => self.word("true", Json::Bool(true))?,
            Some(b'f') => self.word("false", Json::Bool(false))?,
            Some(b'n') => self.word("null", Json::Null)?,
            Some(b'-' | b'0'..=b'9') => Json::Number(self.number()?),
            _ => return Err(self.unexpected(msg!("expected-value"))),
        };
        Ok(Node {
            start,
            end: self.pos,
            value,
        })
    }

    fn word(&mut self, word: &str, value: Json<'a>) -> Result<Json<'a>, SyntaxError> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(self.unexpected(msg!("expected-value")))
        }
    }

    fn enter(&mut self, depth: usize) -> Result<(), SyntaxError> {
        if depth > MAX_DEPTH {
            Err(self.error_here(msg!("syntax-too-deep", max = MAX_DEPTH)))
        } else {
            self.open.push(self.pos);
            Ok(())
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json<'a>, SyntaxError> {
        self.enter(depth)?;
        let open = self.pos;
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b']') {
            self.pos += 1;
            self.open.pop();
            return Ok(Json::Array(items));
        }
        loop {
            self.skip_ws();
            let item = self.value(depth)?;
            let end = item.end;
            items.push(item);
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b',') => {
                    let comma = self.pos;
                    self.pos += 1;
                    self.skip_ws();
                    if self.bytes.get(self.pos) == Some(&b']') {
                        return Err(self.trailing_comma(comma, "array"));
                    }
                }
                Some(b']') => {
                    self.pos += 1;
                    self.open.pop();
                    return Ok(Json::Array(items));
                }
                _ => return Err(self.after_value(open, end)),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json<'a>, SyntaxError> {
        self.enter(depth)?;
        let open = self.pos;
        self.pos += 1;
        let mut members: Vec<Member<'a>> = Vec::new();
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            self.open.pop();
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_ws();
            if self.bytes.get(self.pos) != Some(&b'"') {
                return Err(self
                    .bare_key()
                    .unwrap_or_else(|| self.unexpected(msg!("expected-key"))));
            }
            let key_start = self.pos;
            let key = self.string()?;
            let key_end = self.pos;
            self.skip_ws();
            if self.bytes.get(self.pos) != Some(&b':') {
                return Err(self.unexpected(msg!("expected-colon")));
            }
            self.pos += 1;
            self.skip_ws();
            let value = self.value(depth)?;
            let end = value.end;
            members.push(Member {
                key,
                key_start,
                key_end,
                value,
            });
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b',') => {
                    let comma = self.pos;
                    self.pos += 1;
                    self.skip_ws();
                    if self.bytes.get(self.pos) == Some(&b'}') {
                        return Err(self.trailing_comma(comma, "object"));
                    }
                }
                Some(b'}') => {
                    self.pos += 1;
                    self.open.pop();
                    self.find_duplicates(&members);
                    return Ok(Json::Object(members));
                }
                _ => return Err(self.after_value(open, end)),
            }
        }
    }

    /// A key written without quotes (`name: 1`), as in JavaScript.
    fn bare_key(&self) -> Option<SyntaxError> {
        let rest = &self.text[self.pos..];
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
            .unwrap_or(rest.len());
        let word = &rest[..len];
        let after = rest[len..].trim_start_matches([' ', '\t']);
        if word.is_empty() || word.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        if !(after.starts_with(':') || after.starts_with('\u{FF1A}')) {
            return None;
        }
        Some(
            self.error_at(self.pos, self.pos + len, msg!("syntax-bare-key"))
                .help(msg!("syntax-bare-key-help", word = word))
                .fix(self.pos, self.pos + len, format!("\"{word}\"")),
        )
    }

    /// Records every key of `members` that an earlier member already has.
    fn find_duplicates(&mut self, members: &[Member<'a>]) {
        if members.len() <= 16 {
            for (i, member) in members.iter().enumerate() {
                if let Some(first) = members[..i].iter().find(|m| m.key == member.key) {
                    self.duplicates.push(duplicate(first, member));
                }
            }
        } else {
            let mut seen: std::collections::HashMap<&str, usize> =
                std::collections::HashMap::with_capacity(members.len());
            for (i, member) in members.iter().enumerate() {
                if let Some(&first) = seen.get(member.key.as_ref()) {
                    self.duplicates.push(duplicate(&members[first], member));
                } else {
                    seen.insert(member.key.as_ref(), i);
                }
            }
        }
    }

    fn number(&mut self) -> Result<&'a str, SyntaxError> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            let from = p.pos;
            while let Some(b'0'..=b'9') = p.bytes.get(p.pos) {
                p.pos += 1;
            }
            p.pos - from
        };
        if self.bytes.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        let int_start = self.pos;
        let n = digits(self);
        if n == 0 {
            return Err(self.unexpected(msg!("expected-digit")));
        }
        if n > 1 && self.bytes[int_start] == b'0' {
            let digits = &self.text[int_start..self.pos];
            let trimmed = match digits.trim_start_matches('0') {
                "" => "0",
                t => t,
            };
            return Err(self
                .error_at(int_start, self.pos, msg!("syntax-leading-zero"))
                .help(msg!(
                    "syntax-leading-zero-help",
                    trimmed = trimmed,
                    digits = digits
                ))
                .fix(int_start, self.pos, trimmed));
        }
        let mut float = false;
        if self.bytes.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            float = true;
            if digits(self) == 0 {
                return Err(self.unexpected(msg!("expected-digit-fraction")));
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.pos) {
            self.pos += 1;
            float = true;
            if let Some(b'+' | b'-') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
            if digits(self) == 0 {
                return Err(self.unexpected(msg!("expected-digit-exponent")));
            }
        }
        let text = &self.text[start..self.pos];
        if float && !text.parse::<f64>().is_ok_and(f64::is_finite) {
            return Err(self.error_at(start, self.pos, msg!("syntax-number-range")));
        }
        Ok(text)
    }

    /// A string literal at `pos` (which is a quote); leaves `pos` after it.
    fn string(&mut self) -> Result<Cow<'a, str>, SyntaxError> {
        let open = self.pos;
        self.pos += 1;
        let start = self.pos;
        // The common case: no escape, borrowed. Skip plain bytes first.
        self.pos = skip_plain(self.bytes, self.pos);
        loop {
            match self.bytes.get(self.pos) {
                None => return Err(self.unterminated(open)),
                Some(b'"') => {
                    let s = &self.text[start..self.pos];
                    self.pos += 1;
                    return Ok(Cow::Borrowed(s));
                }
                Some(b'\\') => break,
                Some(b'\n' | b'\r') => return Err(self.open_at_line_end(open)),
                Some(&b) if b < 0x20 => return Err(self.control_in_string(b)),
                Some(_) => self.pos += 1,
            }
        }
        let mut out = String::with_capacity(self.pos - start + 16);
        out.push_str(&self.text[start..self.pos]);
        loop {
            let run = self.pos;
            loop {
                match self.bytes.get(self.pos) {
                    None => return Err(self.unterminated(open)),
                    Some(b'"' | b'\\') => break,
                    Some(b'\n' | b'\r') => return Err(self.open_at_line_end(open)),
                    Some(&b) if b < 0x20 => return Err(self.control_in_string(b)),
                    Some(_) => self.pos += 1,
                }
            }
            out.push_str(&self.text[run..self.pos]);
            if self.bytes[self.pos] == b'"' {
                self.pos += 1;
                return Ok(Cow::Owned(out));
            }
            let escape = self.pos;
            self.pos += 1;
            let c = match self.bytes.get(self.pos) {
                Some(b'"') => '"',
                Some(b'\\') => '\\',
                Some(b'/') => '/',
                Some(b'b') => '\u{8}',
                Some(b'f') => '\u{c}',
                Some(b'n') => '\n',
                Some(b'r') => '\r',
                Some(b't') => '\t',
                Some(b'u') => {
                    self.pos += 1;
                    let high = self.hex4(escape)?;
                    let c = if (0xD800..0xDC00).contains(&high) {
                        if !self.bytes[self.pos..].starts_with(b"\\u") {
                            return Err(self.lone_surrogate(escape));
                        }
                        self.pos += 2;
                        let low = self.hex4(escape)?;
                        if !(0xDC00..0xE000).contains(&low) {
                            return Err(self.lone_surrogate(escape));
                        }
                        char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                    } else {
                        char::from_u32(high)
                    };
                    match c {
                        Some(c) => out.push(c),
                        None => return Err(self.lone_surrogate(escape)),
                    }
                    continue;
                }
                None => return Err(self.unterminated(open)),
                Some(_) => {
                    let end = self.char_end(self.pos);
                    return Err(self
                        .error_at(
                            escape,
                            end,
                            msg!("syntax-invalid-escape", escape = &self.text[escape..end]),
                        )
                        .help(msg!("syntax-invalid-escape-help")));
                }
            };
            out.push(c);
            self.pos += 1;
        }
    }

    fn hex4(&mut self, escape: usize) -> Result<u32, SyntaxError> {
        let digits = self.bytes.get(self.pos..self.pos + 4);
        let value = digits.and_then(|d| {
            d.iter()
                .try_fold(0u32, |n, b| (*b as char).to_digit(16).map(|v| n * 16 + v))
        });
        match value {
            Some(v) => {
                self.pos += 4;
                Ok(v)
            }
            None => Err(self.error_at(
                escape,
                self.pos.min(self.bytes.len()),
                msg!("syntax-unicode-escape"),
            )),
        }
    }

    fn lone_surrogate(&self, escape: usize) -> SyntaxError {
        self.error_at(
            escape,
            self.pos.min(self.bytes.len()),
            msg!("syntax-lone-surrogate"),
        )
    }

    /// A string still open at the end of the text.
    fn unterminated(&self, open: usize) -> SyntaxError {
        self.error_at(
            open,
            self.text.trim_end().len().max(open + 1),
            msg!("syntax-unterminated"),
        )
        .help(msg!("syntax-unterminated-help"))
    }

    /// A string still open at the end of its line (`pos` is the line break):
    /// reported where it opens, since the line break is where it went wrong.
    fn open_at_line_end(&self, open: usize) -> SyntaxError {
        let content = &self.text[open + 1..self.pos];
        let err = self.error_at(open, self.pos, msg!("syntax-open-at-line-end"));
        // A typographic quote typed where the closing `"` belongs.
        let typographic = content.char_indices().rev().find(|&(i, c)| {
            let after = content[i + c.len_utf8()..].trim();
            matches!(c, '\u{201C}' | '\u{201D}' | '\u{FF02}')
                && (after.is_empty() || after.starts_with([',', ':', '}', ']']))
        });
        if let Some((i, c)) = typographic {
            let at = open + 1 + i;
            let (name, _) = lookalike(c).unwrap_or((msg!("char-quotation-mark"), "\""));
            return err
                .help(msg!(
                    "syntax-typographic-end-help",
                    name = name,
                    char = c,
                    code = format!("{:04X}", c as u32)
                ))
                .fix(at, at + c.len_utf8(), "\"");
        }
        err.help(if content.trim_end().ends_with(',') {
            msg!("syntax-open-at-line-end-comma-help")
        } else {
            msg!("syntax-open-at-line-end-help")
        })
    }

    fn control_in_string(&self, b: u8) -> SyntaxError {
        let (what, escape) = match b {
            b'\t' => (msg!("char-tab"), "\\t".to_string()),
            _ => (
                msg!("char-control", code = format!("{b:04X}")),
                format!("\\u{b:04x}"),
            ),
        };
        self.error_at(
            self.pos,
            self.pos + 1,
            msg!("syntax-control-in-string", what = what),
        )
        .help(msg!(
            "syntax-control-in-string-help",
            escape = escape.as_str()
        ))
        .fix(self.pos, self.pos + 1, escape)
    }
}

fn duplicate(first: &Member<'_>, second: &Member<'_>) -> Duplicate {
    Duplicate {
        key: second.key.to_string(),
        first: first.key_start,
        start: second.key_start,
        end: second.key_end,
    }
}

/// The opening and closing bracket of the container that opens with `b`.
fn brackets(b: u8) -> (char, char) {
    if b == b'{' { ('{', '}') } else { ('[', ']') }
}

fn describe(c: char) -> String {
    if c.is_control() || c.is_whitespace() {
        format!("U+{:04X}", c as u32)
    } else {
        format!("`{c}`")
    }
}

impl<'a> Node<'a> {
    /// The member `key` of an object (the first one, when it is repeated).
    pub fn get(&self, key: &str) -> Option<&Node<'a>> {
        match &self.value {
            Json::Object(members) => members.iter().find(|m| m.key == key).map(|m| &m.value),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Node<'a>]> {
        match &self.value {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&[Member<'a>]> {
        match &self.value {
            Json::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The node an RFC 6901 pointer names, with the member when the last
    /// step was an object key.
    pub fn pointer(&self, pointer: &str) -> Option<&Node<'a>> {
        self.walk(pointer).ok().map(|(node, _)| node)
    }

    /// Follows `pointer` as far as it resolves: `Ok` with the node (and the
    /// member, when the last step went through a key), or `Err` with the
    /// deepest node reached.
    pub fn walk(&self, pointer: &str) -> Result<(&Node<'a>, Option<&Member<'a>>), &Node<'a>> {
        let mut node = self;
        let mut member = None;
        if pointer.is_empty() {
            return Ok((node, None));
        }
        for raw in pointer.strip_prefix('/').unwrap_or(pointer).split('/') {
            let segment: Cow<'_, str> = if raw.contains('~') {
                Cow::Owned(raw.replace("~1", "/").replace("~0", "~"))
            } else {
                Cow::Borrowed(raw)
            };
            match &node.value {
                Json::Object(members) => {
                    let Some(m) = members.iter().find(|m| m.key == segment) else {
                        return Err(node);
                    };
                    member = Some(m);
                    node = &m.value;
                }
                Json::Array(items) => {
                    let Some(item) = segment.parse::<usize>().ok().and_then(|i| items.get(i))
                    else {
                        return Err(node);
                    };
                    member = None;
                    node = item;
                }
                _ => return Err(node),
            }
        }
        Ok((node, member))
    }

    /// The `serde_json::Value` of this node. A repeated key keeps its last
    /// value, as serde_json does.
    pub fn to_value(&self) -> serde_json::Value {
        use serde_json::Value;
        match &self.value {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => serde_json::from_str::<serde_json::Number>(n)
                .map(Value::Number)
                .unwrap_or(Value::Null),
            Json::String(s) => Value::String(s.to_string()),
            Json::Array(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            Json::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|m| (m.key.to_string(), m.value.to_value()))
                    .collect(),
            ),
        }
    }
}

/// The byte offset in `raw` (the text of a string literal between its quotes)
/// where the character number `index` of the unescaped string begins.
pub fn raw_offset(raw: &str, index: usize) -> usize {
    let bytes = raw.as_bytes();
    let mut pos = 0;
    let mut n = 0;
    while pos < bytes.len() {
        if n == index {
            return pos;
        }
        if bytes[pos] == b'\\' {
            let len = if bytes.get(pos + 1) == Some(&b'u') {
                // A surrogate pair is one character written as two escapes.
                let high = raw
                    .get(pos + 2..pos + 6)
                    .and_then(|h| u32::from_str_radix(h, 16).ok());
                if high.is_some_and(|h| (0xD800..0xDC00).contains(&h)) {
                    12
                } else {
                    6
                }
            } else {
                2
            };
            pos = (pos + len).min(bytes.len());
        } else {
            pos += raw[pos..].chars().next().map_or(1, char::len_utf8);
        }
        n += 1;
    }
    pos
}

/// How a message names the type of a JSON value: "a string", "an object",
/// "null"; the one wording of the checker's and the control API's errors.
pub fn kind_of(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_borrows() {
        let parsed = parse(r#"{"a": [1, "x", "y\n"], "b": null}"#).unwrap();
        let a = parsed.root.get("a").unwrap().as_array().unwrap();
        assert!(matches!(a[1].value, Json::String(Cow::Borrowed("x"))));
        assert_eq!(a[2].as_str(), Some("y\n"));
        assert_eq!(parsed.root.pointer("/a/1").unwrap().start, 10);
    }

    #[test]
    fn finds_duplicates_at_every_depth() {
        let parsed = parse(r#"{"a": {"k": 1, "k": 2}, "a": 3}"#).unwrap();
        let keys: Vec<_> = parsed.duplicates.iter().map(|d| d.key.as_str()).collect();
        assert_eq!(keys, ["k", "a"]);
    }

    #[test]
    fn refuses_what_serde_json_refuses() {
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\":1,}",
            "01",
            "1e999",
            "\"\\ud800\"",
            "\"\t\"",
            "\"\\q\"",
            "[1] 2",
            "{'a': 1}",
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
            assert!(
                serde_json::from_str::<serde_json::Value>(bad).is_err(),
                "{bad:?}"
            );
        }
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert!(parse(&deep).is_err());
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse(&ok).is_ok());
    }

    #[test]
    fn raw_offsets_follow_escapes() {
        assert_eq!(raw_offset("ab", 1), 1);
        assert_eq!(raw_offset("\\u200bx", 1), 6);
        assert_eq!(raw_offset("\\ud83d\\ude00x", 1), 12);
        assert_eq!(raw_offset("星x", 1), 3);
    }

    /// The eight-bytes-at-a-time scan stops where a byte-by-byte scan does,
    /// for every stop byte at every offset of a word, after any prefix.
    #[test]
    fn skip_plain_agrees_with_a_byte_scan() {
        let naive = |bytes: &[u8], mut pos: usize| {
            while bytes
                .get(pos)
                .is_some_and(|&b| !STRING_STOP[usize::from(b)])
            {
                pos += 1;
            }
            pos
        };
        let fillers: [&[u8]; 3] = [
            b"abcdefghijklmnopqrstuvwx",
            "活动名称，限时开启！".as_bytes(),
            &[0x20, 0x21, 0x7F, 0x80, 0xFF, 0x5B, 0x5D, 0x23],
        ];
        for filler in fillers {
            for stop in (0..=255u8)
                .filter(|&b| STRING_STOP[usize::from(b)])
                .chain([b'a'])
            {
                for at in 0..filler.len() {
                    let mut bytes = filler.to_vec();
                    bytes[at] = stop;
                    for start in 0..=bytes.len() {
                        assert_eq!(
                            skip_plain(&bytes, start),
                            naive(&bytes, start),
                            "stop {stop:#x} at {at}, from {start}"
                        );
                    }
                }
            }
        }
    }
}
