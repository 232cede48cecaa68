//! The one rule for names that become files or identifiers: configuration
//! names, extension ids and operator method names.
//!
//! A name is normalised to Unicode NFC (so `é` typed two ways is one name)
//! and refused when it could make two names look the same or break on
//! another system: control, format, bidi and zero-width characters, a
//! leading byte-order mark, a leading dot (a hidden file), a trailing dot or
//! space, the characters Windows forbids in file names and their look-alikes
//! and of a space ([`LOOK_ALIKES`]: `／`, `∖`, `∶`, `∗`, `∣`, `‹`, `⠀`, ...),
//! its device names ([`DEVICE_NAMES`], `COM0`-`COM9`, `LPT0`-`LPT9`, with or
//! without an extension), and more than 255 bytes. Knows nothing of where
//! names are stored.

use unicode_normalization::UnicodeNormalization;

use stdx::chars;

/// The longest name, in bytes of UTF-8 (a file name on common file systems).
pub const MAX_NAME_BYTES: usize = 255;

/// Characters Windows forbids in file names.
pub const FORBIDDEN_CHARS: [char; 9] = ['\\', '/', ':', '*', '?', '"', '<', '>', '|'];

/// Characters that read as one Windows forbids, or as a space, and what
/// each reads as: slashes and reverse solidi (fullwidth, division,
/// fraction, big, set minus), colons (ratio, modifier letters), asterisks
/// (operator, low, heavy), double quotes (double primes), angle quotes
/// and modifier arrowheads for `<` and `>`, vertical lines (divides, box
/// drawing, dental click, paseq) and the braille blank that reads as a
/// trailing space. A name holding one reads as a path or a name Windows
/// refuses, but is another file. (Fullwidth and small forms such as `：`
/// or `﹡` are refused through their compatibility form.) SECURITY.md
/// lists them; a test holds the two lists equal.
pub const LOOK_ALIKES: [(char, &str); 31] = [
    ('\u{FF0F}', "/"),
    ('\u{2215}', "/"),
    ('\u{2044}', "/"),
    ('\u{29F8}', "/"),
    ('\u{FF3C}', "\\"),
    ('\u{29F5}', "\\"),
    ('\u{29F9}', "\\"),
    ('\u{FE68}', "\\"),
    ('\u{2216}', "\\"),
    ('\u{2236}', ":"),
    ('\u{A789}', ":"),
    ('\u{02D0}', ":"),
    ('\u{2217}', "*"),
    ('\u{204E}', "*"),
    ('\u{2731}', "*"),
    ('\u{02BA}', "\""),
    ('\u{2033}', "\""),
    ('\u{2039}', "<"),
    ('\u{02C2}', "<"),
    ('\u{1438}', "<"),
    ('\u{203A}', ">"),
    ('\u{02C3}', ">"),
    ('\u{1433}', ">"),
    ('\u{2223}', "|"),
    ('\u{2502}', "|"),
    ('\u{01C0}', "|"),
    ('\u{05C0}', "|"),
    ('\u{23D0}', "|"),
    ('\u{2758}', "|"),
    ('\u{FFE8}', "|"),
    ('\u{2800}', "a space"),
];

/// Windows device names, refused with any extension and in any case; and
/// `COM` and `LPT` followed by a digit 0-9 or a superscript ¹ ² ³.
pub const DEVICE_NAMES: [&str; 6] = ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"];

/// Checks `name` (`what` names its kind in messages, such as "configuration
/// name") and returns its NFC form, or why it is refused. The rules apply to
/// the name and to its compatibility form (NFKC) alike, so a name that only
/// reads as a refused one (`Default` with a trailing no-break space, a
/// leading en quad, a full-width dot) is refused too.
pub fn check_name(what: &str, name: &str) -> Result<String, String> {
    let nfc = check_form(what, name)?;
    let compatible: String = nfc.nfkc().collect();
    if compatible != nfc
        && let Err(problem) = check_form(what, &compatible)
    {
        return Err(format!(
            "the {what} `{nfc}` reads as `{compatible}` once its compatibility characters (no-break or wide spaces, full-width letters) are replaced, and {problem}; help: type it with ordinary characters"
        ));
    }
    Ok(nfc)
}

/// The rules of [`check_name`] on one form of a name.
fn check_form(what: &str, name: &str) -> Result<String, String> {
    if name.is_empty() {
        return Err(format!("the {what} is empty"));
    }
    if name.starts_with('\u{feff}') {
        return Err(format!(
            "the {what} starts with a byte-order mark (U+FEFF); help: remove the invisible first character"
        ));
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        return Err(format!(
            "the {what} {name:?} contains the control character U+{:04X}",
            u32::from(c)
        ));
    }
    if let Some(c) = name.chars().find(|c| is_invisible(*c)) {
        return Err(format!(
            "the {what} {name:?} contains the invisible character U+{:04X} (format, bidi or zero-width); help: retype the name without it",
            u32::from(c)
        ));
    }
    let name: String = name.nfc().collect();
    if let Some(c) = name.chars().find(|c| FORBIDDEN_CHARS.contains(c)) {
        return Err(format!(
            "the {what} `{name}` contains the forbidden character `{c}` (forbidden: \\ / : * ? \" < > |)"
        ));
    }
    if let Some((c, reads_as)) = name
        .chars()
        .find_map(|c| LOOK_ALIKES.iter().find(|(l, _)| *l == c))
    {
        let reads_as = if reads_as.chars().count() == 1 {
            format!("`{reads_as}`")
        } else {
            reads_as.to_string()
        };
        return Err(format!(
            "the {what} `{name}` contains `{c}` (U+{:04X}), which reads as {reads_as}; help: use another character",
            u32::from(*c)
        ));
    }
    if name == "." || name == ".." {
        return Err(format!("`{name}` is not a usable {what}"));
    }
    if name.starts_with('.') {
        return Err(format!(
            "the {what} `{name}` starts with a dot, which hides its file; help: remove the leading dot"
        ));
    }
    if name.starts_with(' ') {
        return Err(format!("the {what} `{name}` starts with a space"));
    }
    if name.ends_with(' ') || name.ends_with('.') {
        return Err(format!(
            "the {what} `{name}` ends with a dot or a space, which Windows drops from file names"
        ));
    }
    if is_device_name(&name) {
        return Err(format!(
            "the {what} `{name}` is a Windows device name (CON, PRN, AUX, NUL, CONIN$, CONOUT$, COM0-9, LPT0-9), which cannot be a file there"
        ));
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(format!(
            "the {what} is {} bytes long; the limit is {MAX_NAME_BYTES} bytes of UTF-8",
            name.len()
        ));
    }
    Ok(name)
}

/// The key under which names are one name: the compatibility form (NFKC)
/// with letter case folded, so `Default`, `dEFAULT`, `Ｄｅｆａｕｌｔ` and
/// `Cafe\u{301}` beside `CAFÉ` each share a key. Names in other scripts that
/// merely look alike (Cyrillic `е` for Latin `e`) keep their own keys: they
/// are different letters.
pub fn fold(name: &str) -> String {
    let lower: String = name.nfkc().flat_map(char::to_lowercase).collect();
    lower.nfkc().collect()
}

/// Whether two names are one name ([`fold`]).
pub fn same_name(a: &str, b: &str) -> bool {
    fold(a) == fold(b)
}

/// `CON`, `nul.json`, `Com1.tar.gz`, `LPT9 .txt`: the part before the first
/// dot, without trailing spaces, is a device name.
fn is_device_name(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name).trim_end_matches(' ');
    let upper = stem.to_uppercase();
    if DEVICE_NAMES.contains(&upper.as_str()) {
        return true;
    }
    let Some(digit) = upper
        .strip_prefix("COM")
        .or_else(|| upper.strip_prefix("LPT"))
    else {
        return false;
    };
    let mut chars = digit.chars();
    matches!(
        (chars.next(), chars.next()),
        (Some('0'..='9' | '¹' | '²' | '³'), None)
    )
}

/// Format characters ([`chars::is_format`]: bidi controls, zero-width
/// joiners, the BOM, tags), and what names add to them: line and paragraph
/// separators, variation selectors, the combining grapheme joiner, the
/// whole tag block and the invisible fillers that render as nothing.
pub fn is_invisible(c: char) -> bool {
    chars::is_format(c)
        || matches!(
            u32::from(c),
            0x034F
                | 0x115F..=0x1160
                | 0x17B4..=0x17B5
                | 0x180B..=0x180F
                | 0x2028..=0x2029
                | 0x2065
                | 0x3164
                | 0xFE00..=0xFE0F
                | 0xFFA0
                | 0xE0000..=0xE0FFF
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_normalised_to_nfc() {
        assert_eq!(check_name("name", "Cafe\u{301}").unwrap(), "Caf\u{e9}");
        assert_eq!(check_name("name", "日常").unwrap(), "日常");
    }

    #[test]
    fn look_alike_and_unportable_names_are_refused() {
        let long = "é".repeat(128);
        for bad in [
            "",
            "\u{feff}Default",
            "a\u{7}b",
            "a\u{200b}b",
            "a\u{202e}b",
            "a\u{2066}b",
            "a\u{200d}b",
            "a\u{e0041}",
            "a/b",
            "a:b",
            ".",
            "..",
            " a",
            "a ",
            "a.",
            "CON",
            "con",
            "Nul.json",
            "aux.tar.gz",
            "COM1",
            "lpt9.txt",
            "COM¹",
            "PRN .txt",
            ".hidden",
            "a\u{ff0f}b",
            "a\u{2215}b",
            "a\u{29f8}b",
            "a\u{ff3c}b",
            "lpt0.txt",
            "conout$.log",
            &long,
        ] {
            assert!(check_name("name", bad).is_err(), "{bad:?}");
        }
        for good in ["CONFIG", "COM10", "LPT", "console", "a.b", "Daily run"] {
            assert!(check_name("name", good).is_ok(), "{good:?}");
        }
    }

    #[test]
    fn case_and_normalisation_are_ignored_when_comparing() {
        assert!(same_name("Default", "dEFAULT"));
        assert!(same_name("Caf\u{e9}", "CAFE\u{301}"));
        assert!(same_name("Default", "\u{ff24}efault"));
        assert!(same_name("\u{212a}elvin", "kelvin"));
        assert!(same_name("\u{212b}", "a\u{30a}"));
        assert!(same_name("a\u{3000}b", "A b"));
        assert!(!same_name("Default", "Default2"));
        assert!(
            !same_name("Default", "D\u{435}fault"),
            "Cyrillic е is another letter"
        );
    }

    #[test]
    fn names_that_read_as_refused_ones_are_refused() {
        for bad in [
            "Default\u{a0}",
            "\u{2000}Default",
            "\u{ff0e}hidden",
            "Daily\u{ff0e}",
            "\u{ff23}\u{ff2f}\u{ff2e}",
        ] {
            assert!(check_name("name", bad).is_err(), "{bad:?}");
        }
        assert_eq!(check_name("name", "a\u{3000}b").unwrap(), "a\u{3000}b");
    }
}
