//! The error type of every control operation.
//!
//! Each variant names a class of failure the contract gives a status for; the
//! HTTP layer maps variants to statuses, the MCP layer to tool errors. The
//! message is written for the person calling the API.

/// Why a control operation failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request is wrong: a bad name, a missing configuration for a run,
    /// an unknown task, a setting of the wrong type (HTTP 400).
    #[error("{0}")]
    BadRequest(String),
    /// A value failed its JSON Schema; each violation is listed (HTTP 400).
    #[error("{message}")]
    Invalid {
        message: String,
        violations: Vec<String>,
    },
    /// The named thing does not exist (HTTP 404).
    #[error("{0}")]
    NotFound(String),
    /// The request conflicts with the current state: a task is already
    /// running, a configuration already exists (HTTP 409).
    #[error("{0}")]
    Conflict(String),
    /// The request is refused by the server's policy: an operator method
    /// of a real backend that starts or ends programs, without an access
    /// token (HTTP 403).
    #[error("{0}")]
    Forbidden(String),
    /// The simulated backend refused or failed: restart failed, backend
    /// unavailable (HTTP 500, message shown to the caller).
    #[error("{0}")]
    Backend(String),
    /// The state directory refused a write: read-only, full, or a path
    /// taken by something else (HTTP 500, message shown: the user can fix
    /// it). The previous file is left as it was.
    #[error("{0}")]
    Storage(String),
    /// Another program holds the state directory's lock past the bound a
    /// change waits for it (HTTP 503, message shown: try again later).
    /// Nothing was changed.
    #[error("{0}")]
    Busy(String),
    /// A fault of the service itself (HTTP 500, details logged, not shown).
    #[error("internal error: {0:#}")]
    Internal(#[from] anyhow::Error),
}

impl Error {
    pub fn bad_request(message: impl Into<String>) -> Error {
        Error::BadRequest(message.into())
    }

    pub fn not_found(message: impl Into<String>) -> Error {
        Error::NotFound(message.into())
    }

    pub fn conflict(message: impl Into<String>) -> Error {
        Error::Conflict(message.into())
    }

    /// A value failed its schema: the message is `what` and every violation.
    pub fn invalid(what: impl std::fmt::Display, violations: Vec<String>) -> Error {
        Error::Invalid {
            message: format!("{what}: {}", violations.join("; ")),
            violations,
        }
    }
}

/// The result of a control operation.
pub type Result<T, E = Error> = std::result::Result<T, E>;
