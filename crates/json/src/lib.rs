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
//! comma, a comment, single quotes, `NaN`, a leading zero or `+`. Each is an
//! [`ErrorKind`] with the facts that describe it (what was expected, what
//! was found, the line a bracket opened on, the look-alike character and
//! its ASCII stand-in) and, where the repair is certain, the exact [`Edit`].
//! The parser words nothing: turning a kind into a sentence, in whatever
//! language, is the caller's business.
//!
//! A leaf: of the workspace it depends on `stdx` alone (for [`kind_of`]),
//! and it knows nothing about messages, diagnostics, files or rules.
//! Offsets are bytes; turning them into lines and character columns is the
//! caller's business (a kind that names another place, such as the line a
//! bracket opened on, carries that line).
//!
//! # May know, may not know
//!
//! May know `stdx`. May not know the messages ([`ErrorKind`]s are worded
//! by the checker above it), the checker or anything above: it does not
//! depend on them, so the compiler refuses the arrow.

// Built with `cargo doc --document-private-items` for contributors, where a
// link to a private item resolves.
#![allow(rustdoc::private_intra_doc_links)]

use std::borrow::Cow;

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
    /// What is wrong, with the facts a sentence about it needs.
    pub kind: ErrorKind,
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
    fn fix(mut self, start: usize, end: usize, replacement: impl Into<String>) -> Self {
        self.fix = Some(Edit {
            start,
            end,
            replacement: replacement.into(),
        });
        self
    }
}

/// What a [`SyntaxError`] found, as data. Each kind is one mistake, and
/// its fields are all a caller needs to word both the mistake and the way
/// out (a closed comment and one never closed are two kinds, since the
/// way out differs); no kind holds a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// The text starts with a byte-order mark (U+FEFF); the fix removes it.
    ByteOrderMark,
    /// The text holds no value: it is empty or only whitespace.
    Empty,
    /// Something follows the document's outermost value, which closes on
    /// `line` (1-based).
    AfterEnd { line: usize },
    /// The text ends where `expected` belongs, with no bracket open.
    EndOfText { expected: Expected },
    /// `found` stands where `expected` belongs. When `found` is a bracket,
    /// `open` is the innermost bracket still open.
    Unexpected {
        expected: Expected,
        found: char,
        open: Option<OpenBracket>,
    },
    /// An input method's punctuation outside a string.
    Lookalike(Lookalike),
    /// A comment (`//` to the end of the line, or a closed `/* */`).
    Comment,
    /// A `/*` comment never closed by `*/`.
    UnclosedComment,
    /// A string in single quotes.
    SingleQuotes,
    /// `NaN` or `Infinity` (`word`) where a value belongs.
    NotANumber { word: &'static str },
    /// A number written with a leading `+`.
    Plus,
    /// The text ends inside a bracket.
    NeverClosed(OpenBracket),
    /// A comma right before the closing bracket of a `container`.
    TrailingComma { container: Container },
    /// No comma between two items of a `container`.
    MissingComma { container: Container },
    /// An object key written without quotes.
    BareKey { word: String },
    /// Arrays and objects nest deeper than `max` levels.
    TooDeep { max: usize },
    /// A number's integer part (`digits`) starts with a zero; its fix
    /// writes [`without_leading_zeros`] of it.
    LeadingZero { digits: String },
    /// A number too large for a finite double.
    NumberRange,
    /// A backslash escape JSON does not know (`escape`, backslash included).
    InvalidEscape { escape: String },
    /// `\u` without four hexadecimal digits.
    UnicodeEscape,
    /// A `\u` escape of half a surrogate pair.
    LoneSurrogate,
    /// A string still open at the end of the text.
    Unterminated,
    /// A control character (`byte`) inside a string; its fix writes
    /// [`escape_control`] of it.
    ControlInString { byte: u8 },
    /// A string still open at the end of its line; `close` says where its
    /// fix puts the closing quote.
    OpenAtLineEnd { close: LineEnd },
    /// A string opened with `"` and closed with an input method's `quote`.
    TypographicClose { quote: char },
    /// A key or a value (`role`) quoted from end to end with an input
    /// method's quotes `open` and `close`; `content` is what they hold.
    TypographicString {
        role: Role,
        open: char,
        close: char,
        content: String,
    },
}

/// What the parser wanted where an [`ErrorKind::Unexpected`] or an
/// [`ErrorKind::EndOfText`] stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    Value,
    /// An object key in double quotes.
    Key,
    /// The `:` after a key.
    Colon,
    /// A digit of a number's integer part.
    Digit,
    /// A digit after the decimal point.
    FractionDigit,
    /// A digit of the exponent.
    ExponentDigit,
    /// `,` or the closing bracket of the container.
    CommaOrClose(Container),
}

/// An object or an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Container {
    Object,
    Array,
}

impl Container {
    /// The bracket that opens it: `{` or `[`.
    pub fn open(self) -> char {
        match self {
            Container::Object => '{',
            Container::Array => '[',
        }
    }

    /// The bracket that closes it: `}` or `]`.
    pub fn close(self) -> char {
        match self {
            Container::Object => '}',
            Container::Array => ']',
        }
    }
}

/// A bracket still open: the container it opens and its 1-based line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenBracket {
    pub container: Container,
    pub line: usize,
}

/// Where the fix of a string left open at the end of its line
/// ([`ErrorKind::OpenAtLineEnd`]) closes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnd {
    /// An input method's quote stands where the closing `"` belongs; the fix
    /// replaces it.
    TypographicQuote(char),
    /// Before the comma (ASCII or full-width) that ends the line.
    BeforeComma(char),
    /// After the last character of the line that is not whitespace.
    AfterText,
}

/// What a string stands for where it is read: an object's key (closed by
/// the quote a colon follows) or a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Key,
    Value,
}

/// Punctuation an input method types in place of JSON's ASCII. The variant
/// is the character's stable name; [`Lookalike::char`] and
/// [`Lookalike::ascii`] give the character and what to type instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lookalike {
    FullWidthComma,
    FullWidthColon,
    LeftDoubleQuote,
    RightDoubleQuote,
    LeftSingleQuote,
    RightSingleQuote,
    FullWidthQuote,
    FullWidthLeftBrace,
    FullWidthRightBrace,
    FullWidthLeftBracket,
    FullWidthRightBracket,
    IdeographicSpace,
    LeftCornerBracket,
    RightCornerBracket,
    LeftWhiteCornerBracket,
    RightWhiteCornerBracket,
}

/// Each [`Lookalike`], in the order of its variants, with its character
/// and its ASCII stand-in.
const LOOKALIKES: [(Lookalike, char, &str); 16] = [
    (Lookalike::FullWidthComma, '\u{FF0C}', ","),
    (Lookalike::FullWidthColon, '\u{FF1A}', ":"),
    (Lookalike::LeftDoubleQuote, '\u{201C}', "\""),
    (Lookalike::RightDoubleQuote, '\u{201D}', "\""),
    (Lookalike::LeftSingleQuote, '\u{2018}', "\""),
    (Lookalike::RightSingleQuote, '\u{2019}', "\""),
    (Lookalike::FullWidthQuote, '\u{FF02}', "\""),
    (Lookalike::FullWidthLeftBrace, '\u{FF5B}', "{"),
    (Lookalike::FullWidthRightBrace, '\u{FF5D}', "}"),
    (Lookalike::FullWidthLeftBracket, '\u{FF3B}', "["),
    (Lookalike::FullWidthRightBracket, '\u{FF3D}', "]"),
    (Lookalike::IdeographicSpace, '\u{3000}', " "),
    (Lookalike::LeftCornerBracket, '\u{300C}', "\""),
    (Lookalike::RightCornerBracket, '\u{300D}', "\""),
    (Lookalike::LeftWhiteCornerBracket, '\u{300E}', "\""),
    (Lookalike::RightWhiteCornerBracket, '\u{300F}', "\""),
];

impl Lookalike {
    /// The character an input method types.
    pub fn char(self) -> char {
        LOOKALIKES[self as usize].1
    }

    /// The ASCII JSON wants in its place (a space for the ideographic one).
    pub fn ascii(self) -> &'static str {
        LOOKALIKES[self as usize].2
    }
}

/// The look-alike of JSON punctuation that `c` is, if any.
pub fn lookalike(c: char) -> Option<Lookalike> {
    LOOKALIKES
        .iter()
        .find(|(_, l, _)| *l == c)
        .map(|(lookalike, _, _)| *lookalike)
}

/// The ASCII stand-in of `c` when it is a look-alike of JSON punctuation.
fn ascii_of(c: char) -> Option<&'static str> {
    lookalike(c).map(Lookalike::ascii)
}

/// How a control character is written escaped inside a string: `\t` for
/// a tab, `\u00XX` for the others.
pub fn escape_control(b: u8) -> String {
    match b {
        b'\t' => "\\t".to_string(),
        _ => format!("\\u{b:04x}"),
    }
}

/// The integer digits of a number without their leading zeros (`0` when
/// they are all zeros).
pub fn without_leading_zeros(digits: &str) -> &str {
    match digits.trim_start_matches('0') {
        "" => "0",
        t => t,
    }
}

/// How many syntax errors of one file [`parse_all`] describes; the rest are
/// only counted ([`SyntaxErrors::more`]).
pub const MAX_ERRORS: usize = 50;

/// Every syntax error of a text, in the order of the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxErrors {
    /// The first [`MAX_ERRORS`] errors; never empty.
    pub errors: Vec<SyntaxError>,
    /// How many more errors were found after those.
    pub more: usize,
}

/// Parses `text` as one strict JSON value; `Err` with the first syntax error.
pub fn parse(text: &str) -> Result<Parsed<'_>, SyntaxError> {
    parse_all(text).map_err(|errors| {
        errors
            .errors
            .into_iter()
            .next()
            .expect("a failed parse has an error")
    })
}

/// Parses `text` as one strict JSON value; `Err` with every syntax error
/// (see [`parse_recovering`], which also gives what recovery read).
pub fn parse_all(text: &str) -> Result<Parsed<'_>, SyntaxErrors> {
    parse_recovering(text).map_err(|recovered| recovered.errors)
}

/// A text with syntax errors: the errors, and the document as recovery
/// read it when that reading is certain.
#[derive(Debug, Clone, PartialEq)]
pub struct Recovered<'a> {
    pub errors: SyntaxErrors,
    /// The document as the errors' fixes would have it, with the byte
    /// ranges of the text as typed; `Some` only when every error has an
    /// exact fix and parsing read to the end (nothing was skipped or
    /// guessed), so the rules can run on it and point at what was typed.
    pub parsed: Option<Parsed<'a>>,
}

/// Parses `text` as one strict JSON value; `Err` with every syntax error.
///
/// After an error the parser goes on as the error's fix would have it (a
/// full-width comma is read as a comma, a string left open at the end of its
/// line ends where its fix closes it, a missing comma is assumed), or, where
/// there is no fix, skips what it cannot read, so one run names every
/// mistake. What it builds after an error is returned only when every error
/// has an exact fix ([`Recovered::parsed`]). The work stays linear in the
/// text: every byte is read a bounded number of times, and errors past
/// [`MAX_ERRORS`] are counted without being described.
pub fn parse_recovering(text: &str) -> Result<Parsed<'_>, Recovered<'_>> {
    let mut parser = Parser::new(text);
    // A byte-order mark (Notepad's UTF-8) is one mistake with an exact fix;
    // the text behind it is read as if it were not there.
    if text.starts_with('\u{feff}') {
        let bom = '\u{feff}'.len_utf8();
        let err = parser
            .error_at(0, bom, ErrorKind::ByteOrderMark)
            .fix(0, bom, "");
        parser.report(err);
        parser.pos = bom;
    }
    parser.skip_ws();
    if parser.pos == parser.bytes.len() {
        parser.report(parser.error_at(0, 0, ErrorKind::Empty));
        return Err(Recovered {
            errors: parser.into_errors(),
            parsed: None,
        });
    }
    let root = parser.value(0).ok();
    if let Some(root) = &root {
        parser.skip_ws();
        if parser.pos != parser.bytes.len() {
            let err = parser.mistake().unwrap_or_else(|| {
                let line = parser.line_of(root.end.saturating_sub(1));
                parser.error_here(ErrorKind::AfterEnd { line })
            });
            parser.report(err);
        }
    }
    let duplicates = std::mem::take(&mut parser.duplicates);
    match root {
        Some(root) if parser.errors.is_empty() => Ok(Parsed { root, duplicates }),
        root => {
            let exact = parser.more == 0 && parser.errors.iter().all(|e| e.fix.is_some());
            Err(Recovered {
                parsed: root
                    .filter(|_| exact)
                    .map(|root| Parsed { root, duplicates }),
                errors: parser.into_errors(),
            })
        }
    }
}

/// The work [`parse_all`] did on `text`: how many times the parser looked
/// at the next token. A test holds it linear in the length of the text.
#[doc(hidden)]
pub fn parse_steps(text: &str) -> usize {
    let mut parser = Parser::new(text);
    parser.skip_ws();
    let _ = parser.value(0);
    parser.steps
}

/// Parsing cannot go on (the text ends inside a value, or nests too deep);
/// the error is already reported.
struct Stop;

type Step<T> = Result<T, Stop>;

/// What stands where an object wants a key.
enum Key<'a> {
    Found(Cow<'a, str>),
    /// Something that is no key was skipped; look again.
    Skipped,
    /// The object closes.
    Close,
}

/// Structural characters: where [`Parser::skip_token`] stops.
fn structural(c: char) -> bool {
    matches!(c, '{' | '}' | '[' | ']' | ',' | ':' | '"') || c.is_ascii_whitespace()
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    duplicates: Vec<Duplicate>,
    /// Offsets of the `{` and `[` not closed yet, innermost last: an error
    /// names the one left open.
    open: Vec<usize>,
    errors: Vec<SyntaxError>,
    more: usize,
    /// Where the last error started: one error per place.
    last_error: Option<usize>,
    /// Offsets of the line breaks, computed at the first message that names a line.
    lines: std::cell::OnceCell<Vec<usize>>,
    /// How many times a token was looked at (see [`parse_steps`]).
    steps: usize,
}

impl<'a> Parser<'a> {
    /// A parser at the start of `text`, with nothing found yet.
    fn new(text: &'a str) -> Self {
        Parser {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            duplicates: Vec::new(),
            open: Vec::new(),
            errors: Vec::new(),
            more: 0,
            last_error: None,
            lines: std::cell::OnceCell::new(),
            steps: 0,
        }
    }

    fn into_errors(mut self) -> SyntaxErrors {
        // Reported in the order read; a missing comma is found after the
        // value it follows, which may hold an error of its own.
        self.errors.sort_by_key(|e| e.start);
        SyntaxErrors {
            errors: self.errors,
            more: self.more,
        }
    }

    /// Records an error (the first one at its place) and goes on.
    fn report(&mut self, err: SyntaxError) {
        if self.last_error == Some(err.start) {
            return;
        }
        self.last_error = Some(err.start);
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(err);
        } else {
            self.more += 1;
        }
    }

    /// Records an error after which parsing cannot go on.
    fn fail(&mut self, err: SyntaxError) -> Stop {
        self.report(err);
        Stop
    }

    fn error_at(&self, start: usize, end: usize, kind: ErrorKind) -> SyntaxError {
        SyntaxError {
            start,
            end,
            kind,
            fix: None,
        }
    }

    /// An error at the current position, one character wide.
    fn error_here(&self, kind: ErrorKind) -> SyntaxError {
        self.error_at(self.pos, self.char_end(self.pos), kind)
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
        let lines = self.lines.get_or_init(|| {
            self.bytes
                .iter()
                .enumerate()
                .filter(|&(_, &b)| b == b'\n')
                .map(|(i, _)| i)
                .collect()
        });
        lines.partition_point(|&nl| nl < at) + 1
    }

    /// The container whose bracket opened at `open` (an input method's
    /// full-width bracket counts as the ASCII one).
    fn container(&self, open: usize) -> Container {
        if self.text[open..].starts_with(['{', '\u{FF5B}']) {
            Container::Object
        } else {
            Container::Array
        }
    }

    /// The bracket that opened at `open`, with its line.
    fn open_bracket(&self, open: usize) -> OpenBracket {
        OpenBracket {
            container: self.container(open),
            line: self.line_of(open),
        }
    }

    /// What is found at `pos` is not `expected`: a known mistake (see
    /// [`Parser::mistake`]) or "expected X, found Y".
    fn unexpected(&self, expected: Expected) -> SyntaxError {
        if let Some(err) = self.mistake() {
            return err;
        }
        let Some(found) = self.text[self.pos..].chars().next() else {
            return match self.open.last() {
                Some(&open) => self.never_closed(open),
                None => self.error_here(ErrorKind::EndOfText { expected }),
            };
        };
        let open = match (self.open.last(), found) {
            (Some(&open), '{' | '[' | '}' | ']') => Some(self.open_bracket(open)),
            _ => None,
        };
        self.error_here(ErrorKind::Unexpected {
            expected,
            found,
            open,
        })
    }

    /// The mistakes people make where JSON wants punctuation or a value:
    /// look-alike punctuation from an input method, a comment, single
    /// quotes, `NaN` or `Infinity`, a number with a `+`.
    fn mistake(&self) -> Option<SyntaxError> {
        let at = self.pos;
        let rest = &self.text[at..];
        let c = rest.chars().next()?;
        let end = at + c.len_utf8();
        if let Some(found) = lookalike(c) {
            let ascii = found.ascii();
            // A full-width colon typed right before its value becomes
            // `: `, the spacing the canonical form writes.
            let replacement = if found == Lookalike::FullWidthColon
                && !self.text[end..].starts_with([' ', '\t', '\n', '\r', '\u{3000}'])
            {
                ": "
            } else {
                ascii
            };
            return Some(self.error_at(at, end, ErrorKind::Lookalike(found)).fix(
                at,
                end,
                replacement,
            ));
        }
        if rest.starts_with("//") {
            let line = rest.split('\n').next().unwrap_or(rest);
            let len = line.trim_end_matches('\r').len();
            return Some(
                self.error_at(at, at + len, ErrorKind::Comment)
                    .fix(at, at + len, ""),
            );
        }
        if let Some(body) = rest.strip_prefix("/*") {
            return Some(match body.find("*/") {
                Some(i) => self.error_at(at, at + 2 + i + 2, ErrorKind::Comment).fix(
                    at,
                    at + 2 + i + 2,
                    "",
                ),
                None => self.error_at(at, at + 2, ErrorKind::UnclosedComment),
            });
        }
        if c == '\'' {
            let line = rest[1..].split('\n').next().unwrap_or("");
            let err = self.error_at(at, end, ErrorKind::SingleQuotes);
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
            return Some(self.error_at(at, at + word.len(), ErrorKind::NotANumber { word }));
        }
        if c == '+' && rest[1..].starts_with(|d: char| d.is_ascii_digit()) {
            return Some(self.error_at(at, end, ErrorKind::Plus).fix(at, end, ""));
        }
        None
    }

    /// The end of the text inside the bracket that opened at `open`.
    fn never_closed(&self, open: usize) -> SyntaxError {
        let bracket = self.open_bracket(open);
        let end = self.text.trim_end().len();
        self.error_at(end, end, ErrorKind::NeverClosed(bracket))
            .fix(end, end, bracket.container.close().to_string())
    }

    /// A comma (`len` bytes) before the closing bracket of a `container`.
    fn trailing_comma(&self, comma: usize, len: usize, container: Container) -> SyntaxError {
        self.error_at(comma, comma + len, ErrorKind::TrailingComma { container })
            .fix(comma, comma + len, "")
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
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
            self.error_at(
                self.pos,
                self.pos + len,
                ErrorKind::BareKey {
                    word: word.to_string(),
                },
            )
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

    fn lone_surrogate(&self, escape: usize) -> SyntaxError {
        self.error_at(
            escape,
            self.pos.min(self.bytes.len()),
            ErrorKind::LoneSurrogate,
        )
    }

    /// A string still open at the end of the text.
    fn unterminated(&self, open: usize) -> SyntaxError {
        self.error_at(
            open,
            self.text.trim_end().len().max(open + 1),
            ErrorKind::Unterminated,
        )
    }

    fn control_in_string(&self, byte: u8) -> SyntaxError {
        self.error_at(self.pos, self.pos + 1, ErrorKind::ControlInString { byte })
            .fix(self.pos, self.pos + 1, escape_control(byte))
    }

    /// After a member or an element, a value where `,` belongs: the comma
    /// is missing, at the end of the value before it.
    fn missing_comma(&self, container: Container, previous_end: usize) -> SyntaxError {
        let last = self.text[..previous_end]
            .char_indices()
            .next_back()
            .map_or(0, |(i, _)| i);
        self.error_at(last, previous_end, ErrorKind::MissingComma { container })
            .fix(previous_end, previous_end, ",")
    }

    /// Skips one thing that cannot be read: a structural character, or a run
    /// of characters up to the next structural one or space. Always moves.
    fn skip_token(&mut self) {
        self.steps += 1;
        let rest = &self.text[self.pos..];
        let Some(first) = rest.chars().next() else {
            return;
        };
        if structural(first) || lookalike(first).is_some() {
            self.pos += first.len_utf8();
            return;
        }
        let len = rest
            .find(|c: char| structural(c) || lookalike(c).is_some())
            .unwrap_or(rest.len());
        self.pos += len.max(first.len_utf8());
    }

    /// Skips the comment at `pos` (already reported).
    fn skip_comment(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += if rest.starts_with("//") {
            rest.find('\n').unwrap_or(rest.len())
        } else {
            rest[2..].find("*/").map_or(rest.len(), |i| 2 + i + 2)
        };
    }

    /// The text of a string in single quotes at `pos` (already reported):
    /// up to the closing quote on its line, or the end of the line.
    fn single_quoted(&mut self) -> Cow<'a, str> {
        let start = self.pos + 1;
        let rest = &self.text[start..];
        let line = rest.find(['\n', '\r']).unwrap_or(rest.len());
        match rest[..line].find('\'') {
            Some(i) => {
                self.pos = start + i + 1;
                Cow::Borrowed(&rest[..i])
            }
            None => {
                self.pos = start + line;
                Cow::Borrowed(&rest[..line])
            }
        }
    }

    fn value(&mut self, depth: usize) -> Step<Node<'a>> {
        loop {
            self.steps += 1;
            let start = self.pos;
            let value = match self.bytes.get(self.pos) {
                Some(b'{') => self.object(depth + 1, 1)?,
                Some(b'[') => self.array(depth + 1, 1)?,
                Some(b'"') => Json::String(self.string(1)?),
                Some(b't') => self.word("true", Json::Bool(true)),
                Some(b'f') => self.word("false", Json::Bool(false)),
                Some(b'n') => self.word("null", Json::Null),
                Some(b'-' | b'0'..=b'9') => Json::Number(self.number()),
                _ => match self.bad_value(depth)? {
                    Some(value) => value,
                    None => {
                        self.skip_ws();
                        continue;
                    }
                },
            };
            return Ok(Node {
                start,
                end: self.pos,
                value,
            });
        }
    }

    /// Where a value belongs, something else: reports it and goes on as its
    /// fix would. `Some` stands for the value; `None` means something was
    /// skipped and the value is looked for again.
    fn bad_value(&mut self, depth: usize) -> Step<Option<Json<'a>>> {
        let Some(c) = self.text[self.pos..].chars().next() else {
            return Err(self.fail(self.unexpected(Expected::Value)));
        };
        let len = c.len_utf8();
        if let Some(text) = self.typographic_string(Role::Value) {
            return Ok(Some(Json::String(text)));
        }
        let Some(err) = self.mistake() else {
            self.report(self.unexpected(Expected::Value));
            if !matches!(c, '}' | ']' | ',') {
                // What stands for the value (a closing bracket or a comma
                // is the container's to read).
                self.skip_token();
            }
            return Ok(Some(Json::Null));
        };
        self.report(err);
        if let Some(ascii) = ascii_of(c) {
            return Ok(match ascii {
                "\"" => Some(Json::String(self.string(len)?)),
                "{" => Some(self.object(depth + 1, len)?),
                "[" => Some(self.array(depth + 1, len)?),
                "}" | "]" => Some(Json::Null),
                _ => {
                    self.pos += len;
                    None
                }
            });
        }
        match c {
            '/' => {
                self.skip_comment();
                Ok(None)
            }
            '\'' => Ok(Some(Json::String(self.single_quoted()))),
            '+' => {
                self.pos += 1;
                Ok(Some(Json::Number(self.number())))
            }
            // `NaN`, `Infinity`.
            _ => {
                self.skip_token();
                Ok(Some(Json::Null))
            }
        }
    }

    /// A key opened with `"` at `open` and read to the next `"` (`key`,
    /// `pos` after it), where no colon follows: when a quote of an input
    /// method followed by a colon stands in it (`"description”: "…"`), that
    /// quote closed the key, and the `"` read as its end opened the value.
    /// Reports it with its fix and reads on from there; otherwise `key`.
    fn key_closed_typographic(&mut self, open: usize, key: Cow<'a, str>) -> Cow<'a, str> {
        let after = self.text[self.pos..].trim_start_matches([' ', '\t', '\n', '\r']);
        if after.starts_with([':', '\u{FF1A}']) {
            return key;
        }
        // Only a key that ended at a `"` (not one closed by recovery).
        let Some(raw) = self
            .pos
            .checked_sub(1)
            .filter(|&close| close > open && self.bytes[close] == b'"')
            .and_then(|close| self.text.get(open + 1..close))
        else {
            return key;
        };
        let space = |c: char| matches!(c, ' ' | '\t' | '\u{3000}');
        let found = raw.char_indices().find(|&(i, c)| {
            matches!(c, '\u{201C}' | '\u{201D}' | '\u{FF02}')
                && raw[i + c.len_utf8()..]
                    .trim_start_matches(space)
                    .starts_with([':', '\u{FF1A}'])
        });
        let Some((i, c)) = found.filter(|_| !raw.contains(['\\', '\n', '\r'])) else {
            return key;
        };
        let at = open + 1 + i;
        let end = at + c.len_utf8();
        self.report(
            self.error_at(at, end, ErrorKind::TypographicClose { quote: c })
                .fix(at, end, "\""),
        );
        self.pos = end;
        Cow::Borrowed(&raw[..i])
    }

    /// A key (`key`) or a value quoted from end to end with an input
    /// method's quotes (`“description”`, `「星海巡游」`): one mistake, one
    /// error over the whole string, whose fix types both ASCII quotes; the
    /// string is read as that fix has it. The closing quote is the first
    /// quote of the line that the rest of the line shows is one: a colon
    /// follows a key; a value is followed by its line's end, a closing
    /// bracket, or a comma and then the next key or value (so `“冬日”，获得`
    /// inside a text does not end it). `None`, with nothing read, when the
    /// quote at `pos` is no such opening: the caller reports it alone.
    fn typographic_string(&mut self, role: Role) -> Option<Cow<'a, str>> {
        let key = role == Role::Key;
        let open = self.pos;
        let first = self.text[open..].chars().next()?;
        if ascii_of(first) != Some("\"") {
            return None;
        }
        let start = open + first.len_utf8();
        let rest = &self.text[start..];
        let line = &rest[..rest.find(['\n', '\r']).unwrap_or(rest.len())];
        let is_quote = |c: char| ascii_of(c) == Some("\"");
        let space = |c: char| matches!(c, ' ' | '\t' | '\u{3000}');
        for (i, c) in line.char_indices() {
            self.steps += 1;
            // An ASCII quote, an escape or a control character: the
            // string is not typed with look-alikes alone.
            if c == '"' || c == '\\' || c.is_control() {
                return None;
            }
            if !is_quote(c) {
                continue;
            }
            let after = line[i + c.len_utf8()..].trim_start_matches(space);
            let next = after.chars().next();
            let ascii = next.map(|n| ascii_of(n).map_or(n, |a| a.chars().next().unwrap_or(n)));
            let closes = match ascii {
                None => !key,
                Some(':') => key,
                Some('}' | ']') => !key,
                Some(',') if !key => {
                    let then = after[next.map_or(0, char::len_utf8)..].trim_start_matches(space);
                    then.chars().next().is_none_or(|t| {
                        matches!(t, '"' | '{' | '[' | '}' | ']' | '\'')
                            || ascii_of(t)
                                .is_some_and(|a| matches!(a, "\"" | "{" | "[" | "}" | "]"))
                    })
                }
                _ => false,
            };
            if !closes {
                continue;
            }
            let content = &line[..i];
            let end = start + i + c.len_utf8();
            self.report(
                self.error_at(
                    open,
                    end,
                    ErrorKind::TypographicString {
                        role,
                        open: first,
                        close: c,
                        content: content.to_string(),
                    },
                )
                .fix(open, end, format!("\"{content}\"")),
            );
            self.pos = end;
            return Some(Cow::Borrowed(content));
        }
        None
    }

    fn word(&mut self, word: &str, value: Json<'a>) -> Json<'a> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            value
        } else {
            self.report(self.unexpected(Expected::Value));
            self.skip_token();
            Json::Null
        }
    }

    fn enter(&mut self, depth: usize) -> Step<()> {
        if depth > MAX_DEPTH {
            Err(self.fail(self.error_here(ErrorKind::TooDeep { max: MAX_DEPTH })))
        } else {
            self.open.push(self.pos);
            Ok(())
        }
    }

    /// An array whose bracket (`open_len` bytes) is at `pos`.
    fn array(&mut self, depth: usize, open_len: usize) -> Step<Json<'a>> {
        self.enter(depth)?;
        let open = self.pos;
        self.pos += open_len;
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
            if self.after_item(open, end)? {
                self.open.pop();
                return Ok(Json::Array(items));
            }
        }
    }

    /// After a member or an element of the container opened at `open`: a
    /// `,` (then `Ok(false)`: another item follows) or the closing bracket
    /// (`Ok(true)`). Anything else is reported, and read as its fix would
    /// have it: a missing comma is assumed, look-alike punctuation is read
    /// as the ASCII one, the rest is skipped.
    fn after_item(&mut self, open: usize, previous_end: usize) -> Step<bool> {
        let container = self.container(open);
        let object = container == Container::Object;
        let close = if object { b'}' } else { b']' };
        loop {
            self.steps += 1;
            self.skip_ws();
            let Some(&b) = self.bytes.get(self.pos) else {
                return Err(self.fail(self.never_closed(open)));
            };
            if b == b',' {
                let comma = self.pos;
                self.pos += 1;
                return Ok(self.trailing(comma, close, container));
            }
            if b == close {
                self.pos += 1;
                return Ok(true);
            }
            let c = self.text[self.pos..].chars().next().unwrap_or('\0');
            let len = c.len_utf8();
            let ascii = ascii_of(c);
            // A value (or key) written with a mistake of its own: the comma
            // before it is missing, and the value's parse reports the mistake.
            let opens_value = ascii == Some("\"")
                || c == '\''
                || (!object
                    && (matches!(
                        b,
                        b'{' | b'[' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n' | b'+' | b'N' | b'I'
                    ) || ascii == Some("{")
                        || ascii == Some("[")));
            if b == b'"' || opens_value {
                self.report(self.missing_comma(container, previous_end));
                return Ok(false);
            }
            match self.mistake() {
                Some(err) => {
                    if ascii != Some(",") {
                        self.report(err.clone());
                    }
                    match ascii {
                        Some(",") => {
                            let comma = self.pos;
                            self.pos += len;
                            self.skip_ws();
                            if self.bytes.get(self.pos) == Some(&close) {
                                // A trailing comma, full-width: deleting it
                                // is the fix, not typing the ASCII one.
                                self.report(self.trailing_comma(comma, len, container));
                                self.pos += 1;
                                return Ok(true);
                            }
                            self.report(err);
                            return Ok(false);
                        }
                        Some("}") if object => {
                            self.pos += len;
                            return Ok(true);
                        }
                        Some("]") if !object => {
                            self.pos += len;
                            return Ok(true);
                        }
                        _ if c == '/' => self.skip_comment(),
                        _ => self.skip_token(),
                    }
                }
                None => {
                    self.report(self.unexpected(Expected::CommaOrClose(container)));
                    self.skip_token();
                }
            }
        }
    }

    /// After the comma at `comma`: `true` (and the error) when the
    /// container closes right after it.
    fn trailing(&mut self, comma: usize, close: u8, container: Container) -> bool {
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&close) {
            self.report(self.trailing_comma(comma, 1, container));
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// An object whose brace (`open_len` bytes) is at `pos`.
    fn object(&mut self, depth: usize, open_len: usize) -> Step<Json<'a>> {
        self.enter(depth)?;
        let open = self.pos;
        self.pos += open_len;
        let mut members: Vec<Member<'a>> = Vec::new();
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            self.open.pop();
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_ws();
            let key_start = self.pos;
            let key = match self.key()? {
                Key::Found(key) => key,
                Key::Skipped => continue,
                Key::Close => {
                    self.open.pop();
                    self.find_duplicates(&members);
                    return Ok(Json::Object(members));
                }
            };
            let key_end = self.pos;
            self.skip_ws();
            self.colon();
            self.skip_ws();
            let value = self.value(depth)?;
            let end = value.end;
            members.push(Member {
                key,
                key_start,
                key_end,
                value,
            });
            if self.after_item(open, end)? {
                self.open.pop();
                self.find_duplicates(&members);
                return Ok(Json::Object(members));
            }
        }
    }

    /// Where an object wants a key.
    fn key(&mut self) -> Step<Key<'a>> {
        self.steps += 1;
        let Some(c) = self.text[self.pos..].chars().next() else {
            return Err(self.fail(self.unexpected(Expected::Key)));
        };
        if c == '"' {
            let open = self.pos;
            let key = self.string(1)?;
            return Ok(Key::Found(self.key_closed_typographic(open, key)));
        }
        if let Some(err) = self.bare_key() {
            let (start, end) = (err.start, err.end);
            self.report(err);
            self.pos = end;
            return Ok(Key::Found(Cow::Borrowed(&self.text[start..end])));
        }
        if c == '}' {
            // After something skipped: the object closes.
            self.pos += 1;
            return Ok(Key::Close);
        }
        let len = c.len_utf8();
        if let Some(key) = self.typographic_string(Role::Key) {
            return Ok(Key::Found(key));
        }
        let Some(err) = self.mistake() else {
            self.report(self.unexpected(Expected::Key));
            self.skip_token();
            return Ok(Key::Skipped);
        };
        self.report(err);
        Ok(match ascii_of(c) {
            Some("\"") => Key::Found(self.string(len)?),
            Some("}") => {
                self.pos += len;
                Key::Close
            }
            Some(_) => {
                self.pos += len;
                Key::Skipped
            }
            None if c == '\'' => Key::Found(self.single_quoted()),
            None if c == '/' => {
                self.skip_comment();
                Key::Skipped
            }
            None => {
                self.skip_token();
                Key::Skipped
            }
        })
    }

    /// The `:` after a key; a full-width colon is reported and read as one,
    /// anything else is reported and the value is read as if it were there.
    fn colon(&mut self) {
        if self.bytes.get(self.pos) == Some(&b':') {
            self.pos += 1;
            return;
        }
        let err = self.unexpected(Expected::Colon);
        let full_width = self.text[self.pos..].starts_with('\u{FF1A}');
        self.report(err);
        if full_width {
            self.pos += '\u{FF1A}'.len_utf8();
        }
    }

    /// A number at `pos`. A mistake in it is reported, and the number is
    /// read on as far as it goes.
    fn number(&mut self) -> &'a str {
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
            self.report(self.unexpected(Expected::Digit));
            return &self.text[start..self.pos];
        }
        if n > 1 && self.bytes[int_start] == b'0' {
            let digits = &self.text[int_start..self.pos];
            self.report(
                self.error_at(
                    int_start,
                    self.pos,
                    ErrorKind::LeadingZero {
                        digits: digits.to_string(),
                    },
                )
                .fix(int_start, self.pos, without_leading_zeros(digits)),
            );
        }
        let mut float = false;
        if self.bytes.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            float = true;
            if digits(self) == 0 {
                self.report(self.unexpected(Expected::FractionDigit));
                return &self.text[start..self.pos];
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.pos) {
            self.pos += 1;
            float = true;
            if let Some(b'+' | b'-') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
            if digits(self) == 0 {
                self.report(self.unexpected(Expected::ExponentDigit));
                return &self.text[start..self.pos];
            }
        }
        let text = &self.text[start..self.pos];
        if float && !text.parse::<f64>().is_ok_and(f64::is_finite) {
            self.report(self.error_at(start, self.pos, ErrorKind::NumberRange));
        }
        text
    }

    /// A string literal whose opening quote (`open_len` bytes: an input
    /// method's quote is read as one) is at `pos`; leaves `pos` after it.
    fn string(&mut self, open_len: usize) -> Step<Cow<'a, str>> {
        let open = self.pos;
        self.pos += open_len;
        let start = self.pos;
        // The common case: no escape, borrowed. Skip plain bytes first.
        self.pos = skip_plain(self.bytes, self.pos);
        if self.bytes.get(self.pos) == Some(&b'"') {
            let s = &self.text[start..self.pos];
            self.pos += 1;
            return Ok(Cow::Borrowed(s));
        }
        let mut out = String::with_capacity(self.pos - start + 16);
        out.push_str(&self.text[start..self.pos]);
        loop {
            let run = self.pos;
            self.pos = skip_plain(self.bytes, self.pos);
            out.push_str(&self.text[run..self.pos]);
            match self.bytes.get(self.pos) {
                None => return Err(self.fail(self.unterminated(open))),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\n' | b'\r') => {
                    // The string as its fix closes it, not to the line's end.
                    let end = self.open_at_line_end(open, start);
                    let raw = &self.text[start..end];
                    if !raw.contains('\\') {
                        return Ok(Cow::Borrowed(raw));
                    }
                    return Ok(serde_json::from_str::<String>(&format!("\"{raw}\""))
                        .map_or(Cow::Owned(out), Cow::Owned));
                }
                Some(b'\\') => self.escape(&mut out, open)?,
                Some(&b) => {
                    self.report(self.control_in_string(b));
                    self.pos += 1;
                }
            }
        }
    }

    /// The escape at `pos` (a backslash), pushed onto `out`. A bad one is
    /// reported and skipped.
    fn escape(&mut self, out: &mut String, open: usize) -> Step<()> {
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
                let Some(high) = self.hex4(escape) else {
                    return Ok(());
                };
                let c = if (0xD800..0xDC00).contains(&high) {
                    if !self.bytes[self.pos..].starts_with(b"\\u") {
                        self.report(self.lone_surrogate(escape));
                        return Ok(());
                    }
                    self.pos += 2;
                    let Some(low) = self.hex4(escape) else {
                        return Ok(());
                    };
                    if !(0xDC00..0xE000).contains(&low) {
                        self.report(self.lone_surrogate(escape));
                        return Ok(());
                    }
                    char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                } else {
                    char::from_u32(high)
                };
                match c {
                    Some(c) => out.push(c),
                    None => self.report(self.lone_surrogate(escape)),
                }
                return Ok(());
            }
            None => return Err(self.fail(self.unterminated(open))),
            Some(_) => {
                let end = self.char_end(self.pos);
                self.report(self.error_at(
                    escape,
                    end,
                    ErrorKind::InvalidEscape {
                        escape: self.text[escape..end].to_string(),
                    },
                ));
                // A line break after the backslash is the string's own error.
                if !matches!(self.bytes[self.pos], b'\n' | b'\r') {
                    self.pos = end;
                }
                return Ok(());
            }
        };
        out.push(c);
        self.pos += 1;
        Ok(())
    }

    /// Four hexadecimal digits at `pos`; `None` (reported) when they are not.
    fn hex4(&mut self, escape: usize) -> Option<u32> {
        let digits = self.bytes.get(self.pos..self.pos + 4);
        let value = digits.and_then(|d| {
            d.iter()
                .try_fold(0u32, |n, b| (*b as char).to_digit(16).map(|v| n * 16 + v))
        });
        match value {
            Some(v) => {
                self.pos += 4;
                Some(v)
            }
            None => {
                self.report(self.error_at(
                    escape,
                    self.pos.min(self.bytes.len()),
                    ErrorKind::UnicodeEscape,
                ));
                None
            }
        }
    }

    /// A string (opened at `open`, its text from `start`) still open at the
    /// end of its line (`pos` is the line break): reported where it opens,
    /// since the line break is where it went wrong. Leaves `pos` where the
    /// fix closes it, so the rest of the line reads as the fix would have
    /// it, and returns where the string's content ends. One pass over the
    /// line, backwards.
    fn open_at_line_end(&mut self, open: usize, start: usize) -> usize {
        let line_end = self.pos;
        let content = &self.text[start..line_end];
        let err = |p: &Self, close| p.error_at(open, line_end, ErrorKind::OpenAtLineEnd { close });
        // A typographic quote typed where the closing `"` belongs: the last
        // one followed by nothing or by punctuation.
        let mut next: Option<char> = None;
        let mut typographic = None;
        for (i, c) in content.char_indices().rev() {
            self.steps += 1;
            if matches!(c, '\u{201C}' | '\u{201D}' | '\u{FF02}')
                && next.is_none_or(|n| {
                    matches!(n, ',' | ':' | '}' | ']')
                        || ascii_of(n).is_some_and(|a| matches!(a, "," | ":" | "}" | "]"))
                })
            {
                typographic = Some((i, c));
                break;
            }
            if !c.is_whitespace() {
                next = Some(c);
            }
        }
        if let Some((i, c)) = typographic {
            let at = start + i;
            self.pos = at + c.len_utf8();
            if start - open > 1 {
                // Opened by a look-alike too, which is reported where it
                // stands: this error is the closing one's.
                self.report(
                    self.error_at(at, self.pos, ErrorKind::TypographicClose { quote: c })
                        .fix(at, self.pos, "\""),
                );
                return at;
            }
            self.report(err(self, LineEnd::TypographicQuote(c)).fix(at, at + c.len_utf8(), "\""));
            return at;
        }
        // The string must end on its line. A comma at its end separates
        // (unless the container closes right after, where a comma cannot
        // stand): the quote goes before it. Either way the text is kept.
        let trimmed = content.trim_end();
        let closes = self.text[line_end..].trim_start().starts_with(['}', ']']);
        let comma = [',', '\u{FF0C}']
            .into_iter()
            .find(|&c| trimmed.ends_with(c))
            .filter(|_| !closes);
        let at = start + trimmed.len() - comma.map_or(0, char::len_utf8);
        let close = comma.map_or(LineEnd::AfterText, LineEnd::BeforeComma);
        self.report(err(self, close).fix(at, at, "\""));
        self.pos = at;
        at
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

/// The byte range between the quotes of the string literal at
/// `start..end` of `text`. A string read past a syntax error may be quoted
/// with an input method's quotes, or end where its fix would close it
/// (no closing quote in the text).
pub fn string_inner(text: &str, start: usize, end: usize) -> (usize, usize) {
    let Some(literal) = text.get(start..end) else {
        return (start, end);
    };
    let mut chars = literal.chars();
    let open = chars.next().map_or(0, char::len_utf8);
    let close = match chars.next_back() {
        Some('"') => 1,
        Some(c @ ('\u{201C}' | '\u{201D}' | '\u{FF02}')) => c.len_utf8(),
        Some(c) if open > 1 && ascii_of(c) == Some("\"") => c.len_utf8(),
        _ => 0,
    };
    (start + open, (end - close).max(start + open))
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

/// How a message names the type of a JSON value (one owner, shared with
/// the control service).
pub use stdx::json::kind_of;

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

    /// Issue 33: recovery stays linear. A string left open on a long line
    /// of spaces took time quadratic in the line (each position of a
    /// backwards scan trimmed the rest of the line); the parser counts the
    /// tokens and characters it looks at, and four times the text must cost
    /// at most four times the work, for each shape that has been slow.
    #[test]
    fn recovery_is_linear_in_the_text() {
        type Shape = fn(usize) -> String;
        let shapes: [(&str, Shape); 9] = [
            ("open string of spaces", |n| {
                format!("{{\"a\": \"{}\n}}", " ".repeat(n))
            }),
            ("open string, spaces inside", |n| {
                format!("{{\"a\": \"x{}y\n}}", " ".repeat(n))
            }),
            ("typographic quotes on one line", |n| {
                format!("[\"{}\n]", "\u{201D} ".repeat(n / 2))
            }),
            ("typographic quotes opening values", |n| {
                format!("[{}\n]", "\u{201C}a\u{201D}, ".repeat(n / 8))
            }),
            ("typographic quotes never closing", |n| {
                format!("[{}\n]", "\u{201C} ".repeat(n / 4))
            }),
            ("junk words", |n| format!("[{}]", "x ".repeat(n / 2))),
            ("missing commas past the cap", |n| {
                format!("[{}]", "1 ".repeat(n / 2))
            }),
            ("full-width punctuation", |n| {
                format!("{{{}\"z\": 1}}", "\"a\"\u{FF1A}1\u{FF0C}".repeat(n / 8))
            }),
            ("single quotes never closed", |n| {
                format!("[{}]", "'a\n".repeat(n / 3))
            }),
        ];
        for (name, shape) in shapes {
            let small = parse_steps(&shape(10_000));
            let big = parse_steps(&shape(40_000));
            assert!(parse_all(&shape(10_000)).is_err(), "{name}");
            assert!(
                small > 0 && big <= 4 * small + 64,
                "{name}: {small} then {big}"
            );
        }
    }

    /// Every mistake of a line typed with an input method comes out in one
    /// run, each with its fix; past the cap the rest are counted.
    #[test]
    fn reports_every_error_and_caps_them() {
        let text = "{\n  \"name\": \u{201C}冬日庆典\u{201D}\u{FF0C}\n  \"kind\"\u{FF1A}\"签到\"\u{FF0C}\n  \"v\": \"4.7,\n  \"x\": [1, 2,],\n}";
        let errors = parse_all(text).unwrap_err();
        let found: Vec<_> = errors
            .errors
            .iter()
            .map(|e| (&text[e.start..e.end], e.fix.is_some()))
            .collect();
        assert_eq!(
            found,
            [
                ("\u{201C}冬日庆典\u{201D}", true),
                ("\u{FF0C}", true),
                ("\u{FF1A}", true),
                ("\u{FF0C}", true),
                ("\"4.7,", true),
                (",", true),
                (",", true),
            ]
        );
        assert_eq!(errors.more, 0);
        let many = format!("[{}]", "1 ".repeat(80));
        let errors = parse_all(&many).unwrap_err();
        assert_eq!(
            (errors.errors.len(), errors.more),
            (MAX_ERRORS, 79 - MAX_ERRORS)
        );
    }

    /// Issue 44: quotes typed with an input method around a key or a value
    /// are one mistake with one fix, whatever the string holds (full-width
    /// commas and quotes of the text itself); the document is read as the
    /// fixes have it, with the ranges of the text as typed.
    #[test]
    fn typographic_quotes_around_a_key_or_value_are_one_mistake() {
        let text = "{\n  \u{201C}description\u{201D}: \"限定5星角色…，同时复刻…。\",\n  \"name\": \u{300C}星海巡游\u{300D},\n  \"kind\": \u{201C}参加\u{201C}冬日\u{201D}，获得奖励\u{201D}\n}";
        let recovered = parse_recovering(text).unwrap_err();
        let found: Vec<_> = recovered
            .errors
            .errors
            .iter()
            .map(|e| {
                (
                    &text[e.start..e.end],
                    e.fix.as_ref().map(|f| f.replacement.as_str()),
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                ("\u{201C}description\u{201D}", Some("\"description\"")),
                ("\u{300C}星海巡游\u{300D}", Some("\"星海巡游\"")),
                (
                    "\u{201C}参加\u{201C}冬日\u{201D}，获得奖励\u{201D}",
                    Some("\"参加\u{201C}冬日\u{201D}，获得奖励\"")
                ),
            ]
        );
        let parsed = recovered.parsed.expect("every error has a fix");
        assert_eq!(
            parsed.root.get("description").and_then(Node::as_str),
            Some("限定5星角色…，同时复刻…。")
        );
        let name = parsed.root.get("name").unwrap();
        assert_eq!(&text[name.start..name.end], "\u{300C}星海巡游\u{300D}");
        assert_eq!(
            string_inner(text, name.start, name.end),
            (name.start + 3, name.end - 3)
        );
        // A key opened with `"` and closed with `”`: one mistake, the
        // value after it read as typed.
        let text = "{\"description\u{201D}: \"限定，复刻\", \"name\": \"x\"}";
        let recovered = parse_recovering(text).unwrap_err();
        assert_eq!(recovered.errors.errors.len(), 1, "{recovered:?}");
        let parsed = recovered.parsed.expect("its fix is exact");
        assert_eq!(
            parsed.root.get("description").and_then(Node::as_str),
            Some("限定，复刻")
        );
        // A mistake without an exact fix: no reading is given.
        assert!(
            parse_recovering("{\"a\": NaN}")
                .unwrap_err()
                .parsed
                .is_none()
        );
    }

    /// A syntax error is data, no message: the kind of mistake with the
    /// facts a caller words it with (what was expected, the character
    /// found, the line a bracket opened on, the look-alike and its ASCII).
    #[test]
    fn errors_say_what_is_wrong_as_data() {
        let text = "{\n  \"a\"\u{FF1A} [1 2,],\n  b: 01,\n  \"c\": \"x\ty\",\n  \"d\": [}\n";
        let kinds: Vec<ErrorKind> = parse_all(text)
            .unwrap_err()
            .errors
            .into_iter()
            .map(|e| e.kind)
            .collect();
        let array = Container::Array;
        assert_eq!(
            kinds,
            [
                ErrorKind::Lookalike(Lookalike::FullWidthColon),
                ErrorKind::MissingComma { container: array },
                ErrorKind::TrailingComma { container: array },
                ErrorKind::BareKey { word: "b".into() },
                ErrorKind::LeadingZero {
                    digits: "01".into()
                },
                ErrorKind::ControlInString { byte: b'\t' },
                ErrorKind::Unexpected {
                    expected: Expected::Value,
                    found: '}',
                    open: Some(OpenBracket {
                        container: array,
                        line: 5
                    }),
                },
                ErrorKind::NeverClosed(OpenBracket {
                    container: array,
                    line: 5
                }),
            ]
        );
        let colon = Lookalike::FullWidthColon;
        assert_eq!((colon.char(), colon.ascii()), ('\u{FF1A}', ":"));
    }

    /// The look-alike table lists each variant once, at its own index, so
    /// a variant finds its character and a character its variant.
    #[test]
    fn each_lookalike_is_its_row_of_the_table() {
        for (i, &(found, c, ascii)) in LOOKALIKES.iter().enumerate() {
            assert_eq!(found as usize, i, "{found:?}");
            assert_eq!(lookalike(c), Some(found));
            assert_eq!((found.char(), found.ascii()), (c, ascii));
        }
        assert_eq!(lookalike(','), None);
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
