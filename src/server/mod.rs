//! The composition root of `serve`: router assembly, static files, watching
//! and live reload, graceful shutdown. The only module (besides `cmd`) that
//! joins the site half and the control half.
