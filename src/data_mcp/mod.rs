//! The data tree as tools for agents (`activity-site mcp`, MCP over stdio).
//!
//! Tools list the games, give `status`, read a document, check a draft in
//! place (through [`site::check_with`] and an [`Overlay`], so cross-file rules
//! count and nothing is written) and write a draft: only one without errors,
//! only in canonical form ([`site::canonical_text`]), only through
//! [`atomic::write`], and only at the path of a game and locale that
//! `games.json` lists, inside `data/`. Resources give the schemas and the
//! contributors' rules. Separate from the control service's `/mcp`
//! (`activity_site_control::mcp`): this one knows the data, never the control service.

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
use crate::kind::{self, Kind};

mod per_locale;
use crate::load;
use crate::model::{Draft, Game, Registry};
use crate::site;
use crate::source::{Overlay, Read};
use crate::tree::REGISTRY_PATH;
use crate::validate;

/// What an agent reads first.
const INSTRUCTIONS: &str = "Reads and writes the activity data of a game-activity API \
(games.json and data/<game>/<locale>.json). Read the rules first (resource \
activity-site://CONTRIBUTING.md) and the schema. Flow: list_games, status, read_document; \
edit the text of what read_document answered and pass it back: check_document until it has \
no errors (`fix: true` applies the exact fixes); then write_document, which stores the \
canonical form and says what changed. add_game and add_locale extend games.json. Times are local server time \
YYYY-MM-DDTHH:MM:SS in the game's time zone; activities end on the last second of a \
minute (03:59:59).";

/// What an agent reads first: [`INSTRUCTIONS`], then what each kind with
/// a file per locale says of its tools.
fn instructions() -> String {
    per_locale::kinds().fold(INSTRUCTIONS.to_owned(), |text, (_, agents)| {
        format!("{text} {}", Msg::new(agents.instructions))
    })
}

/// The contributors' guide the rules come from, as shipped with the binary.
const CONTRIBUTING: &str = include_str!("../../CONTRIBUTING.md");

/// The MCP server of one session: the data root and the tool table.
#[derive(Clone)]
pub struct DataTools {
    /// The root holding `games.json` and `data/`.
    root: PathBuf,
    /// "Now" for the checks (the `stale` rule, `status`).
    options: validate::Options,
    /// The tools this type declares (built by `#[tool_router]`) and those
    /// of each kind with a file per locale.
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

/// What a draft is the text of, which says what the check and write tools
/// tell beyond its diagnostics.
#[derive(Clone, Copy)]
enum Target<'a> {
    /// A data file of this game: what it breaks for clients, and what
    /// changed per activity.
    Document(&'a Game),
    /// The file of a locale of this kind: what its write changed
    /// ([`per_locale::summary`]).
    PerLocale(&'static Kind),
}

/// Arguments carrying a draft of one data file: what read_document
/// answered, with `text` edited: the game, and the draft of its locale's
/// file in the one shape every draft has ([`LocaleDraftArgs`]).
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct DraftArgs {
    /// Game id, as listed by list_games.
    game: String,
    #[serde(flatten)]
    draft: LocaleDraftArgs,
}

/// Arguments carrying a draft of the file of one locale: what its read
/// tool answered, with `text` edited. The tools of a kind with a file per
/// locale take it as it is, check_document and write_document beside
/// `game`; an unknown field is refused either way.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(try_from = "DraftFields")]
pub struct LocaleDraftArgs {
    locale: String,
    text: String,
    path: Option<String>,
    fix: bool,
    lang: Option<Lang>,
}

/// The fields of a draft as they come, with any other field the caller
/// sent, which [`LocaleDraftArgs`] refuses.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
struct DraftFields {
    /// Locale tag of the file (such as `zh-CN`).
    locale: String,
    /// The whole JSON text of the document.
    text: String,
    /// The file's path as the read tool gave it (optional; when given, it
    /// must be the file the draft is of).
    #[serde(default)]
    path: Option<String>,
    /// Apply every exact fix of the diagnostics first (what `check --fix`
    /// applies); the answer gives the fixed `text` and how many `fixes`.
    #[serde(default)]
    fix: bool,
    /// Language of the diagnostics' messages and help lines: `zh-CN` or
    /// `en-US` (default: the server's, from `--lang` or its environment).
    #[serde(default)]
    lang: Option<Lang>,
    #[serde(flatten)]
    #[schemars(skip)]
    unknown: serde_json::Map<String, Value>,
}

impl TryFrom<DraftFields> for LocaleDraftArgs {
    type Error = String;

    fn try_from(fields: DraftFields) -> Result<Self, String> {
        if let Some(field) = fields.unknown.keys().next() {
            return Err(format!("unknown field `{field}`"));
        }
        Ok(LocaleDraftArgs {
            locale: fields.locale,
            text: fields.text,
            path: fields.path,
            fix: fields.fix,
            lang: fields.lang,
        })
    }
}

/// Arguments of `add_game`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddGameArgs {
    /// The game's entry as it stands in games.json's `games` (`id`, `name`,
    /// `locales`, `defaultLocale`, `dataSource`, `timeZone`, ...; see the
    /// resource games.schema.json).
    game: serde_json::Map<String, Value>,
    /// The data file of each locale, as JSON text (`{"zh-CN": "{...}"}`);
    /// optional: a locale without one is written later with write_document.
    #[serde(default)]
    documents: std::collections::BTreeMap<String, String>,
    /// Language of the messages in the answer: `zh-CN` or `en-US`.
    #[serde(default)]
    lang: Option<Lang>,
}

/// Arguments of `add_locale`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddLocaleArgs {
    /// Game id, as listed by list_games.
    game: String,
    /// The new locale tag (such as `ja-JP`).
    locale: String,
    /// The game's name in the new locale (added to `name` when the game
    /// names itself per locale).
    #[serde(default)]
    name: Option<String>,
    /// Where the new locale's data comes from (added to `dataSource` when
    /// the game gives one per locale).
    #[serde(default, rename = "dataSource")]
    data_source: Option<String>,
    /// The new locale's data file, as JSON text (optional: written later
    /// with write_document).
    #[serde(default)]
    text: Option<String>,
    /// Language of the messages in the answer: `zh-CN` or `en-US`.
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
    /// Cover image URL of the new version; absent keeps each locale's
    /// current cover, `""` removes it.
    #[serde(default)]
    cover: Option<String>,
    /// Activities to leave behind although they have not ended, each by
    /// its id (in every locale that holds it) or by its name in any locale
    /// (its counterparts in the other locales go too; a value that is one
    /// activity's id and another's name is refused); without it every
    /// activity still to end is carried.
    #[serde(default)]
    drop: Vec<String>,
}

impl DataTools {
    pub fn new(root: &Path, options: validate::Options) -> Self {
        DataTools {
            root: root.to_path_buf(),
            options,
            tool_router: Self::tool_router() + per_locale::router(),
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
        let rel = safe_data_path(game, locale)?;
        Ok((entry.clone(), rel))
    }

    /// Checks the tree with `draft` in place of `rel`: the draft's diagnostics
    /// and those of the other files of its game.
    fn check_draft(&self, rel: &str, draft: &str) -> Result<Vec<Diagnostic>, Msg> {
        let mut overlay = Overlay::new();
        overlay.insert(rel, draft);
        self.check_overlay(&overlay, &[rel])
    }

    /// Checks the tree with the texts of `overlay` in place of its files:
    /// the diagnostics of the files `rels` and of the other files of their
    /// folders (the game's other locales).
    fn check_overlay(&self, overlay: &Overlay, rels: &[&str]) -> Result<Vec<Diagnostic>, Msg> {
        let checked = site::check_with(&self.root, overlay, &self.options)
            .map_err(|err| msg!("agent-cannot-check", error = format!("{err:#}")))?;
        Ok(concerning(checked.diagnostics, rels))
    }

    /// `text` with every exact fix applied, as `check --fix` applies them
    /// ([`site::rewrite::fix_with`], the one owner), and how many there were;
    /// the text as given when no fix applies or the fixes would not give JSON.
    ///
    /// Each change is listed too, as `check --fix` lists it: `line` and
    /// `column` in the text as given, `code`, `before`, `after` and its
    /// `notes` (where a rewritten date now falls in its version).
    fn fixed(&self, rel: &str, text: &str) -> Result<(String, Value), Msg> {
        let mut overlay = Overlay::new();
        overlay.insert(rel, text);
        let only = std::collections::BTreeSet::from([rel.to_owned()]);
        let fixed = site::rewrite::fix_with(&self.root, overlay, &self.options, Some(&only))
            .map_err(|err| msg!("agent-cannot-check", error = format!("{err:#}")))?;
        Ok(fixed.files.into_iter().find(|f| f.path == rel).map_or_else(
            || (text.to_owned(), json!([])),
            |f| {
                let changes: Vec<Value> = f.changes.iter().map(|c| c.to_json(None)).collect();
                (f.after, Value::Array(changes))
            },
        ))
    }

    /// The draft to check or write: `text` as given, or with `fix` (the
    /// agent's argument) its fixed form ([`Self::fixed`]); and the changes
    /// the fixes made (none without).
    fn draft_text(&self, rel: &str, text: &str, fix: bool) -> Result<(String, Value), Msg> {
        if fix {
            self.fixed(rel, text)
        } else {
            Ok((text.to_owned(), json!([])))
        }
    }

    /// Refuses a `path` argument that is not `rel` (the file of the game
    /// and locale, or of the board, named beside it).
    fn same_path(path: Option<&str>, rel: &str) -> Result<(), Msg> {
        match path {
            Some(path) if path != rel => {
                Err(msg!("agent-path-mismatch", path = path, expected = rel))
            }
            _ => Ok(()),
        }
    }
}

/// Adds `value` for `locale` to the field `key` of a registry `game`: to
/// its map when it is one; a single value becomes a map giving it to every
/// `existing` locale (nothing is dropped) and `value` to the new one.
fn add_localized(game: &mut Value, key: &str, existing: &[String], locale: &str, value: String) {
    let field = &mut game[key];
    match field {
        Value::Object(map) => {
            map.entry(locale.to_owned()).or_insert(json!(value));
        }
        Value::Null => *field = json!({ locale: value }),
        other => {
            let mut map = serde_json::Map::new();
            for l in existing {
                map.insert(l.clone(), other.clone());
            }
            map.insert(locale.to_owned(), json!(value));
            *other = Value::Object(map);
        }
    }
}

/// The path of the data file of `game` and `locale`, refused when either
/// has characters other than letters, digits and `-`: the registry's check
/// holds ids and tags to that alphabet, and a registry that does not pass
/// it still cannot lead a write elsewhere.
fn safe_data_path(game: &str, locale: &str) -> Result<String, Msg> {
    let rel = crate::tree::data_path(game, locale);
    let safe = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if safe(game) && safe(locale) {
        Ok(rel)
    } else {
        Err(msg!("agent-unsafe-path", path = rel))
    }
}

/// The diagnostics of the files `rels` and of the other files in their
/// folders, in `check`'s order.
fn concerning(diagnostics: Vec<Diagnostic>, rels: &[&str]) -> Vec<Diagnostic> {
    let folders: Vec<String> = rels
        .iter()
        .map(|rel| format!("{}/", rel.rsplit_once('/').map_or("", |(dir, _)| dir)))
        .collect();
    diagnostics
        .into_iter()
        .filter(|d| {
            rels.contains(&d.file.as_str())
                || folders.iter().any(|f| d.file.starts_with(f.as_str()))
        })
        .collect()
}

impl DataTools {
    /// The breaking changes the draft `text` of `rel` would make to the
    /// clients of the file on disk, through `diff`'s engine (the game's
    /// "now" in its time zone); none when either side does not parse or the
    /// file does not exist yet.
    fn breaking(&self, game: &Game, rel: &str, text: &str) -> Vec<crate::review::Breaking> {
        let Ok(new) = serde_json::from_str::<Draft>(text) else {
            return Vec::new();
        };
        let Some(old) = std::fs::read(self.root.join(rel))
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Draft>(&bytes).ok())
        else {
            return Vec::new();
        };
        crate::review::document_diff(rel, &old, &new, Some(self.options.now_for(game))).breaking
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
        description = "What `activity-site status --format json` gives, with `now`: the server's now (`instant`, or `pinned` when --now pins a wall time) and each game's local now in its time zone (`games`), which the days left count from. Then each game's locales, their version and end time, whole days left, a state (`ok`, `ending` within a week, `ended`, `missing`, `invalid`), most urgent first, and the typed `sources` to look at to update each.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn status(&self) -> CallToolResult {
        match site::check_documents(&self.root, &self.options) {
            Ok(checked) => {
                let rows = crate::status::rows(&self.root, &checked, &self.options);
                let mut answer = json!({
                    "now": self.now(&checked),
                    "rows": rows,
                });
                // Each kind checked file by file, under its name (`announcements`).
                let files = crate::status::files(&self.root, &checked);
                for publish in site::kinds::all() {
                    let name = publish.kind().name;
                    let own: Vec<_> = files.iter().filter(|f| f.kind == name).collect();
                    answer[name] = json!(own);
                }
                reply(answer)
            }
            Err(err) => failure(
                msg!("agent-cannot-check", error = format!("{err:#}")).to_string(),
                None,
            ),
        }
    }

    #[tool(
        description = "The text of data/<game>/<locale>.json as it is on disk, with `game`, `locale` and `path`: the arguments check_document and write_document take, so the answer can be passed back with `text` edited.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn read_document(&self, Parameters(args): Parameters<DocumentArgs>) -> CallToolResult {
        let lang = args.lang.unwrap_or_else(Lang::current);
        i18n::scoped(lang, || self.read_document_in(&args))
    }

    #[tool(
        description = "The diagnostics the draft `text` would get as data/<game>/<locale>.json, with every other file as it is on disk (cross-file rules included): each with its code, severity, line, column, message and help, and `fix` when the repair is exact, or `choices` when the rule offers several repairs and no evidence tells which is right (a `missing-id` whose activity could be any of several of another language: each choice has a `title` and, like `fix`, the `start` and `end` byte offsets in the text and the `replacement`; apply the one that is the same activity); and `breaking`: what the draft would break for the clients of the file on disk (an ongoing activity removed, a version that starts after now replacing a running one and the activities that would vanish, a version going backwards), each with code, message, help and activities. `errors` and `warnings` count the whole list; `files` gives the counts per file (the draft's own and the other locales' of the game). With `fix: true`, every exact fix is applied first (as `check --fix`): the answer's `text` is the fixed draft, `fixes` how many were applied, `changes` each of them (line and column in the draft as given, code, before, after, notes such as where a rewritten date now falls in its version), and the diagnostics are those of the fixed text. Writes nothing.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn check_document(&self, Parameters(args): Parameters<DraftArgs>) -> CallToolResult {
        let lang = args.draft.lang.unwrap_or_else(Lang::current);
        i18n::scoped(lang, || self.check_document_in(&args))
    }

    #[tool(
        description = "Starts a game's next version in every locale at once (what `activity-site version new` does): each data/<game>/<locale>.json gets the new version, name, start and end, and keeps every activity that ends after the new start or has not ended yet (running or still to come), so nothing still running vanishes when it is published early; `drop` names activities to leave behind anyway, each by its id (it goes in every locale that holds it) or by its name in any locale (its counterpart in each other locale is the activity at the same place with the same times). Refuses, writing nothing, when a locale's file has errors, when a `drop` value names nothing (the message lists the ids and names of the activities still to end), is one activity's id and another's name, is an id that an activity at the same times still lacks in another locale (check --fix gives it), or names by name an activity whose counterpart cannot be told (give its id), when the version does not come after the current one, or when a new document would have errors. Keeps each locale's cover unless `cover` is given (`\"\"` removes it). Returns per locale the path, the activities carried and left behind by name (`carried`, `leftBehind`) and by id in the same order (`carriedIds`, `leftBehindIds`; null for an activity without one), why each was left behind (`leftBehindStates`: each with `ended`, `runs-now-ends-before`, `runs-into-new` or `upcoming`), and what became of the cover (`kept`, `set`, `removed`, `none`).",
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
        let next = crate::version::NextVersion {
            game: args.game,
            version: args.version,
            names,
            start: args.start,
            end: args.end,
            cover: args.cover,
            drop: args.drop,
        };
        let planned = match crate::version::plan(&self.root, &next, &self.options) {
            Err(err) => {
                return failure(msg!("agent-cannot-check", error = format!("{err:#}")), None);
            }
            Ok(Err(crate::version::Refusal::Request(message))) => return failure(message, None),
            Ok(Err(crate::version::Refusal::Errors {
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
        if let Err(err) = crate::version::write(&self.root, &planned) {
            return failure(msg!("agent-not-written", error = err.to_string()), None);
        }
        let files: Vec<Value> = planned
            .iter()
            .filter(|p| !p.pending)
            .map(|p| {
                json!({
                    "locale": p.locale,
                    "path": p.path,
                    "carried": p.carried,
                    "carriedIds": p.carried_ids,
                    "leftBehind": p.dropped.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(),
                    "leftBehindIds": p.dropped.iter().map(|l| l.id.as_deref()).collect::<Vec<_>>(),
                    "leftBehindStates": p.dropped.iter().map(|l| json!({"name": l.name, "state": l.state.as_str()})).collect::<Vec<_>>(),
                    "cover": p.cover.as_str(),
                })
            })
            .collect();
        let pending: Vec<&str> = planned
            .iter()
            .filter(|p| p.pending)
            .map(|p| p.locale.as_str())
            .collect();
        let mut answer = json!({ "version": next.version, "written": files, "pending": pending });
        if let Some(line) = crate::version::name_shared(&next, &planned) {
            answer["note"] = json!(line.to_string());
        }
        reply(answer)
    }

    #[tool(
        description = "Writes the draft `text` as data/<game>/<locale>.json, for a game and locale that games.json lists. With `fix: true`, every exact fix is applied first (as `check --fix`; `fixes` says how many, `changes` lists each). Refuses a draft with errors (and returns its diagnostics); otherwise writes its canonical form (fixed key order, activities sorted, 2-space indentation) atomically and returns the diagnostics of the file as written (counted as check_document counts them), what changed per activity (added, removed, changed fields) and `breaking`: what the write breaks for the file's clients (as check_document; start a next version with new_version to carry what still runs).",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn write_document(&self, Parameters(args): Parameters<DraftArgs>) -> CallToolResult {
        let lang = args.draft.lang.unwrap_or_else(Lang::current);
        i18n::scoped(lang, || self.write_document_in(&args))
    }

    #[tool(
        description = "Adds a game to games.json: `game` is its entry as games.json holds it (see the resource games.schema.json), and `documents` optionally gives the data file of each locale as JSON text. Everything goes through `check` first: refused, writing nothing, when games.json or a given document would have errors (the diagnostics come back); otherwise games.json is written in canonical form with every other game and value kept, then each document, each atomically. A locale without a document is reported (`missing-file` for the default locale, `pending-locale` for another): write it with write_document.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn add_game(&self, Parameters(args): Parameters<AddGameArgs>) -> CallToolResult {
        i18n::scoped(args.lang.unwrap_or_else(Lang::current), || {
            self.add_game_in(args)
        })
    }

    #[tool(
        description = "Adds a locale to a game of games.json: appends it to `locales` (and `name`, `dataSource` when the game gives them per locale and they are passed), and optionally writes its data file from `text`. Goes through `check` first: refused, writing nothing, when games.json or the document would have errors; otherwise written atomically, every other value kept. Without `text` the new locale is reported as `pending-locale` (nothing is published in it yet): write it with write_document.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn add_locale(&self, Parameters(args): Parameters<AddLocaleArgs>) -> CallToolResult {
        i18n::scoped(args.lang.unwrap_or_else(Lang::current), || {
            self.add_locale_in(args)
        })
    }
}

impl DataTools {
    /// `read_document` in the current language.
    fn read_document_in(&self, args: &DocumentArgs) -> CallToolResult {
        let rel = match self.data_path(&args.game, &args.locale) {
            Ok((_, rel)) => rel,
            Err(message) => return failure(message, None),
        };
        self.read(
            json!({ "game": args.game, "locale": args.locale }),
            &rel,
            "write_document",
        )
    }

    /// `check_document` in the current language.
    fn check_document_in(&self, args: &DraftArgs) -> CallToolResult {
        let (game, rel) = match self.document_path(args) {
            Ok(found) => found,
            Err(message) => return failure(message, None),
        };
        self.check_text(
            &rel,
            &args.draft.text,
            args.draft.fix,
            Target::Document(&game),
        )
    }

    /// The game and path of a draft's `game` and `locale`, refused when
    /// its `path` names another file.
    fn document_path(&self, args: &DraftArgs) -> Result<(Game, String), Msg> {
        let (game, rel) = self.data_path(&args.game, &args.draft.locale)?;
        Self::same_path(args.draft.path.as_deref(), &rel)?;
        Ok((game, rel))
    }

    /// The answer of the check tools: the diagnostics of the draft `text`
    /// of `rel` (fixed first with `fix`), and for a data file of a game,
    /// what it breaks.
    fn check_text(&self, rel: &str, text: &str, fix: bool, target: Target<'_>) -> CallToolResult {
        let (text, changes) = match self.draft_text(rel, text, fix) {
            Ok(draft) => draft,
            Err(message) => return failure(message, None),
        };
        let fixes = changes.as_array().map_or(0, Vec::len);
        match self.check_draft(rel, &text) {
            Ok(found) => {
                let mut answer = report(rel, &found);
                if let Target::Document(game) = target {
                    answer["breaking"] = json!(self.breaking(game, rel, &text));
                }
                if fix {
                    answer["fixes"] = json!(fixes);
                    answer["changes"] = changes;
                    answer["text"] = json!(text);
                }
                reply(answer)
            }
            Err(message) => failure(message, None),
        }
    }

    /// `write_document` in the current language.
    fn write_document_in(&self, args: &DraftArgs) -> CallToolResult {
        let (game, rel) = match self.document_path(args) {
            Ok(found) => found,
            Err(message) => return failure(message, None),
        };
        self.write_draft(
            &rel,
            &args.draft.text,
            args.draft.fix,
            Target::Document(&game),
        )
    }
}

impl DataTools {
    /// A file's text as it is on disk, beside `ids` (the arguments that
    /// name it), so the answer can be passed back to the check and write
    /// tools; `writer` is the tool that creates the file when it is not
    /// there yet.
    fn read(&self, mut ids: Value, rel: &str, writer: &str) -> CallToolResult {
        let tree = match load::load(&self.root, &Overlay::new()) {
            Ok(tree) => tree,
            Err(err) => return failure(format!("{err:#}"), None),
        };
        match tree.files.get(rel) {
            Some(Read::Text(source)) => {
                ids["path"] = json!(rel);
                ids["text"] = json!(source.text);
                reply(ids)
            }
            None => failure(msg!("agent-not-yet", path = rel, tool = writer), None),
            Some(Read::Unreadable(diagnostic, _)) => failure(diagnostic.message.to_string(), None),
        }
    }

    /// Writes a draft of `rel` (a data file or the file of a locale of a
    /// kind, as `target` says) in canonical form when the check finds no
    /// error in it, after applying its exact fixes with `fix`. The answer's
    /// diagnostics are those of the file as written.
    fn write_draft(&self, rel: &str, text: &str, fix: bool, target: Target<'_>) -> CallToolResult {
        let (text, changes) = match self.draft_text(rel, text, fix) {
            Ok(draft) => draft,
            Err(message) => return failure(message, None),
        };
        let fixes = changes.as_array().map_or(0, Vec::len);
        let with_fixes = |mut answer: Value| {
            if fix {
                answer["fixes"] = json!(fixes);
                answer["changes"] = changes.clone();
                answer["text"] = json!(text);
            }
            answer
        };
        let found = match self.check_draft(rel, &text) {
            Ok(found) => found,
            Err(message) => return failure(message, None),
        };
        let errors = found
            .iter()
            .filter(|d| d.file == rel && d.is_error())
            .count();
        if errors > 0 {
            return failure(
                msg!("agent-refused-errors", errors = errors),
                Some(with_fixes(report(rel, &found))),
            );
        }
        let Some(canonical) = site::canonical_text(rel, &text) else {
            return failure(msg!("agent-refused-unparsed", path = rel), None);
        };
        let path = self.root.join(rel);
        if let Err(message) = self.inside_data(&path) {
            return failure(message, None);
        }
        let breaking = match target {
            Target::Document(game) => Some(self.breaking(game, rel, &canonical)),
            Target::PerLocale(_) => None,
        };
        // The diagnostics of the file as it will be on disk: the canonical
        // form drops what it repairs (an `unsorted` warning, say).
        let written = if canonical == text {
            found
        } else {
            match self.check_draft(rel, &canonical) {
                Ok(found) => found,
                Err(message) => return failure(message, None),
            }
        };
        let before = std::fs::read(&path).ok();
        let changes = if let Target::PerLocale(_) = target {
            None
        } else {
            match crate::review::diff_file(rel, canonical.as_bytes(), before.as_deref()) {
                Ok(file) => Some(crate::review::Report {
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
        let mut answer = with_fixes(report(rel, &written));
        answer["written"] = json!(!unchanged);
        if let Some(breaking) = breaking {
            answer["breaking"] = json!(breaking);
        }
        if let Some(changes) = changes {
            answer["changes"] = json!(changes.to_text(&std::collections::BTreeSet::new()));
            answer["changed"] = serde_json::to_value(&changes.files[0]).unwrap_or_default();
        }
        if let Target::PerLocale(kind) = target {
            let summary = per_locale::summary(kind, before.as_deref(), &canonical);
            answer["changes"] = json!(summary.to_string());
        }
        reply(answer)
    }

    /// The server's now: the instant (or the pinned wall time) and each
    /// game's local now in its time zone, as the checks and days left use it.
    fn now(&self, checked: &site::Checked) -> Value {
        let now = self.options.now.unwrap_or_else(crate::clock::Now::read);
        let games: serde_json::Map<String, Value> = checked
            .games
            .iter()
            .map(|g| {
                let local = now.for_game(&g.game).format("%Y-%m-%dT%H:%M:%S");
                (g.game.id.clone(), json!(local.to_string()))
            })
            .collect();
        let kind = match now {
            crate::clock::Now::Local(_) => "pinned",
            crate::clock::Now::At(_) => "instant",
        };
        json!({ kind: now.to_string(), "games": games })
    }
}

impl DataTools {
    /// games.json as a JSON value (every value kept, in its order).
    fn registry_value(&self) -> Result<Value, Msg> {
        let text = std::fs::read_to_string(self.root.join(REGISTRY_PATH))
            .map_err(|err| msg!("agent-registry-unreadable", error = err.to_string()))?;
        let value: Value = serde_json::from_str(&text)
            .map_err(|err| msg!("agent-registry-unparsed", error = err.to_string()))?;
        if value.get("games").is_some_and(Value::is_array) {
            Ok(value)
        } else {
            Err(msg!("agent-registry-no-games"))
        }
    }

    /// `add_game` in the current language.
    fn add_game_in(&self, args: AddGameArgs) -> CallToolResult {
        let mut registry = match self.registry_value() {
            Ok(registry) => registry,
            Err(message) => return failure(message, None),
        };
        let Some(id) = args
            .game
            .get("id")
            .and_then(Value::as_str)
            .map(str::to_owned)
        else {
            return failure(msg!("agent-game-no-id"), None);
        };
        let games = registry["games"].as_array_mut().expect("checked above");
        if games.iter().any(|g| g["id"] == id.as_str()) {
            return failure(msg!("agent-game-exists", game = id.as_str()), None);
        }
        let locales: Vec<String> = args
            .game
            .get("locales")
            .and_then(Value::as_array)
            .map(|ls| {
                ls.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        games.push(Value::Object(args.game));
        let mut documents = Vec::new();
        for (locale, text) in args.documents {
            if !locales.contains(&locale) {
                return failure(
                    msg!(
                        "agent-document-not-listed",
                        locale = locale.as_str(),
                        game = id.as_str()
                    ),
                    None,
                );
            }
            match safe_data_path(&id, &locale) {
                Ok(rel) => documents.push((rel, text)),
                Err(message) => return failure(message, None),
            }
        }
        let new_files: Vec<String> = locales
            .iter()
            .filter_map(|l| safe_data_path(&id, l).ok())
            .collect();
        self.write_registry(&registry, &documents, &new_files)
    }

    /// `add_locale` in the current language.
    fn add_locale_in(&self, args: AddLocaleArgs) -> CallToolResult {
        let mut registry = match self.registry_value() {
            Ok(registry) => registry,
            Err(message) => return failure(message, None),
        };
        if !validate::rules::is_language_tag(&args.locale) {
            return failure(
                msg!("agent-not-a-locale", locale = args.locale.as_str()),
                None,
            );
        }
        let rel = match safe_data_path(&args.game, &args.locale) {
            Ok(rel) => rel,
            Err(message) => return failure(message, None),
        };
        let games = registry["games"].as_array_mut().expect("checked above");
        let ids: Vec<String> = games
            .iter()
            .filter_map(|g| g["id"].as_str().map(str::to_owned))
            .collect();
        let Some(game) = games.iter_mut().find(|g| g["id"] == args.game.as_str()) else {
            return failure(
                msg!(
                    "agent-no-game",
                    game = args.game.as_str(),
                    games = i18n::list(&ids)
                ),
                None,
            );
        };
        let Some(locales) = game.get_mut("locales").and_then(Value::as_array_mut) else {
            return failure(msg!("agent-registry-no-games"), None);
        };
        if locales.iter().any(|l| l == args.locale.as_str()) {
            return failure(
                msg!(
                    "agent-locale-exists",
                    locale = args.locale.as_str(),
                    game = args.game.as_str()
                ),
                None,
            );
        }
        let existing: Vec<String> = locales
            .iter()
            .filter_map(|l| l.as_str().map(str::to_owned))
            .collect();
        locales.push(json!(args.locale));
        for (key, value) in [("name", args.name), ("dataSource", args.data_source)] {
            if let Some(value) = value {
                add_localized(game, key, &existing, &args.locale, value);
            }
        }
        let documents: Vec<(String, String)> = args
            .text
            .map(|text| (rel.clone(), text))
            .into_iter()
            .collect();
        self.write_registry(&registry, &documents, &[rel])
    }

    /// Checks `registry` (games.json) and `documents` (data files, path
    /// and text) together with the rest of the tree, and writes them,
    /// each atomically and in canonical form, when none of them has an
    /// error (a locale whose file is not given yet is `missing-file` for the
    /// default locale, `pending-locale` for another, reported and not
    /// refused: write_document creates it). `new_files` are the data
    /// files the change adds to the registry, whose folder's diagnostics
    /// the answer gives.
    fn write_registry(
        &self,
        registry: &Value,
        documents: &[(String, String)],
        new_files: &[String],
    ) -> CallToolResult {
        let pretty = crate::model::to_pretty(registry);
        // The canonical form, unless it would lose a value the typed
        // registry does not know (then the check refuses it anyway).
        let registry_text = site::canonical_text(REGISTRY_PATH, &pretty)
            .filter(|c| serde_json::from_str::<Value>(c).ok().as_ref() == Some(registry))
            .unwrap_or(pretty);
        let mut overlay = Overlay::new();
        overlay.insert(REGISTRY_PATH, registry_text.as_str());
        let mut texts = vec![(REGISTRY_PATH.to_owned(), registry_text.clone())];
        for (rel, text) in documents {
            let text = site::canonical_text(rel, text).unwrap_or_else(|| text.clone());
            overlay.insert(rel.as_str(), text.as_str());
            texts.push((rel.clone(), text));
        }
        let mut rels: Vec<&str> = texts.iter().map(|(rel, _)| rel.as_str()).collect();
        rels.extend(new_files.iter().map(String::as_str));
        let found = match self.check_overlay(&overlay, &rels) {
            Ok(found) => found,
            Err(message) => return failure(message, None),
        };
        let errors = found
            .iter()
            .filter(|d| {
                d.is_error()
                    && d.code != diagnostics::Code::MissingFile
                    && texts.iter().any(|(rel, _)| *rel == d.file)
            })
            .count();
        if errors > 0 {
            return failure(
                msg!("agent-refused-errors", errors = errors),
                Some(report(REGISTRY_PATH, &found)),
            );
        }
        for (rel, _) in &texts[1..] {
            if let Err(message) = self.inside_data(&self.root.join(rel)) {
                return failure(message, None);
            }
        }
        // The data files first: games.json never lists a file that is not there yet.
        let mut written = Vec::new();
        for (rel, text) in texts.iter().skip(1).chain(texts.iter().take(1)) {
            let path = self.root.join(rel);
            if let Err(err) = std::fs::create_dir_all(path.parent().unwrap_or(&self.root))
                .and_then(|()| atomic::write(&path, text.as_bytes()))
            {
                return failure(
                    msg!(
                        "agent-cannot-write",
                        path = rel.as_str(),
                        error = err.to_string()
                    ),
                    Some(json!({ "written": written })),
                );
            }
            written.push(rel.clone());
        }
        let mut answer = report(REGISTRY_PATH, &found);
        answer["written"] = json!(written);
        reply(answer)
    }

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
        .with_instructions(instructions())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let resources = resources()
            .into_iter()
            .map(|r| {
                let mut resource = Resource::new(r.uri, r.name);
                resource.mime_type = Some(r.mime.to_string());
                resource.description = Some(r.description.to_string());
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
        let Some(resource) = resources().into_iter().find(|r| r.uri == request.uri) else {
            return Err(ErrorData::resource_not_found(
                format!("no resource `{}`", request.uri),
                None,
            ));
        };
        let text = match resource.text {
            Text::Contributing => CONTRIBUTING.to_string(),
            Text::Registry | Text::Schema(_) => {
                let project = load::load(&self.root, &Overlay::new())
                    .map_err(|err| ErrorData::internal_error(format!("{err:#}"), None))?
                    .project;
                let schema = match resource.text {
                    Text::Schema(kind) => project.schema(kind).cloned().unwrap_or_default(),
                    _ => project.games_schema,
                };
                serde_json::to_string_pretty(&schema).unwrap_or_default()
            }
        };
        let contents = ResourceContents::TextResourceContents {
            uri: resource.uri.to_string(),
            mime_type: Some(resource.mime.to_string()),
            text,
            meta: None,
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}

/// One resource the agents may read.
struct Res {
    uri: &'static str,
    name: &'static str,
    mime: &'static str,
    description: &'static str,
    text: Text,
}

/// Where a resource's text comes from.
#[derive(Clone, Copy)]
enum Text {
    /// The schema of a kind of document, as the root has it.
    Schema(&'static Kind),
    /// The schema of `games.json`, as the root has it.
    Registry,
    /// The contributors' guide shipped with the binary.
    Contributing,
}

const SCHEMA_MIME: &str = "application/schema+json";

/// Every resource: the schema of each kind of document, then the
/// registry's and the contributors' guide.
fn resources() -> Vec<Res> {
    let schemas = kind::schemas().map(|(kind, schema)| Res {
        uri: schema.resource,
        name: schema.source.rsplit('/').next().unwrap_or(schema.source),
        mime: SCHEMA_MIME,
        description: schema.describes,
        text: Text::Schema(kind),
    });
    schemas
        .chain([
            Res {
                uri: "activity-site://schema/games.schema.json",
                name: "games.schema.json",
                mime: SCHEMA_MIME,
                description: "JSON Schema of games.json",
                text: Text::Registry,
            },
            Res {
                uri: "activity-site://CONTRIBUTING.md",
                name: "CONTRIBUTING.md",
                mime: "text/markdown",
                description: "How to update a game's data, and every rule `check` applies, with examples",
                text: Text::Contributing,
            },
        ])
        .collect()
}

/// Diagnostics as an answer: the list, `errors` and `warnings` counting
/// all of it, and `files` counting them per file (`rel`, the file the tool
/// was asked about, first, even with none).
fn report(rel: &str, found: &[Diagnostic]) -> Value {
    let all = diagnostics::count(found);
    let mut files = serde_json::Map::new();
    files.insert(rel.to_owned(), json!({"errors": 0, "warnings": 0}));
    for d in found {
        let counts = files
            .entry(d.file.clone())
            .or_insert_with(|| json!({"errors": 0, "warnings": 0}));
        let key = if d.is_error() { "errors" } else { "warnings" };
        counts[key] = json!(counts[key].as_u64().unwrap_or(0) + 1);
    }
    json!({
        "path": rel,
        "errors": all.errors,
        "warnings": all.warnings,
        "files": files,
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
