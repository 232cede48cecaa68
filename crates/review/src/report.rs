//! The report of a review, the bottom of `site/diff/`: what one path
//! compared gives ([`FileDiff`]: its status, its changes in the terms of
//! its kind, its findings), the report of every path ([`Report`], its
//! counts and the pairs of names merged), and what a kind's comparison
//! implements ([`Compare`]). The JSON report serialises these types as
//! they are, so their field names are the report's stable keys. It
//! imports no other file of the folder.

use std::collections::BTreeMap;

use chrono::NaiveDateTime;
use serde::Serialize;

use crate::i18n::{Arg, Msg, msg};
use crate::kind::{self, Kind, PublishedAs};
use crate::layout::Naming;
use crate::model::{Activity, Game, Time, Written};

/// The comparison of every path of the build with the base.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// What was compared against: a URL's site root, a folder, `rev:<REV>`.
    pub against: String,
    pub files: Vec<FileDiff>,
}

/// One path of the site. Its fields are the JSON report's keys: the
/// activity documents' comparison fills `added` to `moved`, a kind of
/// titled entries (the announcements boards) its field of [`FileDiff::entries`],
/// either its changed fields in `version`; every file has `version`, `added`, `removed` and `changed`,
/// the rest only when not empty.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileDiff {
    /// Path relative to the site root (`api/v1/activity/ww.json`).
    pub path: String,
    /// The other paths the same file is published under, with the same
    /// content on both sides (`api/v1/activity/ww.json` beside
    /// `api/v1/activity/ww-zh-CN.json`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    pub status: FileStatus,
    /// Why the content could not be compared field by field (a base copy
    /// that is not a document of its kind).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<Msg>,
    /// Changed document fields (`version`, `versionName`, `startTime`, `endTime`, `cover`).
    pub version: Vec<FieldChange>,
    pub added: Vec<ActivityRef>,
    /// Activities removed, each with [`ActivityRef::when`] when the review
    /// knows "now".
    pub removed: Vec<ActivityRef>,
    /// When the version changes: the activities kept into the new one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carried: Vec<ActivityRef>,
    /// Activities matched by name and window whose other fields changed.
    pub changed: Vec<ActivityChange>,
    /// Same start and end, another name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub renamed: Vec<Renamed>,
    /// Same name, other times.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moved: Vec<Moved>,
    /// The entries of a kind's document added, removed or edited
    /// (matched by title), under the field the kind's comparison names
    /// (the boards' `announcements`); no field when none changed.
    #[serde(flatten)]
    pub entries: BTreeMap<&'static str, Vec<EntryChange>>,
    /// What clients of this file cannot survive.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub breaking: Vec<Breaking>,
    /// What a maintainer should look at before publishing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileStatus {
    /// The same bytes.
    Unchanged,
    /// The same JSON content in other bytes (formatting, order of activities).
    Reformatted,
    /// Different content.
    Changed,
    /// The base does not have this path.
    New,
    /// The base has this path and this build does not.
    Removed,
}

impl FileStatus {
    pub const ALL: [FileStatus; 5] = [
        FileStatus::Changed,
        FileStatus::Reformatted,
        FileStatus::New,
        FileStatus::Removed,
        FileStatus::Unchanged,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            FileStatus::Unchanged => "unchanged",
            FileStatus::Reformatted => "reformatted",
            FileStatus::Changed => "changed",
            FileStatus::New => "new",
            FileStatus::Removed => "removed",
        }
    }

    /// The status as the reports for people name it, in the current language.
    pub fn label(self) -> Msg {
        msg!("diff-status", status = self.as_str())
    }
}

/// One changed field: its old and new value (`None` when absent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldChange {
    pub field: &'static str,
    pub from: Option<String>,
    pub to: Option<String>,
}

/// An activity, by its key and window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityRef {
    /// Its id, where the document gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub name: String,
    pub start_time: String,
    pub end_time: String,
    /// Where its window stands at the moment of the review (removed
    /// activities, when "now" is known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub when: Option<When>,
}

/// Where an activity's window stands at the moment of the review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum When {
    /// It ended before now: removing it changes nothing for clients.
    Ended,
    /// It runs now: removing it is breaking.
    Running,
    /// It has not started: removing it takes back an announced activity.
    Upcoming,
}

impl When {
    /// Where the window `start`..`end` stands at `now`.
    pub fn at(start: Time, end: Time, now: NaiveDateTime) -> When {
        if *end <= now {
            When::Ended
        } else if *start <= now {
            When::Running
        } else {
            When::Upcoming
        }
    }

    /// Where the window of `activity` stands at `now`; `None` when one of
    /// its times is not a time.
    pub(super) fn of(activity: &Activity<Written>, now: NaiveDateTime) -> Option<When> {
        let (start, end) = activity.start_time.time().zip(activity.end_time.time())?;
        Some(When::at(start, end, now))
    }

    pub const fn as_str(self) -> &'static str {
        match self {
            When::Ended => "ended",
            When::Running => "running",
            When::Upcoming => "upcoming",
        }
    }
}

/// An activity present on both sides with different fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityChange {
    /// Its id, where the new document gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub name: String,
    pub start_time: String,
    pub fields: Vec<FieldChange>,
}

/// An activity with the same window under a new name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Renamed {
    /// Its id, where the new document gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub from: String,
    pub to: String,
    pub start_time: String,
    pub end_time: String,
}

/// An activity whose times changed, with the shift of each end in whole
/// days ([`whole_days`](crate::model::days::whole_days): positive is later).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Moved {
    /// Its id, where the new document gives one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub name: String,
    pub from: Window,
    pub to: Window,
    pub start_days: i64,
    pub end_days: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Window {
    pub start_time: String,
    pub end_time: String,
}

/// One entry of a document (an announcement) added, removed or edited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EntryChange {
    /// `added`, `removed` or `edited`.
    pub change: &'static str,
    pub title: String,
}

/// A finding of the review: a [`Breaking`] change or a [`Warning`], its
/// code and messages those of a [`kind::Finding`] that the kind of its
/// file declares (a `static` of its kind's module, named here directly).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Its stable code (`ongoing-activity-removed`).
    pub code: &'static str,
    /// One complete sentence.
    pub message: Msg,
    /// How to avoid it (breaking), or what to do if it was not meant (warning).
    pub help: Msg,
    /// The activities it is about (the ones that would vanish), if any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub activities: Vec<ActivityRef>,
}

/// A change clients cannot survive.
pub type Breaking = Finding;

/// Something to look at before publishing that clients survive.
pub type Warning = Finding;

/// The one breaking change of every file, whatever its kind: a file the
/// base has is not in this build.
pub(super) const FILE_REMOVED: kind::Finding = kind::Finding {
    code: "file-removed",
    message: "breaking-file-removed",
    help: "breaking-file-removed-help",
};

/// Breaking, whatever the file's kind: a field every object of its
/// place published at the base is in none of this build's
/// ([`super::contract`]).
pub(super) const FIELD_REMOVED: kind::Finding = kind::Finding {
    code: "published-field-removed",
    message: "breaking-field-removed",
    help: "breaking-field-removed-help",
};

/// A warning, whatever the file's kind: a field every object of its place
/// had at the base is in none of this build's, and the published schema
/// makes it optional (an activity document's `cover`): clients were told
/// it may be absent ([`super::contract`]).
pub(super) const OPTIONAL_FIELD_REMOVED: kind::Finding = kind::Finding {
    code: "optional-field-removed",
    message: "warning-optional-field-removed",
    help: "warning-optional-field-removed-help",
};

/// The review findings every file may get, whatever its kind, besides each
/// kind's own ([`kind::Review`]): the list the documentation of the codes
/// is checked against.
pub const SHARED_BREAKING: [&kind::Finding; 3] = [&FILE_REMOVED, &FIELD_REMOVED, &FIELD_RETYPED];

/// [`SHARED_BREAKING`]'s warnings.
pub const SHARED_WARNINGS: [&kind::Finding; 1] = [&OPTIONAL_FIELD_REMOVED];

/// Breaking, whatever the file's kind: a published field's JSON type
/// changed ([`super::contract`]).
pub(super) const FIELD_RETYPED: kind::Finding = kind::Finding {
    code: "published-field-retyped",
    message: "breaking-field-retyped",
    help: "breaking-field-retyped-help",
};

impl Finding {
    /// The finding `declared`, its messages given their arguments.
    pub(super) fn new(
        declared: &kind::Finding,
        message: impl FnOnce(Msg) -> Msg,
        help: impl FnOnce(Msg) -> Msg,
        activities: Vec<ActivityRef>,
    ) -> Finding {
        Finding {
            code: declared.code,
            message: message(Msg::new(declared.message)),
            help: help(Msg::new(declared.help)),
            activities,
        }
    }
}

impl FileDiff {
    /// A file of `status` with nothing else to say yet.
    pub(super) fn empty(path: &str, status: FileStatus) -> FileDiff {
        FileDiff {
            path: path.to_owned(),
            aliases: Vec::new(),
            status,
            note: None,
            version: Vec::new(),
            added: Vec::new(),
            removed: Vec::new(),
            carried: Vec::new(),
            changed: Vec::new(),
            renamed: Vec::new(),
            moved: Vec::new(),
            entries: BTreeMap::new(),
            breaking: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Whether the file holds changes a reader sees beyond its status.
    pub(super) fn has_details(&self) -> bool {
        !(self.version.is_empty()
            && self.added.is_empty()
            && self.removed.is_empty()
            && self.carried.is_empty()
            && self.changed.is_empty()
            && self.renamed.is_empty()
            && self.moved.is_empty()
            && self.entries.is_empty())
    }

    /// A path of the base that this build does not have: always breaking.
    pub fn removed(path: &str) -> FileDiff {
        let mut diff = FileDiff::empty(path, FileStatus::Removed);
        diff.breaking.push(Finding::new(
            &FILE_REMOVED,
            |m| m.arg("path", path),
            |h| h,
            Vec::new(),
        ));
        diff
    }
}

/// What a review does with the published documents of one kind: the
/// kind's own file of `site/diff/` implements it and `kinds::ALL` lists
/// it, found from the kind ([`crate::kind::of_published`] tells which
/// kind a path is). Every file gets its status and, when removed, its
/// breaking change whatever its kind; the rest is the kind's.
pub trait Compare: Sync {
    /// The kind it compares.
    fn kind(&self) -> &'static Kind;

    /// A document of this build that the base does not have.
    fn added(&self, _built: &[u8], _diff: &mut FileDiff) {}

    /// Two different byte strings of one document (`now` as in
    /// `compare`): its changes and findings into `diff`, and
    /// [`FileStatus::Reformatted`] when the content is the same. By
    /// default only that: the same JSON in other bytes is reformatted.
    fn changed(&self, built: &[u8], base: &[u8], _now: Option<NaiveDateTime>, diff: &mut FileDiff) {
        if json_pair(built, base).is_some_and(|(new, old)| new == old) {
            diff.status = FileStatus::Reformatted;
        }
    }

    /// A changed field of `diff.version` as the kind says it, when not
    /// the usual `field: from → to` (a version's cover removed).
    fn field(&self, _change: &FieldChange) -> Option<Msg> {
        None
    }

    /// The lines the reports for people (text and Markdown) give the
    /// kind's changes of `file` after its fields, whatever the file's
    /// path (an agent's draft is compared under its source path); none
    /// by default.
    fn lines(&self, _file: &FileDiff, _lines: &mut Vec<String>) {}

    /// Whether the annotations give a changed or new document of the kind
    /// a notice, and on the line of which activity (`Some(None)`: the
    /// document's own line); `None`: no notice.
    fn notice<'a>(&self, _file: &'a FileDiff) -> Option<Option<&'a str>> {
        None
    }

    /// The files published under two names, as `(path, alias)`: for a
    /// kind published once per locale, the site locale's document and
    /// each file beside it, under its suffixed and its un-suffixed name.
    fn aliases(&self, games: &[Game]) -> Vec<(String, String)> {
        let kind = self.kind();
        let PublishedAs::PerLocale { path, beside, .. } = kind.published else {
            return Vec::new();
        };
        let Some(locale) = crate::model::site_locale(games) else {
            return Vec::new();
        };
        std::iter::once("json")
            .chain(beside.iter().copied())
            .map(|ext| {
                (
                    path(locale, Naming::Localized, ext),
                    path(locale, Naming::Plain, ext),
                )
            })
            .collect()
    }

    /// The documents a deployed site of the kind may hold that no index
    /// lists: for a kind published once per locale, its un-suffixed one.
    fn unlisted(&self) -> Vec<String> {
        self.kind()
            .published_path("", Naming::Plain, "json")
            .into_iter()
            .collect()
    }
}

/// Where a change is in the data (for annotations): the source file and its line.
pub struct Location {
    pub file: String,
    pub line: usize,
}

impl Report {
    /// Reports each pair of `(path, alias)` once, under `path` with `alias`
    /// among its [`FileDiff::aliases`], when both sides hold the same
    /// comparison (the same file published under two names, as the default
    /// locale's document and calendar are). A pair whose comparisons differ
    /// (a base that published different bytes under the two names) stays
    /// two entries.
    pub fn merge_aliases(&mut self, pairs: &[(String, String)]) {
        for (path, alias) in pairs {
            let (Some(i), Some(j)) = (
                self.files.iter().position(|f| &f.path == path),
                self.files.iter().position(|f| &f.path == alias),
            ) else {
                continue;
            };
            let mut renamed = self.files[j].clone();
            renamed.path = path.clone();
            renamed.aliases = self.files[i].aliases.clone();
            if renamed.status == FileStatus::Removed {
                renamed.breaking = FileDiff::removed(path).breaking;
            }
            if renamed != self.files[i] {
                continue;
            }
            let gone = self.files.remove(j);
            let i = if j < i { i - 1 } else { i };
            self.files[i].aliases.push(gone.path);
            self.files[i].aliases.extend(gone.aliases);
        }
    }

    /// The number of paths compared (every alias counted).
    pub(super) fn paths(&self) -> usize {
        self.files.iter().map(|f| 1 + f.aliases.len()).sum()
    }

    /// Every warning, with its file.
    pub fn warnings(&self) -> impl Iterator<Item = (&FileDiff, &Warning)> {
        self.files
            .iter()
            .flat_map(|f| f.warnings.iter().map(move |w| (f, w)))
    }

    /// Whether publishing this build would change anything.
    pub fn has_changes(&self) -> bool {
        self.files.iter().any(|f| f.status != FileStatus::Unchanged)
    }

    /// Every breaking change, with its file.
    pub fn breaking(&self) -> impl Iterator<Item = (&FileDiff, &Breaking)> {
        self.files
            .iter()
            .flat_map(|f| f.breaking.iter().map(move |b| (f, b)))
    }

    /// 0 nothing changes, 1 changes, 3 breaking changes.
    pub fn exit_code(&self) -> u8 {
        if self.breaking().next().is_some() {
            3
        } else {
            u8::from(self.has_changes())
        }
    }

    pub(super) fn count(&self, status: FileStatus) -> usize {
        self.files.iter().filter(|f| f.status == status).count()
    }

    pub(super) fn summary(&self) -> Msg {
        msg!(
            "diff-summary",
            files = self.files.len(),
            paths = self.paths(),
            aliases = self.paths() - self.files.len(),
            against = self.against.as_str(),
            changed = self.count(FileStatus::Changed),
            reformatted = self.count(FileStatus::Reformatted),
            new = self.count(FileStatus::New),
            removed = self.count(FileStatus::Removed),
            unchanged = self.count(FileStatus::Unchanged),
            breaking = self.breaking().count(),
            warnings = self.warnings().count()
        )
    }
}

/// The fields whose values differ. An empty string and an absent value are
/// the same for optional fields (`cover: ""` means no cover).
pub(super) fn changes(fields: &[(&'static str, Option<&str>, Option<&str>)]) -> Vec<FieldChange> {
    fields
        .iter()
        .filter(|(_, from, to)| from.filter(|s| !s.is_empty()) != to.filter(|s| !s.is_empty()))
        .map(|(field, from, to)| FieldChange {
            field,
            from: from.map(str::to_owned),
            to: to.map(str::to_owned),
        })
        .collect()
}

/// One changed field as the reports say it.
pub(super) fn field_line(change: &FieldChange) -> Msg {
    msg!(
        "diff-field",
        field = change.field,
        from = shown(change.from.as_deref()),
        to = shown(change.to.as_deref())
    )
}

/// A value quoted for the reports, cut at 60 characters.
pub(super) fn shown(value: Option<&str>) -> Arg {
    match value {
        None => msg!("diff-none").into(),
        Some(s) => {
            let mut cut: String = s.chars().take(60).collect();
            if cut.len() < s.len() {
                cut.push('…');
            }
            format!("{cut:?}").into()
        }
    }
}

/// Both sides of a path as JSON values, this build's first, when both
/// parse.
pub(super) fn json_pair(
    built: &[u8],
    base: &[u8],
) -> Option<(serde_json::Value, serde_json::Value)> {
    let new = serde_json::from_slice(built).ok()?;
    let old = serde_json::from_slice(base).ok()?;
    Some((new, old))
}
