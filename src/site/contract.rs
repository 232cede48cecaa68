//! The published contract of the public API, one owner: a JSON Schema
//! (draft 2020-12) for every JSON file the site publishes, under
//! `api/v1/schema/` ([`schema_files`]), the OpenAPI 3.1 description of
//! every path of the API at `api/v1/openapi.json` ([`openapi`]), whose
//! every 200 answer names its schema, and the API catalog of RFC 9727 at
//! `.well-known/api-catalog` ([`api_catalog`]), which names the OpenAPI
//! as `service-desc` and `llms.txt` as `service-doc`.
//!
//! Every `$id` and link is absolute under the site's address when the
//! build knows it (`--site-url`, [`SiteUrl`]), else site-absolute
//! (`/api/v1/...`, resolved against wherever the file was read from).
//! The OpenAPI names each schema by a reference relative to itself
//! (`schema/activity.json`), which resolves to the same file either way.
//!
//! A kind's published schema is the schema its sources are checked
//! against with its editor hint (`$schema`) dropped, as the build drops it
//! from the files; the activity documents' also gains what the build adds
//! to every document ([`crate::model::published`]). Pure: no I/O.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::kinds;
use super::types::{GameOutput, OutputFile};
use crate::kind::{self, Kind, PublishedAs};
use crate::layout::{self, SiteUrl};
use crate::model::to_pretty;

/// The JSON Schema dialect of every published schema.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The form of an activity's `id`, as the published schema checks it.
pub const ACTIVITY_ID_PATTERN: &str = "^[a-z0-9]+(?:[.-][a-z0-9]+)*$";

/// An RFC 3339 date-time with a numeric offset and no fraction, as every
/// published instant is written.
const INSTANT_PATTERN: &str =
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{2}:[0-9]{2}$";

/// What the contract is built from: the games as published, the schema of
/// each kind as the tree was checked against it, the other files of the
/// site (the kinds' documents, by path) and the site's address.
pub struct Inputs<'a> {
    pub games: &'a [GameOutput],
    pub schemas: &'a BTreeMap<&'static str, Value>,
    /// Every path the site publishes besides the games' files (the
    /// announcements boards and feeds, the kept files), relative.
    pub paths: &'a [&'a str],
    pub site: Option<&'a SiteUrl>,
}

/// Every file of the contract: the schemas, the OpenAPI and the catalog.
pub fn files(inputs: &Inputs<'_>) -> Vec<OutputFile> {
    let mut files = schema_files(inputs);
    files.push(openapi(inputs));
    files.push(api_catalog(inputs.site));
    files
}

/// The published schemas: one per kind of document that has one, the
/// index's and the API catalog's.
pub fn schema_files(inputs: &Inputs<'_>) -> Vec<OutputFile> {
    let mut files: Vec<OutputFile> = kind::schemas()
        .filter_map(|(kind, schema)| {
            let source = inputs.schemas.get(kind.name)?;
            let published = published_schema(kind, source, schema.published, inputs.site);
            Some(file(schema.published, &published))
        })
        .collect();
    files.push(file(layout::INDEX_SCHEMA_PATH, &index_schema(inputs.site)));
    files.push(file(
        layout::API_CATALOG_SCHEMA_PATH,
        &api_catalog_schema(inputs.site),
    ));
    files
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
    schema
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
        if !properties.contains_key("id") {
            let mut with_id = Map::new();
            with_id.insert(
                "id".to_owned(),
                json!({
                    "title": "Id",
                    "description": "The activity's stable id: stored in the data, assigned once by the tool (`check --fix`) and never derived again, so it survives a rename, a corrected time and a new version, and it is the same in every locale of the game. Form: `<game>-<version>-<nn>` (`sr-4.6-03`, `ba-global-2026-11-02`): lowercase letters and digits in parts joined by `-` or `.`, safe in a URL. Unique within a document. Compare ids as opaque strings.",
                    "type": "string",
                    "pattern": ACTIVITY_ID_PATTERN,
                    "examples": ["sr-4.6-03"]
                }),
            );
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
        require(activity, &["id", "startsAt", "endsAt"]);
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
        "title": "Index of the activity API",
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

/// `.well-known/api-catalog`: the API's base as the anchor, the OpenAPI
/// as `service-desc`, `llms.txt` as `service-doc` and the index's schema
/// as `describedby`.
pub fn api_catalog(site: Option<&SiteUrl>) -> OutputFile {
    let link = |path: &str| layout::link(site, path);
    let catalog = json!({
        "linkset": [{
            "anchor": link(&format!("{}/", layout::API_DIR)),
            "service-desc": [{
                "href": link(layout::OPENAPI_PATH),
                "type": layout::OPENAPI_TYPE,
                "title": "OpenAPI description of the activity API"
            }],
            "service-doc": [{"href": link(&layout::reference_dir("", true)), "type": "text/html", "title": "Reference of the API for people"}, {
                "href": link(layout::LLMS_PATH),
                "type": "text/plain",
                "title": "What the API holds and how to read it"
            }],
            "describedby": [{
                "href": link(layout::INDEX_SCHEMA_PATH),
                "type": "application/schema+json",
                "title": "JSON Schema of the index"
            }]
        }]
    });
    file(layout::API_CATALOG_PATH, &catalog)
}

/// A 200 answer of `media` whose schema is the one published at `schema`
/// (relative to the OpenAPI's own folder).
fn answer(description: &str, media: &str, schema: Value) -> Value {
    let mut content = Map::new();
    content.insert(media.to_owned(), json!({ "schema": schema }));
    json!({
        "200": {
            "description": description,
            "headers": {
                "ETag": {"description": "The file's entity tag, for `If-None-Match`.", "schema": {"type": "string"}}
            },
            "content": content
        },
        "304": {"description": "Not modified since the entity tag given in `If-None-Match`."},
        "404": {"description": "No such file."}
    })
}

/// A reference from the OpenAPI (at `api/v1/openapi.json`) to the schema
/// published at `path`.
fn schema_ref(path: &str) -> Value {
    let api = format!("{}/", layout::API_DIR);
    let relative = path.strip_prefix(&api).unwrap_or(path);
    json!({ "$ref": relative })
}

fn get(summary: &str, parameters: Vec<Value>, responses: Value) -> Value {
    let mut operation = json!({ "summary": summary, "responses": responses });
    if !parameters.is_empty() {
        operation["parameters"] = Value::Array(parameters);
    }
    json!({ "get": operation })
}

fn parameter(name: &str, description: &str, values: &[String]) -> Value {
    json!({
        "name": name,
        "in": "path",
        "required": true,
        "description": description,
        "schema": {"type": "string", "enum": values}
    })
}

/// The paths of an OpenAPI description, site-absolute, as they are added.
type Paths = Map<String, Value>;

fn put(paths: &mut Paths, path: &str, item: Value) {
    paths.insert(layout::url(path), item);
}

const JSON_TYPE: &str = "application/json";

/// `api/v1/openapi.json`: every path of the public API (the index, each
/// game's documents and calendars by template, their aliases, each
/// kind's documents published once per locale and the files beside them,
/// the schemas, this description, the catalog and `llms.txt`), each GET
/// answering 200 with its media type and schema.
pub fn openapi(inputs: &Inputs<'_>) -> OutputFile {
    let mut paths = Paths::new();
    put(
        &mut paths,
        layout::INDEX_PATH,
        get(
            "The index: every game and its files",
            Vec::new(),
            answer(
                "The index.",
                JSON_TYPE,
                schema_ref(layout::INDEX_SCHEMA_PATH),
            ),
        ),
    );
    game_paths(inputs, &mut paths);
    per_locale_paths(inputs, &mut paths);
    contract_paths(inputs, &mut paths);
    let server = match inputs.site {
        Some(site) => {
            json!({"url": site.as_str().trim_end_matches('/'), "description": "The site."})
        }
        None => {
            json!({"url": "/", "description": "The site this file was read from (built without --site-url)."})
        }
    };
    // What the API holds besides the games' files: each kind's documents.
    let kinds: String = kinds::ALL
        .iter()
        .filter_map(|p| p.api_summary())
        .map(|noun| format!("{noun}, "))
        .collect();
    let kinds = format!("{kinds}and ");
    let document = json!({
        "openapi": "3.1.0",
        "jsonSchemaDialect": DIALECT,
        "info": {
            "title": "Game activity API",
            "version": "1",
            "description": format!("Game versions and their time-limited activities as static JSON files: one document per game and locale, an index that lists them, calendars, {kinds}the JSON Schema of every JSON file. No authentication; every file of the API may be fetched from any origin (CORS) and carries an ETag. Every naive time (`startTime`, `endTime`) is a wall-clock time of the document's `timeZone` and is given beside it as an instant with its offset (`startsAt`, `endsAt`). Within this version of the API fields are added, never removed or retyped: ignore what you do not know.")
        },
        "servers": [server],
        "paths": paths
    });
    file(layout::OPENAPI_PATH, &document)
}

/// Each game's documents and calendars, by template with the registry's
/// games and locales as the parameters' values, and their aliases.
fn game_paths(inputs: &Inputs<'_>, paths: &mut Paths) {
    let mut games: Vec<String> = inputs.games.iter().map(|g| g.game.id.clone()).collect();
    games.sort();
    let mut locales: Vec<String> = inputs
        .games
        .iter()
        .flat_map(|g| g.documents.iter().map(|d| d.locale.clone()))
        .collect();
    locales.sort();
    locales.dedup();
    let game = parameter("game", "A game's id, as the index lists it.", &games);
    let locale = parameter("locale", "A locale tag the game publishes.", &locales);
    let activity = schema_ref(layout::SCHEMA_PATH);
    let calendar = answer(
        "The document's activities as iCalendar events (RFC 5545).",
        "text/calendar",
        json!({"type": "string"}),
    );
    let document = answer("The activity document.", JSON_TYPE, activity);
    let named = [
        (
            "{game}".to_owned(),
            vec![game.clone()],
            "in its default locale",
        ),
        (
            "{game}-{locale}".to_owned(),
            vec![game, locale],
            "in one locale",
        ),
    ];
    for (stem, parameters, which) in named {
        put(
            paths,
            &layout::activity_file(&stem, "json"),
            get(
                &format!("A game's activity document {which}"),
                parameters.clone(),
                document.clone(),
            ),
        );
        put(
            paths,
            &layout::activity_file(&stem, "ics"),
            get(
                &format!("A game's calendar {which}"),
                parameters,
                calendar.clone(),
            ),
        );
    }
    let mut aliases: Vec<&str> = inputs
        .games
        .iter()
        .flat_map(|g| {
            g.documents
                .iter()
                .flat_map(|d| layout::alias_paths(&g.game, &d.locale))
        })
        .collect();
    aliases.sort();
    aliases.dedup();
    for alias in aliases {
        put(
            paths,
            alias,
            get(
                "A game's activity document under an older name (`aliases` of the registry)",
                Vec::new(),
                document.clone(),
            ),
        );
    }
}

/// The documents of each kind published once per locale (the
/// announcements boards) and the files beside them (their feeds), for the
/// locales the site publishes them in.
fn per_locale_paths(inputs: &Inputs<'_>, paths: &mut Paths) {
    for (kind, schema) in kind::schemas() {
        let PublishedAs::PerLocale {
            path,
            locale_of,
            beside,
            ..
        } = kind.published
        else {
            continue;
        };
        let mut own: Vec<String> = inputs
            .paths
            .iter()
            .filter_map(|p| locale_of(p)?.map(str::to_owned))
            .collect();
        own.sort();
        own.dedup();
        let has_default = inputs.paths.iter().any(|p| locale_of(p) == Some(None));
        let locale = parameter("locale", "A locale the site publishes it in.", &own);
        for ext in std::iter::once("json").chain(beside.iter().copied()) {
            let (media, body) = if ext == "json" {
                (JSON_TYPE, schema_ref(schema.published))
            } else {
                (media_of(&path("", true, ext)), json!({"type": "string"}))
            };
            let what = format!("The {} ({ext})", kind.name);
            let ok = answer(&format!("{what}."), media, body);
            if has_default {
                let summary = format!("{what} of the site's default locale");
                put(
                    paths,
                    &path("", true, ext),
                    get(&summary, Vec::new(), ok.clone()),
                );
            }
            if !own.is_empty() {
                let summary = format!("{what} of one locale");
                let parameters = vec![locale.clone()];
                put(
                    paths,
                    &path("{locale}", false, ext),
                    get(&summary, parameters, ok),
                );
            }
        }
    }
}

/// The contract's own files (the schemas, this description and the
/// catalog) and `llms.txt`.
fn contract_paths(inputs: &Inputs<'_>, paths: &mut Paths) {
    let mut schemas: Vec<String> = schema_files(inputs)
        .iter()
        .filter_map(|f| {
            f.path
                .strip_prefix(&format!("{}/", layout::SCHEMA_DIR))?
                .strip_suffix(".json")
                .map(str::to_owned)
        })
        .collect();
    schemas.sort();
    let a_schema = json!({
        "description": "A JSON Schema of dialect draft 2020-12.",
        "type": "object",
        "required": ["$schema", "$id"],
        "properties": {"$schema": {"const": DIALECT}, "$id": {"type": "string"}}
    });
    put(
        paths,
        &format!("{}/{{schema}}.json", layout::SCHEMA_DIR),
        get(
            "The JSON Schema of a kind of file",
            vec![parameter("schema", "The schema's name.", &schemas)],
            answer("A JSON Schema (draft 2020-12).", JSON_TYPE, a_schema),
        ),
    );
    let an_openapi = json!({
        "type": "object",
        "required": ["openapi", "info", "paths"],
        "properties": {"openapi": {"type": "string", "pattern": "^3\\.1\\.[0-9]+$"}}
    });
    put(
        paths,
        layout::OPENAPI_PATH,
        get(
            "This description",
            Vec::new(),
            answer("An OpenAPI 3.1 document.", JSON_TYPE, an_openapi),
        ),
    );
    put(
        paths,
        layout::API_CATALOG_PATH,
        get(
            "The API catalog (RFC 9727)",
            Vec::new(),
            answer(
                "A linkset naming this description.",
                media_of(layout::API_CATALOG_PATH),
                schema_ref(layout::API_CATALOG_SCHEMA_PATH),
            ),
        ),
    );
    put(
        paths,
        layout::LLMS_PATH,
        get(
            "What the API holds, for people and agents (Markdown)",
            Vec::new(),
            answer(
                "Markdown text.",
                media_of(layout::LLMS_PATH),
                json!({"type": "string"}),
            ),
        ),
    );
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
