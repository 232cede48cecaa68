//! Application settings: five nested sections stored in `settings.json`.
//!
//! The shape is fixed by the defaults (the typed [`AppSettings`]): an update may change only leaves that
//! exist, to a value of the same JSON type (and within a few known ranges).
//! Updates come as nested partial objects or with dotted keys
//! (`{"advanced": {"backend.remote.enabled": true}}`), or both. One bad value
//! rejects the whole update; unknown keys are ignored and reported. This
//! module knows nothing about HTTP.

use std::path::PathBuf;
use std::sync::Mutex;

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::control::configs::kind_of;
use crate::control::error::{Error, Result};
use crate::control::shapes::{AppSettings, BackendType, DownloadChannel, Theme, UpdateChannel};
use crate::control::state;

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
#[derive(Debug)]
pub(crate) struct Settings {
    /// `<state>/settings.json`.
    path: PathBuf,
    /// The current settings; a std mutex, never held across an await.
    value: Mutex<Value>,
}

impl Settings {
    /// Loads `settings.json` over the defaults (so new default keys appear),
    /// creating it on first start.
    pub fn open(path: PathBuf) -> anyhow::Result<Settings> {
        let mut value = default_settings();
        match state::read_json_at_start(&path)? {
            Some(stored) => merge_known(&mut value, &stored),
            None => state::write_json(&path, &value)?,
        }
        Ok(Settings {
            path,
            value: Mutex::new(value),
        })
    }

    pub fn get(&self) -> Value {
        self.value.lock().unwrap_or_else(|e| e.into_inner()).clone()
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
        let mut current = self.value.lock().unwrap_or_else(|e| e.into_inner());
        let mut next = current.clone();
        let mut result = SettingsUpdate::default();
        let mut problems = Vec::new();
        // Types come from the defaults: a float setting stored as `1` stays a float setting.
        let mut model = default_settings();
        for (path, value) in leaves {
            let dotted = path.join(".");
            if value.as_object().is_some_and(Map::is_empty) {
                // `{"general": {}}` asks for nothing.
                result.ignored.push(dotted);
                continue;
            }
            let expected = pointer_mut(&mut model, &path).map(|v| v.clone());
            match (expected, pointer_mut(&mut next, &path)) {
                (None, _) | (_, None) => result.ignored.push(dotted),
                (Some(expected), Some(slot)) => match check(&dotted, &expected, &value) {
                    Ok(()) => {
                        *slot = value;
                        if !result.updated.contains(&dotted) {
                            result.updated.push(dotted);
                        }
                    }
                    Err(problem) => problems.push(problem),
                },
            }
        }
        if !problems.is_empty() {
            return Err(Error::Invalid {
                message: format!("settings not updated: {}", problems.join("; ")),
                violations: problems,
            });
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
        *current = next;
        Ok(result)
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

fn pointer_mut<'a>(value: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    path.iter()
        .try_fold(value, |v, key| v.as_object_mut()?.get_mut(key))
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
}
