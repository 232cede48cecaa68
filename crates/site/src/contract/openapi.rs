//! `api/v1/openapi.json`: the OpenAPI 3.1 description of every path of the
//! public API, self-contained, as generators, linters and validators read
//! it.
//!
//! - Every published schema is under `components/schemas`
//!   ([`super::components`]), and every answer names its component.
//! - One path template per family of files, whose one parameter is an
//!   enum of every name the site publishes in it
//!   (`/api/v1/activity/{document}.json`, `document` in `sr`, `sr-zh-CN`,
//!   `sr-en-US`, ...). A template per part of a name
//!   (`{game}-{locale}.json`) would let a game id with a `-` match two
//!   templates; a whole name cannot: every URL matches exactly one path.
//! - Every operation has an `operationId`, a tag, a summary and a
//!   description; every answer the headers a client caches and shares by
//!   (`ETag`, `Last-Modified`, `Cache-Control`, CORS), the conditional
//!   requests and the 304, and the 404 as `serve` answers it.
//! - The examples are the site's own data, cut short.

use serde_json::{Map, Value, json};

use super::components::{self, pascal, reference};
use super::{API_CATALOG_COMPONENT, DIALECT, INDEX_COMPONENT, Inputs, file, media_of};
use super::{api_catalog, published_schemas};
use crate::kind::{self, PublishedAs};
use crate::kinds;
use crate::layout::{self, API_CACHE};
use crate::types::OutputFile;

/// The media type of every JSON answer, without its charset.
const JSON_TYPE: &str = "application/json";

/// The tag of the contract's own files (the schemas, this description,
/// the catalog and `llms.txt`).
const CONTRACT_TAG: &str = "Contract";

/// How many items of a list an example keeps.
const EXAMPLE_ITEMS: usize = 2;

/// How many items of its lists the index's example keeps: its first game
/// only, the one the document's example comes from, so that an edit of
/// another game's data leaves the description as it is.
const INDEX_EXAMPLE_ITEMS: usize = 1;

/// The paths of the description, site-absolute, as they are added.
type Paths = Map<String, Value>;

/// One GET operation: its id, tag, words, path parameters and its 200
/// answer (media type, schema and example).
struct Get {
    id: String,
    tag: String,
    summary: String,
    description: String,
    parameters: Vec<Value>,
    media: &'static str,
    schema: Value,
    example: Option<Value>,
}

impl Get {
    fn item(self) -> Value {
        let mut parameters = self.parameters;
        parameters.extend([
            json!({"$ref": "#/components/parameters/IfNoneMatch"}),
            json!({"$ref": "#/components/parameters/IfModifiedSince"}),
        ]);
        let mut media = json!({ "schema": self.schema });
        if let Some(example) = self.example {
            media["example"] = example;
        }
        let mut content = Map::new();
        content.insert(self.media.to_owned(), media);
        let headers: Map<String, Value> = ANSWER_HEADERS
            .iter()
            .map(|(name, _, _)| {
                let target = format!("#/components/headers/{}", pascal(name));
                ((*name).to_owned(), json!({ "$ref": target }))
            })
            .collect();
        json!({
            "get": {
                "operationId": self.id,
                "tags": [self.tag],
                "summary": self.summary,
                "description": self.description,
                "parameters": parameters,
                "responses": {
                    "200": {
                        "description": "The file.",
                        "headers": headers,
                        "content": content
                    },
                    "304": {"$ref": "#/components/responses/NotModified"},
                    "404": {"$ref": "#/components/responses/NotFound"}
                }
            }
        })
    }
}

/// A path parameter whose values are exactly `values`.
fn parameter(name: &str, description: &str, values: &[String]) -> Value {
    json!({
        "name": name,
        "in": "path",
        "required": true,
        "description": description,
        "schema": {"type": "string", "enum": values},
        "example": values.first()
    })
}

fn put(paths: &mut Paths, path: &str, get: Get) {
    paths.insert(layout::url(path), get.item());
}

/// `api/v1/openapi.json`: every path of the public API, the components
/// of every published schema, the headers and the answers they share.
pub fn openapi(inputs: &Inputs<'_>) -> OutputFile {
    let schemas = published_schemas(inputs);
    let named: Vec<(&str, &Value)> = schemas.iter().map(|s| (s.component, &s.value)).collect();
    let mut schema_components = components::components(&named);
    schema_components.extend(own_components());
    let mut paths = Paths::new();
    put(&mut paths, layout::INDEX_PATH, index_get(inputs));
    game_paths(inputs, &mut paths);
    let mut tags = vec![
        tag(
            "Index",
            "The index of every game and the files that hold it: read it first.",
        ),
        tag(
            "Activities",
            "Each game's activity document, in each locale it is published in.",
        ),
        tag(
            "Calendars",
            "Each activity document's activities as iCalendar events (RFC 5545).",
        ),
    ];
    tags.extend(per_locale_paths(inputs, &mut paths));
    contract_paths(inputs, &mut paths);
    tags.push(tag(
        CONTRACT_TAG,
        "What describes the API: the JSON Schema of every JSON file, this description, the API catalog (RFC 9727) and llms.txt.",
    ));
    let document = json!({
        "openapi": "3.1.0",
        "jsonSchemaDialect": DIALECT,
        "info": info(inputs),
        "servers": [server(inputs)],
        "security": [],
        "tags": tags,
        "paths": paths,
        "components": {
            "schemas": schema_components,
            "parameters": conditional_parameters(),
            "headers": answer_headers(),
            "responses": shared_responses()
        }
    });
    file(layout::OPENAPI_PATH, &document)
}

fn tag(name: &str, description: &str) -> Value {
    json!({ "name": name, "description": description })
}

fn server(inputs: &Inputs<'_>) -> Value {
    match inputs.site {
        Some(site) => {
            json!({"url": site.as_str().trim_end_matches('/'), "description": "The site."})
        }
        None => {
            json!({"url": "/", "description": "The site this file was read from (built without --site-url)."})
        }
    }
}

/// The description's `info`: what the API holds and promises, who answers
/// for it and under which license.
fn info(inputs: &Inputs<'_>) -> Value {
    // What the API holds besides the games' files: each kind's documents.
    let kinds: String = kinds::ALL
        .iter()
        .filter_map(|p| p.api_summary())
        .map(|noun| format!("{noun}, "))
        .collect();
    let mut contact = json!({ "name": "The site's maintainers" });
    if let Some(site) = inputs.site {
        contact["url"] = Value::String(site.as_str().to_owned());
    }
    json!({
        "title": "Game activity API",
        "version": "1",
        "summary": "Game versions and their time-limited activities as static JSON files.",
        "description": format!("Game versions and their time-limited activities as static JSON files: one document per game and locale, an index that lists them, calendars, {kinds}and the JSON Schema of every JSON file. No authentication; every file of the API may be fetched from any origin (CORS) and carries an ETag and a Last-Modified date, so a client asks again with `If-None-Match` or `If-Modified-Since` and gets a 304 when nothing changed. Every naive time (`startTime`, `endTime`) is a wall-clock time of the document's `timeZone` and is given beside it as an instant with its offset (`startsAt`, `endsAt`); `dueAt` says when the document needs its next update. Within this version of the API fields are added, never removed or retyped: the schemas accept fields they do not name, and a client ignores what it does not know. A field a schema does not require may be absent (an activity's `id` until one is assigned)."),
        "contact": contact,
        "license": {"name": "MIT", "identifier": "MIT"}
    })
}

/// The index's path.
fn index_get(inputs: &Inputs<'_>) -> Get {
    let example = example_of(inputs, layout::INDEX_PATH, INDEX_EXAMPLE_ITEMS);
    Get {
        id: "getGamesIndex".to_owned(),
        tag: "Index".to_owned(),
        summary: "The index: every game and its files".to_owned(),
        description: "Every game the site publishes, with its registry entry's public fields, the default locale's version window, and every file that holds it (path, SHA-256, size, update mode and due time). Read it first: it names every other file.".to_owned(),
        parameters: Vec::new(),
        media: JSON_TYPE,
        schema: reference(INDEX_COMPONENT),
        example,
    }
}

/// A published JSON file of `inputs` as an example ([`cut`]).
fn example_of(inputs: &Inputs<'_>, path: &str, items: usize) -> Option<Value> {
    let file = inputs.files.iter().find(|f| f.path == path)?;
    cut(&file.bytes, items)
}

/// A published JSON object as an example: every list of its own cut to
/// its first `items`, so the example stays short and stays valid.
fn cut(bytes: &[u8], items: usize) -> Option<Value> {
    let mut value: Value = serde_json::from_slice(bytes).ok()?;
    for field in value.as_object_mut()?.values_mut() {
        if let Value::Array(list) = field {
            list.truncate(items);
        }
    }
    Some(value)
}

/// Each game's documents and calendars, one template each whose parameter
/// is every published name, and their aliases.
fn game_paths(inputs: &Inputs<'_>, paths: &mut Paths) {
    let mut names: Vec<String> = inputs
        .games
        .iter()
        .flat_map(|g| {
            g.documents.iter().flat_map(|d| {
                layout::published_names(d.naming())
                    .iter()
                    .map(|&default_name| g.game.published_stem(&d.locale, default_name))
            })
        })
        .collect();
    names.sort();
    names.dedup();
    let document = parameter(
        "document",
        "A published document's name: a game's id (`sr`) for its default locale, or the id and a locale (`sr-en-US`). The index lists every one.",
        &names,
    );
    let example = inputs.example.and_then(|g| {
        let doc = g.documents.iter().find(|d| d.is_default)?;
        cut(&doc.to_json(&g.game), EXAMPLE_ITEMS)
    });
    let activity = reference(kind::activities::KIND.schema.map_or("", |s| s.component));
    put(
        paths,
        &layout::activity_file("{document}", "json"),
        Get {
            id: "getActivityDocument".to_owned(),
            tag: "Activities".to_owned(),
            summary: "A game's activity document".to_owned(),
            description: "One game version and its time-limited activities, in one locale: the game's default locale under the game's id, every locale under the id and the locale. Each activity keeps its naive times and gains their instants in the game's zone; the document says when it is due for an update.".to_owned(),
            parameters: vec![document.clone()],
            media: JSON_TYPE,
            schema: activity.clone(),
            example: example.clone(),
        },
    );
    put(
        paths,
        &layout::activity_file("{document}", "ics"),
        Get {
            id: "getActivityCalendar".to_owned(),
            tag: "Calendars".to_owned(),
            summary: "A game's calendar".to_owned(),
            description: "The activities of the document of the same name as iCalendar events (RFC 5545), each with a reminder before it ends; subscribe to it with `webcal://`.".to_owned(),
            parameters: vec![document],
            media: media_of(&layout::activity_file("x", "ics")),
            schema: json!({"type": "string"}),
            example: None,
        },
    );
    alias_paths(inputs, paths, &activity, example);
}

/// The documents published again under an older name (`aliases` of the
/// registry).
fn alias_paths(inputs: &Inputs<'_>, paths: &mut Paths, schema: &Value, example: Option<Value>) {
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
        let stem = alias.strip_prefix(layout::API_DIR).unwrap_or(alias);
        let stem = stem.strip_suffix(".json").unwrap_or(stem);
        put(
            paths,
            alias,
            Get {
                id: format!("get{}Alias", pascal(stem)),
                tag: "Activities".to_owned(),
                summary: format!("A game's activity document under the older name {alias}"),
                description: "An activity document published again under a name older clients read (`aliases` of the registry): the same bytes as the document it stands for.".to_owned(),
                parameters: Vec::new(),
                media: JSON_TYPE,
                schema: schema.clone(),
                example: example.clone(),
            },
        );
    }
}

/// The documents of each kind published once per locale (the
/// announcements boards) and the files beside them (their feeds), for the
/// locales the site publishes them in; the tag of each such kind.
fn per_locale_paths(inputs: &Inputs<'_>, paths: &mut Paths) -> Vec<Value> {
    let mut tags = Vec::new();
    for publish in kinds::ALL {
        let kind = publish.kind();
        let (Some(schema), PublishedAs::PerLocale { .. }) = (kind.schema, kind.published) else {
            continue;
        };
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
            .paths()
            .filter_map(|p| locale_of(p)?.map(str::to_owned))
            .collect();
        own.sort();
        own.dedup();
        let has_default = inputs.paths().any(|p| locale_of(p) == Some(None));
        if own.is_empty() && !has_default {
            continue;
        }
        let name = pascal(kind.name);
        let what = publish.api_summary().unwrap_or(kind.name);
        tags.push(tag(
            &name,
            &format!("The {what}, one per locale, and the files beside them."),
        ));
        let locale = parameter("locale", "A locale the site publishes it in.", &own);
        let example = example_of(
            inputs,
            &path("", layout::Naming::Plain, "json"),
            EXAMPLE_ITEMS,
        );
        for ext in std::iter::once("json").chain(beside.iter().copied()) {
            let (media, body, suffix) = if ext == "json" {
                (JSON_TYPE, reference(schema.component), String::new())
            } else {
                (
                    media_of(&path("", layout::Naming::Plain, ext)),
                    json!({"type": "string"}),
                    pascal(ext),
                )
            };
            let get = |id: String, summary: String, parameters: Vec<Value>| Get {
                id,
                tag: name.clone(),
                description: format!(
                    "{summary} ({ext}). The site's default locale's is published under the name without a locale too."
                ),
                summary,
                parameters,
                media,
                schema: body.clone(),
                example: (ext == "json").then(|| example.clone()).flatten(),
            };
            let id = format!("get{}{suffix}", schema.component);
            if has_default {
                let summary = format!("The {what} of the site's default locale");
                put(
                    paths,
                    &path("", layout::Naming::Plain, ext),
                    get(id.clone(), summary, Vec::new()),
                );
            }
            if !own.is_empty() {
                let summary = format!("The {what} of one locale");
                let get = get(format!("{id}InLocale"), summary, vec![locale.clone()]);
                put(
                    paths,
                    &path("{locale}", layout::Naming::Localized, ext),
                    get,
                );
            }
        }
    }
    tags
}

/// The contract's own files (the schemas, this description and the
/// catalog) and `llms.txt`.
fn contract_paths(inputs: &Inputs<'_>, paths: &mut Paths) {
    let mut schemas: Vec<String> = published_schemas(inputs)
        .iter()
        .filter_map(|s| {
            s.path
                .strip_prefix(&format!("{}/", layout::SCHEMA_DIR))?
                .strip_suffix(".json")
                .map(str::to_owned)
        })
        .collect();
    schemas.sort();
    let contract = |id: &str, summary: &str, description: &str| Get {
        id: id.to_owned(),
        tag: CONTRACT_TAG.to_owned(),
        summary: summary.to_owned(),
        description: description.to_owned(),
        parameters: Vec::new(),
        media: JSON_TYPE,
        schema: Value::Null,
        example: None,
    };
    put(
        paths,
        &format!("{}/{{schema}}.json", layout::SCHEMA_DIR),
        Get {
            parameters: vec![parameter("schema", "The schema's name.", &schemas)],
            schema: reference("JsonSchema"),
            ..contract(
                "getSchema",
                "The JSON Schema of a kind of file",
                "The JSON Schema (draft 2020-12) of a kind of JSON file, as published: the same content as this description's component of that kind, with its `$defs` in place. Documents name theirs by `$id`.",
            )
        },
    );
    put(
        paths,
        layout::OPENAPI_PATH,
        Get {
            schema: reference("OpenApiDocument"),
            ..contract(
                "getOpenApiDescription",
                "This description",
                "This OpenAPI 3.1 description: every path of the API and the schema of every answer, self-contained.",
            )
        },
    );
    put(
        paths,
        layout::API_CATALOG_PATH,
        Get {
            media: media_of(layout::API_CATALOG_PATH),
            schema: reference(API_CATALOG_COMPONENT),
            example: serde_json::from_slice(&api_catalog(inputs.site).bytes).ok(),
            ..contract(
                "getApiCatalog",
                "The API catalog (RFC 9727)",
                "A linkset (RFC 9264) whose anchor is the API's base and whose links name this description (`service-desc`), its documentation (`service-doc`) and the index's schema (`describedby`). Its answers carry `Link: </.well-known/api-catalog>; rel=\"api-catalog\"`.",
            )
        },
    );
    put(
        paths,
        layout::LLMS_PATH,
        Get {
            media: media_of(layout::LLMS_PATH),
            schema: json!({"type": "string"}),
            ..contract(
                "getLlmsTxt",
                "What the API holds, for people and agents",
                "llms.txt: the API in a page of Markdown, every game with its locales, zone and files.",
            )
        },
    );
}

/// The schemas of the description's own making: a JSON Schema, an
/// OpenAPI document and the body of a 404.
fn own_components() -> Map<String, Value> {
    let mut out = Map::new();
    out.insert(
        "JsonSchema".to_owned(),
        json!({
            "description": "A JSON Schema of dialect draft 2020-12.",
            "type": "object",
            "required": ["$schema", "$id"],
            "properties": {"$schema": {"type": "string", "const": DIALECT}, "$id": {"type": "string"}}
        }),
    );
    out.insert(
        "OpenApiDocument".to_owned(),
        json!({
            "description": "An OpenAPI 3.1 document.",
            "type": "object",
            "required": ["openapi", "info", "paths"],
            "properties": {
                "openapi": {"type": "string", "pattern": "^3\\.1\\.[0-9]+$"},
                "info": {"type": "object"},
                "paths": {"type": "object"}
            }
        }),
    );
    out.insert(
        "NotFoundError".to_owned(),
        json!({
            "description": "The body of a 404 of the API as `activity-site serve` answers it.",
            "type": "object",
            "required": ["error", "path"],
            "properties": {
                "error": {"description": "What went wrong: `not found`.", "type": "string"},
                "path": {"description": "The path asked for.", "type": "string"}
            }
        }),
    );
    out
}

/// The conditional request headers every GET takes.
fn conditional_parameters() -> Value {
    json!({
        "IfNoneMatch": {
            "name": "If-None-Match",
            "in": "header",
            "required": false,
            "description": "The `ETag` of the copy the client holds: the answer is a 304 with no body while the file has not changed.",
            "schema": {"type": "string"},
            "example": "\"3f9a1c0b2d4e5f60\""
        },
        "IfModifiedSince": {
            "name": "If-Modified-Since",
            "in": "header",
            "required": false,
            "description": "The `Last-Modified` date of the copy the client holds (an HTTP date): the answer is a 304 while the file has not changed since. `If-None-Match` wins when both are sent.",
            "schema": {"type": "string"},
            "example": "Sat, 28 Nov 2026 10:00:00 GMT"
        }
    })
}

/// The headers of every 200, by name: a description and an example.
const ANSWER_HEADERS: [(&str, &str, &str); 4] = [
    (
        "ETag",
        "The file's entity tag: send it back as `If-None-Match`.",
        "\"3f9a1c0b2d4e5f60\"",
    ),
    (
        "Last-Modified",
        "When the file last changed (an HTTP date): send it back as `If-Modified-Since`.",
        "Sat, 28 Nov 2026 10:00:00 GMT",
    ),
    (
        "Cache-Control",
        "How long a copy may be used without asking again: the site's policy on a host that reads its `_headers` (as in the example), `no-cache` from `activity-site serve`.",
        API_CACHE,
    ),
    (
        "Access-Control-Allow-Origin",
        "`*`: any origin may read the file (CORS).",
        "*",
    ),
];

/// The `components/headers` of [`ANSWER_HEADERS`].
fn answer_headers() -> Map<String, Value> {
    ANSWER_HEADERS
        .iter()
        .map(|(name, description, example)| {
            let header = json!({
                "description": description,
                "schema": {"type": "string"},
                "example": example
            });
            (pascal(name), header)
        })
        .collect()
}

/// The 304 and the 404 every GET may answer.
fn shared_responses() -> Value {
    json!({
        "NotModified": {
            "description": "Not modified: the copy the request names (`If-None-Match`, or `If-Modified-Since`) is current. No body.",
            "headers": {
                "ETag": {"$ref": "#/components/headers/ETag"},
                "Cache-Control": {"$ref": "#/components/headers/CacheControl"}
            }
        },
        "NotFound": {
            "description": "No such file. `activity-site serve` answers this JSON for every path of the API; a static host answers with its own 404 page.",
            "content": {
                JSON_TYPE: {
                    "schema": reference("NotFoundError"),
                    "example": {"error": "not found", "path": layout::url(&layout::activity_file("unknown", "json"))}
                }
            }
        }
    })
}
