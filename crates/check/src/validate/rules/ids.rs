//! `missing-id`: every activity has an `id`, the same in every locale of
//! its game ([`crate::model::ids`] has the form). A game-wide rule: the id
//! an activity should get depends on the game's other files, and on the
//! base (an earlier revision of the tree, [`ids::Base`]) when there is one.
//!
//! Each activity without an id gets one on evidence, in this order, and
//! its warning lists the evidence with the fix:
//! 1. **the base**: the base's version of the same file holds an activity
//!    with the same name and times, else the same name, else the same
//!    times (each unique on both sides), whose id this file does not use:
//!    that id comes back (a file rewritten by a script keeps its ids);
//! 2. **the same times**: the activities of a window (`startTime` and
//!    `endTime` as written) are paired with those of the same window in
//!    the window's reference file (the first of the default locale, then
//!    the registry's order, that lists it), once those that share an id
//!    are set aside: one left on each side are twins;
//! 3. **the same place**: when both files list the same number of
//!    activities in the window, the n-th left on one side is the twin of
//!    the n-th on the other;
//! 4. **the same cover**: when they list different numbers, an activity
//!    whose non-empty `cover` is the only one of its window with that
//!    cover on both sides is the twin of the one with the same cover.
//!
//! Twins share one id: the one either has, else a fresh one (handed out
//! once for the game, in the order of the files and of their activities,
//! so each file's fix agrees with the others'). Where no evidence decides
//! (the files list different numbers in a window), the warning has no
//! exact fix but one choice per candidate (the editor's code actions, the
//! agents' `choices`), never none. Everything is keyed by hash (windows,
//! names, ids): the rule is linear in the number of activities.
//!
//! `check --fix` applies the exact fixes; after it, a second run finds only
//! the warnings that wait for a contributor's choice, and fixes nothing.

use std::collections::BTreeMap;

use foldhash::{HashMap, HashMapExt as _, HashSet};

use crate::diagnostics::Severity::Warning;
use crate::diagnostics::{Choice, Code, FileFix, Fix};
use crate::i18n::{Msg, msg};
use crate::json::Node;
use crate::model::{Game, ids};
use crate::validate::{JsonFile, Reporter};

use super::base::{Read, Window, activities};

/// At most this many candidates are listed, and offered, per warning: a
/// window of thousands is not read one candidate at a time, and the list
/// stays linear.
const CHOICES: usize = 12;

/// An activity of the game: its file and its place in that file's reading.
type At = (usize, usize);

/// How the base's activity matched.
#[derive(Debug, Clone, Copy)]
enum Match {
    NameAndTimes,
    Name,
    Times,
}

/// Why two activities of different files are twins.
#[derive(Debug, Clone, Copy)]
enum Link {
    /// The only ones of their window without a twin, on both sides.
    Times,
    /// Number `.0` of `.1` in their window on both sides.
    Place(usize, usize),
    /// The only ones of their window with this cover, on both sides.
    Cover,
}

/// `missing-id` on every file of one game. `files` are the game's parsed
/// documents with their locales, `reports` one reporter for each; `base`
/// the ids of an earlier revision, when there is one.
pub fn missing_ids<'r>(
    game: &Game,
    files: &[(&'r JsonFile<'r>, &str)],
    base: Option<&ids::Base>,
    reports: &mut [Reporter<'r>],
) {
    let reads: Vec<Vec<Read<'_>>> = files
        .iter()
        .map(|(file, _)| activities(&file.root))
        .collect();
    if !reads.iter().flatten().any(|a| a.id.is_none()) {
        return;
    }
    let mut pairing = Pairing::new(game, files, &reads);
    if let Some(base) = base {
        pairing.give_base(base);
    }
    pairing.pair_windows();
    let given = pairing.group_ids(game, base);
    for (f, acts) in reads.iter().enumerate() {
        for (k, a) in acts.iter().enumerate() {
            if a.id.is_none() {
                let outcome = pairing.outcome((f, k), &given);
                report(&mut reports[f], &pairing, a, (f, k), &outcome);
            }
        }
    }
}

/// A game's activities as the rule pairs them.
struct Pairing<'d> {
    /// Each file's path.
    paths: Vec<&'d str>,
    /// Each file's text.
    texts: Vec<&'d str>,
    /// Each file's `version`.
    versions: Vec<&'d str>,
    reads: &'d [Vec<Read<'d>>],
    /// The files, the default locale's first, then the registry's order.
    order: Vec<usize>,
    /// Where each file's activities start in the flat numbering of
    /// [`Pairing::parent`].
    offsets: Vec<usize>,
    /// The id each activity has (written) or gets from the base.
    known: Vec<Vec<Option<&'d str>>>,
    /// The ids each file has or gets from the base.
    known_in: Vec<HashSet<&'d str>>,
    /// The base's evidence for the ids it gives: the revision, the base
    /// activity's name and how it matched.
    by_base: HashMap<At, (&'d str, &'d str, Match)>,
    /// The revision of the base.
    rev: &'d str,
    /// Twins: (the reference file's activity, the other's, why).
    links: Vec<(At, At, Link)>,
    /// Each activity's links, by their index in [`Pairing::links`].
    linked: HashMap<At, Vec<usize>>,
    /// Activities no evidence pairs, with the candidates of the reference
    /// file (at most [`CHOICES`]) and how many there are in all.
    choose: HashMap<At, (Vec<At>, usize)>,
    /// Union-find over the flat numbering: twins are one group.
    parent: Vec<usize>,
}

impl<'d> Pairing<'d> {
    fn new(game: &Game, files: &[(&'d JsonFile<'d>, &str)], reads: &'d [Vec<Read<'d>>]) -> Self {
        let mut order: Vec<usize> = (0..files.len()).collect();
        order.sort_by_key(|&f| files[f].1 != game.default_locale);
        let mut offsets = Vec::with_capacity(reads.len());
        let mut total = 0;
        for acts in reads {
            offsets.push(total);
            total += acts.len();
        }
        let known: Vec<Vec<Option<&str>>> = reads
            .iter()
            .map(|acts| acts.iter().map(|a| a.id.flatten()).collect())
            .collect();
        let known_in = known
            .iter()
            .map(|ids| ids.iter().flatten().copied().collect())
            .collect();
        Pairing {
            paths: files.iter().map(|(file, _)| file.path).collect(),
            texts: files.iter().map(|(file, _)| file.text).collect(),
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
            order,
            offsets,
            known,
            known_in,
            by_base: HashMap::new(),
            rev: "",
            links: Vec::new(),
            linked: HashMap::new(),
            choose: HashMap::new(),
            parent: (0..total).collect(),
        }
    }

    /// Gives back the base's ids: to each activity without one, the id of
    /// the base's activity of the same file with the same name and times,
    /// else the same name, else the same times (each unique among those
    /// still unmatched on both sides), unless the file uses it already.
    fn give_base(&mut self, base: &'d ids::Base) {
        self.rev = &base.rev;
        for f in 0..self.reads.len() {
            let Some(theirs) = base.files.get(self.paths[f]) else {
                continue;
            };
            let mut free: Vec<bool> = theirs
                .iter()
                .map(|b| !self.known_in[f].contains(b.id.as_str()))
                .collect();
            for how in [Match::NameAndTimes, Match::Name, Match::Times] {
                let key = |name: &'d str, start: &'d str, end: &'d str| match how {
                    Match::NameAndTimes => (name, start, end),
                    Match::Name => (name, "", ""),
                    Match::Times => ("", start, end),
                };
                // Each key's base activities still free, and ours still
                // without an id: a key with one of each is a match.
                let mut there: HashMap<(&str, &str, &str), Vec<usize>> = HashMap::new();
                for (j, b) in theirs.iter().enumerate().filter(|(j, _)| free[*j]) {
                    there
                        .entry(key(&b.name, &b.start, &b.end))
                        .or_default()
                        .push(j);
                }
                let mut here: HashMap<(&str, &str, &str), Vec<usize>> = HashMap::new();
                for (k, a) in self.reads[f].iter().enumerate() {
                    if self.known[f][k].is_none()
                        && self.reads[f][k].id.is_none()
                        && let Some((start, end)) = a.window
                    {
                        here.entry(key(a.name, start, end)).or_default().push(k);
                    }
                }
                let mut found: Vec<(usize, usize)> = here
                    .iter()
                    .filter_map(|(key, ks)| match (ks.as_slice(), there.get(key)) {
                        ([k], Some(js)) if js.len() == 1 => Some((*k, js[0])),
                        _ => None,
                    })
                    .collect();
                found.sort_unstable();
                for (k, j) in found {
                    let b = &theirs[j];
                    free[j] = false;
                    self.known[f][k] = Some(&b.id);
                    self.known_in[f].insert(&b.id);
                    self.by_base.insert((f, k), (&b.id, &b.name, how));
                }
            }
        }
    }

    /// Pairs the activities of every window with those of the window's
    /// reference file; one pass over the activities, keyed by window.
    fn pair_windows(&mut self) {
        let mut index: HashMap<Window<'d>, usize> = HashMap::new();
        // Each window's activities, file by file in `order`.
        let mut windows: Vec<Vec<At>> = Vec::new();
        for &f in &self.order {
            for (k, a) in self.reads[f].iter().enumerate() {
                if let Some(window) = a.window {
                    let w = *index.entry(window).or_insert_with(|| {
                        windows.push(Vec::new());
                        windows.len() - 1
                    });
                    windows[w].push((f, k));
                }
            }
        }
        for members in &windows {
            let mut chunks = members.chunk_by(|a, b| a.0 == b.0);
            let Some(reference) = chunks.next() else {
                continue;
            };
            for other in chunks {
                self.pair(reference, other);
            }
        }
    }

    /// Pairs one window's activities of the reference file (`ours`) with
    /// those of another file (`theirs`).
    fn pair(&mut self, ours: &[At], theirs: &[At]) {
        let (r, f) = (ours[0].0, theirs[0].0);
        // Those whose id the other file has are its twin's already.
        let rest = |list: &[At], other: usize| -> Vec<At> {
            list.iter()
                .copied()
                .filter(|&(g, k)| {
                    self.known[g][k].is_none_or(|id| !self.known_in[other].contains(id))
                })
                .collect()
        };
        let rest_r = rest(ours, f);
        let rest_f = rest(theirs, r);
        if rest_r.is_empty() || rest_f.is_empty() {
            return;
        }
        if rest_r.len() == 1 && rest_f.len() == 1 {
            self.link(rest_r[0], rest_f[0], Link::Times);
        } else if ours.len() == theirs.len() && rest_r.len() == rest_f.len() {
            let count = rest_r.len();
            for (n, (a, b)) in rest_r.into_iter().zip(rest_f).enumerate() {
                self.link(a, b, Link::Place(n + 1, count));
            }
        } else {
            let (rest_r, rest_f) = self.pair_by_cover(rest_r, rest_f);
            let shown: Vec<At> = rest_r.iter().copied().take(CHOICES).collect();
            for b in rest_f {
                if self.known[b.0][b.1].is_none() {
                    self.choose.insert(b, (shown.clone(), rest_r.len()));
                }
            }
        }
    }

    /// Pairs the activities of a window whose non-empty `cover` is the
    /// only one of its kind on each side; returns those left unpaired.
    fn pair_by_cover(&mut self, ours: Vec<At>, theirs: Vec<At>) -> (Vec<At>, Vec<At>) {
        let cover = |reads: &[Vec<Read<'d>>], (f, k): At| {
            reads[f][k]
                .node
                .get("cover")
                .and_then(Node::as_str)
                .filter(|c| !c.is_empty())
        };
        let count = |list: &[At]| {
            let mut seen: HashMap<&'d str, usize> = HashMap::new();
            for &at in list {
                if let Some(c) = cover(self.reads, at) {
                    *seen.entry(c).or_default() += 1;
                }
            }
            seen
        };
        let (count_r, count_f) = (count(&ours), count(&theirs));
        let unique_r: HashMap<&'d str, At> = ours
            .iter()
            .filter_map(|&at| cover(self.reads, at).map(|c| (c, at)))
            .filter(|(c, _)| count_r[c] == 1 && count_f.get(c) == Some(&1))
            .collect();
        let mut paired: HashSet<At> = HashSet::default();
        for &b in &theirs {
            if let Some(&a) = cover(self.reads, b).and_then(|c| unique_r.get(c)) {
                self.link(a, b, Link::Cover);
                paired.extend([a, b]);
            }
        }
        let left = |list: Vec<At>| list.into_iter().filter(|at| !paired.contains(at)).collect();
        (left(ours), left(theirs))
    }

    /// Makes `a` (of the reference file) and `b` twins, unless both have
    /// an id already (then they are two activities).
    fn link(&mut self, a: At, b: At, how: Link) {
        if self.known[a.0][a.1].is_some() && self.known[b.0][b.1].is_some() {
            return;
        }
        let n = self.links.len();
        self.links.push((a, b, how));
        self.linked.entry(a).or_default().push(n);
        self.linked.entry(b).or_default().push(n);
        let (x, y) = (self.find(a), self.find(b));
        if x != y {
            self.parent[y] = x;
        }
    }

    /// The group of `at`.
    fn find(&mut self, at: At) -> usize {
        let mut x = self.offsets[at.0] + at.1;
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    /// The ids of each group: those its members have (one, or several
    /// when twins disagree), else a fresh one, handed out in the order of
    /// the files and of their activities.
    fn group_ids(&mut self, game: &Game, base: Option<&ids::Base>) -> Vec<Vec<String>> {
        let total = self.parent.len();
        let mut given: Vec<Vec<String>> = vec![Vec::new(); total];
        for f in 0..self.reads.len() {
            for k in 0..self.reads[f].len() {
                if let Some(id) = self.known[f][k] {
                    let g = self.find((f, k));
                    if !given[g].iter().any(|have| have == id) {
                        given[g].push(id.to_owned());
                    }
                }
            }
        }
        let in_base = base
            .into_iter()
            .flat_map(|b| b.files.values().flatten().map(|a| a.id.as_str()));
        let mut fresh = ids::Fresh::new(self.known_in.iter().flatten().copied().chain(in_base));
        for i in 0..self.order.len() {
            let f = self.order[i];
            for k in 0..self.reads[f].len() {
                let waits = self.choose.contains_key(&(f, k));
                let g = self.find((f, k));
                if given[g].is_empty() && !waits && self.reads[f][k].window.is_some() {
                    given[g].push(fresh.take(&ids::prefix(&game.id, self.versions[f])));
                }
            }
        }
        given
    }

    /// What the activity `at` (without an id in its file) gets.
    fn outcome(&mut self, at: At, given: &[Vec<String>]) -> Outcome {
        if self.reads[at.0][at.1].window.is_none() && self.known[at.0][at.1].is_none() {
            return Outcome::NoWindow;
        }
        if let Some(id) = self.known[at.0][at.1] {
            return Outcome::Give(id.to_owned(), false);
        }
        if let Some((shown, all)) = self.choose.get(&at).cloned() {
            let mut candidates = Vec::new();
            for c in shown {
                let g = self.find(c);
                for id in &given[g] {
                    if !self.known_in[at.0].contains(id.as_str()) {
                        candidates.push((id.clone(), c));
                    }
                }
            }
            if !candidates.is_empty() {
                return Outcome::Choose(candidates, all);
            }
        }
        let g = self.find(at);
        match given[g].as_slice() {
            [] => Outcome::NoWindow,
            [id] => {
                let theirs = self.known_in.iter().any(|ids| ids.contains(id.as_str()));
                Outcome::Give(id.clone(), !theirs)
            }
            many => {
                let members: Vec<At> = self
                    .linked
                    .get(&at)
                    .into_iter()
                    .flatten()
                    .map(|&n| {
                        let (a, b, _) = self.links[n];
                        if a == at { b } else { a }
                    })
                    .collect();
                let candidates = many
                    .iter()
                    .filter_map(|id| {
                        let holder = members
                            .iter()
                            .find(|m| self.known[m.0][m.1] == Some(id.as_str()))?;
                        Some((id.clone(), *holder))
                    })
                    .collect();
                Outcome::Choose(candidates, many.len())
            }
        }
    }

    /// The notes that give the evidence for the id of `at`: the base's
    /// match, and each twin with why.
    fn evidence(&self, at: At) -> Vec<Msg> {
        let mut notes = Vec::new();
        if let Some((id, name, how)) = self.by_base.get(&at) {
            let (rev, id, name) = (self.rev, *id, *name);
            notes.push(match how {
                Match::NameAndTimes => {
                    msg!("missing-id-base-both", rev = rev, id = id, name = name)
                }
                Match::Name => msg!("missing-id-base-name", rev = rev, id = id, name = name),
                Match::Times => msg!("missing-id-base-times", rev = rev, id = id, name = name),
            });
        }
        for &n in self.linked.get(&at).into_iter().flatten() {
            let (a, b, how) = self.links[n];
            let twin = if a == at { b } else { a };
            let read = &self.reads[twin.0][twin.1];
            let (name, path) = (read.name, self.paths[twin.0]);
            notes.push(match how {
                Link::Times => msg!("missing-id-twin-times", name = name, path = path),
                Link::Cover => msg!("missing-id-twin-cover", name = name, path = path),
                Link::Place(nth, count) => msg!(
                    "missing-id-twin-place",
                    name = name,
                    path = path,
                    nth = nth,
                    count = count
                ),
            });
        }
        notes
    }

    /// The name and path of `at`, for a candidate's note.
    fn named(&self, at: At) -> (&'d str, &'d str) {
        (self.reads[at.0][at.1].name, self.paths[at.0])
    }

    /// The edit that gives `at` the id `id` in its own file, when its file
    /// does not write one yet (a candidate whose id is a fresh one): a
    /// choice of its twin makes both, so the pair holds whichever file is
    /// fixed first.
    fn twin_edit(&self, at: At, id: &str) -> Option<FileFix> {
        let read = &self.reads[at.0][at.1];
        if read.id.is_some() {
            return None;
        }
        let (start, replacement) = insert_first(self.texts[at.0], read.node, id)?;
        Some(FileFix {
            file: self.paths[at.0].to_owned(),
            fix: Fix {
                start,
                end: start,
                replacement,
            },
        })
    }
}

/// What an activity without an id gets.
enum Outcome {
    /// This id; `true` when it is a fresh one.
    Give(String, bool),
    /// One of these ids, each with the activity that has it (or gets it),
    /// of so many candidates in all.
    Choose(Vec<(String, At)>, usize),
    /// No window to pair it by (a time is missing: the schema says so).
    NoWindow,
}

/// Reports the `missing-id` warning of activity `a` (at `at`) as
/// `outcome` says: its evidence as notes and its fix, or its candidates as
/// notes and choices.
fn report(
    report: &mut Reporter<'_>,
    pairing: &Pairing<'_>,
    a: &Read<'_>,
    at: At,
    outcome: &Outcome,
) {
    let index = a.index;
    let name = if a.name.is_empty() {
        format!("#{index}")
    } else {
        a.name.to_owned()
    };
    let message = msg!("missing-id", name = name.as_str());
    let help = match outcome {
        Outcome::Give(id, true) => msg!("missing-id-help-fresh", id = id.as_str()),
        Outcome::Give(id, false) => msg!("missing-id-help-give", id = id.as_str()),
        Outcome::Choose(candidates, _) => {
            msg!("missing-id-help-choose", count = candidates.len())
        }
        Outcome::NoWindow => msg!("missing-id-help-times"),
    };
    report.value(
        &format!("/activities/{index}"),
        Code::MissingId,
        Warning,
        message,
        Some(help),
    );
    match outcome {
        Outcome::Give(id, _) => {
            for note in pairing.evidence(at) {
                report.note(note);
            }
            if let Some((at, replacement)) = insert_first(report.text(), a.node, id) {
                report.fix_range(at, at, replacement);
            }
        }
        Outcome::Choose(candidates, all) => {
            let mut choices = BTreeMap::new();
            for (id, holder) in candidates {
                let (name, path) = pairing.named(*holder);
                report.note(msg!(
                    "missing-id-candidate",
                    id = id.as_str(),
                    name = name,
                    path = path
                ));
                if let Some((start, replacement)) = insert_first(report.text(), a.node, id) {
                    let title = msg!(
                        "missing-id-choice",
                        id = id.as_str(),
                        name = name,
                        path = path
                    );
                    let fix = Fix {
                        start,
                        end: start,
                        replacement,
                    };
                    let also = pairing.twin_edit(*holder, id);
                    choices
                        .entry(id.clone())
                        .or_insert(Choice { title, fix, also });
                }
            }
            if *all > candidates.len() {
                report.note(msg!("missing-id-more", count = *all - candidates.len()));
            }
            report.choices(choices.into_values().collect());
        }
        Outcome::NoWindow => {}
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
