//! The backend log: a bounded ring buffer of lines with increasing ids, and
//! subscriptions that follow it.
//!
//! A subscription holds only the id of the last line it delivered and reads
//! the ring itself, so a slow reader costs no memory: when it falls behind by
//! more than the ring holds, it learns how many lines it missed. It knows
//! nothing about SSE framing; [`LogEvent::id`] is what the stream sends as
//! `id:` and takes back as `Last-Event-ID`.
//!
//! Every line is at most [`MAX_LINE_BYTES`] long (a longer message is cut at
//! a character boundary and marked), and the ring holds at most
//! [`MAX_RING_BYTES`] of text besides its line count, so neither a huge
//! message nor many of them can grow the log, `GET /api/Backend/logs` or the
//! stream without bound.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

/// The longest line kept, in bytes (UTF-8), marker included.
pub const MAX_LINE_BYTES: usize = 8 * 1024;

/// The most text the ring keeps, in bytes; older lines leave first.
pub const MAX_RING_BYTES: usize = 4 * 1024 * 1024;

/// One log line and its id (ids start at 1 and never repeat within a run).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogEvent {
    pub id: u64,
    pub line: String,
}

/// What a subscription yields next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogItem {
    /// The next line.
    Line(LogEvent),
    /// Lines that left the ring before this reader got them.
    Missed { count: u64, resume_id: u64 },
    /// The log was closed (the server is shutting down): the last item.
    Closed,
}

/// The ring buffer shared by writers and subscriptions.
#[derive(Debug, Clone)]
pub struct LogBuffer {
    inner: Arc<LogInner>,
}

#[derive(Debug)]
struct LogInner {
    /// The lines; a std mutex, never held across an await.
    ring: Mutex<Ring>,
    /// The id of the newest line, so subscriptions can wait for more.
    newest: watch::Sender<u64>,
    /// Flips to true at shutdown, so subscriptions end at once.
    closed: watch::Sender<bool>,
}

#[derive(Debug)]
struct Ring {
    lines: VecDeque<LogEvent>,
    capacity: usize,
    /// The byte size of `lines`' text, kept at most [`MAX_RING_BYTES`].
    bytes: usize,
    next_id: u64,
}

impl LogBuffer {
    pub fn new(capacity: usize) -> LogBuffer {
        let (newest, _) = watch::channel(0);
        let (closed, _) = watch::channel(false);
        LogBuffer {
            inner: Arc::new(LogInner {
                ring: Mutex::new(Ring {
                    lines: VecDeque::with_capacity(capacity.min(4096)),
                    capacity: capacity.max(1),
                    bytes: 0,
                    next_id: 1,
                }),
                newest,
                closed,
            }),
        }
    }

    /// Appends a message with a timestamp and level. A message of several
    /// lines (an error and its traceback) becomes one entry per line, each
    /// with the prefix, so a reader that parses `time | level | text` from
    /// every line keeps the level. Returns the id of the last entry.
    pub fn push(&self, level: &str, message: &str) -> u64 {
        // The real backend's shape, `21:51:02 | INFO  | message`, which the
        // service's web UI splits into time, level and message.
        let time = chrono::Local::now().format("%H:%M:%S");
        let message = message.replace("\r\n", "\n").replace('\r', "\n");
        let mut id = 0;
        for part in message.split('\n') {
            id = self.push_line(format!("{time} | {level:<5} | {part}"));
        }
        id
    }

    /// Appends one line as it is (a line a backend process printed); a line
    /// break inside it is replaced by a space.
    pub fn push_raw(&self, line: &str) -> u64 {
        self.push_line(line.replace(['\r', '\n'], " "))
    }

    fn push_line(&self, line: String) -> u64 {
        let line = bound_line(line);
        let id = {
            let mut ring = self.inner.ring.lock().unwrap_or_else(|e| e.into_inner());
            let id = ring.next_id;
            ring.next_id += 1;
            while ring.lines.len() >= ring.capacity
                || (!ring.lines.is_empty() && ring.bytes + line.len() > MAX_RING_BYTES)
            {
                let Some(old) = ring.lines.pop_front() else {
                    break;
                };
                ring.bytes -= old.line.len();
            }
            ring.bytes += line.len();
            ring.lines.push_back(LogEvent { id, line });
            id
        };
        self.inner.newest.send_replace(id);
        id
    }

    /// Ends every subscription once it has read what the ring holds
    /// (shutdown): each then yields [`LogItem::Closed`] and nothing more.
    pub fn close(&self) {
        self.inner.closed.send_replace(true);
    }

    pub fn info(&self, message: &str) -> u64 {
        self.push("INFO", message)
    }

    pub fn warning(&self, message: &str) -> u64 {
        self.push("WARN", message)
    }

    pub fn error(&self, message: &str) -> u64 {
        self.push("ERROR", message)
    }

    /// The `count` most recent lines, oldest first.
    pub fn recent(&self, count: usize) -> Vec<String> {
        let ring = self.inner.ring.lock().unwrap_or_else(|e| e.into_inner());
        let skip = ring.lines.len().saturating_sub(count);
        ring.lines
            .iter()
            .skip(skip)
            .map(|e| e.line.clone())
            .collect()
    }

    /// The id of the newest line (0 before the first).
    pub fn newest_id(&self) -> u64 {
        *self.inner.newest.borrow()
    }

    /// A subscription yielding the lines after `after` (the `Last-Event-ID`),
    /// or only new lines when `after` is `None`.
    pub fn subscribe(&self, after: Option<u64>) -> LogSubscription {
        let receiver = self.inner.newest.subscribe();
        let newest = *receiver.borrow();
        LogSubscription {
            buffer: self.clone(),
            receiver,
            closed: self.inner.closed.subscribe(),
            ended: false,
            last: after.map_or(newest, |id| id.min(newest)),
        }
    }

    /// The first line after `last`, or how many were lost before the oldest kept one.
    fn after(&self, last: u64) -> Option<LogItem> {
        let ring = self.inner.ring.lock().unwrap_or_else(|e| e.into_inner());
        let first = ring.lines.front()?;
        if first.id > last + 1 {
            return Some(LogItem::Missed {
                count: first.id - last - 1,
                resume_id: first.id - 1,
            });
        }
        let index = usize::try_from(last + 1 - first.id).ok()?;
        ring.lines.get(index).cloned().map(LogItem::Line)
    }
}

/// Cuts a line longer than [`MAX_LINE_BYTES`] at a character boundary and
/// says how much was left out.
fn bound_line(mut line: String) -> String {
    if line.len() <= MAX_LINE_BYTES {
        return line;
    }
    // The marker is at most 48 bytes; keep room for it.
    let cut = stdx::chars::floor_char_boundary(&line, MAX_LINE_BYTES - 48);
    let dropped = line.len() - cut;
    line.truncate(cut);
    line.push_str(&format!(" [... {dropped} bytes truncated]"));
    // `truncate` keeps the allocation: without this a cut 1 MB message
    // would keep its megabyte in the ring for as long as the line stays.
    line.shrink_to_fit();
    line
}

/// A reader of the log that waits for new lines.
#[derive(Debug)]
pub struct LogSubscription {
    buffer: LogBuffer,
    receiver: watch::Receiver<u64>,
    /// Whether the log was closed.
    closed: watch::Receiver<bool>,
    /// Whether [`LogItem::Closed`] was delivered.
    ended: bool,
    /// Id of the last line delivered (or skipped).
    last: u64,
}

impl LogSubscription {
    /// The next item, waiting for it if needed. After a close, the lines
    /// left, then [`LogItem::Closed`], then `None`.
    pub async fn next(&mut self) -> Option<LogItem> {
        loop {
            if self.ended {
                return None;
            }
            // Mark the current value seen before reading the ring, so a line
            // pushed in between wakes the wait below.
            self.receiver.borrow_and_update();
            if let Some(item) = self.buffer.after(self.last) {
                self.last = match &item {
                    LogItem::Line(event) => event.id,
                    LogItem::Missed { resume_id, .. } => *resume_id,
                    LogItem::Closed => self.last,
                };
                return Some(item);
            }
            if *self.closed.borrow_and_update() {
                self.ended = true;
                return Some(LogItem::Closed);
            }
            tokio::select! {
                changed = self.receiver.changed() => changed.ok()?,
                changed = self.closed.changed() => changed.ok()?,
            }
        }
    }

    /// Like [`LogSubscription::next`] without waiting.
    pub fn try_next(&mut self) -> Option<LogItem> {
        let item = self.buffer.after(self.last)?;
        self.last = match &item {
            LogItem::Line(event) => event.id,
            LogItem::Missed { resume_id, .. } => *resume_id,
            LogItem::Closed => self.last,
        };
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ring_keeps_the_newest_lines() {
        let log = LogBuffer::new(3);
        for i in 0..5 {
            log.info(&format!("line {i}"));
        }
        let recent = log.recent(10);
        assert_eq!(recent.len(), 3);
        assert!(recent[0].ends_with("line 2"));
        assert!(log.recent(1)[0].ends_with("line 4"));
    }

    #[test]
    fn long_lines_are_cut_with_a_marker_and_the_ring_is_bounded_in_bytes() {
        let log = LogBuffer::new(100_000);
        log.info(&"é".repeat(MAX_LINE_BYTES));
        let line = &log.recent(1)[0];
        assert!(line.len() <= MAX_LINE_BYTES, "{}", line.len());
        let kept = log.inner.ring.lock().unwrap().lines[0].line.capacity();
        assert!(
            kept <= MAX_LINE_BYTES,
            "the ring keeps {kept} bytes for a cut line"
        );
        assert!(
            line.ends_with("bytes truncated]"),
            "{}",
            &line[line.len() - 40..]
        );
        for _ in 0..2 * MAX_RING_BYTES / MAX_LINE_BYTES {
            log.info(&"x".repeat(2 * MAX_LINE_BYTES));
        }
        let total: usize = log.recent(usize::MAX).iter().map(String::len).sum();
        assert!(total <= MAX_RING_BYTES, "{total}");
        assert!(total > MAX_RING_BYTES / 2, "{total}");
    }

    #[test]
    fn a_slow_subscription_learns_what_it_missed() {
        let log = LogBuffer::new(3);
        let mut sub = log.subscribe(None);
        for i in 0..5 {
            log.info(&format!("line {i}"));
        }
        assert_eq!(
            sub.try_next(),
            Some(LogItem::Missed {
                count: 2,
                resume_id: 2
            })
        );
        match sub.try_next() {
            Some(LogItem::Line(e)) => assert_eq!(e.id, 3),
            other => panic!("{other:?}"),
        }
    }
}
