//! What a review says of an announcements board: the announcements
//! added, edited or removed (matched by title), its `id` changed, and,
//! breaking, a board whose content changed without its `id` going up
//! (clients that keep the last `id` they showed never see the change).
//! Compared as plain JSON.

use std::collections::{BTreeMap, BTreeSet};

use chrono::NaiveDateTime;
use serde_json::Value;

use activity_site_check::i18n::{Arg, msg};
use activity_site_check::kind::Kind;
use activity_site_review::report::{
    self, Compare, EntryChange, FieldChange, FileDiff, FileStatus, Finding,
};

/// The announcements boards' comparison.
pub struct Announcements;

/// What a review does with the announcements boards.
pub static COMPARE: Announcements = Announcements;

impl Compare for Announcements {
    fn kind(&self) -> &'static Kind {
        &super::KIND
    }

    /// The announcements and the `id`; a side that is not JSON is only changed.
    fn changed(&self, built: &[u8], base: &[u8], _now: Option<NaiveDateTime>, diff: &mut FileDiff) {
        let Some((new, old)) = report::json_pair(built, base) else {
            return;
        };
        announcements(&old, &new, diff);
        if !diff.has_details() && new == old {
            diff.status = FileStatus::Reformatted;
        }
    }

    /// Each announcement added, edited or removed.
    fn lines(&self, file: &FileDiff, lines: &mut Vec<String>) {
        for a in file.entries.get(FIELD).into_iter().flatten() {
            lines.push(
                msg!(
                    "diff-announcement",
                    change = a.change,
                    title = format!("{:?}", a.title)
                )
                .to_string(),
            );
        }
    }
}

/// The field of the report ([`FileDiff::entries`]) that lists the
/// announcements added, edited or removed.
const FIELD: &str = "announcements";

/// Announcements as clients read them: a document `{"id", "announcements": [{"title", ...}]}`,
/// compared as plain JSON (the model of the announcements document is its own issue).
fn announcements(old: &Value, new: &Value, diff: &mut FileDiff) {
    let list = |v: &Value| -> Vec<Value> {
        v.get("announcements")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let title = |v: &Value| {
        v.get("title")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let (old_list, new_list) = (list(old), list(new));
    let old_by_title: BTreeMap<String, &Value> = old_list.iter().map(|a| (title(a), a)).collect();
    let new_titles: BTreeSet<String> = new_list.iter().map(title).collect();
    let mut changes = Vec::new();
    for a in &new_list {
        match old_by_title.get(&title(a)) {
            None => changes.push(EntryChange {
                change: "added",
                title: title(a),
            }),
            Some(before) if *before != a => changes.push(EntryChange {
                change: "edited",
                title: title(a),
            }),
            Some(_) => {}
        }
    }
    for a in &old_list {
        if !new_titles.contains(&title(a)) {
            changes.push(EntryChange {
                change: "removed",
                title: title(a),
            });
        }
    }
    if !changes.is_empty() {
        diff.entries.insert(FIELD, changes);
    }
    let id = |v: &Value| v.get("id").and_then(Value::as_i64);
    let (old_id, new_id) = (id(old), id(new));
    let content_changed = old_list != new_list;
    if old_id != new_id {
        diff.version.push(FieldChange {
            field: "id",
            from: old_id.map(|i| i.to_string()),
            to: new_id.map(|i| i.to_string()),
        });
    }
    if content_changed && old_id.is_some() && new_id <= old_id {
        let shown = |id: Option<i64>| -> Arg {
            id.map_or_else(|| msg!("breaking-id-none").into(), |i| i.to_string().into())
        };
        let what = if new_id == old_id {
            msg!("breaking-id-stayed", id = shown(old_id))
        } else {
            msg!("breaking-id-down", from = shown(old_id), to = shown(new_id))
        };
        diff.breaking.push(Finding::new(
            &super::ID_NOT_UP,
            |m| m.arg("what", what),
            |h| h.arg("id", (old_id.unwrap_or(0) + 1).to_string()),
            Vec::new(),
        ));
    }
}
