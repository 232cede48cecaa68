//! A bound on MCP sessions: rmcp's in-memory session manager, with at most
//! [`SessionLimits::max`] live sessions and idle ones closed after
//! [`SessionLimits::idle`]. Every session costs a worker task and its
//! channels; without the bound, a flood of `initialize` requests grows the
//! server for good. Knows nothing of the tools.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use futures::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::{
    RestoreOutcome, SessionId, SessionManager, session::ServerSseMessage,
};
use tokio_util::sync::CancellationToken;

/// How many sessions may live at once, and how long an unused one lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionLimits {
    /// Live sessions at most; an `initialize` beyond gets a JSON-RPC error.
    pub max: usize,
    /// A session without a request for this long is closed.
    pub idle: Duration,
}

impl Default for SessionLimits {
    /// 128 sessions (an agent opens one or two), closed after two idle minutes.
    fn default() -> Self {
        SessionLimits {
            max: 128,
            idle: Duration::from_secs(120),
        }
    }
}

/// Why a session operation failed.
#[derive(Debug, thiserror::Error)]
pub enum SessionsError {
    /// The bound is reached.
    #[error("{FULL_MARKER}: {0} live sessions")]
    Full(usize),
    #[error(transparent)]
    Local(#[from] LocalSessionManagerError),
}

/// Text of the [`SessionsError::Full`] message, which rmcp passes through
/// into a plain-text 500; the router turns that into a JSON-RPC error.
pub(crate) const FULL_MARKER: &str = "too many MCP sessions";

/// rmcp's local session manager plus the time each session was last used.
#[derive(Debug)]
pub struct Sessions {
    inner: LocalSessionManager,
    /// When each live session last received a request. A std mutex, never
    /// held across an await.
    last_used: Mutex<HashMap<SessionId, Instant>>,
    limits: SessionLimits,
}

impl Sessions {
    /// A manager with `limits`; when a tokio runtime is running, a task
    /// closes idle sessions until `stop` is cancelled or the manager is dropped.
    pub fn new(limits: SessionLimits, stop: CancellationToken) -> Arc<Sessions> {
        let mut inner = LocalSessionManager::default();
        // rmcp ends the worker of a silent session too; the sweep below also
        // forgets its entry.
        inner.session_config.keep_alive = Some(limits.idle);
        let sessions = Arc::new(Sessions {
            inner,
            last_used: Mutex::new(HashMap::new()),
            limits,
        });
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let weak = Arc::downgrade(&sessions);
            let period =
                (limits.idle / 4).clamp(Duration::from_millis(200), Duration::from_secs(30));
            runtime.spawn(sweep_until_stopped(weak, period, stop));
        }
        sessions
    }

    /// The number of live sessions.
    pub fn live(&self) -> usize {
        self.lock().len()
    }

    /// The limits this manager enforces.
    pub fn limits(&self) -> SessionLimits {
        self.limits
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, Instant>> {
        self.last_used.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn touch(&self, id: &SessionId) {
        if let Some(seen) = self.lock().get_mut(id) {
            *seen = Instant::now();
        }
    }

    /// Closes the sessions idle for longer than the limit.
    pub async fn sweep(&self) {
        let now = Instant::now();
        let idle: Vec<SessionId> = self
            .lock()
            .iter()
            .filter(|(_, seen)| now.duration_since(**seen) > self.limits.idle)
            .map(|(id, _)| id.clone())
            .collect();
        for id in idle {
            tracing::debug!(session = %id, "closing an idle MCP session");
            self.lock().remove(&id);
            let _ = self.inner.close_session(&id).await;
        }
    }

    /// Whether a new session fits (after closing idle ones).
    pub async fn has_room(&self) -> bool {
        if self.live() < self.limits.max {
            return true;
        }
        self.sweep().await;
        self.live() < self.limits.max
    }
}

async fn sweep_until_stopped(sessions: Weak<Sessions>, period: Duration, stop: CancellationToken) {
    let mut ticks = tokio::time::interval(period);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            _ = ticks.tick() => {}
        }
        let Some(sessions) = sessions.upgrade() else {
            return;
        };
        sessions.sweep().await;
    }
}

impl SessionManager for Sessions {
    type Error = SessionsError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        if !self.has_room().await {
            return Err(SessionsError::Full(self.live()));
        }
        let (id, transport) = self.inner.create_session().await?;
        self.lock().insert(id.clone(), Instant::now());
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.touch(id);
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.touch(id);
        Ok(self.lock().contains_key(id) && self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.lock().remove(id);
        Ok(self.inner.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        Ok(self.inner.create_stream(id, message).await?)
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id);
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        Ok(self.inner.resume(id, last_event_id).await?)
    }

    async fn restore_session(
        &self,
        _id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        Ok(RestoreOutcome::NotSupported)
    }
}
