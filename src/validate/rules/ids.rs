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

use super::base::{Read, Window, activities};

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
    let seen = Seen::new(game, files);
    if !seen.reads.iter().flatten().any(|a| a.id.is_none()) {
        return;
    }
    let plans: Vec<Vec<(usize, Plan<'_>)>> = (0..files.len()).map(|f| seen.plan(f)).collect();
    let given = seen.fresh_ids(game, &plans);
    for (f, mine) in plans.into_iter().enumerate() {
        for (index, plan) in mine {
            if let Some(a) = seen.reads[f].iter().find(|a| a.index == index) {
                report(&mut reports[f], a, &plan, &given);
            }
        }
    }
}

/// A game's files as the rule reads them.
struct Seen<'d> {
    /// Each file's path and locale.
    files: Vec<(&'d str, &'d str)>,
    /// Each file's `version`.
    versions: Vec<&'d str>,
    reads: Vec<Vec<Read<'d>>>,
    /// How often each file lists each window.
    listed: Vec<BTreeMap<Window<'d>, usize>>,
    /// The ids each file uses.
    used: Vec<BTreeSet<&'d str>>,
    /// The files, the default locale's first, then the registry's order.
    order: Vec<usize>,
}

impl<'d> Seen<'d> {
    fn new(game: &Game, files: &[(&'d JsonFile<'d>, &'d str)]) -> Seen<'d> {
        let reads: Vec<Vec<Read<'d>>> = files
            .iter()
            .map(|(file, _)| activities(&file.root))
            .collect();
        let listed = reads
            .iter()
            .map(|acts| {
                let mut counts = BTreeMap::new();
                for window in acts.iter().filter_map(|a| a.window) {
                    *counts.entry(window).or_insert(0) += 1;
                }
                counts
            })
            .collect();
        let used = reads
            .iter()
            .map(|acts| acts.iter().filter_map(|a| a.id.flatten()).collect())
            .collect();
        let mut order: Vec<usize> = (0..files.len()).collect();
        order.sort_by_key(|&f| files[f].1 != game.default_locale);
        Seen {
            files: files.iter().map(|(file, l)| (file.path, *l)).collect(),
            versions: files
                .iter()
                .map(|(file, _)| {
                    file.root
                        .get("version")
                        .and_then(Node::as_str)
                        .unwrap_or("")
                })
                .collect(),
            reads,
            listed,
            used,
            order,
        }
    }

    /// Whether some file lists `window` twice.
    fn twice(&self, window: &Window<'_>) -> bool {
        self.listed.iter().any(|c| c.get(window).copied() > Some(1))
    }

    /// The file that gives a window listed twice its ids (and names the
    /// version of a fresh id): the first in [`Seen::order`] that lists it.
    fn reference(&self, window: &Window<'_>) -> Option<usize> {
        self.order
            .iter()
            .copied()
            .find(|&f| self.listed[f].contains_key(window))
    }

    /// What each activity without an id of file `f` gets, by its index.
    fn plan(&self, f: usize) -> Vec<(usize, Plan<'d>)> {
        let acts = &self.reads[f];
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
            for &g in self.order.iter().filter(|&&g| g != f) {
                for b in self.reads[g].iter().filter(|b| b.window == Some(window)) {
                    if let Some(Some(id)) = b.id
                        && !self.used[f].contains(id)
                        && !candidates.iter().any(|(c, _, _)| *c == id)
                    {
                        candidates.push((id, b.name, self.files[g].0));
                    }
                }
            }
            let plan = match candidates.len() {
                1 if without_id == 1 => Plan::Reuse(candidates[0].0, candidates[0].2),
                0 if !self.twice(&window) => Plan::Fresh(window, 0),
                0 if self.reference(&window) == Some(f) => Plan::Fresh(window, nth),
                0 => Plan::Wait(self.reference(&window).map_or("", |r| self.files[r].0)),
                _ => Plan::Choose(candidates),
            };
            mine.push((a.index, plan));
        }
        mine
    }

    /// The fresh ids the plans ask for, handed out once for the game: each
    /// in the order of the first file that lists its window (the numbers
    /// follow the file, as a reader reads it), above every number in use.
    fn fresh_ids(
        &self,
        game: &Game,
        plans: &[Vec<(usize, Plan<'d>)>],
    ) -> BTreeMap<(Window<'d>, usize), String> {
        let mut wanted: BTreeSet<(Window<'_>, usize)> = BTreeSet::new();
        for plan in plans.iter().flatten() {
            if let (_, Plan::Fresh(window, nth)) = plan {
                wanted.insert((*window, *nth));
            }
        }
        let mut wanted: Vec<(usize, usize, (Window<'_>, usize))> = wanted
            .into_iter()
            .map(|key| {
                let f = self.reference(&key.0);
                let rank = f.and_then(|f| self.order.iter().position(|&o| o == f));
                let place = f
                    .and_then(|f| {
                        let acts = &self.reads[f];
                        acts.iter()
                            .filter(|a| a.window == Some(key.0))
                            .nth(key.1)
                            .or_else(|| acts.iter().find(|a| a.window == Some(key.0)))
                    })
                    .map_or(usize::MAX, |a| a.index);
                (rank.unwrap_or(usize::MAX), place, key)
            })
            .collect();
        wanted.sort();
        let mut fresh = ids::Fresh::new(self.used.iter().flatten().copied());
        let mut given = BTreeMap::new();
        for (rank, _, key) in wanted {
            let version = self.order.get(rank).map_or("", |&f| self.versions[f]);
            given.insert(key, fresh.take(&ids::prefix(&game.id, version)));
        }
        given
    }
}

/// Reports the `missing-id` warning of activity `a` as `plan` says, with
/// its candidates as notes and its fix when there is one.
fn report(
    report: &mut Reporter<'_>,
    a: &Read<'_>,
    plan: &Plan<'_>,
    given: &BTreeMap<(Window<'_>, usize), String>,
) {
    let index = a.index;
    let name = if a.name.is_empty() {
        format!("#{index}")
    } else {
        a.name.to_owned()
    };
    let message = msg!("missing-id", name = name.as_str());
    let (help, id) = match plan {
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
    report.value(
        &format!("/activities/{index}"),
        Code::MissingId,
        Warning,
        message,
        Some(help),
    );
    if let Plan::Choose(candidates) = plan {
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
