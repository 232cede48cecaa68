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
mod lsp;
mod mcp;
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
        | Command::Version(crate::cli::VersionArgs {
            command: crate::cli::VersionCommand::New(crate::cli::VersionNewArgs { common, .. }),
        }) => {
            global(common);
            common.root = find_root(common.root_flag.as_deref(), true)?;
            require_registry(&common.root)?;
        }
        Command::Import(crate::cli::ImportArgs { common, .. })
        | Command::Publish(crate::cli::PublishArgs { common, .. })
        | Command::Lsp(crate::cli::ToolArgs { common })
        | Command::Mcp(crate::cli::ToolArgs { common }) => {
            global(common);
            common.root = find_root(common.root_flag.as_deref(), false)?;
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
        Command::Version(args) => version::run(args),
        Command::Import(args) => import::run(args),
        Command::Publish(args) => publish::run(args),
        Command::Lsp(args) => lsp::run(args),
        Command::Mcp(args) => mcp::run(args),
        Command::Backend(args) => backend::run(args),
    }
}

/// The check's options from the flags every data command shares.
fn check_options(common: &crate::cli::Common) -> crate::validate::Options {
    crate::validate::Options { now: common.now }
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

/// The root a command works on. `--root` wins; otherwise, like `cargo` and
/// `git`, the nearest folder at or above the current one that holds
/// `games.json`. When there is none, a command that reads the data (`needed`)
/// fails saying where it looked; the others (`import` creates `games.json`,
/// the servers serve any folder) take the current folder.
fn find_root(flag: Option<&std::path::Path>, needed: bool) -> anyhow::Result<std::path::PathBuf> {
    if let Some(root) = flag {
        return Ok(root.to_path_buf());
    }
    let cwd = std::env::current_dir()?;
    if let Some(found) = cwd
        .ancestors()
        .find(|dir| dir.join(crate::tree::REGISTRY_PATH).is_file())
    {
        // Relative to the current folder when it is inside: paths print short.
        return Ok(match found.strip_prefix(&cwd) {
            Ok(rel) if rel.as_os_str().is_empty() => std::path::PathBuf::from("."),
            _ => found.to_path_buf(),
        });
    }
    if needed {
        return Err(anyhow::Error::new(crate::i18n::msg!(
            "no-registry-above",
            registry = crate::tree::REGISTRY_PATH,
            folder = cwd.display().to_string()
        )));
    }
    Ok(std::path::PathBuf::from("."))
}

/// The commands that read the data refuse a root without `games.json` (run
/// in the wrong folder) with one line, before they print an empty table,
/// report a file that is not there, or create state in that folder. A root
/// that cannot be read at all is the loader's error. `import` creates
/// `games.json`, `publish` reads a built site, and `lsp` and `mcp` serve whatever
/// folder an editor or agent opens (a missing registry is a diagnostic there).
fn require_registry(root: &std::path::Path) -> anyhow::Result<()> {
    if root.is_dir() && !root.join(crate::load::REGISTRY_PATH).exists() {
        return Err(anyhow::Error::new(crate::i18n::msg!(
            "no-registry",
            registry = crate::load::REGISTRY_PATH,
            root = root.display().to_string()
        )));
    }
    Ok(())
}

/// A progress bar on stderr with `template` (indicatif's), shown only on a
/// terminal outside CI (`CI` set and not `false`) and when there is work.
pub(crate) fn progress_bar(total: u64, template: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal as _;
    let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false");
    if ci || !std::io::stderr().is_terminal() || total == 0 {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}

/// Writes data to stdout and flushes it. A closed pipe (`... | head`) is
/// not an error: the reader has what it wanted, so the text is dropped and
/// the command goes on to end with its own status (1 for a failed check,
/// read by `set -o pipefail`), quietly, as ripgrep does. Any other failure
/// (`> /dev/full`) is returned.
pub(crate) fn print_out(text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        result => result,
    }
}

/// Writes text to stderr, ignoring a closed pipe like [`print_out`]
/// (`eprint!` would panic).
pub(crate) fn print_err(text: &str) {
    use std::io::Write as _;
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// Whether `err` comes from writing to a closed pipe somewhere
/// [`print_out`] does not handle (clap's help, say): `main` then ends
/// quietly with status 0.
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
