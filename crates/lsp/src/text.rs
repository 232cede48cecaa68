//! Positions in a text: LSP's (line, code unit) in the negotiated encoding,
//! the byte offsets the checker's fixes use, and the 1-based line and
//! character column of a [`Diagnostic`].

use lsp_types::{Position, Range};

use crate::diagnostics::Diagnostic;

/// How `Position::character` counts (LSP 3.17 `PositionEncodingKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    /// Bytes of UTF-8.
    Utf8,
    /// UTF-16 code units: the protocol's default.
    #[default]
    Utf16,
    /// Unicode scalar values.
    Utf32,
}

impl Encoding {
    /// The name the protocol gives it.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf16 => "utf-16",
            Encoding::Utf32 => "utf-32",
        }
    }

    /// The first encoding of the client's list (its order of preference)
    /// that the server speaks; UTF-16 when the client names none.
    pub fn negotiate(offered: &[String]) -> Encoding {
        offered
            .iter()
            .find_map(|name| match name.as_str() {
                "utf-8" => Some(Encoding::Utf8),
                "utf-16" => Some(Encoding::Utf16),
                "utf-32" => Some(Encoding::Utf32),
                _ => None,
            })
            .unwrap_or_default()
    }

    fn units(self, c: char) -> u32 {
        match self {
            Encoding::Utf8 => c.len_utf8() as u32,
            Encoding::Utf16 => c.len_utf16() as u32,
            Encoding::Utf32 => 1,
        }
    }
}

/// A text with the byte offsets where its lines start.
pub struct Lines<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    pub fn new(text: &'t str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines { text, starts }
    }

    /// The text of 0-based `line` without its line break.
    fn line(&self, line: usize) -> (usize, &'t str) {
        let Some(&start) = self.starts.get(line) else {
            return (self.text.len(), "");
        };
        let end = self
            .starts
            .get(line + 1)
            .map_or(self.text.len(), |&next| next - 1);
        let text = &self.text[start..end];
        (start, text.strip_suffix('\r').unwrap_or(text))
    }

    /// The byte offset of `position`; a position past the end of its line
    /// (or of the text) is clamped there, as the protocol asks.
    pub fn offset(&self, position: Position, encoding: Encoding) -> usize {
        let line = position.line as usize;
        if line >= self.starts.len() {
            return self.text.len();
        }
        let (start, text) = self.line(line);
        let mut units = 0;
        for (i, c) in text.char_indices() {
            if units >= position.character {
                return start + i;
            }
            units += encoding.units(c);
        }
        start + text.len()
    }

    /// The position of a byte offset (floored to a character boundary).
    pub fn position(&self, offset: usize, encoding: Encoding) -> Position {
        let offset = crate::chars::floor_char_boundary(self.text, offset.min(self.text.len()));
        let line = self.starts.partition_point(|&s| s <= offset).max(1) - 1;
        let start = self.starts[line];
        let character = self.text[start..offset]
            .chars()
            .map(|c| encoding.units(c))
            .sum();
        Position::new(line as u32, character)
    }

    /// The range of the byte range `start..end`.
    pub fn range(&self, start: usize, end: usize, encoding: Encoding) -> Range {
        Range::new(
            self.position(start, encoding),
            self.position(end.max(start), encoding),
        )
    }

    /// The byte range a diagnostic points at: its line, its character
    /// column and its width in characters, within that line.
    pub fn diagnostic_bytes(&self, diagnostic: &Diagnostic) -> (usize, usize) {
        let (start, text) = self.line(diagnostic.line.saturating_sub(1));
        let mut chars = text.char_indices().map(|(i, _)| i).chain([text.len()]);
        let from = chars
            .nth(diagnostic.column.saturating_sub(1))
            .unwrap_or(text.len());
        let to = text[from..]
            .char_indices()
            .map(|(i, _)| from + i)
            .chain([text.len()])
            .nth(diagnostic.width.max(1))
            .unwrap_or(text.len());
        (start + from, start + to.max(from))
    }

    /// The range of the whole text.
    pub fn all(&self, encoding: Encoding) -> Range {
        self.range(0, self.text.len(), encoding)
    }

    /// The quoted string literal on the line of `offset` that holds it:
    /// its byte range (quotes included) and its raw contents.
    pub fn string_at(&self, offset: usize) -> Option<(usize, usize, &'t str)> {
        let line = self.starts.partition_point(|&s| s <= offset).max(1) - 1;
        let (start, text) = self.line(line);
        let mut open: Option<usize> = None;
        let mut escaped = false;
        for (i, b) in text.bytes().enumerate() {
            match (open, b) {
                (Some(_), _) if escaped => escaped = false,
                (Some(_), b'\\') => escaped = true,
                (Some(from), b'"') => {
                    let (from, to) = (start + from, start + i + 1);
                    if (from..to).contains(&offset) {
                        return Some((from, to, &self.text[from + 1..to - 1]));
                    }
                    open = None;
                }
                (None, b'"') => open = Some(i),
                _ => {}
            }
        }
        None
    }
}

/// Applies one `didChange` edit: `range` replaced by `new_text`, or the
/// whole text when there is no range.
pub fn apply_change(text: &mut String, range: Option<Range>, new_text: &str, encoding: Encoding) {
    match range {
        None => *text = new_text.to_string(),
        Some(range) => {
            let lines = Lines::new(text);
            let start = lines.offset(range.start, encoding);
            let end = lines.offset(range.end, encoding).max(start);
            text.replace_range(start..end, new_text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_code_units_of_the_encoding() {
        // "活" is one UTF-16 unit and three bytes; "𝄞" is two UTF-16 units and four bytes.
        let text = "{\n  \"a\": \"活𝄞x\"\n}";
        let lines = Lines::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(lines.position(x, Encoding::Utf8), Position::new(1, 15));
        assert_eq!(lines.position(x, Encoding::Utf16), Position::new(1, 11));
        assert_eq!(lines.position(x, Encoding::Utf32), Position::new(1, 10));
        for encoding in [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32] {
            assert_eq!(lines.offset(lines.position(x, encoding), encoding), x);
        }
    }

    #[test]
    fn a_position_past_the_line_end_is_clamped() {
        let lines = Lines::new("ab\r\ncd");
        assert_eq!(lines.offset(Position::new(0, 99), Encoding::Utf16), 2);
        assert_eq!(lines.offset(Position::new(7, 0), Encoding::Utf16), 6);
    }

    #[test]
    fn changes_apply_in_the_negotiated_encoding() {
        let mut text = "\"活𝄞x\"".to_string();
        let at = Position::new(0, 4);
        apply_change(&mut text, Some(Range::new(at, at)), "!", Encoding::Utf16);
        assert_eq!(text, "\"活𝄞!x\"");
    }
}
