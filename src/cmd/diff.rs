//! `diff`: build the API in memory, fetch the deployed copy of each file and
//! print what deploying this build would change. The comparison itself is
//! `site::diff`; this file only fetches.

use std::process::ExitCode;
use std::time::Duration;

use crate::cli::{DiffArgs, StatusFormat};
use crate::diagnostics::Format;
use crate::layout;
use crate::site::{self, diff::Report};
use crate::validate;

pub fn run(args: DiffArgs) -> anyhow::Result<ExitCode> {
    let options = validate::Options {
        now: args.common.now,
    };
    let checked = site::check(&args.common.root, &options, true)?;
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

    let base = args.against.trim_end_matches('/').to_owned();
    let url = reqwest::Url::parse(&base)
        .map_err(|err| anyhow::anyhow!("`{}` is not a URL: {err}", args.against))?;
    if !matches!(url.scheme(), "http" | "https") {
        anyhow::bail!("`{}` is not an http(s) URL", args.against);
    }
    // The deployed index comes last: it names files this build may no longer have.
    let mut urls: Vec<String> = files.iter().map(|f| format!("{base}/{}", f.path)).collect();
    urls.push(format!("{base}/{}", layout::INDEX_PATH));
    let mut deployed = fetch_all(&urls, Duration::from_secs(args.timeout.max(1)))?;
    let deployed_index = deployed.pop().flatten();

    let mut report = Report::new(
        &args.against,
        files
            .iter()
            .zip(&deployed)
            .map(|(f, d)| (f.path.as_str(), f.bytes.as_slice(), d.as_deref())),
    )?;
    if let Some(index) = deployed_index {
        report.add_removed(&index);
    }
    match args.format {
        StatusFormat::Text => super::print_out(&report.to_text())?,
        StatusFormat::Json => super::print_out(&report.to_json())?,
    }
    Ok(if report.has_changes() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Fetches every URL concurrently on a small runtime of this command's own:
/// `Some(body)` for 200, `None` for 404, an error for anything else or when
/// the host cannot be reached.
fn fetch_all(urls: &[String], timeout: Duration) -> anyhow::Result<Vec<Option<Vec<u8>>>> {
    let (runtime, client) = super::http_client("diff", timeout)?;
    runtime.block_on(async {
        let fetches = urls.iter().map(|url| fetch(&client, url));
        futures::future::join_all(fetches)
            .await
            .into_iter()
            .collect()
    })
}

async fn fetch(client: &reqwest::Client, url: &str) -> anyhow::Result<Option<Vec<u8>>> {
    let response = client.get(url).send().await.map_err(|err| {
        anyhow::anyhow!("cannot fetch {url}: {}", super::describe_http_error(&err))
    })?;
    match response.status() {
        reqwest::StatusCode::OK => {
            let body = response.bytes().await.map_err(|err| {
                anyhow::anyhow!("cannot read {url}: {}", super::describe_http_error(&err))
            })?;
            Ok(Some(body.to_vec()))
        }
        reqwest::StatusCode::NOT_FOUND => Ok(None),
        status => anyhow::bail!("GET {url} answered {status}"),
    }
}
