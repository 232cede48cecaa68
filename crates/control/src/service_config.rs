//! The service configuration file.
//!
//! The file is the control service's `appsettings.json`:
//! `{"Logging": ..., "AllowedHosts": "*", "AccessToken": ""}`. Keys are
//! matched without regard to case, as ASP.NET configuration does. An empty
//! `AccessToken` means authentication is off. This module knows nothing about
//! HTTP; the API layer applies the token, the shared guard of `/api` and
//! `/mcp` the host and origin lists.

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
    /// `AllowedOrigins`: web origins (`http://localhost:5173`) whose pages
    /// may call the control API and `/mcp`, besides the server's own.
    pub allowed_origins: Vec<String>,
    /// `BackendCommand`: the backend program, "PROGRAM \[ARGS\]" (none: the simulator).
    pub backend_command: Option<String>,
}

impl Default for ServiceConfig {
    fn default() -> Self {
        ServiceConfig {
            logging: Value::Null,
            allowed_hosts: "*".to_string(),
            access_token: None,
            allowed_origins: Vec::new(),
            backend_command: None,
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
        match get("AllowedOrigins") {
            None | Some(Value::Null) => {}
            Some(Value::String(list)) => {
                config.allowed_origins = list
                    .split(';')
                    .map(str::trim)
                    .filter(|o| !o.is_empty())
                    .map(str::to_string)
                    .collect();
            }
            Some(Value::Array(items)) => {
                for item in items {
                    let Value::String(origin) = item else {
                        anyhow::bail!("`AllowedOrigins` must list origins as strings");
                    };
                    config.allowed_origins.push(origin.trim().to_string());
                }
            }
            Some(_) => anyhow::bail!(
                "`AllowedOrigins` must be a string such as \"http://localhost:5173\" or an array of them"
            ),
        }
        match get("BackendCommand") {
            None | Some(Value::Null) => {}
            Some(Value::String(command)) => {
                config.backend_command = Some(command.clone()).filter(|c| !c.trim().is_empty());
            }
            Some(_) => anyhow::bail!(
                "`BackendCommand` must be a string such as \"sra-cli\" or \"python -m SRACore\""
            ),
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let c = ServiceConfig::parse(
            r#"{"allowedOrigins": "http://localhost:5173; https://a.example"}"#,
        )
        .unwrap();
        assert_eq!(
            c.allowed_origins,
            ["http://localhost:5173", "https://a.example"]
        );
        let c = ServiceConfig::parse(r#"{"AllowedOrigins": ["http://localhost:5173"]}"#).unwrap();
        assert_eq!(c.allowed_origins, ["http://localhost:5173"]);
        assert!(ServiceConfig::parse(r#"{"AllowedOrigins": 1}"#).is_err());
    }
}
