//! What every control test needs: the core's options with the simulator
//! program of this crate as the backend, and the crate's folder.

use std::path::PathBuf;

/// Options of a control core on `state_dir` whose backend is the simulator
/// program of this crate (a test binary is not one).
pub fn control_options(state_dir: impl Into<PathBuf>) -> activity_site_control::ControlOptions {
    let mut options = activity_site_control::ControlOptions::new(state_dir);
    options.backend = activity_site_control::BackendCommand::simulator(env!(
        "CARGO_BIN_EXE_activity-site-simulator"
    ));
    options
}

pub fn crate_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}
