//! `lsp`: run the language server ([`crate::lsp`]) on stdio for the root; glue only.

use std::process::ExitCode;

use crate::lsp;
use crate::root::Workspace;

pub fn run(ws: &Workspace) -> anyhow::Result<ExitCode> {
    let options = super::options::check_with_base(ws, None)?;
    lsp::run(&ws.root, options)
}
