//! The composition root of `serve`: router assembly, static files, watching
//! and live reload, graceful shutdown. The only module (besides `cmd`) that
//! joins the site half and the control half.
//!
//! [`ServerState`] is what every handler shares. [`router`] assembles the
//! routes: the live-reload stream, the extra [`ServerState::mounts`] (the
//! control API and `/mcp`, opened by [`control_half`]) and, as the fallback, the static files of the
//! output directory. [`run`] serves that router on a listener until its
//! shutdown future resolves, with a bound on connections and deadlines
//! for reading request headers and bodies ([`Limits`]). [`rebuild`] runs the builder
//! off the async threads and records the result; when that build left
//! precompressed siblings for later ([`site::Defer`]: brotli on the first
//! build, every sibling after an edit, which is served first, uncompressed
//! on loopback), a second build adds them in the background once the
//! inputs are quiet. [`watch::spawn`] calls [`rebuild_changes`] with the
//! paths that changed when inputs change. This
//! module knows how the site is built only through [`site::LiveBuild`]
//! (what [`site::build`] writes, at the cost of what an edit touched); it
//! never renders files itself.

use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use axum::Router;
use axum::extract::Request;
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{broadcast, watch as signal};
use tower::ServiceExt as _;
use tower_http::timeout::RequestBodyDeadlineLayer;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::Level;

use crate::diagnostics::{self, Diagnostic};
use crate::i18n::msg;
use crate::layout;
use crate::site::{self, BuildOptions, BuildOutcome};

pub mod access;
pub mod control_half;
pub mod process;
mod reload;
#[path = "static.rs"]
mod static_files;
pub mod watch;

pub use reload::{RELOAD_PATH, ReloadEvent};

/// How long the inputs must stay unchanged after a build that deferred
/// compression before the second build adds the siblings. The second
/// build holds the build lock, so a save that comes while it runs waits
/// for it: it waits for a pause longer than the one between the saves of
/// someone editing (at 1,000 games the second build took 0.3-1 s on a
/// loaded machine, and with 1 s here a save 1.5 s after the last waited
/// for it; issue 67).
const COMPLETE_AFTER: Duration = Duration::from_secs(3);

/// How long in-flight requests may run on after shutdown starts.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// What one client may hold of the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// A connection that has not sent a whole request header within this
    /// time is closed (slow or half-open clients).
    pub header_read_timeout: Duration,
    /// A request body must have arrived whole within this time of its
    /// header; a handler reading it then gets an error (the API answers
    /// 408) and the connection is closed, which frees its slot.
    pub body_read_timeout: Duration,
    /// Open connections at most; further clients wait in the listen backlog.
    pub max_connections: usize,
}

impl Default for Limits {
    /// 10 seconds for a header, 10 for a body (a whole 1 MiB body takes
    /// milliseconds on loopback), 512 connections (pages, streams and agents
    /// of one developer use a handful).
    fn default() -> Self {
        Limits {
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(10),
            max_connections: 512,
        }
    }
}

/// Everything the handlers share. Cloning is cheap: every field is shared.
#[derive(Clone)]
pub struct ServerState {
    /// The data root that is watched and the output directory that is served.
    /// The output directory is replaced by a rename on every good build, so
    /// files are looked up by path on every request, never kept open.
    pub options: Arc<BuildOptions>,
    /// The outcome of the last finished build, shown by the error overlay.
    pub status: Arc<RwLock<BuildStatus>>,
    /// Tells open pages to reload or to show the overlay.
    pub reload: broadcast::Sender<ReloadEvent>,
    /// Extra routes merged before the static fallback: the control API
    /// (`/api/...`, `/openapi/v1.json`) and `/mcp`. They must not set a
    /// fallback of their own; unmatched paths belong to the static site, and
    /// `/api/v1/...` is the site's whatever they route (it is answered
    /// before routing).
    pub mounts: Router,
    /// Whether HTML responses get the live-reload script and the overlay
    /// (serve mode with watching). The files on disk never contain them.
    pub live_reload: bool,
    /// Whether diagnostics printed to stderr are coloured.
    pub color: bool,
    /// Connection bound and header deadline applied by [`run`].
    pub limits: Limits,
    /// File bodies and ETags, checked against the file's metadata per request.
    files: Arc<static_files::FileCache>,
    /// Flips to `true` when shutdown starts, so endless streams end.
    shutdown: Arc<signal::Sender<bool>>,
    /// Serialises builds: the watcher and a caller never build at once.
    build_lock: Arc<tokio::sync::Mutex<()>>,
    /// Counts the builds started, so a deferred completion knows it is stale.
    builds: Arc<AtomicU64>,
    /// Whether the output may lack siblings a deferring build left out:
    /// set by such a build, cleared once a completion has added them. A
    /// later build that defers nothing itself (an editor's second save
    /// finds nothing new) still completes what an earlier one left.
    siblings_missing: Arc<AtomicBool>,
    /// The build kept between rebuilds: an edit re-checks and re-renders
    /// only the games it touched ([`site::LiveBuild`]).
    live: Arc<std::sync::Mutex<site::LiveBuild>>,
}

/// What the last build left behind.
#[derive(Debug, Clone, Default)]
pub struct BuildStatus {
    /// Counts finished builds, good or bad; part of the injected pages' ETag.
    pub generation: u64,
    /// Every diagnostic of the last build, warnings included.
    pub diagnostics: Vec<Diagnostic>,
    /// The rendered errors (plain text) while the last build failed; `None`
    /// after a good build. The overlay shows this text.
    pub failure: Option<String>,
}

impl ServerState {
    /// A state serving `options.out`, without live reload and without mounts.
    pub fn new(options: BuildOptions) -> Self {
        let (reload, _) = broadcast::channel(16);
        let (shutdown, _) = signal::channel(false);
        let live = Arc::new(std::sync::Mutex::new(site::LiveBuild::new(&options.root)));
        ServerState {
            live,
            options: Arc::new(options),
            status: Arc::new(RwLock::new(BuildStatus::default())),
            reload,
            mounts: Router::new(),
            live_reload: false,
            color: false,
            limits: Limits::default(),
            files: Arc::new(static_files::FileCache::default()),
            shutdown: Arc::new(shutdown),
            build_lock: Arc::new(tokio::sync::Mutex::new(())),
            builds: Arc::new(AtomicU64::new(0)),
            siblings_missing: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Turns the live-reload script and the error overlay on or off.
    pub fn with_live_reload(mut self, on: bool) -> Self {
        self.live_reload = on;
        self
    }

    /// Sets the extra routes merged before the static fallback.
    pub fn with_mounts(mut self, mounts: Router) -> Self {
        self.mounts = mounts;
        self
    }

    /// Colours the diagnostics printed to stderr.
    pub fn with_color(mut self, color: bool) -> Self {
        self.color = color;
        self
    }

    /// Sets the connection bound and the header deadline.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// A copy of the last build's status.
    pub fn status(&self) -> BuildStatus {
        self.status
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// Starts shutdown: open live-reload streams end. [`run`] calls this when
    /// its shutdown future resolves.
    pub fn begin_shutdown(&self) {
        self.shutdown.send_replace(true);
    }
}

/// The whole application: the public API of the site, live reload, the
/// mounts, then the rest of the static site.
///
/// The public API (`/api/v1/...`, [`layout::is_api`]) is the site's whatever
/// the mounts route, so it is answered before any routing: the hottest
/// static path, polled by clients, skips both routers.
pub fn router(state: ServerState) -> Router {
    let site = static_files::Site::new(&state);
    let files = {
        let site = Arc::clone(&site);
        move |request: Request| static_files::serve(Arc::clone(&site), request)
    };
    let reload = {
        let state = state.clone();
        move || reload::events(state.clone())
    };
    // No router state: a handler's state is cloned on every request.
    let own = Router::new()
        .route(RELOAD_PATH, get(reload))
        .fallback(files);
    let app = state.mounts.clone().merge(own);
    let front = tower::service_fn(move |request: Request| {
        let site = Arc::clone(&site);
        let app = app.clone();
        async move {
            let path = request.uri().path();
            if layout::is_api(path) {
                return Ok(static_files::serve(site, request).await);
            }
            // Control routes match literal segments in any case
            // (`/api/tAsK/StAtUs`): their path is rewritten to its canonical
            // spelling before routing. Other paths skip the rewrite.
            let control = path.len() >= 5 && path.as_bytes()[..5].eq_ignore_ascii_case(b"/api/");
            let request = if control {
                activity_site_control::api::canonicalize(request)
            } else {
                request
            };
            app.oneshot(request).await
        }
    });
    let app = Router::new().fallback_service(front);
    // The request log costs a little on every request; add it only when
    // someone reads it (`RUST_LOG=debug` or `tower_http=debug`).
    if tracing::enabled!(target: "tower_http::trace::on_response", Level::DEBUG) {
        app.layer(
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(Level::DEBUG))
                .on_request(())
                .on_response(DefaultOnResponse::new().level(Level::DEBUG)),
        )
    } else {
        app
    }
}

/// Serves [`router`] on `listener` until `shutdown` resolves, then lets
/// in-flight requests finish (for at most a grace period) and ends the
/// live-reload streams. At most [`Limits::max_connections`] connections are
/// served at once, each must send its request headers within
/// [`Limits::header_read_timeout`] and its body within
/// [`Limits::body_read_timeout`]; clients beyond the bound wait in the
/// listen backlog and are served as slots free up.
pub async fn run(
    listener: TcpListener,
    state: ServerState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let limits = state.limits;
    let trigger = state.clone();
    let app = tower::ServiceBuilder::new()
        .layer(RequestBodyDeadlineLayer::new(limits.body_read_timeout))
        .service(router(state));
    let permits = Arc::new(tokio::sync::Semaphore::new(limits.max_connections.max(1)));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = Arc::clone(&permits).acquire_owned() => permit.context("the connection bound closed")?,
            () = &mut shutdown => break,
        };
        let (tcp, _peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    accept_failed(err).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Without TCP_NODELAY a response written in two segments waits for the
        // peer's delayed ACK (tens of milliseconds); nginx sets it too.
        if let Err(err) = tcp.set_nodelay(true) {
            tracing::debug!("cannot set TCP_NODELAY: {err}");
        }
        let service = TowerToHyperService::new(app.clone());
        let connection = graceful.watch(http.serve_connection(TokioIo::new(tcp), service));
        tokio::spawn(async move {
            if let Err(err) = connection.await {
                tracing::debug!("connection ended: {err}");
            }
            drop(permit);
        });
    }
    tracing::info!("{}", msg!("serve-shutting-down"));
    trigger.begin_shutdown();
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(SHUTDOWN_GRACE) => {
            tracing::warn!(
                "{}",
                msg!("serve-closing-connections", after = format!("{SHUTDOWN_GRACE:?}"))
            );
        }
    }
    Ok(())
}

/// Waits after a failed accept: a client's reset costs nothing, a lack of
/// file descriptors a pause so the loop does not spin.
async fn accept_failed(err: std::io::Error) {
    use std::io::ErrorKind;
    if matches!(
        err.kind(),
        ErrorKind::ConnectionRefused | ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset
    ) {
        return;
    }
    tracing::error!("{}", msg!("serve-accept-failed", error = err.to_string()));
    tokio::time::sleep(Duration::from_millis(200)).await;
}

/// Builds the site off the async threads, records the result for the overlay,
/// tells open pages, and prints the diagnostics to stderr in the human format.
/// On failure the last good output stays in place (the builder writes nothing).
///
/// `Err` only when the tool itself failed (unreadable root, unwritable output);
/// that is recorded for the overlay too.
pub async fn rebuild(state: &ServerState) -> anyhow::Result<BuildOutcome> {
    build_now(state, (*state.options).clone(), None).await
}

/// [`rebuild`] after the watcher saw the inputs `changed` (relative to
/// the root; `None`: not known, everything is looked at). When the
/// server's builds defer anything, this one defers every sibling: the
/// edit is served first.
pub async fn rebuild_changes(
    state: &ServerState,
    changed: Option<Vec<String>>,
) -> anyhow::Result<BuildOutcome> {
    let mut options = (*state.options).clone();
    if options.defer != site::Defer::Nothing {
        options.defer = site::Defer::All;
    }
    build_now(state, options, changed).await
}

/// Runs one build of `options` and records it (see [`rebuild`]).
async fn build_now(
    state: &ServerState,
    options: BuildOptions,
    changed: Option<Vec<String>>,
) -> anyhow::Result<BuildOutcome> {
    let _building = state.build_lock.lock().await;
    // Until the cache is cleared, every request looks at the disk.
    let _changing = state.files.changing();
    let build = state.builds.fetch_add(1, Ordering::SeqCst) + 1;
    let live = Arc::clone(&state.live);
    let started = Instant::now();
    let result = tokio::task::spawn_blocking(move || live_build(&live, &options, changed))
        .await
        .context("the build task panicked")
        .and_then(|result| result);
    let elapsed = started.elapsed();
    let (result, looked) = match result {
        Ok((outcome, looked)) => (Ok(outcome), looked),
        Err(err) => (Err(err), site::LiveStats::default()),
    };
    match &result {
        Ok(outcome) => {
            let printed = render_for_terminal(state, outcome);
            if !printed.is_empty() {
                crate::terminal::print_err(&printed);
            }
            let counts = diagnostics::count(&outcome.diagnostics);
            if let Some(summary) = &outcome.summary {
                // What the check looked at: data files stamped and read,
                // games checked (an edit: its file, its game).
                tracing::info!(
                    files = summary.files,
                    bytes = summary.bytes,
                    warnings = counts.warnings,
                    stamped = looked.stamped,
                    read = looked.read,
                    checked = looked.checked,
                    "{}",
                    msg!("serve-built", elapsed = format!("{elapsed:.0?}"))
                );
                state.files.clear();
                record(state, outcome.diagnostics.clone(), None);
                if summary.deferred > 0 {
                    state.siblings_missing.store(true, Ordering::SeqCst);
                }
                if state.siblings_missing.load(Ordering::SeqCst) {
                    tokio::spawn(complete(state.clone(), build));
                }
            } else {
                tracing::info!(
                    errors = counts.errors,
                    warnings = counts.warnings,
                    "{}",
                    msg!("serve-build-failed")
                );
                let text = render_plain(state, &outcome.diagnostics);
                record(state, outcome.diagnostics.clone(), Some(text));
            }
        }
        Err(err) => {
            let error = crate::i18n::causes(err);
            tracing::error!("{}", msg!("serve-build-error", error = error.clone()));
            let text = msg!("tool-error", error = error);
            record(state, Vec::new(), Some(format!("{text}\n")));
        }
    }
    result
}

/// Adds the siblings a build with [`site::Defer`] left out: the same
/// build again, without deferring, which takes everything else from the
/// output, once the inputs have been quiet for [`COMPLETE_AFTER`]. Skipped
/// when another build started since `after`; that one completes itself. Pages are not told: their content did not change.
async fn complete(state: ServerState, after: u64) {
    // Wait for a pause in the edits: an edit that arrives while this build
    // runs would wait for it.
    tokio::time::sleep(COMPLETE_AFTER).await;
    if state.builds.load(Ordering::SeqCst) != after {
        return;
    }
    let _building = state.build_lock.lock().await;
    if state.builds.load(Ordering::SeqCst) != after {
        return;
    }
    let _changing = state.files.changing();
    let mut options = (*state.options).clone();
    options.defer = site::Defer::Nothing;
    let live = Arc::clone(&state.live);
    let started = Instant::now();
    // No input changed since the build it completes (any change starts a
    // build, which would have made this one stale).
    let nothing = Some(Vec::new());
    match tokio::task::spawn_blocking(move || live_build(&live, &options, nothing)).await {
        Ok(Ok((outcome, _))) if outcome.summary.is_some() => {
            // Still under the build lock, and no build started since.
            state.siblings_missing.store(false, Ordering::SeqCst);
            state.files.clear();
            tracing::debug!("added the compressed siblings in {:.0?}", started.elapsed());
        }
        // The next rebuild, which a change of the inputs triggers, reports.
        Ok(Ok(_)) => {}
        Ok(Err(err)) => tracing::warn!(
            "{}",
            msg!("serve-siblings-failed", error = format!("{err:#}"))
        ),
        Err(err) => tracing::warn!("{}", msg!("serve-siblings-failed", error = err.to_string())),
    }
}

/// Runs the kept build (one at a time: the build lock serialises callers).
/// Returns what was built and what its check looked at.
fn live_build(
    live: &std::sync::Mutex<site::LiveBuild>,
    options: &BuildOptions,
    changed: Option<Vec<String>>,
) -> anyhow::Result<(BuildOutcome, site::LiveStats)> {
    let mut live = live.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let outcome = live.build_changes(options, changed.as_deref())?;
    Ok((outcome, live.last_check()))
}

/// Stores a finished build's outcome and tells the open pages.
fn record(state: &ServerState, diagnostics: Vec<Diagnostic>, failure: Option<String>) {
    let generation = {
        let mut status = state
            .status
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        status.generation += 1;
        status.diagnostics = diagnostics;
        status.failure = failure.clone();
        status.generation
    };
    let event = match failure {
        None => ReloadEvent::Reload { generation },
        Some(text) => ReloadEvent::Failed {
            generation,
            text: text.into(),
        },
    };
    // Nobody listening is fine: no page is open.
    let _ = state.reload.send(event);
}

/// The diagnostics as `check` prints them, those new since the previous
/// build in full and the unchanged warnings counted, with the summary line.
fn render_for_terminal(state: &ServerState, outcome: &BuildOutcome) -> String {
    let diags = &outcome.diagnostics;
    if diags.is_empty() {
        return String::new();
    }
    let root = &state.options.root;
    let (new, unchanged) = outcome.new_since_last();
    let mut text = diagnostics::render_human(&new, state.color, &|file| {
        std::fs::read_to_string(root.join(file)).ok()
    });
    if unchanged > 0 {
        text.push_str(&msg!("build-unchanged-warnings", count = unchanged).to_string());
        text.push('\n');
    }
    text.push_str(&diagnostics::summary(diagnostics::count(diags)));
    text.push('\n');
    text
}

/// The errors of a failed build as plain text, for the overlay.
fn render_plain(state: &ServerState, diags: &[Diagnostic]) -> String {
    let errors: Vec<Diagnostic> = diags.iter().filter(|d| d.is_error()).cloned().collect();
    let root = &state.options.root;
    let mut text = diagnostics::render_human(&errors, false, &|file| {
        std::fs::read_to_string(root.join(file)).ok()
    });
    text.push_str(&diagnostics::summary(diagnostics::count(diags)));
    text.push('\n');
    text
}
