//! What a review says of a published JSON file's fields, whatever its
//! kind: the contract a client reads it by. A field the base publishes
//! and this build no longer does is breaking, and so is a field whose
//! JSON type changed; a field added is not (clients ignore what they do
//! not know). Fields are compared by place (`activities[].startsAt`):
//! the items of an array are one place, so a field counts as published
//! when every item at the base has it, and as removed when no item of
//! this build has it (an optional field some items lack, such as an
//! activity's `cover`, is not a promise).
//!
//! A removal is then judged by the published schema (`api/v1/schema/`),
//! what clients were promised: a field its place's schema lists as
//! `required` (or a place the schema does not describe) is breaking; a
//! field the schema makes optional, such as a version's `cover`, is a
//! warning that names it (clients were told it may be absent).

use std::collections::BTreeMap;

use serde_json::Value;

use super::report::{FIELD_REMOVED, FIELD_RETYPED, FileDiff, Finding, OPTIONAL_FIELD_REMOVED};

/// The breaking changes of `built` against `base` (both JSON) into
/// `diff`: fields removed or retyped; a removed field that `schema` (the
/// file's published schema, when known) makes optional is a warning.
pub fn fields(built: &Value, base: &Value, schema: Option<&Value>, diff: &mut FileDiff) {
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
                    let optional = schema.is_some_and(|s| is_optional(s, place, field));
                    let at = at(place, field);
                    let declared = if optional {
                        &OPTIONAL_FIELD_REMOVED
                    } else {
                        &FIELD_REMOVED
                    };
                    let finding = Finding::new(
                        declared,
                        |m| m.arg("field", at.as_str()).arg("path", diff.path.as_str()),
                        |m| m.arg("field", at.as_str()),
                        Vec::new(),
                    );
                    if optional {
                        diff.warnings.push(finding);
                    } else {
                        diff.breaking.push(finding);
                    }
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

/// Whether `schema` describes `field` of the objects at `place`
/// (`activities[].cover`: `activities`, `[]`, `cover`) and leaves it out
/// of their `required` list. A place it does not describe is no promise
/// it can loosen: `false`.
fn is_optional(schema: &Value, place: &str, field: &str) -> bool {
    let mut node = resolve(schema, schema);
    for step in place.split('.').filter(|s| !s.is_empty()) {
        let (name, items) = match step.find("[]") {
            Some(i) => (&step[..i], step[i..].matches("[]").count()),
            None => (step, 0),
        };
        let Some(next) = node.get("properties").and_then(|p| p.get(name)) else {
            return false;
        };
        node = resolve(schema, next);
        for _ in 0..items {
            let Some(next) = node.get("items") else {
                return false;
            };
            node = resolve(schema, next);
        }
    }
    let described = node
        .get("properties")
        .is_some_and(|p| p.get(field).is_some());
    let required = node
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|f| f.as_str() == Some(field)));
    described && !required
}

/// `node`, or the schema its local `$ref` (`#/$defs/activity`) names.
fn resolve<'a>(root: &'a Value, node: &'a Value) -> &'a Value {
    let mut node = node;
    // A few hops at most: a reference to a reference is followed, a loop is not.
    for _ in 0..8 {
        let Some(pointer) = node.get("$ref").and_then(Value::as_str) else {
            break;
        };
        match pointer.strip_prefix('#').and_then(|p| root.pointer(p)) {
            Some(target) => node = target,
            None => break,
        }
    }
    node
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
