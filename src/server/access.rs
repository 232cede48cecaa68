//! Who may call the control half of `serve`: the access token and the
//! guard's inputs (`AllowedHosts`, the allowed origins, the bound address),
//! resolved once from the service configuration file and the command line,
//! then handed to both surfaces (`/api` through [`ApiOptions`], `/mcp`
//! through [`McpOptions`]) so they cannot disagree.

use std::net::SocketAddr;

use crate::i18n::{Msg, msg};
use activity_site_control::ServiceConfig;
use activity_site_control::api::ApiOptions;
use activity_site_control::guard::{self, AccessOptions};
use activity_site_control::mcp::{McpOptions, SessionLimits};

/// The resolved access policy of the control half.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControlAccess {
    /// The access token of `/api`; `None` when authentication is off.
    pub access_token: Option<String>,
    /// The guard's inputs, shared by `/api` and `/mcp`.
    pub access: AccessOptions,
}

impl ControlAccess {
    /// The policy of `service` with the command line's `--access-token`
    /// (a non-empty one wins over `AccessToken`; an empty one, say an empty
    /// environment variable, keeps the file's) and `--allow-origin` values
    /// (added to `AllowedOrigins`). Refuses an origin that does not parse
    /// and a token with leading or trailing whitespace, which HTTP strips
    /// from a header value: header clients could never send it.
    pub fn resolve(
        service: &ServiceConfig,
        token_flag: Option<&str>,
        origin_flags: &[String],
    ) -> anyhow::Result<ControlAccess> {
        let api = ApiOptions::from_config(service, token_flag.map(str::to_string));
        if let Some(token) = &api.access_token
            && token.trim() != token
        {
            return Err(anyhow::Error::new(msg!("serve-token-whitespace")));
        }
        let mut access = api.access;
        access.allowed_origins.extend(origin_flags.iter().cloned());
        for origin in &access.allowed_origins {
            guard::parse_origin(origin).map_err(|problem| {
                anyhow::Error::new(msg!("serve-bad-origin", problem = problem.to_string()))
            })?;
        }
        Ok(ControlAccess {
            access_token: api.access_token,
            access,
        })
    }

    /// The same policy once the server listens on `addr` (the host check
    /// accepts the bound address).
    pub fn bound_to(mut self, addr: SocketAddr) -> ControlAccess {
        self.access.bound = Some(addr);
        self
    }

    /// The control API's options.
    pub fn api_options(&self) -> ApiOptions {
        ApiOptions {
            access_token: self.access_token.clone(),
            access: self.access.clone(),
            ..ApiOptions::default()
        }
    }

    /// The options of `/mcp`, with its session bound and shutdown signal.
    pub fn mcp_options(
        &self,
        sessions: SessionLimits,
        shutdown: tokio_util::sync::CancellationToken,
    ) -> McpOptions {
        McpOptions {
            access: self.access.clone(),
            sessions,
            shutdown,
        }
    }

    /// What to warn about when the server listens beyond loopback: louder
    /// when no token is set.
    pub fn exposure_warning(&self) -> Option<Msg> {
        let addr = self.access.bound?;
        if addr.ip().is_loopback() {
            None
        } else if self.access_token.is_none() {
            Some(msg!("serve-exposed-open", addr = addr.to_string()))
        } else {
            Some(msg!("serve-exposed", addr = addr.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_with_surrounding_whitespace_is_refused() {
        let service = ServiceConfig::default();
        for token in ["s3cret ", " s3cret", "s3cret\t", "s3cret\u{a0}"] {
            let err = ControlAccess::resolve(&service, Some(token), &[]).unwrap_err();
            assert!(err.to_string().contains("whitespace"), "{token:?}: {err}");
        }
        let ok = ControlAccess::resolve(&service, Some("s3 cret"), &[]).unwrap();
        assert_eq!(ok.access_token.as_deref(), Some("s3 cret"));
    }
}
