//! The API's reference page for people (`api-reference/index.html` in the
//! site's locale, `<locale>/api-reference/index.html` in every other
//! locale of a home page): what the API is, its base URL, every path of
//! the OpenAPI description with its parameters, every game with its
//! locales, zone and update mode, every field of every published JSON
//! Schema, a real document of the build, freshness, the promises and a few
//! lines of curl, TypeScript and Python.
//!
//! Nothing about the API is typed here twice: the paths are read from the
//! OpenAPI description and the fields from the published schemas, both
//! as this build writes them ([`fields`]), so a field added to a schema is
//! on the page. The schemas describe their fields in English; the English
//! page shows those descriptions, the Chinese page the message of each
//! field in `zh-CN.ftl` ([`field_message_id`]), whose `en-US.ftl` twin is
//! the description it was translated from (a test holds every field of the
//! built-in schemas to both, and each English twin to its description, so
//! a changed description asks for its translation again). A field no
//! message names yet (a tree's own schema) shows its English description
//! on the Chinese page, marked as English.
//!
//! A page of the data and the tool alone, with no script: pure, no I/O.

use serde::Serialize;
use serde_json::{Map, Value};

use super::api::Summary;
use super::pages::{self, Live, Ui};
use super::types::{GameOutput, LocaleDocument, OutputFile};
use crate::i18n::{Lang, msg};
use crate::layout::{self, Naming, SiteUrl};
use crate::model::{Game, to_pretty};

/// How many activities the example document keeps.
const EXAMPLE_ACTIVITIES: usize = 2;

/// What the reference pages are built from.
pub(super) struct Inputs<'a> {
    /// Every game as the index sees it, with its documents' due times.
    pub games: &'a [Summary<'a>],
    /// The example: a game and one of its documents, activities included.
    pub example: Option<(&'a Game, &'a LocaleDocument)>,
    /// The contract as this build publishes it: the schemas under
    /// `api/v1/schema/` and the OpenAPI description (other files are passed over).
    pub contract: &'a [OutputFile],
    pub site: Option<&'a SiteUrl>,
    /// The site's locale (its page has no locale folder).
    pub site_locale: &'a str,
    /// The locales with a home page ([`pages::home_locales`]).
    pub locales: &'a [String],
    /// A digest of everything the games table reads of `games` (each
    /// game's registry entry, the locales it has a document in, the
    /// default one marked, and its update modes), which names the table
    /// of each page among the tables a build keeps ([`Table`]).
    pub games_digest: [u8; 32],
}

/// One of the two tables of a page that grow with the site (every path of
/// the API with every published name, every game), rendered on its own and
/// put in the page as it is. A page's other parts (the example among them)
/// change without them: a build kept between runs takes a table rendered
/// before from the same inputs ([`render_with`]).
pub(super) struct Table<'a> {
    /// Which table of which page: one name per table and page.
    pub name: String,
    /// Everything the table reads, besides the tool's templates and messages.
    pub reads: Vec<&'a [u8]>,
}

/// The reference page of every locale with a home page.
pub(super) fn render(inputs: &Inputs<'_>) -> anyhow::Result<Vec<OutputFile>> {
    render_with(inputs, |_, make| make())
}

/// [`render`], each page's tables made by `table(table, make)`: `make`
/// renders it (a build that keeps tables between runs takes one it kept
/// under the same name from the same reads instead).
pub(super) fn render_with(
    inputs: &Inputs<'_>,
    table: impl Fn(Table<'_>, &dyn Fn() -> anyhow::Result<String>) -> anyhow::Result<String>,
) -> anyhow::Result<Vec<OutputFile>> {
    let openapi = contract_json(inputs.contract, layout::OPENAPI_PATH);
    let paths = openapi.as_ref().map(path_views).unwrap_or_default();
    let common = Common {
        paths_read: serde_json::to_vec(&paths)?,
        paths,
        schemas: published_schemas(inputs.contract),
        example_json: inputs.example.map(|(game, doc)| example_json(game, doc)),
    };
    inputs
        .locales
        .iter()
        .map(|locale| {
            let path = layout::reference_page(locale, Naming::of(locale, inputs.site_locale));
            let rows = Rows::of(inputs, &common, locale, &path, &table)?;
            let view = page_view(inputs, &common, locale, rows)?;
            pages::render_view("reference.html", &path, &view)
        })
        .collect()
}

/// One field of a published document, as the page lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Field {
    /// Its place: `activities[].startsAt` is a field of each item of
    /// `activities`; `*` stands for any key of a map.
    pub path: String,
    /// Its JSON type, as the schema gives it (`string (date-time)`,
    /// `array of object`, `"version" | "activity"`).
    pub ty: String,
    /// Whether its object always has it (the schema's `required`).
    pub required: bool,
    /// What it means: its description, else that of what it refers to,
    /// else its title.
    pub description: Option<String>,
}

/// Every field of a JSON Schema, depth first in the schema's order:
/// its properties, those of the objects they hold (`a.b`), of their
/// items (`a[].b`) and of a map's values (`a.*.b`). Local references
/// (`#/$defs/...`) are followed.
pub fn fields(schema: &Value) -> Vec<Field> {
    let mut out = Vec::new();
    walk(schema, schema, "", &mut out, 0);
    out
}

/// How deep [`walk`] follows nested objects: a guard against a schema
/// that refers to itself.
const MAX_DEPTH: usize = 8;

fn walk(root: &Value, node: &Value, prefix: &str, out: &mut Vec<Field>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let node = resolved(root, node);
    let required: Vec<&str> = node
        .get("required")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if let Some(properties) = node.get("properties").and_then(Value::as_object) {
        for (name, property) in properties {
            let path = format!("{prefix}{name}");
            let target = resolved(root, property);
            out.push(Field {
                path: path.clone(),
                ty: type_of(root, property),
                required: required.contains(&name.as_str()),
                description: meaning(property, &target),
            });
            nested(root, &target, &path, out, depth);
        }
    }
}

/// The fields inside a field at `path` of schema `target`: of its object,
/// its items or its map's values.
fn nested(
    root: &Value,
    target: &Map<String, Value>,
    path: &str,
    out: &mut Vec<Field>,
    depth: usize,
) {
    let inner = Value::Object(target.clone());
    if target.contains_key("properties") {
        walk(root, &inner, &format!("{path}."), out, depth + 1);
    }
    if let Some(items) = target.get("items") {
        walk(root, items, &format!("{path}[]."), out, depth + 1);
    }
    if let Some(values) = target.get("additionalProperties").filter(|v| v.is_object()) {
        let values = resolved(root, values);
        let key = format!("{path}.*");
        if values.contains_key("properties") || values.contains_key("items") {
            walk(
                root,
                &Value::Object(values.clone()),
                &format!("{key}."),
                out,
                depth + 1,
            );
            if let Some(items) = values.get("items") {
                walk(root, items, &format!("{key}[]."), out, depth + 1);
            }
        }
    }
}

/// `node` with every local `$ref` it starts with merged in: what it says
/// itself wins over what it refers to.
fn resolved(root: &Value, node: &Value) -> Map<String, Value> {
    let mut merged = node.as_object().cloned().unwrap_or_default();
    let mut seen = 0;
    while let Some(reference) = merged
        .remove("$ref")
        .and_then(|r| r.as_str().map(str::to_owned))
    {
        seen += 1;
        let Some(target) = reference
            .strip_prefix('#')
            .and_then(|pointer| root.pointer(pointer))
            .and_then(Value::as_object)
        else {
            break;
        };
        if seen > MAX_DEPTH {
            break;
        }
        for (key, value) in target {
            merged.entry(key.clone()).or_insert_with(|| value.clone());
        }
    }
    merged
}

/// The meaning of a property: its own description, else its target's,
/// else its own title, else its target's.
fn meaning(property: &Value, target: &Map<String, Value>) -> Option<String> {
    let own = |key: &str| property.get(key).and_then(Value::as_str);
    let of_target = |key: &str| target.get(key).and_then(Value::as_str);
    own("description")
        .or_else(|| of_target("description"))
        .or_else(|| own("title"))
        .or_else(|| of_target("title"))
        .map(str::to_owned)
}

/// The type of a schema as a reader of JSON names it.
fn type_of(root: &Value, node: &Value) -> String {
    let node = resolved(root, node);
    if let Some(values) = node.get("enum").and_then(Value::as_array) {
        let values: Vec<String> = values.iter().map(Value::to_string).collect();
        return values.join(" | ");
    }
    if let Some(value) = node.get("const") {
        return value.to_string();
    }
    for choice in ["oneOf", "anyOf"] {
        if let Some(options) = node.get(choice).and_then(Value::as_array) {
            let types: Vec<String> = options.iter().map(|o| type_of(root, o)).collect();
            return types.join(" | ");
        }
    }
    let names: Vec<&str> = match node.get("type") {
        Some(Value::String(one)) => vec![one.as_str()],
        Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let typed = names
        .iter()
        .map(|name| match *name {
            "array" => match node.get("items") {
                Some(items) => format!("array of {}", type_of(root, items)),
                None => "array".to_owned(),
            },
            "object" => match node.get("additionalProperties").filter(|v| v.is_object()) {
                Some(values) if !node.contains_key("properties") => {
                    format!("map of {}", type_of(root, values))
                }
                _ => "object".to_owned(),
            },
            "string" => match node.get("format").and_then(Value::as_str) {
                Some(format) => format!("string ({format})"),
                None => "string".to_owned(),
            },
            other => other.to_owned(),
        })
        .collect::<Vec<_>>();
    if typed.is_empty() {
        "any".to_owned()
    } else {
        typed.join(" | ")
    }
}

/// A published schema as the pages show it.
struct Schema {
    /// The file's stem (`activity`, `games`).
    stem: String,
    path: String,
    /// Its own title, when it has one.
    title: Option<String>,
    fields: Vec<Field>,
}

/// The schemas of the contract, in the order of the contract's files.
fn published_schemas(contract: &[OutputFile]) -> Vec<Schema> {
    let dir = format!("{}/", layout::SCHEMA_DIR);
    contract
        .iter()
        .filter_map(|file| {
            let stem = file.path.strip_prefix(&dir)?.strip_suffix(".json")?;
            let schema: Value = serde_json::from_slice(&file.bytes).ok()?;
            Some(Schema {
                stem: stem.to_owned(),
                path: file.path.clone(),
                title: schema
                    .get("title")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                fields: fields(&schema),
            })
        })
        .collect()
}

fn contract_json(contract: &[OutputFile], path: &str) -> Option<Value> {
    let file = contract.iter().find(|f| f.path == path)?;
    serde_json::from_slice(&file.bytes).ok()
}

/// The messages the page names by a schema's stem and a field's place
/// rather than by a literal id: a schema's title (`ref-schema-<stem>`)
/// and each field's meaning (`ref-field-<stem>-<field>`). `tests/pages.rs`
/// holds every field of the published schemas to one in both `.ftl`
/// files, and every such message to a field.
pub const DERIVED_MESSAGES: [&str; 2] = ["ref-schema-", "ref-field-"];

/// The message of the meaning of the field at `path` of the schema `stem`:
/// `ref-field-activity-activities-startsAt` for `activities[].startsAt`
/// of `activity.json` (`[]` dropped, `.` and `*` spelled `-` and `any`).
pub fn field_message_id(stem: &str, path: &str) -> String {
    let place = path.replace("[]", "").replace('*', "any").replace('.', "-");
    format!("{}{stem}-{place}", DERIVED_MESSAGES[1])
}

/// The message of the title of the schema `stem` (`ref-schema-activity`).
pub fn schema_title_id(stem: &str) -> String {
    format!("{}{stem}", DERIVED_MESSAGES[0])
}

// The page's view.

#[derive(Debug, Serialize)]
pub(super) struct ReferenceView {
    lang: String,
    ui: &'static Ui,
    live: Live,
    /// The home page of this page's language, relative.
    home_href: String,
    /// Relative path from this page to the site root.
    root: String,
    alternates: Vec<Alternate>,
    text: Texts,
    /// The page is not in English: what the OpenAPI description says is
    /// marked as English.
    foreign: bool,
    /// The body of the paths table ([`PathsTable`]), HTML.
    paths_rows: String,
    /// The body of the games table ([`GamesTable`]), HTML.
    game_rows: String,
    schemas: Vec<SchemaView>,
    example: Option<ExampleView>,
    curl: String,
    typescript: String,
    python: String,
    /// The files of the contract, relative to this page.
    openapi_href: String,
    catalog_href: String,
    llms_href: String,
    index_href: String,
}

/// The sentences of the page in its language, as HTML (`code` spans made
/// `<code>`, everything else escaped).
#[derive(Debug, Serialize)]
struct Texts {
    title: String,
    description: String,
    intro: String,
    base_heading: String,
    base: String,
    paths_heading: String,
    paths_note: String,
    col_path: String,
    col_summary: String,
    col_parameters: String,
    games_heading: String,
    games_note: String,
    col_game: String,
    col_name: String,
    col_locales: String,
    col_zone: String,
    col_mode: String,
    fields_heading: String,
    fields_note: String,
    col_field: String,
    col_type: String,
    col_present: String,
    col_meaning: String,
    example_heading: String,
    example_note: String,
    freshness_heading: String,
    fresh_due: String,
    fresh_etag: String,
    fresh_cache: String,
    promises_heading: String,
    promises: Vec<String>,
    calling_heading: String,
    curl: String,
    typescript: String,
    python: String,
    contract_heading: String,
}

#[derive(Debug, Serialize)]
struct Alternate {
    locale: String,
    language: String,
    href: String,
    current: bool,
}

/// What every page shows alike, worked out once.
struct Common {
    /// Every path of the OpenAPI description, and as JSON (what the paths
    /// table reads).
    paths: Vec<PathView>,
    paths_read: Vec<u8>,
    schemas: Vec<Schema>,
    /// The example's JSON ([`example_json`]).
    example_json: Option<String>,
}

/// The bodies of a page's two tables that grow with the site, rendered
/// ([`Table`]).
struct Rows {
    paths: String,
    games: String,
}

impl Rows {
    /// The tables of the page in `locale`, at `path`, each made by
    /// `table` ([`render_with`]).
    fn of(
        inputs: &Inputs<'_>,
        common: &Common,
        locale: &str,
        path: &str,
        table: impl Fn(Table<'_>, &dyn Fn() -> anyhow::Result<String>) -> anyhow::Result<String>,
    ) -> anyhow::Result<Rows> {
        let foreign = ui_lang(locale) != Lang::EnUs;
        let paths = Table {
            name: format!("{path} paths"),
            reads: vec![
                &common.paths_read,
                if foreign { b"foreign" } else { b"english" },
            ],
        };
        let paths = table(paths, &|| {
            let view = PathsTable {
                paths: &common.paths,
                foreign,
            };
            pages::render_text(pages::environment()?, "reference_paths.html", path, &view)
        })?;
        let games = Table {
            name: format!("{path} games"),
            reads: vec![
                &inputs.games_digest,
                locale.as_bytes(),
                inputs.site_locale.as_bytes(),
            ],
        };
        let games = table(games, &|| games_table(inputs, locale, path))?;
        Ok(Rows { paths, games })
    }
}

/// The view of the body of the paths table (`reference_paths.html`).
#[derive(Debug, Serialize)]
struct PathsTable<'a> {
    paths: &'a [PathView],
    /// The page is not in English: the summaries are marked as English.
    foreign: bool,
}

/// The view of the body of the games table (`reference_games.html`).
#[derive(Debug, Serialize)]
struct GamesTable {
    games: Vec<GameRow>,
}

#[derive(Debug, Serialize)]
struct PathView {
    path: String,
    summary: String,
    parameters: Vec<ParameterView>,
}

#[derive(Debug, Serialize)]
struct ParameterView {
    name: String,
    description: String,
    /// The values it takes, when the description lists them.
    values: Vec<String>,
}

#[derive(Debug, Serialize)]
struct GameRow {
    id: String,
    name: String,
    zone: String,
    mode: String,
    locales: Vec<LocaleCell>,
}

#[derive(Debug, Serialize)]
struct LocaleCell {
    locale: String,
    /// The document, relative to the page (none for a pending locale).
    href: Option<String>,
    /// `(default)`, or the pending note, in the page's language.
    note: Option<String>,
}

#[derive(Debug, Serialize)]
struct SchemaView {
    anchor: String,
    title: String,
    href: String,
    fields: Vec<FieldRow>,
}

#[derive(Debug, Serialize)]
struct FieldRow {
    path: String,
    ty: String,
    present: String,
    /// The meaning as HTML.
    meaning: String,
    /// `en` when the meaning is shown in English on a page of another language.
    meaning_lang: Option<&'static str>,
}

#[derive(Debug, Serialize)]
struct ExampleView {
    href: String,
    json: String,
}

fn page_view(
    inputs: &Inputs<'_>,
    common: &Common,
    locale: &str,
    rows: Rows,
) -> anyhow::Result<ReferenceView> {
    let naming = Naming::of(locale, inputs.site_locale);
    let root = root_of(naming);
    let ui = pages::ui_for(locale);
    let lang = ui_lang(locale);
    let base = base_url(inputs.site);
    let alternates = inputs
        .locales
        .iter()
        .map(|other| {
            let page = layout::reference_dir(other, Naming::of(other, inputs.site_locale));
            Alternate {
                locale: other.clone(),
                language: pages::language_name(other),
                href: format!("{root}{page}"),
                current: other == locale,
            }
        })
        .collect();
    let example = inputs
        .example
        .zip(common.example_json.as_ref())
        .map(|((game, doc), json)| ExampleView {
            href: format!(
                "{root}{}",
                layout::activity_path(game, &doc.locale, doc.naming(), "json")
            ),
            json: json.clone(),
        });
    let text = texts(inputs, lang, &base, inputs.example);
    Ok(ReferenceView {
        lang: locale.to_owned(),
        ui,
        live: pages::style_only(ui),
        home_href: format!("{root}{}", layout::home_dir(locale, naming)),
        root: root.to_owned(),
        alternates,
        text,
        foreign: lang != Lang::EnUs,
        paths_rows: rows.paths,
        game_rows: rows.games,
        schemas: common
            .schemas
            .iter()
            .map(|schema| schema_view(schema, root, lang))
            .collect(),
        example,
        curl: curl_snippet(inputs, &base),
        typescript: typescript_snippet(inputs, &base),
        python: python_snippet(inputs, &base),
        openapi_href: format!("{root}{}", layout::OPENAPI_PATH),
        catalog_href: format!("{root}{}", layout::API_CATALOG_PATH),
        llms_href: format!("{root}{}", layout::LLMS_PATH),
        index_href: format!("{root}{}", layout::INDEX_PATH),
    })
}

/// The body of the games table of the page in `locale`, at `path`: a row
/// per game.
fn games_table(inputs: &Inputs<'_>, locale: &str, path: &str) -> anyhow::Result<String> {
    let root = root_of(Naming::of(locale, inputs.site_locale));
    let lang = ui_lang(locale);
    let view = GamesTable {
        games: inputs
            .games
            .iter()
            .map(|summary| game_row(summary, locale, root, lang))
            .collect(),
    };
    pages::render_text(pages::environment()?, "reference_games.html", path, &view)
}

/// The path from a page named `naming` to the site's root.
fn root_of(naming: Naming) -> &'static str {
    if naming == Naming::Plain {
        "../"
    } else {
        "../../"
    }
}

fn ui_lang(locale: &str) -> Lang {
    if crate::model::is_chinese(locale) {
        Lang::ZhCn
    } else {
        Lang::EnUs
    }
}

/// The site's address without its trailing slash, or the stand-in the
/// examples use when the build does not know it.
fn base_url(site: Option<&SiteUrl>) -> String {
    site.map_or(EXAMPLE_SITE, SiteUrl::as_str)
        .trim_end_matches('/')
        .to_owned()
}

/// The address the examples name when the build was given none.
const EXAMPLE_SITE: &str = "https://example.org";

fn texts(
    inputs: &Inputs<'_>,
    lang: Lang,
    base: &str,
    example: Option<(&Game, &LocaleDocument)>,
) -> Texts {
    let t = |m: crate::i18n::Msg| code_spans(&m.render(lang));
    let api = format!("{base}/{}/", layout::API_DIR);
    let base_text = match inputs.site {
        Some(_) => t(msg!("ref-base-known", api = api.as_str(), site = base)),
        None => t(msg!("ref-base-unknown", site = base)),
    };
    let example_note = match example {
        Some((game, doc)) => {
            let path = layout::url(&layout::activity_path(
                game,
                &doc.locale,
                doc.naming(),
                "json",
            ));
            let total = doc.document.activities.len();
            let shown = total.min(EXAMPLE_ACTIVITIES);
            t(msg!(
                "ref-example-note",
                path = path,
                shown = shown,
                total = total
            ))
        }
        None => t(msg!("ref-example-none")),
    };
    Texts {
        title: t(msg!("ref-title")),
        description: msg!("ref-description").render(lang),
        intro: t(msg!("ref-intro")),
        base_heading: t(msg!("ref-base-heading")),
        base: base_text,
        paths_heading: t(msg!("ref-paths-heading")),
        paths_note: t(msg!(
            "ref-paths-note",
            openapi = layout::url(layout::OPENAPI_PATH)
        )),
        col_path: t(msg!("ref-col-path")),
        col_summary: t(msg!("ref-col-summary")),
        col_parameters: t(msg!("ref-col-parameters")),
        games_heading: t(msg!("ref-games-heading")),
        games_note: t(msg!(
            "ref-games-note",
            index = layout::url(layout::INDEX_PATH)
        )),
        col_game: t(msg!("ref-col-game")),
        col_name: t(msg!("ref-col-name")),
        col_locales: t(msg!("ref-col-locales")),
        col_zone: t(msg!("ref-col-zone")),
        col_mode: t(msg!("ref-col-mode")),
        fields_heading: t(msg!("ref-fields-heading")),
        fields_note: t(msg!("ref-fields-note")),
        col_field: t(msg!("ref-col-field")),
        col_type: t(msg!("ref-col-type")),
        col_present: t(msg!("ref-col-present")),
        col_meaning: t(msg!("ref-col-meaning")),
        example_heading: t(msg!("ref-example-heading")),
        example_note,
        freshness_heading: t(msg!("ref-freshness-heading")),
        fresh_due: t(msg!("ref-fresh-due")),
        fresh_etag: t(msg!("ref-fresh-etag")),
        fresh_cache: t(msg!("ref-fresh-cache", cache = layout::API_CACHE)),
        promises_heading: t(msg!("ref-promises-heading")),
        promises: vec![
            t(msg!("ref-promise-fields")),
            t(msg!("ref-promise-ids")),
            t(msg!("ref-promise-times")),
            t(msg!("ref-promise-paths")),
        ],
        calling_heading: t(msg!("ref-calling-heading")),
        curl: t(msg!("ref-curl")),
        typescript: t(msg!("ref-typescript")),
        python: t(msg!("ref-python")),
        contract_heading: t(msg!("ref-contract-heading")),
    }
}

/// Escapes `text` for HTML and makes each `` `code` `` span a `<code>`.
fn code_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for (i, part) in text.split('`').enumerate() {
        // An unpaired last backtick stays a backtick.
        let inside = i % 2 == 1;
        if inside && i == text.matches('`').count() {
            out.push('`');
            out.push_str(&pages::escape_html(part));
        } else if inside {
            out.push_str("<code>");
            out.push_str(&pages::escape_html(part));
            out.push_str("</code>");
        } else {
            out.push_str(&pages::escape_html(part));
        }
    }
    out
}

/// Every path of the OpenAPI description with the GET's summary and its
/// parameters (references to `components` followed).
fn path_views(openapi: &Value) -> Vec<PathView> {
    let Some(paths) = openapi.get("paths").and_then(Value::as_object) else {
        return Vec::new();
    };
    paths
        .iter()
        .map(|(path, item)| {
            let get = item.get("get").unwrap_or(&Value::Null);
            let summary = get
                .get("summary")
                .or_else(|| get.get("operationId"))
                .and_then(Value::as_str)
                .unwrap_or_default();
            let listed = [item.get("parameters"), get.get("parameters")];
            let parameters = listed
                .into_iter()
                .flatten()
                .filter_map(Value::as_array)
                .flatten()
                .map(|p| parameter_view(openapi, p))
                .collect();
            PathView {
                path: path.clone(),
                summary: code_spans(summary),
                parameters,
            }
        })
        .collect()
}

fn parameter_view(openapi: &Value, parameter: &Value) -> ParameterView {
    let parameter = Value::Object(resolved(openapi, parameter));
    let schema = parameter
        .get("schema")
        .map(|s| Value::Object(resolved(openapi, s)))
        .unwrap_or_default();
    let values = schema
        .get("enum")
        .and_then(Value::as_array)
        .map(|values| {
            values
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let text = |key: &str| {
        parameter
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    ParameterView {
        name: text("name"),
        description: code_spans(&text("description")),
        values,
    }
}

fn game_row(summary: &Summary<'_>, locale: &str, root: &str, lang: Lang) -> GameRow {
    let output: &GameOutput = summary.game;
    let game = &output.game;
    let pending: Vec<&str> = output.pending_locales().collect();
    let locales = game
        .locales
        .iter()
        .map(|l| {
            let doc = output.documents.iter().find(|d| d.locale == *l);
            let note = if pending.contains(&l.as_str()) {
                Some(msg!("ref-pending"))
            } else if *l == game.default_locale {
                Some(msg!("page-default-locale"))
            } else {
                None
            };
            let note = note.map(|note| msg!("ref-locale-note", note = note).render(lang));
            LocaleCell {
                locale: l.clone(),
                href: doc.map(|d| {
                    format!(
                        "{root}{}",
                        layout::activity_path(game, &d.locale, d.naming(), "json")
                    )
                }),
                note,
            }
        })
        .collect();
    // The mode in force for the default document (every document of a
    // game has the same when the registry names one).
    let default_at = output
        .documents
        .iter()
        .position(|d| d.is_default)
        .unwrap_or(0);
    let mode = summary
        .dues
        .get(default_at)
        .map(|due| due.update_mode.as_str())
        .unwrap_or_default();
    GameRow {
        id: game.id.clone(),
        name: game.name.get(locale, &game.default_locale).to_owned(),
        zone: game.time_zone_name().to_owned(),
        mode: mode.to_owned(),
        locales,
    }
}

fn schema_view(schema: &Schema, root: &str, lang: Lang) -> SchemaView {
    let stem = schema.stem.as_str();
    let title = crate::i18n::lookup(&schema_title_id(stem), lang)
        .unwrap_or_else(|| schema.title.as_deref().unwrap_or(stem).to_owned());
    let rows = schema
        .fields
        .iter()
        .map(|field| {
            let (meaning, meaning_lang) = field_meaning(stem, field, lang);
            let present = if field.required {
                msg!("ref-always")
            } else {
                msg!("ref-optional")
            };
            FieldRow {
                path: field.path.clone(),
                ty: field.ty.clone(),
                present: present.render(lang),
                meaning,
                meaning_lang,
            }
        })
        .collect();
    SchemaView {
        anchor: format!("schema-{stem}"),
        title,
        href: format!("{root}{}", schema.path),
        fields: rows,
    }
}

/// The meaning of `field` of the schema `stem` in `lang`, as HTML, and
/// `en` when it is shown in English on a page of another language. In
/// English, the schema's description (else the field's message); in
/// another language, the field's message (else the description in English).
fn field_meaning(stem: &str, field: &Field, lang: Lang) -> (String, Option<&'static str>) {
    let message = crate::i18n::lookup(&field_message_id(stem, &field.path), lang);
    let english = lang == Lang::EnUs;
    let shown = match (&field.description, message) {
        (Some(description), _) if english => Some((description.clone(), None)),
        (_, Some(text)) => Some((text, None)),
        (Some(description), None) => Some((description.clone(), Some("en"))),
        (None, None) => None,
    };
    match shown {
        Some((text, in_lang)) => (code_spans(&text), in_lang),
        None => ("—".to_owned(), None),
    }
}

/// The example: the document as published, its activities cut to the
/// first [`EXAMPLE_ACTIVITIES`].
fn example_json(game: &Game, doc: &LocaleDocument) -> String {
    let mut value: Value = serde_json::from_slice(&doc.to_json(game)).unwrap_or_default();
    if let Some(Value::Array(activities)) = value.get_mut("activities") {
        activities.truncate(EXAMPLE_ACTIVITIES);
    }
    to_pretty(&value)
}

/// The game and second locale the snippets ask for: the first game, and
/// its first locale with a document that is not its default (else its default).
fn snippet_game<'a>(inputs: &'a Inputs<'a>) -> (&'a str, Option<&'a str>) {
    let Some(first) = inputs.games.first() else {
        return ("sr", Some("en-US"));
    };
    let output = first.game;
    let other = output
        .documents
        .iter()
        .find(|d| !d.is_default)
        .map(|d| d.locale.as_str());
    (output.game.id.as_str(), other)
}

fn curl_snippet(inputs: &Inputs<'_>, base: &str) -> String {
    let (game, _) = snippet_game(inputs);
    let index = layout::url(layout::INDEX_PATH);
    let document = layout::url(&layout::activity_file(game, "json"));
    format!(
        "curl -s {base}{index}\n\
         curl -sI {base}{document}    # ETag, Last-Modified, Cache-Control\n\
         etag=$(curl -sI {base}{document} | tr -d '\\r' | sed -n 's/^[Ee][Tt][Aa][Gg]: //p')\n\
         curl -s -o /dev/null -w '%{{http_code}}\\n' -H \"If-None-Match: $etag\" {base}{document}    # 304\n"
    )
}

fn typescript_snippet(inputs: &Inputs<'_>, base: &str) -> String {
    let (game, locale) = snippet_game(inputs);
    let call = match locale {
        Some(locale) => format!("client.game(\"{game}\", {{ locale: \"{locale}\" }})"),
        None => format!("client.game(\"{game}\")"),
    };
    format!(
        "// npm install activity-site-client\n\
         import {{ ActivityClient }} from \"activity-site-client\";\n\
         const client = new ActivityClient({{ baseUrl: \"{base}\" }});\n\
         const doc = await {call};\n\
         for (const a of doc.activities) console.log(a.id, a.name, a.end.toISOString());\n\
         if (doc.stale) console.log(\"due since\", doc.raw.dueAt);\n"
    )
}

fn python_snippet(inputs: &Inputs<'_>, base: &str) -> String {
    let (game, locale) = snippet_game(inputs);
    let call = match locale {
        Some(locale) => format!("client.game(\"{game}\", locale=\"{locale}\")"),
        None => format!("client.game(\"{game}\")"),
    };
    format!(
        "# pip install activity-site-client\n\
         from activity_site_client import ActivityClient\n\
         client = ActivityClient(\"{base}\")\n\
         doc = {call}\n\
         for a in doc.activities:\n    print(a.id, a.name, a.end.isoformat())\n\
         if doc.stale:\n    print(\"due since\", doc.raw[\"dueAt\"])\n"
    )
}
