//! axum handlers of the control API: one file per resource, the response
//! envelope, errors and the OpenAPI document. Imports `control`, never `site`
//! or `mcp`.
