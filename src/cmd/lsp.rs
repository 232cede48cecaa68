use std::process::ExitCode;

use crate::cli::ToolArgs;
use crate::lsp;
use crate::validate;

pub fn run(args: ToolArgs) -> anyhow::Result<ExitCode> {
    let options = validate::Options {
        now: args.common.now,
    };
    lsp::run(&args.common.root, options)
}
