//! Whether a built site is current: the activity documents of a fresh build
//! (from the checked data) must be the site's, byte for byte, and the
//! site's index must name exactly files of the site with their sha256.
//! `publish` refuses anything else, so a stale site is never uploaded.

use std::collections::BTreeMap;
use std::path::Path;

use super::plan::LocalFile;
use crate::i18n::{Msg, msg};
use crate::layout::{self, INDEX_PATH};
use crate::site::{self, Checked};

/// Refuses a site in `out` (its files: `local`) older than the data of
/// `checked`, with a help line that says how to rebuild it.
pub fn ensure_current(out: &Path, local: &[LocalFile], checked: &Checked) -> anyhow::Result<()> {
    let shown = out.display().to_string();
    let rebuild = |problem: Msg| {
        anyhow::Error::new(msg!(
            "publish-rebuild",
            problem = problem,
            out = shown.as_str()
        ))
    };
    let stale = |reason: Msg| rebuild(msg!("publish-stale", out = shown.as_str(), reason = reason));
    let on_disk: BTreeMap<&str, &LocalFile> = local.iter().map(|f| (f.path.as_str(), f)).collect();
    let fresh = site::api_files(&site::outputs(checked));
    for file in &fresh {
        let sha = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(&file.bytes));
        match on_disk.get(file.path.as_str()) {
            Some(f) if f.sha256 == sha => {}
            Some(_) => {
                return Err(stale(msg!(
                    "publish-stale-differs",
                    path = file.path.as_str()
                )));
            }
            None => {
                return Err(stale(msg!(
                    "publish-stale-missing",
                    path = file.path.as_str()
                )));
            }
        }
    }
    for path in on_disk.keys() {
        if layout::is_activity_document(path) && !fresh.iter().any(|f| f.path == *path) {
            return Err(stale(msg!("publish-stale-gone", path = *path)));
        }
    }
    check_index(out, &on_disk).map_err(rebuild)
}

/// Refuses a site in `out` that was not built for `url` (`publish
/// --site-url`): its absolute links would name another address.
pub fn ensure_site_url(out: &Path, url: &layout::SiteUrl) -> anyhow::Result<()> {
    let openapi = std::fs::read(out.join(layout::OPENAPI_PATH)).unwrap_or_default();
    let built = site::contract::site_url_of(&openapi);
    let wanted = url.as_str().trim_end_matches('/');
    if built.as_deref() == Some(wanted) {
        return Ok(());
    }
    Err(anyhow::Error::new(msg!(
        "publish-site-url-differs",
        out = out.display().to_string(),
        url = url.as_str(),
        built = built.unwrap_or_else(|| "-".to_owned())
    )))
}

/// The site's index must name files of the site with their current sha256.
fn check_index(out: &Path, on_disk: &BTreeMap<&str, &LocalFile>) -> Result<(), Msg> {
    let text = std::fs::read(out.join(INDEX_PATH)).map_err(|err| {
        msg!(
            "publish-index-unreadable",
            out = out.display().to_string(),
            index = INDEX_PATH,
            error = err.to_string()
        )
    })?;
    let index = layout::Index::parse(&text).map_err(|err| {
        msg!(
            "publish-index-unparsed",
            index = INDEX_PATH,
            error = err.to_string()
        )
    })?;
    for file in index.files() {
        let path = file.relative_path();
        match on_disk.get(path) {
            Some(f) if f.sha256 == file.sha256 => {}
            _ => {
                return Err(msg!(
                    "publish-index-mismatch",
                    index = INDEX_PATH,
                    path = path
                ));
            }
        }
    }
    Ok(())
}
