//! Rewrites of the source files: `fmt` (canonical form) and `check --fix`
//! (the exact fixes of the diagnostics), the library half of both commands.
//! Every file is replaced through [`crate::atomic`], and only when the
//! rewrite is certain: `fmt` leaves a file with errors alone, `--fix` leaves
//! alone a file whose fixes would not give valid JSON.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::Context as _;

use rayon::prelude::*;

use super::check::{GAMES_AT_ONCE, canonical_text, check_files, check_tree, games_in_path_order};
use super::kept;
use crate::diagnostics::{self, Code, Diagnostic, Fix};
use crate::i18n::{Msg, msg};
use crate::source::{LoadedGame, Overlay, Tree};
use crate::validate::{Keep, Validator};
use crate::{atomic, tree, validate};

/// What `fmt` did (or, with `check_only`, would do).
#[derive(Debug)]
pub struct Formatted {
    /// Files rewritten (or that would be), relative to the root.
    pub changed: Vec<String>,
    /// What changes in each file of `changed`, in the same order
    /// ([`explain_format`]).
    pub why: Vec<Msg>,
    /// Files read and found canonical or rewritten.
    pub formatted: usize,
    /// The errors that kept files unchanged.
    pub errors: Vec<Diagnostic>,
    /// How many files those errors are in.
    pub broken: usize,
}

/// Rewrites `games.json` and every data file it lists in canonical form,
/// leaving files with errors alone (their canonical form is unknown).
pub fn format_tree(root: &Path, options: &validate::Options) -> anyhow::Result<Formatted> {
    let (formatted, canonical) = formatting(root, options)?;
    for (path, text) in canonical {
        atomic::write(&root.join(&path), text.as_bytes())
            .with_context(|| msg!("err-write", path = path.as_str()))?;
    }
    Ok(formatted)
}

/// What [`format_tree`] would change (`fmt --check`); writes nothing.
pub fn check_format(root: &Path, options: &validate::Options) -> anyhow::Result<Formatted> {
    formatting(root, options).map(|(formatted, _)| formatted)
}

/// What formatting the tree changes, and the canonical text of each file
/// it changes.
fn formatting(
    root: &Path,
    options: &validate::Options,
) -> anyhow::Result<(Formatted, Vec<(String, String)>)> {
    let tree = crate::load::load(root, &Overlay::new())?;
    let checked = check_tree(&tree, options)?;
    let errors: Vec<Diagnostic> = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .cloned()
        .collect();
    let broken: BTreeSet<&str> = errors.iter().map(|d| d.file.as_str()).collect();

    // The registry, every data file it lists and every file of the kinds
    // checked file by file (the announcements boards), as the check found them.
    let sources = std::iter::once(tree::REGISTRY_PATH.to_owned())
        .chain(checked.games.iter().flat_map(|g| {
            g.game
                .locales
                .iter()
                .map(|locale| tree::data_path(&g.game.id, locale))
        }))
        .chain(checked.files.iter().map(|a| a.path.clone()));
    let mut formatted = 0;
    let mut changed = Vec::new();
    let mut why = Vec::new();
    let mut texts = Vec::new();
    for path in sources.filter(|path| !broken.contains(path.as_str())) {
        // A listed file that is missing is the check's `missing-file`
        // error; one that is not text, its `json-syntax` error.
        let Some(current) = tree.text(&path) else {
            continue;
        };
        let Some(canonical) = canonical_text(&path, current) else {
            continue;
        };
        formatted += 1;
        if current != canonical {
            why.push(explain_format(current, &canonical));
            texts.push((path.clone(), canonical));
            changed.push(path);
        }
    }
    let broken = broken.len();
    let formatted = Formatted {
        changed,
        why,
        formatted,
        errors,
        broken,
    };
    Ok((formatted, texts))
}

/// What reformatting `current` into `canonical` changes, in the words of
/// `fmt --check`: the order of keys, the indentation, the order of
/// activities, the line endings, and the first line that differs.
pub fn explain_format(current: &str, canonical: &str) -> Msg {
    use serde_json::Value;
    /// Each object's keys in order, and each activity's name and start.
    fn walk(value: &Value, keys: &mut Vec<Vec<String>>, activities: &mut Vec<String>) {
        match value {
            Value::Object(members) => {
                keys.push(members.keys().cloned().collect());
                if let Some(items) = members.get("activities").and_then(Value::as_array) {
                    activities.extend(items.iter().map(|a| {
                        let field = |k| a.get(k).and_then(Value::as_str).unwrap_or("");
                        format!("{}\u{1f}{}", field("name"), field("startTime"))
                    }));
                }
                members.values().for_each(|v| walk(v, keys, activities));
            }
            Value::Array(items) => items.iter().for_each(|i| walk(i, keys, activities)),
            _ => {}
        }
    }
    let shape = |text: &str| {
        let mut keys = Vec::new();
        let mut activities = Vec::new();
        if let Ok(value) = serde_json::from_str::<Value>(text) {
            walk(&value, &mut keys, &mut activities);
        }
        keys.sort();
        (keys, activities)
    };
    let (keys_now, activities_now) = shape(current);
    let (keys_then, activities_then) = shape(canonical);
    let mut what = Vec::new();
    if keys_now != keys_then {
        what.push(msg!("fmt-why-key-order"));
    }
    let indent = |text: &str| {
        text.lines()
            .map(|l| &l[..l.len() - l.trim_start().len()])
            .find(|ws| !ws.is_empty())
            .map(str::to_owned)
    };
    if indent(current) != indent(canonical) {
        what.push(msg!("fmt-why-indentation"));
    }
    if activities_now != activities_then {
        what.push(msg!("fmt-why-activity-order"));
    }
    if current.contains('\r') {
        what.push(msg!("fmt-why-line-endings"));
    }
    let shown = |line: &str| {
        let line = line.trim_end_matches('\r');
        match line.char_indices().nth(80) {
            Some((cut, _)) => format!("{}…", &line[..cut]),
            None => line.to_owned(),
        }
    };
    let mut now = current.split('\n');
    let mut then = canonical.split('\n');
    let mut line = 1;
    let first = loop {
        match (now.next(), then.next()) {
            (Some(a), Some(b)) if a.trim_end_matches('\r') == b => line += 1,
            (None, None) => break None,
            (a, b) => break Some((shown(a.unwrap_or("")), shown(b.unwrap_or("")))),
        }
    };
    let reasons = what.len();
    let what = crate::i18n::Arg::List(what, "list-comma");
    match first {
        Some((before, after)) => msg!(
            "fmt-why",
            reasons = reasons,
            what = what,
            line = line,
            before = before,
            after = after
        ),
        None => msg!("fmt-why-only", what = what),
    }
}

/// One file `--fix` changed (or would change).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixedFile {
    /// Relative to the root.
    pub path: String,
    pub before: String,
    pub after: String,
    /// How many fixes were applied.
    pub fixes: usize,
    /// Each fix applied, where it was made in [`FixedFile::before`], in
    /// the order of the text.
    pub changes: Vec<Change>,
}

/// One fix `--fix` applied: where (in the text before any fix), by which
/// rule, what was there and what is there now, and the notes of its
/// diagnostic (where a rewritten date now falls in its version).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub line: usize,
    pub column: usize,
    pub code: Code,
    pub before: String,
    pub after: String,
    pub notes: Vec<Msg>,
}

impl Change {
    /// The change as the machines read it (`check --fix --format json`, the
    /// agents' fix answers), under `file` when the answer spans files.
    pub fn to_json(&self, file: Option<&str>) -> serde_json::Value {
        let mut out = serde_json::Map::new();
        if let Some(file) = file {
            out.insert("file".into(), file.into());
        }
        let change = serde_json::json!({
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "before": self.before,
            "after": self.after,
            "notes": self.notes,
        });
        if let serde_json::Value::Object(fields) = change {
            out.extend(fields);
        }
        serde_json::Value::Object(out)
    }

    /// The change in one line (`path:line:col rule: `x` → `y``) and its
    /// notes, for a person to read before trusting it.
    pub fn describe(&self, path: &str) -> Msg {
        let shown = |s: &str| {
            s.replace('\n', "\\n")
                .replace('\r', "\\r")
                .replace('\u{feff}', "\\u{feff}")
        };
        let kind = match (self.before.is_empty(), self.after.is_empty()) {
            (true, _) => "insert",
            (_, true) => "delete",
            _ => "replace",
        };
        msg!(
            "fix-change",
            place = format!("{path}:{}:{}", self.line, self.column),
            code = self.code.as_str(),
            kind = kind,
            before = shown(&self.before),
            after = shown(&self.after)
        )
    }
}

/// One applied fix: the start and end of what it replaced and the length
/// of its replacement, in the text it was applied to.
type Edit = (usize, usize, usize);

/// Maps byte `offset` of a text back to the text before `edits` (start,
/// end and replacement length in the earlier text, in its order): an
/// offset inside a replacement maps to the start of what it replaced.
fn map_back(edits: &[Edit], offset: usize) -> usize {
    let mut delta: isize = 0;
    for &(start, end, len) in edits {
        let new_start = start.saturating_add_signed(delta);
        if offset < new_start {
            break;
        }
        if offset < new_start + len {
            return start;
        }
        delta += len as isize - (end - start) as isize;
    }
    offset.saturating_add_signed(-delta)
}

impl FixedFile {
    /// The change as a unified diff with `a/` and `b/` paths (`git apply`
    /// and `patch -p1` take it).
    pub fn patch(&self) -> String {
        similar::TextDiff::from_lines(&self.before, &self.after)
            .unified_diff()
            .context_radius(2)
            .header(&format!("a/{}", self.path), &format!("b/{}", self.path))
            .to_string()
    }
}

/// What `check --fix` did (the agents' draft fixes).
#[derive(Debug)]
pub struct Fixed {
    /// The files the fixes changed, in path order.
    pub files: Vec<FixedFile>,
    /// Files with fixes that were left alone: applying them would not give
    /// valid JSON (another mistake of the file has no exact fix).
    pub left: Vec<String>,
    /// What the check finds in the tree as the fixes leave it, sorted.
    pub remaining: Vec<Diagnostic>,
}

/// What [`fix_loaded`] leaves once every file is told.
#[derive(Debug)]
pub struct Fixing {
    /// How many files the fixes changed.
    pub files: usize,
    /// Files with fixes that were left alone (see [`Fixed::left`]).
    pub left: Vec<String>,
    /// What the check finds in the tree as the fixes leave it, sorted.
    pub remaining: Vec<Diagnostic>,
}

/// How many times fixes are applied and a part of the tree checked again:
/// a syntax fix lets the rules run, and their fixes come in the next round.
const ROUNDS: usize = 4;

/// [`fix_loaded`] with the texts of `overlay` read in place of the files
/// on disk (an agent's draft): the fixes apply to the overlay's text, and
/// a [`FixedFile::before`] is that text. Writes nothing.
pub fn fix_with(
    root: &Path,
    overlay: Overlay,
    options: &validate::Options,
    only: Option<&BTreeSet<String>>,
) -> anyhow::Result<Fixed> {
    let mut tree = crate::load::load(root, &overlay)?;
    drop(overlay);
    let mut files = Vec::new();
    let fixing = fix_loaded(&mut tree, options, only, &mut |file| {
        files.push(file);
        Ok(())
    })?;
    Ok(Fixed {
        files,
        left: fixing.left,
        remaining: fixing.remaining,
    })
}

/// Applies every exact fix of the check's diagnostics to the files of
/// `tree` (those of `only`, when given), in memory, from one check: the
/// registry first (its fixes decide the games), then the files checked file by file and the
/// kept files, then the games in their files' order, a few dozen at once
/// on every core. Each part is checked again after its fixes (a fixed
/// syntax error lets the rules run, whose fixes come next), and only that
/// part. A file is changed only when the fixes of a round give valid
/// JSON; otherwise it is left as it was, and listed in [`Fixing::left`].
/// No fix is a guess: each is what its rule calls certain.
///
/// `each` is told every changed file, in path order, as soon as it is
/// fixed (the caller writes it, prints it, or keeps it); the tree holds
/// the fixed texts after. Nothing is written here.
pub fn fix_loaded(
    tree: &mut Tree,
    options: &validate::Options,
    only: Option<&BTreeSet<String>>,
    each: &mut dyn FnMut(FixedFile) -> anyhow::Result<()>,
) -> anyhow::Result<Fixing> {
    let validator = Validator::new(&tree.project)?;
    let mut left = BTreeSet::new();
    let texts = TreeTexts;
    let (mut held, mut remaining) = fix_unit(
        tree,
        &texts,
        &|tree: &Tree| validator.registry(&tree.project).1,
        only,
        &mut left,
    );
    let by_file = |tree: &Tree| check_files(tree, &validator, Keep::Diagnostics).1;
    let kept = |tree: &Tree| kept::diagnostics(tree);
    let parts: [&Check<'_, Tree>; 2] = [&by_file, &kept];
    for check in parts {
        let (files, found) = fix_unit(tree, &texts, check, only, &mut left);
        held.extend(files);
        remaining.extend(found);
    }
    let (games, _) = validator.registry(&tree.project);
    let mut held = held.into_values().peekable();
    let mut told = 0;
    for chunk in games_in_path_order(games).chunks(GAMES_AT_ONCE) {
        #[allow(clippy::type_complexity)]
        let done: Vec<(
            BTreeMap<String, FixedFile>,
            Vec<Diagnostic>,
            BTreeSet<String>,
        )> = chunk
            .par_iter()
            .map(|group| {
                let mut files = BTreeMap::new();
                let mut found = Vec::new();
                let mut left = BTreeSet::new();
                for game in group {
                    let mut loaded = tree.game(game);
                    let check = |loaded: &LoadedGame| {
                        validator
                            .game(loaded, options, Keep::Diagnostics)
                            .diagnostics
                    };
                    let (fixed, rest) = fix_unit(&mut loaded, &GameTexts, &check, only, &mut left);
                    files.extend(fixed);
                    found.extend(rest);
                }
                (files, found, left)
            })
            .collect();
        for (files, found, unfixable) in done {
            remaining.extend(found);
            left.extend(unfixable);
            for file in files.into_values() {
                while let Some(first) = held.next_if(|h| h.path < file.path) {
                    told += 1;
                    each(first)?;
                }
                tree.set_text(&file.path, file.after.clone());
                told += 1;
                each(file)?;
            }
        }
    }
    for file in held {
        told += 1;
        each(file)?;
    }
    diagnostics::sort(&mut remaining);
    Ok(Fixing {
        files: told,
        left: left.into_iter().collect(),
        remaining,
    })
}

/// What checks one part of the tree as `S` holds it.
type Check<'c, S> = dyn Fn(&S) -> Vec<Diagnostic> + 'c;

/// Where a part of the fixes reads and puts the texts it fixes.
trait Texts<S> {
    fn get(&self, state: &S, path: &str) -> Option<String>;
    fn set(&self, state: &mut S, path: &str, text: String);
}

/// The texts of the tree in memory (the registry, the files checked file by file, the kept files).
struct TreeTexts;

impl Texts<Tree> for TreeTexts {
    fn get(&self, tree: &Tree, path: &str) -> Option<String> {
        tree.text(path).map(str::to_owned)
    }
    fn set(&self, tree: &mut Tree, path: &str, text: String) {
        tree.set_text(path, text);
    }
}

/// The texts of one game's files, as the validator takes them.
struct GameTexts;

impl Texts<LoadedGame> for GameTexts {
    fn get(&self, game: &LoadedGame, path: &str) -> Option<String> {
        let file = game.files.iter().find(|f| f.path == path)?;
        file.source.as_ref().map(|s| s.text.clone())
    }
    fn set(&self, game: &mut LoadedGame, path: &str, text: String) {
        if let Some(file) = game.files.iter_mut().find(|f| f.path == path) {
            file.source = Some(crate::source::SourceFile {
                path: path.to_owned(),
                text,
            });
        }
    }
}

/// The fixes of one part of the tree (the registry, the files checked file by file, the kept
/// files, one game), in rounds: `check` finds the diagnostics of the part
/// as `state` holds it, their fixes are applied through `texts`, and the
/// part is checked again until no fix applies. Returns the files changed,
/// by path, and what the last check found.
fn fix_unit<S>(
    state: &mut S,
    texts: &dyn Texts<S>,
    check: &Check<'_, S>,
    only: Option<&BTreeSet<String>>,
    left: &mut BTreeSet<String>,
) -> (BTreeMap<String, FixedFile>, Vec<Diagnostic>) {
    let mut files: BTreeMap<String, FixedFile> = BTreeMap::new();
    // The edits of each round of each file, to place later rounds' changes
    // in the text as it was before any fix.
    let mut rounds: BTreeMap<String, Vec<Vec<Edit>>> = BTreeMap::new();
    let mut found = check(state);
    for _ in 0..ROUNDS {
        let mut by_file: BTreeMap<&str, Vec<(&Diagnostic, &Fix)>> = BTreeMap::new();
        for d in &found {
            if let Some(fix) = &d.fix
                && only.is_none_or(|only| only.contains(&d.file))
                && !left.contains(&d.file)
            {
                by_file.entry(d.file.as_str()).or_default().push((d, fix));
            }
        }
        let mut progressed = false;
        for (path, fixes) in by_file {
            let Some(current) = texts.get(state, path) else {
                continue;
            };
            let Some(after) = apply(&current, path, &fixes, &mut files, &mut rounds, left) else {
                continue;
            };
            texts.set(state, path, after);
            progressed = true;
        }
        if !progressed {
            break;
        }
        found = check(state);
    }
    for file in files.values_mut() {
        file.after = texts.get(state, &file.path).unwrap_or_default();
    }
    (files, found)
}

/// Applies `found` (the fixes of `path`, with their diagnostics) to
/// `current`, the file's text now, and records the changes in `files`
/// (where, in the text before any fix) and the edits in `rounds`. `None`
/// when nothing changes, or when the result is not JSON (the file is then
/// put in `left`).
fn apply(
    current: &str,
    path: &str,
    found: &[(&Diagnostic, &Fix)],
    files: &mut BTreeMap<String, FixedFile>,
    rounds: &mut BTreeMap<String, Vec<Vec<Edit>>>,
    left: &mut BTreeSet<String>,
) -> Option<String> {
    let fixes: Vec<&Fix> = found.iter().map(|(_, fix)| *fix).collect();
    let (after, applied) = diagnostics::apply_fixes_listed(current, &fixes);
    if applied.is_empty() || after == current {
        return None;
    }
    if !validate::is_json(&after) {
        left.insert(path.to_string());
        return None;
    }
    let file = files.entry(path.to_string()).or_insert_with(|| FixedFile {
        path: path.to_string(),
        before: current.to_owned(),
        after: String::new(),
        fixes: 0,
        changes: Vec::new(),
    });
    let earlier = rounds.entry(path.to_string()).or_default();
    let locator = diagnostics::Locator::new(&file.before);
    for &index in &applied {
        let (d, fix) = found[index];
        let offset = earlier
            .iter()
            .rev()
            .fold(fix.start, |offset, edits| map_back(edits, offset));
        let at = locator.locate(offset, offset);
        file.changes.push(Change {
            line: at.line,
            column: at.column,
            code: d.code,
            before: current[fix.start..fix.end].to_string(),
            after: fix.replacement.clone(),
            notes: d.notes.clone(),
        });
    }
    let mut edits: Vec<Edit> = applied
        .iter()
        .map(|&i| (fixes[i].start, fixes[i].end, fixes[i].replacement.len()))
        .collect();
    edits.sort_unstable();
    earlier.push(edits);
    file.changes.sort_by_key(|c| (c.line, c.column));
    file.fixes += applied.len();
    Some(after)
}
