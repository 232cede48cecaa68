//! Checking a tree game by game on every core: [`check`] for the
//! diagnostics only, [`check_documents`] keeping the typed documents,
//! [`check_with`] over unsaved texts, and a build's check, which
//! fingerprints each game's sources and skips a game whose last check
//! found nothing in the same inputs ([`check_key`]).

use std::collections::HashMap;
use std::path::Path;

use rayon::prelude::*;

use crate::diagnostics::{self, Diagnostic};
use crate::kind;
use crate::load;
use crate::model::{Draft, Game, Registry};
use crate::source::{Overlay, Tree};
use crate::tree::{self, REGISTRY_PATH};
use crate::validate::{self, CheckedFile, CheckedGame, Keep, Validator};

use super::cache::{CacheSalt, Key};
use super::kept;
use super::types::Checked;

/// Reads the tree under `root` into memory once ([`load::load`]) and
/// checks it, game by game on every core, for its diagnostics only: no
/// typed documents are built.
pub fn check(root: &Path, options: &validate::Options) -> anyhow::Result<Checked> {
    check_games(root, &Overlay::new(), options, Keep::Diagnostics)
}

/// [`check`] of a tree already read ([`load::load`]): reads nothing.
pub fn check_tree(tree: &Tree, options: &validate::Options) -> anyhow::Result<Checked> {
    let validator = Validator::new(&tree.project)?;
    Ok(check_loaded(
        tree,
        &validator,
        options,
        Keep::Diagnostics,
        None,
    ))
}

/// [`check`], and the fingerprint of each game's sources
/// ([`Checked::sources`]); with what the render uses again. A game whose
/// [`check_key`] is the one `clean` records (the output's manifest: its
/// last check found nothing) is not checked again.
pub(super) fn check_for_build(
    tree: Tree,
    options: &validate::Options,
    salt: &CacheSalt,
    clean: &HashMap<String, String>,
) -> anyhow::Result<(Checked, Prepared)> {
    let build = ForBuild { salt, clean };
    let validator = Validator::new(&tree.project)?;
    let checked = check_loaded(&tree, &validator, options, Keep::Diagnostics, Some(&build));
    Ok((checked, Prepared { tree, validator }))
}

/// What a build's check knows beyond a check: see [`check_for_build`].
struct ForBuild<'a> {
    salt: &'a CacheSalt,
    clean: &'a HashMap<String, String>,
}

/// The key (hex) of everything a game's check depends on but "now": the
/// tool (its version, in `salt`), the schemas (`schemas`:
/// [`schemas_digest`]), the game's registry entry and its data files
/// ([`sources_digest`]). "Now" is left out so the manifest, which records
/// the key, is a function of the data: the only rules that read "now"
/// (`stale`, `upcoming-version`) find nothing exactly while "now" is inside
/// every document's version window, so a clean check stays clean for equal
/// keys while "now" is inside them ([`super::manifest::Manifest::clean_checks`]).
pub(crate) fn check_key(
    salt: &CacheSalt,
    schemas: &[u8; 32],
    game: &Game,
    sources: &[u8; 16],
) -> String {
    let entry = serde_json::to_vec(game).unwrap_or_default();
    Key::new(salt, &[b"game-check", schemas, &entry, sources]).hex()
}

/// SHA-256 of the schemas a project is checked against: the registry's,
/// then each kind's in the order of [`kind::all`].
pub(crate) fn schemas_digest(project: &crate::source::Project) -> [u8; 32] {
    let mut digest = super::digest::Parts::default();
    let kinds = kind::all().iter().filter_map(|k| project.schema(k));
    for schema in std::iter::once(&project.games_schema).chain(kinds) {
        digest.put(&serde_json::to_vec(schema).unwrap_or_default());
    }
    digest.finish()
}

/// What a check read and compiled that the render of the same tree uses
/// again: the tree as read (the project, every file's text) and its
/// validator.
pub(crate) struct Prepared {
    pub tree: Tree,
    pub validator: Validator,
}

/// Like [`check`], and keeps every game's typed documents for what comes
/// next (rendering, `diff`, `fmt`, `status`).
pub fn check_documents(root: &Path, options: &validate::Options) -> anyhow::Result<Checked> {
    check_games(root, &Overlay::new(), options, Keep::Documents)
}

/// [`check`] with the texts of `overlay` read in place of the files on disk
/// (unsaved editor buffers, an agent's draft); nothing is written. A caller
/// that checks again after each edit keeps a [`super::LiveCheck`] instead, which
/// gives the same diagnostics at the cost of what changed.
pub fn check_with(
    root: &Path,
    overlay: &Overlay,
    options: &validate::Options,
) -> anyhow::Result<Checked> {
    check_games(root, overlay, options, Keep::Diagnostics)
}

fn check_games(
    root: &Path,
    overlay: &Overlay,
    options: &validate::Options,
    keep: Keep,
) -> anyhow::Result<Checked> {
    let tree = load::load(root, overlay)?;
    let validator = Validator::new(&tree.project)?;
    Ok(check_loaded(&tree, &validator, options, keep, None))
}

/// The check of a tree read already, game by game on every core.
fn check_loaded(
    tree: &Tree,
    validator: &Validator,
    options: &validate::Options,
    keep: Keep,
    build: Option<&ForBuild<'_>>,
) -> Checked {
    let project = &tree.project;
    let schemas = schemas_digest(project);
    let (games, mut all) = validator.registry(project);
    /// A game checked (or not: `reused`), with its sources' fingerprint
    /// and check key when the check is a build's.
    struct Done {
        game: CheckedGame,
        sources: Option<([u8; 16], String)>,
        reused: bool,
    }
    let (mut files, checked) = rayon::join(
        || check_files(tree, validator, keep),
        || -> Vec<Done> {
            games
                .par_iter()
                .map(|game| {
                    let loaded = tree.game(game);
                    let Some(build) = build else {
                        let game = validator.game(&loaded, options, keep);
                        return Done {
                            game,
                            sources: None,
                            reused: false,
                        };
                    };
                    let sources = sources_digest(&loaded);
                    let key = check_key(build.salt, &schemas, game, &sources);
                    if keep == Keep::Diagnostics && build.clean.get(&game.id) == Some(&key) {
                        let game = CheckedGame {
                            game: game.clone(),
                            documents: Vec::new(),
                            diagnostics: Vec::new(),
                        };
                        return Done {
                            game,
                            sources: Some((sources, key)),
                            reused: true,
                        };
                    }
                    Done {
                        game: validator.game(&loaded, options, keep),
                        sources: Some((sources, key)),
                        reused: false,
                    }
                })
                .collect()
        },
    );
    // One vector of the right size, each game's freed as it is moved in
    // (issue 67: 400,000 warnings were held twice over).
    let games_found: usize = checked.iter().map(|d| d.game.diagnostics.len()).sum();
    all.reserve_exact(files.1.len() + games_found);
    all.append(&mut files.1);
    let files = files.0;
    let mut games = Vec::with_capacity(checked.len());
    let mut sources = HashMap::new();
    let mut clean_checks = HashMap::new();
    let mut checks_reused = 0;
    for Done {
        mut game,
        sources: digest,
        reused,
    } in checked
    {
        checks_reused += usize::from(reused);
        if let Some((digest, key)) = digest {
            sources.insert(game.game.id.clone(), digest);
            // Recorded whatever "now" is: only the rules that read it
            // found anything, and they find nothing where the record is
            // taken again ([`manifest::Manifest::clean_checks`]).
            if game.diagnostics.iter().all(reads_now) {
                clean_checks.insert(game.game.id.clone(), key);
            }
        }
        all.append(&mut game.diagnostics);
        game.diagnostics = Vec::new();
        games.push(game);
    }
    all.extend(kept::diagnostics(tree));
    diagnostics::sort(&mut all);
    Checked {
        games,
        diagnostics: all,
        schemas: project.schemas.clone(),
        files,
        sources,
        clean_checks,
        checks_reused,
    }
}

/// Whether a diagnostic is one of a rule that reads "now" (`stale`,
/// `upcoming-version`), which find nothing while "now" is inside every
/// version window of the game.
pub(crate) fn reads_now(diagnostic: &Diagnostic) -> bool {
    matches!(
        diagnostic.code,
        crate::diagnostics::Code::Stale | crate::diagnostics::Code::UpcomingVersion
    )
}

/// A 128-bit fingerprint of a game's data files as loaded: each file's
/// path, whether it exists and its text, through two seeded 64-bit
/// hashes (foldhash's quality hasher: much faster than SHA-256 on the
/// whole tree, and an accidental collision of both is out of reach). What
/// a game's files are built from, besides its registry entry, the site
/// and "now".
pub(crate) fn sources_digest(game: &crate::source::LoadedGame) -> [u8; 16] {
    use std::hash::{BuildHasher as _, Hash as _, Hasher as _};
    let mut out = [0u8; 16];
    for (half, seed) in out.chunks_mut(8).zip([0x5eed_0001_u64, 0x5eed_0002]) {
        let mut hasher = foldhash::quality::FixedState::with_seed(seed).build_hasher();
        for file in &game.files {
            file.path.hash(&mut hasher);
            file.exists.hash(&mut hasher);
            file.source
                .as_ref()
                .map(|s| s.text.as_str())
                .hash(&mut hasher);
        }
        half.copy_from_slice(&hasher.finish().to_le_bytes());
    }
    out
}

/// Checks every file of the kinds checked file by file
/// ([`validate::file_kinds`]): the checked files
/// (their diagnostics moved out), by kind and then by path, and every
/// diagnostic.
pub(crate) fn check_files(
    tree: &Tree,
    validator: &Validator,
    keep: Keep,
) -> (Vec<CheckedFile>, Vec<Diagnostic>) {
    let mut checked = Vec::new();
    let mut all = Vec::new();
    for rules in validate::file_kinds() {
        let (files, mut unread) = tree.locale_files(rules.kind());
        all.append(&mut unread);
        for file in &files {
            let mut file = validator.file(rules, file, keep);
            all.append(&mut file.diagnostics);
            checked.push(file);
        }
    }
    (checked, all)
}

/// The canonical text of the source file `path` (`games.json` or a data
/// file), as `fmt` writes it; `None` when `text` does not parse as one.
/// Only meaningful for a file the check found no error in.
pub fn canonical_text(path: &str, text: &str) -> Option<String> {
    if path == REGISTRY_PATH {
        serde_json::from_str::<Registry>(text)
            .ok()
            .map(|r| r.to_canonical())
    } else if let Some(rules) = kind::of_source(path).and_then(validate::rules_of) {
        rules.canonical(text)
    } else {
        serde_json::from_str::<Draft>(text)
            .ok()
            .map(|d| d.to_canonical())
    }
}

/// The order of [`diagnostics::sort`]: file, line, column, code, message.
pub(crate) fn order(a: &Diagnostic, b: &Diagnostic) -> std::cmp::Ordering {
    fn key(d: &Diagnostic) -> (&str, usize, usize, &str) {
        (&d.file, d.line, d.column, d.code.as_str())
    }
    key(a).cmp(&key(b)).then_with(|| a.message.cmp(&b.message))
}

/// The registry's games in the order of their files' paths
/// (`data/<id>/`), those with the same id together: each group's
/// diagnostics, sorted, fall between the previous group's and the next's.
pub(crate) fn games_in_path_order(games: Vec<Game>) -> Vec<Vec<Game>> {
    let mut games = games;
    games.sort_by_key(|game| tree::data_path(&game.id, ""));
    let mut groups: Vec<Vec<Game>> = Vec::new();
    for game in games {
        match groups.last_mut() {
            Some(group) if group[0].id == game.id => group.push(game),
            _ => groups.push(vec![game]),
        }
    }
    groups
}

/// How many games are checked at once before their diagnostics are
/// handed on: enough for every core, few enough that memory holds a
/// handful of games' diagnostics, not the tree's.
pub(crate) const GAMES_AT_ONCE: usize = 64;

/// [`check_tree`] handing the diagnostics on as they are found, in the
/// order of [`diagnostics::sort`] (`each` takes them a batch at a time):
/// the registry's, the boards' and the kept files' first (few), then the
/// games' in their files' order, a few dozen games checked at once on
/// every core and merged with the first ones (issue 67: 400,000 warnings
/// are written, never held). Returns how many of each severity there were.
pub fn check_streaming(
    tree: &Tree,
    options: &validate::Options,
    each: &mut dyn FnMut(Vec<Diagnostic>) -> anyhow::Result<()>,
) -> anyhow::Result<diagnostics::Counts> {
    let validator = Validator::new(&tree.project)?;
    let (games, mut others) = validator.registry(&tree.project);
    others.extend(check_files(tree, &validator, Keep::Diagnostics).1);
    others.extend(kept::diagnostics(tree));
    diagnostics::sort(&mut others);
    let mut others = others.into_iter().peekable();
    let mut counts = diagnostics::Counts::default();
    let groups = games_in_path_order(games);
    for chunk in groups.chunks(GAMES_AT_ONCE) {
        let found: Vec<Vec<Diagnostic>> = chunk
            .par_iter()
            .map(|group| {
                let mut found: Vec<Diagnostic> = group
                    .iter()
                    .flat_map(|game| {
                        validator
                            .game(&tree.game(game), options, Keep::Diagnostics)
                            .diagnostics
                    })
                    .collect();
                found.sort_by(order);
                found
            })
            .collect();
        for game in found {
            let mut batch = Vec::with_capacity(game.len());
            for d in game {
                while let Some(first) = others.next_if(|o| order(o, &d).is_le()) {
                    batch.push(first);
                }
                batch.push(d);
            }
            count_into(&mut counts, &batch);
            each(batch)?;
        }
    }
    let rest: Vec<Diagnostic> = others.collect();
    count_into(&mut counts, &rest);
    each(rest)?;
    Ok(counts)
}

fn count_into(counts: &mut diagnostics::Counts, found: &[Diagnostic]) {
    let more = diagnostics::count(found);
    counts.errors += more.errors;
    counts.warnings += more.warnings;
}
