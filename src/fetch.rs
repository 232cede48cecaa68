//! HTTP GETs of a deployed site, for the commands that read one (`diff`,
//! `import`): one client with a timeout, one size limit per body, a bound on
//! the requests in flight, and one set of errors.
//!
//! A body is read chunk by chunk and refused as soon as it passes the limit
//! (whatever its `Content-Length` says), and [`Fetcher::for_each`] hands
//! each body to its caller as it arrives, so memory holds at most
//! [`CONCURRENCY`] bodies of at most [`MAX_BODY_BYTES`] each, however large
//! or many the files a server sends. A leaf: it knows nothing about the
//! site's layout or what the bodies mean.

use std::time::Duration;

use futures::StreamExt as _;

use crate::i18n::msg;

/// The largest body accepted, per file: the real API files are a few KiB.
pub const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

/// How many requests are in flight at once.
pub const CONCURRENCY: usize = 8;

/// Why a GET gave no body.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    #[error("404 not found")]
    NotFound,
    #[error("answered {0}")]
    Status(reqwest::StatusCode),
    #[error("the body is larger than the limit of {} MiB per file", .limit >> 20)]
    TooLarge { limit: usize },
    /// The request failed: timed out, unreachable, cut off (with its causes).
    #[error("{0}")]
    Failed(String),
}

/// A client and the small runtime of a command's own that drives it.
pub struct Fetcher {
    runtime: tokio::runtime::Runtime,
    client: reqwest::Client,
    limit: usize,
}

impl Fetcher {
    /// A fetcher with `timeout` for connecting and for each whole request,
    /// named `activity-site/<version> (<purpose>)` to the servers it asks.
    pub fn new(purpose: &str, timeout: Duration) -> anyhow::Result<Fetcher> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|err| anyhow::Error::new(err).context(msg!("err-runtime")))?;
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .user_agent(format!(
                "activity-site/{} ({purpose})",
                env!("CARGO_PKG_VERSION")
            ))
            .build()?;
        Ok(Fetcher {
            runtime,
            client,
            limit: MAX_BODY_BYTES,
        })
    }

    /// The body of `url`.
    pub fn get(&self, url: &str) -> Result<Vec<u8>, FetchError> {
        self.runtime.block_on(self.fetch(url))
    }

    /// GETs every URL, [`CONCURRENCY`] at a time, and hands each result to
    /// `consume` in the order of `urls` as soon as it (and those before it)
    /// arrived; returns what `consume` made of each.
    pub fn for_each<T>(
        &self,
        urls: &[String],
        mut consume: impl FnMut(usize, Result<Vec<u8>, FetchError>) -> T,
    ) -> Vec<T> {
        self.runtime.block_on(async {
            let mut results = futures::stream::iter(urls.iter().map(|url| self.fetch(url)))
                .buffered(CONCURRENCY)
                .enumerate();
            let mut out = Vec::with_capacity(urls.len());
            while let Some((i, result)) = results.next().await {
                out.push(consume(i, result));
            }
            out
        })
    }

    async fn fetch(&self, url: &str) -> Result<Vec<u8>, FetchError> {
        let mut response = self
            .client
            .get(url)
            .send()
            .await
            .map_err(|err| FetchError::Failed(describe(&err)))?;
        match response.status() {
            reqwest::StatusCode::OK => {}
            reqwest::StatusCode::NOT_FOUND => return Err(FetchError::NotFound),
            status => return Err(FetchError::Status(status)),
        }
        let too_large = FetchError::TooLarge { limit: self.limit };
        if response
            .content_length()
            .is_some_and(|n| n > self.limit as u64)
        {
            return Err(too_large);
        }
        let mut body = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|err| FetchError::Failed(describe(&err)))?
        {
            if body.len() + chunk.len() > self.limit {
                return Err(too_large);
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body)
    }
}

/// The http(s) URL `arg` (given to `flag`), or an error that says how to
/// fix it: a host typed without its scheme (`127.0.0.1:8765`,
/// `example.com/site`) gets a help line to add `http://` or `https://`.
pub fn http_url(flag: &str, arg: &str) -> anyhow::Result<reqwest::Url> {
    if !arg.contains("://") {
        return Err(anyhow::Error::new(msg!(
            "fetch-no-scheme",
            flag = flag,
            arg = arg
        )));
    }
    let url = reqwest::Url::parse(arg).map_err(|err| {
        anyhow::Error::new(msg!(
            "fetch-not-url",
            flag = flag,
            arg = arg,
            error = err.to_string()
        ))
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(anyhow::Error::new(msg!(
            "fetch-not-http",
            flag = flag,
            arg = arg
        )));
    }
    Ok(url)
}

/// A reqwest error with its causes, which say what actually went wrong
/// (timed out, connection refused, DNS): in the tool's words where the
/// operating system's error is one it names (a refused or reset
/// connection, an unreachable host or network), else with the causes as
/// the libraries word them.
fn describe(err: &reqwest::Error) -> String {
    let mut causes = Vec::new();
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        causes.push(cause);
        source = cause.source();
    }
    let io = causes
        .iter()
        .find_map(|c| c.downcast_ref::<std::io::Error>())
        .map(std::io::Error::kind);
    use std::io::ErrorKind::*;
    let known = match io {
        Some(ConnectionRefused) => Some(msg!("fetch-refused")),
        Some(ConnectionReset | ConnectionAborted) => Some(msg!("fetch-reset")),
        Some(HostUnreachable | NetworkUnreachable | AddrNotAvailable) => {
            Some(msg!("fetch-no-route"))
        }
        Some(TimedOut) => Some(msg!("fetch-timed-out")),
        _ => None,
    };
    let mut text = if err.is_timeout() {
        msg!("fetch-timed-out").to_string()
    } else if err.is_connect() {
        msg!("fetch-unreachable").to_string()
    } else {
        err.to_string()
    };
    if let Some(known) = known {
        if !err.is_timeout() {
            text.push_str(&msg!("fetch-cause", cause = known).to_string());
        }
        return text;
    }
    for cause in causes {
        text.push_str(": ");
        text.push_str(&cause.to_string());
    }
    text
}
