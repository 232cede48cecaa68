//! The published schemas as the OpenAPI description's
//! `components/schemas`, so that a generator that follows no remote
//! reference builds every model from the description alone.
//!
//! Each schema file gives one component under the name its owner chose
//! (`ActivityDocument`), and each of its `$defs` one more: under the
//! PascalCase of its `title` (`Activity`, `LocalDateTime`), or, when it
//! has none or that name is taken, under the file's component name and
//! the PascalCase of its key (`GamesIndexFile`). Every `#/$defs/<key>`
//! becomes `#/components/schemas/<name>`, and `$schema`, `$id` and `$defs`
//! go (an `$id` inside a component would make its references resolve
//! against the published file). The content is the file's, from the one
//! value: nothing is written twice.

use serde_json::{Map, Value};

/// The prefix of a reference to a component schema.
pub const PREFIX: &str = "#/components/schemas/";

/// A reference to the component schema `name`.
pub fn reference(name: &str) -> Value {
    serde_json::json!({ "$ref": format!("{PREFIX}{name}") })
}

/// The components of `schemas` (each a component name and a published
/// schema), in order: each schema, then its `$defs`.
pub fn components(schemas: &[(&str, &Value)]) -> Map<String, Value> {
    let mut out = Map::new();
    let mut taken: Vec<String> = schemas.iter().map(|(name, _)| (*name).to_owned()).collect();
    for (name, schema) in schemas {
        let mut top = (*schema).clone();
        let defs = match top.as_object_mut() {
            Some(object) => {
                object.shift_remove("$schema");
                object.shift_remove("$id");
                match object.shift_remove("$defs") {
                    Some(Value::Object(defs)) => defs,
                    _ => Map::new(),
                }
            }
            None => Map::new(),
        };
        let names: Vec<(String, String)> = defs
            .iter()
            .map(|(key, def)| {
                let titled = def.get("title").and_then(Value::as_str).map(pascal);
                let own = format!("{name}{}", pascal(key));
                let chosen = titled.filter(|t| !taken.contains(t)).unwrap_or(own);
                taken.push(chosen.clone());
                (key.clone(), chosen)
            })
            .collect();
        rewrite(&mut top, &names);
        out.insert((*name).to_owned(), top);
        for ((_, mut def), (_, def_name)) in defs.into_iter().zip(&names) {
            rewrite(&mut def, &names);
            out.insert(def_name.clone(), def);
        }
    }
    out
}

/// Every `#/$defs/<key>` reference of `schema` made the component's.
fn rewrite(schema: &mut Value, names: &[(String, String)]) {
    match schema {
        Value::Object(object) => {
            if let Some(Value::String(target)) = object.get_mut("$ref")
                && let Some(key) = target.strip_prefix("#/$defs/")
                && let Some((_, name)) = names.iter().find(|(k, _)| k == key)
            {
                *target = format!("{PREFIX}{name}");
            }
            object.values_mut().for_each(|v| rewrite(v, names));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rewrite(v, names)),
        _ => {}
    }
}

/// `Local date-time` as `LocalDateTime`: each word's first letter made
/// upper case, the rest kept, everything but letters and digits dropped.
pub fn pascal(text: &str) -> String {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defs_become_components_under_their_titles_or_their_file_s_name() {
        let schema = json!({
            "$schema": "x", "$id": "https://example.org/s.json",
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/item"}, "b": {"$ref": "#/$defs/file"}},
            "$defs": {"item": {"title": "Local date-time", "type": "string"}, "file": {"type": "object"}}
        });
        let out = components(&[("Doc", &schema)]);
        let names: Vec<&str> = out.keys().map(String::as_str).collect();
        assert_eq!(names, ["Doc", "LocalDateTime", "DocFile"]);
        assert_eq!(
            out["Doc"],
            json!({"type": "object", "properties": {
                "a": {"$ref": "#/components/schemas/LocalDateTime"},
                "b": {"$ref": "#/components/schemas/DocFile"}
            }})
        );
        assert_eq!(pascal("API catalog"), "APICatalog");
    }
}
