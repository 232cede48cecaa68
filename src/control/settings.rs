//! Application settings: five nested sections stored in `settings.json`.
//!
//! The shape is fixed by the defaults (the typed [`AppSettings`]): an update may change only leaves that
//! exist, to a value of the same JSON type (and within a few known ranges).
//! Updates come as nested partial objects or with dotted keys
//! (`{"advanced": {"backend.remote.enabled": true}}`), or both. One bad value
//! rejects the whole update; unknown keys are ignored and reported. The file
//! itself is the user's document: an update changes the leaves it names and
//! keeps every key the server does not know. This module knows nothing about
//! HTTP.

use std::path::PathBuf;
use std::sync::Mutex;

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::control::error::{Error, Result};
use crate::control::shapes::{AppSettings, BackendType, DownloadChannel, Theme, UpdateChannel};
use crate::control::state;
use crate::json::kind_of;

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
/// The file is the user's document: it may come from a newer desktop client
/// and hold sections and keys this server does not know. The server reads
/// its known leaves over the defaults ([`Settings::get`]) and writes an
/// update into the document itself, so every other key, and the order of
/// the keys, stays as the user left it.
#[derive(Debug)]
pub(crate) struct Settings {
    /// `<state>/settings.json`.
    path: PathBuf,
    /// The document as stored; a std mutex, never held across an await.
    document: Mutex<Value>,
}

impl Settings {
    /// Reads `settings.json`, creating it with the defaults on first start.
    /// A file that is not JSON, not an object, or holds a known setting the
    /// server cannot read (`"gamePath": 123`) is moved aside to
    /// `settings.json.corrupt-<n>` with a warning naming the field, and the
    /// server starts with the defaults: a later update never writes over it.
    pub fn open(path: PathBuf) -> anyhow::Result<Settings> {
        let stored = match state::read_json_at_start(&path)? {
            Some(stored) => match unreadable(&stored) {
                None => Some(stored),
                Some(problem) => {
                    let aside = state::move_aside(&path)?;
                    tracing::warn!(
                        "{} has {problem}; moved it to {} and started with the default settings",
                        path.display(),
                        aside.display()
                    );
                    None
                }
            },
            None => None,
        };
        let document = match stored {
            Some(stored) => stored,
            None => {
                let defaults = default_settings();
                state::write_json(&path, &defaults)?;
                defaults
            }
        };
        Ok(Settings {
            path,
            document: Mutex::new(document),
        })
    }

    /// The settings of the contract: the defaults with every known leaf of
    /// the document over them. Keys the server does not know stay in the
    /// file and are not answered: the OpenAPI schema of `AppSettings` (which
    /// clients generate code from) is closed.
    pub fn get(&self) -> Value {
        let document = self.document.lock().unwrap_or_else(|e| e.into_inner());
        known_view(&document)
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
        let mut document = self.document.lock().unwrap_or_else(|e| e.into_inner());
        let mut next = document.clone();
        let mut result = SettingsUpdate::default();
        let mut problems = Vec::new();
        // Types come from the defaults: a float setting stored as `1` stays a float setting.
        let model = default_settings();
        for (path, value) in leaves {
            let dotted = path.join(".");
            if value.as_object().is_some_and(Map::is_empty) {
                // `{"general": {}}` asks for nothing.
                result.ignored.push(dotted);
                continue;
            }
            match pointer(&model, &path) {
                None => result.ignored.push(dotted),
                Some(expected) => match check(&dotted, expected, &value) {
                    Ok(()) => {
                        set_in_document(&mut next, &path, value);
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
        state::write_json(&self.path, &next)?;
        *document = next;
        Ok(result)
    }
}

/// The first known setting of `document` the server cannot read, described
/// for the warning: the document itself not an object, a known section not
/// an object, or a known leaf of another type or out of its range.
fn unreadable(document: &Value) -> Option<String> {
    fn walk(model: &Value, stored: &Value, path: &mut Vec<String>) -> Option<String> {
        let dotted = path.join(".");
        match (model, stored) {
            (Value::Object(model), Value::Object(stored)) => {
                for (key, inner) in model {
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
            (Value::Object(_), other) if path.is_empty() => Some(format!(
                "{} where an object of settings belongs",
                kind_of(other)
            )),
            _ => check(&dotted, model, stored)
                .err()
                .map(|problem| format!("a setting the server cannot read: {problem}")),
        }
    }
    walk(&default_settings(), document, &mut Vec::new())
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

fn pointer<'a>(value: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter()
        .try_fold(value, |v, key| v.as_object()?.get(key))
}

/// Whether `new` may replace `old` at `path`.
fn check(path: &str, old: &Value, new: &Value) -> std::result::Result<(), String> {
    let same_type = match (old, new) {
        (Value::Bool(_), Value::Bool(_)) | (Value::String(_), Value::String(_)) => true,
        (Value::Number(o), Value::Number(n)) => o.is_f64() || !n.is_f64(),
        (Value::Array(_), Value::Array(_)) => true,
        _ => false,
    };
    if !same_type {
        let expected = match old {
            Value::Object(_) => "an object of settings".to_string(),
            other => kind_of(other).to_string(),
        };
        return Err(format!("`{path}` must be {expected}, not {}", kind_of(new)));
    }
    // Every integer setting is unsigned and at most 32 bits (`AppSettings`);
    // the schema says `minimum: 0`, so a negative value must not be stored.
    if old.is_u64() && new.as_u64().is_none_or(|n| n > u64::from(u32::MAX)) {
        return Err(format!(
            "`{path}` must be a whole number from 0 to {}, not {new}",
            u32::MAX
        ));
    }
    match rule(path) {
        Rule::Fraction if !new.as_f64().is_some_and(|x| (0.0..=1.0).contains(&x)) => {
            Err(format!("`{path}` must be between 0 and 1, not {new}"))
        }
        Rule::Port if !new.as_u64().is_some_and(|p| (1..=65535).contains(&p)) => Err(format!(
            "`{path}` must be a port from 1 to 65535, not {new}"
        )),
        Rule::Url
            if new
                .as_str()
                .is_some_and(|t| !t.is_empty() && !is_http_url(t)) =>
        {
            Err(format!(
                "`{path}` must be empty or an http(s) URL such as http://192.168.1.10:5000, not {new}"
            ))
        }
        Rule::OneOf(choices) if !new.as_str().is_some_and(|t| choices.contains(&t)) => Err(
            format!("`{path}` must be one of {}, not {new}", choices.join(", ")),
        ),
        _ => Ok(()),
    }
}

/// A constraint of a leaf beyond its JSON type.
#[derive(Debug, Clone, Copy)]
enum Rule {
    Free,
    /// A number from 0 to 1.
    Fraction,
    /// An integer from 1 to 65535.
    Port,
    /// Empty, or an http(s) URL.
    Url,
    OneOf(&'static [&'static str]),
}

fn rule(path: &str) -> Rule {
    let leaf = path.rsplit('.').next().unwrap_or(path);
    match path {
        "update.updateChannel" => return Rule::OneOf(UpdateChannel::CHOICES),
        "update.downloadChannel" => return Rule::OneOf(DownloadChannel::CHOICES),
        "display.theme" => return Rule::OneOf(Theme::CHOICES),
        "advanced.backend.type" => return Rule::OneOf(BackendType::CHOICES),
        _ => {}
    }
    if leaf.ends_with("Confidence") || leaf == "panelOpacity" {
        Rule::Fraction
    } else if leaf == "smtpPort" {
        Rule::Port
    } else if leaf == "url" {
        Rule::Url
    } else {
        Rule::Free
    }
}

/// The JSON Schema of the settings (`update: false`, every field required)
/// or of an update (`update: true`: every field optional, at least one per
/// object, no unknown keys). Derived from the defaults and the same rules
/// the update applies, so the document and the behaviour agree.
pub fn settings_schema(update: bool) -> Value {
    fn walk(value: &Value, path: &str, update: bool) -> Value {
        match value {
            Value::Object(map) => {
                let properties: Map<String, Value> = map
                    .iter()
                    .map(|(k, v)| {
                        let child = if path.is_empty() {
                            k.clone()
                        } else {
                            format!("{path}.{k}")
                        };
                        (k.clone(), walk(v, &child, update))
                    })
                    .collect();
                let mut schema = json!({
                    "type": "object",
                    "properties": properties,
                    "additionalProperties": false,
                });
                if update {
                    schema["minProperties"] = json!(1);
                } else {
                    schema["required"] = json!(map.keys().collect::<Vec<_>>());
                }
                schema
            }
            Value::Bool(_) => json!({ "type": "boolean" }),
            Value::Number(n) => {
                let mut schema = if n.is_f64() {
                    json!({ "type": "number" })
                } else {
                    json!({ "type": "integer" })
                };
                match rule(path) {
                    Rule::Fraction => {
                        schema["minimum"] = json!(0);
                        schema["maximum"] = json!(1);
                    }
                    Rule::Port => {
                        schema["minimum"] = json!(1);
                        schema["maximum"] = json!(65535);
                    }
                    _ => {}
                }
                schema
            }
            Value::String(_) => match rule(path) {
                Rule::OneOf(choices) => json!({ "type": "string", "enum": choices }),
                Rule::Url => json!({
                    "type": "string",
                    "pattern": "^(https?://[^/?#\\s\\x00-\\x1f\\x7f-\\x9f]+[^\\s\\x00-\\x1f\\x7f-\\x9f]*)?$",
                }),
                _ => json!({ "type": "string" }),
            },
            _ => json!({}),
        }
    }
    walk(&default_settings(), "", update)
}

fn is_http_url(text: &str) -> bool {
    let rest = text
        .strip_prefix("http://")
        .or_else(|| text.strip_prefix("https://"));
    rest.is_some_and(|r| {
        let host = r.split(['/', '?', '#']).next().unwrap_or("");
        !host.is_empty() && !r.chars().any(|c| c.is_whitespace() || c.is_control())
    })
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

    fn store() -> (tempfile::TempDir, Settings) {
        let dir = tempfile::tempdir().unwrap();
        let s = Settings::open(dir.path().join("settings.json")).unwrap();
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
        assert_eq!(s.get()["advanced"]["backend"]["remote"]["enabled"], true);
    }

    #[test]
    fn a_wrong_type_rejects_everything() {
        let (_d, s) = store();
        let err = s
            .update(&json!({"general": {"gamePath": "x", "cloudGame": "yes"}}))
            .unwrap_err();
        assert!(err.to_string().contains("general.cloudGame"), "{err}");
        assert_eq!(s.get()["general"]["gamePath"], "");
    }

    #[test]
    fn the_update_schema_agrees_with_the_update() {
        let validator = jsonschema::validator_for(&settings_schema(true)).unwrap();
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
        let full = jsonschema::validator_for(&settings_schema(false)).unwrap();
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
        assert_eq!(s.get()["display"]["windowState"]["width"], json!(1280));
        assert!(s.update(&json!({"display.windowState.width": 0})).is_ok());
    }

    #[test]
    fn an_unreadable_setting_is_named() {
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
        let s = Settings::open(path.clone()).unwrap();
        assert_eq!(s.get(), default_settings());
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

        /// A valid value for the leaf at `path`, picked by `seed`.
        fn valid_value(path: &[String], seed: u64) -> Value {
            let dotted = path.join(".");
            let default = pointer(&default_settings(), path).unwrap().clone();
            match (rule(&dotted), &default) {
                (Rule::OneOf(choices), _) => json!(choices[seed as usize % choices.len()]),
                (Rule::Url, _) if seed.is_multiple_of(2) => json!(""),
                (Rule::Url, _) => json!(format!("http://10.0.0.{}:5000", seed % 250)),
                (Rule::Fraction, _) => json!((seed % 101) as f64 / 100.0),
                (Rule::Port, _) => json!(1 + seed % 65535),
                (_, Value::Bool(_)) => json!(seed.is_multiple_of(2)),
                (_, Value::String(_)) => json!(format!("value {seed}")),
                (_, Value::Number(n)) if n.is_f64() => json!(seed as f64 / 8.0),
                (_, Value::Number(_)) => json!(seed % u64::from(u32::MAX)),
                (_, Value::Array(_)) => json!([format!("item {seed}")]),
                (_, other) => other.clone(),
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
                let settings = Settings::open(file.clone()).unwrap();
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
                let reopened = Settings::open(file).unwrap().get();
                let current = settings.get();
                for (path, value) in &last {
                    prop_assert_eq!(pointer(&stored, path), Some(value));
                    prop_assert_eq!(pointer(&reopened, path), Some(value));
                    prop_assert_eq!(pointer(&current, path), Some(value));
                }
            }
        }
    }
}
