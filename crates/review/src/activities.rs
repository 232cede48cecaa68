//! What a review says of an activity document: its fields (version,
//! name, window, cover) and its activities, matched by `id` where both
//! sides have one (the same activity, **renamed** or **moved** as its name
//! or times changed), then by name and window, then as **renamed** (same
//! start and end, new name) or **moved** (same name, new times), and only
//! then counted as added or removed. An id lost or changed on an activity
//! that runs is breaking. A removed
//! activity is placed against the moment of the review ([`When`]): ended
//! before it (listed, nothing to fear), running (breaking) or not started
//! yet (a warning). When the version changes, the activities kept into
//! the new one are listed as **carried**. A version going backwards, or
//! a new version that has not started while activities of the running
//! one vanish, is breaking; a version's cover removed is a warning.

use std::collections::{BTreeMap, BTreeSet};

use chrono::NaiveDateTime;

use super::report::{
    ActivityChange, ActivityRef, Compare, FieldChange, FileDiff, FileStatus, Finding, Moved,
    Renamed, When, Window, changes, field_line, shown,
};
use crate::i18n::{Arg, Msg, msg};
use crate::kind::{self, Kind};
use crate::layout::{self, Naming};
use crate::model::days::whole_days;
use crate::model::{Activity, Draft, Game, Written};

/// The activity documents' comparison.
pub struct Activities;

/// What a review does with the activity documents.
pub static COMPARE: Activities = Activities;

impl Compare for Activities {
    fn kind(&self) -> &'static Kind {
        &kind::activities::KIND
    }

    /// Every activity of a new document is listed as added.
    fn added(&self, built: &[u8], diff: &mut FileDiff) {
        if let Ok(doc) = crate::model::published::read(built) {
            diff.added = doc.activities.iter().map(activity_ref).collect();
        }
    }

    /// Field by field, activity by activity; a side that is no document
    /// is said in [`FileDiff::note`].
    fn changed(&self, built: &[u8], base: &[u8], now: Option<NaiveDateTime>, diff: &mut FileDiff) {
        let new = crate::model::published::read(built);
        let old = crate::model::published::read(base);
        match (new, old) {
            (Ok(new), Ok(old)) => {
                documents(&old, &new, now, diff);
                if !diff.has_details() && same_activities(&old, &new) {
                    diff.status = FileStatus::Reformatted;
                }
            }
            (_, Err(err)) => {
                diff.note = Some(msg!("diff-note-base", error = err.to_string()));
            }
            (Err(err), _) => diff.note = Some(msg!("diff-note-built", error = err.to_string())),
        }
    }

    /// A version's cover removed.
    fn field(&self, change: &FieldChange) -> Option<Msg> {
        (change.field == "cover" && change.to.as_deref().is_none_or(str::is_empty))
            .then(|| msg!("diff-cover-removed", from = shown(change.from.as_deref())))
    }

    /// A new document's count of activities; else each activity added,
    /// removed, carried, renamed, moved and changed.
    fn lines(&self, file: &FileDiff, lines: &mut Vec<String>) {
        if file.status == FileStatus::New {
            if !file.added.is_empty() {
                lines.push(msg!("diff-activities", count = file.added.len()).to_string());
            }
            return;
        }
        for a in &file.added {
            lines.push(format!("+ {}", activity_line(a)));
        }
        for a in &file.removed {
            lines.push(
                msg!(
                    "diff-removed",
                    activity = activity_line(a),
                    when = a.when.map_or("unknown", When::as_str)
                )
                .to_string(),
            );
        }
        let version = file
            .version
            .iter()
            .find(|c| c.field == "version")
            .and_then(|c| c.to.as_deref())
            .unwrap_or_default();
        for a in &file.carried {
            lines.push(
                msg!(
                    "diff-carried",
                    activity = activity_line(a),
                    version = version
                )
                .to_string(),
            );
        }
        for r in &file.renamed {
            lines.push(
                msg!(
                    "diff-renamed",
                    from = format!("{:?}", r.from),
                    to = with_id(&format!("{:?}", r.to), r.id.as_deref()),
                    start = r.start_time.as_str(),
                    end = r.end_time.as_str()
                )
                .to_string(),
            );
        }
        lines.extend(file.moved.iter().map(moved_line));
        for c in &file.changed {
            let fields: Vec<Msg> = c.fields.iter().map(field_line).collect();
            lines.push(
                msg!(
                    "diff-changed",
                    name = with_id(&c.name, c.id.as_deref()),
                    start = c.start_time.as_str(),
                    fields = Arg::List(fields, "list-semicolon")
                )
                .to_string(),
            );
        }
    }

    /// Every changed or new document, on the line of its first activity
    /// added, moved, renamed or changed.
    fn notice<'a>(&self, file: &'a FileDiff) -> Option<Option<&'a str>> {
        Some(
            file.added
                .first()
                .map(|a| a.name.as_str())
                .or_else(|| file.moved.first().map(|m| m.name.as_str()))
                .or_else(|| file.renamed.first().map(|r| r.to.as_str()))
                .or_else(|| file.changed.first().map(|c| c.name.as_str())),
        )
    }

    /// Each game's document and calendar of its default locale, under
    /// `<game>-<locale>.<ext>` and `<game>.<ext>`.
    fn aliases(&self, games: &[Game]) -> Vec<(String, String)> {
        let mut pairs = Vec::new();
        for game in games {
            for ext in ["json", "ics"] {
                pairs.push((
                    layout::activity_path(game, &game.default_locale, Naming::Localized, ext),
                    layout::activity_path(game, &game.default_locale, Naming::Plain, ext),
                ));
            }
        }
        pairs
    }

    /// The index lists every document.
    fn unlisted(&self) -> Vec<String> {
        Vec::new()
    }
}

/// The two documents hold the same activities, in whatever order.
fn same_activities(old: &Draft, new: &Draft) -> bool {
    let key = |a: &Activity<Written>| {
        (
            a.id.clone(),
            a.start_time.clone(),
            a.name.clone(),
            a.end_time.clone(),
            a.kind.clone(),
            a.description.clone(),
            a.cover.clone(),
        )
    };
    let mut a: Vec<_> = old.activities.iter().map(key).collect();
    let mut b: Vec<_> = new.activities.iter().map(key).collect();
    a.sort();
    b.sort();
    a == b
}

/// Compares two activity documents into `diff`: fields, activities, and the
/// breaking changes among them.
pub fn documents(old: &Draft, new: &Draft, now: Option<NaiveDateTime>, diff: &mut FileDiff) {
    diff.version = document_fields(old, new);
    let Paired { gone, lost_ids } = pair_activities(old, new, diff);
    document_findings(old, new, diff);
    let Some(now) = now else { return };
    let review = AtNow { old, new, now };
    review.lost_id_findings(&lost_ids, diff);
    review.removed_findings(&gone, diff);
}

/// The changed fields of the document itself: its version, name, window
/// and cover.
fn document_fields(old: &Draft, new: &Draft) -> Vec<FieldChange> {
    let times = [
        old.start_time.to_string(),
        new.start_time.to_string(),
        old.end_time.to_string(),
        new.end_time.to_string(),
    ];
    let fields: [(&'static str, Option<&str>, Option<&str>); 5] = [
        ("version", Some(&old.version), Some(&new.version)),
        (
            "versionName",
            Some(&old.version_name),
            Some(&new.version_name),
        ),
        ("startTime", Some(&times[0]), Some(&times[1])),
        ("endTime", Some(&times[2]), Some(&times[3])),
        ("cover", old.cover.as_deref(), new.cover.as_deref()),
    ];
    changes(&fields)
}

/// What pairing the activities left for the findings about "now".
struct Paired<'d> {
    /// The old activities nothing in the new document stands for (the
    /// diff's removed ones, in order).
    gone: Vec<&'d Activity<Written>>,
    /// Pairs (old, new) whose old side had an id the new side lost or
    /// changed.
    lost_ids: Vec<(&'d Activity<Written>, &'d Activity<Written>)>,
}

/// Pairs the old activities with the new ones, by id first, then by name
/// and window, then by window (renamed), then by name (moved); what is
/// left is added or removed. Each pair is written into `diff` as what it
/// is (carried, renamed, moved, changed).
fn pair_activities<'d>(old: &'d Draft, new: &'d Draft, diff: &mut FileDiff) -> Paired<'d> {
    let mut pairs = Pairs {
        diff,
        new_version: old.version != new.version,
        lost_ids: Vec::new(),
    };
    // The same id on both sides is the same activity, whatever its name
    // and times became: renamed, moved or both, never removed and added.
    let old_ids: BTreeMap<&str, &Activity<Written>> = old
        .activities
        .iter()
        .filter_map(|a| Some((a.id.as_deref()?, a)))
        .collect();
    let new_ids: BTreeSet<&str> = new
        .activities
        .iter()
        .filter_map(|a| a.id.as_deref())
        .collect();
    let by_id = |a: &Activity<Written>| a.id.as_deref().and_then(|id| old_ids.get(id).copied());
    for a in &new.activities {
        if let Some(g) = by_id(a) {
            pairs.same_id(g, a);
        }
    }
    let old_rest: Vec<&Activity<Written>> = old
        .activities
        .iter()
        .filter(|g| g.id.as_deref().is_none_or(|id| !new_ids.contains(id)))
        .collect();
    let new_rest: Vec<&Activity<Written>> = new
        .activities
        .iter()
        .filter(|a| by_id(a).is_none())
        .collect();
    let (mut gone, mut fresh) = pairs.same_name_and_window(&old_rest, new_rest);
    fresh.retain(|a| !pairs.renamed_from(&mut gone, a));
    fresh.retain(|a| !pairs.moved_from(&mut gone, a));
    pairs.diff.added = fresh.into_iter().map(activity_ref).collect();
    pairs.diff.removed = gone.iter().map(|a| activity_ref(a)).collect();
    Paired {
        gone,
        lost_ids: pairs.lost_ids,
    }
}

/// The pairs found so far, written into the diff as they are found.
struct Pairs<'d, 'f> {
    diff: &'f mut FileDiff,
    /// The version changes: every activity kept into the new one is
    /// carried.
    new_version: bool,
    /// Pairs (old, new) whose old side had an id the new side lost or
    /// changed.
    lost_ids: Vec<(&'d Activity<Written>, &'d Activity<Written>)>,
}

impl<'d> Pairs<'d, '_> {
    /// `g` and `a` have the same id.
    fn same_id(&mut self, g: &'d Activity<Written>, a: &'d Activity<Written>) {
        self.carried(a);
        if g.name != a.name {
            self.diff.renamed.push(renamed(g, a));
        }
        if g.start_time != a.start_time || g.end_time != a.end_time {
            self.diff.moved.push(moved(g, a));
        }
        self.changed(g, a);
    }

    /// The old and new activities without a shared id, paired first when
    /// they have the same name and window; returns the old ones left (`gone`)
    /// and the new ones left (`fresh`).
    fn same_name_and_window(
        &mut self,
        old_rest: &[&'d Activity<Written>],
        new_rest: Vec<&'d Activity<Written>>,
    ) -> (Vec<&'d Activity<Written>>, Vec<&'d Activity<Written>>) {
        let key =
            |a: &Activity<Written>| (a.name.clone(), a.start_time.clone(), a.end_time.clone());
        let old_keys: BTreeMap<_, &Activity<Written>> =
            old_rest.iter().map(|a| (key(a), *a)).collect();
        let new_keys: BTreeSet<_> = new_rest.iter().map(|a| key(a)).collect();
        let gone: Vec<&Activity<Written>> = old_rest
            .iter()
            .copied()
            .filter(|a| !new_keys.contains(&key(a)))
            .collect();
        let mut fresh: Vec<&Activity<Written>> = Vec::new();
        for a in new_rest {
            match old_keys.get(&key(a)) {
                None => fresh.push(a),
                Some(before) => {
                    self.carried(a);
                    self.lost_id(before, a);
                    self.changed(before, a);
                }
            }
        }
        (gone, fresh)
    }

    /// Pairs `a` with the first of `gone` in the same window under another
    /// name (renamed, one to one), taken out of `gone`; whether there was
    /// one.
    fn renamed_from(
        &mut self,
        gone: &mut Vec<&'d Activity<Written>>,
        a: &'d Activity<Written>,
    ) -> bool {
        let Some(i) = gone
            .iter()
            .position(|g| g.start_time == a.start_time && g.end_time == a.end_time)
        else {
            return false;
        };
        let g = gone.remove(i);
        self.diff.renamed.push(renamed(g, a));
        self.lost_id(g, a);
        true
    }

    /// Pairs `a` with the first of `gone` of the same name at other times
    /// (moved), taken out of `gone`; whether there was one.
    fn moved_from(
        &mut self,
        gone: &mut Vec<&'d Activity<Written>>,
        a: &'d Activity<Written>,
    ) -> bool {
        let Some(i) = gone.iter().position(|g| g.name == a.name) else {
            return false;
        };
        let g = gone.remove(i);
        self.diff.moved.push(moved(g, a));
        self.lost_id(g, a);
        self.changed(g, a);
        true
    }

    /// `a` is kept into the new version, when the version changes.
    fn carried(&mut self, a: &Activity<Written>) {
        if self.new_version {
            self.diff.carried.push(activity_ref(a));
        }
    }

    /// Keeps the pair `g` (old) and `a` (new) when `a` lost or changed
    /// `g`'s id.
    fn lost_id(&mut self, g: &'d Activity<Written>, a: &'d Activity<Written>) {
        if g.id.is_some() && g.id != a.id {
            self.lost_ids.push((g, a));
        }
    }

    /// The fields `a` changed besides its name and times, if any.
    fn changed(&mut self, g: &Activity<Written>, a: &Activity<Written>) {
        let fields = activity_fields(g, a);
        if !fields.is_empty() {
            self.diff.changed.push(ActivityChange {
                id: a.id.clone(),
                name: a.name.clone(),
                start_time: a.start_time.to_string(),
                fields,
            });
        }
    }
}

/// What the document's own fields say: a version going backwards is
/// breaking, a cover removed a warning.
fn document_findings(old: &Draft, new: &Draft, diff: &mut FileDiff) {
    if crate::model::version_order(&old.version, &new.version) == Some(std::cmp::Ordering::Greater)
    {
        diff.breaking.push(Finding::new(
            &kind::activities::VERSION_BACKWARDS,
            |m| {
                m.arg("old", old.version.as_str())
                    .arg("new", new.version.as_str())
            },
            |h| h,
            Vec::new(),
        ));
    }
    let (old_cover, new_cover) = (
        old.cover.as_deref().filter(|c| !c.is_empty()),
        new.cover.as_deref().filter(|c| !c.is_empty()),
    );
    if let (Some(cover), None) = (old_cover, new_cover) {
        diff.warnings.push(Finding::new(
            &kind::activities::COVER_REMOVED,
            |m| m.arg("version", new.version.as_str()).arg("cover", cover),
            |h| h,
            Vec::new(),
        ));
    }
}

/// The two documents compared at the moment of the review, for what
/// depends on it ([`When`]).
#[derive(Clone, Copy)]
struct AtNow<'d> {
    old: &'d Draft,
    new: &'d Draft,
    now: NaiveDateTime,
}

impl AtNow<'_> {
    /// An id lost or changed while its activity runs is breaking: clients
    /// that keep it (a reminder, a tick) lose the activity.
    fn lost_id_findings(
        &self,
        lost_ids: &[(&Activity<Written>, &Activity<Written>)],
        diff: &mut FileDiff,
    ) {
        let now = self.now;
        for &(g, a) in lost_ids {
            if When::of(g, now) != Some(When::Running) {
                continue;
            }
            let days = days_from(now, &g.end_time);
            let mut running = activity_ref(g);
            running.when = Some(When::Running);
            diff.breaking.push(Finding::new(
                &kind::activities::ONGOING_ID_CHANGED,
                |m| {
                    m.arg("name", a.name.as_str())
                        .arg("old", g.id.as_deref().unwrap_or_default())
                        .arg("new", a.id.as_deref().unwrap_or("none"))
                        .arg("end", g.end_time.to_string())
                        .arg("days", days)
                },
                |h| h.arg("old", g.id.as_deref().unwrap_or_default()),
                vec![running],
            ));
        }
    }

    /// Places each removed activity (`gone`, the old side of `diff.removed`)
    /// against `now`: one not started yet is a warning, a running one is
    /// breaking ([`AtNow::running_removed_findings`]).
    fn removed_findings(&self, gone: &[&Activity<Written>], diff: &mut FileDiff) {
        let now = self.now;
        // `diff.removed` is `gone`, in order.
        for (a, g) in diff.removed.iter_mut().zip(gone) {
            a.when = When::of(g, now);
        }
        for (a, g) in diff
            .removed
            .iter()
            .zip(gone)
            .filter(|(a, _)| a.when == Some(When::Upcoming))
        {
            let days = days_from(now, &g.start_time);
            diff.warnings.push(Finding::new(
                &kind::activities::UPCOMING_REMOVED,
                |m| {
                    m.arg("name", a.name.as_str())
                        .arg("start", a.start_time.as_str())
                        .arg("days", days)
                },
                |h| h,
                vec![a.clone()],
            ));
        }
        let vanishing: Vec<(ActivityRef, &Activity<Written>)> = diff
            .removed
            .iter()
            .zip(gone)
            .filter(|(a, _)| a.when == Some(When::Running))
            .map(|(a, g)| (a.clone(), *g))
            .collect();
        if !vanishing.is_empty() {
            self.running_removed_findings(vanishing, diff);
        }
    }

    /// Running activities removed (`vanishing`): one finding when the new
    /// version starts later while the old one runs now, else one per
    /// activity.
    fn running_removed_findings(
        &self,
        vanishing: Vec<(ActivityRef, &Activity<Written>)>,
        diff: &mut FileDiff,
    ) {
        let AtNow { old, new, now } = *self;
        // The new version starts later, and the old one runs now.
        let upcoming = new.start_time.time().filter(|start| {
            **start > now
                && old.window().is_some_and(|(s, e)| *s <= now && now < *e)
                && old.version != new.version
        });
        if let Some(start) = upcoming {
            let names = Arg::List(
                vanishing
                    .iter()
                    .map(|(a, _)| {
                        msg!(
                            "breaking-until",
                            name = a.name.as_str(),
                            end = a.end_time.as_str()
                        )
                    })
                    .collect(),
                "list-comma",
            );
            let count = vanishing.len();
            diff.breaking.push(Finding::new(
                &kind::activities::UPCOMING_VERSION,
                |m| {
                    m.arg("new", new.version.as_str())
                        .arg("date", start.format("%Y-%m-%d %H:%M").to_string())
                        .arg("days", whole_days(now, *start).unsigned_abs())
                        .arg("old", old.version.as_str())
                        .arg("count", count)
                        .arg("names", names)
                },
                |h| h.arg("start", new.start_time.to_string()),
                vanishing.into_iter().map(|(a, _)| a).collect(),
            ));
            return;
        }
        for (a, g) in vanishing {
            let (name, end) = (a.name.clone(), a.end_time.clone());
            let days = days_from(now, &g.end_time);
            diff.breaking.push(Finding::new(
                &kind::activities::ONGOING_REMOVED,
                |m| m.arg("name", name).arg("end", end).arg("days", days),
                |h| h,
                vec![a],
            ));
        }
    }
}

/// Whole days between `now` and `time` ([`whole_days`], either way); 0
/// when `time` is not a time.
fn days_from(now: NaiveDateTime, time: &Written) -> u64 {
    time.time()
        .map_or(0, |t| whole_days(now, *t).unsigned_abs())
}

/// `g` renamed to `a` (at `a`'s window).
fn renamed(g: &Activity<Written>, a: &Activity<Written>) -> Renamed {
    Renamed {
        id: a.id.clone(),
        from: g.name.clone(),
        to: a.name.clone(),
        start_time: a.start_time.to_string(),
        end_time: a.end_time.to_string(),
    }
}

/// `g` moved to `a`'s times (under `a`'s name).
fn moved(g: &Activity<Written>, a: &Activity<Written>) -> Moved {
    let shift = |from: &Written, to: &Written| {
        from.time()
            .zip(to.time())
            .map_or(0, |(f, t)| whole_days(*f, *t))
    };
    Moved {
        id: a.id.clone(),
        name: a.name.clone(),
        from: Window {
            start_time: g.start_time.to_string(),
            end_time: g.end_time.to_string(),
        },
        to: Window {
            start_time: a.start_time.to_string(),
            end_time: a.end_time.to_string(),
        },
        start_days: shift(&g.start_time, &a.start_time),
        end_days: shift(&g.end_time, &a.end_time),
    }
}

/// The changed fields of one activity besides its name and times (its id
/// given, lost or changed included).
fn activity_fields(before: &Activity<Written>, a: &Activity<Written>) -> Vec<FieldChange> {
    changes(&[
        ("id", before.id.as_deref(), a.id.as_deref()),
        ("kind", before.kind.as_deref(), a.kind.as_deref()),
        (
            "description",
            Some(&before.description),
            Some(&a.description),
        ),
        ("cover", before.cover.as_deref(), a.cover.as_deref()),
    ])
}

/// Two typed activity documents compared as the file at `path` (an agent's
/// draft against the file on disk, say), with the rules about `now`.
pub fn document_diff(path: &str, old: &Draft, new: &Draft, now: Option<NaiveDateTime>) -> FileDiff {
    let mut diff = FileDiff::empty(path, FileStatus::Changed);
    documents(old, new, now, &mut diff);
    if !diff.has_details() {
        diff.status = if same_activities(old, new) && old == new {
            FileStatus::Unchanged
        } else if same_activities(old, new) {
            FileStatus::Reformatted
        } else {
            FileStatus::Changed
        };
    }
    diff
}

fn activity_ref(a: &Activity<Written>) -> ActivityRef {
    ActivityRef {
        id: a.id.clone(),
        name: a.name.clone(),
        start_time: a.start_time.to_string(),
        end_time: a.end_time.to_string(),
        when: None,
    }
}

/// Compares one built activity document with its deployed bytes (the
/// agent's draft against the file on disk, say), without the rules about
/// "now".
pub fn diff_file(path: &str, built: &[u8], deployed: Option<&[u8]>) -> anyhow::Result<FileDiff> {
    let new = crate::model::published::read(built).map_err(|err| {
        anyhow::Error::new(msg!(
            "diff-built-unparsed",
            path = path,
            error = err.to_string()
        ))
    })?;
    let Some(deployed) = deployed else {
        let mut diff = FileDiff::empty(path, FileStatus::New);
        diff.added = new.activities.iter().map(activity_ref).collect();
        return Ok(diff);
    };
    if built == deployed {
        return Ok(FileDiff::empty(path, FileStatus::Unchanged));
    }
    Ok(match crate::model::published::read(deployed) {
        Ok(old) => {
            let mut diff = document_diff(path, &old, &new, None);
            // Other bytes, whatever the content.
            if diff.status == FileStatus::Unchanged {
                diff.status = FileStatus::Reformatted;
            }
            diff
        }
        Err(err) => {
            let mut diff = FileDiff::empty(path, FileStatus::Changed);
            diff.note = Some(msg!("diff-note-base", error = err.to_string()));
            diff
        }
    })
}

/// The line of an activity moved: its old and new window, and how far
/// each end shifted.
fn moved_line(m: &Moved) -> String {
    let shifts: Vec<Msg> = [
        ("no", &m.from.start_time, &m.to.start_time, m.start_days),
        ("yes", &m.from.end_time, &m.to.end_time, m.end_days),
    ]
    .iter()
    .filter(|(_, from, to, _)| from != to)
    .map(|(end, _, _, days)| {
        msg!(
            "diff-shift",
            end = *end,
            later = if *days > 0 { "yes" } else { "no" },
            days = days.unsigned_abs()
        )
    })
    .collect();
    msg!(
        "diff-moved",
        name = with_id(&m.name, m.id.as_deref()),
        from = format!("{} – {}", m.from.start_time, m.from.end_time),
        to = format!("{} – {}", m.to.start_time, m.to.end_time),
        shifts = Arg::List(shifts, "list-comma")
    )
    .to_string()
}

fn activity_line(a: &ActivityRef) -> Msg {
    msg!(
        "diff-activity",
        name = with_id(&a.name, a.id.as_deref()),
        start = a.start_time.as_str(),
        end = a.end_time.as_str()
    )
}

/// A name as a diff line shows it: with its id beside it, when it has one
/// (`Star Sea Voyage [demo-1.2-02]`).
fn with_id(name: &str, id: Option<&str>) -> String {
    match id {
        Some(id) => format!("{name} [{id}]"),
        None => name.to_owned(),
    }
}
