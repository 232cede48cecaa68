//! What a review says of a published JSON file's fields, whatever its
//! kind: the contract a client reads it by. A field the base publishes
//! and this build no longer does is breaking, and so is a field whose
//! JSON type changed; a field added is not (clients ignore what they do
//! not know). Fields are compared by place (`activities[].startsAt`):
//! the items of an array are one place, so a field counts as published
//! when every item at the base has it, and as removed when no item of
//! this build has it (an optional field some items lack, such as an
//! activity's `cover`, is not a promise).

use std::collections::BTreeMap;

use serde_json::Value;

use super::report::{FIELD_REMOVED, FIELD_RETYPED, FileDiff, Finding};

/// The breaking changes of `built` against `base` (both JSON) into
/// `diff`: fields removed or retyped.
pub fn fields(built: &Value, base: &Value, diff: &mut FileDiff) {
    let (mut old, mut new) = (Places::default(), Places::default());
    old.walk("", base);
    new.walk("", built);
    for (place, was) in &old.0 {
        let Some(now) = new.0.get(place) else {
            continue;
        };
        for (field, (count, types)) in &was.fields {
            match now.fields.get(field) {
                None if *count == was.objects && now.objects > 0 => {
                    let at = at(place, field);
                    diff.breaking.push(Finding::new(
                        &FIELD_REMOVED,
                        |m| m.arg("field", at.as_str()),
                        |m| m.arg("field", at.as_str()),
                        Vec::new(),
                    ));
                }
                Some((_, types_now)) if types.is_disjoint(types_now) => {
                    let at = at(place, field);
                    let names = |t: &std::collections::BTreeSet<&'static str>| {
                        t.iter().copied().collect::<Vec<_>>().join("|")
                    };
                    diff.breaking.push(Finding::new(
                        &FIELD_RETYPED,
                        |m| {
                            m.arg("field", at.as_str())
                                .arg("old", names(types))
                                .arg("new", names(types_now))
                        },
                        |m| m.arg("field", at.as_str()),
                        Vec::new(),
                    ));
                }
                _ => {}
            }
        }
    }
}

fn at(place: &str, field: &str) -> String {
    if place.is_empty() {
        field.to_owned()
    } else {
        format!("{place}.{field}")
    }
}

/// Every place of objects in a document: how many objects it holds, and
/// for each field, in how many of them it is and with which JSON types
/// (`null` left out: it is no type a client reads a value by).
#[derive(Default)]
struct Places(BTreeMap<String, Place>);

#[derive(Default)]
struct Place {
    objects: usize,
    fields: BTreeMap<String, (usize, std::collections::BTreeSet<&'static str>)>,
}

impl Places {
    fn walk(&mut self, place: &str, value: &Value) {
        match value {
            Value::Object(map) => {
                let entry = self.0.entry(place.to_owned()).or_default();
                entry.objects += 1;
                for (key, v) in map {
                    let field = entry.fields.entry(key.clone()).or_default();
                    field.0 += 1;
                    if let Some(t) = type_of(v) {
                        field.1.insert(t);
                    }
                }
                for (key, v) in map {
                    self.walk(&at(place, key), v);
                }
            }
            Value::Array(items) => {
                let place = format!("{place}[]");
                for item in items {
                    self.walk(&place, item);
                }
            }
            _ => {}
        }
    }
}

fn type_of(value: &Value) -> Option<&'static str> {
    Some(match value {
        Value::Null => return None,
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    })
}
