//! One function per subcommand: glue between the CLI and the library.
//!
//! Exit codes: 0 clean, 1 problems found in the data (or changes found by
//! `fmt --check` and `diff`), 2 the tool itself failed.

use std::process::ExitCode;

use crate::cli::{Cli, Command};
use crate::root::Workspace;

mod backend;
mod build;
mod check;
mod diff;
mod docs;
mod fix;
mod fmt;
mod import;
mod lsp;
mod mcp;
mod options;
mod publish;
mod serve;
mod status;
mod version;

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    crate::i18n::set_process(cli.lang.unwrap_or_else(crate::i18n::Lang::from_env));
    let command = match cli.command {
        // The simulated backend works on no tree.
        Command::Backend(args) => return backend::run(args),
        command => command,
    };
    let flag = cli.root.as_deref();
    let root = match &command {
        // These may start without data (see `root::of_any`).
        Command::Import(_) | Command::Publish(_) | Command::Lsp | Command::Mcp => {
            crate::root::of_any(flag)?
        }
        _ => crate::root::of_data(flag)?,
    };
    let ws = Workspace { root, now: cli.now };
    match command {
        Command::Check(args) => check::run(args, &ws),
        Command::Build(args) => build::run(args, &ws),
        Command::Fmt(args) => fmt::run(args, &ws),
        Command::Status(args) => status::run(args, &ws),
        Command::Serve(args) => serve::run(args, &ws),
        Command::Diff(args) => diff::run(args, &ws),
        Command::Docs(args) => docs::run(&args, &ws),
        Command::Version(args) => version::run(args, &ws),
        Command::Import(args) => import::run(args, &ws),
        Command::Publish(args) => publish::run(args, &ws),
        Command::Lsp => lsp::run(&ws),
        Command::Mcp => mcp::run(&ws),
        Command::Backend(_) => unreachable!("the backend returned above"),
    }
}

/// 1 when the command found problems (or changes, for `fmt --check` and
/// `diff`), else 0; the tool's own failures are `Err`, which `main` makes 2.
fn exit_status(problems: bool) -> ExitCode {
    if problems {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

// The printers every command uses, from the library's one owner.
pub use crate::terminal::is_broken_pipe;
pub(crate) use crate::terminal::{print_err, print_out, report, say, stderr_color};
