//! The state directory: its layout, atomic writes, the lock, reads that
//! move a corrupt file aside, and what the server passes over.
//!
//! Every file the control service writes goes through [`write_atomic`], the
//! crate's one atomic write ([`stdx::atomic`]), so a reader (or a restart
//! after a crash) sees either the old content or the new one, never half of
//! it.
//!
//! The directory is shared: the real backend (`sra-cli`) and the desktop
//! client read and write the same `settings.json` and `configs/`, and a
//! person may edit them. So the server keeps no copy of a state file in
//! memory: every read reads the file as it is now, and every change takes
//! [`lock`] (an advisory lock on [`layout::LOCK`] that other programs may
//! take too), reads the file, applies the change and writes it atomically.
//! Files and folders the server did not make are passed over ([`Strays`]),
//! never fatal. This module knows nothing about what the files mean.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use anyhow::Context;

use crate::error::{Error, Result};
use crate::logs::LogBuffer;
use stdx::atomic;

/// The layout of the state directory, the one place its names are spelled.
pub mod layout {
    /// The task configurations, `configs/<name>.json`.
    pub const CONFIGS: &str = "configs";
    /// The suffix of a configuration's file in [`CONFIGS`].
    pub const CONFIG_SUFFIX: &str = ".json";
    /// The application settings.
    pub const SETTINGS: &str = "settings.json";
    /// The extensions, one folder each: `extensions/<id>/`.
    pub const EXTENSIONS: &str = "extensions";
    /// An extension's manifest, the extension's own file.
    pub const EXTENSION_MANIFEST: &str = "extension.json";
    /// An extension's stored configuration, the server's file.
    pub const EXTENSION_CONFIG: &str = "config.json";
    /// The backend's working files (the screenshot, a temporary
    /// configuration, the child's home folder).
    pub const BACKEND: &str = "backend";
    /// Where the backend saves the screenshot.
    pub const SCREENSHOT: &str = "backend/screenshot.png";
    /// Where a configuration run with `persist: false` is written for the
    /// backend to read.
    pub const TEMPORARY_CONFIG: &str = "backend/run-config.json";
    /// The backend's home folder (see `supervisor::app_data_home`).
    pub const BACKEND_HOME: &str = "backend/home";
    /// The lock every change to a state file holds ([`super::lock`]).
    pub const LOCK: &str = "state.lock";
    /// What a corrupt file is renamed to: `<name>.corrupt-<n>`.
    pub const CORRUPT_INFIX: &str = ".corrupt-";

    /// Whether `name` is one of the server's own names at the top of the
    /// state directory (a file moved aside as corrupt included).
    pub fn is_ours(name: &str) -> bool {
        [CONFIGS, SETTINGS, EXTENSIONS, BACKEND, LOCK].contains(&name) || is_moved_aside(name)
    }

    /// Whether `name` is a file the server moved aside (`<name>.corrupt-<n>`).
    pub fn is_moved_aside(name: &str) -> bool {
        name.rsplit_once(CORRUPT_INFIX).is_some_and(|(stem, n)| {
            !stem.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
        })
    }
}

/// The lock held while a state file is read, changed and written: an
/// exclusive advisory lock (`flock` on Unix, `LockFileEx` on Windows) on
/// `<state>/state.lock`, taken on a file opened for this change alone, so
/// it also orders the server's own threads. Another program that takes the
/// same lock around its read-modify-write is never interleaved with the
/// server's; one that does not may still rewrite the file between the
/// server's read and its write, and then the later write wins (SECURITY.md).
#[derive(Debug)]
pub struct StateLock {
    _file: fs::File,
}

/// How long a change waits for [`StateLock`] while another program holds
/// it before the client is answered 503 ([`Error::Busy`]). Another
/// program's read-modify-write of a state file takes milliseconds; a lock
/// held longer is a program that holds it on purpose (or hangs), and a
/// client is better told so than left waiting.
pub const LOCK_WAIT: Duration = Duration::from_secs(5);

/// Takes [`StateLock`] of the state directory `state_dir`, waiting up to
/// [`LOCK_WAIT`] while another program holds it; then [`Error::Busy`]. The
/// wait blocks the calling thread: callers run it off the threads that
/// answer requests ([`wait_off_thread`]). A `state.lock` that is not a regular
/// file (a FIFO, a folder, a link) is left as it is and refused with a
/// storage error that says what it is; it is never opened in a way that
/// blocks.
pub fn lock(state_dir: &Path) -> Result<StateLock> {
    let path = state_dir.join(layout::LOCK);
    let refused = |why: String| {
        tracing::error!("cannot lock {}: {why}", path.display());
        Error::Storage(format!(
            "cannot take the state directory's lock `{}`: {why}; help: check that the state directory is writable and that `{}` is a file",
            layout::LOCK,
            layout::LOCK,
        ))
    };
    let file = open_regular(&path, Access::Lock).map_err(|e| match e {
        Opened::Stray(kind) => refused(format!("it is {}, not a file", kind.what())),
        Opened::Io(e) => refused(cause(&e)),
    })?;
    match file.try_lock() {
        Ok(()) => return Ok(StateLock { _file: file }),
        Err(fs::TryLockError::Error(e)) => return Err(refused(cause(&e))),
        Err(fs::TryLockError::WouldBlock) => {}
    }
    // Held: wait in the kernel's queue of the lock (so a program that takes
    // it again and again cannot starve the server, as polling could), on a
    // thread of its own, for at most LOCK_WAIT. A wait given up ends when
    // that thread gets the lock: it drops it at once, as nobody takes it.
    // Such threads are bounded too: a wait given up keeps its thread until
    // the other program lets go, so while it holds on, changes beyond
    // [`waiting_bound`] waiting threads are refused at once.
    static WAITERS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    use std::sync::atomic::Ordering::SeqCst;
    if WAITERS.fetch_add(1, SeqCst) >= waiting_bound() {
        WAITERS.fetch_sub(1, SeqCst);
        return Err(Error::Busy(format!(
            "another program holds the state directory's lock `{}` and {} changes already wait for it; nothing was changed; help: try again once that program is done, or close it",
            layout::LOCK,
            waiting_bound()
        )));
    }
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let locked = file.lock().map(|()| file);
        WAITERS.fetch_sub(1, SeqCst);
        let _ = sender.send(locked);
    });
    match receiver.recv_timeout(LOCK_WAIT) {
        Ok(Ok(file)) => Ok(StateLock { _file: file }),
        Ok(Err(e)) => Err(refused(cause(&e))),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            Err(refused("the wait for it ended".to_string()))
        }
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            tracing::warn!(
                "{} is held by another program for more than {} s; the change is refused",
                path.display(),
                LOCK_WAIT.as_secs()
            );
            Err(Error::Busy(format!(
                "another program holds the state directory's lock `{}` and has not released it within {} s; nothing was changed; help: try again once that program is done, or close it",
                layout::LOCK,
                LOCK_WAIT.as_secs()
            )))
        }
    }
}

/// How many requests at once may wait on the disk or on [`lock`] off the
/// request threads ([`wait_off_thread`]): twice the machine's cores, at
/// least 4. Each holds one thread while it waits, so this bounds the
/// threads the state directory ever costs, whatever the load.
pub fn waiting_bound() -> usize {
    std::thread::available_parallelism().map_or(4, |n| (n.get() * 2).max(4))
}

/// The permits of [`wait_off_thread`], one per thread that may wait.
fn waiting_permits() -> &'static tokio::sync::Semaphore {
    static PERMITS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    PERMITS.get_or_init(|| tokio::sync::Semaphore::new(waiting_bound()))
}

/// Runs `work`, which may wait on the disk or on [`lock`], off the threads
/// that answer requests, with at most [`waiting_bound`] such works at once
/// (the others wait for a permit without a thread): on a multi-threaded
/// runtime the worker hands its other tasks to another thread first
/// (`block_in_place`), so pages, reads and log streams keep answering.
/// Elsewhere (a current-thread runtime) `work` just runs.
pub async fn wait_off_thread<T>(work: impl FnOnce() -> T) -> T {
    // The semaphore is never closed, so a permit always comes.
    let _permit = waiting_permits().acquire().await;
    blocking(work)
}

/// Runs the read `work` on the request thread, as most reads need no wait:
/// a state file is opened without blocking ([`open_regular`]) and read from
/// memory. Only a read that finds a file being written must wait for it
/// ([`SETTLING`]); it gives up at once and `work` runs again through
/// [`wait_off_thread`]. So reads cost no thread of their own, and a lock
/// held elsewhere never stalls one (reads do not take it).
pub async fn read<T>(work: impl Fn() -> T) -> T {
    let quick = QUICK.with(|quick| {
        quick.set(Quick::Trying);
        let value = work();
        (quick.replace(Quick::Off) == Quick::Trying).then_some(value)
    });
    match quick {
        Some(value) => value,
        None => wait_off_thread(work).await,
    }
}

/// Whether the read running on this thread may wait ([`read`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quick {
    /// Outside [`read`]'s first try: reads wait as they need to.
    Off,
    /// In [`read`]'s first try: a read that must wait gives up instead.
    Trying,
    /// A read of the first try gave up: its value is thrown away.
    GaveUp,
}

thread_local! {
    /// [`Quick`] of this thread. The first try of [`read`] runs without an
    /// `.await`, so it never moves to another thread while this is set.
    static QUICK: std::cell::Cell<Quick> = const { std::cell::Cell::new(Quick::Off) };
}

/// Whether a read may wait here; if not, records that it gave up.
fn may_wait() -> bool {
    QUICK.with(|quick| match quick.get() {
        Quick::Off => true,
        Quick::Trying | Quick::GaveUp => {
            quick.set(Quick::GaveUp);
            false
        }
    })
}

/// Runs `work` off the request threads without a permit: only for work
/// that is already one at a time (a job start holds the backend's pipe).
/// Prefer [`wait_off_thread`].
pub fn blocking<T>(work: impl FnOnce() -> T) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current() {
        Ok(handle) if handle.runtime_flavor() == RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(work)
        }
        _ => work(),
    }
}

/// What is found where a state file belongs and is not one: never opened
/// for reading, never written over, never moved aside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrayKind {
    Link,
    Fifo,
    Socket,
    Device,
    Folder,
    /// A regular file where a folder belongs.
    File,
    Other,
}

impl StrayKind {
    fn of(file_type: fs::FileType) -> Option<StrayKind> {
        #[cfg(unix)]
        use std::os::unix::fs::FileTypeExt as _;
        if file_type.is_file() {
            return None;
        }
        Some(if file_type.is_symlink() {
            StrayKind::Link
        } else if file_type.is_dir() {
            StrayKind::Folder
        } else {
            #[cfg(unix)]
            {
                if file_type.is_fifo() {
                    return Some(StrayKind::Fifo);
                }
                if file_type.is_socket() {
                    return Some(StrayKind::Socket);
                }
                if file_type.is_block_device() || file_type.is_char_device() {
                    return Some(StrayKind::Device);
                }
            }
            StrayKind::Other
        })
    }

    /// What it is, for a message: "a FIFO".
    pub fn what(self) -> &'static str {
        match self {
            StrayKind::Link => "a symbolic link",
            StrayKind::Fifo => "a FIFO (named pipe)",
            StrayKind::Socket => "a socket",
            StrayKind::Device => "a device",
            StrayKind::Folder => "a folder",
            StrayKind::File => "a file",
            StrayKind::Other => "not a regular file",
        }
    }
}

/// What is at `path`, without following a link and without opening it:
/// `None` when nothing is, `Some(None)` for a regular file.
fn kind_at(path: &Path) -> Option<Option<StrayKind>> {
    fs::symlink_metadata(path)
        .ok()
        .map(|meta| StrayKind::of(meta.file_type()))
}

/// The first folder between the state directory `root` and `path` (the
/// state directory itself excluded, `path` itself excluded) that is not a
/// real folder, and what it is: a link there would lead outside. Checked
/// before each read and write. A path not under `root` (the simulated
/// backend reads any path it is given, as the real program does) has only
/// its last component checked, by the open.
fn stray_folder_on_the_way(root: &Path, path: &Path) -> Option<(PathBuf, StrayKind)> {
    let below = path.parent()?.strip_prefix(root).ok()?;
    let mut folder = root.to_path_buf();
    for part in below.components() {
        folder.push(part);
        if let Some(kind) = stray_folder(&folder) {
            return Some((folder, kind));
        }
    }
    None
}

/// What is at `path` when a folder belongs there and something else is
/// (a link to a folder included), without following it; `None` for a real
/// folder or nothing.
pub fn stray_folder(path: &Path) -> Option<StrayKind> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_dir() => None,
        Ok(meta) => Some(StrayKind::of(meta.file_type()).unwrap_or(StrayKind::File)),
        Err(_) => None,
    }
}

/// Why a state file could not be opened.
enum Opened {
    /// Something other than a regular file is there (or on the way to it).
    Stray(StrayKind),
    Io(std::io::Error),
}

/// How a state file is opened.
#[derive(Clone, Copy)]
enum Access {
    Read,
    /// `state.lock`: created when missing, opened for writing.
    Lock,
}

/// Opens `path` if, and only if, it is a regular file: without following
/// a link at its last component (`O_NOFOLLOW`), without waiting for a
/// writer or a reader (`O_NONBLOCK`, so a FIFO never blocks the open), and
/// checked on the open file (`fstat`) before a byte is read. Anything else
/// is an [`Opened::Stray`] and is left as it is.
fn open_regular(path: &Path, access: Access) -> std::result::Result<fs::File, Opened> {
    let mut options = fs::OpenOptions::new();
    match access {
        Access::Read => options.read(true),
        Access::Lock => options.write(true).create(true).truncate(false),
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = match options.open(path) {
        Ok(file) => file,
        Err(e) => {
            // A link (ELOOP), or a FIFO nobody reads (ENXIO): what is
            // there decides, not the error.
            return Err(match kind_at(path) {
                Some(Some(kind)) => Opened::Stray(kind),
                _ => Opened::Io(e),
            });
        }
    };
    let meta = file.metadata().map_err(Opened::Io)?;
    if let Some(kind) = StrayKind::of(meta.file_type()) {
        return Err(Opened::Stray(kind));
    }
    Ok(file)
}

/// Files and folders in the state directory that the server did not make:
/// each is left as it is, never read as state, and named once in the log
/// (the backend log clients read, by its path inside the state directory,
/// and the server's log by its full path), whenever it is first met: at
/// start-up, on a reload or on any request. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Strays {
    state_dir: Arc<PathBuf>,
    named: Arc<Mutex<HashSet<PathBuf>>>,
    log: LogBuffer,
}

impl Strays {
    pub fn new(state_dir: &Path, log: LogBuffer) -> Strays {
        Strays {
            state_dir: Arc::new(state_dir.to_path_buf()),
            named: Arc::default(),
            log,
        }
    }

    /// The state directory.
    pub fn root(&self) -> &Path {
        &self.state_dir
    }

    /// Whether `path` is met for the first time (and is now remembered).
    fn first_time(&self, path: &Path) -> bool {
        self.named
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(path.to_path_buf())
    }

    /// Names `path` in the log the first time it is passed over; `what`
    /// says what it is not (for example "a configuration").
    pub fn pass_over(&self, path: &Path, what: &str) {
        if !self.first_time(path) {
            return;
        }
        let shown = self.shown(path);
        tracing::info!("{} is not {what}; the server ignores it", path.display());
        self.log.warning(&format!(
            "`{shown}` in the state directory is not {what}; it is left as it is and ignored"
        ));
    }

    /// Names `path`, found where a state file (or a folder on the way to
    /// one) belongs, in the log the first time it is met, saying what it is.
    pub fn pass_over_kind(&self, path: &Path, kind: StrayKind) {
        if !self.first_time(path) {
            return;
        }
        let shown = self.shown(path);
        let what = kind.what();
        tracing::info!(
            "{} is {what}, not a file; the server ignores it",
            path.display()
        );
        self.log.warning(&format!(
            "`{shown}` in the state directory is {what} where a file of the server belongs; it is left as it is and ignored"
        ));
    }

    /// `path` as messages show it: inside the state directory.
    fn shown(&self, path: &Path) -> String {
        stdx::relpath::below(&self.state_dir, path)
    }

    /// Passes over every entry at the top of the state directory that is
    /// not one of the server's names ([`layout::is_ours`]) nor a temporary
    /// file of a write a crash cut short.
    pub fn scan_top(&self) {
        for entry in fs::read_dir(&*self.state_dir)
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if !layout::is_ours(&name) && !is_leftover(&name) {
                self.pass_over(&entry.path(), "a file of the server");
            }
        }
    }
}

/// Writes `bytes` to `path` atomically ([`stdx::atomic`]), readable by
/// its owner only: configurations hold credentials. (The simulator's
/// screenshot; state files go through [`write_json`].)
pub fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    atomic::write_with(path, bytes, atomic::Options::PRIVATE)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// How a message to a client names a state file: by what it holds
/// (`configuration `Default``, `the stored configuration of extension
/// `daily-checkin``), never by its path on the server. The full path goes
/// to the server's log.
pub fn describe(path: &Path) -> String {
    let name = |p: Option<&Path>| {
        p.and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let file = name(Some(path));
    let parent = path.parent();
    let folder = name(parent);
    let grandparent = name(parent.and_then(Path::parent));
    match (grandparent.as_str(), folder.as_str(), file.as_str()) {
        (_, _, layout::SETTINGS) => "the settings".to_string(),
        (_, layout::CONFIGS, file) if file.ends_with(layout::CONFIG_SUFFIX) => {
            format!(
                "configuration `{}`",
                &file[..file.len() - layout::CONFIG_SUFFIX.len()]
            )
        }
        (layout::EXTENSIONS, id, layout::EXTENSION_CONFIG) => {
            format!("the stored configuration of extension `{id}`")
        }
        (layout::EXTENSIONS, id, layout::EXTENSION_MANIFEST) => {
            format!("the manifest of extension `{id}`")
        }
        (_, layout::BACKEND, "screenshot.png") => "the screenshot".to_string(),
        (_, _, file) => format!("`{file}`"),
    }
}

/// What went wrong, without the path some I/O errors carry: the operating
/// system's message, or the kind of error.
fn cause(error: &std::io::Error) -> String {
    match error.raw_os_error() {
        Some(code) => std::io::Error::from_raw_os_error(code).to_string(),
        None => error.kind().to_string(),
    }
}

/// Refuses a write or a removal of `path` when something other than a
/// regular file is there, or when a folder on the way to it is not a real
/// folder (a link would lead outside the state directory): a 409 that
/// says what is there; it is left as it is and nothing is written.
fn refuse_stray(strays: &Strays, path: &Path, verb: &str) -> Result<()> {
    let found = stray_folder_on_the_way(strays.root(), path).or_else(|| {
        kind_at(path)
            .flatten()
            .map(|kind| (path.to_path_buf(), kind))
    });
    let Some((at, kind)) = found else {
        return Ok(());
    };
    strays.pass_over_kind(&at, kind);
    Err(Error::Conflict(format!(
        "cannot {verb} {}: `{}` in the state directory is {}, where the server keeps a file; it is left as it is and nothing was changed; help: move it away, then try again",
        describe(path),
        strays.shown(&at),
        kind.what()
    )))
}

/// Serializes `value` as pretty JSON with a trailing newline and writes it
/// atomically, inside the state directory only ([`refuse_stray`]). A
/// failed write is an [`Error::Storage`] that says which file
/// ([`describe`]) and why, without its path (logged); the previous content
/// stays.
pub fn write_json(strays: &Strays, path: &Path, value: &serde_json::Value) -> Result<()> {
    refuse_stray(strays, path, "save")?;
    let mut text = serde_json::to_string_pretty(value).context("cannot serialize JSON")?;
    text.push('\n');
    atomic::write_with(path, text.as_bytes(), atomic::Options::PRIVATE).map_err(|e| {
        tracing::error!("cannot write {}: {e}", path.display());
        Error::Storage(format!(
            "cannot save {}: {}; the previous version is unchanged; help: check that the state directory is writable and the disk has room",
            describe(path),
            cause(&e)
        ))
    })
}

/// Removes a state file (a regular file only: [`refuse_stray`]). A
/// removal the disk refuses (a read-only state directory) is an
/// [`Error::Storage`] that names the file and the cause, like a refused
/// write.
pub fn remove(strays: &Strays, path: &Path) -> Result<()> {
    refuse_stray(strays, path, "delete")?;
    fs::remove_file(path).map_err(|e| {
        tracing::error!("cannot delete {}: {e}", path.display());
        Error::Storage(format!(
            "cannot delete {}: {}; help: check that the state directory is writable",
            describe(path),
            cause(&e)
        ))
    })
}

/// Why a state file cannot be used as it is: `None` when it can. The
/// check of a kind of file (a configuration must be an object, a setting
/// of the right type), applied after it parsed as JSON.
pub type Check<'a> = &'a dyn Fn(&serde_json::Value) -> Option<String>;

/// Any JSON value will do.
pub fn any_json(_: &serde_json::Value) -> Option<String> {
    None
}

/// What reading a state file found.
enum Found {
    Absent,
    Value(serde_json::Value),
    /// Not usable (`problem`), and moved aside to `aside`.
    MovedAside {
        problem: String,
        aside: PathBuf,
    },
    /// Something other than a regular file at `at` (the file's path or a
    /// folder on the way to it): left as it is.
    Stray {
        at: PathBuf,
        kind: StrayKind,
    },
    /// A file that could not be read (permissions) or moved aside.
    Unreadable(anyhow::Error),
    /// A file being written, found by a read that may not wait ([`read`]):
    /// nothing was judged, the read runs again where it may wait.
    GaveUp,
}

/// A file that does not parse (or that its check refuses) and changed
/// less than this long ago is read again: another program that writes it
/// in place (truncate, then write; 62 ms of an empty file measured on an
/// idle machine) is still writing. Eight times the measured gap, for a
/// loaded machine.
pub const SETTLING: Duration = Duration::from_millis(500);

/// The longest a read waits for a file that keeps changing to settle;
/// then what is there is judged.
pub const SETTLE_LIMIT: Duration = Duration::from_secs(2);

/// The pause between two reads of a file that is settling.
const REREAD_PAUSE: Duration = Duration::from_millis(25);

/// The size and modification time of a file as read, to see whether it
/// changed between two reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
}

impl Stamp {
    /// Whether the file changed less than [`SETTLING`] ago (or claims a
    /// time to come).
    fn is_recent(&self) -> bool {
        self.modified.is_some_and(|modified| {
            SystemTime::now()
                .duration_since(modified)
                .map_or(true, |age| age < SETTLING)
        })
    }
}

/// The bytes of the regular file `path` ([`open_regular`]) and its stamp.
fn read_regular(path: &Path) -> std::result::Result<(Vec<u8>, Stamp), Opened> {
    use std::io::Read as _;
    let mut file = open_regular(path, Access::Read)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(Opened::Io)?;
    let meta = file.metadata().map_err(Opened::Io)?;
    Ok((
        bytes,
        Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
        },
    ))
}

/// The bytes of a file in the state directory `root` that is not a state
/// file (an extension's manifest, the screenshot), read as state files
/// are: a regular file only, never through a link out of `root`, never
/// blocked on a FIFO. Anything else is an error that says what is there.
pub fn read_file(root: &Path, path: &Path) -> std::io::Result<Vec<u8>> {
    let stray = |kind: StrayKind| {
        std::io::Error::other(format!(
            "{} is {}, not a file",
            stdx::relpath::below(root, path),
            kind.what()
        ))
    };
    if let Some((_, kind)) = stray_folder_on_the_way(root, path) {
        return Err(stray(kind));
    }
    match read_regular(path) {
        Ok((bytes, _)) => Ok(bytes),
        Err(Opened::Stray(kind)) => Err(stray(kind)),
        Err(Opened::Io(e)) => Err(e),
    }
}

/// Reads `path` and judges it with `check`. A file that is not JSON or
/// that `check` refuses is read again while it is settling ([`SETTLING`],
/// up to [`SETTLE_LIMIT`]); one that stays so is moved aside to
/// `<name>.corrupt-<n>`. Anything but a regular file, at `path` or on the
/// way to it, is a stray: named once, never opened in a way that blocks,
/// left as it is.
fn find(strays: &Strays, path: &Path, check: Check<'_>) -> Found {
    if let Some((at, kind)) = stray_folder_on_the_way(strays.root(), path) {
        strays.pass_over_kind(&at, kind);
        return Found::Stray { at, kind };
    }
    let started = Instant::now();
    let mut last: Option<Stamp> = None;
    let problem = loop {
        let (bytes, stamp) = match read_regular(path) {
            Ok(read) => read,
            Err(Opened::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => return Found::Absent,
            Err(Opened::Stray(kind)) => {
                strays.pass_over_kind(path, kind);
                return Found::Stray {
                    at: path.to_path_buf(),
                    kind,
                };
            }
            Err(Opened::Io(e)) => {
                return Found::Unreadable(
                    anyhow::Error::new(e).context(format!("cannot read {}", path.display())),
                );
            }
        };
        let problem = match parse(&bytes) {
            Ok(value) => match check(&value) {
                None => return Found::Value(value),
                Some(problem) => problem,
            },
            Err(problem) => format!("not valid JSON: {problem}"),
        };
        let settling = stamp.is_recent() || last.is_some_and(|last| last != stamp);
        if !settling || started.elapsed() >= SETTLE_LIMIT {
            break problem;
        }
        if !may_wait() {
            return Found::GaveUp;
        }
        last = Some(stamp);
        std::thread::sleep(REREAD_PAUSE);
    };
    match move_aside(path) {
        Ok(aside) => Found::MovedAside { problem, aside },
        Err(e) => Found::Unreadable(e),
    }
}

/// Reads a JSON state file as it is now; `Ok(None)` when it does not exist.
/// A file that is not JSON or that `check` refuses (corrupted while the
/// server ran) is moved aside like one found at start-up
/// ([`read_json_at_start`]) and is an [`Error::Storage`] (a 500) that says
/// so once and why; the next read finds it absent. Something other than a
/// regular file where the file belongs is a 404 that says what is there.
/// Messages name the file by [`describe`], the log by its path. Reads may
/// wait for a file being written ([`SETTLE_LIMIT`]): call it through
/// [`read`], which runs it on the request thread unless it must wait.
pub fn read_document(
    strays: &Strays,
    path: &Path,
    check: Check<'_>,
) -> Result<Option<serde_json::Value>> {
    match find(strays, path, check) {
        Found::Absent => Ok(None),
        Found::Value(value) => Ok(Some(value)),
        Found::GaveUp => Err(Error::Busy(format!(
            "{} is being written; help: try again",
            describe(path)
        ))),
        Found::Stray { at, kind } => Err(Error::NotFound(format!(
            "{} cannot be read: `{}` in the state directory is {}, not a file; the server leaves it as it is and ignores it; help: move it away, or put the file in its place",
            describe(path),
            strays.shown(&at),
            kind.what()
        ))),
        Found::MovedAside { problem, aside } => {
            tracing::warn!(
                "{} cannot be used ({problem}); moved it to {}",
                path.display(),
                aside.display()
            );
            Err(Error::Storage(format!(
                "{} cannot be used ({problem}) and was moved aside to `{}` beside it; the next request finds it absent; help: repair the file and put it back, or write it again",
                describe(path),
                aside
                    .file_name()
                    .map(|n| n.to_string_lossy())
                    .unwrap_or_default()
            )))
        }
        Found::Unreadable(e) => {
            tracing::error!("{e:#}");
            let why = e
                .downcast_ref::<std::io::Error>()
                .map_or_else(|| "it could not be moved aside".to_string(), cause);
            Err(Error::Storage(format!(
                "cannot read {}: {why}; help: check the state directory",
                describe(path)
            )))
        }
    }
}

/// [`read_document`] of any JSON value.
pub fn read_json(strays: &Strays, path: &Path) -> Result<Option<serde_json::Value>> {
    read_document(strays, path, &any_json)
}

/// The JSON value of a state file's bytes, or why they are not one.
fn parse(bytes: &[u8]) -> std::result::Result<serde_json::Value, String> {
    match std::str::from_utf8(bytes) {
        Ok(text) => serde_json::from_str(text).map_err(|e| e.to_string()),
        Err(e) => Err(format!("not UTF-8 ({e})")),
    }
}

/// Whether `name` is the name of a temporary file of [`stdx::atomic`]
/// (`.tmp-<6 letters or digits>.part`): a write cut short by a crash.
pub fn is_leftover(name: &str) -> bool {
    name.strip_prefix(".tmp-")
        .and_then(|rest| rest.strip_suffix(".part"))
        .is_some_and(|middle| {
            middle.len() == 6 && middle.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// Removes the temporary files that writes cut short by a crash left in
/// the folders where the service writes (the state directory, `configs/`,
/// `backend/` and each extension's folder), and only those: files named as
/// [`is_leftover`] says. Returns how many it removed; a file it cannot
/// remove is logged and left.
pub fn sweep_leftovers(state_dir: &Path) -> usize {
    let mut folders = vec![
        state_dir.to_path_buf(),
        state_dir.join(layout::CONFIGS),
        state_dir.join(layout::BACKEND),
    ];
    if let Ok(entries) = fs::read_dir(state_dir.join(layout::EXTENSIONS)) {
        folders.extend(
            entries
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.path()),
        );
    }
    let mut removed = 0;
    for folder in folders {
        let Ok(entries) = fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let is_ours = entry.file_name().to_str().is_some_and(is_leftover)
                && entry.file_type().is_ok_and(|t| t.is_file());
            if !is_ours {
                continue;
            }
            match fs::remove_file(entry.path()) {
                Ok(()) => removed += 1,
                Err(e) => {
                    tracing::warn!("cannot remove the leftover {}: {e}", entry.path().display())
                }
            }
        }
    }
    if removed > 0 {
        tracing::info!("removed {removed} temporary file(s) left by writes a crash cut short");
    }
    removed
}

/// Reads a JSON state file at start-up. A file that is not valid JSON (a
/// crash of another program, a hand edit) or that `check` refuses is moved
/// aside to `<name>.corrupt-<n>`, reported on stderr by path with the
/// reason, and read as absent, so the service starts. Something other
/// than a regular file where the file belongs is named once and read as
/// absent (the caller must not write over it: [`write_json`] refuses).
/// Only a file that cannot be read at all stops it.
pub fn read_json_at_start(
    strays: &Strays,
    path: &Path,
    check: Check<'_>,
) -> anyhow::Result<Option<serde_json::Value>> {
    match find(strays, path, check) {
        Found::Absent | Found::Stray { .. } => Ok(None),
        Found::Value(value) => Ok(Some(value)),
        Found::MovedAside { problem, aside } => {
            tracing::warn!(
                "{} cannot be used ({problem}); moved it to {} and started without it",
                path.display(),
                aside.display()
            );
            Ok(None)
        }
        Found::Unreadable(e) => Err(e),
        Found::GaveUp => Err(anyhow::anyhow!(
            "{} is being written; start again once it is",
            path.display()
        )),
    }
}

/// What is at `path` when it is something other than a regular file (a
/// link, a FIFO, a folder), without following or opening it.
pub fn stray_kind(path: &Path) -> Option<StrayKind> {
    kind_at(path).flatten()
}

/// Whether a regular file (not a link to one) is at `path`.
pub fn is_regular_file(path: &Path) -> bool {
    kind_at(path) == Some(None)
}

/// Whether anything at all (a file, a link, a FIFO) is at `path`.
pub fn occupied(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}

/// Renames `path` to the first free `<path>.corrupt-<n>`.
pub fn move_aside(path: &Path) -> anyhow::Result<std::path::PathBuf> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for n in 1..10_000 {
        let aside = path.with_file_name(format!("{name}.corrupt-{n}"));
        if fs::symlink_metadata(&aside).is_err() {
            fs::rename(path, &aside).with_context(|| {
                format!(
                    "{} is corrupt and cannot be moved aside to {}",
                    path.display(),
                    aside.display()
                )
            })?;
            return Ok(aside);
        }
    }
    anyhow::bail!(
        "{} is corrupt and too many copies were already moved aside",
        path.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strays(dir: &Path) -> Strays {
        Strays::new(dir, LogBuffer::new(16))
    }

    /// Issue 22: a refused deletion answered "internal error"; it says the
    /// cause like a refused write. (A read-only directory does not stop
    /// root, who runs CI, so a name longer than the file system allows
    /// stands in.)
    #[test]
    fn a_refused_removal_names_the_file_and_the_cause() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(format!("{}.json", "a".repeat(300)));
        let err = remove(&strays(dir.path()), &path).unwrap_err();
        assert!(matches!(err, Error::Storage(_)), "{err:?}");
        let message = err.to_string();
        assert!(message.contains("cannot delete"), "{message}");
        assert!(message.contains("aaaa.json`"), "{message}");
        assert!(message.contains("writable"), "{message}");
        assert!(
            !message.contains(&*dir.path().to_string_lossy()),
            "{message}"
        );
    }

    /// Issue 59: a folder where a file belongs is a stray: its removal is
    /// refused with a message that says what is there, and it stays.
    #[test]
    fn a_folder_where_a_file_belongs_is_never_removed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("configs/Default.json");
        fs::create_dir_all(&path).unwrap();
        let err = remove(&strays(dir.path()), &path).unwrap_err();
        assert!(matches!(err, Error::Conflict(_)), "{err:?}");
        let message = err.to_string();
        assert!(message.contains("`configs/Default.json`"), "{message}");
        assert!(message.contains("is a folder"), "{message}");
        assert!(path.is_dir());
    }

    #[test]
    fn state_files_are_described_without_their_path() {
        let root = Path::new("/srv/state");
        for (path, what) in [
            ("settings.json", "the settings"),
            ("configs/Daily run.json", "configuration `Daily run`"),
            (
                "extensions/daily-checkin/config.json",
                "the stored configuration of extension `daily-checkin`",
            ),
            ("backend/screenshot.png", "the screenshot"),
        ] {
            assert_eq!(describe(&root.join(path)), what);
        }
    }

    #[test]
    fn only_the_tools_own_temporary_files_are_leftovers() {
        assert!(is_leftover(".tmp-a1B2c3.part"));
        for name in [
            ".tmp-notes.part.txt",
            ".tmp-.part",
            "tmp-abcdef.part",
            ".tmp-abcdefg.part",
            ".tmp-abc de.part",
            "x.part",
        ] {
            assert!(!is_leftover(name), "{name}");
        }
    }
}
