//! Application settings: five nested sections stored in `settings.json`.
//!
//! The shape is the typed [`AppSettings`]: its types, ranges, choices and
//! patterns (declared on the types, derived with `schemars`) are the schema
//! the service publishes and the one an update is checked against; an
//! update may change only leaves that exist, to a value that schema accepts.
//! Updates come as nested partial objects or with dotted keys
//! (`{"advanced": {"backend.remote.enabled": true}}`), or both. One bad value
//! rejects the whole update; unknown keys are ignored and reported. The file
//! itself is the user's document: an update changes the leaves it names and
//! keeps every key the server does not know. This module knows nothing about
//! HTTP.

use std::path::PathBuf;
use std::sync::LazyLock;

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::error::{Error, Result};
use crate::shapes::{self, AppSettings};
use crate::state;
use stdx::json::kind_of;

/// The settings with realistic defaults: [`AppSettings::default`] as JSON
/// (the same type the OpenAPI schema `AppSettings` is derived from).
pub fn default_settings() -> Value {
    serde_json::to_value(AppSettings::default()).unwrap_or_default()
}

/// What an update changed: dotted paths of the updated leaves and of the
/// ignored unknown keys.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct SettingsUpdate {
    pub updated: Vec<String>,
    pub ignored: Vec<String>,
}

/// The settings store.
///
/// The file is the user's document, shared with the real backend and the
/// desktop client: it may come from a newer client and hold sections and
/// keys this server does not know, and another program may change it while
/// the server runs. The server keeps no copy: [`Settings::get`] reads the
/// file as it is now, its known leaves over the defaults, and
/// [`Settings::update`] takes the state directory's lock, reads the file,
/// writes the leaves the update names into it and writes it back, so every
/// other key (and the order of the keys) stays as the user or the other
/// program left it. Two writers changing the same leaf at once: the one
/// that writes last wins, and an acknowledged update was in the file when
/// it was acknowledged (SECURITY.md, "Shared state").
#[derive(Debug)]
pub struct Settings {
    /// `<state>/settings.json`.
    path: PathBuf,
    /// The state directory (whose lock every update holds) and what the
    /// server passes over in it.
    strays: state::Strays,
}

impl Settings {
    /// Opens the store, creating `settings.json` with the defaults on first
    /// start. A file that is not JSON, not an object, or holds a known
    /// setting the server cannot read (`"gamePath": 123`) is moved aside to
    /// `settings.json.corrupt-<n>` with a warning naming the field, and the
    /// server starts with the defaults: a later update never writes over it.
    /// Something other than a file at its name (a FIFO, a link, a folder) is
    /// named and left as it is; the server starts without settings.
    pub fn open(strays: state::Strays) -> anyhow::Result<Settings> {
        let settings = Settings {
            path: strays.root().join(state::layout::SETTINGS),
            strays,
        };
        if state::read_json_at_start(&settings.strays, &settings.path, &unreadable)?.is_none()
            && !state::occupied(&settings.path)
        {
            state::write_json(&settings.strays, &settings.path, &default_settings())?;
        }
        Ok(settings)
    }

    /// The document as it is now: the defaults when there is no file; a
    /// corrupt file is moved aside and is a 500 that says so.
    fn document(&self) -> Result<Value> {
        Ok(state::read_document(&self.strays, &self.path, &unreadable)?
            .unwrap_or_else(default_settings))
    }

    /// The settings of the contract: the defaults with every known leaf of
    /// the file over them, read as the file is now. Keys the server does not
    /// know stay in the file and are not answered: the OpenAPI schema of
    /// `AppSettings` (which clients generate code from) is closed.
    pub fn get(&self) -> Result<Value> {
        Ok(known_view(&self.document()?))
    }

    pub fn update(&self, patch: &Value) -> Result<SettingsUpdate> {
        let Value::Object(patch) = patch else {
            return Err(Error::bad_request(format!(
                "the settings update must be a JSON object, not {}",
                kind_of(patch)
            )));
        };
        let mut leaves = Vec::new();
        flatten(patch, &mut Vec::new(), &mut leaves);
        let mut result = SettingsUpdate::default();
        let mut problems = Vec::new();
        let mut changes = Vec::new();
        for (path, value) in leaves {
            let dotted = path.join(".");
            if value.as_object().is_some_and(Map::is_empty) {
                // `{"general": {}}` asks for nothing.
                result.ignored.push(dotted);
                continue;
            }
            match leaf_schema(&path) {
                None => result.ignored.push(dotted),
                Some(schema) => match check(&dotted, schema, &value) {
                    Ok(()) => {
                        changes.push((path, value));
                        if !result.updated.contains(&dotted) {
                            result.updated.push(dotted);
                        }
                    }
                    Err(problem) => problems.push(problem),
                },
            }
        }
        if !problems.is_empty() {
            return Err(Error::invalid("settings not updated", problems));
        }
        if result.updated.is_empty() {
            let mut message = "no valid update in the body".to_string();
            if !result.ignored.is_empty() {
                message.push_str(&format!(
                    "; unknown settings ignored: {}",
                    result.ignored.join(", ")
                ));
            }
            return Err(Error::BadRequest(message));
        }
        // Read, change, write under the lock: what another program wrote
        // up to now stays.
        let _lock = state::lock(self.strays.root())?;
        let mut document = self.document()?;
        for (path, value) in changes {
            set_in_document(&mut document, &path, value);
        }
        state::write_json(&self.strays, &self.path, &document)?;
        Ok(result)
    }
}

/// The first known setting of `document` the server cannot read, described
/// for the warning: the document itself not an object, a known section not
/// an object, or a known leaf that its schema ([`derived_schema`]) refuses.
fn unreadable(document: &Value) -> Option<String> {
    // Every read of the file asks this: the whole document against one
    // validator compiled once answers at once when all is well; the walk
    // below, a validator per leaf, only says what is wrong.
    if whole_validator().is_some_and(|v| v.is_valid(document)) {
        return None;
    }
    fn walk(schema: &Value, stored: &Value, path: &mut Vec<String>) -> Option<String> {
        let dotted = path.join(".");
        match (schema.get("properties"), stored) {
            (Some(Value::Object(properties)), Value::Object(stored)) => {
                for (key, inner) in properties {
                    if let Some(value) = stored.get(key) {
                        path.push(key.clone());
                        let problem = walk(inner, value, path);
                        path.pop();
                        if problem.is_some() {
                            return problem;
                        }
                    }
                }
                None
            }
            (Some(_), other) if path.is_empty() => Some(format!(
                "{} where an object of settings belongs",
                kind_of(other)
            )),
            _ => check(&dotted, schema, stored)
                .err()
                .map(|problem| format!("a setting the server cannot read: {problem}")),
        }
    }
    walk(derived_schema(), document, &mut Vec::new())
}

/// [`derived_schema`] without `required`, compiled once: what a stored
/// document must satisfy.
fn whole_validator() -> Option<&'static jsonschema::Validator> {
    static WHOLE: LazyLock<Option<jsonschema::Validator>> = LazyLock::new(|| {
        let mut schema = derived_schema().clone();
        unrequire(&mut schema);
        jsonschema::validator_for(&schema).ok()
    });
    WHOLE.as_ref()
}

/// Drops `required` at every level: a file may hold only some sections and
/// leaves, and the defaults stand for the rest.
fn unrequire(schema: &mut Value) {
    if let Some(object) = schema.as_object_mut() {
        object.remove("required");
    }
    if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        for inner in properties.values_mut() {
            unrequire(inner);
        }
    }
}

/// The defaults with the known leaves of `document` over them.
fn known_view(document: &Value) -> Value {
    let mut view = default_settings();
    merge_known(&mut view, document);
    view
}

/// Sets `value` at `path` in the user's document, creating the objects on
/// the way that the document lacks (a file written by hand may hold only
/// some sections). Keys already there keep their place.
fn set_in_document(document: &mut Value, path: &[String], value: Value) {
    let Some((leaf, parents)) = path.split_last() else {
        return;
    };
    let mut slot = document;
    for key in parents {
        let Value::Object(map) = slot else {
            return;
        };
        let child = map
            .entry(key.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        if !child.is_object() {
            *child = Value::Object(Map::new());
        }
        slot = child;
    }
    if let Value::Object(map) = slot {
        map.insert(leaf.clone(), value);
    }
}

/// Splits a patch into leaves: dotted keys become path segments, objects
/// recurse, anything else (arrays included) is a leaf.
fn flatten(
    map: &Map<String, Value>,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, Value)>,
) {
    for (key, value) in map {
        let depth = prefix.len();
        prefix.extend(key.split('.').map(str::to_string));
        match value {
            Value::Object(inner) if !inner.is_empty() => flatten(inner, prefix, out),
            _ => out.push((prefix.clone(), value.clone())),
        }
        prefix.truncate(depth);
    }
}

#[cfg(test)]
fn pointer<'a>(value: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter()
        .try_fold(value, |v, key| v.as_object()?.get(key))
}

/// The JSON Schema of the settings as the types declare them
/// ([`AppSettings`] and its sections, `schemars`): types, ranges, choices
/// and patterns, every part inline. The one description the published
/// schemas and the update's checks are taken from.
fn derived_schema() -> &'static Value {
    static SCHEMA: LazyLock<Value> = LazyLock::new(|| {
        let mut schema = shapes::inline_schema::<AppSettings>();
        bound_unsigned(&mut schema);
        schema
    });
    &SCHEMA
}

/// Gives every unsigned integer the upper bound its Rust type has
/// (`schemars` states `format: uint32` and `minimum: 0`, and `format` is
/// not checked), so a value the type cannot hold is refused, not stored.
fn bound_unsigned(schema: &mut Value) {
    if let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        for inner in properties.values_mut() {
            bound_unsigned(inner);
        }
    }
    let max = match schema["format"].as_str() {
        Some("uint8") => u64::from(u8::MAX),
        Some("uint16") => u64::from(u16::MAX),
        Some("uint32") => u64::from(u32::MAX),
        _ => return,
    };
    if schema.get("maximum").is_none() {
        schema["maximum"] = json!(max);
    }
}

/// The schema of the setting (a leaf or a section) at `path`, if the
/// settings have one there.
fn leaf_schema(path: &[String]) -> Option<&'static Value> {
    path.iter().try_fold(derived_schema(), |schema, key| {
        schema.get("properties")?.get(key)
    })
}

/// Whether `value` may be stored at `path` (dotted), as `schema` (its part of
/// [`derived_schema`]) says: the validator decides, the message says why in
/// the words of the keyword that refused it.
fn check(path: &str, schema: &Value, value: &Value) -> std::result::Result<(), String> {
    let valid = jsonschema::validator_for(schema).is_ok_and(|v| v.is_valid(value));
    if valid {
        return Ok(());
    }
    let kind = schema["type"].as_str().unwrap_or("");
    let type_ok = match kind {
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "integer" => {
            value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|x| x.fract() == 0.0)
        }
        "number" => value.is_number(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => true,
    };
    if !type_ok {
        let expected = match kind {
            "object" => "an object of settings",
            "integer" => "an integer",
            "number" => "a number",
            "string" => "a string",
            "boolean" => "a boolean",
            _ => "an array",
        };
        return Err(format!(
            "`{path}` must be {expected}, not {}",
            kind_of(value)
        ));
    }
    if let Some(choices) = schema["enum"].as_array() {
        let choices: Vec<&str> = choices.iter().filter_map(Value::as_str).collect();
        return Err(format!(
            "`{path}` must be one of {}, not {value}",
            choices.join(", ")
        ));
    }
    if let Some(meaning) = schema["x-meaning"].as_str() {
        return Err(format!("`{path}` must be {meaning}, not {value}"));
    }
    match (kind, &schema["minimum"], &schema["maximum"]) {
        ("integer", Value::Number(min), Value::Number(max)) => Err(format!(
            "`{path}` must be a whole number from {min} to {max}, not {value}"
        )),
        (_, Value::Number(min), Value::Number(max)) => Err(format!(
            "`{path}` must be between {min} and {max}, not {value}"
        )),
        _ => Err(format!("`{path}` is not a valid value: {value}")),
    }
}

/// The JSON Schema of the settings: every field required, no unknown
/// keys ([`closed_schema`]).
pub fn settings_schema() -> Value {
    closed_schema(&|object, keys| {
        object.insert("required".to_string(), json!(keys));
    })
}

/// The JSON Schema of an update of the settings: every field optional, at
/// least one per object, no unknown keys ([`closed_schema`]).
pub fn update_schema() -> Value {
    closed_schema(&|object, _| {
        object.remove("required");
        object.insert("minProperties".to_string(), json!(1));
    })
}

/// What [`closed_schema`] does to each object schema, given its keys.
type EachObject = dyn Fn(&mut Map<String, Value>, Vec<String>);

/// [`derived_schema`] with no unknown keys in any object, and `each_object`
/// applied to every object schema with its keys: the published schema and
/// the update's checks are one description.
fn closed_schema(each_object: &EachObject) -> Value {
    fn walk(schema: &mut Value, each_object: &EachObject) {
        let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
            return;
        };
        let keys: Vec<String> = properties.keys().cloned().collect();
        for inner in properties.values_mut() {
            walk(inner, each_object);
        }
        schema["additionalProperties"] = json!(false);
        let object = schema.as_object_mut().expect("an object schema");
        each_object(object, keys);
    }
    let mut schema = derived_schema().clone();
    walk(&mut schema, each_object);
    schema
}

/// Copies stored leaves over the defaults where the shape agrees.
fn merge_known(base: &mut Value, stored: &Value) {
    let (Value::Object(base), Value::Object(stored)) = (base, stored) else {
        return;
    };
    for (key, slot) in base.iter_mut() {
        let Some(value) = stored.get(key) else {
            continue;
        };
        if slot.is_object() {
            merge_known(slot, value);
        } else if std::mem::discriminant(slot) == std::mem::discriminant(value) {
            *slot = value.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn open_at(dir: &std::path::Path) -> anyhow::Result<Settings> {
        Settings::open(state::Strays::new(dir, crate::logs::LogBuffer::new(16)))
    }

    fn store() -> (tempfile::TempDir, Settings) {
        let dir = tempfile::tempdir().unwrap();
        let s = open_at(dir.path()).unwrap();
        (dir, s)
    }

    #[test]
    fn nested_and_dotted_updates_apply() {
        let (_d, s) = store();
        let r = s
            .update(&json!({"general": {"gamePath": "D:/g.exe"}, "advanced": {"backend.remote.enabled": true}, "nope": 1}))
            .unwrap();
        assert_eq!(
            r.updated,
            ["general.gamePath", "advanced.backend.remote.enabled"]
        );
        assert_eq!(r.ignored, ["nope"]);
        assert_eq!(
            s.get().unwrap()["advanced"]["backend"]["remote"]["enabled"],
            true
        );
    }

    #[test]
    fn a_wrong_type_rejects_everything() {
        let (_d, s) = store();
        let err = s
            .update(&json!({"general": {"gamePath": "x", "cloudGame": "yes"}}))
            .unwrap_err();
        assert!(err.to_string().contains("general.cloudGame"), "{err}");
        assert_eq!(s.get().unwrap()["general"]["gamePath"], "");
    }

    #[test]
    fn the_update_schema_agrees_with_the_update() {
        let validator = jsonschema::validator_for(&update_schema()).unwrap();
        let cases = [
            json!({"advanced": {"backend": {"remote": {"url": "http://10.0.0.2:5000"}}}}),
            json!({"advanced": {"backend": {"remote": {"url": ""}}}}),
            json!({"advanced": {"backend": {"remote": {"url": "ftp://x"}}}}),
            json!({"advanced": {"backend": {"remote": {"url": "http:// x"}}}}),
            json!({"advanced": {"backend": {"remote": {"url": "https://"}}}}),
            json!({"general": {"ocrConfidence": 1.5}}),
            json!({"general": {"ocrConfidence": 0}}),
            json!({"notification": {"email": {"smtpPort": 0}}}),
            json!({"update": {"updateChannel": "nightly"}}),
            json!({"update": {"updateChannel": "beta"}}),
            json!({"general": {"cloudGame": "no"}}),
        ];
        for case in cases {
            let (_d, s) = store();
            assert_eq!(validator.is_valid(&case), s.update(&case).is_ok(), "{case}");
        }
        let full = jsonschema::validator_for(&settings_schema()).unwrap();
        assert!(full.is_valid(&default_settings()));
    }

    #[test]
    fn integers_and_floats() {
        let (_d, s) = store();
        assert!(s.update(&json!({"general": {"ocrConfidence": 1}})).is_ok());
        assert!(
            s.update(&json!({"display.windowState.width": 1.5}))
                .is_err()
        );
    }

    /// Schemathesis found a negative window width stored by a PUT and then
    /// served against the schema's `minimum: 0`.
    #[test]
    fn unsigned_settings_refuse_negative_and_oversized_numbers() {
        let (_d, s) = store();
        for bad in [json!(-1629), json!(4_294_967_296_u64)] {
            let err = s
                .update(&json!({"display": {"windowState": {"width": bad}}}))
                .unwrap_err();
            assert!(err.to_string().contains("whole number from 0"), "{err}");
        }
        assert_eq!(
            s.get().unwrap()["display"]["windowState"]["width"],
            json!(1280)
        );
        assert!(s.update(&json!({"display.windowState.width": 0})).is_ok());
    }

    /// Every leaf of the settings with its schema, dotted.
    fn leaves() -> Vec<(String, Value)> {
        fn walk(schema: &Value, path: &mut Vec<String>, out: &mut Vec<(String, Value)>) {
            match schema["properties"].as_object() {
                Some(properties) => {
                    for (key, inner) in properties {
                        path.push(key.clone());
                        walk(inner, path, out);
                        path.pop();
                    }
                }
                None => out.push((path.join("."), schema.clone())),
            }
        }
        let mut out = Vec::new();
        walk(derived_schema(), &mut Vec::new(), &mut out);
        out
    }

    /// The schema is the types': every default validates, in the whole and
    /// leaf by leaf.
    #[test]
    fn every_default_validates() {
        let full = jsonschema::validator_for(&settings_schema()).unwrap();
        assert!(full.is_valid(&default_settings()));
        let defaults = default_settings();
        for (path, schema) in leaves() {
            let segments: Vec<String> = path.split('.').map(str::to_string).collect();
            let value = pointer(&defaults, &segments).unwrap();
            assert_eq!(check(&path, &schema, value), Ok(()), "{path}");
        }
    }

    /// An out-of-range value of each ranged field (a bound, a choice, a
    /// pattern) is refused by the update, naming the field, and by the
    /// published update schema.
    #[test]
    fn an_out_of_range_value_of_each_ranged_field_is_refused_naming_it() {
        let validator = jsonschema::validator_for(&update_schema()).unwrap();
        let mut ranged = 0;
        for (path, schema) in leaves() {
            let mut bad = Vec::new();
            if schema["enum"].is_array() {
                bad.push(json!("not-a-choice"));
            }
            if schema.get("pattern").is_some() {
                bad.push(json!("ftp://x"));
            }
            let step = if schema["type"] == "integer" {
                1.0
            } else {
                0.5
            };
            if let Some(max) = schema["maximum"].as_f64() {
                bad.push(json!(max + step));
            }
            if let Some(min) = schema["minimum"].as_f64() {
                bad.push(json!(min - step));
            }
            for value in bad {
                ranged += 1;
                let segments: Vec<&str> = path.split('.').collect();
                let patch = segments
                    .iter()
                    .rev()
                    .fold(value.clone(), |inner, key| json!({ *key: inner }));
                let (_d, s) = store();
                let err = s.update(&patch).unwrap_err();
                assert!(
                    err.to_string().contains(&format!("`{path}`")),
                    "{path}: {err}"
                );
                assert!(!validator.is_valid(&patch), "{patch}");
            }
        }
        // 3 fractions, 2 URLs, 4 choices, the port, and the unsigned integers.
        assert!(ranged >= 20, "{ranged}");
    }

    #[test]
    fn an_unreadable_setting_is_named() {
        // The quick answer for a good document agrees with the walk.
        let whole = whole_validator().expect("the settings schema compiles");
        for good in [
            default_settings(),
            json!({}),
            json!({"general": {"gamePath": "x"}, "theirs": {"a": [1]}}),
        ] {
            assert!(whole.is_valid(&good), "{good}");
        }
        assert!(!whole.is_valid(&json!({"general": {"gamePath": 123}})));
        let problem = unreadable(&json!({"general": {"gamePath": 123}})).unwrap();
        assert!(problem.contains("general.gamePath"), "{problem}");
        let problem = unreadable(&json!({"display": 5})).unwrap();
        assert!(problem.contains("`display`"), "{problem}");
        assert!(unreadable(&json!([1])).is_some());
        assert_eq!(
            unreadable(&json!({"general": {"gamePath": "x", "future": 1}, "mine": []})),
            None
        );
    }

    /// A setting the server cannot read keeps the user's file aside; the
    /// server starts with the defaults and never writes over it.
    #[test]
    fn a_wrong_type_in_the_file_is_kept_aside() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        let original = "{\"general\": {\"gamePath\": 123, \"mine\": true}}\n";
        std::fs::write(&path, original).unwrap();
        let s = open_at(dir.path()).unwrap();
        assert_eq!(s.get().unwrap(), default_settings());
        let aside = dir.path().join("settings.json.corrupt-1");
        assert_eq!(std::fs::read_to_string(&aside).unwrap(), original);
        s.update(&json!({"general": {"gamePath": "D:/g.exe"}}))
            .unwrap();
        assert_eq!(std::fs::read_to_string(&aside).unwrap(), original);
    }

    mod properties {
        use proptest::prelude::*;
        use serde_json::{Value, json};

        use super::super::*;

        /// A JSON value the server does not know: scalars and small nests.
        fn extra_value() -> impl Strategy<Value = Value> {
            let leaf = prop_oneof![
                Just(Value::Null),
                any::<bool>().prop_map(Value::from),
                any::<i64>().prop_map(Value::from),
                "[a-z0-9 ]{0,8}".prop_map(Value::from),
            ];
            leaf.prop_recursive(2, 8, 3, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..3).prop_map(Value::from),
                    prop::collection::vec(("[a-z]{1,6}", inner), 0..3)
                        .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
                ]
            })
        }

        /// Every object path of the defaults (the root included).
        fn object_paths(value: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
            if let Value::Object(map) = value {
                out.push(path.clone());
                for (key, inner) in map {
                    path.push(key.clone());
                    object_paths(inner, path, out);
                    path.pop();
                }
            }
        }

        /// Every leaf path of the defaults.
        fn leaf_paths() -> Vec<Vec<String>> {
            fn walk(value: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
                match value {
                    Value::Object(map) => {
                        for (key, inner) in map {
                            path.push(key.clone());
                            walk(inner, path, out);
                            path.pop();
                        }
                    }
                    _ => out.push(path.clone()),
                }
            }
            let mut out = Vec::new();
            walk(&default_settings(), &mut Vec::new(), &mut out);
            out
        }

        /// A valid value for the leaf at `path`, picked by `seed`, from
        /// what its schema declares.
        fn valid_value(path: &[String], seed: u64) -> Value {
            let schema = leaf_schema(path).unwrap();
            if let Some(choices) = schema["enum"].as_array() {
                return choices[seed as usize % choices.len()].clone();
            }
            if schema.get("pattern").is_some() {
                return if seed.is_multiple_of(2) {
                    json!("")
                } else {
                    json!(format!("http://10.0.0.{}:5000", seed % 250))
                };
            }
            let (min, max) = (schema["minimum"].as_f64(), schema["maximum"].as_f64());
            match schema["type"].as_str().unwrap() {
                "boolean" => json!(seed.is_multiple_of(2)),
                "string" => json!(format!("value {seed}")),
                "number" => match (min, max) {
                    (Some(min), Some(max)) => {
                        json!(min + (max - min) * (seed % 101) as f64 / 100.0)
                    }
                    _ => json!(seed as f64 / 8.0),
                },
                "integer" => {
                    let min = min.unwrap_or(0.0) as u64;
                    let max = max.unwrap_or(f64::from(u32::MAX)) as u64;
                    json!(min + seed % (max - min + 1))
                }
                other => panic!("no value for {other}"),
            }
        }

        /// One `PUT` body naming `path`, nested or with dotted keys from
        /// `split` on (both forms are accepted).
        fn patch(path: &[String], split: usize, value: Value) -> Value {
            let split = split % path.len();
            let mut keys: Vec<String> = path[..split].to_vec();
            keys.push(path[split..].join("."));
            keys.into_iter()
                .rev()
                .fold(value, |inner, key| json!({ key: inner }))
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(96))]

            /// Issue 23: any sequence of valid updates keeps every key the
            /// server does not know, at any depth, with its value, and the
            /// named fields hold their last values.
            #[test]
            fn updates_keep_what_the_server_does_not_know(
                extras in prop::collection::vec((any::<prop::sample::Index>(), "[a-z]{1,8}", extra_value()), 0..12),
                updates in prop::collection::vec((any::<prop::sample::Index>(), 0usize..4, any::<u64>()), 1..8),
            ) {
                let mut document = default_settings();
                let mut objects = Vec::new();
                object_paths(&document, &mut Vec::new(), &mut objects);
                let mut kept: Vec<(Vec<String>, Value)> = Vec::new();
                for (at, key, value) in extras {
                    let parent = at.get(&objects).clone();
                    let key = format!("x-{key}");
                    let mut path = parent.clone();
                    path.push(key.clone());
                    if kept.iter().any(|(p, _)| *p == path) {
                        continue;
                    }
                    let Some(Value::Object(map)) = parent
                        .iter()
                        .try_fold(&mut document, |v, k| v.as_object_mut()?.get_mut(k))
                    else {
                        unreachable!("an object path of the defaults");
                    };
                    map.insert(key, value.clone());
                    kept.push((path, value));
                }
                let dir = tempfile::tempdir().unwrap();
                let file = dir.path().join("settings.json");
                std::fs::write(&file, serde_json::to_string_pretty(&document).unwrap()).unwrap();
                let settings = super::tests::open_at(dir.path()).unwrap();
                let leaves = leaf_paths();
                let mut last: Vec<(Vec<String>, Value)> = Vec::new();
                for (at, split, seed) in updates {
                    let path = at.get(&leaves).clone();
                    let value = valid_value(&path, seed);
                    settings.update(&patch(&path, split, value.clone())).unwrap();
                    last.retain(|(p, _)| *p != path);
                    last.push((path, value));
                }
                let stored: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
                for (path, value) in &kept {
                    prop_assert_eq!(pointer(&stored, path), Some(value), "extra key {:?}", path);
                }
                let reopened = super::tests::open_at(dir.path()).unwrap().get().unwrap();
                let current = settings.get().unwrap();
                for (path, value) in &last {
                    prop_assert_eq!(pointer(&stored, path), Some(value));
                    prop_assert_eq!(pointer(&reopened, path), Some(value));
                    prop_assert_eq!(pointer(&current, path), Some(value));
                }
            }
        }
    }
}
