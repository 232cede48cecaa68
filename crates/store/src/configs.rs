//! Task configurations: named JSON objects stored as `configs/<name>.json`.
//!
//! Names are checked before any path is built, so no request reaches a file
//! outside the directory. Unknown fields are kept as they are. The
//! `startGame` credentials are never returned and survive a replace that
//! omits them. This module knows nothing about running tasks.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::shapes::TasksConfig;
use crate::{names, state};
use stdx::json::kind_of;

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
/// [`name_problem`] returning `None`, for the OpenAPI document. It covers the
/// invisible characters of the Basic Multilingual Plane; the few astral
/// ones (tags, musical format characters) are refused by the rule alone.
pub const CONFIG_NAME_PATTERN: &str = r#"^(?!\.)(?! )(?!(?:[Cc][Oo][Nn]|[Pp][Rr][Nn]|[Aa][Uu][Xx]|[Nn][Uu][Ll]|[Cc][Oo][Nn][Ii][Nn]\$|[Cc][Oo][Nn][Oo][Uu][Tt]\$|(?:[Cc][Oo][Mm]|[Ll][Pp][Tt])[0-9\u00b9\u00b2\u00b3\u2070\u2074-\u2079]) *(?:\.|$))[^\\/:*?"<>|\x00-\x1f\x7f-\x9f\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\uff0f\u2215\u2044\u29f8\uff3c\u29f5\u29f9\ufe68\u2216\u2236\ua789\u02d0\u2217\u204e\u2731\u02ba\u2033\u2039\u02c2\u1438\u203a\u02c3\u1433\u2223\u2502\u01c0\u05c0\u23d0\u2758\uffe8\u2800]*[^\\/:*?"<>|\x00-\x1f\x7f-\x9f\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\uff0f\u2215\u2044\u29f8\uff3c\u29f5\u29f9\ufe68\u2216\u2236\ua789\u02d0\u2217\u204e\u2731\u02ba\u2033\u2039\u02c2\u1438\u203a\u02c3\u1433\u2223\u2502\u01c0\u05c0\u23d0\u2758\uffe8\u2800 .]$"#;

/// A complete configuration with realistic defaults: [`TasksConfig::default`]
/// as JSON (the same type the OpenAPI schema `TasksConfig` is derived from).
pub fn default_config() -> Value {
    serde_json::to_value(TasksConfig::default()).unwrap_or_default()
}

/// The configuration store. No configuration is kept in memory: each is
/// read as its file is now, and each change holds the state directory's
/// lock ([`state::lock`]) from its read to its write.
#[derive(Debug)]
pub struct Configs {
    /// `<state>/configs`.
    dir: PathBuf,
    /// The state directory, whose lock every change holds.
    state_dir: PathBuf,
    /// What the server passes over in `configs/`.
    strays: state::Strays,
}

/// Why a stored configuration cannot be used: not a JSON object.
fn unusable(config: &Value) -> Option<String> {
    (!config.is_object())
        .then(|| format!("{} where a configuration object belongs", kind_of(config)))
}

/// Why a name is refused, or `None` when it is acceptable (see
/// [`names::check_name`], plus at most [`MAX_CONFIG_NAME_CHARS`] characters).
pub fn name_problem(name: &str) -> Option<String> {
    checked_name(name).err()
}

/// The NFC form of an acceptable name, or why it is refused.
fn checked_name(name: &str) -> std::result::Result<String, String> {
    let name = names::check_name("configuration name", name)?;
    if name.chars().count() > MAX_CONFIG_NAME_CHARS {
        return Err(format!(
            "the configuration name is longer than {MAX_CONFIG_NAME_CHARS} characters"
        ));
    }
    Ok(name)
}

/// [`checked_name`] as a 400: the NFC form of an acceptable name.
pub fn checked(name: &str) -> Result<String> {
    valid_name(name)
}

/// [`checked_name`] as a 400.
fn valid_name(name: &str) -> Result<String> {
    checked_name(name).map_err(Error::BadRequest)
}

/// A job's configuration that does not exist: the contract's 400.
pub fn missing(name: &str) -> Error {
    Error::bad_request(format!("configuration `{name}` does not exist"))
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

/// Whether `key` names the `startGame` section, in any letter case (the
/// desktop client is .NET, whose JSON binding ignores case).
fn is_start_game(key: &str) -> bool {
    key.eq_ignore_ascii_case("startGame")
}

/// Whether `key` names a credential field, in any letter case.
fn is_credential(key: &str) -> bool {
    CREDENTIAL_FIELDS
        .iter()
        .any(|f| f.eq_ignore_ascii_case(key))
}

/// Removes the credentials of `startGame`, for output: every spelling of the
/// section and of the fields.
pub fn redact(mut config: Value) -> Value {
    if let Some(map) = config.as_object_mut() {
        for (_, section) in map.iter_mut().filter(|(k, _)| is_start_game(k)) {
            if let Some(section) = section.as_object_mut() {
                section.retain(|key, _| !is_credential(key));
            }
        }
    }
    config
}

/// Copies credentials of `old` that `new` lacks (compared without regard to
/// case) into `new`'s `startGame` section, whatever its spelling.
fn keep_credentials(new: &mut Map<String, Value>, old: &Value) {
    let kept: Vec<(String, Value)> = old
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| is_start_game(k))
        .filter_map(|(_, section)| section.as_object())
        .flatten()
        .filter(|(k, _)| is_credential(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if kept.is_empty() {
        return;
    }
    let section_key = new
        .keys()
        .find(|k| is_start_game(k))
        .cloned()
        .unwrap_or_else(|| "startGame".to_string());
    let section = new
        .entry(section_key)
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(section) = section {
        for (field, value) in kept {
            if !section.keys().any(|k| k.eq_ignore_ascii_case(&field)) {
                section.insert(field, value);
            }
        }
    }
}

impl Configs {
    /// Opens the store; creates the directory and the `Default`
    /// configuration when the directory does not exist yet (first start).
    /// Configurations that are not JSON objects are moved aside and
    /// reported; what is not a configuration is passed over ([`state::Strays`]).
    pub fn open(state_dir: &Path, strays: state::Strays) -> anyhow::Result<Configs> {
        let dir = state_dir.join(state::layout::CONFIGS);
        // Seeded only where nothing is: a link at `configs` is a stray.
        if !state::occupied(&dir) {
            fs::create_dir_all(&dir)?;
            state::write_json(
                &strays,
                &dir.join(format!(
                    "{DEFAULT_CONFIG_NAME}{}",
                    state::layout::CONFIG_SUFFIX
                )),
                &default_config(),
            )?;
        }
        let configs = Configs {
            dir,
            state_dir: state_dir.to_path_buf(),
            strays,
        };
        // A stray at `configs` (a link) is named and answered by each
        // request; the server starts.
        let names = match configs.list() {
            Err(e) if state::stray_folder(&configs.dir).is_some() => {
                tracing::warn!("{e}");
                Vec::new()
            }
            names => names?,
        };
        for name in names {
            if let Err(e) =
                state::read_json_at_start(&configs.strays, &configs.path(&name), &unusable)
            {
                tracing::warn!("{e:#}; the configuration is left as it is");
            }
        }
        Ok(configs)
    }

    fn guard(&self) -> Result<state::StateLock> {
        state::lock(&self.state_dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir
            .join(format!("{name}{}", state::layout::CONFIG_SUFFIX))
    }

    /// The names, sorted.
    pub fn list(&self) -> Result<Vec<String>> {
        let mut names = Vec::new();
        // `configs` itself a link (or anything but a folder) would list
        // what is elsewhere: it is refused, not followed.
        if let Some(kind) = state::stray_folder(&self.dir) {
            self.strays.pass_over_kind(&self.dir, kind);
            return Err(Error::Storage(format!(
                "cannot list the stored configurations: `{}` in the state directory is {}, not a folder; it is left as it is; help: move it away and restart the server",
                state::layout::CONFIGS,
                kind.what()
            )));
        }
        let entries = fs::read_dir(&self.dir).map_err(|e| {
            tracing::error!("cannot list {}: {e}", self.dir.display());
            Error::Storage(format!(
                "cannot list the stored configurations ({}); help: check that the state directory's `configs` is a readable folder",
                e.kind()
            ))
        })?;
        for entry in entries.flatten() {
            let file_name = entry.file_name();
            let file_name = file_name.to_string_lossy();
            // What the entry is itself: a link (to a file or anywhere) is
            // not a configuration, nor is a FIFO, a socket or a folder.
            let is_file = entry.file_type().is_ok_and(|t| t.is_file());
            match file_name.strip_suffix(state::layout::CONFIG_SUFFIX) {
                Some(name) if is_file && name_problem(name).is_none() => {
                    names.push(name.to_string());
                }
                _ if state::layout::is_moved_aside(&file_name)
                    || state::is_leftover(&file_name) => {}
                _ => self.strays.pass_over(&entry.path(), "a configuration"),
            }
        }
        names.sort();
        Ok(names)
    }

    /// The one form of a configuration name, decided at the edge and used
    /// after it (store, lookup, backend, logs): the name checked and in NFC,
    /// or, when a stored configuration is the same name ([`names::fold`]:
    /// letter case and compatibility forms ignored), that configuration's
    /// spelling. 400 for a name no configuration can have.
    pub fn resolve(&self, name: &str) -> Result<String> {
        let name = valid_name(name)?;
        let stored = self.list()?;
        if stored.contains(&name) {
            return Ok(name);
        }
        let key = names::fold(&name);
        Ok(stored
            .into_iter()
            .find(|stored| names::fold(stored) == key)
            .unwrap_or(name))
    }

    /// The stored configuration, credentials included (for the runner);
    /// 400 for a name no configuration can have.
    /// A file that is not a JSON object is moved aside (a 500 that says so).
    pub fn load(&self, name: &str) -> Result<Option<Value>> {
        let name = self.resolve(name)?;
        state::read_document(&self.strays, &self.path(&name), &unusable)
    }

    /// Refuses to start a job on configuration `name` unless it can be
    /// read as it is now: 400 when it does not exist, a 500 that says why
    /// when it is corrupt (moved aside). The job then never starts.
    pub fn runnable(&self, name: &str) -> Result<()> {
        match self.load(name) {
            Ok(Some(_)) => Ok(()),
            Ok(None) => Err(missing(name)),
            Err(Error::Storage(why)) => {
                Err(Error::Storage(format!("the job did not start: {why}")))
            }
            Err(e) => Err(e),
        }
    }

    /// Whether a configuration of this name ([`Configs::resolve`]) is stored.
    pub fn exists(&self, name: &str) -> bool {
        self.resolve(name)
            .is_ok_and(|name| self.list().is_ok_and(|stored| stored.contains(&name)))
    }

    /// 409 when `name` is an existing configuration's name in another
    /// spelling (letter case, compatibility form): on Windows, where the real
    /// service runs, both would be one file, and the server treats them as
    /// one name.
    fn refuse_case_twin(&self, name: &str) -> Result<()> {
        if let Some(twin) = self
            .list()?
            .into_iter()
            .find(|other| other != name && names::same_name(other, name))
        {
            return Err(Error::conflict(format!(
                "configuration `{name}` differs from the existing `{twin}` only by letter case or by compatibility characters (full-width letters, no-break or wide spaces); on Windows, where the service runs, they would be one file; help: use `{twin}` or another name"
            )));
        }
        Ok(())
    }

    /// The configuration without credentials.
    pub fn get(&self, name: &str) -> Result<Value> {
        let name = &self.resolve(name)?;
        self.load(name)?.map(redact).ok_or_else(|| not_found(name))
    }

    /// Creates `name` with `body` (a JSON object) or the default configuration.
    pub fn create(&self, name: &str, body: Option<Value>) -> Result<Value> {
        let name = &valid_name(name)?;
        let config = match body {
            Some(body) => Value::Object(as_object(body)?),
            None => default_config(),
        };
        let _guard = self.guard()?;
        // A stray at the name (a FIFO, a link) is refused by the write.
        if state::is_regular_file(&self.path(name)) {
            return Err(Error::conflict(format!(
                "configuration `{name}` already exists"
            )));
        }
        self.refuse_case_twin(name)?;
        state::write_json(&self.strays, &self.path(name), &config)?;
        Ok(redact(config))
    }

    /// Replaces `name`; credentials absent from `body` keep their stored values.
    pub fn replace(&self, name: &str, body: Value) -> Result<Value> {
        let name = &self.resolve(name)?;
        let _guard = self.guard()?;
        let old = self.load(name)?.ok_or_else(|| not_found(name))?;
        let mut new = as_object(body)?;
        keep_credentials(&mut new, &old);
        let new = Value::Object(new);
        state::write_json(&self.strays, &self.path(name), &new)?;
        Ok(redact(new))
    }

    /// Creates or replaces `name` (a run with `persist: true`), keeping
    /// credentials. Returns what was stored before (`None`: nothing), for
    /// [`Configs::restore`].
    pub fn save(&self, name: &str, body: Value) -> Result<Option<Value>> {
        let name = &self.resolve(name)?;
        let _guard = self.guard()?;
        let mut new = as_object(body)?;
        let old = self.load(name)?;
        match &old {
            Some(old) => keep_credentials(&mut new, old),
            None => self.refuse_case_twin(name)?,
        }
        state::write_json(&self.strays, &self.path(name), &Value::Object(new))?;
        Ok(old)
    }

    /// Puts back what [`Configs::save`] replaced: `previous`, or no file
    /// when there was none (a run that saved its configuration and then did
    /// not start changes nothing).
    pub fn restore(&self, name: &str, previous: Option<Value>) -> Result<()> {
        let name = &valid_name(name)?;
        let _guard = self.guard()?;
        match previous {
            Some(previous) => state::write_json(&self.strays, &self.path(name), &previous),
            None => state::remove(&self.strays, &self.path(name)),
        }
    }

    pub fn delete(&self, name: &str) -> Result<()> {
        let name = &self.resolve(name)?;
        let _guard = self.guard()?;
        if !self.exists(name) {
            return Err(not_found(name));
        }
        state::remove(&self.strays, &self.path(name))
    }
}

/// Checks a run's inline configuration is an object.
pub fn check_object(config: &Value) -> Result<()> {
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

    /// A name around each character Windows forbids and each look-alike,
    /// and each device name, from the tables the rule itself uses.
    fn names_with_forbidden_characters() -> Vec<String> {
        names::FORBIDDEN_CHARS
            .iter()
            .chain(names::LOOK_ALIKES.iter().map(|(c, _)| c))
            .map(|c| format!("a{c}b"))
            .chain(names::DEVICE_NAMES.iter().map(|d| d.to_lowercase()))
            .chain(["COM0", "lpt0.txt", "COM\u{2070}", "Lpt\u{2077}"].map(String::from))
            .collect()
    }

    #[test]
    fn names_with_forbidden_characters_are_refused() {
        let others = ["", ".hidden", "..", "a\u{7}"].map(String::from);
        for bad in others.into_iter().chain(names_with_forbidden_characters()) {
            assert!(name_problem(&bad).is_some(), "{bad:?}");
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
        let others = [
            "Default",
            "a",
            "my config",
            "日常",
            "a.b",
            ".hidden",
            "",
            ".",
            "..",
            " a",
            "a ",
            "a.",
            "a\u{7}b",
            "a\u{85}b",
            "x\ny",
            &long,
            "\u{feff}BOM",
            "zero\u{200b}width",
            "bidi\u{202e}",
            "CON",
            "nul.json",
            "Com1",
            "LPT9 .txt",
            "COM¹",
            "COM10",
            "console",
            "CONFIG.json",
        ];
        let others = others.map(String::from);
        for name in others.into_iter().chain(names_with_forbidden_characters()) {
            assert_eq!(
                validator.is_valid(&json!(name)),
                name_problem(&name).is_none(),
                "{name:?}"
            );
        }
    }

    #[test]
    fn credentials_are_found_in_any_letter_case() {
        let stored = json!({
            "StartGame": {"Password": "a", "gamePath": "x"},
            "startGame": {"PASSWORD": "b", "encryptedusername": "c"},
        });
        let out = redact(stored.clone());
        assert_eq!(
            out,
            json!({"StartGame": {"gamePath": "x"}, "startGame": {}})
        );
        let mut new = json!({"STARTGAME": {"password": "new"}})
            .as_object()
            .unwrap()
            .clone();
        keep_credentials(&mut new, &stored);
        assert_eq!(
            Value::Object(new),
            json!({"STARTGAME": {"password": "new", "encryptedusername": "c"}})
        );
    }

    #[test]
    fn redaction_omits_credentials() {
        let out = redact(default_config());
        let start = out["startGame"].as_object().unwrap();
        assert!(!start.contains_key("password"));
        assert!(start.contains_key("gamePath"));
    }
}
