//! A real S3-compatible server on loopback for the publish tests: `s3s-fs`
//! (the S3 protocol with SigV4 checks, over a temp directory), with a log of
//! the requests it answered and a switch that makes it answer 503 SlowDown.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use hyper_util::rt::{TokioExecutor, TokioIo};

pub const ACCESS_KEY: &str = "AKIDTESTPUBLISH";
pub const SECRET_KEY: &str = "test-secret-key-for-publish-0123456789";
pub const BUCKET: &str = "activity-bucket";

/// One request the server answered: method and path (bucket included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub query: String,
    pub status: u16,
}

impl Request {
    /// A DELETE, or a bulk delete (`POST /<bucket>?delete`).
    pub fn is_delete(&self) -> bool {
        self.method == "DELETE" || (self.method == "POST" && self.query.starts_with("delete"))
    }
}

pub struct S3Server {
    /// `http://127.0.0.1:PORT`.
    pub endpoint: String,
    /// The server's storage: `<root>/<bucket>/<key>`.
    root: tempfile::TempDir,
    log: Arc<Mutex<Vec<Request>>>,
    /// The next this many requests are answered 503 SlowDown.
    pub fail_next: Arc<AtomicUsize>,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl S3Server {
    /// Starts the server with an empty bucket [`BUCKET`].
    pub fn start() -> S3Server {
        let root = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(root.path().join(BUCKET)).expect("bucket dir");
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        listener.set_nonblocking(true).expect("nonblocking");
        let endpoint = format!("http://{}", listener.local_addr().expect("addr"));
        let log = Arc::new(Mutex::new(Vec::new()));
        let fail_next = Arc::new(AtomicUsize::new(0));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let fs = s3s_fs::FileSystem::new(root.path()).expect("s3s-fs root");
        let mut builder = s3s::service::S3ServiceBuilder::new(fs);
        builder.set_auth(s3s::auth::SimpleAuth::from_single(ACCESS_KEY, SECRET_KEY));
        let service = builder.build();
        let (log2, fail2) = (log.clone(), fail_next.clone());
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(serve(listener, service, log2, fail2, stopped));
        });
        S3Server {
            endpoint,
            root,
            log,
            fail_next,
            _stop: stop,
        }
    }

    fn object_path(&self, key: &str) -> PathBuf {
        self.root.path().join(BUCKET).join(key)
    }

    /// The bytes of an object, `None` when absent.
    pub fn object(&self, key: &str) -> Option<Vec<u8>> {
        std::fs::read(self.object_path(key)).ok()
    }

    /// Puts an object behind the tool's back (another uploader).
    pub fn put_foreign(&self, key: &str, bytes: &[u8]) {
        let path = self.object_path(key);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, bytes).expect("write object");
    }

    /// Removes an object behind the tool's back.
    pub fn remove(&self, key: &str) {
        std::fs::remove_file(self.object_path(key)).expect("remove object");
    }

    /// The stored attributes of an object (`content_type`, `cache_control`,
    /// `content_encoding`, `user_metadata`).
    pub fn attributes(&self, key: &str) -> serde_json::Value {
        let enc = |s: &str| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s);
        let path = self.root.path().join(format!(
            ".bucket-{}.object-{}.metadata.json",
            enc(BUCKET),
            enc(key)
        ));
        let text = std::fs::read(&path).unwrap_or_else(|e| panic!("no attributes for {key}: {e}"));
        serde_json::from_slice(&text).expect("attributes are JSON")
    }

    /// Every key in the bucket.
    pub fn keys(&self) -> BTreeSet<String> {
        let bucket = self.root.path().join(BUCKET);
        walkdir::WalkDir::new(&bucket)
            .min_depth(1)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| key_of(&bucket, e.path()))
            .collect()
    }

    /// The requests answered so far, and forgets them.
    pub fn take_log(&self) -> Vec<Request> {
        std::mem::take(&mut *self.log.lock().expect("log"))
    }
}

fn key_of(bucket: &Path, path: &Path) -> String {
    path.strip_prefix(bucket)
        .expect("under bucket")
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

async fn serve(
    listener: std::net::TcpListener,
    service: s3s::service::S3Service,
    log: Arc<Mutex<Vec<Request>>>,
    fail_next: Arc<AtomicUsize>,
    mut stopped: tokio::sync::oneshot::Receiver<()>,
) {
    let listener = tokio::net::TcpListener::from_std(listener).expect("tokio listener");
    loop {
        let socket = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((socket, _)) => socket,
                Err(_) => continue,
            },
            _ = &mut stopped => return,
        };
        let (service, log, fail_next) = (service.clone(), log.clone(), fail_next.clone());
        tokio::spawn(async move {
            let handler = hyper::service::service_fn(
                move |req: hyper::Request<hyper::body::Incoming>| {
                    let (service, log, fail_next) =
                        (service.clone(), log.clone(), fail_next.clone());
                    async move {
                        let method = req.method().to_string();
                        let path = req.uri().path().to_owned();
                        let query = req.uri().query().unwrap_or_default().to_owned();
                        let throttled = fail_next
                            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                            .is_ok();
                        let response = if throttled {
                            let body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>";
                            let mut response =
                                hyper::Response::new(s3s::Body::from(body.to_owned()));
                            *response.status_mut() = hyper::StatusCode::SERVICE_UNAVAILABLE;
                            Ok(response)
                        } else {
                            service.call(req.map(s3s::Body::from)).await
                        };
                        if let Ok(response) = &response {
                            log.lock().expect("log").push(Request {
                                method,
                                path,
                                query,
                                status: response.status().as_u16(),
                            });
                        }
                        response
                    }
                },
            );
            let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(socket), handler)
                .await;
        });
    }
}
