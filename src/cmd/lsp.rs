//! `lsp`: run the language server ([`crate::lsp`]) on stdio for the root; glue only.

use std::process::ExitCode;

use crate::cli::ToolArgs;
use crate::lsp;

pub fn run(args: ToolArgs) -> anyhow::Result<ExitCode> {
    let options = super::options::check_with_base(&args.common, None)?;
    lsp::run(&args.common.root, options)
}
