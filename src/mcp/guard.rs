//! Who may talk to `/mcp`: the `Host` header checked against `AllowedHosts`
//! and the loopback names, and browser `Origin` headers from other sites
//! refused, so a web page cannot drive a local server (DNS rebinding and
//! cross-site requests). Knows nothing of MCP itself.

use std::net::IpAddr;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::control::host_allowed;

/// The `AllowedHosts` setting (ASP.NET syntax: `*`, or names separated by
/// `;`, where `*.example.com` matches the subdomains of `example.com`),
/// matched by the control core's [`host_allowed`] so `/api` and `/mcp` read
/// it alike.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AllowedHosts {
    /// The setting as written.
    setting: String,
    /// The setting without its `*` entries: the hosts it names.
    named: String,
}

impl AllowedHosts {
    pub fn parse(value: &str) -> Self {
        let named: Vec<&str> = value
            .split(';')
            .map(str::trim)
            .filter(|entry| !entry.is_empty() && *entry != "*")
            .collect();
        AllowedHosts {
            setting: value.to_string(),
            named: named.join(";"),
        }
    }

    /// Whether a request may use this `Host`: loopback names always, others
    /// as `AllowedHosts` says.
    pub fn allows_host(&self, host: &str) -> bool {
        is_loopback(&normalize_host(host)) || host_allowed(&self.setting, host)
    }

    /// Whether a browser page of this origin may call `/mcp`: local pages,
    /// and sites `AllowedHosts` names. `*` does not count here: it says which
    /// names the server answers to, not which sites may script it, and
    /// honouring it would let any page drive a local server through DNS
    /// rebinding.
    pub fn allows_origin(&self, origin: &str) -> bool {
        let Some(host) = origin_host(origin) else {
            return false;
        };
        is_loopback(&normalize_host(&host))
            || (!self.named.is_empty() && host_allowed(&self.named, &host))
    }
}

/// The host of an `Origin` value (`scheme://host[:port]`); `None` for `null`
/// and anything that is not an origin.
fn origin_host(origin: &str) -> Option<String> {
    let (scheme, rest) = origin.trim().split_once("://")?;
    if scheme.is_empty() || rest.is_empty() || rest.contains('/') {
        return None;
    }
    let authority: axum::http::uri::Authority = rest.parse().ok()?;
    Some(authority.host().to_string())
}

/// Lowercases a host name and removes a port and IPv6 brackets.
fn normalize_host(host: &str) -> String {
    let host = host.trim();
    let bare = if let Some(inner) = host.strip_prefix('[') {
        // `[::1]` or `[::1]:5000`.
        inner.split(']').next().unwrap_or(inner)
    } else if host.matches(':').count() == 1 {
        // `name:port`; a bare IPv6 address has several colons and no port.
        host.split(':').next().unwrap_or(host)
    } else {
        host
    };
    bare.trim_end_matches('.').to_ascii_lowercase()
}

/// `localhost`, its subdomains (RFC 6761 keeps them on this machine) and the
/// loopback addresses.
fn is_loopback(host: &str) -> bool {
    host == "localhost"
        || host.ends_with(".localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Why a request was refused, or `None` when it may go on.
/// HTTP/2 requests may carry the host only in the URI's authority.
pub fn refusal(allowed: &AllowedHosts, uri: &Uri, headers: &HeaderMap) -> Option<String> {
    let host = match headers.get(header::HOST) {
        Some(host) => Some(host.to_str()),
        None => uri.authority().map(|a| Ok(a.as_str())),
    };
    match host {
        // HTTP/1.0 clients may send none; browsers always do.
        None => {}
        Some(Err(_)) => return Some("the Host header is not valid text".to_string()),
        Some(Ok(host)) if !allowed.allows_host(host) => {
            return Some(format!("host `{host}` is not allowed (see AllowedHosts)"));
        }
        Some(Ok(_)) => {}
    }
    for origin in headers.get_all(header::ORIGIN) {
        let Ok(origin) = origin.to_str() else {
            return Some("the Origin header is not valid text".to_string());
        };
        if !allowed.allows_origin(origin) {
            return Some(format!(
                "origin `{origin}` may not call /mcp: only local pages and hosts named in AllowedHosts may"
            ));
        }
    }
    None
}

/// Middleware: answers 403 with a JSON-RPC error (no `id`, as the MCP
/// transport allows) when [`refusal`] finds a reason.
pub async fn check(State(allowed): State<AllowedHosts>, request: Request, next: Next) -> Response {
    match refusal(&allowed, request.uri(), request.headers()) {
        None => next.run(request).await,
        Some(reason) => {
            tracing::warn!("refused an /mcp request: {reason}");
            let body = serde_json::json!({
                "jsonrpc": "2.0",
                "id": null,
                "error": {"code": -32600, "message": format!("forbidden: {reason}")},
            });
            (StatusCode::FORBIDDEN, axum::Json(body)).into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_pass_whatever_the_setting() {
        let hosts = AllowedHosts::parse("example.com");
        for host in [
            "localhost",
            "localhost:5000",
            "LOCALHOST",
            "127.0.0.1:5000",
            "127.1.2.3",
            "[::1]:5000",
            "[::1]",
            "app.localhost:8080",
        ] {
            assert!(hosts.allows_host(host), "{host}");
        }
        assert!(!hosts.allows_host("evil.test"));
        assert!(!hosts.allows_host("localhost.evil.test"));
        assert!(!hosts.allows_host("[::2]:5000"));
    }

    #[test]
    fn star_allows_every_host_but_no_foreign_origin() {
        let hosts = AllowedHosts::parse("*");
        assert!(hosts.allows_host("anything.example:1234"));
        assert!(!hosts.allows_origin("https://evil.example"));
        assert!(hosts.allows_origin("http://localhost:5000"));
        assert!(hosts.allows_origin("http://127.0.0.1:5000"));
        assert!(hosts.allows_origin("http://[::1]:5000"));
    }

    #[test]
    fn names_and_wildcard_subdomains_follow_asp_net() {
        let hosts = AllowedHosts::parse(" Example.com ; *.contoso.com;;");
        assert!(hosts.allows_host("example.com"));
        assert!(hosts.allows_host("EXAMPLE.COM:8080"));
        assert!(!hosts.allows_host("www.example.com"));
        assert!(hosts.allows_host("www.contoso.com"));
        assert!(hosts.allows_host("a.b.contoso.com:443"));
        assert!(!hosts.allows_host("contoso.com"));
        assert!(!hosts.allows_host("evilcontoso.com"));
        assert!(hosts.allows_origin("https://www.contoso.com"));
        assert!(hosts.allows_origin("https://example.com:8443"));
        assert!(!hosts.allows_origin("https://evil.example"));
    }

    #[test]
    fn odd_origins_are_refused() {
        let hosts = AllowedHosts::parse("*");
        for origin in ["null", "", "localhost", "http://", "http://localhost/path"] {
            assert!(!hosts.allows_origin(origin), "{origin:?}");
        }
    }

    #[test]
    fn refusal_names_the_reason() {
        let hosts = AllowedHosts::parse("localhost");
        let uri = Uri::from_static("/mcp");
        let mut headers = HeaderMap::new();
        assert_eq!(refusal(&hosts, &uri, &headers), None);
        headers.insert(header::HOST, "127.0.0.1:5000".parse().unwrap());
        assert_eq!(refusal(&hosts, &uri, &headers), None);
        headers.insert(header::ORIGIN, "https://evil.example".parse().unwrap());
        assert!(
            refusal(&hosts, &uri, &headers)
                .unwrap()
                .contains("origin `https://evil.example`")
        );
        headers.insert(header::ORIGIN, "http://localhost:5000".parse().unwrap());
        headers.insert(header::HOST, "evil.example".parse().unwrap());
        assert!(
            refusal(&hosts, &uri, &headers)
                .unwrap()
                .contains("host `evil.example`")
        );
    }
}
