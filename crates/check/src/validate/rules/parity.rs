//! `locale-parity`: every locale of a game against its default locale.

// A fast, seeded hasher for the maps of short strings built for every document.
use foldhash::{HashMap, HashMapExt as _};

use crate::diagnostics::Code;
use crate::diagnostics::Severity::Warning;
use crate::i18n::{Msg, msg};
use crate::json::Node;
use crate::validate::{JsonFile, Reporter};

/// `locale-parity`: `other` must agree with the default locale's document on
/// the version, its window and the set of activity time windows. A short
/// message with the details as notes: a version that differs on the
/// document that is behind (the one whose version starts earlier; `other`
/// when neither does), activity times that differ both ways on `other`
/// (with every difference);
/// otherwise on the file that lacks activities the other has, which ones.
pub fn locale_parity<'r>(
    default: &JsonFile<'_>,
    other: &JsonFile<'_>,
    on_default: &mut Reporter<'r>,
    on_other: &mut Reporter<'r>,
) {
    let behind = Behind::of(default, other);
    let theirs = windows(&default.root);
    let ours = windows(&other.root);
    let (only_default, only_other) = unmatched(&theirs, &ours);
    let (fields, at) = version_fields(default, other, behind);
    if let Some(at) = at {
        // Another version: its activities differ as a consequence; every
        // difference is a note of the one warning, on the document behind.
        let (report, ahead, missing, extra) = if behind == Behind::Default {
            (on_default, other.path, &only_other, &only_default)
        } else {
            (on_other, default.path, &only_default, &only_other)
        };
        report.value(
            &at,
            Code::LocaleParity,
            Warning,
            if behind == Behind::Neither {
                msg!("parity-version", path = ahead)
            } else {
                msg!("parity-behind", path = ahead)
            },
            Some(msg!("parity-help")),
        );
        for field in fields {
            report.note(field);
        }
        both_ways(report, missing, extra);
        return;
    }
    // An activity in both with other times: one finding naming its id.
    let (moved, only_default, only_other) = moved_by_id(only_default, only_other);
    for (theirs, ours) in &moved {
        let (((start, end), name, index, id), ((there_start, there_end), ..)) = (ours, theirs);
        on_other.value(
            &format!("/activities/{index}"),
            Code::LocaleParity,
            Warning,
            msg!(
                "parity-moved",
                id = id.unwrap_or(""),
                name = *name,
                path = default.path,
                here = format!("{start} – {end}"),
                there = format!("{there_start} – {there_end}")
            ),
            Some(msg!("parity-moved-help", path = default.path)),
        );
    }
    if !only_default.is_empty() && !only_other.is_empty() {
        // Both lack something: times that moved, most often. One warning on
        // the other locale's file (the default is the reference), at its
        // first activity without a twin.
        on_other.value(
            &format!("/activities/{}", only_other[0].2),
            Code::LocaleParity,
            Warning,
            msg!("parity-times", path = default.path),
            Some(msg!("parity-help")),
        );
        both_ways(on_other, &only_default, &only_other);
        return;
    }
    missing(on_other, &only_default, default.path);
    missing(on_default, &only_other, other.path);
}

/// Which of two locales' documents is behind: the one whose version
/// starts earlier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Behind {
    Default,
    Other,
    /// Neither starts earlier (or a start is not known).
    Neither,
}

impl Behind {
    fn of(default: &JsonFile<'_>, other: &JsonFile<'_>) -> Self {
        let start = |doc: &JsonFile<'_>| {
            doc.root
                .get("startTime")
                .and_then(Node::as_str)
                .map(str::to_owned)
        };
        match (start(default), start(other)) {
            (Some(a), Some(b)) if a < b => Behind::Default,
            (Some(a), Some(b)) if a > b => Behind::Other,
            _ => Behind::Neither,
        }
    }
}

/// The version fields that differ, each a note said from the document
/// that is behind (the other locale's when neither is), and the pointer
/// of the first.
fn version_fields(
    default: &JsonFile<'_>,
    other: &JsonFile<'_>,
    behind: Behind,
) -> (Vec<Msg>, Option<String>) {
    let mut fields = Vec::new();
    let mut at: Option<String> = None;
    for field in ["version", "startTime", "endTime"] {
        let (Some(a), Some(b)) = (
            default.root.get(field).and_then(Node::as_str),
            other.root.get(field).and_then(Node::as_str),
        ) else {
            continue;
        };
        if a != b {
            let (here, there) = if behind == Behind::Default {
                (a, b)
            } else {
                (b, a)
            };
            fields.push(msg!(
                "parity-field",
                field = field,
                here = here,
                there = there
            ));
            at.get_or_insert_with(|| format!("/{field}"));
        }
    }
    (fields, at)
}

/// An activity's time window (start, end), its name, its index and its id.
type Windowed<'d> = ((&'d str, &'d str), &'d str, usize, Option<&'d str>);

/// Each activity's time window, with its name, index and id.
fn windows<'d>(doc: &'d Node<'d>) -> Vec<Windowed<'d>> {
    super::base::activities(doc)
        .into_iter()
        .filter_map(|a| Some((a.window?, a.name, a.index, a.id.flatten())))
        .collect()
}

/// Of the activities without a twin by times on either side, those with
/// the same id on both (the same activity, with other times): the pairs
/// (the default's, the other's), and what is left of each side.
#[allow(clippy::type_complexity)]
fn moved_by_id<'d>(
    only_default: Vec<Windowed<'d>>,
    only_other: Vec<Windowed<'d>>,
) -> (
    Vec<(Windowed<'d>, Windowed<'d>)>,
    Vec<Windowed<'d>>,
    Vec<Windowed<'d>>,
) {
    let mut theirs: HashMap<&str, Windowed<'d>> = HashMap::with_capacity(only_default.len());
    for w in &only_default {
        if let Some(id) = w.3 {
            theirs.insert(id, *w);
        }
    }
    let mut moved = Vec::new();
    let mut left_other = Vec::new();
    for w in only_other {
        match w.3.and_then(|id| theirs.remove(id)) {
            Some(twin) => moved.push((twin, w)),
            None => left_other.push(w),
        }
    }
    let taken: foldhash::HashSet<usize> = moved.iter().map(|(t, _)| t.2).collect();
    let left_default = only_default
        .into_iter()
        .filter(|w| !taken.contains(&w.2))
        .collect();
    (moved, left_default, left_other)
}

/// The windows of `theirs` (the default's) and of `ours` (the other
/// locale's) without a twin on the other side, matched as multisets: each
/// of ours takes one of theirs. Theirs in their order.
fn unmatched<'d>(
    theirs: &[Windowed<'d>],
    ours: &[Windowed<'d>],
) -> (Vec<Windowed<'d>>, Vec<Windowed<'d>>) {
    let mut remaining: HashMap<(&str, &str), Vec<usize>> = HashMap::with_capacity(theirs.len());
    for (k, (window, ..)) in theirs.iter().enumerate() {
        remaining.entry(*window).or_default().push(k);
    }
    let mut only_other = Vec::new();
    for w in ours {
        match remaining.get_mut(&w.0).and_then(Vec::pop) {
            Some(_) => {}
            None => only_other.push(*w),
        }
    }
    let mut only_default: Vec<_> = remaining
        .into_values()
        .flatten()
        .map(|k| theirs[k])
        .collect();
    only_default.sort_by_key(|w| w.2);
    (only_default, only_other)
}

/// One note per activity, at most a few, then how many more.
fn notes(report: &mut Reporter<'_>, note: fn(&str, &str, &str) -> Msg, list: &[Windowed<'_>]) {
    const SHOWN: usize = 5;
    for ((start, end), name, ..) in list.iter().take(SHOWN) {
        report.note(note(name, start, end));
    }
    if list.len() > SHOWN {
        report.note(msg!("parity-more", count = list.len() - SHOWN));
    }
}

/// The notes of a warning on the other locale's file: what it lacks of
/// the default's activities, then what it has that the default lacks.
fn both_ways(
    report: &mut Reporter<'_>,
    only_default: &[Windowed<'_>],
    only_other: &[Windowed<'_>],
) {
    notes(
        report,
        |name, start, end| msg!("parity-note-missing", name = name, start = start, end = end),
        only_default,
    );
    notes(
        report,
        |name, start, end| msg!("parity-note-extra", name = name, start = start, end = end),
        only_other,
    );
}

/// A warning on a document that lacks activities the document at `there`
/// has (`missing`), with a note for each.
fn missing(report: &mut Reporter<'_>, missing: &[Windowed<'_>], there: &str) {
    if missing.is_empty() {
        return;
    }
    report.value(
        "/activities",
        Code::LocaleParity,
        Warning,
        msg!("parity-missing", count = missing.len(), path = there),
        Some(msg!(
            "parity-missing-help",
            count = missing.len(),
            path = there
        )),
    );
    notes(
        report,
        |name, start, end| msg!("parity-window", name = name, start = start, end = end),
        missing,
    );
}
