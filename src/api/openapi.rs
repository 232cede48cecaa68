//! The OpenAPI document served at `/openapi/v1.json`: the paths come from the
//! `#[utoipa::path]` attributes of the handlers (collected by utoipa-axum),
//! this module adds the metadata and the token security schemes.

use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{InfoBuilder, OpenApi, OpenApiBuilder};

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

/// Adds the security schemes and makes them the default requirement.
pub fn finish(mut document: OpenApi) -> OpenApi {
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
