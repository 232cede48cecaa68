//! `/api/App/...`: what runs (`system-info`) and the greetings the web UI
//! shows (`phrases`). Both describe this server, not the simulated game.

use axum::Json;
use serde::Serialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::ApiState;
use crate::api::envelope::{Envelope, ok};

pub(crate) fn routes() -> OpenApiRouter<ApiState> {
    OpenApiRouter::new()
        .routes(routes!(app_system_info))
        .routes(routes!(app_phrases))
}

/// `data` of `GET /api/App/system-info`, in the field names the web UI reads.
/// The values describe the process that answers: this Rust server and its
/// simulated backend, so there is no .NET runtime to report.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SystemInfo {
    /// Version of this server (`activity-site`).
    #[schema(example = "0.1.0")]
    pub version: String,
    /// Operating system and kernel release, such as `Linux 6.1.0-18-amd64`.
    pub os_version: String,
    /// Processor architecture of this build, such as `x86_64` or `aarch64`.
    pub architecture: String,
    /// Always null: the service is not a .NET process.
    #[schema(value_type = Option<String>)]
    pub dotnet_version: Option<String>,
    /// Logical processors available to the process.
    pub processor_count: usize,
    /// Locale of the process from `LC_ALL`, `LC_MESSAGES` or `LANG` (such
    /// as `en-US`), empty when none is set.
    pub culture_info: String,
    /// What answers: the simulated stand-in, not the real automation backend.
    #[schema(example = "activity-site serve (simulated backend)")]
    pub runtime: String,
}

/// Greetings the web UI shows on its home page.
pub const PHRASES: &[&str] = &[
    "Welcome back, Trailblazer.",
    "The simulated backend is ready when you are.",
    "Today's tasks will not run themselves. Well, almost.",
    "Take a break; the runner keeps watch.",
    "A fresh day, a fresh set of dailies.",
];

/// What runs: version, operating system, architecture, processors and locale.
#[utoipa::path(get, path = "/api/App/system-info", tag = "App",
    responses(
        (status = 200, description = "System information", body = Envelope<SystemInfo>),
    ))]
async fn app_system_info() -> Json<Envelope<SystemInfo>> {
    ok(SystemInfo {
        version: env!("CARGO_PKG_VERSION").to_string(),
        os_version: os_version(),
        architecture: std::env::consts::ARCH.to_string(),
        dotnet_version: None,
        processor_count: std::thread::available_parallelism().map_or(1, |n| n.get()),
        culture_info: culture(),
        runtime: "activity-site serve (simulated backend)".to_string(),
    })
}

/// Short greeting strings for the home page.
#[utoipa::path(get, path = "/api/App/phrases", tag = "App",
    responses(
        (status = 200, description = "Greetings", body = Envelope<Vec<String>>),
    ))]
async fn app_phrases() -> Json<Envelope<Vec<String>>> {
    ok(PHRASES.iter().map(|p| p.to_string()).collect())
}

/// `Linux 6.1.0-18-amd64`: the kernel name and release from `uname`, or the
/// family name of the build target where that is not available.
fn os_version() -> String {
    #[cfg(unix)]
    {
        // SAFETY: `uname` fills a zeroed struct of fixed-size, NUL-terminated fields.
        let mut name: libc::utsname = unsafe { std::mem::zeroed() };
        if unsafe { libc::uname(&mut name) } == 0 {
            let text = |field: &[libc::c_char]| {
                let bytes: Vec<u8> = field
                    .iter()
                    .take_while(|c| **c != 0)
                    .map(|c| *c as u8)
                    .collect();
                String::from_utf8_lossy(&bytes).into_owned()
            };
            return format!("{} {}", text(&name.sysname), text(&name.release));
        }
    }
    std::env::consts::OS.to_string()
}

/// `en_US.UTF-8` -> `en-US`; empty for `C`, `POSIX` or nothing set.
fn culture() -> String {
    let value = ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .filter_map(|k| std::env::var(k).ok())
        .find(|v| !v.is_empty())
        .unwrap_or_default();
    let tag = value
        .split(['.', '@'])
        .next()
        .unwrap_or("")
        .replace('_', "-");
    if tag == "C" || tag == "POSIX" {
        String::new()
    } else {
        tag
    }
}
