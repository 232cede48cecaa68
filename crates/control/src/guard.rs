//! Who may talk to the local server's control surfaces (`/api` and `/mcp`):
//! the `Host` header checked against `AllowedHosts` (against DNS rebinding),
//! the `Origin` header checked against the server's own origin and the
//! origins the user allowed (against cross-site requests), and the CORS
//! answers that follow from the same list.
//!
//! One [`Access`] policy serves both surfaces; each renders a refusal in its
//! own shape (the envelope for REST, a JSON-RPC error for MCP) through
//! [`GuardState::refuse`]. It also tells both surfaces what a body that
//! missed the server's deadline means ([`body_timed_out`], [`LATE_BODY`]).
//! This module knows HTTP only: nothing of the control core, the site, or
//! the routes it guards.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::Response;

/// Request headers a page of an allowed origin may send (the CORS preflight
/// answer). The token, JSON bodies, SSE resumption and the MCP session.
pub const ALLOWED_REQUEST_HEADERS: &str = "Content-Type, X-Access-Token, Last-Event-ID, Accept, \
     Mcp-Session-Id, Mcp-Protocol-Version";

/// What a client is told, with a 408, when its request body did not arrive
/// within the server's body deadline (`server::Limits::body_read_timeout`).
pub const LATE_BODY: &str = "the request body did not arrive in time; send the whole body at once";

/// Whether reading a request body failed on the server's body deadline
/// (tower-http's `RequestBodyDeadlineLayer`), rather than on its size or a
/// broken connection.
pub fn body_timed_out(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut source = Some(error);
    while let Some(error) = source {
        if error.is::<tower_http::timeout::TimeoutError>() {
            return true;
        }
        source = error.source();
    }
    false
}

/// Methods of the control API and `/mcp`, for the preflight answer.
pub const ALLOWED_METHODS: &str = "GET, HEAD, POST, PUT, DELETE, OPTIONS";

/// Response headers a page of an allowed origin may read.
pub const EXPOSED_HEADERS: &str = "Mcp-Session-Id, Allow";

/// The access policy: which `Host` names the server answers to and which
/// browser origins may call it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Access {
    hosts: HostRule,
    /// Normalised origins (`scheme://host[:port]`, lower case) the user allowed.
    origins: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum HostRule {
    /// `AllowedHosts` is `*` (or empty) and the server listens on loopback,
    /// or its address is unknown: loopback names and the bound address only.
    Loopback { bound: Option<IpAddr> },
    /// `AllowedHosts` is `*` and the server listens beyond loopback: any name.
    Any,
    /// The names of `AllowedHosts`, lower case, without ports; an entry
    /// `*.example.com` matches the subdomains of `example.com`.
    Named(Vec<String>),
}

/// What the access policy is made of, declared once for both surfaces:
/// `AllowedHosts`, the origins allowed besides the server's own, and the
/// address the server listens on. [`AccessOptions::policy`] makes the
/// [`Access`] each surface checks with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessOptions {
    /// `AllowedHosts` (ASP.NET syntax: `*`, or `;`-separated names,
    /// `*.example.com` for subdomains). At `*`, while bound to loopback, only
    /// loopback names are accepted.
    pub allowed_hosts: String,
    /// Web origins allowed besides the server's own (`--allow-origin`,
    /// `AllowedOrigins`); they also get CORS answers.
    pub allowed_origins: Vec<String>,
    /// The address the server listens on; `None` (unknown) counts as loopback.
    pub bound: Option<SocketAddr>,
}

impl Default for AccessOptions {
    /// `AllowedHosts` `*`, no extra origin, the address unknown (loopback).
    fn default() -> Self {
        AccessOptions {
            allowed_hosts: "*".to_string(),
            allowed_origins: Vec::new(),
            bound: None,
        }
    }
}

impl AccessOptions {
    /// The policy these inputs make.
    pub fn policy(&self) -> Access {
        Access::new(&self.allowed_hosts, &self.allowed_origins, self.bound)
    }
}

impl Default for Access {
    /// `AllowedHosts` `*` on loopback, no extra origin.
    fn default() -> Self {
        Access::new("*", &[], None)
    }
}

impl Access {
    /// The policy of `allowed_hosts` (ASP.NET syntax: `*`, or names separated
    /// by `;`), the allowed origins and the address the server listens on
    /// (`None` when unknown, treated as loopback). Origins that do not parse
    /// are skipped with a warning; [`parse_origin`] checks them up front.
    pub fn new(allowed_hosts: &str, allowed_origins: &[String], bound: Option<SocketAddr>) -> Self {
        let names: Vec<String> = allowed_hosts
            .split(';')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(|entry| {
                let name = strip_port(entry)
                    .trim_start_matches('[')
                    .trim_end_matches(']');
                name.trim_end_matches('.').to_ascii_lowercase()
            })
            .collect();
        let hosts = if names.is_empty() || names.iter().any(|n| n == "*") {
            match bound {
                Some(addr) if !addr.ip().is_loopback() => HostRule::Any,
                _ => HostRule::Loopback {
                    bound: bound.map(|a| a.ip()),
                },
            }
        } else {
            HostRule::Named(names)
        };
        let mut origins = Vec::new();
        for origin in allowed_origins {
            match parse_origin(origin) {
                Ok(origin) => origins.push(origin.to_string()),
                Err(problem) => tracing::warn!("ignoring the allowed origin {origin:?}: {problem}"),
            }
        }
        Access { hosts, origins }
    }

    /// Whether a `Host` value (port optional) is one this server answers to.
    /// A malformed value never is.
    pub fn allows_host(&self, host: &str) -> bool {
        let Some(host) = parse_host(host) else {
            return false;
        };
        match &self.hosts {
            HostRule::Any => true,
            HostRule::Loopback { bound } => {
                is_loopback_name(&host.name)
                    || bound.is_some_and(|ip| host.name.parse::<IpAddr>() == Ok(ip))
            }
            HostRule::Named(names) => {
                names
                    .iter()
                    .any(|pattern| match pattern.strip_prefix("*.") {
                        Some(domain) => host
                            .name
                            .strip_suffix(domain)
                            .is_some_and(|sub| sub.len() > 1 && sub.ends_with('.')),
                        None => *pattern == host.name,
                    })
            }
        }
    }

    /// Whether a page of `origin` may call: its own origin (the one the
    /// request's `host` names) or one the user allowed.
    pub fn allows_origin(&self, origin: &str, host: Option<&str>) -> bool {
        let Ok(origin) = parse_origin(origin) else {
            return false;
        };
        if self.origins.contains(&origin.to_string()) {
            return true;
        }
        let Some(host) = host.and_then(parse_host) else {
            return false;
        };
        // A Host without a port names the default port of the origin's scheme.
        let same_port = host.port.unwrap_or(origin.default_port()) == origin.port;
        let same_name = host.name == origin.host
            || (is_loopback_name(&host.name) && is_loopback_name(&origin.host));
        same_name && same_port
    }

    /// Why a request is refused, or `None` when it may go on. A request
    /// without `Host` (HTTP/1.0, or an in-process call) passes the host check
    /// only while `AllowedHosts` is `*`: a list names the hosts a request
    /// must name.
    pub fn refusal(&self, uri: &Uri, headers: &HeaderMap) -> Option<String> {
        let mut host_value = None;
        let mut hosts = headers.get_all(header::HOST).iter();
        if let Some(value) = hosts.next() {
            if hosts.next().is_some() {
                return Some("the request has more than one Host header".to_string());
            }
            let Ok(text) = value.to_str() else {
                return Some("the Host header is not plain ASCII text".to_string());
            };
            if !self.allows_host(text) {
                return Some(if parse_host(text).is_none() {
                    format!("the Host header {text:?} is malformed")
                } else {
                    format!(
                        "the host `{text}` is not allowed; help: add it to AllowedHosts in the service configuration"
                    )
                });
            }
            host_value = Some(text);
        }
        if let Some(authority) = uri.authority() {
            if !self.allows_host(authority.as_str()) {
                return Some(format!(
                    "the host `{authority}` is not allowed; help: add it to AllowedHosts in the service configuration"
                ));
            }
            host_value = host_value.or(Some(authority.as_str()));
        }
        if host_value.is_none() && matches!(self.hosts, HostRule::Named(_)) {
            return Some(
                "the request has no Host header, and AllowedHosts lists the hosts this server answers to"
                    .to_string(),
            );
        }
        for origin in headers.get_all(header::ORIGIN) {
            let Ok(origin) = origin.to_str() else {
                return Some("the Origin header is not plain ASCII text".to_string());
            };
            if !self.allows_origin(origin, host_value) {
                return Some(format!(
                    "requests from the web page origin `{origin}` are refused; help: start serve with --allow-origin {origin} (or list it in AllowedOrigins) if you trust it"
                ));
            }
        }
        None
    }
}

/// A parsed `Host` value: lower-case name (IPv6 without brackets) and port.
struct Host {
    name: String,
    port: Option<u16>,
}

/// Parses a `Host` value; `None` when empty or malformed (user info, a path,
/// characters no host name has, a port that is not a number).
fn parse_host(text: &str) -> Option<Host> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_graphic()) {
        return None;
    }
    let (name, port) = if let Some(rest) = text.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        let ip: std::net::Ipv6Addr = inside.parse().ok()?;
        let port = match after {
            "" => None,
            _ => Some(after.strip_prefix(':')?),
        };
        (ip.to_string(), port)
    } else {
        let (name, port) = match text.split_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (text, None),
        };
        let ok = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || b == b'_');
        if !ok {
            return None;
        }
        (name.trim_end_matches('.').to_ascii_lowercase(), port)
    };
    let port = match port {
        None => None,
        Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => Some(p.parse().ok()?),
        Some(_) => return None,
    };
    if name.is_empty() {
        return None;
    }
    Some(Host { name, port })
}

/// `localhost`, its subdomains (RFC 6761 keeps them on this machine) and the
/// loopback addresses.
fn is_loopback_name(name: &str) -> bool {
    name == "localhost"
        || name.ends_with(".localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// `example.com:5000` -> `example.com`; `[::1]:5000` -> `[::1]`.
fn strip_port(host: &str) -> &str {
    if host.starts_with('[') {
        return host.find(']').map_or(host, |end| &host[..=end]);
    }
    match host.rsplit_once(':') {
        Some((name, port)) if !name.contains(':') && port.bytes().all(|c| c.is_ascii_digit()) => {
            name
        }
        _ => host,
    }
}

/// A web origin: scheme, lower-case host and port (the scheme's default
/// when absent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    scheme: String,
    host: String,
    port: u16,
}

impl Origin {
    fn default_port(&self) -> u16 {
        if self.scheme == "https" { 443 } else { 80 }
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        if self.port == self.default_port() {
            write!(f, "{}://{host}", self.scheme)
        } else {
            write!(f, "{}://{host}:{}", self.scheme, self.port)
        }
    }
}

/// Parses an origin such as `http://localhost:5173` (a trailing `/` is
/// accepted); `null`, paths, `*` and other schemes than http(s) are not origins.
pub fn parse_origin(text: &str) -> Result<Origin, String> {
    let text = text.trim();
    let (scheme, rest) = text
        .split_once("://")
        .ok_or_else(|| format!("`{text}` is not an origin such as http://localhost:5173"))?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Err(format!("`{text}`: only http and https origins exist here"));
    }
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    let host = parse_host(rest)
        .ok_or_else(|| format!("`{text}` is not an origin such as http://localhost:5173"))?;
    let mut origin = Origin {
        scheme,
        host: host.name,
        port: 0,
    };
    origin.port = host.port.unwrap_or(origin.default_port());
    Ok(origin)
}

/// The state of [`check`]: the policy and how a surface words a refusal.
#[derive(Clone)]
pub struct GuardState {
    pub access: Arc<Access>,
    /// Builds the 403 response of a refusal from its reason.
    pub refuse: fn(String) -> Response,
}

/// Middleware: refuses what [`Access::refusal`] refuses (403 in the
/// surface's shape), answers CORS preflights of allowed origins, and adds
/// the CORS headers to responses for allowed cross-origin pages.
pub async fn check(State(guard): State<GuardState>, request: Request, next: Next) -> Response {
    if let Some(reason) = guard.access.refusal(request.uri(), request.headers()) {
        tracing::warn!(
            "refused {} {}: {reason}",
            request.method(),
            request.uri().path()
        );
        let mut response = (guard.refuse)(reason);
        *response.status_mut() = StatusCode::FORBIDDEN;
        return response;
    }
    let origin = request.headers().get(header::ORIGIN).cloned();
    let preflight = request.method() == Method::OPTIONS
        && request
            .headers()
            .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    let mut response = if preflight && origin.is_some() {
        let mut response = Response::new(axum::body::Body::empty());
        *response.status_mut() = StatusCode::NO_CONTENT;
        let headers = response.headers_mut();
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static(ALLOWED_METHODS),
        );
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_HEADERS,
            HeaderValue::from_static(ALLOWED_REQUEST_HEADERS),
        );
        headers.insert(
            header::ACCESS_CONTROL_MAX_AGE,
            HeaderValue::from_static("600"),
        );
        response
    } else {
        next.run(request).await
    };
    if let Some(origin) = origin {
        let headers = response.headers_mut();
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        headers.insert(
            header::ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static(EXPOSED_HEADERS),
        );
        headers.append(header::VARY, HeaderValue::from_static("Origin"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loopback() -> Access {
        Access::new("*", &[], Some("127.0.0.1:5000".parse().unwrap()))
    }

    #[test]
    fn the_default_answers_to_loopback_names_only() {
        let access = loopback();
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
            assert!(access.allows_host(host), "{host}");
        }
        for host in [
            "evil.test",
            "localhost.evil.test",
            "[::2]:5000",
            "",
            "a b",
            "local\u{ff}host",
            "localhost:",
            "localhost:abc",
            "user@localhost",
            "localhost/x",
            "[::1",
        ] {
            assert!(!access.allows_host(host), "{host:?}");
        }
    }

    #[test]
    fn beyond_loopback_a_star_answers_to_any_name_and_the_bound_address_counts() {
        let access = Access::new("*", &[], Some("0.0.0.0:5000".parse().unwrap()));
        assert!(access.allows_host("mybox.lan:5000"));
        assert!(!access.allows_host("bad host"));
        let access = Access::new("", &[], Some("127.0.0.2:5000".parse().unwrap()));
        assert!(access.allows_host("127.0.0.2:5000"));
        assert!(!access.allows_host("example.com"));
    }

    #[test]
    fn a_named_list_is_matched_exactly_ignoring_case_and_port() {
        let access = Access::new(" Example.com ; *.contoso.com;;", &[], None);
        assert!(access.allows_host("example.com"));
        assert!(access.allows_host("EXAMPLE.COM:8080"));
        assert!(!access.allows_host("www.example.com"));
        assert!(!access.allows_host("localhost"));
        assert!(access.allows_host("www.contoso.com"));
        assert!(access.allows_host("a.b.contoso.com:443"));
        assert!(!access.allows_host("contoso.com"));
        assert!(!access.allows_host("evilcontoso.com"));
    }

    #[test]
    fn origins_are_the_own_one_or_allowed_ones() {
        let access = Access::new(
            "*",
            &["http://LOCALHOST:5173/".to_string(), "bogus".to_string()],
            None,
        );
        let own = Some("127.0.0.1:5000");
        assert!(access.allows_origin("http://127.0.0.1:5000", own));
        assert!(access.allows_origin("http://localhost:5000", own));
        assert!(access.allows_origin("http://localhost:5173", own));
        assert!(!access.allows_origin("http://localhost:5174", own));
        assert!(!access.allows_origin("https://evil.example", own));
        assert!(!access.allows_origin("http://127.0.0.1:5000", None));
        for origin in [
            "null",
            "",
            "localhost",
            "http://",
            "http://localhost:5000/path",
        ] {
            assert!(!access.allows_origin(origin, own), "{origin:?}");
        }
        let named = Access::new("example.com", &[], None);
        assert!(named.allows_origin("https://example.com", Some("example.com")));
        assert!(named.allows_origin("http://example.com", Some("example.com:80")));
        assert!(!named.allows_origin("http://example.com:81", Some("example.com")));
    }

    #[test]
    fn origins_parse_strictly() {
        assert_eq!(
            parse_origin("HTTP://Localhost:5173/").unwrap().to_string(),
            "http://localhost:5173"
        );
        assert_eq!(
            parse_origin("https://example.com:443").unwrap().to_string(),
            "https://example.com"
        );
        for bad in ["*", "null", "file:///x", "http://a/b", "localhost:5173"] {
            assert!(parse_origin(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn refusal_names_the_reason() {
        let access = Access::new("localhost", &[], None);
        let uri = Uri::from_static("/mcp");
        let mut headers = HeaderMap::new();
        assert!(access.refusal(&uri, &headers).unwrap().contains("no Host"));
        assert_eq!(Access::default().refusal(&uri, &HeaderMap::new()), None);
        headers.insert(header::HOST, "localhost:5000".parse().unwrap());
        assert_eq!(access.refusal(&uri, &headers), None);
        headers.insert(header::ORIGIN, "https://evil.example".parse().unwrap());
        assert!(
            access
                .refusal(&uri, &headers)
                .unwrap()
                .contains("`https://evil.example`")
        );
        headers.insert(header::ORIGIN, "http://localhost:5000".parse().unwrap());
        assert_eq!(access.refusal(&uri, &headers), None);
        headers.insert(header::HOST, HeaderValue::from_bytes(b"a\xffb").unwrap());
        assert!(access.refusal(&uri, &headers).unwrap().contains("ASCII"));
        headers.insert(header::HOST, HeaderValue::from_static(""));
        assert!(
            access
                .refusal(&uri, &headers)
                .unwrap()
                .contains("malformed")
        );
    }
}
