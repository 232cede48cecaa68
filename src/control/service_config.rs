//! The service configuration file and the `AllowedHosts` matcher.
//!
//! The file is the control service's `appsettings.json`:
//! `{"Logging": ..., "AllowedHosts": "*", "AccessToken": ""}`. Keys are
//! matched without regard to case, as ASP.NET configuration does. An empty
//! `AccessToken` means authentication is off. This module knows nothing about
//! HTTP; the API layer applies the token and the host list.

use std::path::Path;

use anyhow::Context;
use serde_json::Value;

/// The service configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct ServiceConfig {
    /// The `Logging` section, kept as written (not interpreted).
    pub logging: Value,
    /// `;`-separated host names, `*` for any, `*.example.com` for subdomains.
    pub allowed_hosts: String,
    /// The access token; `None` when unset or empty (authentication off).
    pub access_token: Option<String>,
}

impl Default for ServiceConfig {
    fn default() -> Self {
        ServiceConfig {
            logging: Value::Null,
            allowed_hosts: "*".to_string(),
            access_token: None,
        }
    }
}

impl ServiceConfig {
    /// Reads the file. A missing file is an error here; callers that treat
    /// it as optional check first.
    pub fn load(path: impl AsRef<Path>) -> anyhow::Result<ServiceConfig> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the service configuration {}", path.display()))?;
        ServiceConfig::parse(&text)
            .with_context(|| format!("bad service configuration {}", path.display()))
    }

    /// Parses the JSON text of a service configuration.
    pub fn parse(text: &str) -> anyhow::Result<ServiceConfig> {
        let value: Value =
            serde_json::from_str(text.trim_start_matches('\u{feff}')).context("not valid JSON")?;
        let Value::Object(map) = value else {
            anyhow::bail!("the top level must be a JSON object");
        };
        let get = |key: &str| {
            map.iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(key))
                .map(|(_, v)| v)
        };
        let mut config = ServiceConfig::default();
        if let Some(logging) = get("Logging") {
            config.logging = logging.clone();
        }
        match get("AllowedHosts") {
            None | Some(Value::Null) => {}
            Some(Value::String(hosts)) => config.allowed_hosts = hosts.clone(),
            Some(_) => anyhow::bail!(
                "`AllowedHosts` must be a string such as \"*\" or \"localhost;example.com\""
            ),
        }
        match get("AccessToken") {
            None | Some(Value::Null) => {}
            Some(Value::String(token)) => {
                config.access_token = Some(token.clone()).filter(|t| !t.is_empty());
            }
            Some(_) => anyhow::bail!("`AccessToken` must be a string"),
        }
        Ok(config)
    }

    /// Whether a request's Host header is allowed.
    pub fn allows_host(&self, host: &str) -> bool {
        host_allowed(&self.allowed_hosts, host)
    }
}

/// Whether `host` (a Host header, port optional) matches `allowed_hosts`
/// (`*`, or `;`-separated names, each possibly `*.domain`). Matching ignores
/// case and the port. An empty list allows every host; an empty Host header
/// is allowed (HTTP/1.0 clients send none), as ASP.NET does by default.
pub fn host_allowed(allowed_hosts: &str, host: &str) -> bool {
    let patterns: Vec<&str> = allowed_hosts
        .split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if patterns.is_empty() || patterns.contains(&"*") {
        return true;
    }
    let host = strip_port(host.trim());
    if host.is_empty() {
        return true;
    }
    patterns.iter().any(|pattern| {
        let pattern = strip_port(pattern);
        match pattern.strip_prefix("*.") {
            Some(domain) => {
                host.len() > domain.len() + 1
                    && host[host.len() - domain.len()..].eq_ignore_ascii_case(domain)
                    && host.as_bytes()[host.len() - domain.len() - 1] == b'.'
            }
            None => host.eq_ignore_ascii_case(pattern),
        }
    })
}

/// `example.com:5000` -> `example.com`; `[::1]:5000` -> `[::1]`.
fn strip_port(host: &str) -> &str {
    if host.starts_with('[') {
        return host.find(']').map_or(host, |end| &host[..=end]);
    }
    match host.rsplit_once(':') {
        Some((name, port)) if !name.contains(':') && port.chars().all(|c| c.is_ascii_digit()) => {
            name
        }
        _ => host,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_match_like_aspnet() {
        assert!(host_allowed("*", "anything:1"));
        assert!(host_allowed("", "anything"));
        assert!(host_allowed("localhost;example.com", "LOCALHOST:5000"));
        assert!(!host_allowed("localhost", "evil.com"));
        assert!(host_allowed("*.example.com", "a.b.example.com"));
        assert!(!host_allowed("*.example.com", "example.com"));
        assert!(!host_allowed("*.example.com", "badexample.com"));
        assert!(host_allowed("[::1]", "[::1]:5000"));
        assert!(host_allowed("localhost", ""));
    }

    #[test]
    fn the_file_parses_with_any_key_case() {
        let c = ServiceConfig::parse(
            r#"{"logging": {"LogLevel": {}}, "allowedHosts": "a;b", "accessToken": ""}"#,
        )
        .unwrap();
        assert_eq!(c.allowed_hosts, "a;b");
        assert_eq!(c.access_token, None);
        let c = ServiceConfig::parse(r#"{"AccessToken": "s3cret"}"#).unwrap();
        assert_eq!(c.access_token.as_deref(), Some("s3cret"));
        assert!(ServiceConfig::parse("[]").is_err());
    }
}
