//! The control-service core: task runner and simulated backend, configurations,
//! settings, extensions, operator methods and logs. It knows nothing of axum,
//! HTTP or the site half of the crate.
