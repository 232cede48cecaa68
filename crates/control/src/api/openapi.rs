//! The OpenAPI document served at `/openapi/v1.json`: the paths come from the
//! `#[utoipa::path]` attributes of the handlers (collected by utoipa-axum),
//! this module adds the metadata, the token security schemes, the schemas
//! the core derives at run time (settings updates, configuration names), and
//! the defaults of the form schemas `AppSettings` and `TasksConfig` (taken
//! from the values a fresh state serves), so the document states exactly
//! what the service accepts and returns.

use serde_json::{Value, json};
use utoipa::ToSchema;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{ComponentsBuilder, InfoBuilder, OpenApi, OpenApiBuilder};

use crate as control;

/// The document before routes are added, with the component `TasksConfig`
/// (which no response is declared as, since a stored configuration may hold
/// any object; the web UI builds its configuration form from it).
pub fn base() -> OpenApi {
    let mut schemas = vec![(
        control::TasksConfig::name().into_owned(),
        <control::TasksConfig as utoipa::PartialSchema>::schema(),
    )];
    <control::TasksConfig as ToSchema>::schemas(&mut schemas);
    OpenApiBuilder::new()
        .components(Some(
            ComponentsBuilder::new().schemas_from_iter(schemas).build(),
        ))
        .info(
            InfoBuilder::new()
                .title("Task-automation control service (simulated)")
                .version(env!("CARGO_PKG_VERSION"))
                .description(Some(
                    "Control API of the task-automation service, backed by a simulated backend. \
                     Every JSON response is the envelope {success, message, data}. When an access \
                     token is configured, every route except POST /api/Auth needs it, in the header \
                     X-Access-Token or the query parameter access_token.",
                ))
                .build(),
        )
        .build()
}

/// Adds the security schemes and the derived schemas; returns the JSON document.
pub fn finish(document: OpenApi) -> Value {
    let mut document = serde_json::to_value(with_security(document)).unwrap_or_default();
    // The defaults of the form schemas: the very values a fresh state serves.
    let schemas = &mut document["components"]["schemas"];
    fill_defaults(schemas, "AppSettings", &control::default_settings());
    fill_defaults(schemas, "TasksConfig", &control::default_config());
    // The ranges, choices and patterns the settings' types declare (the
    // schema the update is checked against), on the form schema's leaves.
    fill_constraints(schemas, "AppSettings", &control::settings_schema());
    let paths = &mut document["paths"];
    for operation in operations(paths) {
        describe_path_parameters(operation);
        document_refusals(operation);
    }
    // Settings: a partial update for PUT (the GET shape is the AppSettings component).
    let settings = &mut paths["/api/Settings"];
    settings["put"]["requestBody"]["content"]["application/json"]["schema"] =
        control::update_schema();
    document
}

/// Every operation of every path of `paths`.
fn operations(paths: &mut Value) -> impl Iterator<Item = &mut Value> {
    paths
        .as_object_mut()
        .into_iter()
        .flat_map(|p| p.values_mut())
        .flat_map(|item| {
            item.as_object_mut()
                .into_iter()
                .flat_map(|o| o.values_mut())
        })
}

/// Path parameters: examples that exist on a fresh start, and the rule of
/// `control::name_problem` for configuration names.
fn describe_path_parameters(operation: &mut Value) {
    for parameter in operation
        .get_mut("parameters")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        let example = match parameter["name"].as_str() {
            Some("configName") => "Default",
            Some("id") => "daily-checkin",
            Some("method") => "click",
            _ => continue,
        };
        parameter["example"] = json!(example);
        if parameter["name"] == "configName" {
            parameter["schema"] = json!({
                "type": "string",
                "minLength": 1,
                "maxLength": control::MAX_CONFIG_NAME_CHARS,
                "pattern": control::CONFIG_NAME_PATTERN,
            });
        }
    }
}

/// Every route: a refused Host or Origin, and the token unless the route
/// is public (`security(())`); every body: one too large, or a type other
/// than JSON.
fn document_refusals(operation: &mut Value) {
    let takes_body = operation.get("requestBody").is_some();
    let public = operation["security"] == json!([{}]);
    // A name in the path that no configuration, extension or operator
    // method can have (`control::names`) is a 400.
    let names_something = operation["parameters"]
        .as_array()
        .is_some_and(|p| p.iter().any(|p| p["in"] == "path"));
    let Some(responses) = operation
        .get_mut("responses")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    responses.entry("403").or_insert_with(|| {
        error_response(
            "The Host is not allowed (AllowedHosts) or the Origin is neither the server's own nor an allowed one",
        )
    });
    if names_something {
        responses.entry("400").or_insert_with(|| {
            error_response(
                "The name in the path is not usable: control, format, bidi or zero-width characters, a Windows device name, a trailing dot or space, or over 255 bytes",
            )
        });
    }
    if !public {
        responses
            .entry("401")
            .or_insert_with(|| error_response("Missing or wrong token"));
    }
    if takes_body {
        responses
            .entry("413")
            .or_insert_with(|| error_response("The body is too large"));
        responses.entry("415").or_insert_with(|| {
            error_response("The body is not sent as Content-Type: application/json")
        });
    }
}

/// A documented error response with the error envelope.
fn error_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}}},
    })
}

/// Sets `default` on every leaf property of the component `name` (following
/// `$ref`s into nested components) from the matching value of `defaults`.
fn fill_defaults(schemas: &mut Value, name: &str, defaults: &Value) {
    let Some(properties) = schemas[name]["properties"].as_object().cloned() else {
        return;
    };
    for (key, property) in properties {
        let Some(value) = defaults.get(&key) else {
            continue;
        };
        let nested = property["$ref"]
            .as_str()
            .and_then(|r| r.strip_prefix("#/components/schemas/"));
        match nested {
            Some(component) => fill_defaults(schemas, component, value),
            None => schemas[name]["properties"][&key]["default"] = value.clone(),
        }
    }
}

/// Copies `minimum`, `maximum`, `pattern` and `enum` of each leaf of
/// `derived` onto the matching property of the component `name` (following
/// `$ref`s into nested components): the types' declarations win over what
/// utoipa infers from the Rust type alone.
fn fill_constraints(schemas: &mut Value, name: &str, derived: &Value) {
    let Some(properties) = schemas[name]["properties"].as_object().cloned() else {
        return;
    };
    for (key, property) in properties {
        let Some(leaf) = derived["properties"].get(&key) else {
            continue;
        };
        let nested = property["$ref"]
            .as_str()
            .and_then(|r| r.strip_prefix("#/components/schemas/"));
        match nested {
            Some(component) => fill_constraints(schemas, component, leaf),
            None if property.get("properties").is_some() => {
                let mut inline = schemas[name]["properties"][&key].take();
                fill_inline(&mut inline, leaf);
                schemas[name]["properties"][&key] = inline;
            }
            None => {
                for keyword in ["minimum", "maximum", "pattern", "enum"] {
                    if let Some(value) = leaf.get(keyword) {
                        schemas[name]["properties"][&key][keyword] = value.clone();
                    }
                }
            }
        }
    }
}

/// [`fill_constraints`] for an inline object schema.
fn fill_inline(schema: &mut Value, derived: &Value) {
    let mut holder = serde_json::json!({ "x": schema.take() });
    fill_constraints(&mut holder, "x", derived);
    *schema = holder["x"].take();
}

fn with_security(mut document: OpenApi) -> OpenApi {
    let components = document.components.get_or_insert_with(Default::default);
    components.add_security_scheme(
        "accessToken",
        SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
            "X-Access-Token",
            "The AccessToken of the service configuration",
        ))),
    );
    components.add_security_scheme(
        "accessTokenQuery",
        SecurityScheme::ApiKey(ApiKey::Query(ApiKeyValue::with_description(
            "access_token",
            "The token as a query parameter (used when the header is absent)",
        ))),
    );
    document.security = Some(vec![
        SecurityRequirement::new("accessToken", Vec::<String>::new()),
        SecurityRequirement::new("accessTokenQuery", Vec::<String>::new()),
    ]);
    document
}
