//! Activity ids: their form, and the next fresh one. No I/O.
//!
//! An id is `<game>-<version>-<nn>`: the game's id, the version the
//! activity was first given an id in (as a slug: `4.6`, `2026-10`) and a
//! number counted per game and version from `01` (`sr-4.6-03`,
//! `ba-global-2026-10-02`). It reads in a diff and in a URL, sorts in the
//! order ids were given, and says where an activity came from; but it is
//! data, assigned once and never derived again: a rename, a corrected time
//! or the next version keeps it, so an activity carried into version 4.7
//! stays `sr-4.6-03`. The checker's `missing-id` fix (`check --fix`, the
//! editor's and the agents' fix) assigns ids; `version new` carries them;
//! nothing else makes one.

/// Whether `id` has the form of an activity id: lowercase ASCII letters
/// and digits in parts joined by single `.` or `-`
/// (`^[a-z0-9]+(?:[.-][a-z0-9]+)*$`, the schema's pattern).
pub fn is_activity_id(id: &str) -> bool {
    !id.is_empty()
        && id.split(['.', '-']).all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// The version as a part of an id: lowercase ASCII letters, digits and
/// `.`, anything else a `-`, no separator doubled or at either end
/// (`4.6` stays, `Ver 2.0` is `ver-2.0`); empty when nothing is left.
pub fn version_slug(version: &str) -> String {
    let mut slug = String::with_capacity(version.len());
    for c in version.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with(['.', '-']) {
            slug.push(if c == '.' { '.' } else { '-' });
        }
    }
    while slug.ends_with(['.', '-']) {
        slug.pop();
    }
    slug
}

/// The part every fresh id of `game`'s `version` starts with:
/// `sr-4.6-` (`sr-` when the version gives no slug).
pub fn prefix(game: &str, version: &str) -> String {
    let slug = version_slug(version);
    if slug.is_empty() {
        format!("{game}-")
    } else {
        format!("{game}-{slug}-")
    }
}

/// The number of `id` when it is one of `prefix`'s (`sr-4.6-03` of
/// `sr-4.6-` is 3).
pub fn number(id: &str, prefix: &str) -> Option<u32> {
    let rest = id.strip_prefix(prefix)?;
    (!rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
        .then(|| rest.parse().ok())
        .flatten()
}

/// The id numbered `n` under `prefix`: two digits at least (`sr-4.6-03`).
pub fn numbered(prefix: &str, n: u32) -> String {
    format!("{prefix}{n:02}")
}

/// Hands out fresh ids under each prefix, above every number already used
/// (an id is never given twice, not even one a removed activity had while
/// it is still in the files).
#[derive(Debug, Default)]
pub struct Fresh {
    used: std::collections::BTreeSet<String>,
    next: std::collections::BTreeMap<String, u32>,
}

impl Fresh {
    /// A counter that knows the ids in use.
    pub fn new<'a>(used: impl IntoIterator<Item = &'a str>) -> Fresh {
        Fresh {
            used: used.into_iter().map(str::to_owned).collect(),
            next: Default::default(),
        }
    }

    /// The next fresh id under `prefix`.
    pub fn take(&mut self, prefix: &str) -> String {
        let used = &self.used;
        let next = self.next.entry(prefix.to_owned()).or_insert_with(|| {
            used.iter()
                .filter_map(|id| number(id, prefix))
                .max()
                .unwrap_or(0)
                + 1
        });
        loop {
            let id = numbered(prefix, *next);
            *next += 1;
            if self.used.insert(id.clone()) {
                return id;
            }
        }
    }
}

/// The ids a base revision of the tree gave (`check --changed-since REV`,
/// or the checkout's `HEAD`): what `missing-id` gives back to the
/// activities a rewrite left without theirs. Read by
/// `crate::bases::ids_at`; plain data here.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Base {
    /// The revision as it was named (`HEAD`, `main~2`).
    pub rev: String,
    /// Each data file's activities that had an id there, by the file's
    /// path relative to the root.
    pub files: std::collections::HashMap<String, Vec<BaseActivity>>,
}

/// An activity of a base file that had an id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseActivity {
    pub id: String,
    pub name: String,
    pub start: String,
    pub end: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_the_schemas_form() {
        for good in ["sr-4.6-03", "ba-global-2026-10-02", "x-1"] {
            assert!(is_activity_id(good), "{good}");
        }
        for bad in [
            "",
            "SR-1",
            "sr--1",
            "sr-1.",
            "-sr",
            "sr 1",
            "sr_1",
            "sr-4.6-0３",
        ] {
            assert!(!is_activity_id(bad), "{bad}");
        }
    }

    #[test]
    fn a_version_becomes_a_slug_of_the_form() {
        assert_eq!(version_slug("4.6"), "4.6");
        assert_eq!(version_slug("2026-10"), "2026-10");
        assert_eq!(version_slug(" Ver 2.0 (beta) "), "ver-2.0-beta");
        assert_eq!(version_slug("第二章"), "");
        assert_eq!(prefix("sr", "4.6"), "sr-4.6-");
        assert_eq!(prefix("ak", "第二章"), "ak-");
        assert!(is_activity_id(&numbered(&prefix("g", "Ver 2.0 (beta)"), 1)));
    }

    #[test]
    fn fresh_ids_count_above_the_ones_in_use() {
        let mut fresh = Fresh::new(["sr-4.6-01", "sr-4.6-07", "sr-4.5-09", "sr-4.6-x"]);
        assert_eq!(fresh.take("sr-4.6-"), "sr-4.6-08");
        assert_eq!(fresh.take("sr-4.6-"), "sr-4.6-09");
        assert_eq!(fresh.take("sr-4.7-"), "sr-4.7-01");
        assert_eq!(number("sr-4.6-100", "sr-4.6-"), Some(100));
        assert_eq!(numbered("sr-4.6-", 100), "sr-4.6-100");
    }
}
