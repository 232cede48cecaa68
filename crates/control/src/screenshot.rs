//! The simulated screenshot: the game window drawn from the operator's
//! window state and the runner's status, as a 1280x720 RGB PNG.
//!
//! A small software rasteriser (filled rectangles, frames and the 5x7
//! bitmap text of [`font`](super::font)) is all the picture needs: a few
//! dozen flat shapes and upper-case labels. It draws nothing it reads from
//! disk and knows nothing of HTTP or of the operator's calls.

use crate::font::glyph;
use crate::runner::{RunState, TASKS, TaskStatus};

/// Width of the simulated game window.
pub const WIDTH: u32 = 1280;
/// Height of the simulated game window.
pub const HEIGHT: u32 = 720;

/// The simulated window: what the calls change and the screenshot draws.
#[derive(Debug, Clone)]
pub(crate) struct Window {
    /// Where the pointer is.
    pub cursor: (u32, u32),
    /// The last 16 clicks, oldest first.
    pub clicks: Vec<(u32, u32)>,
    pub focused: bool,
    pub minimized: bool,
    /// The scroll offset, the sum of every `scroll` amount.
    pub scroll: i64,
    /// The last key pressed.
    pub last_key: Option<String>,
}

/// Draws the window as an RGB 1280x720 image and encodes it as PNG.
pub(crate) fn png(status: &TaskStatus, window: &Window) -> anyhow::Result<Vec<u8>> {
    let pixels = draw(status, window);
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

type Rgb = [u8; 3];

/// A rectangle of the window, in pixels from its top left corner.
#[derive(Debug, Clone, Copy)]
struct Rect {
    x: i64,
    y: i64,
    w: i64,
    h: i64,
}

/// The rectangle at `(x, y)`, `w` wide and `h` high.
const fn area(x: i64, y: i64, w: i64, h: i64) -> Rect {
    Rect { x, y, w, h }
}

/// Where text starts (its top left corner) and the size of its pixels.
#[derive(Debug, Clone, Copy)]
struct Pen {
    x: i64,
    y: i64,
    scale: i64,
}

/// The pen at `(x, y)` that draws pixels `scale` wide.
const fn pen(x: i64, y: i64, scale: i64) -> Pen {
    Pen { x, y, scale }
}

struct Canvas {
    pixels: Vec<u8>,
}

impl Canvas {
    fn rect(&mut self, area: Rect, color: Rgb) {
        let Rect { x, y, w, h } = area;
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

    /// Draws `text` with the 5x7 font from `pen`'s place at its scale,
    /// clipped to the window.
    fn text(&mut self, pen: Pen, text: &str, color: Rgb) {
        let Pen { x, y, scale } = pen;
        for (i, c) in text.chars().enumerate() {
            let left = x + i as i64 * 6 * scale;
            if left >= WIDTH as i64 {
                break;
            }
            for (row, bits) in glyph(c).iter().enumerate() {
                for col in 0..5 {
                    if bits & (0b10000 >> col) != 0 {
                        self.rect(
                            area(left + col * scale, y + row as i64 * scale, scale, scale),
                            color,
                        );
                    }
                }
            }
        }
    }

    /// The border of `edge`, `t` pixels thick.
    fn frame(&mut self, edge: Rect, t: i64, color: Rgb) {
        let Rect { x, y, w, h } = edge;
        self.rect(area(x, y, w, t), color);
        self.rect(area(x, y + h - t, w, t), color);
        self.rect(area(x, y, t, h), color);
        self.rect(area(x + w - t, y, t, h), color);
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
        c.rect(area(0, y, WIDTH as i64, 1), color);
    }
    // Title bar; dimmed when the window has no focus.
    c.rect(
        area(0, 0, WIDTH as i64, 36),
        if w.focused {
            [40, 44, 60]
        } else {
            [70, 70, 70]
        },
    );
    c.rect(area(WIDTH as i64 - 44, 8, 20, 20), [200, 70, 70]);
    // Status colour bar and progress.
    let accent: Rgb = match status.status {
        RunState::Idle => [120, 120, 130],
        RunState::Running if status.stopping => [230, 170, 60],
        RunState::Running => [70, 190, 110],
        RunState::Completed => [80, 140, 230],
        RunState::Stopped => [200, 140, 60],
        RunState::Failed => [220, 60, 60],
    };
    c.rect(area(40, 80, 1200, 8), accent);
    c.frame(area(40, 110, 1200, 40), 3, [220, 220, 230]);
    let fraction = if status.total_tasks == 0 {
        if status.status == RunState::Completed {
            1.0
        } else {
            0.0
        }
    } else {
        status.completed_tasks as f64 / status.total_tasks as f64
    };
    c.rect(
        area(46, 116, ((1188.0 * fraction) as i64).max(0), 28),
        accent,
    );
    // One tile per task: filled when enabled in the current job's progress.
    for (i, task) in TASKS.iter().enumerate() {
        let x = 40 + i as i64 * 244;
        let current = status.current_task.as_deref() == Some(task.class);
        let color = if current { accent } else { [60, 66, 90] };
        c.rect(area(x, 200, 220, 300), color);
        c.frame(area(x, 200, 220, 300), 2, [200, 200, 210]);
    }
    // Text: what the simulated game shows.
    const WHITE: Rgb = [235, 238, 245];
    c.text(pen(12, 11, 2), "STAR RAIL (SIMULATED)", WHITE);
    let state = serde_json::to_value(status.status)
        .ok()
        .and_then(|v| v.as_str().map(str::to_uppercase))
        .unwrap_or_default();
    c.text(pen(40, 50, 3), &format!("STATUS: {state}"), WHITE);
    c.text(pen(40, 160, 3), &status.progress, WHITE);
    for (i, task) in TASKS.iter().enumerate() {
        let x = 40 + i as i64 * 244;
        c.text(pen(x + 12, 220, 3), &format!("{i}"), WHITE);
        c.text(
            pen(x + 10, 260, 2),
            task.class.trim_end_matches("Task"),
            WHITE,
        );
    }
    if let Some(error) = &status.error {
        c.text(pen(40, 520, 2), error, [255, 150, 150]);
    }
    if let Some(key) = &w.last_key {
        c.text(pen(40, 680, 2), &format!("LAST KEY: {key}"), WHITE);
    }
    c.text(
        pen(900, 680, 2),
        &format!(
            "SESSION {} STEP {}MS",
            status.backend.session, status.backend.step_ms
        ),
        WHITE,
    );
    // Scroll indicator.
    let offset = w.scroll.clamp(-50, 50) * 4;
    c.rect(area(1250, 330 - offset, 10, 60), [200, 200, 220]);
    // Recent clicks as small squares, the cursor as a crosshair.
    for &(x, y) in &w.clicks {
        c.rect(area(x as i64 - 4, y as i64 - 4, 9, 9), [250, 220, 90]);
    }
    let (x, y) = (w.cursor.0 as i64, w.cursor.1 as i64);
    c.rect(area(x - 12, y - 1, 25, 3), [255, 255, 255]);
    c.rect(area(x - 1, y - 12, 3, 25), [255, 255, 255]);
    c.pixels
}
