//! The published contract of the public API, one owner: a JSON Schema
//! (draft 2020-12) for every JSON file the site publishes, under
//! `api/v1/schema/` ([`schema_files`]), the OpenAPI 3.1 description of
//! every path of the API at `api/v1/openapi.json` ([`openapi::openapi`]),
//! self-contained (the same schemas under `components/schemas`), the API
//! catalog of RFC 9727 at `.well-known/api-catalog` ([`api_catalog`]),
//! whose links are [`catalog_links`], and the page its anchor, the API's
//! base, resolves to ([`api_home`]).
//!
//! Every `$id` and link is absolute under the site's address when the
//! build knows it (`--site-url`, [`SiteUrl`]), else site-absolute
//! (`/api/v1/...`, resolved against wherever the file was read from).
//!
//! The published schemas are open: a reader meets fields they do not name
//! and ignores them, as the description promises (fields are added, never
//! removed). The sources' schemas stay closed (a contributor's typo is an
//! error), and the project's tests hold every published field to its
//! schema. A published schema never requires what a document the build
//! publishes may lack (an activity's `id` before `check --fix` gives it).
//!
//! A kind's published schema is the schema its sources are checked
//! against with its editor hint (`$schema`) dropped, as the build drops it
//! from the files; the activity documents' also gains what the build adds
//! to every document ([`crate::model::published`]). Pure: no I/O.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::kinds;
use super::types::{GameOutput, OutputFile};
use crate::i18n::{Lang, Msg};
use crate::kind::{self, Kind};
use crate::layout::{self, Naming, SiteUrl};
use crate::model::to_pretty;

/// The JSON Schema dialect of every published schema.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The form of an activity's `id`, as the published schema checks it.
pub const ACTIVITY_ID_PATTERN: &str = "^[a-z0-9]+(?:[.-][a-z0-9]+)*$";

/// An RFC 3339 date-time with a numeric offset and no fraction, as every
/// published instant is written.
const INSTANT_PATTERN: &str =
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{2}:[0-9]{2}$";

pub mod openapi;

mod components;

/// What the contract is built from: the games as published, the schema of
/// each kind as the tree was checked against it, the other files of the
/// site (the kinds' documents and the index, whose paths the description
/// lists and whose content gives its examples) and the site's address.
pub struct Inputs<'a> {
    /// The games as published, their documents without activities.
    pub games: &'a [GameOutput],
    /// One game with its documents whole (the first), whose default
    /// locale's document is the description's example.
    pub example: Option<&'a GameOutput>,
    pub schemas: &'a BTreeMap<&'static str, Value>,
    /// Every file the site publishes besides the games' own (the index,
    /// the announcements boards and feeds, the kept files).
    pub files: &'a [OutputFile],
    pub site: Option<&'a SiteUrl>,
}

impl Inputs<'_> {
    /// The relative paths of [`Inputs::files`].
    fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|f| f.path.as_str())
    }
}

/// Every file of the contract: the schemas, the OpenAPI, the catalog and
/// the page of the catalog's anchor.
pub fn files(inputs: &Inputs<'_>) -> Vec<OutputFile> {
    let mut files = schema_files(inputs);
    files.push(openapi::openapi(inputs));
    files.push(api_catalog(inputs.site));
    files.push(api_home(inputs.site));
    files
}

/// The published schemas: one per kind of document that has one, the
/// index's and the API catalog's.
pub fn schema_files(inputs: &Inputs<'_>) -> Vec<OutputFile> {
    published_schemas(inputs)
        .iter()
        .map(|schema| file(schema.path, &schema.value))
        .collect()
}

/// A published schema: its path, its name among the description's
/// components and its content.
struct PublishedSchema {
    path: &'static str,
    component: &'static str,
    value: Value,
}

/// The component name of the index's schema.
const INDEX_COMPONENT: &str = "GamesIndex";
/// The component name of the API catalog's schema.
const API_CATALOG_COMPONENT: &str = "APICatalog";

/// Every published schema, the one source of the files and of the
/// description's components.
fn published_schemas(inputs: &Inputs<'_>) -> Vec<PublishedSchema> {
    let mut schemas: Vec<PublishedSchema> = kind::schemas()
        .filter_map(|(kind, schema)| {
            let source = inputs.schemas.get(kind.name)?;
            Some(PublishedSchema {
                path: schema.published,
                component: schema.component,
                value: published_schema(kind, source, schema.published, inputs.site),
            })
        })
        .collect();
    schemas.push(PublishedSchema {
        path: layout::INDEX_SCHEMA_PATH,
        component: INDEX_COMPONENT,
        value: index_schema(inputs.site),
    });
    schemas.push(PublishedSchema {
        path: layout::API_CATALOG_SCHEMA_PATH,
        component: API_CATALOG_COMPONENT,
        value: api_catalog_schema(inputs.site),
    });
    schemas
}

fn file(path: &str, value: &Value) -> OutputFile {
    OutputFile {
        path: path.to_owned(),
        bytes: to_pretty(value).into_bytes(),
    }
}

/// The `$id` of a schema published at `path`.
fn id(site: Option<&SiteUrl>, path: &str) -> Value {
    Value::String(layout::link(site, path))
}

/// A kind's schema as published: its `$id` at its published place, its
/// editor hint gone; the activity documents' with the published fields.
fn published_schema(kind: &Kind, source: &Value, path: &str, site: Option<&SiteUrl>) -> Value {
    let mut schema = source.clone();
    let Some(object) = schema.as_object_mut() else {
        return schema;
    };
    // In place of the source's `$id` (its key keeps its place).
    object.insert("$id".to_owned(), id(site, path));
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        properties.shift_remove("$schema");
    }
    if kind::same(kind, &kind::activities::KIND) {
        add_published_fields(object);
    }
    open(&mut schema);
    schema
}

/// Drops every `additionalProperties: false` of a schema (at the top and
/// in its objects): what the sources may not hold, a published document
/// may gain, and its readers ignore it.
fn open(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            if object.get("additionalProperties") == Some(&Value::Bool(false)) {
                object.shift_remove("additionalProperties");
            }
            object.values_mut().for_each(open);
        }
        Value::Array(items) => items.iter_mut().for_each(open),
        _ => {}
    }
}

/// Adds to an activity document's schema what every published document
/// gains ([`crate::model::PublishedDocument`]): `id`, `startsAt` and
/// `endsAt` on each activity; `timeZone`, `startsAt`, `endsAt`,
/// `updateMode` and `dueAt` on the document.
fn add_published_fields(schema: &mut Map<String, Value>) {
    let defs = entry_object(schema, "$defs");
    defs.insert(
        "instant".to_owned(),
        json!({
            "title": "Instant",
            "description": "An RFC 3339 date-time with the UTC offset in force at that moment in the document's timeZone, and no fraction. It is the naive time beside it (startTime, endTime) read in timeZone: a client anywhere computes it, or uses it, without knowing the zone's rules. A zone with daylight saving time gives different offsets within one document. A naive time that a DST change skips (a gap) or repeats (a fold) is resolved as RFC 9557 and Temporal's \"compatible\" do: in a fold the earlier of the two instants (the offset before the change), in a gap the instant the offset before the change gives (the wall time shifted forward by the gap's length).",
            "type": "string",
            "format": "date-time",
            "pattern": INSTANT_PATTERN,
            "examples": ["2026-10-31T11:00:00-04:00", "2026-11-12T03:59:59-05:00"]
        }),
    );
    if let Some(Value::Object(activity)) = defs.get_mut("activity") {
        let properties = entry_object(activity, "properties");
        // The published meaning in place of the source's (a source may
        // lack ids; a published document lacks one exactly when its
        // source does).
        let id = json!({
            "title": "Id",
            "description": "The activity's stable id, present once assigned: `check --fix` gives every activity one, once, stored in the data and never derived again, so it survives a rename, a corrected time and a new version, and it is the same in every locale of the game. An activity adopted from data written before ids has none until then: key such an activity by name and start. Form: `<game>-<version>-<nn>` (`sr-4.6-03`, `ba-global-2026-11-02`): lowercase letters and digits in parts joined by `-` or `.`, safe in a URL. Unique within a document. Compare ids as opaque strings.",
            "type": "string",
            "pattern": ACTIVITY_ID_PATTERN,
            "examples": ["sr-4.6-03"]
        });
        if properties.contains_key("id") {
            properties.insert("id".to_owned(), id);
        } else {
            let mut with_id = Map::new();
            with_id.insert("id".to_owned(), id);
            with_id.append(properties);
            *properties = with_id;
        }
        properties.insert(
            "startsAt".to_owned(),
            json!({
                "$ref": "#/$defs/instant",
                "description": "startTime as an instant, with its offset."
            }),
        );
        properties.insert(
            "endsAt".to_owned(),
            json!({
                "$ref": "#/$defs/instant",
                "description": "endTime as an instant, with its offset."
            }),
        );
        require(activity, &["startsAt", "endsAt"]);
    }
    let properties = entry_object(schema, "properties");
    properties.insert(
        "timeZone".to_owned(),
        json!({
            "title": "Time zone",
            "description": "The IANA time zone of the game's servers (`Asia/Shanghai`, `America/New_York`), in which every naive time of the document (startTime, endTime) is a wall-clock time. The zone belongs to the game's server, not to the document's language.",
            "type": "string",
            "minLength": 1,
            "examples": ["Asia/Shanghai"]
        }),
    );
    properties.insert(
        "startsAt".to_owned(),
        json!({
            "$ref": "#/$defs/instant",
            "description": "The version's startTime as an instant, with its offset."
        }),
    );
    properties.insert(
        "endsAt".to_owned(),
        json!({
            "$ref": "#/$defs/instant",
            "description": "The version's endTime as an instant, with its offset."
        }),
    );
    properties.insert("updateMode".to_owned(), update_mode_schema());
    properties.insert("dueAt".to_owned(), due_at_schema());
    require(
        schema,
        &["timeZone", "startsAt", "endsAt", "updateMode", "dueAt"],
    );
}

fn update_mode_schema() -> Value {
    json!({
        "title": "Update mode",
        "description": "How the maintainers keep the document current: `version` (the whole document is replaced once per game version) or `activity` (activities are added as they are announced). A game whose registry entry names none gets `version` when its version is a dotted number (`4.6`) and `activity` otherwise.",
        "type": "string",
        "enum": ["version", "activity"]
    })
}

fn due_at_schema() -> Value {
    json!({
        "title": "Due",
        "description": "When the document needs its next update, as an instant (RFC 3339 with the offset in force in the game's zone): the version's end for a `version` document, the latest end of its activities for an `activity` document (the version's end when it lists none). This is the rule the tool's `status` and the pages use. A client that reads the document after this moment holds data that may be out of date.",
        "type": "string",
        "format": "date-time",
        "pattern": INSTANT_PATTERN
    })
}

/// The object at `key` of `object`, made one when absent or another type.
fn entry_object<'a>(object: &'a mut Map<String, Value>, key: &str) -> &'a mut Map<String, Value> {
    if !object.get(key).is_some_and(Value::is_object) {
        object.insert(key.to_owned(), Value::Object(Map::new()));
    }
    match object.get_mut(key) {
        Some(Value::Object(map)) => map,
        _ => unreachable!("just made an object"),
    }
}

/// Adds `fields` to `object`'s `required`, once each.
fn require(object: &mut Map<String, Value>, fields: &[&str]) {
    let required = object
        .entry("required")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(list) = required {
        for field in fields {
            if !list.iter().any(|v| v == field) {
                list.push(Value::String((*field).to_owned()));
            }
        }
    }
}

/// The schema of the index `api/v1/games.json` ([`layout::Index`]).
fn index_schema(site: Option<&SiteUrl>) -> Value {
    let Value::Object(mut schema) = json!({
        "$schema": DIALECT,
        "$id": id(site, layout::INDEX_SCHEMA_PATH),
        "title": "Games index",
        "description": "The index of the API: every game the site publishes, its registry entry's public fields, the default locale's version window, and every file that holds it. Read it first. Its paths are site-absolute (they start with `/`): relative to the site's root. A reader should ignore fields it does not know: within this version of the API fields are added, never removed or retyped.",
        "type": "object",
        "required": ["games"],
        "properties": {
            "games": {
                "type": "array",
                "items": {"$ref": "#/$defs/game"}
            }
        },
        "$defs": {
            "game": index_game_schema(),
            "file": index_file_schema()
        }
    }) else {
        unreachable!("an object")
    };
    // The field of each kind published once per locale, under its name.
    for publish in kinds::ALL {
        let Some(field) = publish.kind().index_field() else {
            continue;
        };
        let Some((description, entry)) = publish.index_schema() else {
            continue;
        };
        let property = json!({
            "description": description,
            "type": "array",
            "items": {"$ref": format!("#/$defs/{field}")}
        });
        entry_object(&mut schema, "properties").insert(field.to_owned(), property);
        entry_object(&mut schema, "$defs").insert(field.to_owned(), entry);
    }
    Value::Object(schema)
}

/// An entry of the index's `games`.
fn index_game_schema() -> Value {
    let localized = json!({
        "description": "One string for every locale, or an object from locale tag to string.",
        "oneOf": [
            {"type": "string"},
            {"type": "object", "additionalProperties": {"type": "string"}}
        ]
    });
    json!({
        "type": "object",
        "required": ["id", "locales", "version", "versionName", "startTime", "endTime", "files"],
        "properties": {
            "id": {
                "description": "The game's id: lowercase letters and digits in parts joined by `-`.",
                "type": "string",
                "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"
            },
            "name": localized.clone(),
            "locales": {"type": "array", "items": {"type": "string"}},
            "defaultLocale": {
                "description": "The locale whose document is also published under the un-suffixed name `<game>.json`.",
                "type": "string"
            },
            "timeZone": {
                "description": "The IANA zone of the game's servers: every naive time of its documents is a wall-clock time there (each document names it too, as `timeZone`).",
                "type": "string"
            },
            "dataSource": localized,
            "version": {"type": "string"},
            "versionName": {"type": "string"},
            "startTime": {
                "description": "The default locale's version start, a naive local time of timeZone.",
                "type": "string"
            },
            "endTime": {
                "description": "The default locale's version end, a naive local time of timeZone.",
                "type": "string"
            },
            "files": {
                "description": "Every published document of the game, under every name (the default locale's twice).",
                "type": "array",
                "items": {"$ref": "#/$defs/file"}
            },
            "pending": {
                "description": "Locales the registry lists that have no document yet: nothing is published under their names.",
                "type": "array",
                "items": {"type": "string"}
            },
            "dataSources": {
                "description": "The registry's sources, as `games.json` has them: a map from a locale tag (or `all`) to a list of sources.",
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"type": "object"}}
            },
            "updateMode": {
                "description": "The update mode the registry names for the game (absent when it names none; each entry of `files` gives the mode in force).",
                "type": "string",
                "enum": ["version", "activity"]
            },
            "timeZoneAssumed": {
                "description": "The game's timeZone was assumed when the data was imported and is not yet confirmed.",
                "type": "boolean"
            },
            "conventions": {
                "description": "The registry's conventions for the game's sources (end seconds they write on purpose, warning rules turned off), as `games.json` has them.",
                "type": "object"
            }
        }
    })
}

/// An entry of a game's `files` in the index.
fn index_file_schema() -> Value {
    json!({
        "type": "object",
        "required": ["locale", "default", "path", "calendar", "sha256", "bytes"],
        "properties": {
            "locale": {"type": "string"},
            "default": {
                "description": "This is the un-suffixed `<game>.json` of the default locale.",
                "type": "boolean"
            },
            "path": {"description": "The document, site-absolute.", "type": "string"},
            "calendar": {"description": "Its iCalendar feed, site-absolute.", "type": "string"},
            "sha256": {
                "description": "Hex SHA-256 of the document's bytes.",
                "type": "string",
                "pattern": "^[0-9a-f]{64}$"
            },
            "bytes": {"type": "integer", "minimum": 0},
            "updateMode": update_mode_schema(),
            "dueAt": due_at_schema()
        }
    })
}

/// The schema of the API catalog (a linkset of RFC 9264, as RFC 9727 uses it).
fn api_catalog_schema(site: Option<&SiteUrl>) -> Value {
    json!({
        "$schema": DIALECT,
        "$id": id(site, layout::API_CATALOG_SCHEMA_PATH),
        "title": "API catalog",
        "description": "/.well-known/api-catalog (RFC 9727): a linkset (RFC 9264, JSON form) whose context is the API's base and whose targets are its description (`service-desc`, the OpenAPI document), its documentation (`service-doc`) and the schema of its index (`describedby`).",
        "type": "object",
        "required": ["linkset"],
        "properties": {
            "linkset": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "required": ["anchor"],
                    "properties": {
                        "anchor": {"description": "The link context: the API's base.", "type": "string"}
                    },
                    "additionalProperties": {
                        "description": "A relation type and its targets.",
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["href"],
                            "properties": {
                                "href": {"type": "string"},
                                "type": {"type": "string"},
                                "title": {"type": "string"}
                            }
                        }
                    }
                }
            }
        }
    })
}

/// One link of the API catalog: its relation (RFC 8288), the path of its
/// target, the target's media type and its title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogLink {
    pub rel: &'static str,
    pub path: String,
    pub media: &'static str,
    pub title: &'static str,
}

/// Every link the API catalog gives its anchor (the API's base), in the
/// order it lists them; a relation named twice lists both targets under
/// it. The one list: the catalog and the anchor's page read it.
pub fn catalog_links() -> Vec<CatalogLink> {
    vec![
        CatalogLink {
            rel: "service-desc",
            path: layout::OPENAPI_PATH.to_owned(),
            media: layout::OPENAPI_TYPE,
            title: "OpenAPI description of the activity API",
        },
        CatalogLink {
            rel: "service-doc",
            path: layout::reference_dir("", Naming::Plain),
            media: "text/html",
            title: "Reference of the API for people",
        },
        CatalogLink {
            rel: "service-doc",
            path: layout::LLMS_PATH.to_owned(),
            media: "text/plain",
            title: "What the API holds and how to read it",
        },
        CatalogLink {
            rel: "describedby",
            path: layout::INDEX_SCHEMA_PATH.to_owned(),
            media: "application/schema+json",
            title: "JSON Schema of the index",
        },
    ]
}

/// `.well-known/api-catalog`: the API's base as the anchor and every link
/// of [`catalog_links`], grouped by relation.
pub fn api_catalog(site: Option<&SiteUrl>) -> OutputFile {
    let mut linkset = Map::new();
    linkset.insert(
        "anchor".to_owned(),
        Value::String(layout::link(site, &format!("{}/", layout::API_DIR))),
    );
    for link in catalog_links() {
        let target = json!({
            "href": layout::link(site, &link.path),
            "type": link.media,
            "title": link.title
        });
        if let Value::Array(targets) = linkset
            .entry(link.rel)
            .or_insert_with(|| Value::Array(Vec::new()))
        {
            targets.push(target);
        }
    }
    file(
        layout::API_CATALOG_PATH,
        &json!({ "linkset": [Value::Object(linkset)] }),
    )
}

/// The page of the API's base (`api/v1/index.html`), which the catalog
/// names as its anchor: what the API is, in every language the tool
/// speaks, the index and every link of the catalog, and the catalog
/// itself. Plain HTML with no style or script of its own.
pub fn api_home(site: Option<&SiteUrl>) -> OutputFile {
    use crate::pages::escape_html;
    let mut links: Vec<(String, String)> = vec![
        ("index".to_owned(), layout::INDEX_PATH.to_owned()),
        (
            "api-catalog".to_owned(),
            layout::API_CATALOG_PATH.to_owned(),
        ),
    ];
    links.extend(
        catalog_links()
            .into_iter()
            .map(|l| (l.rel.to_owned(), l.path)),
    );
    let mut html = String::from(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
    );
    let title = Msg::new("api-home-title").render(Lang::EnUs);
    html.push_str(&format!("<title>{}</title>\n", escape_html(&title)));
    for (rel, path) in &links {
        html.push_str(&format!(
            "<link rel=\"{}\" href=\"{}\">\n",
            escape_html(rel),
            escape_html(&layout::link(site, path))
        ));
    }
    html.push_str("</head>\n<body>\n");
    for lang in [Lang::ZhCn, Lang::EnUs] {
        html.push_str(&format!(
            "<section lang=\"{}\">\n<h1>{}</h1>\n<p>{}</p>\n</section>\n",
            lang.tag(),
            escape_html(&Msg::new("api-home-title").render(lang)),
            escape_html(&Msg::new("api-home-intro").render(lang)),
        ));
    }
    html.push_str("<ul>\n");
    for (rel, path) in &links {
        let href = escape_html(&layout::link(site, path));
        html.push_str(&format!(
            "<li><code>{}</code>: <a href=\"{href}\">{href}</a></li>\n",
            escape_html(rel)
        ));
    }
    html.push_str("</ul>\n</body>\n</html>\n");
    OutputFile {
        path: layout::API_HOME_PATH.to_owned(),
        bytes: html.into_bytes(),
    }
}

/// The site address a built site's OpenAPI names as its server (what
/// `build --site-url` gave, without the trailing slash), or `None` for a
/// site built without one (or no OpenAPI of this tool's).
pub fn site_url_of(openapi: &[u8]) -> Option<String> {
    let document: Value = serde_json::from_slice(openapi).ok()?;
    let url = document.get("servers")?.get(0)?.get("url")?.as_str()?;
    (url != "/").then(|| url.to_owned())
}

/// The media type a path is served with, without its parameters.
fn media_of(path: &str) -> &'static str {
    let full = layout::content_type(path);
    full.split(';').next().unwrap_or(full).trim()
}
