//! Command-line types (clap derive). Every command, flag and value names its
//! help by the identifier of a message of the `.ftl` files (`help-…`), never
//! by English prose: [`parse`] reads `--lang` (or the environment) first and
//! renders the help, its examples, the usage line and clap's own headings in
//! that language ([`help`]).

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::diagnostics::Format;
pub use crate::import::LegacyChoice;
use crate::layout::SiteUrl;
pub use crate::publish::store::Addressing;

mod help;
pub use help::{localized_command, parse};

#[derive(Debug, Parser)]
#[command(name = "activity-site", version, about = "help-about", long_about = None)]
pub struct Cli {
    #[arg(
        long,
        value_enum,
        global = true,
        value_name = "LANG",
        help = "help-arg-lang"
    )]
    pub lang: Option<crate::i18n::Lang>,
    /// `--root`, accepted before the command as after it (`global`);
    /// `cmd::run` resolves it (or finds the root) once, into the
    /// [`crate::root::Workspace`] every command receives.
    #[arg(
        long = "root",
        id = "root",
        global = true,
        value_name = "ROOT",
        help = "help-arg-root"
    )]
    pub root: Option<PathBuf>,
    /// `--now`, accepted before the command as after it (`global`).
    #[arg(long, value_parser = parse_now, global = true, help = "help-arg-now")]
    pub now: Option<crate::clock::Now>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    #[command(about = "help-cmd-check", after_help = "help-cmd-check-after")]
    Check(CheckArgs),
    #[command(about = "help-cmd-build", after_help = "help-cmd-build-after")]
    Build(BuildArgs),
    #[command(about = "help-cmd-fmt", after_help = "help-cmd-fmt-after")]
    Fmt(FmtArgs),
    #[command(about = "help-cmd-status", after_help = "help-cmd-status-after")]
    Status(StatusArgs),
    #[command(about = "help-cmd-serve", after_help = "help-cmd-serve-after")]
    Serve(ServeArgs),
    #[command(about = "help-cmd-diff", after_help = "help-cmd-diff-after")]
    Diff(DiffArgs),
    #[command(about = "help-cmd-version", after_help = "help-cmd-version-after")]
    Version(VersionArgs),
    #[command(about = "help-cmd-import", after_help = "help-cmd-import-after")]
    Import(ImportArgs),
    #[command(about = "help-cmd-publish", after_help = "help-cmd-publish-after")]
    Publish(PublishArgs),
    #[command(about = "help-cmd-docs", after_help = "help-cmd-docs-after")]
    Docs(DocsArgs),
    #[command(about = "help-cmd-lsp", after_help = "help-cmd-lsp-after")]
    Lsp,
    #[command(about = "help-cmd-mcp", after_help = "help-cmd-mcp-after")]
    Mcp,
    // Hidden, so its help stays the English of its doc comments.
    /// The simulated backend program that `serve` runs as a child (internal)
    #[command(hide = true)]
    Backend(BackendArgs),
}

#[derive(Debug, Args)]
pub struct BackendArgs {
    /// Start arguments: --inline, --no-admin, --python, --step-ms=N,
    /// --fail-task=NAME, --unavailable (anything else is refused)
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub arguments: Vec<String>,
}

/// Where the build keeps rendered and compressed files between builds.
#[derive(Debug, Clone, Args)]
pub struct CacheArgs {
    #[arg(long, conflicts_with = "no_cache", help = "help-arg-cache-dir")]
    pub cache_dir: Option<PathBuf>,
    #[arg(long, help = "help-arg-no-cache")]
    pub no_cache: bool,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[arg(long, value_enum, default_value_t = Format::Human, help = "help-arg-check-format")]
    pub format: Format,
    #[arg(long, help = "help-arg-check-deny-warnings")]
    pub deny_warnings: bool,
    #[arg(long, help = "help-arg-check-fix")]
    pub fix: bool,
    /// `--diff`, also spelt `--dry-run` (a hidden alias: the help names it
    /// in the reader's language).
    #[arg(
        long,
        alias = "dry-run",
        requires = "fix",
        help = "help-arg-check-diff"
    )]
    pub diff: bool,
    #[arg(long, value_name = "REF", help = "help-arg-check-changed-since")]
    pub changed_since: Option<String>,
    #[arg(value_name = "PATH", help = "help-arg-check-paths")]
    pub paths: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    #[command(flatten)]
    pub output: OutputArgs,
    #[arg(long, value_enum, default_value_t = Format::Human, help = "help-arg-build-format")]
    pub format: Format,
}

/// Where and how `build` and `serve` write the site.
#[derive(Debug, Args)]
pub struct OutputArgs {
    #[arg(long, help = "help-arg-out")]
    pub out: Option<PathBuf>,
    #[arg(long, help = "help-arg-force")]
    pub force: bool,
    #[command(flatten)]
    pub cache: CacheArgs,
    #[arg(long, value_enum, default_value_t = Compress::Fast, help = "help-arg-compress")]
    pub compress: Compress,
    #[arg(long, value_name = "URL", value_parser = parse_site_url, help = "help-arg-site-url")]
    pub site_url: Option<SiteUrl>,
}

/// `--site-url`: an http(s) URL without query or fragment
/// ([`SiteUrl::parse`]), the reason said in the user's language.
fn parse_site_url(text: &str) -> Result<SiteUrl, String> {
    SiteUrl::parse(text)
        .map_err(|reason| crate::i18n::Msg::new(reason).arg("url", text).to_string())
}

/// `--compress`: which siblings the builder writes, at which levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Compress {
    #[value(help = "help-value-compress-fast")]
    Fast,
    #[value(help = "help-value-compress-max")]
    Max,
    #[value(help = "help-value-compress-none")]
    None,
}

#[derive(Debug, Args)]
pub struct FmtArgs {
    #[arg(long, help = "help-arg-fmt-check")]
    pub check: bool,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    #[arg(long, value_enum, default_value_t = StatusFormat::Text, help = "help-arg-status-format")]
    pub format: StatusFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StatusFormat {
    #[value(help = "help-value-status-text")]
    Text,
    #[value(help = "help-value-status-json")]
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    #[value(help = "help-value-diff-text")]
    Text,
    #[value(help = "help-value-diff-json")]
    Json,
    #[value(help = "help-value-diff-markdown")]
    Markdown,
    #[value(help = "help-value-diff-github")]
    Github,
}

#[derive(Debug, Args)]
pub struct DocsArgs {
    #[arg(value_enum, help = "help-arg-docs-what")]
    pub what: DocsWhat,
}

/// The parts of the documents that a command writes (README's games
/// table, CONTRIBUTING's codes), so they cannot drift from what they say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DocsWhat {
    #[value(help = "help-value-docs-games")]
    Games,
    #[value(help = "help-value-docs-codes")]
    Codes,
}

#[derive(Debug, Args)]
pub struct VersionArgs {
    #[command(subcommand)]
    pub command: VersionCommand,
}

#[derive(Debug, Subcommand)]
pub enum VersionCommand {
    #[command(about = "help-cmd-version-new", after_help = "help-cmd-version-after")]
    New(VersionNewArgs),
}

#[derive(Debug, Args)]
pub struct VersionNewArgs {
    #[arg(help = "help-arg-version-game")]
    pub game: String,
    #[arg(
        long = "version",
        value_name = "VERSION",
        help = "help-arg-version-version"
    )]
    pub version: String,
    #[arg(
        long = "name",
        value_name = "[LOCALE=]NAME",
        required = true,
        help = "help-arg-version-name"
    )]
    pub names: Vec<String>,
    #[arg(long, help = "help-arg-version-start")]
    pub start: String,
    #[arg(long, help = "help-arg-version-end")]
    pub end: String,
    #[arg(long, help = "help-arg-version-cover")]
    pub cover: Option<String>,
    #[arg(long, value_name = "ID|NAME", help = "help-arg-version-drop")]
    pub drop: Vec<String>,
    #[arg(long, help = "help-arg-version-dry-run")]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub output: OutputArgs,
    #[arg(long, default_value = "127.0.0.1:5000", help = "help-arg-serve-addr")]
    pub addr: SocketAddr,
    #[arg(long, help = "help-arg-serve-no-watch")]
    pub no_watch: bool,
    #[arg(long, help = "help-arg-serve-state-dir")]
    pub state_dir: Option<PathBuf>,
    #[arg(long, help = "help-arg-serve-control-config")]
    pub control_config: Option<PathBuf>,
    #[arg(long, value_name = "COMMAND", help = "help-arg-serve-backend-command")]
    pub backend_command: Option<String>,
    #[arg(
        long,
        env = "ACTIVITY_SITE_ACCESS_TOKEN",
        help = "help-arg-serve-access-token"
    )]
    pub access_token: Option<String>,
    #[arg(
        long = "allow-origin",
        value_name = "URL",
        help = "help-arg-serve-allow-origin"
    )]
    pub allow_origin: Vec<String>,
    /// Seconds an idle MCP session lives (hidden: for tests).
    #[arg(long, hide = true, default_value_t = 120)]
    pub mcp_session_idle: u64,
    /// Live MCP sessions at most (hidden: for tests).
    #[arg(long, hide = true, default_value_t = 128)]
    pub mcp_max_sessions: usize,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("base").required(true).args(["against", "against_rev"])))]
pub struct DiffArgs {
    #[arg(long, value_name = "URL|DIR", help = "help-arg-diff-against")]
    pub against: Option<String>,
    #[arg(long, value_name = "REV", help = "help-arg-diff-against-rev")]
    pub against_rev: Option<String>,
    #[arg(long, value_name = "DIR", help = "help-arg-diff-site")]
    pub site: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = DiffFormat::Text, help = "help-arg-diff-format")]
    pub format: DiffFormat,
    #[arg(long, default_value_t = 20, help = "help-arg-diff-timeout")]
    pub timeout: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PlanFormat {
    #[value(help = "help-value-plan-text")]
    Text,
    #[value(help = "help-value-plan-json")]
    Json,
}

#[derive(Debug, Args)]
pub struct PublishArgs {
    #[arg(long, help = "help-arg-publish-out")]
    pub out: Option<PathBuf>,
    #[arg(
        long,
        value_name = "s3://BUCKET[/PREFIX]",
        help = "help-arg-publish-to"
    )]
    pub to: String,
    #[arg(long, env = "AWS_ENDPOINT_URL", help = "help-arg-publish-endpoint")]
    pub endpoint: Option<String>,
    #[arg(long, help = "help-arg-publish-region")]
    pub region: Option<String>,
    #[arg(
        long,
        value_enum,
        default_value_t,
        help = "help-arg-publish-addressing"
    )]
    pub addressing: Addressing,
    #[arg(long, help = "help-arg-publish-profile")]
    pub profile: Option<String>,
    #[arg(long, help = "help-arg-publish-dry-run")]
    pub dry_run: bool,
    #[arg(long, help = "help-arg-publish-delete")]
    pub delete: bool,
    #[arg(long, help = "help-arg-publish-precompressed")]
    pub precompressed: bool,
    #[arg(long, help = "help-arg-publish-verify")]
    pub verify: bool,
    #[arg(long, value_name = "URL", value_parser = parse_site_url, help = "help-arg-publish-site-url")]
    pub site_url: Option<SiteUrl>,
    #[arg(long, help = "help-arg-publish-adopt")]
    pub adopt: bool,
    #[arg(long, value_enum, default_value_t = PlanFormat::Text, help = "help-arg-publish-format")]
    pub format: PlanFormat,
    #[arg(
        long,
        default_value_t = 8,
        value_parser = clap::value_parser!(u16).range(1..=64),
        help = "help-arg-publish-jobs"
    )]
    pub jobs: u16,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    #[arg(long, help = "help-arg-import-from")]
    pub from: String,
    #[arg(long, help = "help-arg-import-force")]
    pub force: bool,
    #[arg(long, value_delimiter = ',', help = "help-arg-import-games")]
    pub games: Vec<String>,
    #[arg(long, value_delimiter = ',', help = "help-arg-import-locales")]
    pub locales: Vec<String>,
    #[arg(long, default_value = "zh-CN", help = "help-arg-import-default-locale")]
    pub default_locale: String,
    #[arg(long, default_value_t = 20, help = "help-arg-import-timeout")]
    pub timeout: u64,
    #[arg(long, help = "help-arg-import-keep-unknown")]
    pub keep_unknown: bool,
    #[arg(long, help = "help-arg-import-allow-skipped")]
    pub allow_skipped: bool,
    #[arg(long, value_enum, help = "help-arg-import-legacy")]
    pub legacy: Option<LegacyChoice>,
    #[arg(
        long,
        value_delimiter = ',',
        value_parser = parse_time_zone,
        help = "help-arg-import-time-zone"
    )]
    pub time_zone: Vec<(Option<String>, String)>,
}

/// `ZONE` or `GAME=ZONE`, with an IANA zone name.
fn parse_time_zone(s: &str) -> Result<(Option<String>, String), String> {
    let (game, zone) = match s.split_once('=') {
        Some((game, zone)) => (Some(game.to_owned()), zone),
        None => (None, s),
    };
    zone.parse::<chrono_tz::Tz>()
        .map_err(|_| format!("`{zone}` is not an IANA time zone such as Asia/Tokyo"))?;
    Ok((game, zone.to_owned()))
}

/// `--now`: a local time or an instant; anything else is explained as a
/// file's time is (the one reader of times, `validate::flags`).
fn parse_now(s: &str) -> Result<crate::clock::Now, String> {
    crate::clock::Now::parse(s).map_err(|_| {
        let problem = crate::validate::flags::explain_flag_time("--now", s, None);
        crate::i18n::msg!("flag-now-bad", problem = problem).to_string()
    })
}
