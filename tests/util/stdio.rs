//! The `activity-site` binary as a server on its stdin and stdout (the
//! language server, the agents' MCP server), the way an editor or an agent
//! runs it: spawned with stderr dropped, its messages read on a thread so
//! every wait has a deadline, its exit status, and a kill when the test
//! ends. Each protocol keeps its framing in its own module: it writes its
//! own frames with [`StdioServer::write`] and gives [`StdioServer::spawn`]
//! the function that reads one message.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write as _};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long a test waits for a message or for the server to end.
pub const WAIT: Duration = Duration::from_secs(30);

/// Reads one message from the server's stdout; `None` at its end.
pub type ReadMessage = fn(&mut dyn BufRead) -> Option<Value>;

/// One server process.
pub struct StdioServer {
    child: Child,
    /// `None` once closed.
    stdin: Option<ChildStdin>,
    incoming: mpsc::Receiver<Value>,
    /// Messages received and not yet taken by a wait.
    pending: Vec<Value>,
}

impl StdioServer {
    /// Starts the binary with `args`; `read` splits its stdout into messages.
    pub fn spawn<I, S>(args: I, read: ReadMessage) -> StdioServer
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut child = Command::new(env!("CARGO_BIN_EXE_activity-site"))
            .args(args)
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env_remove("LANG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let (sender, incoming) = mpsc::channel();
        std::thread::spawn(move || {
            while let Some(message) = read(&mut stdout) {
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        StdioServer {
            stdin: child.stdin.take(),
            child,
            incoming,
            pending: Vec::new(),
        }
    }

    /// Writes `bytes` to the server's stdin as they are (a frame of its protocol).
    pub fn write(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("the server reads");
        stdin.flush().expect("flush");
    }

    /// Closes the server's stdin, as an editor that goes away does.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The first message (received or pending) that `wanted` accepts; the
    /// others stay pending for later waits.
    pub fn wait(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.pending.iter().position(&wanted) {
            return self.pending.remove(i);
        }
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let message = match self.incoming.recv_timeout(left) {
                Ok(message) => message,
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    panic!("the server ended; pending: {:#?}", self.pending)
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    panic!("no awaited message; pending: {:#?}", self.pending)
                }
            };
            if wanted(&message) {
                return message;
            }
            self.pending.push(message);
        }
    }

    /// The messages earlier waits set aside, taken; those not read yet
    /// stay for later waits.
    pub fn take_pending(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.pending)
    }

    /// The server's exit code, once it ends (within [`WAIT`]).
    pub fn exit_code(&mut self) -> i32 {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.code().expect("exit code");
            }
            assert!(Instant::now() < deadline, "the server did not end");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
