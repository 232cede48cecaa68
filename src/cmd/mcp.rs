//! `mcp`: serve the data tools for agents ([`crate::data_mcp`]) over stdio for the root; glue only.

use std::process::ExitCode;

use rmcp::ServiceExt as _;

use crate::data_mcp::DataTools;
use crate::root::Workspace;

pub fn run(ws: &Workspace) -> anyhow::Result<ExitCode> {
    let options = super::options::check_with_base(ws, None)?;
    let tools = DataTools::new(&ws.root, options);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let service = tools.serve(rmcp::transport::stdio()).await?;
        service.waiting().await?;
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
