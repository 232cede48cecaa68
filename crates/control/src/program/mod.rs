//! The program behind the control service, as one interface: [`Program`].
//!
//! Two programs stand behind it. The real one ([`real::Real`], `sra-cli`
//! or any program named with `--backend-command`) has extensions and
//! operator methods of its own, which are relayed to it. The simulator of
//! this binary ([`simulated::Simulated`], `activity-site backend`) runs
//! this server's extensions (`<state>/extensions/`) and operator
//! allow-list. Both speak [`super::protocol`] through one
//! [`super::supervisor::Supervisor`], which also carries the jobs, stops and
//! the status, alike for both; [`super::Control`] chooses the program once,
//! when it opens, and asks it without knowing which it is.

use std::path::Path;

use serde_json::Value;

use crate::error::Result;
use crate::extensions::{ExtensionInfo, ReloadReport};
use crate::operator::{OperatorHelp, OperatorMethod};
use crate::{ExtensionRun, ExtensionStop};

pub(crate) mod real;
pub(crate) mod simulated;

/// What differs between the real backend program and the simulator.
#[async_trait::async_trait]
pub(crate) trait Program: std::fmt::Debug + Send + Sync {
    /// The extensions.
    async fn extensions(&self) -> Result<Vec<ExtensionInfo>>;
    /// The JSON Schema of extension `id`'s configuration.
    async fn extension_schema(&self, id: &str) -> Result<Value>;
    /// Extension `id`'s stored configuration.
    async fn extension_config(&self, id: &str) -> Result<Value>;
    /// Stores `config_json` as extension `id`'s configuration.
    async fn extension_set_config(&self, id: &str, config_json: &str) -> Result<Value>;
    /// Runs extension `id`, with the task configuration `config_name`.
    async fn extension_run(&self, id: &str, config_name: Option<&str>) -> Result<ExtensionRun>;
    /// Stops extension `id`; succeeds when it was not running.
    async fn extension_stop(&self, id: &str) -> Result<ExtensionStop>;
    /// Reads the extensions again.
    async fn extensions_reload(&self) -> Result<ReloadReport>;
    /// The operator methods with their summaries.
    async fn operator_list(&self) -> Result<Vec<OperatorMethod>>;
    /// One operator method's help.
    async fn operator_help(&self, method: &str) -> Result<OperatorHelp>;
    /// Calls an operator method.
    async fn operator_call(&self, method: &str, params: Value) -> Result<Value>;
    /// Saves a screenshot of the game window at `path` (absolute, in the
    /// state directory); `relative` is the same place from the state
    /// directory, the simulator's working directory.
    async fn save_screenshot(&self, path: &Path, relative: &str) -> Result<()>;
}
