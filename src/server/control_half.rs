//! The control half of `serve`: the simulated (or real) control service
//! opened from the service configuration file and the command line, and
//! the routes that expose it (`/api`, `/openapi/v1.json` and `/mcp`).

use std::path::Path;

use axum::Router;
use tokio_util::sync::CancellationToken;

use crate::i18n::msg;
use activity_site_control::api;
use activity_site_control::mcp::{self as control_mcp, SessionLimits};
use activity_site_control::{BackendCommand, Control, ControlOptions, ServiceConfig};

use super::access::ControlAccess;

/// The flags of `serve` that shape the control half.
pub struct ControlFlags<'a> {
    /// `--control-config`: the service configuration file.
    pub config: Option<&'a Path>,
    /// `--state-dir`, else [`crate::tree::state_dir`] of `root`.
    pub state_dir: Option<&'a Path>,
    pub root: &'a Path,
    /// `--backend-command`, before the configuration file's.
    pub backend_command: Option<&'a str>,
    /// `--access-token`.
    pub access_token: Option<&'a str>,
    /// `--allow-origin`.
    pub allow_origin: &'a [String],
}

/// Opens the control service of `flags`, with its access policy (not yet
/// bound to an address). A bad origin, an unsendable token or a backend
/// command that does not parse is refused before anything starts.
pub fn open(flags: &ControlFlags<'_>) -> anyhow::Result<(Control, ControlAccess)> {
    let service = match flags.config {
        Some(path) => ServiceConfig::load(path)?,
        None => ServiceConfig::default(),
    };
    let state_dir = flags
        .state_dir
        .map_or_else(|| crate::tree::state_dir(flags.root), Path::to_path_buf);
    let mut options = ControlOptions::new(&state_dir);
    if let Some(command) = flags
        .backend_command
        .or(service.backend_command.as_deref())
        .filter(|c| !c.trim().is_empty())
    {
        options.backend = BackendCommand::parse(command).map_err(|problem| {
            anyhow::Error::new(msg!("serve-bad-backend", problem = problem.to_string()))
        })?;
    }
    let access = ControlAccess::resolve(&service, flags.access_token, flags.allow_origin)?;
    // A real backend's `launch` and `kill` only behind a token (SECURITY.md).
    options.process_methods = access.access_token.is_some();
    let control = Control::open(options)?;
    Ok((control, access))
}

/// The routes of the control half: the control API and `/mcp`, with its
/// session bound and the signal that ends its event streams.
pub fn router(
    control: &Control,
    access: &ControlAccess,
    sessions: SessionLimits,
    shutdown: CancellationToken,
) -> Router {
    api::router(control.clone(), access.api_options()).merge(control_mcp::router(
        control.clone(),
        access.mcp_options(sessions, shutdown),
    ))
}
