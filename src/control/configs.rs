//! Task configurations: named JSON objects stored as `configs/<name>.json`.
//!
//! Names are checked before any path is built, so no request reaches a file
//! outside the directory. Unknown fields are kept as they are. The
//! `startGame` credentials are never returned and survive a replace that
//! omits them. This module knows nothing about running tasks.

use std::fs;
use std::path::PathBuf;
use std::sync::Mutex;

use serde_json::{Map, Value};

use crate::control::error::{Error, Result};
use crate::control::shapes::TasksConfig;
use crate::control::state;

/// The configuration created on first start.
pub const DEFAULT_CONFIG_NAME: &str = "Default";

/// The `startGame` fields that are never returned.
pub const CREDENTIAL_FIELDS: [&str; 4] = [
    "username",
    "password",
    "encryptedUsername",
    "encryptedPassword",
];

/// The longest configuration name, in characters (at most 200 bytes in
/// UTF-8, so `<name>.json` fits every file system).
pub const MAX_CONFIG_NAME_CHARS: usize = 50;

/// A regular expression (ECMA-262 and Python compatible) equivalent to
/// [`name_problem`] returning `None`, for the OpenAPI document.
pub const CONFIG_NAME_PATTERN: &str =
    r#"^(?!\.\.?$)(?! )[^\\/:*?"<>|\x00-\x1f\x7f-\x9f]*[^\\/:*?"<>|\x00-\x1f\x7f-\x9f .]$"#;

/// A complete configuration with realistic defaults: [`TasksConfig::default`]
/// as JSON (the same type the OpenAPI schema `TasksConfig` is derived from).
pub fn default_config() -> Value {
    serde_json::to_value(TasksConfig::default()).unwrap_or_default()
}

/// The configuration store.
#[derive(Debug)]
pub(crate) struct Configs {
    /// `<state>/configs`.
    dir: PathBuf,
    /// Serializes read-modify-write sequences; a std mutex, never held across an await.
    lock: Mutex<()>,
}

/// Why a name is refused, or `None` when it is acceptable.
pub fn name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("the configuration name is empty".to_string());
    }
    if name.chars().any(char::is_control) {
        return Some(format!(
            "the configuration name {name:?} contains a control character"
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| ['\\', '/', ':', '*', '?', '"', '<', '>', '|'].contains(c))
    {
        return Some(format!(
            "the configuration name `{name}` contains the forbidden character `{c}` (forbidden: \\ / : * ? \" < > |)"
        ));
    }
    if name.chars().count() > MAX_CONFIG_NAME_CHARS {
        return Some(format!(
            "the configuration name is longer than {MAX_CONFIG_NAME_CHARS} characters"
        ));
    }
    if !state::is_safe_component(name) {
        return Some(format!(
            "`{name}` is not a usable configuration name (not `.` or `..`, no leading or trailing space, no trailing dot)"
        ));
    }
    None
}

fn not_found(name: &str) -> Error {
    Error::not_found(format!("configuration `{name}` does not exist"))
}

fn as_object(body: Value) -> Result<Map<String, Value>> {
    match body {
        Value::Object(map) => Ok(map),
        other => Err(Error::bad_request(format!(
            "a configuration must be a JSON object, not {}",
            kind_of(&other)
        ))),
    }
}

/// The JSON type of a value, for messages.
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Removes the credentials of `startGame`, for output.
pub fn redact(mut config: Value) -> Value {
    if let Some(start) = config.get_mut("startGame").and_then(Value::as_object_mut) {
        for field in CREDENTIAL_FIELDS {
            start.remove(field);
        }
    }
    config
}

/// Copies credentials of `old` that `new` lacks into `new`.
fn keep_credentials(new: &mut Map<String, Value>, old: &Value) {
    let Some(old_start) = old.get("startGame").and_then(Value::as_object) else {
        return;
    };
    let kept: Vec<(&str, &Value)> = CREDENTIAL_FIELDS
        .iter()
        .filter_map(|f| old_start.get(*f).map(|v| (*f, v)))
        .collect();
    if kept.is_empty() {
        return;
    }
    let start = new
        .entry("startGame")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(start) = start {
        for (field, value) in kept {
            if !start.contains_key(field) {
                start.insert(field.to_string(), value.clone());
            }
        }
    }
}

impl Configs {
    /// Opens the store; creates the directory and the `Default`
    /// configuration when the directory does not exist yet (first start).
    pub fn open(dir: PathBuf) -> anyhow::Result<Configs> {
        if !dir.exists() {
            fs::create_dir_all(&dir)?;
            state::write_json(
                &dir.join(format!("{DEFAULT_CONFIG_NAME}.json")),
                &default_config(),
            )?;
        }
        Ok(Configs {
            dir,
            lock: Mutex::new(()),
        })
    }

    fn guard(&self) -> std::sync::MutexGuard<'_, ()> {
        self.lock.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.json"))
    }

    /// The names, sorted.
    pub fn list(&self) -> Result<Vec<String>> {
        let mut names = Vec::new();
        let entries = fs::read_dir(&self.dir)
            .map_err(|e| anyhow::anyhow!("cannot list {}: {e}", self.dir.display()))?;
        for entry in entries.flatten() {
            let file_name = entry.file_name();
            let Some(file_name) = file_name.to_str() else {
                continue;
            };
            if let Some(name) = file_name.strip_suffix(".json")
                && name_problem(name).is_none()
                && entry.path().is_file()
            {
                names.push(name.to_string());
            }
        }
        names.sort();
        Ok(names)
    }

    /// The stored configuration, credentials included (for the runner).
    pub fn load(&self, name: &str) -> Result<Option<Value>> {
        if name_problem(name).is_some() {
            return Ok(None);
        }
        Ok(state::read_json(&self.path(name))?)
    }

    pub fn exists(&self, name: &str) -> bool {
        name_problem(name).is_none() && self.path(name).is_file()
    }

    /// The configuration without credentials.
    pub fn get(&self, name: &str) -> Result<Value> {
        self.load(name)?.map(redact).ok_or_else(|| not_found(name))
    }

    /// Creates `name` with `body` (a JSON object) or the default configuration.
    pub fn create(&self, name: &str, body: Option<Value>) -> Result<Value> {
        if let Some(problem) = name_problem(name) {
            return Err(Error::BadRequest(problem));
        }
        let config = match body {
            Some(body) => Value::Object(as_object(body)?),
            None => default_config(),
        };
        let _guard = self.guard();
        if self.path(name).exists() {
            return Err(Error::conflict(format!(
                "configuration `{name}` already exists"
            )));
        }
        state::write_json(&self.path(name), &config)?;
        Ok(redact(config))
    }

    /// Replaces `name`; credentials absent from `body` keep their stored values.
    pub fn replace(&self, name: &str, body: Value) -> Result<Value> {
        let _guard = self.guard();
        let old = self.load(name)?.ok_or_else(|| not_found(name))?;
        let mut new = as_object(body)?;
        keep_credentials(&mut new, &old);
        let new = Value::Object(new);
        state::write_json(&self.path(name), &new)?;
        Ok(redact(new))
    }

    /// Creates or replaces `name` (a run with `persist: true`), keeping credentials.
    pub fn save(&self, name: &str, body: Value) -> Result<Value> {
        if let Some(problem) = name_problem(name) {
            return Err(Error::BadRequest(problem));
        }
        let _guard = self.guard();
        let mut new = as_object(body)?;
        if let Some(old) = self.load(name)? {
            keep_credentials(&mut new, &old);
        }
        let new = Value::Object(new);
        state::write_json(&self.path(name), &new)?;
        Ok(new)
    }

    pub fn delete(&self, name: &str) -> Result<()> {
        let _guard = self.guard();
        if !self.exists(name) {
            return Err(not_found(name));
        }
        fs::remove_file(self.path(name))
            .map_err(|e| anyhow::anyhow!("cannot delete configuration `{name}`: {e}"))?;
        Ok(())
    }
}

/// Checks a run's inline configuration is an object.
pub(crate) fn check_object(config: &Value) -> Result<()> {
    if config.is_object() {
        Ok(())
    } else {
        Err(Error::bad_request(format!(
            "`config` must be a JSON object, not {}",
            kind_of(config)
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_with_forbidden_characters_are_refused() {
        for bad in [
            "", "a/b", "a\\b", "a:b", "a*b", "a?b", "a\"b", "a<b", "a>b", "a|b", "..", "a\u{7}",
        ] {
            assert!(name_problem(bad).is_some(), "{bad:?}");
        }
        assert!(name_problem("Daily run").is_none());
    }

    #[test]
    fn the_documented_pattern_agrees_with_the_rule() {
        let schema = json!({
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_CONFIG_NAME_CHARS,
            "pattern": CONFIG_NAME_PATTERN,
        });
        let validator = jsonschema::validator_for(&schema).unwrap();
        let long = "x".repeat(MAX_CONFIG_NAME_CHARS + 1);
        let names = [
            "Default",
            "a",
            "my config",
            "日常",
            "a.b",
            ".hidden",
            "",
            ".",
            "..",
            "a/b",
            "a\\b",
            "a:b",
            "a*b",
            "a?b",
            "a\"b",
            "a<b",
            "a>b",
            "a|b",
            " a",
            "a ",
            "a.",
            "a\u{7}b",
            "a\u{85}b",
            "x\ny",
            &long,
        ];
        for name in names {
            assert_eq!(
                validator.is_valid(&json!(name)),
                name_problem(name).is_none(),
                "{name:?}"
            );
        }
    }

    #[test]
    fn redaction_omits_credentials() {
        let out = redact(default_config());
        let start = out["startGame"].as_object().unwrap();
        assert!(!start.contains_key("password"));
        assert!(start.contains_key("gamePath"));
    }
}
