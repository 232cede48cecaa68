//! One function per subcommand: glue between the CLI and the library.
//!
//! Exit codes: 0 clean, 1 problems found in the data (or changes found by
//! `fmt --check` and `diff`), 2 the tool itself failed.

use std::process::ExitCode;

use crate::cli::{Cli, Command};

mod backend;
mod build;
mod check;
mod diff;
mod docs;
mod fmt;
mod import;
mod lsp;
mod mcp;
mod options;
mod publish;
mod serve;
mod status;
mod version;

pub fn run(mut cli: Cli) -> anyhow::Result<ExitCode> {
    crate::i18n::set_process(cli.lang.unwrap_or_else(crate::i18n::Lang::from_env));
    let (root_flag, now) = (cli.root.take(), cli.now.take());
    let global = |common: &mut crate::cli::Common| {
        common.root_flag.clone_from(&root_flag);
        common.now = now;
    };
    match &mut cli.command {
        Command::Check(crate::cli::CheckArgs { common, .. })
        | Command::Build(crate::cli::BuildArgs { common, .. })
        | Command::Fmt(crate::cli::FmtArgs { common, .. })
        | Command::Status(crate::cli::StatusArgs { common, .. })
        | Command::Serve(crate::cli::ServeArgs { common, .. })
        | Command::Diff(crate::cli::DiffArgs { common, .. })
        | Command::Docs(crate::cli::DocsArgs { common, .. })
        | Command::Version(crate::cli::VersionArgs {
            command: crate::cli::VersionCommand::New(crate::cli::VersionNewArgs { common, .. }),
        }) => {
            global(common);
            common.root = crate::root::of_data(common.root_flag.as_deref())?;
        }
        Command::Import(crate::cli::ImportArgs { common, .. })
        | Command::Publish(crate::cli::PublishArgs { common, .. })
        | Command::Lsp(crate::cli::ToolArgs { common })
        | Command::Mcp(crate::cli::ToolArgs { common }) => {
            global(common);
            common.root = crate::root::of_any(common.root_flag.as_deref())?;
        }
        Command::Backend(_) => {}
    }
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Build(args) => build::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Status(args) => status::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Docs(args) => docs::run(&args),
        Command::Version(args) => version::run(args),
        Command::Import(args) => import::run(args),
        Command::Publish(args) => publish::run(args),
        Command::Lsp(args) => lsp::run(args),
        Command::Mcp(args) => mcp::run(args),
        Command::Backend(args) => backend::run(args),
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
pub(crate) use crate::terminal::{print_err, print_out, progress_bar, report, say, stderr_color};
