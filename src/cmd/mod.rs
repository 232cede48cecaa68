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
mod fmt;
mod import;
mod publish;
mod serve;
mod status;

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Build(args) => build::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Status(args) => status::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Import(args) => import::run(args),
        Command::Publish(args) => publish::run(args),
        Command::Backend(args) => backend::run(args),
    }
}

/// A small runtime of the command's own and an HTTP client with `timeout`
/// for connecting and for each whole request, named `activity-site/<version>
/// (<purpose>)` to the servers it asks.
pub(crate) fn http_client(
    purpose: &str,
    timeout: std::time::Duration,
) -> anyhow::Result<(tokio::runtime::Runtime, reqwest::Client)> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|err| anyhow::anyhow!("cannot start the async runtime: {err}"))?;
    let client = reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout)
        .user_agent(format!(
            "activity-site/{} ({purpose})",
            env!("CARGO_PKG_VERSION")
        ))
        .build()?;
    Ok((runtime, client))
}

/// Writes data to stdout and flushes it. A closed pipe comes back as an
/// error that `main` turns into a quiet exit ([`is_broken_pipe`]) instead of
/// the panic of `print!`.
pub(crate) fn print_out(text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}

/// Whether `err` comes from writing to a closed pipe (`... | head`): the
/// reader has what it wanted, so the command ends quietly with status 0,
/// as ripgrep and the other Rust tools that handle it do.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Whether stderr should be coloured: a terminal, and `NO_COLOR` unset.
pub(crate) fn stderr_color() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stderr().is_terminal()
}

/// A reqwest error with its causes, which say what actually went wrong
/// (timed out, connection refused, DNS): `diff` and `import` fetch URLs.
pub(crate) fn describe_http_error(err: &reqwest::Error) -> String {
    let mut text = if err.is_timeout() {
        "timed out".to_owned()
    } else if err.is_connect() {
        "the host is unreachable".to_owned()
    } else {
        err.to_string()
    };
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
