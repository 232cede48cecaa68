//! `serve`: build the site, serve it with live rebuilds, mount the control API.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;

use tokio_util::sync::CancellationToken;

use crate::api;
use crate::cli::ServeArgs;
use crate::control::{BackendCommand, Control, ControlOptions, ServiceConfig};
use crate::control_mcp::{self, SessionLimits};
use crate::i18n::msg;
use crate::server::access::ControlAccess;
use crate::server::{self, ServerState};
use crate::site::BuildOptions;

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    init_logging();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context(msg!("err-runtime"))?;
    runtime.block_on(serve(args))
}

async fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let out = args.common.out_dir(args.output.out.as_ref());
    let options = BuildOptions {
        // The site shows first; brotli siblings (`--compress max`) follow
        // in a second build (after an edit, every sibling does).
        defer: if args.no_watch {
            crate::site::Defer::Nothing
        } else {
            crate::site::Defer::Brotli
        },
        ..super::build::options(&args.common, &out, &args.output)?
    };
    let state = ServerState::new(options)
        .with_live_reload(!args.no_watch)
        .with_color(super::stderr_color());

    // The control half: the simulated service behind `/api`, `/openapi/v1.json` and `/mcp`.
    let service = match &args.control_config {
        Some(path) => ServiceConfig::load(path)?,
        None => ServiceConfig::default(),
    };
    let state_dir = args
        .state_dir
        .clone()
        .unwrap_or_else(|| args.common.root.join(".activity-site"));
    let mut control_options = ControlOptions::new(&state_dir);
    if let Some(command) = args
        .backend_command
        .as_deref()
        .or(service.backend_command.as_deref())
        .filter(|c| !c.trim().is_empty())
    {
        control_options.backend = BackendCommand::parse(command).map_err(|problem| {
            anyhow::Error::new(msg!("serve-bad-backend", problem = problem.to_string()))
        })?;
    }
    // Refused before anything starts: a bad origin or an unsendable token.
    let access =
        ControlAccess::resolve(&service, args.access_token.as_deref(), &args.allow_origin)?;
    // A real backend's `launch` and `kill` only behind a token (SECURITY.md).
    control_options.process_methods = access.access_token.is_some();
    let control = Control::open(control_options)?;

    // Bound before the routers are made: the host check accepts the bound address.
    let listener = TcpListener::bind(args.addr)
        .await
        .with_context(|| msg!("serve-cannot-listen", addr = args.addr.to_string()))?;
    let addr = listener.local_addr().context(msg!("serve-no-address"))?;
    let access = access.bound_to(addr);

    let mcp_shutdown = CancellationToken::new();
    let sessions = SessionLimits {
        max: args.mcp_max_sessions.max(1),
        idle: Duration::from_secs(args.mcp_session_idle.max(1)),
    };
    let state = state.with_mounts(api::router(control.clone(), access.api_options()).merge(
        control_mcp::router(
            control.clone(),
            access.mcp_options(sessions, mcp_shutdown.clone()),
        ),
    ));

    let outcome = server::rebuild(&state).await?;
    if outcome.summary.is_none() && args.no_watch {
        eprintln!("{}", msg!("tool-error", error = msg!("serve-site-errors")));
        return Ok(ExitCode::from(1));
    }

    if let Some(warning) = access.exposure_warning() {
        tracing::warn!("{warning}");
    }
    let _watch = if args.no_watch {
        None
    } else {
        Some(server::watch::spawn(state.clone())?)
    };
    // A closed stdout must not stop the server: the line is a courtesy.
    let serving = msg!(
        "serve-serving",
        out = out.display().to_string(),
        url = browsable_url(addr)
    );
    let _ = super::print_out(&format!("{serving}\n"));
    if access.access_token.is_some() {
        let _ = super::print_out(&format!("{}\n", msg!("serve-token-how")));
    }
    let shutdown = async move {
        shutdown_signal().await;
        // MCP event streams and log streams would otherwise hold the
        // graceful shutdown open; the backend process ends with the server.
        mcp_shutdown.cancel();
        control.shutdown().await;
    };
    server::run(listener, state, shutdown).await?;
    Ok(ExitCode::SUCCESS)
}

/// The URL to open: an unspecified address (`0.0.0.0`) is reachable on loopback.
fn browsable_url(addr: SocketAddr) -> String {
    let mut addr = addr;
    if addr.ip().is_unspecified() {
        addr.set_ip(match addr {
            SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    format!("http://{addr}/")
}

/// Logs go to stderr; `RUST_LOG` picks the level, `info` by default.
fn init_logging() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(super::stderr_color())
        .try_init();
}

/// Resolves on Ctrl-C or, on Unix, SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(err) = tokio::signal::ctrl_c().await {
            let error = err.to_string();
            tracing::error!("{}", msg!("serve-signal", signal = "Ctrl-C", error = error));
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(err) => {
                let error = err.to_string();
                tracing::error!(
                    "{}",
                    msg!("serve-signal", signal = "SIGTERM", error = error)
                );
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}
