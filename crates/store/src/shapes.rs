//! The typed shapes of the application settings ([`AppSettings`]) and of a
//! task configuration ([`TasksConfig`]), with their defaults.
//!
//! One source for three things: the defaults the service stores and serves
//! are these types serialized ([`AppSettings::default`],
//! [`TasksConfig::default`]); the OpenAPI component schemas `AppSettings`
//! and `TasksConfig` (which the service's web UI builds its forms from) are
//! derived from the same types with `utoipa::ToSchema`; and the settings'
//! ranges, choices and patterns are declared here once, with `schemars`
//! (`#[schemars(range(..))]`, the enums, [`HttpUrl`]), and become the
//! schema a settings update is checked against and the OpenAPI document
//! publishes. A field added here (one line) appears in all three. This
//! module knows nothing about storage or HTTP.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde::Serialize;
use utoipa::ToSchema;

/// The JSON Schema of `T` as the service publishes and applies it: derived
/// from the type (`schemars`, draft 2020-12), every part inline, without
/// the Rust type's name and doc line at its root. Operator parameters and
/// the settings both go through it.
pub fn inline_schema<T: JsonSchema>() -> serde_json::Value {
    let mut schema = SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator()
        .into_root_schema_for::<T>();
    schema.remove("title");
    schema.remove("description");
    schema.to_value()
}

/// An address that is empty or an http(s) URL with a host, such as
/// `http://192.168.1.10:5000`: one type, so every URL setting has the one
/// pattern its schema publishes and its update is checked against.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct HttpUrl(pub String);

impl HttpUrl {
    /// The pattern of an empty or http(s) URL (ECMA-262 and Rust regex).
    pub const PATTERN: &'static str =
        r"^(https?://[^/?#\s\x00-\x1f\x7f-\x9f]+[^\s\x00-\x1f\x7f-\x9f]*)?$";
    /// How a message says what the pattern means.
    pub const MEANING: &'static str = "empty or an http(s) URL such as http://192.168.1.10:5000";
}

impl JsonSchema for HttpUrl {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "HttpUrl".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": HttpUrl::PATTERN,
            "x-meaning": HttpUrl::MEANING,
        })
    }
}

/// The colour theme: `system`, `light` or `dark`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ToSchema, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    #[default]
    System,
    Light,
    Dark,
}

impl Theme {
    /// The JSON values, in declaration order.
    pub const CHOICES: &'static [&'static str] = &["system", "light", "dark"];
}

/// Where updates are downloaded from: `github` or `mirror`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ToSchema, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DownloadChannel {
    #[default]
    Github,
    Mirror,
}

impl DownloadChannel {
    /// The JSON values, in declaration order.
    pub const CHOICES: &'static [&'static str] = &["github", "mirror"];
}

/// Which releases the updater offers: `stable` or `beta`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ToSchema, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum UpdateChannel {
    #[default]
    Stable,
    Beta,
}

impl UpdateChannel {
    /// The JSON values, in declaration order.
    pub const CHOICES: &'static [&'static str] = &["stable", "beta"];
}

/// How the desktop client starts the backend: `cli` or `python`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ToSchema, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BackendType {
    #[default]
    Cli,
    Python,
}

impl BackendType {
    /// The JSON values, in declaration order.
    pub const CHOICES: &'static [&'static str] = &["cli", "python"];
}

/// Application settings: five sections, as `GET /api/Settings` returns them.
#[derive(Debug, Clone, Serialize, ToSchema, JsonSchema)]
pub struct AppSettings {
    pub general: GeneralSettings,
    pub display: DisplaySettings,
    pub update: UpdateSettings,
    pub advanced: AdvancedSettings,
    pub notification: NotificationSettings,
}

/// General
#[derive(Debug, Clone, Serialize, ToSchema, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GeneralSettings {
    /// Path of the game executable.
    pub game_path: String,
    /// Extra arguments passed to the game.
    pub launch_arguments: String,
    /// Whether the cloud version of the game is used.
    pub cloud_game: bool,
    /// Minimum confidence of text recognition, from 0 to 1.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub ocr_confidence: f64,
    /// Minimum confidence of template matching, from 0 to 1.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub template_confidence: f64,
    /// Interval between screenshots in milliseconds.
    pub screenshot_interval_ms: u32,
    /// Whether the screen is kept awake while tasks run.
    pub keep_screen_awake: bool,
}

/// Display
#[derive(Debug, Clone, Serialize, ToSchema, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DisplaySettings {
    /// Path or URL of the background image; empty for none.
    pub background_image: String,
    /// Opacity of the panels, from 0 to 1.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub panel_opacity: f64,
    /// Language of the interface (BCP 47 tag).
    pub language: String,
    #[schema(inline)]
    pub theme: Theme,
    /// Size and state of the main window.
    pub window_state: WindowState,
}

/// Window
#[derive(Debug, Clone, Serialize, ToSchema, JsonSchema)]
pub struct WindowState {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Whether the window is maximized.
    pub maximized: bool,
}

/// Update
#[derive(Debug, Clone, Serialize, ToSchema, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateSettings {
    #[schema(inline)]
    pub download_channel: DownloadChannel,
    /// Whether updates are installed automatically.
    pub auto_update: bool,
    #[schema(inline)]
    pub update_channel: UpdateChannel,
    /// Whether updates are checked at start.
    pub check_on_startup: bool,
}

/// Advanced
#[derive(Debug, Clone, Serialize, ToSchema, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdvancedSettings {
    /// The automation backend.
    pub backend: BackendSettings,
    /// Whether developer tools are shown.
    pub developer_mode: bool,
    /// The Python environment of the backend.
    pub python: PythonSettings,
}

/// Backend
#[derive(Debug, Clone, Serialize, ToSchema, JsonSchema)]
pub struct BackendSettings {
    #[serde(rename = "type")]
    #[schema(inline)]
    pub kind: BackendType,
    /// Start arguments of the backend.
    pub arguments: String,
    /// A remote control service used instead of a local backend.
    pub remote: RemoteSettings,
}

/// Remote backend
#[derive(Debug, Clone, Serialize, ToSchema, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RemoteSettings {
    /// Whether the desktop client talks to `url` instead of a local backend.
    pub enabled: bool,
    /// Base address of the remote service, such as `http://192.168.1.10:5000`; empty or http(s).
    #[schema(value_type = String)]
    pub url: HttpUrl,
    /// The AccessToken of the remote service.
    pub access_token: String,
}

/// Python
#[derive(Debug, Clone, Serialize, ToSchema, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PythonSettings {
    /// Path of the Python interpreter; empty for the bundled one.
    pub path: String,
    /// Whether the bundled Python is used.
    pub use_bundled: bool,
    /// Package index mirror for pip; empty for the default.
    pub pip_mirror: String,
}

/// Notification
#[derive(Debug, Clone, Serialize, ToSchema, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct NotificationSettings {
    /// Whether notifications are sent.
    pub enabled: bool,
    /// Whether only failures are notified.
    pub only_on_failure: bool,
    /// A webhook called with every notification.
    pub webhook: WebhookSettings,
    /// Notifications by e-mail.
    pub email: EmailSettings,
    /// Notifications by Telegram.
    pub telegram: TelegramSettings,
    /// Notifications by ServerChan.
    pub server_chan: ServerChanSettings,
}

/// Webhook
#[derive(Debug, Clone, Serialize, ToSchema, JsonSchema)]
pub struct WebhookSettings {
    /// Whether the webhook is called.
    pub enabled: bool,
    /// Address of the webhook; empty or http(s).
    #[schema(value_type = String)]
    pub url: HttpUrl,
}

/// E-mail
#[derive(Debug, Clone, Serialize, ToSchema, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailSettings {
    /// Whether e-mail is sent.
    pub enabled: bool,
    /// SMTP server host name.
    pub smtp_server: String,
    /// SMTP port, from 1 to 65535.
    #[schemars(range(min = 1, max = 65535))]
    pub smtp_port: u16,
    /// Whether TLS is used.
    pub use_tls: bool,
    /// Sender address.
    pub sender: String,
    /// SMTP password.
    pub password: String,
    /// Recipient address.
    pub recipient: String,
}

/// Telegram
#[derive(Debug, Clone, Serialize, ToSchema, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TelegramSettings {
    /// Whether Telegram messages are sent.
    pub enabled: bool,
    /// Token of the bot.
    pub bot_token: String,
    /// Chat that receives the messages.
    pub chat_id: String,
}

/// ServerChan
#[derive(Debug, Clone, Serialize, ToSchema, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ServerChanSettings {
    /// Whether ServerChan messages are sent.
    pub enabled: bool,
    /// SendKey of the account.
    pub send_key: String,
}

impl Default for AppSettings {
    fn default() -> Self {
        let text = String::new;
        AppSettings {
            general: GeneralSettings {
                game_path: text(),
                launch_arguments: text(),
                cloud_game: false,
                ocr_confidence: 0.5,
                template_confidence: 0.8,
                screenshot_interval_ms: 500,
                keep_screen_awake: true,
            },
            display: DisplaySettings {
                background_image: text(),
                panel_opacity: 0.85,
                language: "zh-CN".to_string(),
                theme: Theme::default(),
                window_state: WindowState {
                    width: 1280,
                    height: 800,
                    maximized: false,
                },
            },
            update: UpdateSettings {
                download_channel: DownloadChannel::default(),
                auto_update: true,
                update_channel: UpdateChannel::default(),
                check_on_startup: true,
            },
            advanced: AdvancedSettings {
                backend: BackendSettings {
                    kind: BackendType::default(),
                    arguments: "--inline --no-admin".to_string(),
                    remote: RemoteSettings {
                        enabled: false,
                        url: HttpUrl::default(),
                        access_token: text(),
                    },
                },
                developer_mode: false,
                python: PythonSettings {
                    path: text(),
                    use_bundled: true,
                    pip_mirror: text(),
                },
            },
            notification: NotificationSettings {
                enabled: false,
                only_on_failure: false,
                webhook: WebhookSettings {
                    enabled: false,
                    url: HttpUrl::default(),
                },
                email: EmailSettings {
                    enabled: false,
                    smtp_server: text(),
                    smtp_port: 465,
                    use_tls: true,
                    sender: text(),
                    password: text(),
                    recipient: text(),
                },
                telegram: TelegramSettings {
                    enabled: false,
                    bot_token: text(),
                    chat_id: text(),
                },
                server_chan: ServerChanSettings {
                    enabled: false,
                    send_key: text(),
                },
            },
        }
    }
}

/// A task configuration: one section per task, each with `enabled`, as
/// `GET /api/Configs/{configName}` returns it. Stored configurations keep
/// fields this schema does not name; the `startGame` credentials are
/// write-only and never returned.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TasksConfig {
    pub start_game: StartGameConfig,
    pub trailblaze_power: TrailblazePowerConfig,
    pub receive_rewards: ReceiveRewardsConfig,
    pub cosmic_strife: CosmicStrifeConfig,
    pub mission_accomplished: MissionAccomplishedConfig,
}

/// Start game
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StartGameConfig {
    /// Whether StartGameTask runs.
    pub enabled: bool,
    /// Path of the game executable; empty for the one of the settings.
    pub game_path: String,
    /// Whether the account logs in automatically.
    pub auto_login: bool,
    /// Account name (write-only: never returned).
    #[schema(ignore)]
    pub username: String,
    /// Password (write-only: never returned).
    #[schema(ignore)]
    pub password: String,
    /// Encrypted account name (write-only: never returned).
    #[schema(ignore)]
    pub encrypted_username: String,
    /// Encrypted password (write-only: never returned).
    #[schema(ignore)]
    pub encrypted_password: String,
    /// Seconds to wait for the game to start.
    pub launch_timeout_seconds: u32,
}

/// Trailblaze power
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrailblazePowerConfig {
    /// Whether TrailblazePowerTask runs.
    pub enabled: bool,
    /// Kind of instance to challenge, such as `calyxGolden`.
    pub instance_type: String,
    /// Name of the instance to challenge.
    pub instance_name: String,
    /// How many times to challenge it.
    pub runs: u32,
    /// Whether reserved power is used.
    pub use_reserve: bool,
    /// Whether fuel is used.
    pub use_fuel: bool,
}

/// Receive rewards
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReceiveRewardsConfig {
    /// Whether ReceiveRewardsTask runs.
    pub enabled: bool,
    /// Claim mail.
    pub mail: bool,
    /// Collect assignments.
    pub assignments: bool,
    /// Claim daily training.
    pub daily_training: bool,
    /// Claim the Nameless Honor rewards.
    pub nameless_honor: bool,
    /// Claim the Gift of Odyssey.
    pub gift_of_odyssey: bool,
}

/// Cosmic strife
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CosmicStrifeConfig {
    /// Whether CosmicStrifeTask runs.
    pub enabled: bool,
    /// Game mode, such as `divergentUniverse`.
    pub mode: String,
    /// Difficulty level.
    pub difficulty: u32,
    /// Whether only the weekly points are collected.
    pub weekly_points_only: bool,
}

/// Mission accomplished
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MissionAccomplishedConfig {
    /// Whether MissionAccomplishTask runs.
    pub enabled: bool,
    /// What to do after the last task, such as `closeGame`.
    pub after_finish: String,
    /// Whether a notification is sent.
    pub notify: bool,
}

impl Default for TasksConfig {
    fn default() -> Self {
        let text = String::new;
        TasksConfig {
            start_game: StartGameConfig {
                enabled: true,
                game_path: text(),
                auto_login: false,
                username: text(),
                password: text(),
                encrypted_username: text(),
                encrypted_password: text(),
                launch_timeout_seconds: 120,
            },
            trailblaze_power: TrailblazePowerConfig {
                enabled: true,
                instance_type: "calyxGolden".to_string(),
                instance_name: "Bud of Memories".to_string(),
                runs: 6,
                use_reserve: false,
                use_fuel: false,
            },
            receive_rewards: ReceiveRewardsConfig {
                enabled: true,
                mail: true,
                assignments: true,
                daily_training: true,
                nameless_honor: true,
                gift_of_odyssey: false,
            },
            cosmic_strife: CosmicStrifeConfig {
                enabled: false,
                mode: "divergentUniverse".to_string(),
                difficulty: 5,
                weekly_points_only: true,
            },
            mission_accomplished: MissionAccomplishedConfig {
                enabled: true,
                after_finish: "closeGame".to_string(),
                notify: true,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_are_the_serialized_variants() {
        fn check<T: Serialize + Default>(choices: &[&str], variants: &[T]) {
            let texts: Vec<String> = variants
                .iter()
                .map(|v| {
                    serde_json::to_value(v)
                        .unwrap()
                        .as_str()
                        .unwrap()
                        .to_string()
                })
                .collect();
            assert_eq!(texts, choices);
        }
        check(Theme::CHOICES, &[Theme::System, Theme::Light, Theme::Dark]);
        check(
            DownloadChannel::CHOICES,
            &[DownloadChannel::Github, DownloadChannel::Mirror],
        );
        check(
            UpdateChannel::CHOICES,
            &[UpdateChannel::Stable, UpdateChannel::Beta],
        );
        check(
            BackendType::CHOICES,
            &[BackendType::Cli, BackendType::Python],
        );
    }
}
