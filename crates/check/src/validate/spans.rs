//! Maps a JSON Pointer, or a byte range, onto the source text: the line and
//! character column of a value or of an object key. The parsed tree already
//! knows every byte range; the index of line starts is built only when a file
//! has something to report, and each lookup is a binary search plus a count of
//! the characters before the position on its own line, so reporting n
//! problems in one file costs O(n log n), not O(n × file size).

use std::cell::OnceCell;

use crate::chars::floor_char_boundary;
use crate::diagnostics::Location;
use crate::json::{Json, Node};

/// A source text, its tree and, on first use, its line starts.
pub struct Spans<'a> {
    text: &'a str,
    root: &'a Node<'a>,
    lines: OnceCell<Vec<usize>>,
}

/// What of a property to point at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The value itself.
    Value,
    /// The key of the last segment (for unknown or misspelt keys).
    Key,
}

impl<'a> Spans<'a> {
    pub fn new(text: &'a str, root: &'a Node<'a>) -> Self {
        Spans {
            text,
            root,
            lines: OnceCell::new(),
        }
    }

    /// The source text.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The location of `pointer` (an RFC 6901 pointer such as `/activities/0/name`).
    /// When the pointer does not resolve, the nearest ancestor that does.
    pub fn locate(&self, pointer: &str, target: Target) -> Location {
        let (start, end) = match self.root.walk(pointer) {
            Ok((_, Some(member))) if target == Target::Key => (member.key_start, member.key_end),
            Ok((node, _)) | Err(node) => node_range(node),
        };
        self.location(start, end)
    }

    /// The byte range of `pointer`'s value or key, quotes included; `None`
    /// when the pointer does not resolve exactly.
    pub fn range(&self, pointer: &str, target: Target) -> Option<(usize, usize)> {
        match self.root.walk(pointer) {
            Ok((_, Some(member))) if target == Target::Key => {
                Some((member.key_start, member.key_end))
            }
            Ok((node, _)) => Some((node.start, node.end)),
            Err(_) => None,
        }
    }

    /// The location of a byte range of the text.
    pub fn location(&self, start: usize, end: usize) -> Location {
        let text = self.text;
        let lines = self.lines.get_or_init(|| {
            std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        });
        let start = floor_char_boundary(text, start.min(text.len()));
        let end = floor_char_boundary(text, end.clamp(start, text.len()));
        let line = lines.partition_point(|&s| s <= start).max(1);
        let line_start = lines[line - 1];
        let column = text[line_start..start].chars().count() + 1;
        let first_line = text[start..end].split('\n').next().unwrap_or("");
        Location {
            line,
            column,
            width: first_line.chars().count().max(1),
        }
    }
}

fn node_range(node: &Node<'_>) -> (usize, usize) {
    match node.value {
        // Point at the opening bracket, not the whole container.
        Json::Object(_) | Json::Array(_) => (node.start, node.start + 1),
        _ => (node.start, node.end),
    }
}

/// Splits an RFC 6901 pointer into unescaped segments.
pub fn split_pointer(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer
        .trim_start_matches('/')
        .split('/')
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Escapes one pointer segment.
pub fn escape_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}
