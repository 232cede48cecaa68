//! The simulator of this binary (`activity-site backend`) behind the
//! server: this server's extensions (`<state>/extensions/`, checked and
//! stored here, a foreground one run by the simulator as a job of its
//! steps, a background one here) and its operator allow-list (each call
//! checked here against its schema, then carried out by the simulator).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::Program;
use crate::configs::Configs;
use crate::error::{Error, Result};
use crate::extensions::{ExtensionInfo, Extensions, ReloadReport};
use crate::operator::{Operator, OperatorHelp, OperatorMethod};
use crate::protocol::{self, Command};
use crate::runner::{self, JobKind, RunState};
use crate::state;
use crate::supervisor::Supervisor;
use crate::{ExtensionRun, ExtensionStop};

/// The simulator.
#[derive(Debug)]
pub(crate) struct Simulated {
    supervisor: Arc<Supervisor>,
    extensions: Arc<Extensions>,
    configs: Arc<Configs>,
    operator: Operator,
}

impl Simulated {
    pub fn new(
        supervisor: Arc<Supervisor>,
        extensions: Arc<Extensions>,
        configs: Arc<Configs>,
    ) -> Simulated {
        Simulated {
            supervisor,
            extensions,
            configs,
            operator: Operator::new(),
        }
    }

    /// The id of the extension running in the foreground, if any.
    async fn foreground_extension(&self) -> Option<String> {
        let status = self.supervisor.status().await.ok()?;
        (status.status == RunState::Running && status.job == Some(JobKind::Extension))
            .then_some(status.target)
            .flatten()
    }
}

#[async_trait::async_trait]
impl Program for Simulated {
    async fn extensions(&self) -> Result<Vec<ExtensionInfo>> {
        let foreground = self.foreground_extension().await;
        Ok(state::read(|| self.extensions.list(foreground.as_deref())).await)
    }

    async fn extension_schema(&self, id: &str) -> Result<Value> {
        Ok(self.extensions.get(id)?.schema)
    }

    async fn extension_config(&self, id: &str) -> Result<Value> {
        state::read(|| self.extensions.stored_config(id)).await
    }

    async fn extension_set_config(&self, id: &str, config_json: &str) -> Result<Value> {
        state::wait_off_thread(|| self.extensions.set_config(id, config_json)).await
    }

    /// A foreground extension occupies the task runner (409 while busy);
    /// a background one runs here beside it.
    async fn extension_run(&self, id: &str, config_name: Option<&str>) -> Result<ExtensionRun> {
        let ext = self.extensions.get(id)?;
        let config_name = match config_name.filter(|n| !n.is_empty()) {
            Some(name) => Some(self.configs.resolve(name)?),
            None => None,
        };
        let check = || -> Result<()> {
            if let Some(name) = &config_name {
                self.configs.runnable(name)?;
            }
            let violations = ext.violations(&self.extensions.stored_config(id)?);
            if !violations.is_empty() {
                return Err(Error::invalid(
                    format_args!("the configuration of extension `{id}` is invalid"),
                    violations,
                ));
            }
            Ok(())
        };
        let task = if ext.background {
            check()?;
            let status = self.supervisor.ensure_available().await?;
            // The simulator's options, for the runs this server simulates.
            let options = runner::parse_arguments(&status.backend.arguments).ok();
            let step = options.as_ref().map_or(
                Duration::from_millis(status.backend.step_ms.max(1)),
                runner::SimOptions::step,
            );
            let fails = options
                .and_then(|o| o.fail_target().map(str::to_string))
                .is_some_and(|f| f.eq_ignore_ascii_case(id));
            self.extensions.start_background(&ext, step, fails)?;
            self.supervisor.status().await?
        } else {
            self.supervisor
                .start_job(|| {
                    check()?;
                    Ok((
                        Command::ExtensionSteps {
                            id: ext.id.clone(),
                            steps: ext.steps.clone(),
                            config: config_name.clone(),
                        },
                        protocol::Intent {
                            kind: JobKind::Extension,
                            target: ext.id.clone(),
                            configs: config_name.iter().cloned().collect(),
                        },
                    ))
                })
                .await?
        };
        Ok(ExtensionRun {
            id: id.to_string(),
            background: ext.background,
            config_name,
            task,
        })
    }

    async fn extension_stop(&self, id: &str) -> Result<ExtensionStop> {
        self.extensions.get(id)?;
        let foreground = self.foreground_extension().await.as_deref() == Some(id);
        let was_running = if foreground {
            self.supervisor.stop_job().await?.is_some()
        } else {
            self.extensions.stop_background(id)
        };
        Ok(ExtensionStop {
            id: id.to_string(),
            was_running,
        })
    }

    async fn extensions_reload(&self) -> Result<ReloadReport> {
        Ok(state::wait_off_thread(|| self.extensions.reload()).await)
    }

    async fn operator_list(&self) -> Result<Vec<OperatorMethod>> {
        Ok(self.operator.list())
    }

    async fn operator_help(&self, method: &str) -> Result<OperatorHelp> {
        self.operator.help(method)
    }

    /// Checked here against the method's schema, then carried out by the
    /// simulator.
    async fn operator_call(&self, method: &str, params: Value) -> Result<Value> {
        let call = self.operator.check(method, &params)?;
        self.supervisor
            .query(&Command::OperatorCall {
                method: call.method().name().to_string(),
                params,
            })
            .await
    }

    async fn save_screenshot(&self, _path: &Path, relative: &str) -> Result<()> {
        self.supervisor
            .query(&Command::GameScreenshot {
                save: relative.to_string(),
            })
            .await?;
        Ok(())
    }
}
