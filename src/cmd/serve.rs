//! `serve`: build the site, serve it with live rebuilds, mount the control
//! API ([`crate::server`], its control half in `server::control_half`).

use std::net::SocketAddr;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context as _;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::cli::ServeArgs;
use crate::i18n::msg;
use crate::root::Workspace;
use crate::server::control_half::{self, ControlFlags};
use crate::server::{self, ServerState, process};
use crate::site::BuildOptions;
use activity_site_control::mcp::SessionLimits;

pub fn run(args: ServeArgs, ws: &Workspace) -> anyhow::Result<ExitCode> {
    process::init_logging(super::stderr_color());
    // Threads bounded by the machine whatever the load (issue 67): the
    // state directory's waits take at most their own bound, the rest (a
    // file read into the cache, a rebuild) a few more; tokio's default
    // of 512 let 256 connections grow the server to 517 threads.
    let waits = activity_site_control::state::waiting_bound();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(2 * waits + 4)
        .build()
        .context(msg!("err-runtime"))?;
    runtime.block_on(serve(args, ws))
}

async fn serve(args: ServeArgs, ws: &Workspace) -> anyhow::Result<ExitCode> {
    let out = ws.out_dir(args.output.out.as_ref());
    let state = ServerState::new(build_options(&args, ws, &out)?)
        .with_live_reload(!args.no_watch)
        .with_color(super::stderr_color());
    // The control half: the simulated service behind `/api`, `/openapi/v1.json` and `/mcp`.
    let (control, access) = control_half::open(&control_flags(&args, ws))?;
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
    let mounts = control_half::router(&control, &access, sessions, mcp_shutdown.clone());
    let state = state.with_mounts(mounts);

    let outcome = server::rebuild(&state).await?;
    if outcome.summary.is_some() {
        super::options::note_site_url(&args.output);
    } else if args.no_watch {
        super::say(msg!("tool-error", error = msg!("serve-site-errors")));
        return Ok(ExitCode::from(1));
    }
    if let Some(warning) = access.exposure_warning() {
        tracing::warn!("{warning}");
    }
    let _watch = (!args.no_watch)
        .then(|| server::watch::spawn(state.clone()))
        .transpose()?;
    say_serving(&out, addr);
    if access.access_token.is_some() {
        let _ = super::print_out(&format!("{}\n", msg!("serve-token-how")));
    }
    let shutdown = async move {
        process::shutdown_signal().await;
        // MCP event streams and log streams would otherwise hold the
        // graceful shutdown open; the backend process ends with the server.
        mcp_shutdown.cancel();
        control.shutdown().await;
    };
    server::run(listener, state, shutdown).await?;
    Ok(ExitCode::SUCCESS)
}

/// The control half's flags.
fn control_flags<'a>(args: &'a ServeArgs, ws: &'a Workspace) -> ControlFlags<'a> {
    ControlFlags {
        config: args.control_config.as_deref(),
        state_dir: args.state_dir.as_deref(),
        root: &ws.root,
        backend_command: args.backend_command.as_deref(),
        access_token: args.access_token.as_deref(),
        allow_origin: &args.allow_origin,
    }
}

/// The build's options: the site shows first; brotli siblings (`--compress
/// max`) follow in a second build (after an edit, every sibling does).
fn build_options(args: &ServeArgs, ws: &Workspace, out: &Path) -> anyhow::Result<BuildOptions> {
    Ok(BuildOptions {
        defer: if args.no_watch {
            crate::site::Defer::Nothing
        } else {
            crate::site::Defer::Brotli
        },
        ..super::options::build(ws, out, &args.output)?
    })
}

/// Says where the site is served. A closed stdout must not stop the
/// server: the line is a courtesy (so is the token's).
fn say_serving(out: &Path, addr: SocketAddr) {
    let serving = msg!(
        "serve-serving",
        out = out.display().to_string(),
        url = process::browsable_url(addr)
    );
    let _ = super::print_out(&format!("{serving}\n"));
}
