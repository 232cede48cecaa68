//! `diff`: build the API in memory, fetch the deployed copy of each file and
//! print what deploying this build would change. The comparison itself is
//! `site::diff`; the fetching, with its limits, is [`crate::fetch`].

use std::process::ExitCode;
use std::time::Duration;

use crate::cli::{DiffArgs, DiffFormat};
use crate::diagnostics::Format;
use crate::fetch::{FetchError, Fetcher};
use crate::layout;
use crate::site;
use crate::site::diff::{Report, diff_file};

pub fn run(args: DiffArgs) -> anyhow::Result<ExitCode> {
    let options = super::check_options(&args.common);
    let checked = site::check_documents(&args.common.root, &options)?;
    if checked.has_errors() {
        super::check::report(&args.common.root, &checked.diagnostics, Format::Human)?;
        anyhow::bail!(
            "the data has errors, so there is no build to compare; run `activity-site check`"
        );
    }
    let files: Vec<site::OutputFile> = site::api_files(&site::outputs(&checked))
        .into_iter()
        .filter(|f| layout::is_activity_document(&f.path))
        .collect();

    crate::fetch::http_url("--against", &args.against)?;
    // A base that already names the API (`…/api/v1`) means the site above it.
    let base = layout::site_root(&args.against).to_owned();
    // Each deployed file is compared as it arrives and then dropped, so no
    // more than a few bodies are held at once.
    let fetcher = Fetcher::new("diff", Duration::from_secs(args.timeout.max(1)))?;
    let urls: Vec<String> = files.iter().map(|f| format!("{base}/{}", f.path)).collect();
    let mut found = false;
    let compared = fetcher.for_each(&urls, |i, deployed| {
        let deployed = match deployed {
            Ok(body) => Some(body),
            Err(FetchError::NotFound) => None,
            Err(err) => anyhow::bail!("cannot fetch {}: {err}", urls[i]),
        };
        found |= deployed.is_some();
        diff_file(&files[i].path, &files[i].bytes, deployed.as_deref())
    });
    let mut report = Report {
        against: base.clone(),
        files: compared.into_iter().collect::<anyhow::Result<_>>()?,
    };
    // The deployed index comes last: it names files this build may no longer have.
    let index_url = format!("{base}/{}", layout::INDEX_PATH);
    match fetcher.get(&index_url) {
        Ok(index) => report.add_removed(&index),
        // Not one file and no index: the wrong address, not a site to create.
        Err(FetchError::NotFound) if !found => anyhow::bail!(
            "nothing found at {base}: {index_url} and all {} activity files answered 404 not found\n\
             help: give the site's base URL, the one under which the API lives at {}/",
            urls.len(),
            layout::API_DIR
        ),
        Err(FetchError::NotFound) => {}
        Err(err) => anyhow::bail!("cannot fetch {index_url}: {err}"),
    }
    match args.format {
        DiffFormat::Text => super::print_out(&report.to_text())?,
        DiffFormat::Json => super::print_out(&report.to_json())?,
    }
    Ok(super::exit_status(report.has_changes()))
}
