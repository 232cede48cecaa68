//! `publish`: a built site to S3-compatible object storage, incremental and
//! in an order that never lets a client follow a link to a missing object.
//!
//! - [`plan`] decides (pure): local files and the store's manifest to the
//!   ordered uploads and removals, with the metadata of each object.
//! - [`store`] talks to the bucket (`object_store`): list, manifest, put, delete.
//! - [`read_site`], [`survey`] and [`execute`] here join the two: hash the
//!   site's files, find out what the store holds (the manifest, and a listing
//!   only when the manifest cannot be trusted alone), then run the plan
//!   phase by phase.
//!
//! This module does not build or check the data: `cmd/publish.rs` makes
//! sure the site is current before calling it. It never touches an object
//! the manifest does not name (unless the user says `--adopt`).

pub mod current;
pub mod plan;
pub mod store;

use crate::i18n::msg;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context as _;
use futures::StreamExt as _;
use sha2::{Digest, Sha256};

use plan::{LocalFile, Manifest, Phase, Plan, Remote, Step};
use store::Store;

/// How to run a plan.
#[derive(Debug, Clone)]
pub struct Execution {
    /// Directory of the built site.
    pub site: PathBuf,
    /// Uploads in flight at once within a phase.
    pub jobs: usize,
    /// Fault injection for tests: end the process (exit 70, nothing
    /// flushed) after this many uploads, like a kill in the middle.
    pub exit_after: Option<usize>,
}

/// Every file under the site directory, sorted by path, with its size and,
/// for the files a publish would upload (see [`plan::publishable`]), its
/// sha256; other files (precompressed siblings without `precompressed`,
/// hidden files) are listed with an empty hash. Hashing runs on every core.
/// Symbolic links are refused: a site is plain files.
pub fn read_site(site: &Path, precompressed: bool) -> anyhow::Result<Vec<LocalFile>> {
    use rayon::prelude::*;

    let meta = std::fs::metadata(site)
        .with_context(|| msg!("publish-no-site", path = site.display().to_string()))?;
    anyhow::ensure!(
        meta.is_dir(),
        msg!("publish-not-dir", path = site.display().to_string())
    );
    let mut found = Vec::new();
    for entry in walkdir::WalkDir::new(site).min_depth(1).sort_by_file_name() {
        let entry = entry.with_context(|| msg!("err-read", path = site.display().to_string()))?;
        if entry.file_type().is_dir() {
            continue;
        }
        anyhow::ensure!(
            entry.file_type().is_file(),
            msg!(
                "publish-not-regular",
                path = entry.path().display().to_string()
            )
        );
        let rel = entry
            .path()
            .strip_prefix(site)
            .context("walked outside the site")?;
        let path = crate::relpath::slashed(rel);
        found.push((path, entry.into_path()));
    }
    let all: std::collections::BTreeSet<&str> = found.iter().map(|(p, _)| p.as_str()).collect();
    let mut files = found
        .par_iter()
        .map(|(path, full)| {
            let published = plan::publishable(path, &all, precompressed).is_some();
            let (sha256, bytes) = if published {
                let bytes = std::fs::read(full)
                    .with_context(|| msg!("err-read", path = full.display().to_string()))?;
                (hex::encode(Sha256::digest(&bytes)), bytes.len() as u64)
            } else {
                let meta = std::fs::metadata(full)
                    .with_context(|| msg!("err-read", path = full.display().to_string()))?;
                (String::new(), meta.len())
            };
            Ok(LocalFile {
                path: path.clone(),
                sha256,
                bytes,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// What the store holds that the plan needs, in as few requests as it can.
/// With a complete manifest that names every path the site publishes (and
/// neither `--delete`, `--verify` nor `--adopt`), the manifest alone is
/// trusted for what this tool put there: one request. Otherwise the whole
/// prefix is listed (one request per 1,000 objects), so objects of other
/// tools at the site's paths are seen and missing ones are restored.
pub async fn survey(
    store: &Store,
    local: &[LocalFile],
    options: &plan::Options,
) -> anyhow::Result<Remote> {
    let manifest = store.manifest().await?;
    let trusted = manifest.as_ref().filter(|m| {
        let all: std::collections::BTreeSet<&str> = local.iter().map(|f| f.path.as_str()).collect();
        m.complete
            && !options.delete
            && !options.verify
            && !options.adopt
            && local.iter().all(|f| {
                m.files.contains_key(&f.path)
                    || plan::publishable(&f.path, &all, options.precompressed).is_none()
            })
    });
    if let Some(owned) = trusted {
        let objects = owned.files.keys().cloned().collect();
        return Ok(Remote {
            manifest,
            objects,
            listed: false,
        });
    }
    let objects = store.list().await?;
    Ok(Remote {
        manifest,
        objects,
        listed: true,
    })
}

/// Runs `plan` against `store`:
///
/// 1. a pending manifest that owns every path about to be uploaded;
/// 2. the uploads, phase by phase (data, index, pages), each phase
///    finished before the next starts;
/// 3. the complete manifest (still owning what `--delete` is about to remove);
/// 4. the removals, then the manifest without them.
///
/// Interrupted anywhere, the next run finds the pending entries and uploads
/// them again; the index is only replaced once every file it names is there.
/// `on_done` is called after each upload and removal.
pub async fn execute(
    store: &Store,
    plan: &Plan,
    old: Option<&Manifest>,
    run: &Execution,
    on_done: &(dyn Fn(&Step) + Sync),
) -> anyhow::Result<()> {
    if !plan.has_work() {
        return Ok(());
    }
    let uploads: Vec<&Step> = plan.uploads().collect();
    // Paths the old manifest does not own yet are recorded (as pending)
    // before they are created. A path it owns keeps its old hash until the
    // final manifest, so an interrupted run uploads it again either way.
    let owns = |path: &str| old.is_some_and(|m| m.files.contains_key(path));
    if uploads.iter().any(|s| !owns(&s.path)) || plan.resumed {
        store.put_manifest(&plan.pending_manifest(old)).await?;
    }
    let done = AtomicUsize::new(0);
    for phase in [Phase::Data, Phase::Index, Phase::Pages] {
        let steps = uploads.iter().filter(|s| s.phase == phase);
        let mut results = futures::stream::iter(steps)
            .map(|step| upload(store, &run.site, step))
            .buffer_unordered(run.jobs.max(1));
        while let Some(result) = results.next().await {
            let step = result?;
            on_done(step);
            let count = done.fetch_add(1, Ordering::SeqCst) + 1;
            if run.exit_after.is_some_and(|n| count >= n) {
                std::process::exit(70);
            }
        }
    }
    let removals: Vec<&Step> = plan.removals().collect();
    if removals.is_empty() {
        store.put_manifest(&plan.final_manifest(old)).await?;
        return Ok(());
    }
    store
        .put_manifest(&plan.manifest_before_removals(old))
        .await?;
    let by_path: std::collections::HashMap<&str, &Step> =
        removals.iter().map(|s| (s.path.as_str(), *s)).collect();
    let mut paths: Vec<&str> = by_path.keys().copied().collect();
    paths.sort_unstable();
    store
        .delete_all(&paths, &|path| {
            if let Some(step) = by_path.get(path) {
                on_done(step);
            }
        })
        .await?;
    store.put_manifest(&plan.final_manifest(old)).await?;
    Ok(())
}

async fn upload<'a>(store: &Store, site: &Path, step: &'a Step) -> anyhow::Result<&'a Step> {
    let path = site.join(&step.path);
    let bytes = tokio::fs::read(&path)
        .await
        .with_context(|| msg!("err-read", path = path.display().to_string()))?;
    let sha256 = hex::encode(Sha256::digest(&bytes));
    anyhow::ensure!(
        step.sha256.as_deref() == Some(sha256.as_str()),
        msg!("publish-changed", path = path.display().to_string())
    );
    let meta = step.meta.as_ref().context("an upload without metadata")?;
    store.put(&step.path, bytes, meta, Some(&sha256)).await?;
    Ok(step)
}
