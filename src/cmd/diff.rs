//! `diff`: what publishing this build would do to its clients, against a
//! deployed site (a URL), a folder of a built or deployed site, or the build
//! of a git revision of the data. Reading the bases and comparing is
//! [`crate::bases`]; this file reads the flags and prints the report.

use std::process::ExitCode;
use std::time::Duration;

use crate::bases::{self, Outcome, Request};
use crate::cli::{DiffArgs, DiffFormat};
use crate::diagnostics::Format;
use crate::i18n::msg;
use crate::root::Workspace;

pub fn run(args: DiffArgs, ws: &Workspace) -> anyhow::Result<ExitCode> {
    let root = &ws.root;
    let request = Request {
        root,
        against: args.against.as_deref(),
        against_rev: args.against_rev.as_deref(),
        site: args.site.as_deref(),
        now: ws.now,
        timeout: Duration::from_secs(args.timeout.max(1)),
    };
    let review = match bases::review(&request)? {
        Outcome::Reviewed(review) => review,
        Outcome::DataErrors(diagnostics) => {
            super::report(root, &diagnostics, Format::Human)?;
            return Err(anyhow::Error::new(msg!("diff-data-errors")));
        }
    };
    let report = &review.report;
    let text = match args.format {
        DiffFormat::Text => report.to_text(&review.ids()),
        DiffFormat::Json => report.to_json(),
        DiffFormat::Markdown => report.to_markdown(&review.ids()),
        DiffFormat::Github => report.to_github(&|path, name| review.locate(path, name)),
    };
    super::print_out(&text)?;
    Ok(ExitCode::from(report.exit_code()))
}
