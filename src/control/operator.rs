//! Operator methods: a fixed allow-list of simulated input and vision calls,
//! and the screenshot of the simulated game window.
//!
//! Every method has a JSON Schema for its parameters, checked before the call;
//! nothing here can launch a program or touch a file. Calls change a small
//! simulated window state (cursor, focus, scroll) that the 1280x720 PNG
//! screenshot draws, together with the runner's progress. This module knows
//! nothing about HTTP.

use std::sync::Mutex;

use serde::Serialize;
use serde_json::{Value, json};

use crate::control::error::{Error, Result};
use crate::control::font::glyph;
use crate::control::names;
use crate::control::runner::{RunState, TASKS, TaskStatus};

/// Width of the simulated game window.
pub const WIDTH: u32 = 1280;
/// Height of the simulated game window.
pub const HEIGHT: u32 = 720;

/// A line of `GET /api/Operator/list`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct OperatorMethod {
    pub name: String,
    pub summary: String,
}

/// `GET /api/Operator/help/{method}`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct OperatorHelp {
    pub name: String,
    pub summary: String,
    pub description: String,
    /// JSON Schema of `params`.
    #[schema(value_type = Object)]
    pub parameters: Value,
    /// What a call returns.
    pub returns: String,
}

/// The operator methods: the allow-list, as a closed set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Click,
    PressKey,
    Drag,
    Scroll,
    Ocr,
    FindTemplate,
    Screenshot,
    GetWindowState,
    ActivateWindow,
}

impl Method {
    /// The name clients call it by.
    pub fn name(self) -> &'static str {
        METHODS
            .iter()
            .find(|m| m.method == self)
            .map_or("", |m| m.name)
    }
}

struct MethodDef {
    method: Method,
    name: &'static str,
    summary: &'static str,
    description: &'static str,
    returns: &'static str,
    parameters: fn() -> Value,
}

fn point_props() -> Value {
    json!({
        "x": { "type": "integer", "minimum": 0, "maximum": WIDTH - 1, "description": "pixels from the left edge" },
        "y": { "type": "integer", "minimum": 0, "maximum": HEIGHT - 1, "description": "pixels from the top edge" }
    })
}

fn object(required: &[&str], properties: Value) -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": required,
        "properties": properties
    })
}

/// Templates `find_template` knows.
const TEMPLATES: [&str; 6] = [
    "main_menu",
    "interastral_guide",
    "claim_button",
    "close_button",
    "challenge_button",
    "mail_icon",
];

const METHODS: [MethodDef; 9] = [
    MethodDef {
        method: Method::Click,
        name: "click",
        summary: "Click at a point of the game window",
        description: "Moves the cursor to (x, y) in 1280x720 window coordinates and clicks the given button, `clicks` times.",
        returns: "{clicked: {x, y}, button, clicks}",
        parameters: || {
            let mut p = point_props();
            p["button"] =
                json!({ "type": "string", "enum": ["left", "right", "middle"], "default": "left" });
            p["clicks"] = json!({ "type": "integer", "minimum": 1, "maximum": 3, "default": 1 });
            object(&["x", "y"], p)
        },
    },
    MethodDef {
        method: Method::PressKey,
        name: "press_key",
        summary: "Press a key",
        description: "Presses and releases a key (a letter, a digit, or a named key such as esc, enter, space, tab, f1..f12), holding it `durationMs` milliseconds.",
        returns: "{key, durationMs}",
        parameters: || {
            object(
                &["key"],
                json!({
                    "key": { "type": "string", "pattern": "^([a-z0-9]|esc|enter|space|tab|shift|ctrl|alt|backspace|up|down|left|right|f([1-9]|1[0-2]))$" },
                    "durationMs": { "type": "integer", "minimum": 0, "maximum": 10000, "default": 50 }
                }),
            )
        },
    },
    MethodDef {
        method: Method::Drag,
        name: "drag",
        summary: "Drag from one point to another",
        description: "Presses the left button at `from`, moves to `to` over `durationMs` milliseconds and releases.",
        returns: "{from: {x, y}, to: {x, y}, durationMs}",
        parameters: || {
            let point = json!({ "type": "object", "additionalProperties": false, "required": ["x", "y"], "properties": point_props() });
            object(
                &["from", "to"],
                json!({
                    "from": point,
                    "to": point,
                    "durationMs": { "type": "integer", "minimum": 0, "maximum": 10000, "default": 300 }
                }),
            )
        },
    },
    MethodDef {
        method: Method::Scroll,
        name: "scroll",
        summary: "Scroll the mouse wheel",
        description: "Scrolls `amount` notches (negative: down) at (x, y), or at the cursor when no point is given.",
        returns: "{amount, at: {x, y}, offset}",
        parameters: || {
            let mut p = point_props();
            p["amount"] = json!({ "type": "integer", "minimum": -50, "maximum": 50 });
            object(&["amount"], p)
        },
    },
    MethodDef {
        method: Method::Ocr,
        name: "ocr",
        summary: "Read the text in the window or a region",
        description: "Runs the simulated OCR over the whole window or `region` and returns the text boxes found, each with its box and confidence.",
        returns: "{boxes: [{text, box: [x, y, width, height], confidence}]}",
        parameters: || {
            object(
                &[],
                json!({
                    "region": {
                        "type": "object",
                        "additionalProperties": false,
                        "required": ["x", "y", "width", "height"],
                        "properties": {
                            "x": { "type": "integer", "minimum": 0, "maximum": WIDTH - 1 },
                            "y": { "type": "integer", "minimum": 0, "maximum": HEIGHT - 1 },
                            "width": { "type": "integer", "minimum": 1, "maximum": WIDTH },
                            "height": { "type": "integer", "minimum": 1, "maximum": HEIGHT }
                        }
                    }
                }),
            )
        },
    },
    MethodDef {
        method: Method::FindTemplate,
        name: "find_template",
        summary: "Locate a template image in the window",
        description: "Looks for one of the known template images and returns where it was found and the match confidence, or found: false below `threshold`.",
        returns: "{found, template, box: [x, y, width, height] | null, confidence}",
        parameters: || {
            object(
                &["template"],
                json!({
                    "template": { "type": "string", "enum": TEMPLATES },
                    "threshold": { "type": "number", "minimum": 0, "maximum": 1, "default": 0.8 }
                }),
            )
        },
    },
    MethodDef {
        method: Method::Screenshot,
        name: "screenshot",
        summary: "Capture the game window",
        description: "Captures the 1280x720 game window. The image itself is served by GET /api/Operator/screenshot; this call returns its size and digest.",
        returns: "{width, height, format, bytes, sha256}",
        parameters: || object(&[], json!({})),
    },
    MethodDef {
        method: Method::GetWindowState,
        name: "get_window_state",
        summary: "Describe the game window",
        description: "Returns the title, position, size, focus and minimized state of the simulated game window.",
        returns: "{title, x, y, width, height, focused, minimized, cursor: {x, y}}",
        parameters: || object(&[], json!({})),
    },
    MethodDef {
        method: Method::ActivateWindow,
        name: "activate_window",
        summary: "Bring the game window to the front",
        description: "Restores the window if minimized and gives it the focus.",
        returns: "the window state, as get_window_state",
        parameters: || object(&[], json!({})),
    },
];

/// The simulated window.
#[derive(Debug, Clone)]
struct Window {
    cursor: (u32, u32),
    clicks: Vec<(u32, u32)>,
    focused: bool,
    minimized: bool,
    scroll: i64,
    last_key: Option<String>,
}

/// The operator: validators for each method and the window state.
#[derive(Debug)]
pub(crate) struct Operator {
    validators: Vec<jsonschema::Validator>,
    /// The window; a std mutex, never held across an await.
    window: Mutex<Window>,
}

impl Operator {
    pub fn new() -> Operator {
        let validators = METHODS
            .iter()
            .map(|m| {
                jsonschema::validator_for(&(m.parameters)()).expect("built-in schemas are valid")
            })
            .collect();
        Operator {
            validators,
            window: Mutex::new(Window {
                cursor: (WIDTH / 2, HEIGHT / 2),
                clicks: Vec::new(),
                focused: true,
                minimized: false,
                scroll: 0,
                last_key: None,
            }),
        }
    }

    pub fn list(&self) -> Vec<OperatorMethod> {
        METHODS
            .iter()
            .map(|m| OperatorMethod {
                name: m.name.to_string(),
                summary: m.summary.to_string(),
            })
            .collect()
    }

    fn find(&self, method: &str) -> Result<usize> {
        let method =
            &names::check_name("operator method name", method).map_err(Error::BadRequest)?;
        METHODS
            .iter()
            .position(|m| m.name == method)
            .ok_or_else(|| {
                Error::not_found(format!(
                    "unknown operator method `{method}`; available: {}",
                    METHODS
                        .iter()
                        .map(|m| m.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
    }

    pub fn help(&self, method: &str) -> Result<OperatorHelp> {
        let m = &METHODS[self.find(method)?];
        Ok(OperatorHelp {
            name: m.name.to_string(),
            summary: m.summary.to_string(),
            description: m.description.to_string(),
            parameters: (m.parameters)(),
            returns: m.returns.to_string(),
        })
    }

    /// Checks the method and its parameters.
    pub fn check(&self, method: &str, params: &Value) -> Result<Method> {
        if method.trim().is_empty() {
            return Err(Error::bad_request("`method` must not be empty"));
        }
        let index = self.find(method)?;
        let violations: Vec<String> = self.validators[index]
            .iter_errors(params)
            .map(|e| {
                let path = e.instance_path().to_string();
                format!("{}: {e}", if path.is_empty() { "params" } else { &path })
            })
            .collect();
        if !violations.is_empty() {
            return Err(Error::Invalid {
                message: format!("invalid params for `{method}`: {}", violations.join("; ")),
                violations,
            });
        }
        Ok(METHODS[index].method)
    }

    /// Performs a checked call; `status` feeds OCR, `shot` is the screenshot
    /// summary (computed by the caller, who owns the encoder).
    pub fn call(
        &self,
        method: Method,
        params: &Value,
        status: &TaskStatus,
        shot: Option<Value>,
    ) -> (Value, String) {
        let mut w = self.window.lock().unwrap_or_else(|e| e.into_inner());
        let coord = |key: &str, default: u32| {
            params
                .get(key)
                .and_then(Value::as_u64)
                .map_or(default, |v| v as u32)
        };
        match method {
            Method::Click => {
                let (x, y) = (coord("x", 0), coord("y", 0));
                let button = params
                    .get("button")
                    .and_then(Value::as_str)
                    .unwrap_or("left");
                let clicks = params.get("clicks").and_then(Value::as_u64).unwrap_or(1);
                w.cursor = (x, y);
                w.clicks.push((x, y));
                if w.clicks.len() > 16 {
                    w.clicks.remove(0);
                }
                w.focused = true;
                (
                    json!({ "clicked": { "x": x, "y": y }, "button": button, "clicks": clicks }),
                    format!("click ({x}, {y}) {button} x{clicks}"),
                )
            }
            Method::PressKey => {
                let key = params
                    .get("key")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let duration = params
                    .get("durationMs")
                    .and_then(Value::as_u64)
                    .unwrap_or(50);
                w.last_key = Some(key.clone());
                (
                    json!({ "key": key, "durationMs": duration }),
                    format!("press_key {key} for {duration} ms"),
                )
            }
            Method::Drag => {
                let point = |key: &str| {
                    let p = &params[key];
                    (
                        p.get("x").and_then(Value::as_u64).unwrap_or(0) as u32,
                        p.get("y").and_then(Value::as_u64).unwrap_or(0) as u32,
                    )
                };
                let (from, to) = (point("from"), point("to"));
                let duration = params
                    .get("durationMs")
                    .and_then(Value::as_u64)
                    .unwrap_or(300);
                w.cursor = to;
                (
                    json!({ "from": { "x": from.0, "y": from.1 }, "to": { "x": to.0, "y": to.1 }, "durationMs": duration }),
                    format!("drag ({}, {}) -> ({}, {})", from.0, from.1, to.0, to.1),
                )
            }
            Method::Scroll => {
                let amount = params.get("amount").and_then(Value::as_i64).unwrap_or(0);
                let at = (coord("x", w.cursor.0), coord("y", w.cursor.1));
                w.cursor = at;
                w.scroll += amount;
                (
                    json!({ "amount": amount, "at": { "x": at.0, "y": at.1 }, "offset": w.scroll }),
                    format!("scroll {amount} at ({}, {})", at.0, at.1),
                )
            }
            Method::Ocr => {
                let boxes = ocr_boxes(status);
                let region = params.get("region").map(|r| {
                    let g = |k: &str| r.get(k).and_then(Value::as_i64).unwrap_or(0);
                    (g("x"), g("y"), g("width"), g("height"))
                });
                let boxes: Vec<Value> = boxes
                    .into_iter()
                    .filter(|(_, b, _)| {
                        region.is_none_or(|(x, y, rw, rh)| {
                            b[0] >= x && b[1] >= y && b[0] + b[2] <= x + rw && b[1] + b[3] <= y + rh
                        })
                    })
                    .map(|(text, b, confidence)| json!({ "text": text, "box": b, "confidence": confidence }))
                    .collect();
                let n = boxes.len();
                (
                    json!({ "boxes": boxes }),
                    format!("ocr found {n} text boxes"),
                )
            }
            Method::FindTemplate => {
                let template = params.get("template").and_then(Value::as_str).unwrap_or("");
                let threshold = params
                    .get("threshold")
                    .and_then(Value::as_f64)
                    .unwrap_or(0.8);
                let index = TEMPLATES.iter().position(|t| *t == template).unwrap_or(0);
                // The main menu shows while idle; task screens show their buttons while running.
                let running = status.status == RunState::Running;
                let confidence: f64 = match (template, running) {
                    ("main_menu", false) | ("challenge_button" | "claim_button", true) => 0.97,
                    ("close_button" | "mail_icon" | "interastral_guide", _) => 0.91,
                    _ => 0.42,
                };
                let found = confidence >= threshold;
                let b = [80 + 180 * index as i64, 600, 120, 48];
                (
                    json!({ "found": found, "template": template, "box": if found { json!(b) } else { Value::Null }, "confidence": confidence }),
                    format!(
                        "find_template {template}: {}",
                        if found { "found" } else { "not found" }
                    ),
                )
            }
            Method::Screenshot => (
                shot.unwrap_or(Value::Null),
                "screenshot captured".to_string(),
            ),
            Method::ActivateWindow => {
                w.focused = true;
                w.minimized = false;
                (window_json(&w), "window activated".to_string())
            }
            Method::GetWindowState => (window_json(&w), "window state read".to_string()),
        }
    }

    /// Draws the window as an RGB 1280x720 image and encodes it as PNG.
    pub fn screenshot_png(&self, status: &TaskStatus) -> anyhow::Result<Vec<u8>> {
        let w = self
            .window
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let pixels = draw(status, &w);
        let mut out = Vec::new();
        {
            let mut encoder = png::Encoder::new(&mut out, WIDTH, HEIGHT);
            encoder.set_color(png::ColorType::Rgb);
            encoder.set_depth(png::BitDepth::Eight);
            encoder.set_compression(png::Compression::Fast);
            // Rows are mostly runs of one colour: `Sub` filters them to zeros cheaply.
            encoder.set_filter(png::Filter::Sub);
            let mut writer = encoder.write_header()?;
            writer.write_image_data(&pixels)?;
            writer.finish()?;
        }
        Ok(out)
    }
}

fn window_json(w: &Window) -> Value {
    json!({
        "title": "Honkai: Star Rail (simulated)",
        "x": 0, "y": 0, "width": WIDTH, "height": HEIGHT,
        "focused": w.focused,
        "minimized": w.minimized,
        "cursor": { "x": w.cursor.0, "y": w.cursor.1 },
        "lastKey": w.last_key,
    })
}

/// The text the simulated OCR sees, with boxes `[x, y, width, height]`.
fn ocr_boxes(status: &TaskStatus) -> Vec<(String, [i64; 4], f64)> {
    let mut boxes = vec![
        (
            "Trailblaze Power 180/240".to_string(),
            [980, 24, 260, 32],
            0.98,
        ),
        (
            format!(
                "Status: {}",
                serde_json::to_value(status.status)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            ),
            [40, 96, 320, 32],
            0.97,
        ),
        (status.progress.clone(), [40, 140, 600, 32], 0.95),
    ];
    if let Some(task) = &status.current_task {
        boxes.push((task.clone(), [40, 184, 400, 32], 0.93));
    }
    boxes.push(("Interastral Guide".to_string(), [1040, 660, 200, 32], 0.9));
    boxes
}

type Rgb = [u8; 3];

struct Canvas {
    pixels: Vec<u8>,
}

impl Canvas {
    fn rect(&mut self, x: i64, y: i64, w: i64, h: i64, color: Rgb) {
        let (x0, y0) = (x.max(0), y.max(0));
        let (x1, y1) = ((x + w).min(WIDTH as i64), (y + h).min(HEIGHT as i64));
        if x1 <= x0 || y1 <= y0 {
            return;
        }
        // One row of the colour, copied row by row (a memcpy even unoptimized).
        let row = color.repeat((x1 - x0) as usize);
        for py in y0..y1 {
            let start = ((py * WIDTH as i64 + x0) * 3) as usize;
            self.pixels[start..start + row.len()].copy_from_slice(&row);
        }
    }

    /// Draws `text` with the 5x7 font at `scale`, clipped to the window.
    fn text(&mut self, x: i64, y: i64, scale: i64, text: &str, color: Rgb) {
        for (i, c) in text.chars().enumerate() {
            let left = x + i as i64 * 6 * scale;
            if left >= WIDTH as i64 {
                break;
            }
            for (row, bits) in glyph(c).iter().enumerate() {
                for col in 0..5 {
                    if bits & (0b10000 >> col) != 0 {
                        self.rect(
                            left + col * scale,
                            y + row as i64 * scale,
                            scale,
                            scale,
                            color,
                        );
                    }
                }
            }
        }
    }

    fn frame(&mut self, x: i64, y: i64, w: i64, h: i64, t: i64, color: Rgb) {
        self.rect(x, y, w, t, color);
        self.rect(x, y + h - t, w, t, color);
        self.rect(x, y, t, h, color);
        self.rect(x + w - t, y, t, h, color);
    }
}

/// Renders the simulated window from the runner's status and the window state.
fn draw(status: &TaskStatus, w: &Window) -> Vec<u8> {
    let mut c = Canvas {
        pixels: vec![0; (WIDTH * HEIGHT * 3) as usize],
    };
    // A vertical gradient sky.
    for y in 0..HEIGHT as i64 {
        let t = y as f64 / HEIGHT as f64;
        let color = [
            (18.0 + 30.0 * t) as u8,
            (24.0 + 40.0 * t) as u8,
            (48.0 + 70.0 * t) as u8,
        ];
        c.rect(0, y, WIDTH as i64, 1, color);
    }
    // Title bar; dimmed when the window has no focus.
    c.rect(
        0,
        0,
        WIDTH as i64,
        36,
        if w.focused {
            [40, 44, 60]
        } else {
            [70, 70, 70]
        },
    );
    c.rect(WIDTH as i64 - 44, 8, 20, 20, [200, 70, 70]);
    // Status colour bar and progress.
    let accent: Rgb = match status.status {
        RunState::Idle => [120, 120, 130],
        RunState::Running if status.stopping => [230, 170, 60],
        RunState::Running => [70, 190, 110],
        RunState::Completed => [80, 140, 230],
        RunState::Stopped => [200, 140, 60],
        RunState::Failed => [220, 60, 60],
    };
    c.rect(40, 80, 1200, 8, accent);
    c.frame(40, 110, 1200, 40, 3, [220, 220, 230]);
    let fraction = if status.total_tasks == 0 {
        if status.status == RunState::Completed {
            1.0
        } else {
            0.0
        }
    } else {
        status.completed_tasks as f64 / status.total_tasks as f64
    };
    c.rect(46, 116, ((1188.0 * fraction) as i64).max(0), 28, accent);
    // One tile per task: filled when enabled in the current job's progress.
    for (i, task) in TASKS.iter().enumerate() {
        let x = 40 + i as i64 * 244;
        let current = status.current_task.as_deref() == Some(task.class);
        let color = if current { accent } else { [60, 66, 90] };
        c.rect(x, 200, 220, 300, color);
        c.frame(x, 200, 220, 300, 2, [200, 200, 210]);
    }
    // Text: what the simulated game shows.
    const WHITE: Rgb = [235, 238, 245];
    c.text(12, 11, 2, "STAR RAIL (SIMULATED)", WHITE);
    let state = serde_json::to_value(status.status)
        .ok()
        .and_then(|v| v.as_str().map(str::to_uppercase))
        .unwrap_or_default();
    c.text(40, 50, 3, &format!("STATUS: {state}"), WHITE);
    c.text(40, 160, 3, &status.progress, WHITE);
    for (i, task) in TASKS.iter().enumerate() {
        let x = 40 + i as i64 * 244;
        c.text(x + 12, 220, 3, &format!("{i}"), WHITE);
        c.text(x + 10, 260, 2, task.class.trim_end_matches("Task"), WHITE);
    }
    if let Some(error) = &status.error {
        c.text(40, 520, 2, error, [255, 150, 150]);
    }
    if let Some(key) = &w.last_key {
        c.text(40, 680, 2, &format!("LAST KEY: {key}"), WHITE);
    }
    c.text(
        900,
        680,
        2,
        &format!(
            "SESSION {} STEP {}MS",
            status.backend.session, status.backend.step_ms
        ),
        WHITE,
    );
    // Scroll indicator.
    let offset = w.scroll.clamp(-50, 50) * 4;
    c.rect(1250, 330 - offset, 10, 60, [200, 200, 220]);
    // Recent clicks as small squares, the cursor as a crosshair.
    for &(x, y) in &w.clicks {
        c.rect(x as i64 - 4, y as i64 - 4, 9, 9, [250, 220, 90]);
    }
    let (x, y) = (w.cursor.0 as i64, w.cursor.1 as i64);
    c.rect(x - 12, y - 1, 25, 3, [255, 255, 255]);
    c.rect(x - 1, y - 12, 3, 25, [255, 255, 255]);
    c.pixels
}
