//! Character classes shared by the rules that refuse what a reader cannot
//! see: the `whitespace` rule of `check` (`activity_site::validate`) and the names
//! of the control service (`activity_site_control::names`). Each adds its own
//! classes on top of this base table. Also the one way to cut UTF-8 text at
//! a byte offset without splitting a character ([`floor_char_boundary`]).
//! A leaf.

/// The largest character boundary of `text` at or before byte `i`.
pub fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// How many terminal columns `text` takes: two for each CJK character, so
/// tables of Chinese text line up.
pub fn display_width(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

/// Whether `c` is of the Unicode general category Cf (format: zero-width
/// characters, bidi controls, the byte-order mark, tags), Unicode 15.
pub fn is_format(c: char) -> bool {
    matches!(
        c as u32,
        0xAD | 0x600..=0x605
            | 0x61C
            | 0x6DD
            | 0x70F
            | 0x890..=0x891
            | 0x8E2
            | 0x180E
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0001
            | 0xE0020..=0xE007F
    )
}
