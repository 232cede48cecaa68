//! The `diff` command's library: reading the bases and streaming the
//! comparison. A base is a deployed site (a URL, through [`crate::fetch`]
//! with its limits), a folder of a built or deployed site, or the build of a
//! git revision of the data (read with the `git` command line into a
//! temporary folder and built with this crate's own builder); every file is
//! read on both sides, compared by [`review`] and dropped. `cmd/diff.rs`
//! only reads the flags and prints the [`Report`]. A revision's tree is also
//! what `check --changed-since` compares today's diagnostics with
//! ([`changed_since`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use chrono::NaiveDateTime;
use rayon::prelude::*;

use crate::clock::Now;
use crate::diagnostics::Diagnostic;
use crate::fetch::{FetchError, Fetcher};
use crate::i18n::msg;
use crate::layout::{self, Naming};
use crate::model::Game;
use crate::review::{FileDiff, FileStatus, Location, Report};
use crate::site;

/// What `diff` compares: the root's build (or the built site `site`)
/// against exactly one base, `against` (a URL or a folder) or
/// `against_rev` (a git revision of the repository holding the root).
pub struct Request<'a> {
    pub root: &'a Path,
    pub against: Option<&'a str>,
    pub against_rev: Option<&'a str>,
    /// A built site to compare instead of building the root.
    pub site: Option<&'a Path>,
    /// `--now`, else the clock read once.
    pub now: Option<Now>,
    /// How long one fetch of a URL base may take.
    pub timeout: Duration,
}

/// What [`review`] found.
pub enum Outcome {
    /// The report, with what it needs to be rendered.
    Reviewed(Review),
    /// The root's data has errors: nothing was built or compared.
    DataErrors(Vec<Diagnostic>),
}

/// A report of the comparison, its files published under two names
/// merged (the pairs each kind names, [`crate::review::alias_pairs`]), and
/// the registry it was made with.
pub struct Review {
    pub report: Report,
    /// The tree as read for the build (the files a finding points into).
    tree: Box<crate::load::Tree>,
    games: Vec<Game>,
}

impl Review {
    /// The ids of the games of this build, which group the report's files.
    pub fn ids(&self) -> BTreeSet<String> {
        self.games.iter().map(|g| g.id.clone()).collect()
    }

    /// The data file and line behind a path of the site (see [`locate`]).
    pub fn locate(&self, path: &str, name: Option<&str>) -> Option<Location> {
        locate(&self.tree, &self.games, path, name)
    }
}

/// The base of a request, once its flags are read.
enum Base<'a> {
    Url(&'a str),
    Folder(&'a str),
    Revision(&'a str),
}

/// The error of a fetch that failed for another reason than 404.
fn cannot_fetch(url: &str, err: &FetchError) -> anyhow::Error {
    anyhow::Error::new(msg!(
        "diff-cannot-fetch",
        url = url,
        error = err.to_string()
    ))
}

/// Builds the root (unless a site is given), reads the base and compares
/// them file by file.
pub fn review(request: &Request<'_>) -> anyhow::Result<Outcome> {
    // The registry only: the build checks the data, and `--site` needs no check.
    // The tree is read once: its registry here, its build below.
    let tree = crate::load::load(request.root, &Default::default())?;
    let (games, _) = crate::validate::Validator::new(&tree.project)?.registry(&tree.project);
    // One moment for both builds and every rule: read once, seen by each
    // game in its own time zone.
    let now = Now::pinned_or_clock(request.now);
    let clock = Clock::new(&games, now);
    let base = match (request.against, request.against_rev) {
        (Some(url), None) if url.contains("://") => {
            crate::fetch::http_url("--against", url)?;
            Base::Url(url)
        }
        (Some(dir), None) => {
            if !Path::new(dir).is_dir() {
                // Not a folder: a git revision (`main`) wants --against-rev.
                let commit = format!("{dir}^{{commit}}");
                if git(request.root, &["rev-parse", "--verify", "--quiet", &commit]).is_ok() {
                    return Err(anyhow::Error::new(msg!("diff-against-revision", dir = dir)));
                }
                // Else most likely a URL without its scheme.
                crate::fetch::http_url("--against", dir)
                    .context(msg!("diff-no-folder", dir = dir))?;
            }
            Base::Folder(dir)
        }
        (None, Some(rev)) => Base::Revision(rev),
        _ => return Err(anyhow::Error::new(msg!("diff-one-base"))),
    };
    let (built, tree) = match Built::new(tree, request.site, now)? {
        Ok(built) => built,
        Err(diagnostics) => return Ok(Outcome::DataErrors(diagnostics)),
    };
    let mut report = match base {
        Base::Url(url) => against_url(request.timeout, &built.path(), url, &clock)?,
        Base::Folder(dir) => compare_dirs(dir, built.path(), &site_dir(Path::new(dir)), &clock)?,
        Base::Revision(rev) => {
            let base = build_revision(request.root, rev, now)?;
            compare_dirs(
                &format!("rev:{rev}"),
                built.path(),
                &base.path().join("site"),
                &clock,
            )?
        }
    };
    report.merge_aliases(&crate::review::alias_pairs(&games));
    Ok(Outcome::Reviewed(Review {
        report,
        tree: Box::new(tree),
        games,
    }))
}

/// "Now" of each game: one moment (the pinned `--now`, else the clock read
/// once) in each game's time zone.
struct Clock {
    games: BTreeMap<String, NaiveDateTime>,
    ids: BTreeSet<String>,
}

impl Clock {
    fn new(games: &[Game], now: Now) -> Clock {
        let games: BTreeMap<String, NaiveDateTime> = games
            .iter()
            .map(|g| (g.id.clone(), now.for_game(g)))
            .collect();
        let ids = games.keys().cloned().collect();
        Clock { games, ids }
    }

    /// "Now" for the game a path belongs to, if it belongs to one.
    fn of(&self, path: &str) -> Option<NaiveDateTime> {
        self.games
            .get(crate::review::group_of(path, &self.ids))
            .copied()
    }
}

/// The URL base: every file of this build's API (documents, calendars,
/// the index, the schema, announcements) compared with its deployed copy
/// as it arrives (then dropped), the deployed documents no index lists
/// if this build lacks them ([`crate::review::unlisted_documents`]), and the
/// documents the deployed index lists that this build lacks. Pages are not fetched: a URL base compares what clients of the
/// API read.
fn against_url(
    timeout: Duration,
    site: &Path,
    against: &str,
    clock: &Clock,
) -> anyhow::Result<Report> {
    crate::fetch::http_url("--against", against)?;
    let paths: Vec<String> = list_files(site)?
        .into_iter()
        .filter(|p| layout::is_api(p))
        .collect();
    // A base that already names the API (`…/api/v1`) means the site above it.
    let base = layout::site_root(against).to_owned();
    let schemas = schemas_of(&[site]);
    let fetcher = Fetcher::new("diff", timeout)?;
    let urls: Vec<String> = paths.iter().map(|p| format!("{base}/{p}")).collect();
    let mut found = false;
    let compared = fetcher.for_each(&urls, |i, deployed| {
        let deployed = match deployed {
            Ok(body) => Some(body),
            Err(FetchError::NotFound) => None,
            Err(err) => return Err(cannot_fetch(&urls[i], &err)),
        };
        let path = &paths[i];
        // A missing index or schema says nothing about the address; a
        // missing document does not either, but one found says it is right.
        found |= deployed.is_some() && layout::is_activity_document(path);
        let built = std::fs::read(site.join(path))
            .with_context(|| msg!("diff-read-built", path = path.as_str()))?;
        Ok(crate::review::compare(
            path,
            Some(&built),
            deployed.as_deref(),
            clock.of(path),
            &schemas,
        ))
    });
    let mut report = Report {
        against: base.clone(),
        files: compared.into_iter().collect::<anyhow::Result<_>>()?,
    };
    // The deployed documents no index lists (the un-suffixed
    // announcements board), when this build does not publish them.
    for path in crate::review::unlisted_documents() {
        if report.files.iter().any(|f| f.path == path) {
            continue;
        }
        let url = format!("{base}/{path}");
        match fetcher.get(&url) {
            Ok(_) => report.files.push(crate::review::removed(&path)),
            Err(FetchError::NotFound) => {}
            Err(err) => return Err(cannot_fetch(&url, &err)),
        }
    }
    // The deployed index names files this build may no longer have.
    let index_url = format!("{base}/{}", layout::INDEX_PATH);
    let index_found = report
        .files
        .iter()
        .any(|f| f.path == layout::INDEX_PATH && f.status != FileStatus::New);
    if index_found {
        let index = fetcher
            .get(&index_url)
            .map_err(|err| cannot_fetch(&index_url, &err))?;
        for path in crate::review::deployed_documents(&index) {
            if !report.files.iter().any(|f| f.path == path) {
                report.files.push(crate::review::removed(&path));
            }
        }
    } else if !found {
        // Not one document and no index: the wrong address, not a site to create.
        let documents = paths
            .iter()
            .filter(|p| layout::is_activity_document(p))
            .count();
        return Err(anyhow::Error::new(msg!(
            "diff-nothing-found",
            base = base.as_str(),
            index = index_url.as_str(),
            documents = documents,
            api = layout::API_DIR
        )));
    }
    Ok(report)
}

/// The site compared with a base: `--site DIR` as given, else the root
/// built into a temporary folder that is removed afterwards.
enum Built {
    Given(PathBuf),
    Temporary(tempfile::TempDir),
}

impl Built {
    /// `site` when given, else the root built into a temporary folder; the
    /// diagnostics when the root's data has errors.
    fn new(
        tree: crate::load::Tree,
        site: Option<&Path>,
        now: Now,
    ) -> anyhow::Result<Result<(Built, crate::load::Tree), Vec<Diagnostic>>> {
        if let Some(site) = site {
            anyhow::ensure!(
                site.is_dir(),
                msg!("diff-site-not-folder", path = site.display().to_string())
            );
            return Ok(Ok((Built::Given(site.to_path_buf()), tree)));
        }
        let tmp = tempfile::tempdir().context(msg!("diff-temp-build"))?;
        match build_into(tree, &tmp.path().join("site"), now)? {
            Ok(tree) => Ok(Ok((Built::Temporary(tmp), tree))),
            Err(diagnostics) => Ok(Err(diagnostics)),
        }
    }

    fn path(&self) -> PathBuf {
        match self {
            Built::Given(path) => path.clone(),
            Built::Temporary(tmp) => tmp.path().join("site"),
        }
    }
}

/// Builds `root` into the new folder `out`, without the cache and without
/// precompressed siblings (they follow their file; the comparison skips
/// them); the tree back, or the diagnostics when the data has errors and
/// nothing was built.
fn build_into(
    tree: crate::load::Tree,
    out: &Path,
    now: Now,
) -> anyhow::Result<Result<crate::load::Tree, Vec<Diagnostic>>> {
    let options = site::BuildOptions {
        root: tree.root().to_path_buf(),
        out: out.to_path_buf(),
        now: Some(now),
        cache: None,
        compression: site::Compression::None,
        defer: site::Defer::Nothing,
        force: false,
        progress: None,
        site_url: None,
        loader: Default::default(),
    };
    let (outcome, tree) = site::build_loaded(&options, tree)?;
    Ok(match outcome.summary {
        Some(_) => Ok(tree),
        None => Err(outcome.diagnostics),
    })
}

/// The data tree of revision `rev` of the repository holding `root`
/// (`games.json`, `data/`, `schema/` at the same place under its top),
/// written into a temporary folder ([`export_revision`]), and built into
/// its `site/`.
fn build_revision(root: &Path, rev: &str, now: Now) -> anyhow::Result<tempfile::TempDir> {
    let tmp = export_revision(root, rev)?;
    let tree = crate::load::load(tmp.path(), &Default::default())?;
    if let Err(diagnostics) = build_into(tree, &tmp.path().join("site"), now)? {
        let errors: Vec<_> = diagnostics.iter().filter(|d| d.is_error()).collect();
        let first = errors
            .first()
            .map(|d| format!("{}:{}:{}: {}", d.file, d.line, d.column, d.message))
            .unwrap_or_default();
        return Err(anyhow::Error::new(msg!(
            "diff-rev-errors",
            rev = rev,
            errors = errors.len(),
            first = first
        )));
    }
    Ok(tmp)
}

/// The data tree of revision `rev` of the repository holding `root`
/// (`games.json`, `data/`, `schema/` at the same place under its top),
/// written into a temporary folder with `git ls-tree` and `git cat-file
/// --batch` (`diff --against-rev` and `check --changed-since`); no network.
pub fn export_revision(root: &Path, rev: &str) -> anyhow::Result<tempfile::TempDir> {
    anyhow::ensure!(
        !rev.starts_with('-'),
        msg!("diff-rev-not-revision", rev = rev)
    );
    let top = git(root, &["rev-parse", "--show-toplevel"])?;
    let top = PathBuf::from(String::from_utf8_lossy(&top).trim());
    let abs_root = std::fs::canonicalize(root)
        .with_context(|| msg!("diff-resolve-root", path = root.display().to_string()))?;
    let top = std::fs::canonicalize(&top).unwrap_or(top);
    let prefix = abs_root
        .strip_prefix(&top)
        .context(msg!("diff-root-outside-git"))?;
    let prefix = crate::relpath::slashed(prefix);
    let at = |name: &str| {
        if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}/{name}")
        }
    };
    let commit = git(
        &top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{rev}^{{commit}}"),
        ],
    )
    .map_err(|_| {
        anyhow::Error::new(msg!(
            "diff-rev-unknown",
            rev = rev,
            repo = top.display().to_string()
        ))
    })?;
    let commit = String::from_utf8_lossy(&commit).trim().to_owned();
    let inputs: Vec<String> = crate::tree::TOP_LEVEL_SOURCES
        .iter()
        .map(|p| at(p))
        .collect();
    let mut ls_tree = vec!["ls-tree", "-r", "-z", "--full-tree", &commit, "--"];
    ls_tree.extend(inputs.iter().map(String::as_str));
    let listing = git(&top, &ls_tree)?;
    let tmp = tempfile::tempdir().context(msg!("diff-temp-base"))?;
    let mut blobs: Vec<(String, String)> = Vec::new();
    for entry in listing.split(|b| *b == 0).filter(|e| !e.is_empty()) {
        let entry = String::from_utf8_lossy(entry);
        let Some((meta, path)) = entry.split_once('\t') else {
            continue;
        };
        let mut meta = meta.split(' ');
        let (Some(mode), Some("blob"), Some(oid)) = (meta.next(), meta.next(), meta.next()) else {
            continue;
        };
        // Regular files only: no links out of the temporary folder.
        if !mode.starts_with("100") {
            continue;
        }
        let rel = if prefix.is_empty() {
            path.to_owned()
        } else {
            match path.strip_prefix(&format!("{prefix}/")) {
                Some(rel) => rel.to_owned(),
                None => continue,
            }
        };
        if rel.split('/').any(|part| part == ".." || part.is_empty()) {
            continue;
        }
        blobs.push((oid.to_owned(), rel));
    }
    anyhow::ensure!(
        blobs
            .iter()
            .any(|(_, rel)| rel == crate::tree::REGISTRY_PATH),
        msg!(
            "diff-rev-no-registry",
            rev = rev,
            registry = at(crate::tree::REGISTRY_PATH),
            repo = top.display().to_string()
        )
    );
    write_blobs(&top, &blobs, tmp.path())?;
    Ok(tmp)
}

/// The ids revision `rev` of the repository holding `root` gave, file by
/// file: what `missing-id` gives back to the activities a rewrite left
/// without theirs (`check --changed-since REV`; [`head_ids`] otherwise).
pub fn ids_at(root: &Path, rev: &str) -> anyhow::Result<crate::model::ids::Base> {
    use crate::model::ids::{Base, BaseActivity};
    use serde_json::Value;
    let tree = export_revision(root, rev)?;
    let read = |rel: &str| -> Option<Value> {
        let text = std::fs::read_to_string(tree.path().join(rel)).ok()?;
        serde_json::from_str(&text).ok()
    };
    let mut base = Base {
        rev: rev.to_owned(),
        files: Default::default(),
    };
    let registry = read(crate::tree::REGISTRY_PATH).unwrap_or(Value::Null);
    let games = registry.get("games").and_then(Value::as_array);
    for game in games.into_iter().flatten() {
        let Some(id) = game.get("id").and_then(Value::as_str) else {
            continue;
        };
        let locales = game.get("locales").and_then(Value::as_array);
        for locale in locales.into_iter().flatten().filter_map(Value::as_str) {
            let path = crate::tree::data_path(id, locale);
            let Some(document) = read(&path) else {
                continue;
            };
            let activities = document.get("activities").and_then(Value::as_array);
            let text = |a: &Value, key: &str| a.get(key).and_then(Value::as_str).map(str::to_owned);
            let found: Vec<BaseActivity> = activities
                .into_iter()
                .flatten()
                .filter_map(|a| {
                    Some(BaseActivity {
                        id: text(a, "id")?,
                        name: text(a, "name").unwrap_or_default(),
                        start: text(a, "startTime").unwrap_or_default(),
                        end: text(a, "endTime").unwrap_or_default(),
                    })
                })
                .collect();
            if !found.is_empty() {
                base.files.insert(path, found);
            }
        }
    }
    Ok(base)
}

/// [`ids_at`] the checkout's `HEAD`, when `root` is in a git repository
/// with a commit holding its registry; `None` otherwise (a tree outside
/// git, a repository without commits): the base is evidence, not a need.
pub fn head_ids(root: &Path) -> Option<crate::model::ids::Base> {
    let inside = std::process::Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["rev-parse", "--is-inside-work-tree"])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    if !inside.status.success() || inside.stdout.trim_ascii() != b"true" {
        return None;
    }
    ids_at(root, "HEAD").ok()
}

/// What `check --changed-since REF` keeps of a check: the diagnostics the
/// change introduced, and what it left out.
#[derive(Debug)]
pub struct Changed {
    /// The diagnostics the tree at the revision did not have.
    pub introduced: Vec<Diagnostic>,
    /// How many were there at the revision already.
    pub before: usize,
    /// How many findings of the clock (`stale`, `upcoming-version`) were
    /// left out: they come from the date, not from a change.
    pub clock: usize,
}

/// The diagnostics of `current` (the check of `root` as it is) that the
/// change since revision `rev` introduced: each is keyed by its rule, its
/// file and its message (the values it names, read in one language, not
/// its line or column, which any edit above it moves), and one is
/// introduced when the tree at `rev` (read with `git`, checked with the
/// same options) has fewer of its key. That covers the files the change
/// touched and what it changed across files (a `locale-parity` warning
/// in a file it did not touch). The findings of the clock are left out.
pub fn changed_since(
    root: &Path,
    rev: &str,
    options: &crate::validate::Options,
    current: Vec<Diagnostic>,
) -> anyhow::Result<Changed> {
    use crate::diagnostics::Code;
    let base_tree = export_revision(root, rev)?;
    let base = site::check(base_tree.path(), options)?;
    let key = |d: &Diagnostic| {
        (
            d.code.as_str(),
            d.file.clone(),
            d.message.render(crate::i18n::Lang::EnUs),
        )
    };
    let mut there: BTreeMap<(&str, String, String), usize> = BTreeMap::new();
    for d in &base.diagnostics {
        *there.entry(key(d)).or_default() += 1;
    }
    let clock = |d: &Diagnostic| matches!(d.code, Code::Stale | Code::UpcomingVersion);
    let mut changed = Changed {
        introduced: Vec::new(),
        before: 0,
        clock: 0,
    };
    for d in current {
        if clock(&d) {
            changed.clock += 1;
            continue;
        }
        match there.get_mut(&key(&d)) {
            Some(count) if *count > 0 => {
                *count -= 1;
                changed.before += 1;
            }
            _ => changed.introduced.push(d),
        }
    }
    Ok(changed)
}

/// Runs `git -C dir ARGS` and returns its standard output.
fn git(dir: &Path, args: &[&str]) -> anyhow::Result<Vec<u8>> {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .context(msg!("diff-git-missing"))?;
    anyhow::ensure!(
        out.status.success(),
        msg!(
            "diff-git-failed",
            command = format!("git {}", args.join(" ")),
            error = String::from_utf8_lossy(&out.stderr).trim()
        )
    );
    Ok(out.stdout)
}

/// Writes each blob (`oid`, relative path) under `dest`, streamed through
/// one `git cat-file --batch`.
fn write_blobs(top: &Path, blobs: &[(String, String)], dest: &Path) -> anyhow::Result<()> {
    use std::io::{BufRead as _, Read as _, Write as _};
    let mut child = std::process::Command::new("git")
        .arg("-C")
        .arg(top)
        .args(["cat-file", "--batch"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .context(msg!("diff-git-missing"))?;
    let mut stdin = child.stdin.take().context("git cat-file has no stdin")?;
    let oids: Vec<String> = blobs.iter().map(|(oid, _)| oid.clone()).collect();
    let writer = std::thread::spawn(move || -> std::io::Result<()> {
        for oid in oids {
            writeln!(stdin, "{oid}")?;
        }
        Ok(())
    });
    let mut out =
        std::io::BufReader::new(child.stdout.take().context("git cat-file has no stdout")?);
    for (oid, rel) in blobs {
        let mut header = String::new();
        out.read_line(&mut header)?;
        let size: usize = header
            .trim_end()
            .strip_prefix(oid.as_str())
            .and_then(|rest| rest.strip_prefix(" blob "))
            .and_then(|n| n.parse().ok())
            .with_context(|| format!("git cat-file: unexpected answer `{}`", header.trim_end()))?;
        let mut bytes = vec![0; size + 1];
        out.read_exact(&mut bytes)?;
        bytes.pop();
        let path = dest.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, bytes)
            .with_context(|| msg!("err-write", path = path.display().to_string()))?;
    }
    writer
        .join()
        .map_err(|_| anyhow::anyhow!("git cat-file writer panicked"))??;
    let status = child.wait()?;
    anyhow::ensure!(status.success(), "git cat-file failed");
    Ok(())
}

/// A base folder given by a user: the site itself, or a folder holding its
/// `api/v1` somewhere below a `site/` or `public/`.
fn site_dir(base: &Path) -> PathBuf {
    for candidate in [base.to_path_buf(), base.join("site"), base.join("public")] {
        if candidate.join(layout::API_DIR).is_dir() {
            return candidate;
        }
    }
    base.to_path_buf()
}

/// Every path of either folder, compared file by file on every core; each
/// pair of files is read, compared and dropped, so memory holds the files in
/// flight and one small entry per path.
fn compare_dirs(
    against: &str,
    site: PathBuf,
    base: &Path,
    clock: &Clock,
) -> anyhow::Result<Report> {
    let ours = list_files(&site)?;
    let theirs = list_files(base)?;
    let paths: BTreeSet<&String> = ours.iter().chain(theirs.iter()).collect();
    let schemas = schemas_of(&[&site, base]);
    let files: Vec<FileDiff> = paths
        .into_par_iter()
        .map(|path| -> anyhow::Result<FileDiff> {
            let read = |dir: &Path, set: &BTreeSet<String>| -> anyhow::Result<Option<Vec<u8>>> {
                if !set.contains(path) {
                    return Ok(None);
                }
                let file = dir.join(path);
                std::fs::read(&file)
                    .map(Some)
                    .with_context(|| msg!("err-read", path = file.display().to_string()))
            };
            let built = read(&site, &ours)?;
            let old = read(base, &theirs)?;
            Ok(crate::review::compare(
                path,
                built.as_deref(),
                old.as_deref(),
                clock.of(path),
                &schemas,
            ))
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(Report {
        against: against.to_owned(),
        files,
    })
}

/// The published schemas of the site folders `dirs`, a later folder's
/// schema taking the place of an earlier one's at the same path (the
/// base's, what clients were promised, over this build's).
fn schemas_of(dirs: &[&Path]) -> crate::review::Schemas {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir.join(layout::SCHEMA_DIR)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Ok(bytes) = std::fs::read(entry.path()) {
                files.push((format!("{}/{name}", layout::SCHEMA_DIR), bytes));
            }
        }
    }
    crate::review::Schemas::from_files(files.iter().map(|(p, b)| (p.as_str(), b.as_slice())))
}

/// The files of a site folder, relative with forward slashes: everything but
/// the output marker and the `.br`/`.gz` siblings of a file beside them.
fn list_files(dir: &Path) -> anyhow::Result<BTreeSet<String>> {
    let mut all = BTreeSet::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let folder = dir.join(&rel);
        let entries = std::fs::read_dir(&folder)
            .with_context(|| msg!("err-list", path = folder.display().to_string()))?;
        for entry in entries {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = rel.join(&name);
            let kind = entry.file_type()?;
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() || (kind.is_symlink() && dir.join(&path).is_file()) {
                all.insert(crate::relpath::slashed(&path));
            }
        }
    }
    all.remove(layout::OUTPUT_MARKER);
    all.remove(crate::layout::OUTPUT_MANIFEST);
    all.remove(crate::layout::OUTPUT_WARNINGS);
    let siblings: Vec<String> = all
        .iter()
        .filter(|p| layout::sibling_of(p).is_some_and(|(stem, _)| all.contains(stem)))
        .cloned()
        .collect();
    for path in siblings {
        all.remove(&path);
    }
    Ok(all)
}

/// The data file and line behind a path of the site: the line of the
/// activity `name` when given and found, else of `"version"`; a path of no
/// game of this build points at `games.json`.
fn locate(
    tree: &crate::load::Tree,
    games: &[Game],
    path: &str,
    name: Option<&str>,
) -> Option<Location> {
    let source = games.iter().find_map(|game| {
        game.locales.iter().find_map(|locale| {
            let names = [
                layout::activity_path(game, locale, Naming::Plain, "json"),
                layout::activity_path(game, locale, Naming::Localized, "json"),
            ];
            let default = *locale == game.default_locale;
            (names[1] == path || (default && names[0] == path))
                .then(|| crate::tree::data_path(&game.id, locale))
        })
    });
    let Some(file) = source else {
        return layout::is_activity_document(path).then(|| Location {
            file: crate::tree::REGISTRY_PATH.to_owned(),
            line: 1,
        });
    };
    let text = tree.text(&file)?;
    let wanted = name.map(|n| format!("\"name\": {}", serde_json::Value::from(n)));
    let line = wanted
        .and_then(|w| text.lines().position(|l| l.contains(&w)))
        .or_else(|| text.lines().position(|l| l.contains("\"version\"")))
        .map_or(1, |i| i + 1);
    Some(Location { file, line })
}
