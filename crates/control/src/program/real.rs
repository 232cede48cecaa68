//! The real backend program (`sra-cli`, or another named with
//! `--backend-command`): its own extensions and operator methods, relayed
//! to it as [`Command`]s and read back into the contract's shapes
//! ([`crate::protocol`]).

use std::path::Path;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::Program;
use crate::error::{Error, Result};
use crate::extensions::{ExtensionInfo, ReloadReport};
use crate::operator::{OperatorHelp, OperatorMethod};
use crate::protocol::{self, Command};
use crate::supervisor::Supervisor;
use crate::{ExtensionRun, ExtensionStop};

/// The real backend's operator methods that start and end programs.
const PROCESS_METHODS: [&str; 2] = ["launch", "kill"];

/// A real backend's operator methods with their summaries, and the backend
/// session they were asked of.
type MethodCache = (u64, Vec<OperatorMethod>);

/// A real backend program.
#[derive(Debug)]
pub(crate) struct Real {
    supervisor: Arc<Supervisor>,
    /// Whether `launch` and `kill` are relayed (see SECURITY.md).
    process_methods: bool,
    /// The summaries of the operator methods, by session.
    method_help: Mutex<Option<MethodCache>>,
}

impl Real {
    pub fn new(supervisor: Arc<Supervisor>, process_methods: bool) -> Real {
        Real {
            supervisor,
            process_methods,
            method_help: Mutex::new(None),
        }
    }

    /// 404 unless the backend has extension `id`.
    async fn extension(&self, id: &str) -> Result<ExtensionInfo> {
        self.extensions()
            .await?
            .into_iter()
            .find(|e| e.id == id)
            .ok_or_else(|| Error::not_found(format!("extension `{id}` does not exist")))
    }

    /// A `--json` command about extension `id`, once the backend lists it
    /// and its id can be sent.
    async fn extension_query(&self, id: &str, command: Command) -> Result<Value> {
        self.extension(id).await?;
        if protocol::real_word(id).is_none() {
            return Err(Error::bad_request(format!(
                "extension id `{id}` cannot be sent"
            )));
        }
        self.supervisor.query(&command).await
    }

    /// The method names the backend lists.
    async fn methods(&self) -> Result<Vec<String>> {
        let data = self.supervisor.query(&Command::OperatorList).await?;
        Ok(data
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect())
    }

    /// 404 unless the backend lists `method`.
    async fn listed(&self, method: &str) -> Result<String> {
        if !self.methods().await?.iter().any(|m| m == method) {
            return Err(Error::not_found(format!(
                "unknown operator method `{method}`"
            )));
        }
        Ok(method.to_string())
    }
}

#[async_trait::async_trait]
impl Program for Real {
    /// `extension list`; its refusal for having none is the empty list.
    async fn extensions(&self) -> Result<Vec<ExtensionInfo>> {
        match self.supervisor.query(&Command::ExtensionList).await {
            Ok(data) => Ok(protocol::extensions(&data)),
            Err(Error::Backend(message)) if message.contains(protocol::NO_EXTENSIONS) => {
                Ok(Vec::new())
            }
            Err(e) => Err(e),
        }
    }

    async fn extension_schema(&self, id: &str) -> Result<Value> {
        let command = Command::ExtensionSchema { id: id.to_string() };
        self.extension_query(id, command).await
    }

    async fn extension_config(&self, id: &str) -> Result<Value> {
        let command = Command::ExtensionConfigGet { id: id.to_string() };
        // No `data`: the real program's "the configuration is empty".
        Ok(match self.extension_query(id, command).await? {
            Value::Null => Value::Object(Default::default()),
            config => config,
        })
    }

    async fn extension_set_config(&self, id: &str, config_json: &str) -> Result<Value> {
        let config: Value = serde_json::from_str(config_json)
            .map_err(|e| Error::bad_request(format!("the configuration is not JSON: {e}")))?;
        let command = Command::ExtensionConfigSet {
            id: id.to_string(),
            config: config.clone(),
        };
        self.extension_query(id, command).await?;
        Ok(config)
    }

    /// `extension run ID [--config NAME] --json`: the backend starts the
    /// extension (in its job thread, or its own for a background one) and
    /// answers at once.
    async fn extension_run(&self, id: &str, config_name: Option<&str>) -> Result<ExtensionRun> {
        let info = self.extension(id).await?;
        let config_name = config_name.filter(|n| !n.is_empty()).map(str::to_string);
        if let Some(name) = &config_name
            && protocol::real_word(name).is_none()
        {
            return Err(Error::bad_request(format!(
                "the configuration name `{name}` cannot be sent"
            )));
        }
        let command = Command::ExtensionRun {
            id: id.to_string(),
            config: config_name.clone(),
        };
        self.extension_query(id, command).await?;
        Ok(ExtensionRun {
            id: id.to_string(),
            background: info.background,
            config_name,
            task: self.supervisor.status().await?,
        })
    }

    /// The real program refuses to stop what does not run: then its
    /// extension status tells it was not running.
    async fn extension_stop(&self, id: &str) -> Result<ExtensionStop> {
        let command = Command::ExtensionStop { id: id.to_string() };
        let was_running = match self.extension_query(id, command).await {
            Ok(_) => true,
            Err(e) => {
                let status = self.supervisor.query(&Command::ExtensionStatus).await?;
                if status.get("status").and_then(Value::as_str) == Some("running") {
                    return Err(e);
                }
                false
            }
        };
        Ok(ExtensionStop {
            id: id.to_string(),
            was_running,
        })
    }

    async fn extensions_reload(&self) -> Result<ReloadReport> {
        let ids = |list: Vec<ExtensionInfo>| list.into_iter().map(|e| e.id).collect::<Vec<_>>();
        let before = ids(self.extensions().await?);
        match self.supervisor.query(&Command::ExtensionReload).await {
            Ok(_) => {}
            Err(Error::Backend(message))
                if message.contains(protocol::NO_EXTENSIONS_AFTER_RELOAD) => {}
            Err(e) => return Err(e),
        }
        Ok(protocol::reload_report(
            &before,
            &ids(self.extensions().await?),
        ))
    }

    /// The backend's own methods (`operator list`, each with the summary of
    /// its `operator help`, asked once per backend session).
    async fn operator_list(&self) -> Result<Vec<OperatorMethod>> {
        let session = self.supervisor.info().session;
        if let Some((cached, methods)) = self
            .method_help
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            && *cached == session
        {
            return Ok(methods.clone());
        }
        let names = self.methods().await?;
        let mut methods = Vec::with_capacity(names.len());
        for name in &names {
            let help = self
                .supervisor
                .query(&Command::OperatorHelp {
                    method: name.clone(),
                })
                .await
                .ok();
            methods.push(protocol::operator_method(name, help.as_ref()));
        }
        *self.method_help.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((self.supervisor.info().session, methods.clone()));
        Ok(methods)
    }

    /// 404 unless the backend lists `method` (help is read-only: no method
    /// is refused).
    async fn operator_help(&self, method: &str) -> Result<OperatorHelp> {
        let method = self.listed(method).await?;
        let data = self
            .supervisor
            .query(&Command::OperatorHelp {
                method: method.clone(),
            })
            .await?;
        Ok(protocol::operator_help(&method, &data))
    }

    /// 400 for an empty method, 404 unless the backend lists it, 403 for
    /// the methods that start and end programs unless they are allowed;
    /// the parameters are checked by the backend.
    async fn operator_call(&self, method: &str, params: Value) -> Result<Value> {
        if method.trim().is_empty() {
            return Err(Error::bad_request("`method` must not be empty"));
        }
        let method = self.listed(method).await?;
        if PROCESS_METHODS.contains(&method.as_str()) && !self.process_methods {
            return Err(Error::Forbidden(format!(
                "the operator method `{method}` starts or ends programs on the server's machine; \
                 it is relayed only when the server runs with an access token (see SECURITY.md)"
            )));
        }
        self.supervisor
            .query(&Command::OperatorCall { method, params })
            .await
    }

    /// The real program has no `game screenshot`: its operator's
    /// `screenshot` saves the window where it is told.
    async fn save_screenshot(&self, path: &Path, _relative: &str) -> Result<()> {
        let params = serde_json::json!({"save_path": path});
        let _ = std::fs::remove_file(path);
        self.supervisor
            .query(&Command::OperatorCall {
                method: "screenshot".to_string(),
                params,
            })
            .await?;
        Ok(())
    }
}
