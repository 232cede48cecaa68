//! The storage side of `publish`: an S3-compatible bucket through
//! `object_store` (signing, retries with backoff on throttling, 5xx and
//! dropped connections), with errors that say what to do.
//!
//! Owns the `s3://` target, the credentials (environment variables or a
//! profile of the shared credentials file, never a flag) and the
//! operations a publish needs: read and write the manifest, list the
//! prefix, put an object with its metadata, delete objects in batches. It
//! knows nothing about the site's layout or the plan's order.

use crate::i18n::{Msg, msg};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use futures::{StreamExt as _, TryStreamExt as _};
use object_store::aws::AmazonS3Builder;
use object_store::path::Path as ObjectPath;
use object_store::{
    Attribute, Attributes, BackoffConfig, ClientOptions, ObjectStore, ObjectStoreExt as _,
    PutOptions, PutPayload, RetryConfig,
};

use super::plan::{MANIFEST_NAME, Manifest, ObjectMeta, parse_manifest};

/// `s3://BUCKET[/PREFIX]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub bucket: String,
    /// Without leading or trailing slashes; empty for the bucket's root.
    pub prefix: String,
}

impl Target {
    /// Parses `s3://bucket[/prefix]`.
    pub fn parse(text: &str) -> anyhow::Result<Target> {
        let rest = text
            .strip_prefix("s3://")
            .with_context(|| msg!("publish-not-s3", target = text))?;
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        let valid_bucket = (3..=63).contains(&bucket.len())
            && bucket
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.');
        anyhow::ensure!(valid_bucket, msg!("publish-bad-bucket", bucket = bucket));
        let prefix = prefix.trim_matches('/');
        anyhow::ensure!(
            !prefix
                .split('/')
                .any(|c| c == "." || c == ".." || (c.is_empty() && !prefix.is_empty())),
            msg!("publish-bad-prefix", prefix = prefix)
        );
        Ok(Target {
            bucket: bucket.to_owned(),
            prefix: prefix.to_owned(),
        })
    }

    /// The key of a path relative to the prefix.
    pub fn key(&self, path: &str) -> String {
        if self.prefix.is_empty() {
            path.to_owned()
        } else {
            format!("{}/{path}", self.prefix)
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.prefix.is_empty() {
            write!(f, "s3://{}", self.bucket)
        } else {
            write!(f, "s3://{}/{}", self.bucket, self.prefix)
        }
    }
}

/// Path-style (`https://endpoint/bucket/key`) or virtual-hosted-style
/// (`https://bucket.endpoint/key`) addressing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Addressing {
    /// Virtual-hosted on AWS, path-style with `--endpoint` (MinIO, R2, moto)
    #[default]
    #[value(help = "help-value-addressing-auto")]
    Auto,
    /// Always path-style
    #[value(help = "help-value-addressing-path")]
    Path,
    /// Always virtual-hosted (Aliyun OSS, Tencent COS)
    #[value(help = "help-value-addressing-virtual")]
    Virtual,
}

/// How to reach the store.
#[derive(Debug, Clone, Default)]
pub struct Connection {
    /// Endpoint URL of an S3-compatible service; `None` for AWS.
    pub endpoint: Option<String>,
    /// Region; default `AWS_REGION`, `AWS_DEFAULT_REGION`, then `us-east-1`.
    pub region: Option<String>,
    pub addressing: Addressing,
    /// Profile of the shared credentials file; default `AWS_PROFILE`, then `default`.
    pub profile: Option<String>,
}

/// An open bucket and prefix.
pub struct Store {
    inner: Arc<dyn ObjectStore>,
    pub target: Target,
    /// Where requests go, for messages.
    endpoint: String,
}

impl Store {
    /// Configures the client; sends no request.
    pub fn open(target: &Target, connection: &Connection) -> anyhow::Result<Store> {
        let mut builder = AmazonS3Builder::from_env().with_bucket_name(&target.bucket);
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let region = connection
            .region
            .clone()
            .or_else(|| env("AWS_REGION"))
            .or_else(|| env("AWS_DEFAULT_REGION"))
            .unwrap_or_else(|| "us-east-1".to_owned());
        builder = builder.with_region(&region);
        let endpoint = match &connection.endpoint {
            Some(endpoint) => {
                let url = reqwest::Url::parse(endpoint).map_err(|err| {
                    anyhow::Error::new(msg!(
                        "publish-bad-endpoint",
                        endpoint = endpoint.as_str(),
                        error = err.to_string()
                    ))
                })?;
                anyhow::ensure!(
                    matches!(url.scheme(), "http" | "https"),
                    msg!("publish-endpoint-not-http", endpoint = endpoint.as_str())
                );
                builder = builder
                    .with_endpoint(endpoint.trim_end_matches('/'))
                    .with_allow_http(url.scheme() == "http");
                endpoint.clone()
            }
            None => format!("https://s3.{region}.amazonaws.com"),
        };
        let virtual_hosted = match connection.addressing {
            Addressing::Auto => connection.endpoint.is_none(),
            Addressing::Path => false,
            Addressing::Virtual => true,
        };
        builder = builder.with_virtual_hosted_style_request(virtual_hosted);

        let has_env_keys = env("AWS_ACCESS_KEY_ID").is_some();
        let profile = connection.profile.clone().or_else(|| env("AWS_PROFILE"));
        if connection.profile.is_some() || !has_env_keys {
            match profile_credentials(profile.as_deref())? {
                Some(keys) => {
                    builder = builder
                        .with_access_key_id(keys.access_key_id)
                        .with_secret_access_key(keys.secret_access_key);
                    if let Some(token) = keys.session_token {
                        builder = builder.with_token(token);
                    }
                }
                None if connection.profile.is_some() => {
                    return Err(anyhow::Error::new(msg!(
                        "publish-no-profile",
                        profile = profile.unwrap_or_default(),
                        file = credentials_file()
                            .map(|p| p.display().to_string())
                            .unwrap_or_default()
                    )));
                }
                None if env("AWS_WEB_IDENTITY_TOKEN_FILE").is_some()
                    || env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI").is_some()
                    || env("AWS_CONTAINER_CREDENTIALS_FULL_URI").is_some() =>
                {
                    // object_store reads these itself (CI roles, ECS, EKS).
                }
                None => return Err(anyhow::Error::new(msg!("publish-no-credentials"))),
            }
        }
        anyhow::ensure!(
            env("AWS_ACCESS_KEY_ID").is_none() || env("AWS_SECRET_ACCESS_KEY").is_some(),
            msg!("publish-half-keys")
        );

        let retry = RetryConfig {
            backoff: BackoffConfig {
                init_backoff: Duration::from_millis(200),
                max_backoff: Duration::from_secs(15),
                base: 2.0,
            },
            max_retries: 6,
            retry_timeout: Duration::from_secs(120),
        };
        let client = ClientOptions::new()
            .with_timeout(Duration::from_secs(60))
            .with_connect_timeout(Duration::from_secs(10))
            .with_allow_http(endpoint.starts_with("http://"));
        let inner = builder
            .with_retry(retry)
            .with_client_options(client)
            .build()
            .with_context(|| msg!("publish-client", endpoint = endpoint.as_str()))?;
        Ok(Store {
            inner: Arc::new(inner),
            target: target.clone(),
            endpoint,
        })
    }

    /// Reads the manifest, if there is one. The first request of a publish,
    /// so bad credentials and a missing bucket surface here.
    pub async fn manifest(&self) -> anyhow::Result<Option<Manifest>> {
        let key = ObjectPath::from(self.target.key(MANIFEST_NAME));
        let bytes = match self.inner.get(&key).await {
            Ok(result) => result
                .bytes()
                .await
                .map_err(|err| self.explain(err, msg!("publish-doing-manifest")))?,
            Err(object_store::Error::NotFound { .. }) => return Ok(None),
            Err(err) => return Err(self.explain(err, msg!("publish-doing-manifest"))),
        };
        let manifest = parse_manifest(&bytes).map_err(|err| {
            anyhow::Error::new(msg!(
                "publish-foreign-manifest",
                problem = err.to_string(),
                key = self.target.key(MANIFEST_NAME)
            ))
        })?;
        Ok(Some(manifest))
    }

    /// Paths (relative to the prefix) of every object under the prefix, the
    /// manifest aside: one request per 1,000 objects.
    pub async fn list(&self) -> anyhow::Result<BTreeSet<String>> {
        let prefix = if self.target.prefix.is_empty() {
            None
        } else {
            Some(ObjectPath::from(self.target.prefix.as_str()))
        };
        let listed: Vec<object_store::ObjectMeta> = self
            .inner
            .list(prefix.as_ref())
            .try_collect()
            .await
            .map_err(|err| self.explain(err, msg!("publish-doing-list")))?;
        let strip = if self.target.prefix.is_empty() {
            String::new()
        } else {
            format!("{}/", self.target.prefix)
        };
        let mut objects = BTreeSet::new();
        for meta in listed {
            let key = meta.location.to_string();
            let Some(rel) = key.strip_prefix(&strip) else {
                continue;
            };
            if rel != MANIFEST_NAME {
                objects.insert(rel.to_owned());
            }
        }
        Ok(objects)
    }

    /// Uploads one object with its metadata; `sha256` goes into the user
    /// metadata (`x-amz-meta-sha256`).
    pub async fn put(
        &self,
        path: &str,
        bytes: Vec<u8>,
        meta: &ObjectMeta,
        sha256: Option<&str>,
    ) -> anyhow::Result<()> {
        let mut attributes = Attributes::new();
        attributes.insert(Attribute::ContentType, meta.content_type.clone().into());
        attributes.insert(Attribute::CacheControl, meta.cache_control.clone().into());
        if let Some(encoding) = &meta.content_encoding {
            attributes.insert(Attribute::ContentEncoding, encoding.clone().into());
        }
        if let Some(sha) = sha256 {
            attributes.insert(
                Attribute::Metadata(Cow::Borrowed("sha256")),
                sha.to_owned().into(),
            );
        }
        let options = PutOptions {
            attributes,
            ..PutOptions::default()
        };
        let key = ObjectPath::from(self.target.key(path));
        self.inner
            .put_opts(&key, PutPayload::from(bytes), options)
            .await
            .map_err(|err| self.explain(err, msg!("publish-doing-upload", path = path)))?;
        Ok(())
    }

    /// Writes the manifest.
    pub async fn put_manifest(&self, manifest: &Manifest) -> anyhow::Result<()> {
        let meta = ObjectMeta {
            content_type: "application/json; charset=utf-8".to_owned(),
            cache_control: "no-store".to_owned(),
            content_encoding: None,
        };
        self.put(MANIFEST_NAME, manifest.to_bytes(), &meta, None)
            .await
    }

    /// Deletes the objects at `paths`, as few requests as the service allows
    /// (S3 takes up to 1,000 keys in one `DeleteObjects`); a path already
    /// gone counts as deleted. `on_done` is called for each deleted path.
    pub async fn delete_all(
        &self,
        paths: &[&str],
        on_done: &(dyn Fn(&str) + Sync),
    ) -> anyhow::Result<()> {
        let keys: Vec<object_store::Result<ObjectPath>> = paths
            .iter()
            .map(|path| Ok(ObjectPath::from(self.target.key(path))))
            .collect();
        let strip = if self.target.prefix.is_empty() {
            String::new()
        } else {
            format!("{}/", self.target.prefix)
        };
        let mut deleted = self
            .inner
            .delete_stream(futures::stream::iter(keys).boxed());
        while let Some(result) = deleted.next().await {
            match result {
                Ok(key) => {
                    let key = key.to_string();
                    on_done(key.strip_prefix(&strip).unwrap_or(&key));
                }
                Err(object_store::Error::NotFound { .. }) => {}
                Err(err) => return Err(self.explain(err, msg!("publish-doing-delete"))),
            }
        }
        Ok(())
    }

    /// An error of the store with a hint for the usual permanent failures.
    fn explain(&self, err: object_store::Error, doing: Msg) -> anyhow::Error {
        let text = chain(&err);
        let bucket = self.target.bucket.as_str();
        let endpoint = self.endpoint.as_str();
        let hint = if text.contains("NoSuchBucket") {
            Some(msg!(
                "publish-no-bucket",
                bucket = bucket,
                endpoint = endpoint
            ))
        } else if text.contains("InvalidAccessKeyId")
            || text.contains("SignatureDoesNotMatch")
            || text.contains("InvalidToken")
            || text.contains("ExpiredToken")
            || matches!(err, object_store::Error::Unauthenticated { .. })
        {
            Some(msg!("publish-credentials-refused"))
        } else if matches!(err, object_store::Error::PermissionDenied { .. })
            || text.contains("AccessDenied")
        {
            Some(msg!("publish-access-denied", bucket = bucket))
        } else if matches!(err, object_store::Error::NotFound { .. })
            && doing.id() == "publish-doing-list"
        {
            Some(msg!(
                "publish-bucket-not-found",
                bucket = bucket,
                endpoint = endpoint
            ))
        } else {
            None
        };
        let target = self.target.to_string();
        anyhow::Error::new(match hint {
            None => msg!(
                "publish-store-error",
                doing = doing,
                target = target,
                error = text
            ),
            Some(hint) => msg!(
                "publish-store-error-hint",
                doing = doing,
                target = target,
                hint = hint,
                error = text
            ),
        })
    }
}

/// An error with its causes.
fn chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        let more = cause.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = cause.source();
    }
    text
}

struct Keys {
    access_key_id: String,
    secret_access_key: String,
    session_token: Option<String>,
}

/// `AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`.
fn credentials_file() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("AWS_SHARED_CREDENTIALS_FILE").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    let home = std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE"))?;
    Some(PathBuf::from(home).join(".aws").join("credentials"))
}

/// The keys of a profile (default `default`) of the shared credentials
/// file, `None` when the file or the profile does not exist.
fn profile_credentials(profile: Option<&str>) -> anyhow::Result<Option<Keys>> {
    let Some(path) = credentials_file() else {
        return Ok(None);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => {
            return Err(err).with_context(|| msg!("err-read", path = path.display().to_string()));
        }
    };
    Ok(parse_profile(&text, profile.unwrap_or("default")))
}

/// The keys of `[profile]` in an INI-style credentials file.
fn parse_profile(text: &str, profile: &str) -> Option<Keys> {
    let mut in_section = false;
    let (mut id, mut secret, mut token) = (None, None, None);
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.starts_with(';') || line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            in_section = name.trim() == profile;
            continue;
        }
        if !in_section {
            continue;
        }
        if let Some((key, value)) = line.split_once('=') {
            let value = value.trim().to_owned();
            match key.trim() {
                "aws_access_key_id" => id = Some(value),
                "aws_secret_access_key" => secret = Some(value),
                "aws_session_token" => token = Some(value),
                _ => {}
            }
        }
    }
    Some(Keys {
        access_key_id: id?,
        secret_access_key: secret?,
        session_token: token,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_parse_with_and_without_prefix() {
        let t = Target::parse("s3://my-bucket/site/v1/").unwrap();
        assert_eq!(
            (t.bucket.as_str(), t.prefix.as_str()),
            ("my-bucket", "site/v1")
        );
        assert_eq!(t.key("a.json"), "site/v1/a.json");
        assert_eq!(Target::parse("s3://my-bucket").unwrap().key("a"), "a");
        assert!(Target::parse("https://x").is_err());
        assert!(Target::parse("s3://B").is_err());
        assert!(Target::parse("s3://bucket/a/../b").is_err());
    }

    #[test]
    fn profiles_are_read_from_the_credentials_file() {
        let text = "[default]\naws_access_key_id = A\naws_secret_access_key = B\n\n[ci]\naws_access_key_id=C\naws_secret_access_key=D\naws_session_token=E\n";
        let keys = parse_profile(text, "ci").unwrap();
        assert_eq!(
            (keys.access_key_id.as_str(), keys.secret_access_key.as_str()),
            ("C", "D")
        );
        assert_eq!(keys.session_token.as_deref(), Some("E"));
        assert!(parse_profile(text, "missing").is_none());
    }
}
