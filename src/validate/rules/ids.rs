//! `missing-id`: every activity has an `id`, the same in every locale of
//! its game ([`crate::model::ids`] has the form). A game-wide rule: the id
//! an activity should get depends on the game's other files.
//!
//! An activity without an id is paired with the activities of the game's
//! other locales by its window (`startTime` and `endTime` as written):
//! - one activity of the window here lacks an id, and the other locales
//!   give the window one id this file does not use yet: that id (reused,
//!   so the locales agree);
//! - no other locale gives the window an id, and no file lists the window
//!   twice: a fresh id, the same one in every locale that lacks it (the
//!   fresh ids are handed out once for the game, in the order of the
//!   windows, so each file's fix agrees with the others');
//! - the window is listed twice somewhere and no id is given to it: the
//!   activities of the first file that lists it (the default locale's,
//!   when it does) get fresh ids (one each: no pairing is guessed), the
//!   other locales' wait for them;
//! - otherwise (two or more candidates): no fix; the warning names the
//!   candidates (their id, name and file) and the contributor copies the
//!   right one.
//!
//! `check --fix` applies these fixes; after it, a second run finds only
//! the warnings that wait for a contributor's choice, and fixes nothing.

use std::collections::{BTreeMap, BTreeSet};

use crate::diagnostics::Code;
use crate::diagnostics::Severity::Warning;
use crate::i18n::msg;
use crate::json::Node;
use crate::model::{Game, ids};
use crate::validate::{JsonFile, Reporter};

/// A window as written: `startTime` and `endTime`.
type Window<'d> = (&'d str, &'d str);

/// One activity of a file, as the rule reads it.
struct Read<'d> {
    index: usize,
    node: &'d Node<'d>,
    window: Option<Window<'d>>,
    /// `None` when the activity has no `id` member at all (a member that is
    /// no id is the schema's error, not a missing id).
    id: Option<Option<&'d str>>,
    name: &'d str,
}

fn read<'d>(file: &'d JsonFile<'d>) -> Vec<Read<'d>> {
    let Some(activities) = file.root.get("activities").and_then(Node::as_array) else {
        return Vec::new();
    };
    activities
        .iter()
        .enumerate()
        .filter(|(_, node)| node.as_object().is_some())
        .map(|(index, node)| {
            let text = |key| node.get(key).and_then(Node::as_str);
            Read {
                index,
                node,
                window: text("startTime").zip(text("endTime")),
                id: node.get("id").map(Node::as_str),
                name: text("name").unwrap_or(""),
            }
        })
        .collect()
}

/// What an activity without an id gets.
enum Plan<'d> {
    /// The id of its twin in another locale.
    Reuse(&'d str, &'d str),
    /// A fresh id, keyed by its window and its place among the window's
    /// activities without id (0 where the window is listed once).
    Fresh(Window<'d>, usize),
    /// The window is listed twice; the file named (the default locale's,
    /// when it lists the window) gives ids first.
    Wait(&'d str),
    /// Two or more ids could be its: (id, name, path) of each.
    Choose(Vec<(&'d str, &'d str, &'d str)>),
    /// No window to pair it by (a time is missing: the schema says so).
    NoWindow,
}

/// `missing-id` on every file of one game. `files` are the game's parsed
/// documents with their locales, `reports` one reporter for each.
pub fn missing_ids<'r>(
    game: &Game,
    files: &[(&'r JsonFile<'r>, &str)],
    reports: &mut [Reporter<'r>],
) {
    let reads: Vec<Vec<Read<'_>>> = files.iter().map(|(file, _)| read(file)).collect();
    if !reads
        .iter()
        .flatten()
        .any(|a| a.id.is_none() && a.node.as_object().is_some())
    {
        return;
    }
    // How often each file lists each window, and every id in use.
    let mut listed: Vec<BTreeMap<Window<'_>, usize>> = Vec::with_capacity(files.len());
    for acts in &reads {
        let mut counts = BTreeMap::new();
        for window in acts.iter().filter_map(|a| a.window) {
            *counts.entry(window).or_insert(0) += 1;
        }
        listed.push(counts);
    }
    let twice = |window: &Window<'_>| listed.iter().any(|c| c.get(window).copied() > Some(1));
    let used: Vec<BTreeSet<&str>> = reads
        .iter()
        .map(|acts| acts.iter().filter_map(|a| a.id.flatten()).collect())
        .collect();
    // The default locale's file first, then the registry's order: the
    // version a fresh id is named after is the first file's that lists
    // the window.
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by_key(|&f| files[f].1 != game.default_locale);

    // The file that gives a window listed twice its ids: the first in
    // that order that lists it.
    let reference = |window: &Window<'_>| {
        order
            .iter()
            .copied()
            .find(|&f| listed[f].contains_key(window))
    };
    let mut plans: Vec<Vec<(usize, Plan<'_>)>> = Vec::with_capacity(files.len());
    for (f, acts) in reads.iter().enumerate() {
        let mut place: BTreeMap<Window<'_>, usize> = BTreeMap::new();
        let mut mine = Vec::new();
        for a in acts.iter().filter(|a| a.id.is_none()) {
            let Some(window) = a.window else {
                mine.push((a.index, Plan::NoWindow));
                continue;
            };
            let k = place.entry(window).or_insert(0);
            let nth = *k;
            *k += 1;
            let without_id = acts
                .iter()
                .filter(|b| b.window == Some(window) && b.id.is_none())
                .count();
            let mut candidates: Vec<(&str, &str, &str)> = Vec::new();
            for &g in order.iter().filter(|&&g| g != f) {
                for b in reads[g].iter().filter(|b| b.window == Some(window)) {
                    if let Some(Some(id)) = b.id
                        && !used[f].contains(id)
                        && !candidates.iter().any(|(c, _, _)| *c == id)
                    {
                        candidates.push((id, b.name, files[g].0.path));
                    }
                }
            }
            let plan = match candidates.len() {
                1 if without_id == 1 => Plan::Reuse(candidates[0].0, candidates[0].2),
                0 if !twice(&window) => Plan::Fresh(window, 0),
                0 if reference(&window) == Some(f) => Plan::Fresh(window, nth),
                0 => Plan::Wait(reference(&window).map_or("", |r| files[r].0.path)),
                _ => Plan::Choose(candidates),
            };
            mine.push((a.index, plan));
        }
        plans.push(mine);
    }

    // Fresh ids, handed out once for the game in the order of the windows.
    let mut wanted: BTreeSet<(Window<'_>, usize)> = BTreeSet::new();
    for plan in plans.iter().flatten() {
        if let (_, Plan::Fresh(window, nth)) = plan {
            wanted.insert((*window, *nth));
        }
    }
    // Each in the order of the first file (default locale first) that
    // lists its window: the numbers follow the file, as a reader reads it.
    let mut wanted: Vec<(usize, usize, (Window<'_>, usize))> = wanted
        .into_iter()
        .map(|key| {
            let (rank, f) = order
                .iter()
                .enumerate()
                .find(|(_, f)| listed[**f].contains_key(&key.0))
                .map_or((usize::MAX, usize::MAX), |(rank, f)| (rank, *f));
            let place = reads
                .get(f)
                .and_then(|acts| {
                    acts.iter()
                        .filter(|a| a.window == Some(key.0))
                        .nth(key.1)
                        .or_else(|| acts.iter().find(|a| a.window == Some(key.0)))
                })
                .map_or(usize::MAX, |a| a.index);
            (rank, place, key)
        })
        .collect();
    wanted.sort();
    let mut fresh = ids::Fresh::new(used.iter().flatten().copied());
    let mut given: BTreeMap<(Window<'_>, usize), String> = BTreeMap::new();
    for (rank, _, key) in wanted {
        let version = order
            .get(rank)
            .and_then(|&f| files[f].0.root.get("version"))
            .and_then(Node::as_str)
            .unwrap_or("");
        let id = fresh.take(&ids::prefix(&game.id, version));
        given.insert(key, id);
    }

    for (f, mine) in plans.into_iter().enumerate() {
        let acts = &reads[f];
        let report = &mut reports[f];
        for (index, plan) in mine {
            let Some(a) = acts.iter().find(|a| a.index == index) else {
                continue;
            };
            let pointer = format!("/activities/{index}");
            let name = if a.name.is_empty() {
                format!("#{index}")
            } else {
                a.name.to_owned()
            };
            let message = msg!("missing-id", name = name.as_str());
            let (help, id) = match &plan {
                Plan::Reuse(id, path) => (
                    msg!("missing-id-help-reuse", id = *id, path = *path),
                    Some((*id).to_owned()),
                ),
                Plan::Fresh(window, nth) => {
                    let id = given.get(&(*window, *nth)).cloned();
                    let shown = id.clone().unwrap_or_default();
                    (msg!("missing-id-help-fresh", id = shown), id)
                }
                Plan::Wait(path) => (msg!("missing-id-help-wait", path = *path), None),
                Plan::Choose(candidates) => (
                    msg!("missing-id-help-choose", count = candidates.len()),
                    None,
                ),
                Plan::NoWindow => (msg!("missing-id-help-times"), None),
            };
            report.value(&pointer, Code::MissingId, Warning, message, Some(help));
            if let Plan::Choose(candidates) = &plan {
                for (id, name, path) in candidates {
                    report.note(msg!(
                        "missing-id-candidate",
                        id = *id,
                        name = *name,
                        path = *path
                    ));
                }
            }
            if let Some(id) = id
                && let Some((at, replacement)) = insert_first(report.text(), a.node, &id)
            {
                report.fix_range(at, at, replacement);
            }
        }
    }
}

/// Where `"id": "<id>"` goes as the first member of the object `node`, and
/// the text to insert there: on a line of its own, indented as the
/// object's first member is, when that member starts a line; else before
/// it on its line. `None` for an empty object.
fn insert_first(text: &str, node: &Node<'_>, id: &str) -> Option<(usize, String)> {
    let first = node.as_object()?.first()?;
    let at = first.key_start;
    let before = text.get(node.start + 1..at)?;
    let member = format!("\"id\": {}", serde_json::to_string(id).ok()?);
    let replacement = match before.rfind('\n') {
        Some(newline) => format!("{member},\n{}", &before[newline + 1..]),
        None => format!("{member}, "),
    };
    Some((at, replacement))
}
