//! The OpenAPI document served at `/openapi/v1.json`: the paths come from the
//! `#[utoipa::path]` attributes of the handlers (collected by utoipa-axum),
//! this module adds the metadata, the token security schemes, and the schemas
//! the core derives at run time (settings, configuration names), so the
//! document states exactly what the service accepts.

use serde_json::{Value, json};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{InfoBuilder, OpenApi, OpenApiBuilder};

use crate::control;

/// The document before routes are added.
pub fn base() -> OpenApi {
    OpenApiBuilder::new()
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
    let paths = &mut document["paths"];
    // Path parameters: examples that exist on a fresh start, and the rule of
    // `control::name_problem` for configuration names.
    for item in paths
        .as_object_mut()
        .into_iter()
        .flat_map(|p| p.values_mut())
    {
        for operation in item
            .as_object_mut()
            .into_iter()
            .flat_map(|o| o.values_mut())
        {
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
    }
    // Every route: a refused Host or Origin; every body: a type other than JSON.
    for operation in paths
        .as_object_mut()
        .into_iter()
        .flat_map(|p| p.values_mut())
        .flat_map(|item| item.as_object_mut().into_iter().flat_map(|o| o.values_mut()))
    {
        let takes_body = operation.get("requestBody").is_some();
        let Some(responses) = operation.get_mut("responses").and_then(Value::as_object_mut)
        else {
            continue;
        };
        responses.entry("403").or_insert_with(|| {
            error_response(
                "The Host is not allowed (AllowedHosts) or the Origin is neither the server's own nor an allowed one",
            )
        });
        if takes_body {
            responses.entry("415").or_insert_with(|| {
                error_response("The body is not sent as Content-Type: application/json")
            });
        }
    }
    // Settings: the full shape for GET, a partial update for PUT.
    let settings = &mut paths["/api/Settings"];
    settings["get"]["responses"]["200"]["content"]["application/json"]["schema"] = json!({
        "type": "object",
        "required": ["success", "message", "data"],
        "properties": {
            "success": { "type": "boolean" },
            "message": { "type": "string" },
            "data": control::settings_schema(false),
        }
    });
    settings["put"]["requestBody"]["content"]["application/json"]["schema"] =
        control::settings_schema(true);
    document
}

/// A documented error response with the error envelope.
fn error_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}}},
    })
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
