//! The language server (`activity-site lsp`): `check`'s diagnostics as you
//! type, quick fixes, `fmt` as formatting and hover on times, over stdio.
//!
//! It serves `games.json` and `data/**` under one workspace root (the
//! client's root folder when it holds `games.json`, else `--root`). Every
//! check runs a [`site::LiveCheck`] on the open buffers overlaid on the files
//! on disk, so it reports exactly what `check` would after a save,
//! cross-file rules included, while a keystroke costs what it changes: the
//! schemas are compiled once, and only the edited document's game is
//! checked again (every game after an edit of `games.json`, a save or a
//! change on disk). Only files whose diagnostics changed are published
//! again, besides the edited one. Quick fixes are the [`Fix`]es the rules attach;
//! formatting is [`site::canonical_text`]. It never writes a file: edits go
//! back to the editor. Messages come from `lsp-server`'s types, read here by
//! a loop of our own so that a malformed message gets an error answer
//! instead of ending the server; it ends on `exit` or when stdin closes.
//!
//! # May know, may not know
//!
//! May know the checker and the builder's live check. May not know the
//! control crate, HTTP (axum, hyper, reqwest) or an async runtime: its
//! `Cargo.toml` names none of them, so the compiler refuses the arrow. That
//! it never writes a file is this crate's promise: it checks through
//! [`site::LiveCheck`], which writes nothing.

// The checker's modules, under the names every file of the server uses.
use activity_site_check::{
    chars, clock, diagnostics, i18n, kind, model, relpath, source, tree, validate,
};
use activity_site_site as site;
use activity_site_terminal as terminal;

mod hover;
pub mod text;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, Read as _, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use serde_json::{Value, json};

use crate::diagnostics::{Diagnostic, Fix, Severity};
use crate::i18n::{Lang, msg};
use crate::model::{DEFAULT_TIME_ZONE, Game};
use crate::source::Overlay;
use crate::tree::REGISTRY_PATH;
use text::{Encoding, Lines};

/// Largest message body read; a larger one is skipped with an error.
const MAX_MESSAGE: usize = 256 * 1024 * 1024;

/// Runs the server on stdin and stdout until `exit` or the end of stdin.
pub fn run(root: &Path, options: validate::Options) -> anyhow::Result<ExitCode> {
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("lsp-reader".to_string())
        .spawn(move || read_messages(std::io::stdin().lock(), &sender))?;
    let mut server = Server::new(root, options, std::io::stdout());
    loop {
        let Ok(first) = receiver.recv() else {
            // The client closed stdin without `exit`.
            return Ok(ExitCode::from(u8::from(!server.shut_down)));
        };
        // Take every message that is waiting, then check once: a burst of
        // keystrokes costs one check.
        let mut batch = vec![first];
        batch.extend(receiver.try_iter());
        for incoming in batch {
            if let Some(code) = server.handle(incoming)? {
                return Ok(code);
            }
        }
        server.publish_if_dirty()?;
    }
}

/// A message as read from the client.
enum Incoming {
    Message(Message),
    /// What could not be read as a JSON-RPC message, and why.
    Malformed(String),
}

/// Reads framed messages (`Content-Length` headers, then the body) until
/// the input ends. A bad header or body is reported and skipped.
fn read_messages(mut input: impl BufRead, sender: &std::sync::mpsc::Sender<Incoming>) {
    loop {
        let incoming = match read_frame(&mut input) {
            Ok(None) => return,
            Ok(Some(Ok(body))) => match serde_json::from_slice::<Message>(&body) {
                Ok(message) => Incoming::Message(message),
                Err(err) => Incoming::Malformed(format!("malformed message: {err}")),
            },
            Ok(Some(Err(problem))) => Incoming::Malformed(problem),
            Err(_) => return,
        };
        if sender.send(incoming).is_err() {
            return;
        }
    }
}

/// One frame: `Ok(None)` at the end of the input, `Ok(Some(Err(..)))` for a
/// frame that cannot be read (its bytes skipped when their length is known).
fn read_frame(input: &mut impl BufRead) -> std::io::Result<Option<Result<Vec<u8>, String>>> {
    let mut length: Option<Result<usize, String>> = None;
    let mut line = String::new();
    let mut any = false;
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(if any {
                Some(Err("the input ended inside a header".to_string()))
            } else {
                None
            });
        }
        let header = line.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            if any {
                break;
            }
            continue;
        }
        any = true;
        if let Some((name, value)) = header.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = Some(
                value
                    .trim()
                    .parse::<usize>()
                    .map_err(|_| format!("bad Content-Length `{}`", value.trim())),
            );
        }
    }
    let length = match length {
        None => return Ok(Some(Err("a message without Content-Length".to_string()))),
        Some(Err(problem)) => return Ok(Some(Err(problem))),
        Some(Ok(n)) => n,
    };
    if length > MAX_MESSAGE {
        std::io::copy(&mut input.take(length as u64), &mut std::io::sink())?;
        return Ok(Some(Err(format!(
            "a message of {length} bytes, more than the {MAX_MESSAGE} this server reads"
        ))));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    Ok(Some(Ok(body)))
}

/// An open document of the workspace.
struct Document {
    /// The URI as the client wrote it (diagnostics go back under it).
    uri: lsp::Uri,
    version: i32,
    text: String,
}

/// The state of one session.
struct Server<W: Write> {
    out: W,
    /// The root given on the command line; the client's folder may replace it.
    root: PathBuf,
    options: validate::Options,
    encoding: Encoding,
    /// The language of what the server says: the `locale` the client sent
    /// in `initialize`, else the process's (`--lang`, `LC_ALL`, `LANG`).
    lang: Lang,
    initialized: bool,
    shut_down: bool,
    /// Open documents of the workspace, by path relative to the root.
    documents: BTreeMap<String, Document>,
    /// The diagnostics of the last check, by file.
    diagnostics: BTreeMap<String, Vec<Diagnostic>>,
    /// What was last published, by URI, when not empty, so unchanged files
    /// are not sent again and files that became clean are sent an empty list.
    published: BTreeMap<String, Vec<lsp::Diagnostic>>,
    /// Files edited since the last check (always published after it).
    edited: BTreeSet<String>,
    /// Whether the last check is older than the buffers.
    dirty: bool,
    /// Whether the next publication compares every file's diagnostics with
    /// what was sent, rather than only the files whose diagnostics changed
    /// (after a file was closed or changed on disk, its text may differ
    /// from the one its diagnostics were sent for).
    compare_all: bool,
    /// The check kept between keystrokes.
    live: site::LiveCheck,
}

impl<W: Write> Server<W> {
    fn new(root: &Path, options: validate::Options, out: W) -> Self {
        let root = canonical(root);
        Server {
            out,
            live: site::LiveCheck::new(root.clone()),
            root,
            options,
            encoding: Encoding::default(),
            lang: Lang::current(),
            initialized: false,
            shut_down: false,
            documents: BTreeMap::new(),
            diagnostics: BTreeMap::new(),
            published: BTreeMap::new(),
            edited: BTreeSet::new(),
            dirty: false,
            compare_all: true,
        }
    }

    /// Handles one message; `Some(code)` when the server must end.
    fn handle(&mut self, incoming: Incoming) -> anyhow::Result<Option<ExitCode>> {
        // Everything said while handling a message is in the client's language.
        i18n::scoped(self.lang, || self.handle_in_language(incoming))
    }

    fn handle_in_language(&mut self, incoming: Incoming) -> anyhow::Result<Option<ExitCode>> {
        match incoming {
            Incoming::Malformed(problem) => {
                crate::terminal::say(format_args!("activity-site lsp: {problem}"));
                self.send_raw(&json!({
                    "jsonrpc": "2.0",
                    "id": null,
                    "error": {"code": ErrorCode::ParseError as i32, "message": problem},
                }))?;
            }
            Incoming::Message(Message::Request(request)) => self.request(request)?,
            Incoming::Message(Message::Notification(notification)) => {
                if notification.method == "exit" {
                    return Ok(Some(ExitCode::from(u8::from(!self.shut_down))));
                }
                self.notification(notification);
            }
            Incoming::Message(Message::Response(_)) => {}
        }
        Ok(None)
    }

    fn request(&mut self, request: Request) -> anyhow::Result<()> {
        let id = request.id.clone();
        if !self.initialized && request.method != "initialize" {
            return self.error(
                id,
                ErrorCode::ServerNotInitialized,
                "initialize first".to_string(),
            );
        }
        if self.shut_down {
            return self.error(
                id,
                ErrorCode::InvalidRequest,
                "the server is shutting down".to_string(),
            );
        }
        if matches!(
            request.method.as_str(),
            "textDocument/codeAction" | "textDocument/formatting"
        ) {
            // They read the diagnostics: bring them up to date, and send
            // them, so the client sees what the answer is based on.
            self.publish_if_dirty()?;
        }
        let result = match request.method.as_str() {
            "initialize" => params(request.params).map(|p| self.initialize(p)),
            "shutdown" => {
                self.shut_down = true;
                Ok(Value::Null)
            }
            "textDocument/codeAction" => params(request.params).map(|p| self.code_actions(p)),
            "textDocument/formatting" => params(request.params)
                .and_then(|p: lsp::DocumentFormattingParams| self.format(&p.text_document.uri)),
            "textDocument/hover" => params(request.params).map(|p| self.hover(p)),
            method => Err((
                ErrorCode::MethodNotFound,
                format!("this server does not handle `{method}`"),
            )),
        };
        match result {
            Ok(value) => self.send(Message::Response(Response::new_ok(id, value))),
            Err((code, message)) => self.error(id, code, message),
        }
    }

    fn notification(&mut self, notification: Notification) {
        if !self.initialized {
            return;
        }
        let method = notification.method.clone();
        let outcome = match method.as_str() {
            "textDocument/didOpen" => params(notification.params).map(|p| self.did_open(p)),
            "textDocument/didChange" => params(notification.params).map(|p| self.did_change(p)),
            "textDocument/didClose" => params(notification.params).map(|p| self.did_close(p)),
            // Saving changes disk, not the buffer; watched files change disk.
            // Files on disk are stamped by size and time, which a save
            // within the same tick may leave alike: check every game.
            "textDocument/didSave" | "workspace/didChangeWatchedFiles" => {
                self.live.forget_games();
                self.dirty = true;
                self.compare_all = true;
                Ok(())
            }
            _ => Ok(()),
        };
        if let Err((_, problem)) = outcome {
            crate::terminal::say(format_args!("activity-site lsp: {method}: {problem}"));
        }
    }

    fn initialize(&mut self, params: lsp::InitializeParams) -> Value {
        let offered = params
            .capabilities
            .general
            .and_then(|g| g.position_encodings)
            .unwrap_or_default();
        let offered: Vec<String> = offered.iter().map(|e| e.as_str().to_string()).collect();
        self.encoding = Encoding::negotiate(&offered);
        if let Some(lang) = params.locale.as_deref().and_then(Lang::parse) {
            self.lang = lang;
        }
        #[allow(deprecated)] // `rootUri` is what older clients send.
        let folders = params
            .workspace_folders
            .unwrap_or_default()
            .into_iter()
            .map(|f| f.uri)
            .chain(params.root_uri);
        for uri in folders {
            if let Some(path) = uri_path(&uri)
                && path.join(REGISTRY_PATH).is_file()
            {
                self.root = canonical(&path);
                break;
            }
        }
        if self.live.root() != self.root {
            self.live = site::LiveCheck::new(self.root.clone());
        }
        self.initialized = true;
        self.dirty = true;
        self.compare_all = true;
        json!({
            "capabilities": {
                "positionEncoding": self.encoding.name(),
                "textDocumentSync": {
                    "openClose": true,
                    "change": 2,
                    "save": {"includeText": false},
                },
                "codeActionProvider": {"codeActionKinds": ["quickfix"]},
                "documentFormattingProvider": true,
                "hoverProvider": true,
            },
            "serverInfo": {"name": "activity-site", "version": env!("CARGO_PKG_VERSION")},
        })
    }

    fn did_open(&mut self, params: lsp::DidOpenTextDocumentParams) {
        let document = params.text_document;
        let Some(rel) = self.relative(&document.uri) else {
            return;
        };
        self.edited.insert(rel.clone());
        self.documents.insert(
            rel,
            Document {
                uri: document.uri,
                version: document.version,
                text: document.text,
            },
        );
        self.dirty = true;
    }

    fn did_change(&mut self, params: lsp::DidChangeTextDocumentParams) {
        let Some(rel) = self.relative(&params.text_document.uri) else {
            return;
        };
        let Some(document) = self.documents.get_mut(&rel) else {
            return;
        };
        for change in params.content_changes {
            text::apply_change(
                &mut document.text,
                change.range,
                &change.text,
                self.encoding,
            );
        }
        document.version = params.text_document.version;
        self.edited.insert(rel);
        self.dirty = true;
    }

    fn did_close(&mut self, params: lsp::DidCloseTextDocumentParams) {
        if let Some(rel) = self.relative(&params.text_document.uri)
            && self.documents.remove(&rel).is_some()
        {
            // The file on disk counts again.
            self.dirty = true;
            self.compare_all = true;
        }
    }

    /// The path of `uri` relative to the root, when it is a file the
    /// checker reads: `games.json` or a JSON file under `data/`.
    fn relative(&self, uri: &lsp::Uri) -> Option<String> {
        let path = uri_path(uri)?;
        let path = match (path.parent(), path.file_name()) {
            (Some(parent), Some(name)) => canonical(parent).join(name),
            _ => path,
        };
        let rel = path.strip_prefix(&self.root).ok()?;
        // A path that is not UTF-8 names no source file.
        rel.to_str()?;
        let rel = crate::relpath::slashed(rel);
        let served = rel == REGISTRY_PATH
            || (rel.ends_with(".json") && crate::kind::of_source(&rel).is_some_and(|k| k.editor));
        served.then_some(rel)
    }

    /// Checks again when a buffer or a file changed, and publishes.
    fn publish_if_dirty(&mut self) -> anyhow::Result<()> {
        if !self.dirty {
            return Ok(());
        }
        let before = self.check();
        let compare_all = std::mem::take(&mut self.compare_all);
        let mut files: BTreeSet<String> = self.diagnostics.keys().cloned().collect();
        files.extend(self.edited.iter().cloned());
        let uris: BTreeMap<String, String> = files
            .into_iter()
            .map(|rel| (self.uri_of(&rel), rel))
            .collect();
        // Files published before and clean now get an empty list.
        let gone: Vec<String> = self
            .published
            .keys()
            .filter(|uri| !uris.contains_key(*uri))
            .cloned()
            .collect();
        for uri in gone {
            self.published.remove(&uri);
            self.send_diagnostics(&uri, Vec::new(), None)?;
        }
        for (uri, rel) in uris {
            let edited = self.edited.contains(&rel);
            // Same diagnostics on the same text: what was sent still holds.
            if !edited && !compare_all && before.get(&rel) == self.diagnostics.get(&rel) {
                continue;
            }
            let found = self.lsp_diagnostics(&rel);
            if !edited && self.published.get(&uri) == Some(&found) {
                continue;
            }
            let version = self.documents.get(&rel).map(|d| d.version);
            if found.is_empty() {
                self.published.remove(&uri);
            } else {
                self.published.insert(uri.clone(), found.clone());
            }
            self.send_diagnostics(&uri, found, version)?;
        }
        self.edited.clear();
        Ok(())
    }

    /// Runs the check on the buffers overlaid on the disk; returns the
    /// diagnostics of the check before.
    fn check(&mut self) -> BTreeMap<String, Vec<Diagnostic>> {
        let mut overlay = Overlay::new();
        for (rel, document) in &self.documents {
            overlay.insert(rel.clone(), document.text.clone());
        }
        let before = std::mem::take(&mut self.diagnostics);
        match self.live.check(&overlay, &self.options) {
            Ok(found) => {
                for diagnostic in found {
                    self.diagnostics
                        .entry(diagnostic.file.clone())
                        .or_default()
                        .push(diagnostic);
                }
            }
            Err(err) => {
                crate::terminal::say(format_args!("activity-site lsp: cannot check: {err:#}"))
            }
        }
        self.dirty = false;
        before
    }

    /// The text of `rel`: the buffer when open, else the file on disk.
    fn text_of(&self, rel: &str) -> String {
        match self.documents.get(rel) {
            Some(document) => document.text.clone(),
            None => std::fs::read(self.root.join(rel))
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                .unwrap_or_default(),
        }
    }

    fn uri_of(&self, rel: &str) -> String {
        match self.documents.get(rel) {
            Some(document) => document.uri.as_str().to_string(),
            None => path_uri(&self.root.join(rel)),
        }
    }

    /// The last check's diagnostics of `rel` in the protocol's terms.
    fn lsp_diagnostics(&self, rel: &str) -> Vec<lsp::Diagnostic> {
        let Some(found) = self.diagnostics.get(rel) else {
            return Vec::new();
        };
        let text = self.text_of(rel);
        let lines = Lines::new(&text);
        let uri: Option<lsp::Uri> = self.uri_of(rel).parse().ok();
        found
            .iter()
            .map(|d| to_lsp(d, &lines, self.encoding, uri.as_ref(), self.lang))
            .collect()
    }

    fn code_actions(&mut self, params: lsp::CodeActionParams) -> Value {
        let Some(rel) = self.relative(&params.text_document.uri) else {
            return json!([]);
        };
        let Some(found) = self.diagnostics.get(&rel) else {
            return json!([]);
        };
        let text = self.text_of(&rel);
        let lines = Lines::new(&text);
        let uri = params.text_document.uri;
        let wanted = params.range;
        let mut actions = Vec::new();
        for d in found {
            // The exact fix, preferred; else each choice the rule offers
            // (a `missing-id` with several candidates), none preferred.
            let exact = d
                .fix
                .iter()
                .map(|fix| (fix_title(&text, fix), fix, None, true));
            let choices = d
                .choices
                .iter()
                .map(|c| (c.title.render(self.lang), &c.fix, c.also.as_ref(), false));
            for (title, fix, also, preferred) in exact.chain(choices) {
                let diagnostic = to_lsp(d, &lines, self.encoding, Some(&uri), self.lang);
                let fix_range = lines.range(fix.start, fix.end, self.encoding);
                if !overlaps(diagnostic.range, wanted) && !overlaps(fix_range, wanted) {
                    continue;
                }
                let mut changes = serde_json::Map::new();
                changes.insert(
                    uri.as_str().to_owned(),
                    json!([{"range": fix_range, "newText": fix.replacement}]),
                );
                if let Some(also) = also {
                    // The twin's id too, in its file as this server reads it.
                    let other = self.text_of(&also.file);
                    let range =
                        Lines::new(&other).range(also.fix.start, also.fix.end, self.encoding);
                    changes.insert(
                        self.uri_of(&also.file),
                        json!([{"range": range, "newText": also.fix.replacement}]),
                    );
                }
                actions.push(json!({
                    "title": title,
                    "kind": "quickfix",
                    "diagnostics": [diagnostic],
                    "isPreferred": preferred,
                    "edit": {"changes": changes},
                }));
            }
        }
        Value::Array(actions)
    }

    fn format(&mut self, uri: &lsp::Uri) -> Result<Value, (ErrorCode, String)> {
        let Some(rel) = self.relative(uri) else {
            return Ok(json!([]));
        };
        let errors = self
            .diagnostics
            .get(&rel)
            .map_or(0, |found| found.iter().filter(|d| d.is_error()).count());
        if errors > 0 {
            return Err((
                ErrorCode::RequestFailed,
                msg!("lsp-not-formatted", errors = errors).to_string(),
            ));
        }
        let text = self.text_of(&rel);
        let Some(canonical) = site::canonical_text(&rel, &text) else {
            return Ok(json!([]));
        };
        if canonical == text {
            return Ok(json!([]));
        }
        let range = Lines::new(&text).all(self.encoding);
        Ok(json!([{"range": range, "newText": canonical}]))
    }

    fn hover(&self, params: lsp::HoverParams) -> Value {
        let at = params.text_document_position_params;
        let Some(rel) = self.relative(&at.text_document.uri) else {
            return Value::Null;
        };
        let text = self.text_of(&rel);
        let lines = Lines::new(&text);
        let offset = lines.offset(at.position, self.encoding);
        let Some((start, end, raw)) = lines.string_at(offset) else {
            return Value::Null;
        };
        let tz = self.time_zone(&rel);
        let now = self
            .options
            .now
            .unwrap_or_else(crate::clock::Now::read)
            .in_zone(tz);
        match hover::time(raw, tz, now) {
            Some(markdown) => json!({
                "contents": {"kind": "markdown", "value": markdown},
                "range": lines.range(start, end, self.encoding),
            }),
            None => Value::Null,
        }
    }

    /// The time zone of the game `rel` belongs to, as the registry (open
    /// or on disk) gives it.
    fn time_zone(&self, rel: &str) -> chrono_tz::Tz {
        let default = || DEFAULT_TIME_ZONE.parse().unwrap_or(chrono_tz::UTC);
        let Some(id) = crate::tree::game_of(rel) else {
            return default();
        };
        let registry: Option<Value> = serde_json::from_str(&self.text_of(REGISTRY_PATH)).ok();
        registry
            .as_ref()
            .and_then(|r| r.get("games")?.as_array()?.iter().find(|g| g["id"] == id))
            .and_then(|g| serde_json::from_value::<Game>(g.clone()).ok())
            .map_or_else(default, |game| game.tz())
    }

    fn send_diagnostics(
        &mut self,
        uri: &str,
        diagnostics: Vec<lsp::Diagnostic>,
        version: Option<i32>,
    ) -> anyhow::Result<()> {
        let mut params = json!({"uri": uri, "diagnostics": diagnostics});
        if let Some(version) = version {
            params["version"] = json!(version);
        }
        self.send(Message::Notification(Notification::new(
            "textDocument/publishDiagnostics".to_string(),
            params,
        )))
    }

    fn error(&mut self, id: RequestId, code: ErrorCode, message: String) -> anyhow::Result<()> {
        self.send(Message::Response(Response::new_err(
            id,
            code as i32,
            message,
        )))
    }

    fn send(&mut self, message: Message) -> anyhow::Result<()> {
        message.write(&mut self.out)?;
        Ok(())
    }

    fn send_raw(&mut self, value: &Value) -> anyhow::Result<()> {
        let body = value.to_string();
        write!(self.out, "Content-Length: {}\r\n\r\n{body}", body.len())?;
        self.out.flush()?;
        Ok(())
    }
}

/// The parameters of a message as type `T`, or an `InvalidParams` error.
fn params<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, (ErrorCode, String)> {
    serde_json::from_value(params).map_err(|err| (ErrorCode::InvalidParams, err.to_string()))
}

/// A diagnostic in the protocol's terms, in `lang`; the help line goes in
/// the related information, at the same place.
fn to_lsp(
    d: &Diagnostic,
    lines: &Lines<'_>,
    encoding: Encoding,
    uri: Option<&lsp::Uri>,
    lang: Lang,
) -> lsp::Diagnostic {
    let (start, end) = lines.diagnostic_bytes(d);
    let range = lines.range(start, end, encoding);
    let related = match (&d.help, uri) {
        (Some(help), Some(uri)) => Some(vec![lsp::DiagnosticRelatedInformation {
            location: lsp::Location::new(uri.clone(), range),
            message: msg!("help-line", text = help.render(lang)).render(lang),
        }]),
        _ => None,
    };
    lsp::Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        }),
        code: Some(lsp::NumberOrString::String(d.code.to_string())),
        source: Some("activity-site".to_string()),
        message: d.message_with_notes(lang),
        related_information: related,
        ..lsp::Diagnostic::default()
    }
}

/// Whether two ranges touch (an empty range at either end counts).
fn overlaps(a: lsp::Range, b: lsp::Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

/// "Replace `endtime` with `endTime`", "Remove U+200B".
fn fix_title(text: &str, fix: &Fix) -> String {
    let old = text.get(fix.start..fix.end).unwrap_or("");
    let show = |s: &str| {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_control() || !c.is_alphanumeric() && !c.is_ascii() => {
                format!("U+{:04X}", c as u32)
            }
            _ => format!("`{s}`"),
        }
    };
    if fix.replacement.is_empty() {
        msg!("lsp-fix-remove", old = show(old)).to_string()
    } else {
        msg!(
            "lsp-fix-replace",
            old = show(old),
            new = show(&fix.replacement)
        )
        .to_string()
    }
}

/// The path of a `file:` URI.
fn uri_path(uri: &lsp::Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    let decoded = percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .ok()?;
    Some(PathBuf::from(decoded.as_ref()))
}

/// The `file:` URI of an absolute path.
fn path_uri(path: &Path) -> String {
    const KEEP: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'/')
        .remove(b'-')
        .remove(b'_')
        .remove(b'.')
        .remove(b'~');
    let text = path.to_string_lossy();
    format!(
        "file://{}",
        percent_encoding::utf8_percent_encode(&text, KEEP)
    )
}

/// `path` with symbolic links resolved, when it exists.
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf())
}
