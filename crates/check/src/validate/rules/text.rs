//! Text rules (`whitespace`): stray spaces around values and characters
//! nobody sees, with the byte prefilter that keeps most strings fast.

use super::base::Base;
use crate::chars::is_format;
use crate::diagnostics::Code;
use crate::diagnostics::Severity::Warning;
use crate::i18n::{Msg, msg};
use crate::json::{self, Json, Node};
use crate::validate::Reporter;

pub(super) fn whitespace(object: &Node<'_>, base: &Base, field: &str, report: &mut Reporter<'_>) {
    let Some(text) = object.get(field).and_then(Node::as_str) else {
        return;
    };
    let trimmed = text.trim();
    if trimmed.len() != text.len() {
        report.value(
            &format!("{base}/{field}"),
            Code::Whitespace,
            Warning,
            msg!("whitespace-trim", field = field),
            Some(msg!("did-you-mean", name = trimmed)),
        );
    }
}

/// What kind of unwanted character `c` is, if it is one.
fn invisible_class(c: char) -> Option<Msg> {
    let class = match c {
        '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' => msg!("class-zero-width"),
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => msg!("class-bidi"),
        c if c.is_control() => msg!("class-control"),
        c if is_format(c) => msg!("class-format"),
        _ => return None,
    };
    Some(class)
}

/// Whether `text` may hold a control or format character. A first pass
/// marks the bytes that could start one (ASCII controls and the lead bytes
/// C2, D8 to DC, E0 to E2, EF, F0, F3), sixteen at a time; each marked byte
/// is then settled by the bytes after it, so that CJK text and its
/// punctuation (`，` is EF BC 8C, `—` is E2 80 94) pass. Errs only on the
/// safe side: the caller decodes.
fn may_hold_invisible(text: &str, newline_allowed: bool) -> bool {
    let bytes = text.as_bytes();
    let next = |i: usize| bytes.get(i).copied().unwrap_or(0);
    let settled = |i: usize| match bytes[i] {
        b'\n' => !newline_allowed,
        b if b < 0x20 || b == 0x7F => true,
        0xC2 => matches!(next(i + 1), 0x80..=0x9F | 0xAD),
        0xE2 => matches!(
            (next(i + 1), next(i + 2)),
            (0x80, 0x8B..=0x8F | 0xAA..=0xAE) | (0x81, 0xA0..=0xAF)
        ),
        0xEF => matches!(
            (next(i + 1), next(i + 2)),
            (0xBB, 0xBF) | (0xBF, 0xB9..=0xBB)
        ),
        // D8, DB, DC, E0, E1, F0, F3 (and D9, DA, which the first pass
        // lets through): rare, decoded by the caller.
        _ => true,
    };
    let mut base = 0;
    for chunk in bytes.chunks(16) {
        let mut marks = lead_marks(chunk);
        while marks != 0 {
            if settled(base + marks.trailing_zeros() as usize) {
                return true;
            }
            marks &= marks - 1;
        }
        base += chunk.len();
    }
    false
}

/// One bit per byte of `chunk` (at most 16) that may start an invisible
/// character: below 0x20, 0x7F, C2, D8 to DC, E0 to E2, EF, F0 or F3.
fn lead_marks(chunk: &[u8]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if chunk.len() == 16 {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of every x86_64 target, and the load reads
        // exactly the 16 bytes of `chunk`, unaligned.
        unsafe {
            let b = _mm_loadu_si128(chunk.as_ptr().cast());
            let at_most =
                |x: __m128i, max: i8| _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(max)), x);
            let is = |v: u8| _mm_cmpeq_epi8(b, _mm_set1_epi8(v as i8));
            let within =
                |low: u8, span: i8| at_most(_mm_sub_epi8(b, _mm_set1_epi8(low as i8)), span);
            let marks = _mm_or_si128(
                _mm_or_si128(
                    _mm_or_si128(at_most(b, 0x1F), is(0x7F)),
                    _mm_or_si128(is(0xC2), within(0xD8, 4)),
                ),
                _mm_or_si128(
                    _mm_or_si128(within(0xE0, 2), is(0xEF)),
                    _mm_or_si128(is(0xF0), is(0xF3)),
                ),
            );
            return _mm_movemask_epi8(marks) as u32;
        }
    }
    chunk.iter().enumerate().fold(0, |marks, (k, &b)| {
        let lead = b < 0x20
            || b == 0x7F
            || b == 0xC2
            || (0xD8..=0xDC).contains(&b)
            || (0xE0..=0xE2).contains(&b)
            || matches!(b, 0xEF | 0xF0 | 0xF3);
        marks | (u32::from(lead) << k)
    })
}

/// `whitespace` for characters nobody sees: control characters, zero-width
/// ones, bidi controls and every other format character, in every string of
/// the file (line breaks are fine in a `description`). Reported at the
/// character itself.
pub fn invisible(node: &Node<'_>, key: Option<&str>, report: &mut Reporter<'_>) {
    match &node.value {
        Json::String(text) => {
            // Line breaks belong in an activity's description and an announcement's content.
            let multiline = matches!(key, Some("description" | "content"));
            if !may_hold_invisible(text, multiline) {
                return;
            }
            let field = key.unwrap_or("");
            let (inner, inner_end) = json::string_inner(report.text(), node.start, node.end);
            let raw = report.source(inner, inner_end);
            for (index, c) in text.chars().enumerate() {
                if c == '\n' && multiline {
                    continue;
                }
                let Some(class) = invisible_class(c) else {
                    continue;
                };
                let in_raw = json::raw_offset(raw, index);
                let offset = inner + in_raw;
                let escaped = raw.as_bytes().get(in_raw) == Some(&b'\\');
                let at = report.location(offset, offset + 1);
                let help = if escaped {
                    msg!("invisible-escaped-help", line = at.line, column = at.column)
                } else {
                    msg!("invisible-help", line = at.line, column = at.column)
                };
                report.push(
                    at,
                    Code::Whitespace,
                    Warning,
                    msg!(
                        "invisible",
                        keyed = if key.is_some() { "yes" } else { "no" },
                        field = field,
                        class = class,
                        code = format!("{:04X}", c as u32),
                        column = at.column
                    ),
                    Some(help),
                );
                // The character as written: itself, or its escape.
                let written = if !escaped {
                    c.len_utf8()
                } else if raw.as_bytes().get(in_raw + 1) == Some(&b'u') {
                    if c as u32 > 0xFFFF { 12 } else { 6 }
                } else {
                    2
                };
                report.fix_range(offset, offset + written, String::new());
            }
        }
        Json::Array(items) => {
            for item in items {
                invisible(item, key, report);
            }
        }
        Json::Object(members) => {
            for member in members {
                invisible(&member.value, Some(&member.key), report);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte prefilter never rules out a character that
    /// `invisible_class` names, alone or between other text, and rules out
    /// common CJK punctuation (and a line break where one is allowed).
    #[test]
    fn the_prefilter_keeps_every_invisible_character() {
        let mut named = 0;
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            if invisible_class(c).is_some() {
                named += 1;
                let code = format!("U+{:04X}", c as u32);
                assert!(may_hold_invisible(&c.to_string(), false), "{code}");
                // Across the 32-byte chunks: early, and at the end of a long text.
                let long = format!("活动{c}名，{}", "x".repeat(40));
                assert!(may_hold_invisible(&long, c != '\n'), "{code}");
                assert!(may_hold_invisible(&format!("{long}{c}"), false), "{code}");
                // At every offset of a 16-byte chunk, and in the scalar tail.
                for offset in 0..40 {
                    let text = format!(
                        "{}{c}{}",
                        "活".repeat(offset % 3) + &"x".repeat(offset),
                        "y".repeat(offset % 17)
                    );
                    assert!(may_hold_invisible(&text, false), "{code} after {offset}");
                }
            }
        }
        assert!(named > 200, "{named}");
        for text in [
            "限时活动：“星海”——开启！",
            "（复刻）…",
            "plain ascii",
            "\n",
            "裂隙奏鸣星海深渊余烬签到，庭院灯会霜烛虚构忆庭祈愿回声咖啡馆回声庆典。签到潮汐——调频试炼！",
        ] {
            assert_eq!(may_hold_invisible(text, false), text == "\n", "{text}");
            assert!(!may_hold_invisible(text, true), "{text}");
        }
    }
}
