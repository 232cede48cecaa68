//! Extensions: modules discovered in `extensions/<id>/` of the state directory.
//!
//! Each extension has a manifest (`extension.json`: name, version,
//! description, whether it runs in the background, its steps and the JSON
//! Schema of its configuration) and a current configuration
//! (`config.json`). Configurations are exchanged as JSON text and validated
//! with the `jsonschema` crate, each violation reported. Two examples are
//! seeded on first start. Foreground runs go through the task runner (the
//! caller does that); background runs are tracked here. This module knows
//! nothing about HTTP.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::watch;

use crate::error::{Error, Result};
use crate::logs::LogBuffer;
use crate::{names, state};

/// A record of `GET /api/Extensions`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExtensionInfo {
    pub id: String,
    pub name: String,
    pub version: String,
    pub description: String,
    /// Background extensions run beside tasks; others occupy the task runner.
    pub background: bool,
    pub running: bool,
    /// Whether the stored configuration satisfies the schema.
    pub config_valid: bool,
}

/// What a reload found.
#[derive(Debug, Clone, Default, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReloadReport {
    pub added: Vec<String>,
    pub changed: Vec<String>,
    pub removed: Vec<String>,
    /// Extensions now loaded.
    pub loaded: Vec<String>,
    /// Directories skipped, with the reason.
    pub errors: Vec<ExtensionProblem>,
}

/// A directory that could not be loaded as an extension.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ExtensionProblem {
    pub id: String,
    pub error: String,
}

/// A loaded extension.
#[derive(Debug, Clone)]
pub(crate) struct Extension {
    pub id: String,
    pub name: String,
    pub version: String,
    pub description: String,
    pub background: bool,
    pub steps: Vec<String>,
    pub schema: Value,
    validator: Arc<jsonschema::Validator>,
    /// The manifest text, to tell whether a reload changed it.
    fingerprint: String,
}

/// The registry and the background runs.
#[derive(Debug)]
pub(crate) struct Extensions {
    /// `<state>/extensions`.
    dir: PathBuf,
    /// Loaded extensions by id; a std mutex, never held across an await.
    registry: Mutex<BTreeMap<String, Extension>>,
    /// Stop switches of running background extensions, by id.
    background: Mutex<HashMap<String, watch::Sender<bool>>>,
    log: LogBuffer,
    /// The state directory, whose lock every change holds.
    state_dir: PathBuf,
    /// What the server passes over in `extensions/`.
    strays: state::Strays,
}

use state::layout::{EXTENSION_CONFIG as CONFIG, EXTENSION_MANIFEST as MANIFEST};

/// The two example extensions written on first start.
fn seeds() -> Vec<(&'static str, Value, Value)> {
    vec![
        (
            "daily-checkin",
            json!({
                "name": "Daily check-in",
                "version": "1.2.0",
                "description": "Claims the daily check-in reward on the community site",
                "background": false,
                "steps": ["Opening the check-in page", "Signing in", "Claiming the reward"],
                "configSchema": {
                    "$schema": "https://json-schema.org/draft/2020-12/schema",
                    "type": "object",
                    "required": ["account", "region"],
                    "additionalProperties": false,
                    "properties": {
                        "account": { "type": "string", "minLength": 1, "maxLength": 64 },
                        "region": { "type": "string", "enum": ["cn", "global", "asia", "europe", "america"] },
                        "retries": { "type": "integer", "minimum": 0, "maximum": 5, "default": 2 },
                        "notifyOnSuccess": { "type": "boolean", "default": false }
                    }
                }
            }),
            json!({ "account": "player-1", "region": "cn", "retries": 2, "notifyOnSuccess": false }),
        ),
        (
            "stamina-watch",
            json!({
                "name": "Stamina watch",
                "version": "0.4.1",
                "description": "Watches trailblaze power in the background and notifies when it is nearly full",
                "background": true,
                "steps": ["Reading trailblaze power"],
                "configSchema": {
                    "$schema": "https://json-schema.org/draft/2020-12/schema",
                    "type": "object",
                    "required": ["threshold", "intervalMinutes"],
                    "additionalProperties": false,
                    "properties": {
                        "threshold": { "type": "integer", "minimum": 1, "maximum": 300 },
                        "intervalMinutes": { "type": "integer", "minimum": 1, "maximum": 1440 },
                        "channel": { "type": "string", "enum": ["none", "webhook", "email", "telegram"] },
                        "quietHours": {
                            "type": "object",
                            "required": ["from", "to"],
                            "properties": {
                                "from": { "type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$" },
                                "to": { "type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$" }
                            }
                        }
                    }
                }
            }),
            json!({ "threshold": 240, "intervalMinutes": 30, "channel": "none" }),
        ),
    ]
}

/// Loads one extension directory.
/// Its files are read as state files are ([`state::read_file`]): regular
/// files inside the state directory `root` only.
fn load_one(root: &Path, dir: &Path, id: &str) -> std::result::Result<Extension, String> {
    let text = state::read_file(root, &dir.join(MANIFEST))
        .and_then(|bytes| String::from_utf8(bytes).map_err(std::io::Error::other))
        .map_err(|e| format!("cannot read {MANIFEST}: {e}"))?;
    if let Some(kind) = state::stray_kind(&dir.join(CONFIG)) {
        return Err(format!(
            "{CONFIG} is {}, where the extension's stored configuration belongs",
            kind.what()
        ));
    }
    let manifest: Value =
        serde_json::from_str(&text).map_err(|e| format!("{MANIFEST} is not valid JSON: {e}"))?;
    let text_field = |key: &str| {
        manifest
            .get(key)
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let schema = manifest
        .get("configSchema")
        .cloned()
        .ok_or_else(|| format!("{MANIFEST} has no `configSchema`"))?;
    let validator = jsonschema::validator_for(&schema)
        .map_err(|e| format!("`configSchema` is not a valid JSON Schema: {e}"))?;
    let steps = match manifest.get("steps") {
        None => vec!["Working".to_string()],
        Some(Value::Array(items)) if !items.is_empty() => items
            .iter()
            .map(|s| s.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| "`steps` must be an array of strings".to_string())?,
        Some(_) => return Err("`steps` must be a non-empty array of strings".to_string()),
    };
    Ok(Extension {
        id: id.to_string(),
        name: text_field("name").unwrap_or_else(|| id.to_string()),
        version: text_field("version").unwrap_or_else(|| "0.0.0".to_string()),
        description: text_field("description").unwrap_or_default(),
        background: manifest
            .get("background")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        steps,
        schema,
        validator: Arc::new(validator),
        fingerprint: text,
    })
}

impl Extension {
    /// Each violation of `config` against the schema, as `path: message`.
    pub fn violations(&self, config: &Value) -> Vec<String> {
        self.validator
            .iter_errors(config)
            .map(|e| {
                let path = e.instance_path().to_string();
                if path.is_empty() {
                    format!("(root): {e}")
                } else {
                    format!("{path}: {e}")
                }
            })
            .collect()
    }
}

impl Extensions {
    /// Opens the registry, seeding the examples when the directory does not
    /// exist yet (first start). Nothing in it stops the server: a stored
    /// configuration that is not JSON is moved aside, an extension that
    /// cannot be loaded is skipped with its reason, and what is not an
    /// extension is passed over ([`state::Strays`]).
    pub fn open(
        state_dir: &Path,
        log: LogBuffer,
        strays: state::Strays,
    ) -> anyhow::Result<Extensions> {
        let dir = state_dir.join(state::layout::EXTENSIONS);
        // Seeded only where nothing is: a link at `extensions` is a stray.
        if !state::occupied(&dir) {
            for (id, manifest, config) in seeds() {
                state::write_json(&strays, &dir.join(id).join(MANIFEST), &manifest)?;
                state::write_json(&strays, &dir.join(id).join(CONFIG), &config)?;
            }
        }
        let extensions = Extensions {
            dir,
            registry: Mutex::new(BTreeMap::new()),
            background: Mutex::new(HashMap::new()),
            log,
            state_dir: state_dir.to_path_buf(),
            strays,
        };
        // A stored configuration that is not JSON is moved aside, as every
        // state file is (the manifests are the extension's own, not ours:
        // a broken one skips the extension with a reason).
        for folder in extensions.folders() {
            let config = folder.join(CONFIG);
            if state::is_regular_file(&config)
                && let Err(e) =
                    state::read_json_at_start(&extensions.strays, &config, &state::any_json)
            {
                tracing::warn!("{e:#}; the configuration is left as it is");
            }
        }
        extensions.reload();
        Ok(extensions)
    }

    /// The folders of `extensions/` that may be extensions; every other
    /// entry (a file, a hidden folder) is passed over.
    fn folders(&self) -> Vec<PathBuf> {
        let mut folders = Vec::new();
        // `extensions` itself a link would lead elsewhere: passed over.
        if let Some(kind) = state::stray_folder(&self.dir) {
            self.strays.pass_over_kind(&self.dir, kind);
            return folders;
        }
        for entry in fs::read_dir(&self.dir).into_iter().flatten().flatten() {
            let name = entry.file_name();
            // What the entry is itself: a link to a folder (which may be
            // anywhere) is not an extension.
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir && !name.to_string_lossy().starts_with('.') {
                folders.push(entry.path());
            } else if !state::is_leftover(&name.to_string_lossy()) {
                self.strays
                    .pass_over(&entry.path(), "an extension's folder");
            }
        }
        folders
    }

    fn scan(&self) -> (BTreeMap<String, Extension>, Vec<ExtensionProblem>) {
        let mut found = BTreeMap::new();
        let mut errors = Vec::new();
        for path in self.folders() {
            let Some(id) = path
                .file_name()
                .and_then(|n| n.to_str())
                .map(str::to_string)
            else {
                self.strays.pass_over(&path, "an extension's folder");
                continue;
            };
            if let Err(problem) = names::check_name("extension id", &id) {
                errors.push(ExtensionProblem { id, error: problem });
                continue;
            }
            match load_one(&self.state_dir, &path, &id) {
                Ok(ext) => {
                    found.insert(id, ext);
                }
                Err(error) => errors.push(ExtensionProblem { id, error }),
            }
        }
        errors.sort_by(|a, b| a.id.cmp(&b.id));
        (found, errors)
    }

    /// Rescans the directory; stops background runs of removed extensions.
    pub fn reload(&self) -> ReloadReport {
        let (found, errors) = self.scan();
        let mut registry = self.registry.lock().unwrap_or_else(|e| e.into_inner());
        let mut report = ReloadReport {
            errors,
            ..ReloadReport::default()
        };
        for (id, ext) in &found {
            match registry.get(id) {
                None => report.added.push(id.clone()),
                Some(old) if old.fingerprint != ext.fingerprint => report.changed.push(id.clone()),
                Some(_) => {}
            }
        }
        for id in registry.keys() {
            if !found.contains_key(id) {
                report.removed.push(id.clone());
            }
        }
        report.loaded = found.keys().cloned().collect();
        *registry = found;
        drop(registry);
        for id in &report.removed {
            if let Some(stop) = self.lock_background().remove(id) {
                stop.send_replace(true);
            }
        }
        for problem in &report.errors {
            self.log.warning(&format!(
                "Extension `{}` skipped: {}",
                problem.id, problem.error
            ));
        }
        report
    }

    fn lock_background(&self) -> std::sync::MutexGuard<'_, HashMap<String, watch::Sender<bool>>> {
        self.background.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn get(&self, id: &str) -> Result<Extension> {
        let id = &names::check_name("extension id", id).map_err(Error::BadRequest)?;
        self.registry
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
            .ok_or_else(|| Error::not_found(format!("extension `{id}` does not exist")))
    }

    /// Every extension; `foreground_running` names the one the runner runs.
    pub fn list(&self, foreground_running: Option<&str>) -> Vec<ExtensionInfo> {
        let registry = self
            .registry
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let background = self.lock_background();
        registry
            .values()
            .map(|ext| ExtensionInfo {
                id: ext.id.clone(),
                name: ext.name.clone(),
                version: ext.version.clone(),
                description: ext.description.clone(),
                background: ext.background,
                running: background.contains_key(&ext.id)
                    || foreground_running == Some(ext.id.as_str()),
                config_valid: self
                    .stored_config(&ext.id)
                    .is_ok_and(|c| ext.violations(&c).is_empty()),
            })
            .collect()
    }

    /// The stored configuration value (`{}` when none is stored).
    pub fn stored_config(&self, id: &str) -> Result<Value> {
        let ext = self.get(id)?;
        Ok(
            state::read_json(&self.strays, &self.dir.join(&ext.id).join(CONFIG))?
                .unwrap_or_else(|| json!({})),
        )
    }

    /// Validates and stores a configuration given as JSON text.
    pub fn set_config(&self, id: &str, text: &str) -> Result<Value> {
        let ext = self.get(id)?;
        let config: Value = serde_json::from_str(text)
            .map_err(|e| Error::bad_request(format!("the configuration is not valid JSON: {e}")))?;
        let violations = ext.violations(&config);
        if !violations.is_empty() {
            return Err(Error::invalid(
                format_args!("the configuration does not match the schema of `{id}`"),
                violations,
            ));
        }
        // An extension whose folder was removed since the last reload is
        // gone: writing would recreate a folder holding only `config.json`.
        let folder = self.dir.join(&ext.id);
        let _lock = state::lock(&self.state_dir)?;
        if !folder.is_dir() {
            return Err(Error::not_found(format!(
                "extension `{id}` no longer exists (its folder was removed); help: POST /api/Extensions/reload"
            )));
        }
        // The file as it is now: one made corrupt meanwhile is moved aside
        // (a 500 that says so), never written over.
        state::read_json(&self.strays, &folder.join(CONFIG))?;
        state::write_json(&self.strays, &folder.join(CONFIG), &config)?;
        self.log
            .info(&format!("Extension `{id}` configuration updated"));
        Ok(config)
    }

    /// Starts a background run; 409 when it already runs.
    pub fn start_background(
        self: &Arc<Self>,
        ext: &Extension,
        step: Duration,
        fail: bool,
    ) -> Result<()> {
        let (stop, mut stop_rx) = watch::channel(false);
        {
            let mut background = self.lock_background();
            if background.contains_key(&ext.id) {
                return Err(Error::conflict(format!(
                    "extension `{}` is already running",
                    ext.id
                )));
            }
            background.insert(ext.id.clone(), stop.clone());
        }
        let this = Arc::clone(self);
        let ext = ext.clone();
        self.log
            .info(&format!("Extension `{}` started in the background", ext.id));
        tokio::spawn(async move {
            let mut round = 0u64;
            let reason = loop {
                round += 1;
                for step_text in &ext.steps {
                    this.log
                        .info(&format!("[{}] {step_text} (round {round})", ext.id));
                }
                if fail {
                    this.log.error(&format!(
                        "[{}] failed: simulated failure requested with --fail-task",
                        ext.id
                    ));
                    break "failed";
                }
                let stopped = tokio::select! {
                    () = tokio::time::sleep(step) => *stop_rx.borrow(),
                    changed = stop_rx.changed() => changed.is_err() || *stop_rx.borrow(),
                };
                if stopped {
                    break "stopped";
                }
            };
            let mut background = this.lock_background();
            // Remove only our own switch: a later run may have replaced it.
            if background
                .get(&ext.id)
                .is_some_and(|s| s.same_channel(&stop))
            {
                background.remove(&ext.id);
            }
            drop(background);
            this.log.info(&format!("Extension `{}` {reason}", ext.id));
        });
        Ok(())
    }

    /// Stops a background run; whether one was running.
    pub fn stop_background(&self, id: &str) -> bool {
        match self.lock_background().remove(id) {
            Some(stop) => {
                stop.send_replace(true);
                true
            }
            None => false,
        }
    }

    /// Stops every background run (backend restart).
    pub fn stop_all(&self) {
        for (_, stop) in self.lock_background().drain() {
            stop.send_replace(true);
        }
    }
}
