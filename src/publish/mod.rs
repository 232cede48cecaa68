//! `publish`: a built site to S3-compatible object storage, incremental and
//! in an order that never lets a client follow a link to a missing object.
//!
//! - [`plan`] decides (pure): local files and the store's manifest to the
//!   ordered uploads and removals, with the metadata of each object.
//! - [`store`] talks to the bucket (`object_store`): list, manifest, put, delete.
//! - [`read_site`] and [`execute`] here join the two: hash the site's files,
//!   then run the plan phase by phase.
//!
//! This module does not build or check the data: `cmd/publish.rs` makes
//! sure the site is current before calling it. It never touches an object
//! the manifest does not name (unless the user says `--adopt`).

pub mod current;
pub mod plan;
pub mod store;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context as _;
use futures::StreamExt as _;
use sha2::{Digest, Sha256};

use plan::{LocalFile, Manifest, Phase, Plan, Step};
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

/// Every file under the site directory with its sha256 and size, sorted by
/// path. Symbolic links are refused: a site is plain files.
pub fn read_site(site: &Path) -> anyhow::Result<Vec<LocalFile>> {
    let meta = std::fs::metadata(site).with_context(|| {
        format!(
            "no built site at `{}`\nhelp: run `activity-site build --out {}` first",
            site.display(),
            site.display()
        )
    })?;
    anyhow::ensure!(meta.is_dir(), "`{}` is not a directory", site.display());
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(site).min_depth(1).sort_by_file_name() {
        let entry = entry.with_context(|| format!("cannot read `{}`", site.display()))?;
        if entry.file_type().is_dir() {
            continue;
        }
        anyhow::ensure!(
            entry.file_type().is_file(),
            "`{}` is not a regular file; a built site holds only files and folders",
            entry.path().display()
        );
        let rel = entry
            .path()
            .strip_prefix(site)
            .context("walked outside the site")?;
        let path = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        let bytes = std::fs::read(entry.path())
            .with_context(|| format!("cannot read `{}`", entry.path().display()))?;
        files.push(LocalFile {
            path,
            sha256: hex::encode(Sha256::digest(&bytes)),
            bytes: bytes.len() as u64,
        });
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
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
    if !uploads.is_empty() {
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
        store.put_manifest(&plan.final_manifest(true, old)).await?;
        return Ok(());
    }
    store.put_manifest(&plan.final_manifest(false, old)).await?;
    for step in removals {
        store.delete(&step.path).await?;
        on_done(step);
    }
    store.put_manifest(&plan.final_manifest(true, old)).await?;
    Ok(())
}

async fn upload<'a>(store: &Store, site: &Path, step: &'a Step) -> anyhow::Result<&'a Step> {
    let path = site.join(&step.path);
    let bytes = tokio::fs::read(&path)
        .await
        .with_context(|| format!("cannot read `{}`", path.display()))?;
    let sha256 = hex::encode(Sha256::digest(&bytes));
    anyhow::ensure!(
        step.sha256.as_deref() == Some(sha256.as_str()),
        "`{}` changed while publishing\nhelp: wait for the build to finish, then publish again",
        path.display()
    );
    let meta = step.meta.as_ref().context("an upload without metadata")?;
    store.put(&step.path, bytes, meta, Some(&sha256)).await?;
    Ok(step)
}
