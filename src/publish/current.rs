//! Whether a built site is current: the activity documents of a fresh build
//! (from the checked data) must be the site's, byte for byte, and the
//! site's index must name exactly files of the site with their sha256.
//! `publish` refuses anything else, so a stale site is never uploaded.

use std::collections::BTreeMap;
use std::path::Path;

use super::plan::LocalFile;
use crate::layout::{self, INDEX_PATH};
use crate::site::{self, Checked};

/// Refuses a site in `out` (its files: `local`) older than the data of
/// `checked`, with a help line that says how to rebuild it.
pub fn ensure_current(out: &Path, local: &[LocalFile], checked: &Checked) -> anyhow::Result<()> {
    let rebuild = || {
        format!(
            "help: run `activity-site build --out {}`, then publish",
            out.display()
        )
    };
    let on_disk: BTreeMap<&str, &LocalFile> = local.iter().map(|f| (f.path.as_str(), f)).collect();
    let fresh = site::api_files(&site::outputs(checked));
    for file in &fresh {
        let sha = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&file.bytes));
        match on_disk.get(file.path.as_str()) {
            Some(f) if f.sha256 == sha => {}
            Some(_) => anyhow::bail!(
                "the site in `{}` is older than the data: {} differs from a fresh build\n{}",
                out.display(),
                file.path,
                rebuild()
            ),
            None => anyhow::bail!(
                "the site in `{}` is older than the data: it has no {}\n{}",
                out.display(),
                file.path,
                rebuild()
            ),
        }
    }
    for path in on_disk.keys() {
        if layout::is_activity_document(path) && !fresh.iter().any(|f| f.path == *path) {
            anyhow::bail!(
                "the site in `{}` is older than the data: {path} is no longer built\n{}",
                out.display(),
                rebuild()
            );
        }
    }
    check_index(out, &on_disk).map_err(|err| anyhow::anyhow!("{err}\n{}", rebuild()))
}
/// The site's index must name files of the site with their current sha256.
fn check_index(out: &Path, on_disk: &BTreeMap<&str, &LocalFile>) -> anyhow::Result<()> {
    let text = std::fs::read(out.join(INDEX_PATH)).map_err(|err| {
        anyhow::anyhow!(
            "the site in `{}` has no readable {INDEX_PATH}: {err}",
            out.display()
        )
    })?;
    let index = layout::Index::parse(&text)
        .map_err(|err| anyhow::anyhow!("the site's {INDEX_PATH} does not parse: {err}"))?;
    for file in index.files() {
        let path = file.relative_path();
        match on_disk.get(path) {
            Some(f) if f.sha256 == file.sha256 => {}
            _ => anyhow::bail!(
                "the site's {INDEX_PATH} does not match its files: {path} is missing or differs"
            ),
        }
    }
    Ok(())
}
