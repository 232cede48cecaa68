//! Static files of the built site, with the semantics a client of the real
//! CDN relies on: content types, strong ETags and `If-None-Match`,
//! `Last-Modified` and `If-Modified-Since`, precompressed siblings chosen by
//! `Accept-Encoding`, `HEAD`, directory index pages, JSON 404s under
//! `/api/v1/` and the site's `404.html` elsewhere; and the headers the site's
//! `_headers` gives each path (cache policy, CORS, security headers), read
//! back from the output directory, so `serve` sends what a host sends.
//!
//! While watching (live reload), HTML responses differ in what the reload
//! needs, and only there: `Cache-Control: no-cache` (the page changes with
//! every build and carries the build's status), a `Content-Security-Policy`
//! that also allows the injected script and its event stream, and no
//! `Content-Encoding` (the body is rewritten). See [`live_page_headers`].
//!
//! Request paths are decoded segment by segment and never leave the output
//! directory. Files are found by path (the output directory is swapped by a
//! rename on each build, so no directory handle is kept); their bytes, ETags
//! and whole response headers (one set per representation, for the 200 and
//! the 304) are worked out once when a file is read and kept in memory,
//! cleared by every rebuild ([`FileCache::clear`]) and checked against the
//! file's metadata at most every [`REVALIDATE`]. A request for a path served
//! within that window is answered from the cache before its path is even
//! decoded: a response is a clone of ready headers and bytes. This module
//! knows the output directory only, not how it is built.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs::{self, File, Metadata};
use std::io::{self, Read as _};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use percent_encoding::{AsciiSet, CONTROLS, percent_decode_str, utf8_percent_encode};
use sha2::{Digest as _, Sha256};

use super::{BuildStatus, ServerState, reload};
use crate::layout;
use crate::site::headers::{HeaderRule, headers_for, parse_headers};
/// Files larger than this are served but not kept in memory.
const MAX_CACHED_FILE: u64 = 8 * 1024 * 1024;
/// Beyond this many entries the cache starts over.
const MAX_CACHE_ENTRIES: usize = 4096;
/// How long a cached file is served without checking the disk again.
const REVALIDATE: Duration = Duration::from_millis(100);

const NO_CACHE: HeaderValue = HeaderValue::from_static("no-cache");
const NOSNIFF: HeaderValue = HeaderValue::from_static("nosniff");
const ANY_ORIGIN: HeaderValue = HeaderValue::from_static("*");
const ALLOWED_METHODS: HeaderValue = HeaderValue::from_static("GET, HEAD, OPTIONS");
const ACCEPT_ENCODING: HeaderValue = HeaderValue::from_static("accept-encoding");
const JSON: HeaderValue = HeaderValue::from_static(layout::JSON_TYPE);
const HTML: HeaderValue = HeaderValue::from_static(layout::HTML_TYPE);
const TEXT: HeaderValue = HeaderValue::from_static(layout::TEXT_TYPE);

/// Characters escaped when a path segment goes back into a `Location`.
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'/')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'\\')
    .add(b'`')
    .add(b'{')
    .add(b'}');

/// The files served so far, keyed by their full path, and which file each
/// request path was last answered with.
///
/// An entry is trusted for [`REVALIDATE`] after its last check, then checked
/// again against the file's metadata (one `stat`), so a file replaced behind
/// the server's back is picked up within that window. A rebuild by this
/// server clears the cache at once.
pub(crate) struct FileCache {
    // Std locks: they are never held across an await.
    entries: RwLock<HashMap<PathBuf, Arc<CachedFile>>>,
    /// The file each request path (as the client wrote it) was last served
    /// with as a 200, so that a repeated request skips decoding and the
    /// lookup by full path. Only the slow path, which decodes and checks the
    /// path, adds to it; several spellings of one path share one file.
    served: RwLock<HashMap<Box<str>, Arc<CachedFile>>>,
    /// The rules of the site's `_headers`, read once per build.
    rules: RwLock<Option<Arc<Vec<HeaderRule>>>>,
    /// Bumped by [`FileCache::clear`]; a read that began before a clear is not cached.
    generation: AtomicU64,
    /// The origin of the `checked` timestamps.
    epoch: Instant,
    /// How many builds that may replace the output are running: while
    /// one is, no entry is trusted without a look at the disk, so every
    /// file is served from the site the disk has, and a client never gets
    /// one file of the new site and, after it, one of the old.
    changing: AtomicU64,
}

impl Default for FileCache {
    fn default() -> Self {
        FileCache {
            entries: RwLock::default(),
            served: RwLock::default(),
            rules: RwLock::default(),
            generation: AtomicU64::new(0),
            epoch: Instant::now(),
            changing: AtomicU64::new(0),
        }
    }
}

impl FileCache {
    /// Forgets everything, so the next requests read the new build. The one
    /// hook for "the site changed": whatever replaces `out` calls it.
    pub(crate) fn clear(&self) {
        let mut entries = self.write();
        self.generation.fetch_add(1, Ordering::SeqCst);
        entries.clear();
        drop(entries);
        // After the generation moved, so a request that read the old one
        // cannot add a path back (see `insert_served`).
        self.served
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clear();
        *self
            .rules
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = None;
    }

    /// Marks a build that may replace the output as running until the
    /// guard is dropped (after [`FileCache::clear`] when it did replace it).
    pub(crate) fn changing(self: &Arc<Self>) -> Changing {
        self.changing.fetch_add(1, Ordering::SeqCst);
        Changing(Arc::clone(self))
    }

    /// The rules of `out/_headers` (none when the site has no such file),
    /// read on the first request after a build.
    fn rules(&self, out: &Path) -> Arc<Vec<HeaderRule>> {
        if let Some(rules) = self
            .rules
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .as_ref()
        {
            return Arc::clone(rules);
        }
        let text = fs::read_to_string(out.join(layout::HEADERS_FILE)).unwrap_or_default();
        let rules = Arc::new(parse_headers(&text));
        *self
            .rules
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(Arc::clone(&rules));
        rules
    }

    fn get(&self, path: &Path) -> Option<Arc<CachedFile>> {
        self.entries
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .get(path)
            .cloned()
    }

    /// Caches `file` unless the cache was cleared since `generation` was read.
    fn insert(&self, path: PathBuf, file: Arc<CachedFile>, generation: u64) {
        let mut entries = self.write();
        if self.generation.load(Ordering::SeqCst) != generation {
            return;
        }
        if entries.len() >= MAX_CACHE_ENTRIES {
            entries.clear();
        }
        entries.insert(path, file);
    }

    /// Calls `answer` with the file `url` was served with, while that file
    /// is still trusted ([`REVALIDATE`]); `None` when there is no such file.
    fn answer_fresh<T>(&self, url: &str, answer: impl FnOnce(&CachedFile) -> T) -> Option<T> {
        let served = self
            .served
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let file = served.get(url)?;
        self.is_fresh(file).then(|| answer(file))
    }

    /// Records that `url` was answered with `file`, unless the cache was
    /// cleared since `generation` was read.
    fn insert_served(&self, url: &str, file: &Arc<CachedFile>, generation: u64) {
        let mut served = self
            .served
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if self.generation.load(Ordering::SeqCst) != generation {
            return;
        }
        if served.len() >= MAX_CACHE_ENTRIES {
            served.clear();
        }
        served.insert(url.into(), Arc::clone(file));
    }

    /// Whether `file` was compared with the disk less than [`REVALIDATE`] ago.
    fn is_fresh(&self, file: &CachedFile) -> bool {
        self.changing.load(Ordering::SeqCst) == 0
            && self
                .now()
                .saturating_sub(file.checked.load(Ordering::Relaxed))
                < REVALIDATE.as_nanos() as u64
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<PathBuf, Arc<CachedFile>>> {
        self.entries
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Nanoseconds since the cache was made.
    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

/// A build that may replace the output, running ([`FileCache::changing`]).
pub(crate) struct Changing(Arc<FileCache>);

impl Drop for Changing {
    fn drop(&mut self) {
        self.0.changing.fetch_sub(1, Ordering::SeqCst);
    }
}

/// One file with its precompressed siblings, as read from disk.
struct CachedFile {
    /// Identifies the version on disk the bytes were read from.
    fingerprint: Fingerprint,
    /// When the fingerprint was last compared with the disk ([`FileCache::now`]).
    checked: AtomicU64,
    content_type: HeaderValue,
    /// The same for an HTML page while live reload is on: what every
    /// response with this file carries besides its representation (the
    /// `_headers` rules of its path, widened for the reload, and
    /// `Last-Modified`). The page's body and ETag are made per request.
    live_headers: Option<HeaderMap>,
    /// The file's modification time, for `If-Modified-Since`.
    modified: Option<std::time::SystemTime>,
    identity: Variant,
    brotli: Option<Variant>,
    gzip: Option<Variant>,
}

/// One representation of a file: its bytes, strong ETag and the whole
/// header of its responses, worked out once when the file is read.
struct Variant {
    body: Bytes,
    etag: HeaderValue,
    /// The header of a 200 (and of `HEAD`): the `_headers` rules of the
    /// file's path, `Last-Modified`, `Vary` when the file has precompressed
    /// siblings, `ETag`, `Content-Type`, `Content-Encoding`, `Content-Length`.
    ok: HeaderMap,
    /// The header of a 304: the validators, the cache policy and CORS of
    /// `ok` only ([`not_modified_headers`]).
    not_modified: HeaderMap,
}

/// Enough metadata to notice that a path now names another file: a rebuild
/// swaps the whole directory, so the inode changes even when the size does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fingerprint {
    device: u64,
    inode: u64,
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl Fingerprint {
    fn of(meta: &Metadata) -> Self {
        #[cfg(unix)]
        let (device, inode) = {
            use std::os::unix::fs::MetadataExt as _;
            (meta.dev(), meta.ino())
        };
        #[cfg(not(unix))]
        let (device, inode) = (0, 0);
        Fingerprint {
            device,
            inode,
            len: meta.len(),
            modified: meta.modified().ok(),
        }
    }
}

/// What the static handler needs, behind one `Arc`, so that a request
/// clones one pointer rather than the whole [`ServerState`].
pub(crate) struct Site {
    out: PathBuf,
    live_reload: bool,
    status: Arc<RwLock<BuildStatus>>,
    files: Arc<FileCache>,
}

impl Site {
    pub(crate) fn new(state: &ServerState) -> Arc<Self> {
        Arc::new(Site {
            out: state.options.out.clone(),
            live_reload: state.live_reload,
            status: Arc::clone(&state.status),
            files: Arc::clone(&state.files),
        })
    }

    fn status(&self) -> BuildStatus {
        self.status
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }
}

/// The fallback handler: everything no route matched is a file of the site.
pub(crate) async fn serve(site: Arc<Site>, request: Request) -> Response {
    let path = request.uri().path();
    // Under the public API, CORS applies and 404s are JSON.
    let api = layout::is_api(path);
    let method = request.method();
    if method == Method::OPTIONS {
        return preflight(api, request.headers());
    }
    if method != Method::GET && method != Method::HEAD {
        let mut response = error(
            api,
            StatusCode::METHOD_NOT_ALLOWED,
            path,
            "method not allowed",
        );
        response
            .headers_mut()
            .insert(header::ALLOW, ALLOWED_METHODS);
        return response;
    }
    let ask = Ask {
        path,
        headers: request.headers(),
        head: method == Method::HEAD,
        api,
    };
    // A path served moments ago: its file and headers are ready.
    if let Some(response) = site
        .files
        .answer_fresh(path, |file| respond(&site, file, ask, StatusCode::OK))
    {
        return response;
    }
    let generation = site.files.generation.load(Ordering::SeqCst);
    let segments = match decode_path(path) {
        Ok(segments) => segments,
        Err(reason) => return error(api, StatusCode::BAD_REQUEST, path, reason),
    };
    if let [only] = segments.as_slice()
        && layout::is_host_only(only)
    {
        // Hosts read these files as configuration and never serve them.
        return not_found(&site, ask).await;
    }
    let trailing_slash = path.ends_with('/');
    let mut full = site.out.clone();
    for segment in &segments {
        full.push(segment.as_ref());
    }
    match find(&site, &full).await {
        Ok(Found::File(file)) if !trailing_slash => {
            site.files.insert_served(path, &file, generation);
            return respond(&site, &file, ask, StatusCode::OK);
        }
        Ok(Found::Directory) if trailing_slash || segments.is_empty() => {
            full.push(layout::DIRECTORY_INDEX);
            if let Ok(Found::File(file)) = find(&site, &full).await {
                site.files.insert_served(path, &file, generation);
                return respond(&site, &file, ask, StatusCode::OK);
            }
        }
        Ok(Found::Directory) => return redirect_to_directory(&segments, request.uri().query()),
        Ok(_) => {}
        Err(err) => {
            tracing::error!(
                "{}",
                crate::i18n::msg!(
                    "serve-read-failed",
                    path = full.display().to_string(),
                    error = err.to_string()
                )
            );
            return error(
                api,
                StatusCode::INTERNAL_SERVER_ERROR,
                path,
                "internal error",
            );
        }
    }
    not_found(&site, ask).await
}

/// What a GET or HEAD asks of the site: the path, the request's headers,
/// whether it is a HEAD (no body in the answer) and whether the path is
/// under the public API (CORS, JSON errors).
#[derive(Clone, Copy)]
struct Ask<'r> {
    path: &'r str,
    headers: &'r HeaderMap,
    head: bool,
    api: bool,
}

/// Splits a request path into decoded file-name segments, refusing anything
/// that could name a file outside the output directory: `.` and `..`
/// (plain or percent-encoded), encoded slashes and backslashes, NUL, drive
/// prefixes and paths that are not absolute-path URIs.
fn decode_path(path: &str) -> Result<Vec<Cow<'_, str>>, &'static str> {
    let Some(rest) = path.strip_prefix('/') else {
        return Err("the path must start with a slash");
    };
    let mut segments = Vec::with_capacity(8);
    for raw in rest.split('/') {
        // Empty segments (`//`, a trailing slash) name nothing, as on static hosts.
        if raw.is_empty() {
            continue;
        }
        let encoded_separator = raw.as_bytes().windows(3).any(|w| {
            w[0] == b'%'
                && (w[1..].eq_ignore_ascii_case(b"2f") || w[1..].eq_ignore_ascii_case(b"5c"))
        });
        if encoded_separator {
            return Err("the path contains an encoded slash");
        }
        let decoded = percent_decode_str(raw)
            .decode_utf8()
            .map_err(|_| "the path is not valid UTF-8")?;
        if decoded.contains(['\\', '\0']) {
            return Err("the path contains a backslash or NUL");
        }
        let mut components = Path::new(decoded.as_ref()).components();
        match (components.next(), components.next()) {
            (Some(Component::Normal(_)), None) if decoded != "." && decoded != ".." => {}
            _ => return Err("the path leaves the site"),
        }
        segments.push(decoded);
    }
    Ok(segments)
}

/// What a path names in the output directory.
enum Found {
    File(Arc<CachedFile>),
    Directory,
    Missing,
}

/// Looks `path` (under the output directory) up, from the cache when the
/// file is unchanged.
async fn find(site: &Site, path: &Path) -> io::Result<Found> {
    let cached = site.files.get(path);
    if let Some(file) = &cached
        && site.files.is_fresh(file)
    {
        return Ok(Found::File(Arc::clone(file)));
    }
    let now = site.files.now();
    let generation = site.files.generation.load(Ordering::SeqCst);
    // A stat of a file in the page cache costs about a microsecond; doing it
    // here rather than on the blocking pool keeps the common path short.
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(err) if is_missing(&err) => return Ok(Found::Missing),
        Err(err) => return Err(err),
    };
    if meta.is_dir() {
        return Ok(Found::Directory);
    }
    if !meta.is_file() {
        return Ok(Found::Missing);
    }
    if let Some(file) = cached
        && file.fingerprint == Fingerprint::of(&meta)
    {
        file.checked.store(now, Ordering::Relaxed);
        return Ok(Found::File(file));
    }
    let out = site.out.clone();
    let key = path.to_path_buf();
    let path = key.clone();
    let rules = site.files.rules(&site.out);
    let live = site.live_reload;
    let loaded = tokio::task::spawn_blocking(move || load(&out, &path, &rules, live))
        .await
        .map_err(io::Error::other)?;
    match loaded {
        Ok(Some(mut file)) => {
            file.checked = AtomicU64::new(site.files.now());
            let file = Arc::new(file);
            if file.identity.body.len() as u64 <= MAX_CACHED_FILE {
                site.files.insert(key, Arc::clone(&file), generation);
            }
            Ok(Found::File(file))
        }
        Ok(None) => Ok(Found::Missing),
        Err(err) if is_missing(&err) => Ok(Found::Missing),
        Err(err) => Err(err),
    }
}

fn is_missing(err: &io::Error) -> bool {
    matches!(
        err.kind(),
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
    )
}

/// Reads a file and its precompressed siblings, and works out the headers
/// of its responses once. `None` when the path resolves outside the output
/// directory (a symbolic link planted in it).
fn load(
    out: &Path,
    path: &Path,
    rules: &[HeaderRule],
    live: bool,
) -> io::Result<Option<CachedFile>> {
    // A rebuild may swap the directory between reads; retry until the file
    // and its siblings come from the same build.
    for _ in 0..3 {
        let real = path.canonicalize()?;
        if !real.starts_with(out.canonicalize()?) {
            return Ok(None);
        }
        let mut file = File::open(&real)?;
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Ok(None);
        }
        let mut body = Vec::with_capacity(meta.len() as usize);
        file.read_to_end(&mut body)?;
        let brotli = read_sibling(&real, "br")?;
        let gzip = read_sibling(&real, "gzip")?;
        let fingerprint = Fingerprint::of(&meta);
        if Fingerprint::of(&fs::metadata(path)?) != fingerprint {
            continue;
        }
        let content_type = content_type(path);
        let url = site_url(out, path);
        let mut headers = rule_headers(rules, &url);
        if let Some(modified) = fingerprint.modified
            && let Ok(value) = HeaderValue::from_str(&httpdate::fmt_http_date(modified))
        {
            headers.insert(header::LAST_MODIFIED, value);
        }
        let live_headers = (live && content_type == HTML).then(|| live_page_headers(&headers));
        if brotli.is_some() || gzip.is_some() {
            headers.insert(header::VARY, ACCEPT_ENCODING);
        }
        let variant = |body, encoding| Variant::new(body, &headers, &content_type, encoding);
        return Ok(Some(CachedFile {
            fingerprint,
            checked: AtomicU64::new(0),
            live_headers,
            modified: fingerprint.modified,
            identity: variant(body, None),
            brotli: brotli.map(|body| variant(body, Some("br"))),
            gzip: gzip.map(|body| variant(body, Some("gzip"))),
            content_type,
        }));
    }
    Err(io::Error::other("the file kept changing while it was read"))
}

/// The site-absolute URL of a file under `out` (`/sr/index.html`).
fn site_url(out: &Path, path: &Path) -> String {
    format!("/{}", crate::relpath::below(out, path))
}

/// The headers `_headers` gives `url`, as a header map (values a header
/// cannot hold are skipped).
fn rule_headers(rules: &[HeaderRule], url: &str) -> HeaderMap {
    let mut headers = HeaderMap::new();
    for (name, value) in headers_for(rules, url) {
        if let (Ok(name), Ok(value)) = (
            header::HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(value),
        ) {
            headers.append(name, value);
        }
    }
    headers
}

/// The headers of an HTML page while live reload is on: `headers` with
/// what the reload needs, and nothing else changed. `Cache-Control:
/// no-cache`, since the page changes with every build and carries the
/// build's status; a `Content-Security-Policy` that also allows the
/// injected script (by its hash) and its event stream (`connect-src 'self'`).
pub(crate) fn live_page_headers(headers: &HeaderMap) -> HeaderMap {
    let mut live = headers.clone();
    live.insert(header::CACHE_CONTROL, NO_CACHE);
    if let Some(csp) = headers
        .get(header::CONTENT_SECURITY_POLICY)
        .and_then(|v| v.to_str().ok())
    {
        let csp = reload::allow_in_policy(csp);
        if let Ok(value) = HeaderValue::from_str(&csp) {
            live.insert(header::CONTENT_SECURITY_POLICY, value);
        }
    }
    live
}

/// Reads the sibling of `path` with `encoding` (`br`, `gzip`).
fn read_sibling(path: &Path, encoding: &str) -> io::Result<Option<Vec<u8>>> {
    let Some(name) = layout::sibling_path(&path.to_string_lossy(), encoding) else {
        return Ok(None);
    };
    match fs::read(PathBuf::from(name)) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(err) if is_missing(&err) => Ok(None),
        Err(err) => Err(err),
    }
}

impl Variant {
    /// The representation `body`, in `encoding` (`None` for identity), of a
    /// file whose responses all carry `headers`.
    fn new(
        body: Vec<u8>,
        headers: &HeaderMap,
        content_type: &HeaderValue,
        encoding: Option<&'static str>,
    ) -> Self {
        let etag = format!("\"{}\"", etag_hash(&body));
        let etag = HeaderValue::from_str(&etag).expect("hex is a valid header value");
        let mut ok = headers.clone();
        ok.insert(header::ETAG, etag.clone());
        let not_modified = not_modified_headers(&ok);
        ok.insert(header::CONTENT_TYPE, content_type.clone());
        if let Some(encoding) = encoding {
            ok.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
        }
        ok.insert(header::CONTENT_LENGTH, HeaderValue::from(body.len()));
        Variant {
            body: Bytes::from(body),
            etag,
            ok,
            not_modified,
        }
    }
}

/// The header of a 304 made from the header of its 200 (`ok`): what RFC
/// 9110 (15.4.5) has a 304 carry, the validators and the cache policy
/// (`ETag`, `Last-Modified`, `Cache-Control`, `Expires`, `Vary`,
/// `Content-Location`), and CORS, which a cross-origin poll needs on every
/// answer. The rest of `_headers` (the Content-Security-Policy, the other
/// security headers) describes the stored body, which the client keeps
/// with its headers: a 304 that repeats it is three times nginx's (758
/// bytes against 237), and the polling clients' every request is one
/// (issue 67).
fn not_modified_headers(ok: &HeaderMap) -> HeaderMap {
    let kept = |name: &header::HeaderName| {
        [
            header::ETAG,
            header::LAST_MODIFIED,
            header::CACHE_CONTROL,
            header::EXPIRES,
            header::VARY,
            header::CONTENT_LOCATION,
        ]
        .contains(name)
            || name.as_str().starts_with("access-control-")
    };
    let mut headers = HeaderMap::with_capacity(8);
    for (name, value) in ok.iter().filter(|(name, _)| kept(name)) {
        headers.append(name.clone(), value.clone());
    }
    headers
}

/// The first 128 bits of the content's SHA-256, in hex.
fn etag_hash(bytes: &[u8]) -> String {
    hex::encode(&Sha256::digest(bytes)[..16])
}

/// The content type of a file, by its extension, as the [`layout`] gives it
/// to every server of the site.
fn content_type(path: &Path) -> HeaderValue {
    HeaderValue::from_static(layout::content_type(&path.to_string_lossy()))
}

/// Which representation to send, by `Accept-Encoding`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Identity,
    Brotli,
    Gzip,
}

/// Picks the acceptable representation with the highest q-value among those
/// on disk; on a tie brotli beats gzip, and both beat identity.
fn choose_encoding(headers: &HeaderMap, brotli: bool, gzip: bool) -> Encoding {
    if !brotli && !gzip {
        return Encoding::Identity;
    }
    let (mut q_br, mut q_gzip, mut q_identity, mut q_any) = (None, None, None, None);
    for value in headers.get_all(header::ACCEPT_ENCODING) {
        let Ok(value) = value.to_str() else { continue };
        for item in value.split(',') {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or("").trim().to_ascii_lowercase();
            let mut q = 1.0_f32;
            for param in parts {
                if let Some((name, v)) = param.split_once('=')
                    && name.trim().eq_ignore_ascii_case("q")
                {
                    q = v.trim().parse().unwrap_or(0.0);
                }
            }
            let slot = match coding.as_str() {
                "br" => &mut q_br,
                "gzip" | "x-gzip" => &mut q_gzip,
                "identity" => &mut q_identity,
                "*" => &mut q_any,
                _ => continue,
            };
            *slot = Some(q);
        }
    }
    let q_br = if brotli {
        q_br.or(q_any).unwrap_or(0.0)
    } else {
        0.0
    };
    let q_gzip = if gzip {
        q_gzip.or(q_any).unwrap_or(0.0)
    } else {
        0.0
    };
    // Identity is acceptable unless excluded; when it is, still send it rather than a 406.
    let q_identity = q_identity.or(q_any).unwrap_or(0.001);
    let (best, q_best) = if q_br > 0.0 && q_br >= q_gzip {
        (Encoding::Brotli, q_br)
    } else if q_gzip > 0.0 {
        (Encoding::Gzip, q_gzip)
    } else {
        return Encoding::Identity;
    };
    if q_identity > q_best {
        Encoding::Identity
    } else {
        best
    }
}

/// Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 asks).
fn none_match(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let etag = etag.as_bytes();
    headers.get_all(header::IF_NONE_MATCH).iter().any(|value| {
        value.as_bytes().split(|&b| b == b',').any(|tag| {
            let tag = tag.trim_ascii();
            tag == b"*" || tag.strip_prefix(b"W/").unwrap_or(tag) == etag
        })
    })
}

/// The 200 (or 404 page) response for a file.
fn respond(site: &Site, file: &CachedFile, ask: Ask<'_>, status: StatusCode) -> Response {
    let (request, head) = (ask.headers, ask.head);
    if site.live_reload && file.live_headers.is_some() {
        return respond_live(site, file, ask, status);
    }
    let variant = match choose_encoding(request, file.brotli.is_some(), file.gzip.is_some()) {
        Encoding::Brotli => file.brotli.as_ref(),
        Encoding::Gzip => file.gzip.as_ref(),
        Encoding::Identity => None,
    }
    .unwrap_or(&file.identity);
    if status != StatusCode::OK {
        // The site's 404 page: no validators, it stands for another resource.
        let mut headers = variant.ok.clone();
        headers.remove(header::ETAG);
        headers.remove(header::LAST_MODIFIED);
        return response(status, headers, (!head).then(|| variant.body.clone()));
    }
    if is_not_modified(request, &variant.etag, file.modified) {
        return response(StatusCode::NOT_MODIFIED, variant.not_modified.clone(), None);
    }
    response(
        StatusCode::OK,
        variant.ok.clone(),
        (!head).then(|| variant.body.clone()),
    )
}

/// An HTML page while live reload is on: the body gets the script (and the
/// overlay), so it is sent uncompressed, and its ETag also names the build
/// status the overlay reflects.
fn respond_live(site: &Site, file: &CachedFile, ask: Ask<'_>, status: StatusCode) -> Response {
    let (request, head) = (ask.headers, ask.head);
    let build = site.status();
    let body = reload::inject(&file.identity.body, &build);
    let mut headers = file.live_headers.clone().unwrap_or_default();
    if status == StatusCode::OK {
        let tag = file
            .identity
            .etag
            .to_str()
            .unwrap_or("\"\"")
            .trim_matches('"');
        let etag = HeaderValue::from_str(&format!("\"{tag}-{}\"", build.generation))
            .expect("hex and digits are a valid header value");
        headers.insert(header::ETAG, etag.clone());
        // The page changes with the build status, whatever its file's date.
        if request.contains_key(header::IF_NONE_MATCH) && none_match(request, &etag) {
            return response(
                StatusCode::NOT_MODIFIED,
                not_modified_headers(&headers),
                None,
            );
        }
    } else {
        headers.remove(header::LAST_MODIFIED);
    }
    headers.insert(header::CONTENT_TYPE, file.content_type.clone());
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(body.len()));
    response(status, headers, (!head).then_some(body))
}

/// Whether a conditional `GET` may be answered 304: `If-None-Match` when the
/// request has it, `If-Modified-Since` otherwise (RFC 9110, 13.2.2).
fn is_not_modified(
    request: &HeaderMap,
    etag: &HeaderValue,
    modified: Option<std::time::SystemTime>,
) -> bool {
    if request.contains_key(header::IF_NONE_MATCH) {
        none_match(request, etag)
    } else {
        not_modified_since(request, modified)
    }
}

/// A response with exactly these headers (no body for `None`). Built in
/// place: `(status, headers, body).into_response()` would copy every
/// header into a fresh map.
fn response(status: StatusCode, headers: HeaderMap, body: Option<Bytes>) -> Response {
    let mut response = Response::new(body.map_or_else(Body::empty, Body::from));
    *response.status_mut() = status;
    *response.headers_mut() = headers;
    response
}

/// Whether `If-Modified-Since` is at or after the file's modification time
/// (compared in whole seconds, as the header has them).
fn not_modified_since(request: &HeaderMap, modified: Option<std::time::SystemTime>) -> bool {
    let (Some(modified), Some(since)) = (
        modified,
        request
            .get(header::IF_MODIFIED_SINCE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| httpdate::parse_http_date(v).ok()),
    ) else {
        return false;
    };
    let seconds = |t: std::time::SystemTime| {
        t.duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    };
    seconds(modified) <= seconds(since)
}

/// `/sr` names a directory: send the client to `/sr/`, as static hosts do.
fn redirect_to_directory(segments: &[Cow<'_, str>], query: Option<&str>) -> Response {
    let mut location = String::new();
    for segment in segments {
        location.push('/');
        location.extend(utf8_percent_encode(segment, SEGMENT));
    }
    location.push('/');
    if let Some(query) = query {
        location.push('?');
        location.push_str(query);
    }
    match HeaderValue::from_str(&location) {
        Ok(location) => (
            StatusCode::MOVED_PERMANENTLY,
            [
                (header::LOCATION, location),
                (header::CACHE_CONTROL, NO_CACHE),
            ],
        )
            .into_response(),
        Err(_) => StatusCode::BAD_REQUEST.into_response(),
    }
}

/// The 404: JSON under the API; elsewhere the site's `404.html`, or a small
/// built-in page when the site has none.
async fn not_found(site: &Site, ask: Ask<'_>) -> Response {
    let (path, head, api) = (ask.path, ask.head, ask.api);
    if !api && let Ok(Found::File(page)) = find(site, &site.out.join(layout::NOT_FOUND_PAGE)).await
    {
        return respond(site, &page, ask, StatusCode::NOT_FOUND);
    }
    let mut response = error(api, StatusCode::NOT_FOUND, path, "not found");
    if api {
        // The API's rules (CORS, cache policy) and the security headers, as a host sends them.
        let rules = site.files.rules(&site.out);
        for (name, value) in rule_headers(&rules, path) {
            if let Some(name) = name {
                response.headers_mut().insert(name, value);
            }
        }
    }
    if !api && site.live_reload {
        // The built-in page reloads and shows the overlay like the site's pages.
        let body = axum::body::to_bytes(std::mem::take(response.body_mut()), usize::MAX)
            .await
            .unwrap_or_default();
        let body = reload::inject(&body, &site.status());
        response
            .headers_mut()
            .insert(header::CONTENT_LENGTH, HeaderValue::from(body.len()));
        *response.body_mut() = Body::from(body);
    }
    if head {
        *response.body_mut() = Body::empty();
    }
    response
}

/// A small error response: JSON under the API, HTML elsewhere.
fn error(api: bool, status: StatusCode, path: &str, message: &str) -> Response {
    let (content_type, body) = if api {
        let body = serde_json::json!({ "error": message, "path": path });
        (JSON, format!("{body}\n"))
    } else if status == StatusCode::NOT_FOUND {
        let body = format!(
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <title>Not found</title></head><body><h1>Not found</h1>\
             <p>Nothing is published at <code>{}</code>.</p>\
             <p><a href=\"/\">Home</a></p></body></html>\n",
            crate::site::pages::escape_html(path)
        );
        (HTML, body)
    } else {
        (TEXT, format!("{}: {message}\n", status.as_u16()))
    };
    let mut response = (status, [(header::CONTENT_TYPE, content_type)], body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, NO_CACHE);
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, NOSNIFF);
    if api {
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, ANY_ORIGIN);
    }
    response
}

/// `OPTIONS`: a CORS preflight answer under the API, the allowed methods elsewhere.
fn preflight(api: bool, request: &HeaderMap) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert(header::ALLOW, ALLOWED_METHODS);
    if api {
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, ANY_ORIGIN);
        headers.insert(header::ACCESS_CONTROL_ALLOW_METHODS, ALLOWED_METHODS);
        let allow_headers = request
            .get(header::ACCESS_CONTROL_REQUEST_HEADERS)
            .cloned()
            .unwrap_or(ANY_ORIGIN);
        headers.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, allow_headers);
        headers.insert(
            header::ACCESS_CONTROL_MAX_AGE,
            HeaderValue::from_static("86400"),
        );
    }
    (StatusCode::NO_CONTENT, headers).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_str(value).unwrap(),
        );
        headers
    }

    #[test]
    fn encoding_follows_q_values() {
        use Encoding::*;
        assert_eq!(
            choose_encoding(&accept("gzip, deflate, br"), true, true),
            Brotli
        );
        assert_eq!(choose_encoding(&accept("gzip, br;q=0.5"), true, true), Gzip);
        assert_eq!(
            choose_encoding(&accept("br;q=0, gzip;q=0"), true, true),
            Identity
        );
        assert_eq!(choose_encoding(&accept("*"), true, true), Brotli);
        assert_eq!(
            choose_encoding(&accept("*;q=0.5, br;q=0"), true, true),
            Gzip
        );
        assert_eq!(choose_encoding(&accept("br"), false, true), Identity);
        assert_eq!(
            choose_encoding(&accept("identity;q=1, br;q=0.5"), true, true),
            Identity
        );
        assert_eq!(choose_encoding(&HeaderMap::new(), true, true), Identity);
        assert_eq!(choose_encoding(&accept("BR;Q=0.9"), true, false), Brotli);
    }

    #[test]
    fn paths_never_leave_the_site() {
        for bad in [
            "/../etc/passwd",
            "/a/..",
            "/%2e%2e/x",
            "/a/%2E%2E/%2e%2e/x",
            "/a%2fb",
            "/a%2F..%2Fb",
            "/a%5c..%5cb",
            "/a\\b",
            "/a%00b",
            "/.",
            "x",
            "/%ff",
        ] {
            assert!(decode_path(bad).is_err(), "{bad} was accepted");
        }
        assert_eq!(
            decode_path("/api/v1//activity/ww.json").unwrap(),
            ["api", "v1", "activity", "ww.json"]
        );
        assert_eq!(decode_path("/a%20b/").unwrap(), ["a b"]);
    }
}
