//! The `/mcp` endpoint: MCP tools over the `control` core (never over the HTTP
//! API). Imports `control`, never `site` or `api`.
