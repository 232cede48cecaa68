//! The data tree as tools for agents (`activity-site mcp`, MCP over stdio).
//!
//! Tools list the games, give `status`, read a document, check a draft in
//! place (through [`site::check_with`] and an [`Overlay`], so cross-file rules
//! count and nothing is written) and write a draft: only one without errors,
//! only in canonical form ([`site::canonical_text`]), only through
//! [`atomic::write`], and only at the path of a game and locale that
//! `games.json` lists, inside `data/`. Resources give the schemas and the
//! contributors' rules. Separate from the control service's `/mcp`
//! ([`crate::mcp`]): this one knows the data, never the control service.

use std::path::{Path, PathBuf};

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, Implementation, ListResourcesResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::atomic;
use crate::diagnostics::{self, Diagnostic};
use crate::i18n::{self, Lang, Msg, msg};
use crate::load;
use crate::model::{ActivityDocument, Announcements, Game, Registry};
use crate::site;
use crate::source::{Overlay, REGISTRY_PATH};
use crate::tree::{announcements_locale, announcements_path};
use crate::validate;

/// What an agent reads first.
const INSTRUCTIONS: &str = "Reads and writes the activity data of a game-activity API \
(games.json and data/<game>/<locale>.json). Read the rules first (resource \
activity-site://CONTRIBUTING.md) and the schema. Flow: list_games, status, read_document; \
edit the text; check_document until it has no errors; then write_document, which stores \
the canonical form and says what changed. Times are local server time \
YYYY-MM-DDTHH:MM:SS in the game's time zone; activities end on the last second of a \
minute (03:59:59). The announcements boards (data/_announcements/<locale>.json) \
have their own tools: read_announcements, check_announcements, write_announcements; raise \
their `id` whenever their content changes.";

/// The contributors' guide the rules come from, as shipped with the binary.
const CONTRIBUTING: &str = include_str!("../../CONTRIBUTING.md");

/// The MCP server of one session: the data root and the tool table.
#[derive(Clone)]
pub struct DataTools {
    /// The root holding `games.json` and `data/`.
    root: PathBuf,
    /// "Now" for the checks (the `stale` rule, `status`).
    options: validate::Options,
    /// The tools this type declares, built by `#[tool_router]`.
    tool_router: ToolRouter<DataTools>,
}

/// Arguments naming one data file.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentArgs {
    /// Game id, as listed by list_games (such as `sr`).
    game: String,
    /// Locale tag of the game, as listed by list_games (such as `zh-CN`).
    locale: String,
    /// Language of the messages in the answer: `zh-CN` or `en-US`
    /// (default: the server's, from `--lang` or its environment).
    #[serde(default)]
    lang: Option<Lang>,
}

/// Arguments naming one announcements file.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardArgs {
    /// Locale tag of the board (such as `zh-CN`): data/_announcements/<locale>.json.
    locale: String,
}

/// Arguments carrying a draft of one announcements file.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardDraftArgs {
    /// Locale tag of the board (such as `zh-CN`).
    locale: String,
    /// The whole JSON text of the announcements document.
    text: String,
}

/// Arguments carrying a draft of one data file.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DraftArgs {
    /// Game id, as listed by list_games.
    game: String,
    /// Locale tag of the game, as listed by list_games.
    locale: String,
    /// The whole JSON text of the activity document.
    text: String,
    /// Language of the diagnostics' messages and help lines: `zh-CN` or
    /// `en-US` (default: the server's, from `--lang` or its environment).
    #[serde(default)]
    lang: Option<Lang>,
}

/// Arguments of `new_version`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewVersionArgs {
    /// Game id, as listed by list_games.
    game: String,
    /// The new version (such as `4.7`); it must come after the current one.
    version: String,
    /// The version's name in every locale without an entry in `names`.
    #[serde(default)]
    name: Option<String>,
    /// The version's name per locale (`{"en-US": "4.7: ..."}`).
    #[serde(default)]
    names: std::collections::BTreeMap<String, String>,
    /// Start of the new version, YYYY-MM-DDTHH:MM:SS in the game's time zone.
    start: String,
    /// End of the new version, YYYY-MM-DDTHH:MM:SS.
    end: String,
    /// Cover image URL of the new version.
    #[serde(default)]
    cover: Option<String>,
}

impl DataTools {
    pub fn new(root: &Path, options: validate::Options) -> Self {
        DataTools {
            root: root.to_path_buf(),
            options,
            tool_router: Self::tool_router(),
        }
    }

    /// The registry on disk, parsed.
    fn registry(&self) -> Result<Registry, Msg> {
        let text = std::fs::read_to_string(self.root.join(REGISTRY_PATH))
            .map_err(|err| msg!("agent-registry-unreadable", error = err.to_string()))?;
        serde_json::from_str(&text)
            .map_err(|err| msg!("agent-registry-unparsed", error = err.to_string()))
    }

    /// The path (relative to the root) of a file the registry lists; an
    /// error for any other game or locale.
    fn data_path(&self, game: &str, locale: &str) -> Result<(Game, String), Msg> {
        let registry = self.registry()?;
        let Some(entry) = registry.games.iter().find(|g| g.id == game) else {
            let ids: Vec<&str> = registry.games.iter().map(|g| g.id.as_str()).collect();
            return Err(msg!("agent-no-game", game = game, games = i18n::list(&ids)));
        };
        if !entry.locales.iter().any(|l| l == locale) {
            return Err(msg!(
                "agent-no-locale",
                locale = locale,
                game = game,
                locales = i18n::list(&entry.locales)
            ));
        }
        let rel = crate::tree::data_path(&entry.id, locale);
        // The registry's check holds ids and tags to a safe alphabet; a
        // registry that does not pass it still cannot lead a write elsewhere.
        let safe =
            |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
        if !safe(game) || !safe(locale) {
            return Err(msg!("agent-unsafe-path", path = rel));
        }
        Ok((entry.clone(), rel))
    }

    /// The path (relative to the root) of the announcements file of
    /// `locale`; an error for anything but a language tag.
    fn board_path(locale: &str) -> Result<String, String> {
        if !validate::rules::is_language_tag(locale) {
            return Err(format!(
                "`{locale}` is not a locale tag such as `zh-CN` or `en-US`"
            ));
        }
        Ok(announcements_path(locale))
    }

    /// Checks the tree with `draft` in place of `rel`: the draft's diagnostics
    /// and those of the other files of its game.
    fn check_draft(&self, rel: &str, draft: &str) -> Result<Vec<Diagnostic>, Msg> {
        let mut overlay = Overlay::new();
        overlay.insert(rel, draft);
        let checked = site::check_with(&self.root, &overlay, &self.options)
            .map_err(|err| msg!("agent-cannot-check", error = format!("{err:#}")))?;
        let folder = rel.rsplit_once('/').map_or("", |(dir, _)| dir);
        Ok(checked
            .diagnostics
            .into_iter()
            .filter(|d| d.file == rel || d.file.starts_with(&format!("{folder}/")))
            .collect())
    }
}

impl DataTools {
    /// The breaking changes the draft `text` of `rel` would make to the
    /// clients of the file on disk, through `diff`'s engine (the game's
    /// "now" in its time zone); none when either side does not parse or the
    /// file does not exist yet.
    fn breaking(&self, game: &Game, rel: &str, text: &str) -> Vec<site::diff::Breaking> {
        let Ok(new) = serde_json::from_str::<ActivityDocument>(text) else {
            return Vec::new();
        };
        let Some(old) = std::fs::read(self.root.join(rel))
            .ok()
            .and_then(|bytes| serde_json::from_slice::<ActivityDocument>(&bytes).ok())
        else {
            return Vec::new();
        };
        site::diff::document_diff(rel, &old, &new, Some(self.options.now_for(game))).breaking
    }
}

#[tool_router]
impl DataTools {
    #[tool(
        description = "The games of games.json: id, name, locales, default locale, time zone, data source, the typed dataSources per locale (where to look to update the data) and the path of each data file.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn list_games(&self) -> CallToolResult {
        match self.registry() {
            Ok(registry) => {
                let games: Vec<Value> = registry
                    .games
                    .iter()
                    .map(|g| {
                        let files: serde_json::Map<String, Value> = g
                            .locales
                            .iter()
                            .map(|l| (l.clone(), json!(crate::tree::data_path(&g.id, l))))
                            .collect();
                        json!({
                            "id": g.id,
                            "name": g.name,
                            "locales": g.locales,
                            "defaultLocale": g.default_locale,
                            "timeZone": g.time_zone_name(),
                            "dataSource": g.data_source,
                            "dataSources": g.data_sources,
                            "files": files,
                        })
                    })
                    .collect();
                reply(json!({ "games": games }))
            }
            Err(message) => failure(message, None),
        }
    }

    #[tool(
        description = "What `activity-site status --format json` gives: each game's locales, their version and end time, whole days left, a state (`ok`, `ending` within a week, `ended`, `missing`, `invalid`), most urgent first, and the typed `sources` to look at to update each.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn status(&self) -> CallToolResult {
        match site::check_documents(&self.root, &self.options) {
            Ok(checked) => {
                let rows = site::status::rows(&self.root, &checked, &self.options);
                let boards = site::status::boards(&self.root, &checked);
                reply(json!({ "rows": rows, "announcements": boards }))
            }
            Err(err) => failure(
                msg!("agent-cannot-check", error = format!("{err:#}")).to_string(),
                None,
            ),
        }
    }

    #[tool(
        description = "The text of data/<game>/<locale>.json as it is on disk.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn read_document(&self, Parameters(args): Parameters<DocumentArgs>) -> CallToolResult {
        let lang = args.lang.unwrap_or_else(Lang::current);
        i18n::scoped(lang, || self.read_document_in(&args))
    }

    #[tool(
        description = "The diagnostics the draft `text` would get as data/<game>/<locale>.json, with every other file as it is on disk (cross-file rules included): each with its code, severity, line, column, message and help, and `fix` when the repair is exact; and `breaking`: what the draft would break for the clients of the file on disk (an ongoing activity removed, a version that starts after now replacing a running one and the activities that would vanish, a version going backwards), each with code, message, help and activities. Writes nothing.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn check_document(&self, Parameters(args): Parameters<DraftArgs>) -> CallToolResult {
        let lang = args.lang.unwrap_or_else(Lang::current);
        i18n::scoped(lang, || self.check_document_in(&args))
    }

    #[tool(
        description = "Starts a game's next version in every locale at once (what `activity-site version new` does): each data/<game>/<locale>.json gets the new version, name, start and end, and keeps every activity that ends after the new start, so nothing still running vanishes when it is published early. Refuses, writing nothing, when a locale's file has errors, when the version does not come after the current one, or when a new document would have errors. Returns per locale the path and the activities carried and left behind.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn new_version(&self, Parameters(args): Parameters<NewVersionArgs>) -> CallToolResult {
        let mut names: indexmap::IndexMap<String, String> = args.names.into_iter().collect();
        if let Some(name) = args.name {
            names.insert(String::new(), name);
        }
        let next = site::version::NextVersion {
            game: args.game,
            version: args.version,
            names,
            start: args.start,
            end: args.end,
            cover: args.cover,
        };
        let planned = match site::version::plan(&self.root, &next, &self.options) {
            Err(err) => return failure(format!("cannot check: {err:#}"), None),
            Ok(Err(site::version::Refusal::Request(message))) => return failure(message, None),
            Ok(Err(site::version::Refusal::Errors {
                message,
                diagnostics,
            })) => return failure(message, Some(json!({ "diagnostics": diagnostics }))),
            Ok(Ok(planned)) => planned,
        };
        for p in &planned {
            if let Err(message) = self.inside_data(&self.root.join(&p.path)) {
                return failure(message, None);
            }
        }
        if let Err(err) = site::version::write(&self.root, &planned) {
            return failure(format!("cannot write: {err}"), None);
        }
        let files: Vec<Value> = planned
            .iter()
            .map(|p| {
                json!({
                    "locale": p.locale,
                    "path": p.path,
                    "carried": p.carried,
                    "leftBehind": p.dropped,
                })
            })
            .collect();
        reply(json!({ "version": next.version, "written": files }))
    }

    #[tool(
        description = "Writes the draft `text` as data/<game>/<locale>.json, for a game and locale that games.json lists. Refuses a draft with errors (and returns its diagnostics); otherwise writes its canonical form (fixed key order, activities sorted, 2-space indentation) atomically and returns the warnings, what changed per activity (added, removed, changed fields) and `breaking`: what the write breaks for the file's clients (as check_document; start a next version with new_version to carry what still runs).",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn write_document(&self, Parameters(args): Parameters<DraftArgs>) -> CallToolResult {
        let lang = args.lang.unwrap_or_else(Lang::current);
        i18n::scoped(lang, || self.write_document_in(&args))
    }

    #[tool(
        description = "The text of the announcements board of a locale, data/_announcements/<locale>.json, as it is on disk (`build` publishes it as the API's anno-<locale>.json, and as anno.json for the site's default locale).",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn read_announcements(&self, Parameters(args): Parameters<BoardArgs>) -> CallToolResult {
        let rel = match Self::board_path(&args.locale) {
            Ok(rel) => rel,
            Err(message) => return failure(message, None),
        };
        self.read(&rel)
    }

    #[tool(
        description = "The diagnostics the draft `text` would get as data/_announcements/<locale>.json (the same as `check`: schema, Markdown links and raw HTML, invisible characters), each with its code, severity, line, column, message and help. Writes nothing.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn check_announcements(
        &self,
        Parameters(args): Parameters<BoardDraftArgs>,
    ) -> CallToolResult {
        let rel = match Self::board_path(&args.locale) {
            Ok(rel) => rel,
            Err(message) => return failure(message, None),
        };
        match self.check_draft(&rel, &args.text) {
            Ok(found) => reply(report(&rel, &found)),
            Err(message) => failure(message, None),
        }
    }

    #[tool(
        description = "Writes the draft `text` as data/_announcements/<locale>.json. Refuses a draft with errors (and returns its diagnostics); otherwise writes its canonical form (2-space indentation, announcements in the draft's order, newest first) atomically. Raise `id` whenever the content changes: clients show the board again only when `id` changes; the answer says when it did not.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn write_announcements(
        &self,
        Parameters(args): Parameters<BoardDraftArgs>,
    ) -> CallToolResult {
        let rel = match Self::board_path(&args.locale) {
            Ok(rel) => rel,
            Err(message) => return failure(message, None),
        };
        self.write_draft(&rel, &args.text, None)
    }
}

impl DataTools {
    /// `read_document` in the current language.
    fn read_document_in(&self, args: &DocumentArgs) -> CallToolResult {
        let rel = match self.data_path(&args.game, &args.locale) {
            Ok((_, rel)) => rel,
            Err(message) => return failure(message, None),
        };
        match load::read_source(&self.root, &rel) {
            Ok(Some(source)) => reply(json!({ "path": rel, "text": source.text })),
            Ok(None) => failure(msg!("agent-not-yet", path = rel).to_string(), None),
            Err(diagnostic) => failure(diagnostic.message.to_string(), None),
        }
    }

    /// `check_document` in the current language.
    fn check_document_in(&self, args: &DraftArgs) -> CallToolResult {
        let (game, rel) = match self.data_path(&args.game, &args.locale) {
            Ok(found) => found,
            Err(message) => return failure(message, None),
        };
        match self.check_draft(&rel, &args.text) {
            Ok(found) => {
                let mut answer = report(&rel, &found);
                answer["breaking"] = json!(self.breaking(&game, &rel, &args.text));
                reply(answer)
            }
            Err(message) => failure(message, None),
        }
    }

    /// `write_document` in the current language.
    fn write_document_in(&self, args: &DraftArgs) -> CallToolResult {
        let (game, rel) = match self.data_path(&args.game, &args.locale) {
            Ok(found) => found,
            Err(message) => return failure(message, None),
        };
        let breaking = self.breaking(&game, &rel, &args.text);
        self.write_draft(&rel, &args.text, Some(breaking))
    }
}

impl DataTools {
    /// A file's text as it is on disk.
    fn read(&self, rel: &str) -> CallToolResult {
        match load::read_source(&self.root, rel) {
            Ok(Some(source)) => reply(json!({ "path": rel, "text": source.text })),
            Ok(None) => failure(
                format!("`{rel}` does not exist yet; the write tool creates it"),
                None,
            ),
            Err(diagnostic) => failure(diagnostic.message.clone(), None),
        }
    }

    /// Writes a draft of `rel` (a data file or an announcements file) in
    /// canonical form when the check finds no error in it.
    /// `breaking` is what the draft breaks for clients (data files only).
    fn write_draft(
        &self,
        rel: &str,
        text: &str,
        breaking: Option<Vec<site::diff::Breaking>>,
    ) -> CallToolResult {
        let found = match self.check_draft(rel, text) {
            Ok(found) => found,
            Err(message) => return failure(message, None),
        };
        let own: Vec<Diagnostic> = found.iter().filter(|d| d.file == rel).cloned().collect();
        let errors = diagnostics::count(&own).errors;
        if errors > 0 {
            return failure(
                msg!("agent-refused-errors", errors = errors),
                Some(report(rel, &found)),
            );
        }
        let Some(canonical) = site::canonical_text(rel, text) else {
            return failure(msg!("agent-refused-unparsed", path = rel), None);
        };
        let path = self.root.join(rel);
        if let Err(message) = self.inside_data(&path) {
            return failure(message, None);
        }
        let before = std::fs::read(&path).ok();
        let board = announcements_locale(rel).is_some();
        let changes = if board {
            None
        } else {
            match site::diff::diff_file(rel, canonical.as_bytes(), before.as_deref()) {
                Ok(file) => Some(site::diff::Report {
                    against: format!("{rel} before"),
                    files: vec![file],
                }),
                Err(err) => {
                    return failure(msg!("agent-not-written", error = format!("{err:#}")), None);
                }
            }
        };
        let unchanged = before.as_deref() == Some(canonical.as_bytes());
        if !unchanged
            && let Err(err) = std::fs::create_dir_all(path.parent().unwrap_or(&self.root))
                .and_then(|()| atomic::write(&path, canonical.as_bytes()))
        {
            return failure(
                msg!("agent-cannot-write", path = rel, error = err.to_string()),
                None,
            );
        }
        let mut answer = report(rel, &found);
        answer["written"] = json!(!unchanged);
        if let Some(breaking) = breaking {
            answer["breaking"] = json!(breaking);
        }
        if let Some(changes) = changes {
            answer["changes"] = json!(changes.to_text(&std::collections::BTreeSet::new()));
            answer["changed"] = serde_json::to_value(&changes.files[0]).unwrap_or_default();
        }
        if board {
            answer["changes"] = json!(board_changes(before.as_deref(), &canonical));
        }
        reply(answer)
    }
}

/// What a write of an announcements board changed, in one sentence, and
/// whether the content changed under the same `id` (the one mistake
/// clients cannot survive: they never show the new text).
fn board_changes(before: Option<&[u8]>, canonical: &str) -> String {
    let after: Option<Announcements> = serde_json::from_str(canonical).ok();
    let before: Option<Announcements> = before.and_then(|b| serde_json::from_slice(b).ok());
    match (before, after) {
        (_, None) => "written".to_string(),
        (None, Some(after)) => format!(
            "new board with id {} and {} announcement(s)",
            after.id,
            after.announcements.len()
        ),
        (Some(before), Some(after)) if before.announcements == after.announcements => {
            format!(
                "the announcements are unchanged (id {} -> {})",
                before.id, after.id
            )
        }
        (Some(before), Some(after)) if after.id <= before.id => format!(
            "the announcements changed but `id` did not go up ({} -> {}): clients will not show the new text; raise `id` to {} and write again",
            before.id,
            after.id,
            before.id + 1
        ),
        (Some(before), Some(after)) => format!(
            "the announcements changed and `id` went from {} to {}",
            before.id, after.id
        ),
    }
}

impl DataTools {
    /// Refuses a path whose folder resolves outside `data/` (a symbolic
    /// link, say).
    fn inside_data(&self, path: &Path) -> Result<(), Msg> {
        let data = std::fs::canonicalize(self.root.join(crate::tree::DATA_DIR)).map_err(|err| {
            msg!(
                "agent-cannot-resolve",
                path = format!("{}/", crate::tree::DATA_DIR),
                error = err.to_string()
            )
        })?;
        let mut folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
        // A game's folder may not exist yet: resolve what does.
        while !folder.exists() {
            match folder.parent() {
                Some(parent) => folder = parent.to_path_buf(),
                None => break,
            }
        }
        let folder = std::fs::canonicalize(&folder).map_err(|err| {
            msg!(
                "agent-cannot-resolve",
                path = folder.display().to_string(),
                error = err.to_string()
            )
        })?;
        if folder.starts_with(&data) {
            Ok(())
        } else {
            Err(msg!(
                "agent-outside-data",
                path = path.display().to_string()
            ))
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for DataTools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(
            Implementation::new("activity-site-data", env!("CARGO_PKG_VERSION"))
                .with_title("activity-site data tree")
                .with_description(env!("CARGO_PKG_DESCRIPTION")),
        )
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let resources = RESOURCES
            .iter()
            .map(|(uri, name, mime, description)| {
                let mut resource = Resource::new(*uri, *name);
                resource.mime_type = Some((*mime).to_string());
                resource.description = Some((*description).to_string());
                resource
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let Some((uri, _, mime, _)) = RESOURCES.iter().find(|r| r.0 == request.uri) else {
            return Err(ErrorData::resource_not_found(
                format!("no resource `{}`", request.uri),
                None,
            ));
        };
        let text = match *uri {
            CONTRIBUTING_URI => CONTRIBUTING.to_string(),
            _ => {
                let project = load::open(&self.root)
                    .map_err(|err| ErrorData::internal_error(format!("{err:#}"), None))?;
                let schema = match *uri {
                    ACTIVITY_SCHEMA_URI => project.activity_schema,
                    ANNOUNCEMENTS_SCHEMA_URI => project.announcements_schema,
                    _ => project.games_schema,
                };
                serde_json::to_string_pretty(&schema).unwrap_or_default()
            }
        };
        let contents = ResourceContents::TextResourceContents {
            uri: (*uri).to_string(),
            mime_type: Some((*mime).to_string()),
            text,
            meta: None,
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}

const ACTIVITY_SCHEMA_URI: &str = "activity-site://schema/activity.schema.json";
const GAMES_SCHEMA_URI: &str = "activity-site://schema/games.schema.json";
const ANNOUNCEMENTS_SCHEMA_URI: &str = "activity-site://schema/announcements.schema.json";
const CONTRIBUTING_URI: &str = "activity-site://CONTRIBUTING.md";

/// URI, name, MIME type and description of each resource.
const RESOURCES: &[(&str, &str, &str, &str)] = &[
    (
        ACTIVITY_SCHEMA_URI,
        "activity.schema.json",
        "application/schema+json",
        "JSON Schema of an activity document (data/<game>/<locale>.json)",
    ),
    (
        GAMES_SCHEMA_URI,
        "games.schema.json",
        "application/schema+json",
        "JSON Schema of games.json",
    ),
    (
        ANNOUNCEMENTS_SCHEMA_URI,
        "announcements.schema.json",
        "application/schema+json",
        "JSON Schema of an announcements board (data/_announcements/<locale>.json)",
    ),
    (
        CONTRIBUTING_URI,
        "CONTRIBUTING.md",
        "text/markdown",
        "How to update a game's data, and every rule `check` applies, with examples",
    ),
];

/// Diagnostics as an answer: counts and the list.
fn report(rel: &str, found: &[Diagnostic]) -> Value {
    let counts = diagnostics::count(
        found
            .iter()
            .filter(|d| d.file == rel)
            .cloned()
            .collect::<Vec<_>>()
            .as_slice(),
    );
    json!({
        "path": rel,
        "errors": counts.errors,
        "warnings": counts.warnings,
        "diagnostics": found,
    })
}

/// A successful answer: the JSON as text, mirrored as structured content.
fn reply(value: Value) -> CallToolResult {
    let text = serde_json::to_string_pretty(&value).unwrap_or_else(|_| value.to_string());
    let mut reply = CallToolResult::success(vec![ContentBlock::text(text)]);
    reply.structured_content = Some(value);
    reply
}

/// A tool error with its message and, when there is one, the details.
fn failure(message: impl ToString, details: Option<Value>) -> CallToolResult {
    let mut blocks = vec![ContentBlock::text(message.to_string())];
    if let Some(details) = &details {
        blocks.push(ContentBlock::text(
            serde_json::to_string_pretty(details).unwrap_or_default(),
        ));
    }
    let mut reply = CallToolResult::error(blocks);
    reply.structured_content = details;
    reply
}
