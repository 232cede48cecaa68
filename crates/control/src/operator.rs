//! Operator methods: a fixed allow-list of simulated input and vision calls,
//! and the screenshot of the simulated game window.
//!
//! Each method's parameters are a Rust type: the call reads them into it, and
//! the JSON Schema that `help` publishes and `check` applies is derived from
//! it (`schemars`), so the schema and the code cannot disagree on a name, a
//! bound or a default. A new method is a parameter type, a [`Call`] variant
//! and a row of `METHODS`; the tests hold every row's schema to its parser.
//! Nothing here can launch a program or touch a file.
//! Calls change a small simulated window state (cursor, focus, scroll) that
//! the 1280x720 PNG screenshot ([`screenshot`]) draws, together with the
//! runner's progress.
//! This module knows nothing about HTTP.

use std::borrow::Cow;
use std::sync::{LazyLock, Mutex};

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Number, Value, json};

use crate::error::{Error, Result};
use crate::runner::{RunState, TaskStatus};
use crate::screenshot;
pub(crate) use crate::screenshot::Window;
pub use crate::screenshot::{HEIGHT, WIDTH};
use crate::{names, shapes};

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
    /// JSON Schema of `params`, derived from the type the call reads.
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

/// A checked call: the method with its parameters read into their type,
/// defaults filled in.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Call {
    Click(Click),
    PressKey(PressKey),
    Drag(Drag),
    Scroll(Scroll),
    Ocr(Ocr),
    FindTemplate(FindTemplate),
    Screenshot,
    GetWindowState,
    ActivateWindow,
}

impl Call {
    pub fn method(&self) -> Method {
        match self {
            Call::Click(_) => Method::Click,
            Call::PressKey(_) => Method::PressKey,
            Call::Drag(_) => Method::Drag,
            Call::Scroll(_) => Method::Scroll,
            Call::Ocr(_) => Method::Ocr,
            Call::FindTemplate(_) => Method::FindTemplate,
            Call::Screenshot => Method::Screenshot,
            Call::GetWindowState => Method::GetWindowState,
            Call::ActivateWindow => Method::ActivateWindow,
        }
    }
}

// The parameter types. A doc comment on a field is its description in the
// schema; `#[serde(default = ...)]` is both the default the call applies and
// the `default` the schema states.

/// An integer from `MIN` to `MAX`: the bounds are checked when a value is
/// read and stated in its schema. Like JSON Schema, it takes `2.0` as the
/// integer 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Number")]
pub(crate) struct Int<const MIN: i64, const MAX: i64>(i64);

impl<const MIN: i64, const MAX: i64> Int<MIN, MAX> {
    fn get(self) -> i64 {
        self.0
    }
}

impl<const MIN: i64, const MAX: i64> TryFrom<Number> for Int<MIN, MAX> {
    type Error = String;

    fn try_from(n: Number) -> Result<Self, String> {
        let whole = n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && (MIN as f64..=MAX as f64).contains(f))
                .map(|f| f as i64)
        });
        match whole {
            Some(v) if (MIN..=MAX).contains(&v) => Ok(Int(v)),
            _ => Err(format!(
                "expected an integer from {MIN} to {MAX}, found {n}"
            )),
        }
    }
}

impl<const MIN: i64, const MAX: i64> JsonSchema for Int<MIN, MAX> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        format!("Int{MIN}To{MAX}").into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "integer", "minimum": MIN, "maximum": MAX })
    }
}

/// A column of the window.
type X = Int<0, { WIDTH as i64 - 1 }>;
/// A row of the window.
type Y = Int<0, { HEIGHT as i64 - 1 }>;
/// A duration in milliseconds.
type Millis = Int<0, 10_000>;

/// A number from 0 to 1, such as a confidence.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "f64")]
pub(crate) struct Fraction(f64);

impl TryFrom<f64> for Fraction {
    type Error = String;

    fn try_from(f: f64) -> Result<Self, String> {
        if (0.0..=1.0).contains(&f) {
            Ok(Fraction(f))
        } else {
            Err(format!("expected a number from 0 to 1, found {f}"))
        }
    }
}

impl JsonSchema for Fraction {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Fraction".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "number", "minimum": 0, "maximum": 1 })
    }
}

/// The keys `press_key` knows: a letter, a digit, a named key, or F1 to F12.
/// One pattern, applied by the parser and published in the schema.
const KEY_PATTERN: &str =
    "^([a-z0-9]|esc|enter|space|tab|shift|ctrl|alt|backspace|up|down|left|right|f([1-9]|1[0-2]))$";

/// A key `press_key` knows (see [`KEY_PATTERN`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String")]
pub(crate) struct Key(String);

impl TryFrom<String> for Key {
    type Error = String;

    fn try_from(key: String) -> Result<Self, String> {
        static PATTERN: LazyLock<regex::Regex> =
            LazyLock::new(|| regex::Regex::new(KEY_PATTERN).expect("the key pattern is valid"));
        if PATTERN.is_match(&key) {
            Ok(Key(key))
        } else {
            Err(format!(
                "unknown key {key:?}: expected a letter, a digit, esc, enter, space, tab, shift, ctrl, alt, backspace, an arrow (up, down, left, right) or f1..f12"
            ))
        }
    }
}

impl JsonSchema for Key {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Key".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "pattern": KEY_PATTERN })
    }
}

/// A mouse button.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Button {
    #[default]
    Left,
    Right,
    Middle,
}

/// A template image of the simulated screen.
// In the order of their places on the screen, which `find_template` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Template {
    MainMenu,
    InterastralGuide,
    ClaimButton,
    CloseButton,
    ChallengeButton,
    MailIcon,
}

/// A point of the window.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Point {
    /// pixels from the left edge
    x: X,
    /// pixels from the top edge
    y: Y,
}

/// Parameters of `click`.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Click {
    /// pixels from the left edge
    x: X,
    /// pixels from the top edge
    y: Y,
    /// the button to click
    #[serde(default)]
    button: Button,
    #[serde(default = "Click::one")]
    clicks: Int<1, 3>,
}

impl Click {
    fn one() -> Int<1, 3> {
        Int(1)
    }
}

/// Parameters of `press_key`.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct PressKey {
    key: Key,
    #[serde(default = "PressKey::tap")]
    duration_ms: Millis,
}

impl PressKey {
    fn tap() -> Millis {
        Int(50)
    }
}

/// Parameters of `drag`.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Drag {
    from: Point,
    to: Point,
    #[serde(default = "Drag::glide")]
    duration_ms: Millis,
}

impl Drag {
    fn glide() -> Millis {
        Int(300)
    }
}

/// Parameters of `scroll`.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Scroll {
    /// pixels from the left edge
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "X")]
    x: Option<X>,
    /// pixels from the top edge
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "Y")]
    y: Option<Y>,
    amount: Int<-50, 50>,
}

/// A rectangle of the window.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Region {
    x: X,
    y: Y,
    width: Int<1, { WIDTH as i64 }>,
    height: Int<1, { HEIGHT as i64 }>,
}

/// Parameters of `ocr`.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct Ocr {
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "Region")]
    region: Option<Region>,
}

/// Parameters of `find_template`.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FindTemplate {
    /// the template image to look for
    template: Template,
    /// the least confidence that counts as found
    #[serde(default = "FindTemplate::likely")]
    threshold: Fraction,
}

impl FindTemplate {
    fn likely() -> Fraction {
        Fraction(0.8)
    }
}

/// Parameters of the methods that take none.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NoParams {}

/// Reads a field that may be left out but, as its schema says, not given as
/// `null` (`skip_serializing_if` beside it keeps `null` out of the schema's
/// `default`).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// Reads the parameters of a call into `P`: an object, as the schema says.
fn read<P: DeserializeOwned>(params: &Value) -> Result<P, String> {
    if !params.is_object() {
        return Err("params must be a JSON object".to_string());
    }
    P::deserialize(params).map_err(|e| e.to_string())
}

/// The JSON Schema of the parameters `P`, as `help` publishes it and `check`
/// applies it ([`shapes::inline_schema`]).
fn schema<P: JsonSchema>() -> Value {
    shapes::inline_schema::<P>()
}

/// The name a value of a closed set goes by on the wire (its serde name).
fn wire_name<T: Serialize>(value: T) -> String {
    match serde_json::to_value(value) {
        Ok(Value::String(name)) => name,
        _ => String::new(),
    }
}

struct MethodDef {
    method: Method,
    name: &'static str,
    summary: &'static str,
    description: &'static str,
    returns: &'static str,
    /// The JSON Schema of the parameters, derived from their type.
    parameters: fn() -> Value,
    /// Reads the parameters into their type.
    parse: fn(&Value) -> Result<Call, String>,
}

const METHODS: [MethodDef; 9] = [
    MethodDef {
        method: Method::Click,
        name: "click",
        summary: "Click at a point of the game window",
        description: "Moves the cursor to (x, y) in 1280x720 window coordinates and clicks the given button, `clicks` times.",
        returns: "{clicked: {x, y}, button, clicks}",
        parameters: schema::<Click>,
        parse: |p| read(p).map(Call::Click),
    },
    MethodDef {
        method: Method::PressKey,
        name: "press_key",
        summary: "Press a key",
        description: "Presses and releases a key (a letter, a digit, or a named key such as esc, enter, space, tab, f1..f12), holding it `durationMs` milliseconds.",
        returns: "{key, durationMs}",
        parameters: schema::<PressKey>,
        parse: |p| read(p).map(Call::PressKey),
    },
    MethodDef {
        method: Method::Drag,
        name: "drag",
        summary: "Drag from one point to another",
        description: "Presses the left button at `from`, moves to `to` over `durationMs` milliseconds and releases.",
        returns: "{from: {x, y}, to: {x, y}, durationMs}",
        parameters: schema::<Drag>,
        parse: |p| read(p).map(Call::Drag),
    },
    MethodDef {
        method: Method::Scroll,
        name: "scroll",
        summary: "Scroll the mouse wheel",
        description: "Scrolls `amount` notches (negative: down) at (x, y), or at the cursor when no point is given.",
        returns: "{amount, at: {x, y}, offset}",
        parameters: schema::<Scroll>,
        parse: |p| read(p).map(Call::Scroll),
    },
    MethodDef {
        method: Method::Ocr,
        name: "ocr",
        summary: "Read the text in the window or a region",
        description: "Runs the simulated OCR over the whole window or `region` and returns the text boxes found, each with its box and confidence.",
        returns: "{boxes: [{text, box: [x, y, width, height], confidence}]}",
        parameters: schema::<Ocr>,
        parse: |p| read(p).map(Call::Ocr),
    },
    MethodDef {
        method: Method::FindTemplate,
        name: "find_template",
        summary: "Locate a template image in the window",
        description: "Looks for one of the known template images and returns where it was found and the match confidence, or found: false below `threshold`.",
        returns: "{found, template, box: [x, y, width, height] | null, confidence}",
        parameters: schema::<FindTemplate>,
        parse: |p| read(p).map(Call::FindTemplate),
    },
    MethodDef {
        method: Method::Screenshot,
        name: "screenshot",
        summary: "Capture the game window",
        description: "Captures the 1280x720 game window. The image itself is served by GET /api/Operator/screenshot; this call returns its size and digest.",
        returns: "{width, height, format, bytes, sha256}",
        parameters: schema::<NoParams>,
        parse: |p| read::<NoParams>(p).map(|_| Call::Screenshot),
    },
    MethodDef {
        method: Method::GetWindowState,
        name: "get_window_state",
        summary: "Describe the game window",
        description: "Returns the title, position, size, focus and minimized state of the simulated game window.",
        returns: "{title, x, y, width, height, focused, minimized, cursor: {x, y}}",
        parameters: schema::<NoParams>,
        parse: |p| read::<NoParams>(p).map(|_| Call::GetWindowState),
    },
    MethodDef {
        method: Method::ActivateWindow,
        name: "activate_window",
        summary: "Bring the game window to the front",
        description: "Restores the window if minimized and gives it the focus.",
        returns: "the window state, as get_window_state",
        parameters: schema::<NoParams>,
        parse: |p| read::<NoParams>(p).map(|_| Call::ActivateWindow),
    },
];

/// The operator: validators for each method and the window state.
#[derive(Debug)]
pub(crate) struct Operator {
    /// Each method's derived schema, compiled once: `check` lists every
    /// violation, where reading the type would stop at the first.
    validators: Vec<jsonschema::Validator>,
    /// The window; a std mutex, never held across an await.
    window: Mutex<Window>,
}

impl Operator {
    pub fn new() -> Operator {
        let validators = METHODS
            .iter()
            .map(|m| {
                jsonschema::validator_for(&(m.parameters)()).expect("derived schemas are valid")
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

    /// Checks the method and reads its parameters: every violation of the
    /// method's schema is listed (HTTP 400).
    pub fn check(&self, method: &str, params: &Value) -> Result<Call> {
        if method.trim().is_empty() {
            return Err(Error::bad_request("`method` must not be empty"));
        }
        let index = self.find(method)?;
        let mut violations: Vec<String> = self.validators[index]
            .iter_errors(params)
            .map(|e| {
                let path = e.instance_path().to_string();
                format!("{}: {e}", if path.is_empty() { "params" } else { &path })
            })
            .collect();
        let call = (METHODS[index].parse)(params);
        if let (true, Err(e)) = (violations.is_empty(), &call) {
            // The schema is derived from the type, so this is not expected;
            // the client still gets the reason.
            violations.push(format!("params: {e}"));
        }
        match call {
            Ok(call) if violations.is_empty() => Ok(call),
            _ => Err(Error::invalid(
                format_args!("invalid params for `{method}`"),
                violations,
            )),
        }
    }

    /// Performs a checked call; `status` feeds OCR, `shot` is the screenshot
    /// summary (computed by the caller, who owns the encoder).
    pub fn call(&self, call: Call, status: &TaskStatus, shot: Option<Value>) -> (Value, String) {
        let mut w = self.window.lock().unwrap_or_else(|e| e.into_inner());
        match call {
            Call::Click(click) => clicked(&mut w, click),
            Call::PressKey(press) => pressed(&mut w, press),
            Call::Drag(drag) => dragged(&mut w, drag),
            Call::Scroll(scroll) => scrolled(&mut w, scroll),
            Call::Ocr(ocr) => ocr_found(status, ocr),
            Call::FindTemplate(find) => template_found(status, find),
            Call::Screenshot => (
                shot.unwrap_or(Value::Null),
                "screenshot captured".to_string(),
            ),
            Call::ActivateWindow => {
                w.focused = true;
                w.minimized = false;
                (window_json(&w), "window activated".to_string())
            }
            Call::GetWindowState => (window_json(&w), "window state read".to_string()),
        }
    }

    /// The screenshot: the window as it is now, drawn by [`screenshot`].
    pub fn screenshot_png(&self, status: &TaskStatus) -> anyhow::Result<Vec<u8>> {
        let w = self
            .window
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        screenshot::png(status, &w)
    }
}

/// A point of a call, in pixels.
fn xy(x: X, y: Y) -> (u32, u32) {
    (x.get() as u32, y.get() as u32)
}

/// `click`: the cursor moves there and the window takes the focus.
fn clicked(w: &mut Window, click: Click) -> (Value, String) {
    let Click {
        x,
        y,
        button,
        clicks,
    } = click;
    let (x, y) = xy(x, y);
    let clicks = clicks.get();
    let button = wire_name(button);
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

/// `press_key`: the window remembers the last key.
fn pressed(w: &mut Window, press: PressKey) -> (Value, String) {
    let PressKey {
        key: Key(key),
        duration_ms,
    } = press;
    let duration = duration_ms.get();
    w.last_key = Some(key.clone());
    (
        json!({ "key": key, "durationMs": duration }),
        format!("press_key {key} for {duration} ms"),
    )
}

/// `drag`: the cursor ends where the drag does.
fn dragged(w: &mut Window, drag: Drag) -> (Value, String) {
    let Drag {
        from,
        to,
        duration_ms,
    } = drag;
    let (from, to) = (xy(from.x, from.y), xy(to.x, to.y));
    let duration = duration_ms.get();
    w.cursor = to;
    (
        json!({ "from": { "x": from.0, "y": from.1 }, "to": { "x": to.0, "y": to.1 }, "durationMs": duration }),
        format!("drag ({}, {}) -> ({}, {})", from.0, from.1, to.0, to.1),
    )
}

/// `scroll`: at the point given, else at the cursor.
fn scrolled(w: &mut Window, scroll: Scroll) -> (Value, String) {
    let Scroll { x, y, amount } = scroll;
    let amount = amount.get();
    let at = (
        x.map_or(w.cursor.0, |x| x.get() as u32),
        y.map_or(w.cursor.1, |y| y.get() as u32),
    );
    w.cursor = at;
    w.scroll += amount;
    (
        json!({ "amount": amount, "at": { "x": at.0, "y": at.1 }, "offset": w.scroll }),
        format!("scroll {amount} at ({}, {})", at.0, at.1),
    )
}

/// `ocr`: the text boxes the status shows, inside the region when one is
/// given.
fn ocr_found(status: &TaskStatus, ocr: Ocr) -> (Value, String) {
    let Ocr { region } = ocr;
    let boxes: Vec<Value> = ocr_boxes(status)
        .into_iter()
        .filter(|(_, b, _)| {
            region.is_none_or(|r| {
                let (x, y) = (r.x.get(), r.y.get());
                let (rw, rh) = (r.width.get(), r.height.get());
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

/// `find_template`: the main menu shows while idle, task screens show
/// their buttons while running.
fn template_found(status: &TaskStatus, find: FindTemplate) -> (Value, String) {
    let FindTemplate {
        template,
        threshold: Fraction(threshold),
    } = find;
    let running = status.status == RunState::Running;
    let confidence: f64 = match (template, running) {
        (Template::MainMenu, false) | (Template::ChallengeButton | Template::ClaimButton, true) => {
            0.97
        }
        (Template::CloseButton | Template::MailIcon | Template::InterastralGuide, _) => 0.91,
        _ => 0.42,
    };
    let found = confidence >= threshold;
    let b = [80 + 180 * template as i64, 600, 120, 48];
    let template = wire_name(template);
    (
        json!({ "found": found, "template": template, "box": if found { json!(b) } else { Value::Null }, "confidence": confidence }),
        format!(
            "find_template {template}: {}",
            if found { "found" } else { "not found" }
        ),
    )
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::*;

    /// A valid value of `schema`: every property (or only the required
    /// ones), each at its minimum, first enum value or a known key.
    fn example(schema: &Value, every: bool) -> Value {
        match schema["type"].as_str() {
            Some("object") => {
                let properties = schema["properties"]
                    .as_object()
                    .cloned()
                    .unwrap_or_default();
                let required = schema["required"].as_array().cloned().unwrap_or_default();
                Value::Object(
                    properties
                        .iter()
                        .filter(|(k, _)| every || required.contains(&json!(k)))
                        .map(|(k, inner)| (k.clone(), example(inner, every)))
                        .collect(),
                )
            }
            Some("integer" | "number") => schema["minimum"].clone(),
            Some("string") if schema["enum"].is_array() => schema["enum"][0].clone(),
            Some("string") => json!("a"),
            other => panic!("no example for type {other:?}"),
        }
    }

    /// Values to try for a property of `schema`: each bound and just past
    /// it, as integers and as floats, enum values and near misses, values
    /// of the wrong type, and for an object each of its own properties
    /// changed in turn.
    fn candidates(schema: &Value) -> Vec<Value> {
        let mut out = vec![Value::Null, json!(true), json!("1"), json!([])];
        match schema["type"].as_str() {
            Some("object") => {
                let valid = example(schema, true);
                out.push(valid.clone());
                out.push(json!({}));
                for params in mutations(schema, &valid) {
                    out.push(params);
                }
            }
            Some("integer") => {
                let min = schema["minimum"].as_i64().unwrap();
                let max = schema["maximum"].as_i64().unwrap();
                for n in [min - 1, min, (min + max) / 2, max, max + 1] {
                    out.push(json!(n));
                    out.push(json!(n as f64));
                }
                out.extend([json!(min as f64 + 0.5), json!(1e20), json!(u64::MAX)]);
            }
            Some("number") => {
                out.extend([
                    json!(0),
                    json!(1),
                    json!(0.5),
                    json!(-0.1),
                    json!(1.5),
                    json!(2),
                ]);
            }
            Some("string") => {
                if let Some(values) = schema["enum"].as_array() {
                    out.extend(values.iter().cloned());
                }
                out.extend(
                    [
                        "a", "z", "7", "esc", "f1", "f12", "f13", "A", "", "shift+a", "left",
                        "nope",
                    ]
                    .map(Value::from),
                );
            }
            other => panic!("no candidates for type {other:?}"),
        }
        out
    }

    /// `valid` changed in one place: a property left out or set to one of
    /// its candidates, or an unknown key added.
    fn mutations(schema: &Value, valid: &Value) -> Vec<Value> {
        let mut out = Vec::new();
        let properties = schema["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        for (key, inner) in &properties {
            let mut without = valid.clone();
            without.as_object_mut().unwrap().remove(key);
            out.push(without);
            for candidate in candidates(inner) {
                let mut changed = valid.clone();
                changed[key] = candidate;
                out.push(changed);
            }
        }
        let mut extra = valid.clone();
        extra["launch"] = json!("calc.exe");
        out.push(extra);
        out
    }

    /// What the schema and the parser say of `params` for method `m`.
    fn agree(m: &MethodDef, params: &Value) -> std::result::Result<(), String> {
        let schema = (m.parameters)();
        let validator = jsonschema::validator_for(&schema).unwrap();
        let read = (m.parse)(params);
        if validator.is_valid(params) != read.is_ok() {
            return Err(format!(
                "{} {params}: the schema says {:?}, the parser {read:?}",
                m.name,
                validator
                    .iter_errors(params)
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>(),
            ));
        }
        match read {
            Ok(call) if call.method() != m.method => Err(format!("{} read as {call:?}", m.name)),
            _ => Ok(()),
        }
    }

    /// The schema a method publishes accepts exactly the params its type
    /// reads: every one-place change of valid params, for every method.
    #[test]
    fn the_published_schema_accepts_what_the_call_reads() {
        let mut cases = 0;
        for m in &METHODS {
            let schema = (m.parameters)();
            for valid in [example(&schema, false), example(&schema, true)] {
                agree(m, &valid).unwrap();
                for params in mutations(&schema, &valid) {
                    agree(m, &params).unwrap();
                    cases += 1;
                }
            }
            for not_an_object in [json!([1, 2]), Value::Null, json!("x")] {
                agree(m, &not_an_object).unwrap();
            }
        }
        assert!(cases > 300, "{cases}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// The same, for several changes at once.
        #[test]
        fn the_published_schema_accepts_what_the_call_reads_after_several_changes(
            method in 0..METHODS.len(),
            steps in prop::collection::vec(any::<prop::sample::Index>(), 1..4),
        ) {
            let m = &METHODS[method];
            let schema = (m.parameters)();
            let mut params = example(&schema, true);
            for step in &steps {
                let next = mutations(&schema, &params);
                params = step.get(&next).clone();
            }
            if let Err(why) = agree(m, &params) {
                prop_assert!(false, "{}", why);
            }
        }
    }

    /// Every default the schema states is the one the call applies: params
    /// with the default spelled out read as the same call as params without.
    #[test]
    fn the_published_defaults_are_the_defaults_the_call_applies() {
        let operator = Operator::new();
        let mut defaults = 0;
        for m in &METHODS {
            let schema = (m.parameters)();
            let minimal = example(&schema, false);
            let call = operator.check(m.name, &minimal).unwrap();
            assert_eq!(call.method(), m.method);
            let properties = schema["properties"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            for (key, property) in &properties {
                if let Some(default) = property.get("default") {
                    let mut spelled = minimal.clone();
                    spelled[key] = default.clone();
                    assert_eq!(
                        operator.check(m.name, &spelled).unwrap(),
                        call,
                        "{} {key}",
                        m.name
                    );
                    defaults += 1;
                }
            }
        }
        // click (button, clicks), press_key and drag (durationMs), find_template (threshold).
        assert_eq!(defaults, 5);
    }

    /// A bad value is refused with every violation listed, and a value that
    /// the schema refuses never reaches the call.
    #[test]
    fn bad_params_list_every_violation() {
        let operator = Operator::new();
        let Err(Error::Invalid { violations, .. }) =
            operator.check("click", &json!({"x": 5000, "button": "thumb"}))
        else {
            panic!("accepted");
        };
        assert_eq!(violations.len(), 3, "{violations:?}");
        assert!(matches!(
            operator.check("click", &json!([1, 2])),
            Err(Error::Invalid { .. })
        ));
        assert!(matches!(
            operator.check("scroll", &json!({"amount": 1, "x": null})),
            Err(Error::Invalid { .. })
        ));
    }
}
