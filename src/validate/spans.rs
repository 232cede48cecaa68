//! Maps a JSON Pointer onto the source text: the line and column of a value,
//! or of an object key. The syntax tree (jsonc-parser) is built only when a
//! file has something to report, so clean files cost nothing here.

use std::cell::OnceCell;

use jsonc_parser::ast::{ObjectPropName, Value as Ast};

use crate::diagnostics::{Location, locate};

/// A source text and, on first use, its syntax tree.
pub struct Spans<'a> {
    text: &'a str,
    ast: OnceCell<Option<Ast<'a>>>,
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
    pub fn new(text: &'a str) -> Self {
        Spans {
            text,
            ast: OnceCell::new(),
        }
    }

    fn ast(&self) -> Option<&Ast<'a>> {
        self.ast
            .get_or_init(|| {
                jsonc_parser::parse_to_ast(self.text, &Default::default(), &Default::default())
                    .ok()
                    .and_then(|r| r.value)
            })
            .as_ref()
    }

    /// The location of `pointer` (an RFC 6901 pointer such as `/activities/0/name`).
    /// When the pointer does not resolve, the nearest ancestor that does.
    pub fn locate(&self, pointer: &str, target: Target) -> Location {
        let Some(mut node) = self.ast() else {
            return Location {
                line: 1,
                column: 1,
                width: 1,
            };
        };
        let segments = split_pointer(pointer);
        let mut range = node_range(node);
        for (i, segment) in segments.iter().enumerate() {
            let last = i + 1 == segments.len();
            match node {
                Ast::Object(object) => {
                    let Some(prop) = object
                        .properties
                        .iter()
                        .find(|p| prop_name(&p.name) == segment.as_str())
                    else {
                        break;
                    };
                    if last && target == Target::Key {
                        range = match &prop.name {
                            ObjectPropName::String(s) => (s.range.start, s.range.end),
                            ObjectPropName::Word(w) => (w.range.start, w.range.end),
                        };
                        break;
                    }
                    node = &prop.value;
                }
                Ast::Array(array) => {
                    let Some(element) = segment
                        .parse::<usize>()
                        .ok()
                        .and_then(|i| array.elements.get(i))
                    else {
                        break;
                    };
                    node = element;
                }
                _ => break,
            }
            range = node_range(node);
        }
        locate(self.text, range.0, range.1)
    }
}

fn prop_name<'b>(name: &'b ObjectPropName<'_>) -> &'b str {
    match name {
        ObjectPropName::String(s) => &s.value,
        ObjectPropName::Word(w) => w.value,
    }
}

fn node_range(node: &Ast<'_>) -> (usize, usize) {
    let range = match node {
        Ast::StringLit(v) => v.range,
        Ast::NumberLit(v) => v.range,
        Ast::BooleanLit(v) => v.range,
        Ast::Object(v) => {
            // Point at the opening brace, not the whole object.
            return (v.range.start, v.range.start + 1);
        }
        Ast::Array(v) => return (v.range.start, v.range.start + 1),
        Ast::NullKeyword(v) => v.range,
    };
    (range.start, range.end)
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
