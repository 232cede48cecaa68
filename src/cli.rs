//! Command-line types (clap derive). Every command and flag has a help line.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::diagnostics::Format;
pub use crate::import::LegacyChoice;
pub use crate::publish::store::Addressing;

/// Validate, build and serve the public activity API.
#[derive(Debug, Parser)]
#[command(name = "activity-site", version, about, long_about = None)]
pub struct Cli {
    /// Language of messages (default: LC_ALL, LC_MESSAGES or LANG, else en-US)
    #[arg(long, value_enum, global = true, value_name = "LANG")]
    pub lang: Option<crate::i18n::Lang>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate games.json and every data file; report every problem at once
    #[command(after_help = "Example:\n  activity-site check --root . --format github")]
    Check(CheckArgs),
    /// Validate, then write the site (API, index, schema, pages, calendars) atomically
    #[command(after_help = "Example:\n  activity-site build --out site")]
    Build(BuildArgs),
    /// Rewrite data files and games.json in canonical form
    #[command(after_help = "Example:\n  activity-site fmt --check")]
    Fmt(FmtArgs),
    /// Show which games and locales need updating first
    #[command(after_help = "Example:\n  activity-site status --now 2026-11-22T12:00:00")]
    Status(StatusArgs),
    /// Build, serve and watch the site; mount the simulated control API and /mcp
    #[command(after_help = "Example:\n  activity-site serve --addr 127.0.0.1:5000")]
    Serve(ServeArgs),
    /// Compare this build with a deployed site, a folder or a git revision: what clients would see change
    #[command(
        after_help = "Exit status: 0 nothing changes, 1 changes, 3 breaking changes (a file removed, an ongoing\nactivity removed, an upcoming version replacing a running one, announcements changed under\nthe same id, a version going backwards), 2 the tool failed.\n\nExample:\n  activity-site diff --against https://example.org\n  activity-site diff --against ../deployed-site --format markdown\n  activity-site diff --against-rev origin/main --format github"
    )]
    Diff(DiffArgs),
    /// Start a game's next version in every locale, carrying the activities that run past its start
    #[command(
        after_help = "Example:\n  activity-site version new sr --version 4.7 --name 4.7 --name en-US=4.7 --start 2026-12-01T11:00:00 --end 2027-01-12T05:59:59"
    )]
    Version(VersionArgs),
    /// Move an existing API in: published files (a folder or a URL) to games.json and data/
    #[command(
        after_help = "Examples:\n  activity-site import --from ../old/public/api/v1/activity\n  activity-site import --from https://example.org\n  activity-site import --from https://example.org --games ak,end --locales en-US"
    )]
    Import(ImportArgs),
    /// Upload the built site to S3-compatible storage: only what changed, data before the index
    #[command(
        after_help = "Credentials come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN,\nor a profile of ~/.aws/credentials (--profile, AWS_PROFILE); never from a flag.\n\nExamples:\n  activity-site publish --to s3://my-bucket/activity --dry-run\n  activity-site publish --to s3://activity --endpoint https://ACCOUNT.r2.cloudflarestorage.com --region auto --delete"
    )]
    Publish(PublishArgs),
    /// Language server over stdio: check's diagnostics as you type, quick fixes, formatting, hover
    #[command(
        after_help = "Started by an editor, not by hand; see the README for Neovim, Helix, Zed and VS Code.\n\nExample:\n  activity-site lsp --root ."
    )]
    Lsp(ToolArgs),
    /// MCP server over stdio for agents: list, read, check and write data files through the checker
    #[command(
        after_help = "Example (an agent's configuration):\n  {\"command\": \"activity-site\", \"args\": [\"mcp\", \"--root\", \"/path/to/data\"]}"
    )]
    Mcp(ToolArgs),
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

/// Flags every data command shares.
#[derive(Debug, Clone, Args)]
pub struct Common {
    /// Root of the data tree (holds games.json, data/ and schema/); by default the
    /// nearest folder at or above the current one that holds games.json
    #[arg(long = "root", id = "root", global = true, value_name = "ROOT")]
    pub root_flag: Option<PathBuf>,
    /// The root the command works on: `--root`, or the one found (set before
    /// the command runs, by `cmd::run`).
    #[arg(skip)]
    pub root: PathBuf,
    /// Pin "now": YYYY-MM-DDTHH:MM:SS is that wall time in each game's time zone;
    /// with an offset (2026-11-22T12:00:00+09:00, ...Z) it is one instant, read in each game's zone
    #[arg(long, value_parser = parse_now, global = true)]
    pub now: Option<crate::clock::Now>,
}

/// Where the build keeps rendered and compressed files between builds.
#[derive(Debug, Clone, Args)]
pub struct CacheArgs {
    /// Build cache directory (default: <root>/.activity-site/cache)
    #[arg(long, conflicts_with = "no_cache")]
    pub cache_dir: Option<PathBuf>,
    /// Render and compress every file, without reading or writing the build cache
    #[arg(long)]
    pub no_cache: bool,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub common: Common,
    /// Output format of the diagnostics
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Exit 1 on warnings too
    #[arg(long)]
    pub deny_warnings: bool,
    /// Apply every exact fix (full-width punctuation, commas, quotes, date forms, ...), then check again and report what remains
    #[arg(long)]
    pub fix: bool,
    /// With --fix: print the fixes as a patch and write nothing
    #[arg(long, visible_alias = "dry-run", requires = "fix")]
    pub diff: bool,
    /// Check only these files (relative to the current folder), with the rules across files that involve them
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

/// The stdio servers for editors (`lsp`) and agents (`mcp`).
#[derive(Debug, Args)]
pub struct ToolArgs {
    #[command(flatten)]
    pub common: Common,
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Output format of the diagnostics when the check fails
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Where and how `build` and `serve` write the site.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Output directory, replaced atomically (default: <root>/site); only an
    /// absent, empty or generated directory is replaced
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace an --out directory that activity-site did not make, moving what it
    /// holds to <out>.replaced-<date and time> beside it (listed first, never
    /// deleted); never the data root, its inputs, a home directory or a file
    /// system root
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub cache: CacheArgs,
    /// Precompressed siblings: a .gz at a fast level (the default; every
    /// client accepts it), .br and .gz at the maximum levels (smallest
    /// files, many times the CPU time) or none
    #[arg(long, value_enum, default_value_t = Compress::Fast)]
    pub compress: Compress,
}

/// `--compress`: which siblings the builder writes, at which levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Compress {
    /// gzip at level 6, no brotli
    Fast,
    /// brotli at quality 11 and gzip at level 9
    Max,
    /// no .br/.gz siblings
    None,
}

#[derive(Debug, Args)]
pub struct FmtArgs {
    #[command(flatten)]
    pub common: Common,
    /// Change nothing; list files that would change and exit 1 if any
    #[arg(long)]
    pub check: bool,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    #[command(flatten)]
    pub common: Common,
    /// Output format
    #[arg(long, value_enum, default_value_t = StatusFormat::Text)]
    pub format: StatusFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StatusFormat {
    /// an aligned table
    Text,
    /// a JSON array of rows
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    /// breaking changes first, then what changes per game, then a summary line
    Text,
    /// one JSON object: `against`, `changes`, `breaking`, `exitCode`, `counts`, `files` (README)
    Json,
    /// breaking changes first, then a table per game (for $GITHUB_STEP_SUMMARY or a pull-request comment)
    Markdown,
    /// GitHub workflow commands: an error per breaking change and a notice per changed document, on their data file's line
    Github,
}

#[derive(Debug, Args)]
pub struct VersionArgs {
    #[command(subcommand)]
    pub command: VersionCommand,
}

#[derive(Debug, Subcommand)]
pub enum VersionCommand {
    /// Write the next version of a game in every locale: the new version's
    /// fields, and every activity of the current one that ends after the new
    /// start; refuses (writing nothing) when a locale has errors
    New(VersionNewArgs),
}

#[derive(Debug, Args)]
pub struct VersionNewArgs {
    #[command(flatten)]
    pub common: Common,
    /// The game id (as in games.json)
    pub game: String,
    /// The new version (`4.7`); it must come after the current one
    #[arg(long = "version", value_name = "VERSION")]
    pub version: String,
    /// The version's name: NAME for every locale, or LOCALE=NAME (repeatable)
    #[arg(long = "name", value_name = "[LOCALE=]NAME", required = true)]
    pub names: Vec<String>,
    /// Start of the new version (YYYY-MM-DDTHH:MM:SS, the game's local time)
    #[arg(long)]
    pub start: String,
    /// End of the new version (YYYY-MM-DDTHH:MM:SS)
    #[arg(long)]
    pub end: String,
    /// Cover image URL of the new version; without it each locale keeps its
    /// current cover, and --cover '' removes it
    #[arg(long)]
    pub cover: Option<String>,
    /// Print what would be written and write nothing
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Address to listen on
    #[arg(long, default_value = "127.0.0.1:5000")]
    pub addr: SocketAddr,
    /// Build once and serve, without watching the inputs
    #[arg(long)]
    pub no_watch: bool,
    /// State directory of the simulated control service (default: <root>/.activity-site)
    #[arg(long)]
    pub state_dir: Option<PathBuf>,
    /// Service configuration file (JSON with Logging, AllowedHosts and AccessToken)
    #[arg(long)]
    pub control_config: Option<PathBuf>,
    /// Backend program the control API runs and speaks to over its standard
    /// streams, as "PROGRAM [ARGS]" (default: this tool's simulator; overrides
    /// BackendCommand of the configuration file)
    #[arg(long, value_name = "COMMAND")]
    pub backend_command: Option<String>,
    /// Access token of the control API (overrides AccessToken of the configuration file)
    #[arg(long, env = "ACTIVITY_SITE_ACCESS_TOKEN")]
    pub access_token: Option<String>,
    /// Web origin whose pages may call the control API and /mcp, such as
    /// http://localhost:5173 (repeatable; adds to AllowedOrigins of the configuration file)
    #[arg(long = "allow-origin", value_name = "URL")]
    pub allow_origin: Vec<String>,
    /// Seconds an idle MCP session lives (default 120)
    #[arg(long, hide = true, default_value_t = 120)]
    pub mcp_session_idle: u64,
    /// Live MCP sessions at most (default 128)
    #[arg(long, hide = true, default_value_t = 128)]
    pub mcp_max_sessions: usize,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("base").required(true).args(["against", "against_rev"])))]
pub struct DiffArgs {
    #[command(flatten)]
    pub common: Common,
    /// The base: the http(s) URL of a deployed site (the API lives under
    /// <base>/api/v1; a base ending in /api/v1 is read as the site above it),
    /// or a folder holding a built or deployed site
    #[arg(long, value_name = "URL|DIR")]
    pub against: Option<String>,
    /// The base: a git revision of the data (`main`, `origin/main`, `HEAD~1`),
    /// built in a temporary folder with this binary; needs `git`, no network
    #[arg(long, value_name = "REV")]
    pub against_rev: Option<String>,
    /// Compare this already built site folder instead of building the root
    /// (folder and revision bases)
    #[arg(long, value_name = "DIR")]
    pub site: Option<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    pub format: DiffFormat,
    /// Request timeout in seconds (URL bases)
    #[arg(long, default_value_t = 20)]
    pub timeout: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PlanFormat {
    /// one line per path that changes (+ ~ ! - ?), then a summary line
    Text,
    /// one JSON object with every path, its action, phase, bytes and metadata
    Json,
}

#[derive(Debug, Args)]
pub struct PublishArgs {
    #[command(flatten)]
    pub common: Common,
    /// Directory of the built site, what `build --out` wrote (default: <root>/site)
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Where to publish: s3://BUCKET or s3://BUCKET/PREFIX
    #[arg(long, value_name = "s3://BUCKET[/PREFIX]")]
    pub to: String,
    /// Endpoint URL of an S3-compatible service (R2, OSS, COS, MinIO); default AWS S3
    #[arg(long, env = "AWS_ENDPOINT_URL")]
    pub endpoint: Option<String>,
    /// Region (R2: auto); default AWS_REGION, then us-east-1
    #[arg(long)]
    pub region: Option<String>,
    /// Bucket addressing in URLs
    #[arg(long, value_enum, default_value_t)]
    pub addressing: Addressing,
    /// Profile of the shared credentials file (default AWS_PROFILE, then `default`)
    #[arg(long)]
    pub profile: Option<String>,
    /// Print the plan (added, changed, unchanged, removed, bytes) and upload nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Remove objects this tool published earlier that the site no longer has
    #[arg(long)]
    pub delete: bool,
    /// Also upload the .br/.gz siblings, with Content-Encoding, for a CDN that serves them
    #[arg(long)]
    pub precompressed: bool,
    /// List every object under the prefix (not only the manifest) and upload again any that is missing
    #[arg(long)]
    pub verify: bool,
    /// Overwrite objects at the site's paths that another tool uploaded, and own them from now on
    #[arg(long)]
    pub adopt: bool,
    /// Output format of the plan
    #[arg(long, value_enum, default_value_t = PlanFormat::Text)]
    pub format: PlanFormat,
    /// Uploads in flight at once
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub jobs: u16,
}

impl Common {
    /// The output directory: `out` as given, else `<root>/site`.
    pub fn out_dir(&self, out: Option<&PathBuf>) -> PathBuf {
        out.cloned().unwrap_or_else(|| self.root.join("site"))
    }
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    #[command(flatten)]
    pub common: Common,
    /// A folder of <game>.json and <game>-<locale>.json files (or one holding
    /// api/v1/activity/ or public/api/v1/activity/), or the http(s) base URL of a deployed site
    #[arg(long)]
    pub from: String,
    /// Replace files of the root that differ from what the import writes
    #[arg(long)]
    pub force: bool,
    /// Only these games (comma-separated); for a URL without an index, the games to fetch
    #[arg(long, value_delimiter = ',')]
    pub games: Vec<String>,
    /// For a URL without an index: locales to ask each game for, besides the default one and those
    /// the site's llms.txt, the root's games.json and this tool's languages name (comma-separated)
    #[arg(long, value_delimiter = ',')]
    pub locales: Vec<String>,
    /// Locale of the un-suffixed <game>.json files when no index or games.json names one
    #[arg(long, default_value = "zh-CN")]
    pub default_locale: String,
    /// Request timeout in seconds (URL imports)
    #[arg(long, default_value_t = 20)]
    pub timeout: u64,
    /// Keep the files the build does not generate (robots.txt, a legacy api/v1/activities.json, ...) in data/_files/, published as they are
    #[arg(long)]
    pub keep_unknown: bool,
    /// Exit 0 even when files were found that are neither imported nor kept (they are still named)
    #[arg(long)]
    pub allow_skipped: bool,
    /// A legacy api/v1/activities.json that is one game's activity document: `sync` publishes it
    /// from that game's data at every build (an alias in games.json), `keep` keeps this copy frozen in data/_files/
    #[arg(long, value_enum)]
    pub legacy: Option<LegacyChoice>,
    /// Time zone of the imported games that neither games.json nor the index names: ZONE for all, GAME=ZONE for one (comma-separated, repeatable)
    #[arg(long, value_delimiter = ',', value_parser = parse_time_zone)]
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

fn parse_now(s: &str) -> Result<crate::clock::Now, String> {
    crate::clock::Now::parse(s)
}
