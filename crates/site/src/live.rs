//! A check kept between runs, for the language server: what [`check_with`]
//! computes, at the cost of what changed since the last run.
//!
//! The compiled schemas are kept and compiled again only when a file under
//! `schema/` changes. The registry (`games.json` and the list of data files)
//! is checked on every run: it is small, and a change to it can touch every
//! game. A game is checked again only when one of its inputs changed: its
//! entry in the registry, the text of an open file of it, the size or time
//! of one of its files on disk, or "now" (to the minute, when it is the
//! clock's); otherwise its last diagnostics are taken as they are. Each game
//! is a pure function of those inputs, so the result is the one
//! [`check_with`] gives on the same overlay (a test holds them equal), except
//! that with the clock as "now" a game that was not edited may be reported as
//! of up to one minute earlier.
//!
//! The tree is read through the loader ([`load::load`]) and kept: the
//! stamps compared are those of the texts it read, and a game is checked
//! from the tree in memory. A caller that knows what changed on disk
//! (`serve`'s file watcher) says so ([`LiveCheck::check_changes`]): when
//! only data files the tree already had changed, the tree is not opened or
//! listed again and only those files are read again into it
//! ([`load::reload_files`]), their games checked, with their documents
//! kept for [`LiveBuild`] to render. Anything else, or a watcher that may
//! have missed events, runs the whole check.
//!
//! [`check_with`]: super::check_with

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use chrono::NaiveDateTime;
use rayon::prelude::*;

use crate::clock::Now;
use crate::diagnostics::{self, Diagnostic};
use crate::load;
use crate::model::Game;
use crate::source::{Overlay, Tree};
use crate::validate::{self, Keep, Validator};

/// A check of one root kept between runs.
pub struct LiveCheck {
    root: PathBuf,
    /// The last run's project (the schemas, the file lists) and the
    /// validator compiled from its schemas.
    pub(super) prepared: Option<super::check::Prepared>,
    /// Each game's last diagnostics, by id, with the inputs they came from
    /// and the fingerprint of its data files when they were read.
    games: HashMap<String, (GameInputs, Vec<Diagnostic>, [u8; 16])>,
    /// The registry's games of the last run, in order.
    registry: Vec<Game>,
    /// The last check of `games.json` and what it was made from.
    registry_check: Option<RegistryCheck>,
    /// The diagnostics of the files of the kinds checked file by file (the
    /// announcements boards) of the last run.
    announced: Vec<Diagnostic>,
    /// The typed documents of the games whose files the last run was told
    /// changed, for a [`LiveBuild`] to render without reading them again.
    documents: HashMap<String, Vec<(String, Option<validate::TypedDocument>)>>,
    /// What the last run did.
    last: LiveStats,
}

/// A check of the registry ([`Validator::registry`]) and its inputs
/// besides the schemas: the text of `games.json`, the data files found
/// and the project's own diagnostics.
struct RegistryCheck {
    text: Option<String>,
    data_files: Vec<String>,
    loaded: Vec<Diagnostic>,
    games: Vec<Game>,
    diagnostics: Vec<Diagnostic>,
}

impl RegistryCheck {
    fn of(project: &crate::source::Project, validator: &Validator) -> Self {
        let (games, diagnostics) = validator.registry(project);
        RegistryCheck {
            text: project.registry.as_ref().map(|r| r.text.clone()),
            data_files: project.data_files.clone(),
            loaded: project.diagnostics.clone(),
            games,
            diagnostics,
        }
    }

    /// Whether it was made from the inputs `project` has.
    fn is_of(&self, project: &crate::source::Project) -> bool {
        self.text.as_deref() == project.registry.as_ref().map(|r| r.text.as_str())
            && self.data_files == project.data_files
            && self.loaded == project.diagnostics
    }
}

/// What one run of [`LiveCheck::check`] did (for tests and logs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LiveStats {
    /// Whether the schemas were compiled (the first run, or `schema/` changed).
    pub compiled: bool,
    /// Games checked again.
    pub checked: usize,
    /// Games whose last diagnostics were taken as they were.
    pub reused: usize,
    /// Whether the tree was opened again: `games.json` and the schemas read,
    /// `data/` listed (not when the caller named what changed and it was
    /// only data files the tree had).
    pub listed: bool,
    /// Data files whose size and time were read from disk.
    pub stamped: usize,
    /// Data files read (the files of the games checked again).
    pub read: usize,
}

/// Everything a game's diagnostics depend on, besides the schemas.
#[derive(Debug, PartialEq)]
struct GameInputs {
    game: Game,
    files: Vec<FileStamp>,
    now: NaiveDateTime,
}

/// What stands for a data file's text.
#[derive(Debug, Clone, PartialEq)]
enum FileStamp {
    /// An open buffer: its text.
    Open(String),
    /// A file on disk: its size and modification time.
    Disk(u64, Option<SystemTime>),
    /// No file.
    Absent,
    /// A file whose metadata cannot be read: its game is checked every time.
    Unknown,
}

impl LiveCheck {
    /// A check of `root` that has not run yet.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        LiveCheck {
            root: root.into(),
            prepared: None,
            games: HashMap::new(),
            registry: Vec::new(),
            registry_check: None,
            announced: Vec::new(),
            documents: HashMap::new(),
            last: LiveStats::default(),
        }
    }

    /// The root it checks.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Forgets every game's last diagnostics, so the next run checks them
    /// all (after a save or a change on disk the client reported).
    pub fn forget_games(&mut self) {
        self.games.clear();
    }

    /// The games the last run found nothing in but what the rules that
    /// read "now" found, with the key of what it checked
    /// ([`super::check::check_key`]), as a build's check records them.
    fn clean_checks(&self, salt: &super::cache::CacheSalt) -> HashMap<String, String> {
        let Some(prepared) = &self.prepared else {
            return HashMap::new();
        };
        let schemas = super::check::schemas_digest(&prepared.tree.project);
        self.registry
            .iter()
            .filter_map(|game| {
                let (_, found, sources) = self.games.get(&game.id)?;
                found.iter().all(super::check::reads_now).then(|| {
                    let key = super::check::check_key(salt, &schemas, game, sources);
                    (game.id.clone(), key)
                })
            })
            .collect()
    }

    /// What the last run did.
    pub fn last_run(&self) -> LiveStats {
        self.last
    }

    /// Every diagnostic of the tree with the texts of `overlay` in place of
    /// the files on disk, sorted by file and position, as [`super::check_with`]
    /// gives them. `Err` only when the root cannot be read or a schema does
    /// not compile.
    pub fn check(
        &mut self,
        overlay: &Overlay,
        options: &validate::Options,
    ) -> anyhow::Result<Vec<Diagnostic>> {
        self.check_changes(overlay, options, None)
    }

    /// [`LiveCheck::check`] when the caller knows what changed on disk
    /// since the last run: `changed` names every path (relative to the
    /// root, forward slashes) that may have changed (a file watcher's
    /// events); `None` when that is not known. When every path named is a
    /// data file the last run found, only those files are stamped: the
    /// tree is not opened or listed again and the other games' files are
    /// not looked at (a game is still checked again when its "now"
    /// changed). Anything else (the registry, a schema, a board, a file
    /// added or removed) runs the whole check, as [`LiveCheck::check`].
    pub fn check_changes(
        &mut self,
        overlay: &Overlay,
        options: &validate::Options,
        changed: Option<&[String]>,
    ) -> anyhow::Result<Vec<Diagnostic>> {
        match changed {
            Some(changed) if self.only_data_files(changed) => {
                Ok(self.check_files(changed, options))
            }
            _ => self.check_tree(overlay, options),
        }
    }

    /// Whether every path of `changed` is a data file of a game of the
    /// registry that the last run found and that is still a file.
    fn only_data_files(&self, changed: &[String]) -> bool {
        let (Some(prepared), Some(_)) = (&self.prepared, &self.registry_check) else {
            return false;
        };
        changed.iter().all(|path| {
            matches!(crate::tree::classify(path), crate::tree::SourcePath::Data { game, .. }
                if self.games.contains_key(game))
                && prepared.tree.project.data_files.binary_search(path).is_ok()
                && self.root.join(path).is_file()
        })
    }

    /// The check of a run in which only the data files `changed` (which
    /// [`LiveCheck::only_data_files`] accepted) changed.
    fn check_files(&mut self, changed: &[String], options: &validate::Options) -> Vec<Diagnostic> {
        let Some(registry) = &self.registry_check else {
            return Vec::new();
        };
        let mut all = registry.diagnostics.clone();
        all.extend(self.announced.iter().cloned());
        let Some(prepared) = &mut self.prepared else {
            return all;
        };
        // The files named are read again into the tree, through the
        // loader; every other file is taken as the tree holds it.
        let read = load::reload_files(&mut prepared.tree, changed);
        let validator = &prepared.validator;
        let tree = &prepared.tree;
        let last = &self.games;
        let pinned = Now::pinned_or_clock(options.now);
        #[allow(clippy::type_complexity)]
        let results: Vec<(usize, Option<(GameInputs, Checked)>)> = self
            .registry
            .par_iter()
            .map(|game| {
                let Some((before, _, _)) = last.get(&game.id) else {
                    return (0, None);
                };
                let touched: Vec<&String> = game
                    .locales
                    .iter()
                    .map(|locale| crate::tree::data_path(&game.id, locale))
                    .filter_map(|path| changed.iter().find(|c| **c == path))
                    .collect();
                let now = pinned.for_game(game);
                let unknown = before.files.contains(&FileStamp::Unknown);
                if touched.is_empty() && now == before.now && !unknown {
                    return (0, None);
                }
                let inputs = if unknown {
                    GameInputs::read(tree, game, &Overlay::new(), options)
                } else {
                    before.restamped(tree, &touched, now)
                };
                if before.same(&inputs) {
                    return (touched.len(), None);
                }
                // The documents of an edited game are kept for the render.
                let keep = if touched.is_empty() {
                    Keep::Diagnostics
                } else {
                    Keep::Documents
                };
                let checked = Checked::run(tree, game, validator, options, keep);
                (touched.len(), Some((inputs, checked)))
            })
            .collect();
        let mut stats = LiveStats {
            read,
            ..LiveStats::default()
        };
        self.documents.clear();
        for (game, (stamped, result)) in self.registry.iter().zip(results) {
            stats.stamped += stamped;
            if let Some((inputs, checked)) = result {
                stats.checked += 1;
                if checked.documents.iter().any(|(_, doc)| doc.is_some()) {
                    self.documents.insert(game.id.clone(), checked.documents);
                }
                self.games.insert(
                    game.id.clone(),
                    (inputs, checked.diagnostics, checked.sources),
                );
            } else {
                stats.reused += 1;
            }
            if let Some((_, found, _)) = self.games.get(&game.id) {
                all.extend(found.iter().cloned());
            }
        }
        self.last = stats;
        diagnostics::sort(&mut all);
        all
    }

    /// The whole check: the tree opened and listed, every data file stamped.
    fn check_tree(
        &mut self,
        overlay: &Overlay,
        options: &validate::Options,
    ) -> anyhow::Result<Vec<Diagnostic>> {
        // What the last run read is taken again where its files did not
        // change; its validator, when the schemas did not.
        let (tree, last) = match self.prepared.take() {
            Some(last) => {
                let project = &last.tree.project;
                let schemas = (project.schemas.clone(), project.games_schema.clone());
                let tree = load::load_again(last.tree, overlay)?;
                (tree, Some((schemas, last.validator)))
            }
            None => (load::load(&self.root, overlay)?, None),
        };
        let project = &tree.project;
        let (kept, compiled) = match last {
            Some(((schemas, games_schema), validator))
                if schemas == project.schemas && games_schema == project.games_schema =>
            {
                (validator, false)
            }
            _ => {
                self.games.clear();
                (Validator::new(project)?, true)
            }
        };
        let validator = &kept;
        // `games.json` is checked again only when it, the data files found
        // or the schemas changed.
        let registry = match self.registry_check.take() {
            Some(last) if !compiled && last.is_of(project) => last,
            _ => RegistryCheck::of(project, validator),
        };
        let (games, mut all) = (registry.games.clone(), registry.diagnostics.clone());
        self.registry_check = Some(registry);
        // The files checked file by file (the announcements boards) are few
        // and small: checked on every run.
        let (_, announced) = super::check::check_files(&tree, validator, Keep::Diagnostics);
        all.extend(announced.iter().cloned());
        self.announced = announced;
        let mut last = std::mem::take(&mut self.games);
        // `None`: the game's inputs did not change, its last diagnostics stand.
        let results: Vec<(String, GameInputs, Option<Checked>)> = games
            .par_iter()
            .map(|game| {
                let inputs = GameInputs::read(&tree, game, overlay, options);
                if let Some((before, _, _)) = last.get(&game.id)
                    && before.same(&inputs)
                {
                    return (game.id.clone(), inputs, None);
                }
                let checked = Checked::run(&tree, game, validator, options, Keep::Diagnostics);
                (game.id.clone(), inputs, Some(checked))
            })
            .collect();
        let mut stats = LiveStats {
            compiled,
            listed: true,
            ..LiveStats::default()
        };
        self.documents.clear();
        for (id, inputs, checked) in results {
            stats.stamped += inputs.files.len();
            let (found, sources) = match checked {
                Some(checked) => {
                    stats.checked += 1;
                    stats.read += checked.read;
                    (checked.diagnostics, checked.sources)
                }
                None => {
                    stats.reused += 1;
                    last.remove(&id)
                        .map(|(_, found, sources)| (found, sources))
                        .unwrap_or_default()
                }
            };
            all.extend(found.iter().cloned());
            self.games.insert(id, (inputs, found, sources));
        }
        self.registry = games;
        self.last = stats;
        self.prepared = Some(super::check::Prepared {
            tree,
            validator: kept,
        });
        diagnostics::sort(&mut all);
        Ok(all)
    }
}

/// One game checked again from the tree: its diagnostics, its documents
/// when kept (for a build to render), its sources' fingerprint and how
/// many of its files exist.
struct Checked {
    diagnostics: Vec<Diagnostic>,
    documents: Vec<(String, Option<validate::TypedDocument>)>,
    sources: [u8; 16],
    read: usize,
}

impl Checked {
    fn run(
        tree: &Tree,
        game: &Game,
        validator: &Validator,
        options: &validate::Options,
        keep: Keep,
    ) -> Checked {
        let loaded = tree.game(game);
        let read = loaded.files.iter().filter(|f| f.exists).count();
        let sources = super::check::sources_digest(&loaded);
        let checked = validator.game(&loaded, options, keep);
        Checked {
            diagnostics: checked.diagnostics,
            documents: checked.documents,
            sources,
            read,
        }
    }
}

/// A build kept between runs, for `serve`: [`LiveCheck`] checks what
/// changed (plus the kept files of `data/_files/`, as [`super::check()`]
/// does), and the site is written as [`super::build`] writes it, at the
/// cost of what changed: only the games whose data changed are loaded and
/// rendered again. The result is the site `build` writes from the same
/// tree (a test holds them equal).
pub struct LiveBuild {
    check: LiveCheck,
    /// What the last build of this process left at the output.
    memo: Option<super::write::Memo>,
    /// The diagnostics of the kept files (`data/_files/`) of the last run.
    kept: Vec<Diagnostic>,
    /// What the last build leaves for the next: the home pages' cards (an
    /// edit renders again the cards of the games it changed, and the pages
    /// that list them) and the reference pages.
    carried: super::render::Kept,
}

impl LiveBuild {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        LiveBuild {
            check: LiveCheck::new(root),
            memo: None,
            kept: Vec::new(),
            carried: Default::default(),
        }
    }

    /// What the check of the last build looked at.
    pub fn last_check(&self) -> LiveStats {
        self.check.last_run()
    }

    /// Checks the tree of `options.root` again and, when it has no errors,
    /// writes the site as [`super::build`] does.
    pub fn build(
        &mut self,
        options: &super::output::BuildOptions,
    ) -> anyhow::Result<super::output::BuildOutcome> {
        self.build_changes(options, None)
    }

    /// [`LiveBuild::build`] when the caller knows which paths may have
    /// changed since the last run (`changed`, relative to the root: see
    /// [`LiveCheck::check_changes`]); an empty list says nothing did.
    pub fn build_changes(
        &mut self,
        options: &super::output::BuildOptions,
        changed: Option<&[String]>,
    ) -> anyhow::Result<super::output::BuildOutcome> {
        let started = std::time::Instant::now();
        super::write::guard_output(&options.root, &options.out, options.force)?;
        if let Some(cache) = &options.cache {
            super::output::guard_cache(&cache.dir, &options.out)?;
        }
        if self.check.root() != options.root {
            self.check = LiveCheck::new(&options.root);
            self.memo = None;
            self.carried = Default::default();
        }
        let check_options = validate::Options {
            now: options.now,
            ..Default::default()
        };
        let mut diagnostics = self
            .check
            .check_changes(&Overlay::new(), &check_options, changed)?;
        // The kept files are looked at again whenever the tree is.
        if self.check.last_run().listed
            && let Some(prepared) = &self.check.prepared
        {
            self.kept = super::kept::diagnostics(&prepared.tree);
        }
        diagnostics.extend(self.kept.iter().cloned());
        diagnostics::sort(&mut diagnostics);
        // The warnings of the build that wrote the output: what the last
        // build of this process left, else the output's manifest.
        let known_warnings = match &self.memo {
            Some(memo) => memo.warnings(),
            None => super::write::Previous::read(&options.out)?.warnings(),
        };
        if diagnostics.iter().any(Diagnostic::is_error) {
            return Ok(super::output::BuildOutcome {
                diagnostics,
                summary: None,
                known_warnings,
            });
        }
        let mut documents = std::mem::take(&mut self.check.documents);
        let Some(prepared) = self.check.prepared.as_ref() else {
            anyhow::bail!("the schemas were not compiled");
        };
        let checked = super::types::Checked {
            games: self
                .check
                .registry
                .iter()
                .map(|game| validate::CheckedGame {
                    game: game.clone(),
                    // The documents of the games just checked: the render
                    // takes them instead of reading the files again.
                    documents: documents.remove(&game.id).unwrap_or_default(),
                    diagnostics: Vec::new(),
                })
                .collect(),
            diagnostics,
            schemas: prepared.tree.project.schemas.clone(),
            files: Vec::new(),
            sources: self
                .check
                .games
                .iter()
                .map(|(id, (_, _, sources))| (id.clone(), *sources))
                .collect(),
            clean_checks: self.check.clean_checks(&options.salt()),
            checks_reused: self.check.last_run().reused,
        };
        // A failed write leaves `memo` empty: the next build reads the output again.
        let staging = super::write::Staging::create(&options.out, self.memo.take())?;
        let from = super::render::Inputs {
            checked: &checked,
            prepared,
            check_options: &check_options,
            kept: Some(&self.carried),
        };
        let (summary, memo) = super::output::write_site(options, &from, started, staging)?;
        self.memo = Some(memo);
        Ok(super::output::BuildOutcome {
            diagnostics: checked.diagnostics,
            summary: Some(summary),
            known_warnings,
        })
    }
}

impl GameInputs {
    fn read(tree: &Tree, game: &Game, overlay: &Overlay, options: &validate::Options) -> Self {
        let files = game
            .locales
            .iter()
            .map(|locale| {
                let path = crate::tree::data_path(&game.id, locale);
                match overlay.get(&path) {
                    Some(text) => FileStamp::Open(text.to_string()),
                    None => FileStamp::of(tree, &path),
                }
            })
            .collect();
        // The clock is read to the minute: a game not edited is checked
        // again once a minute.
        let now = Now::pinned_or_clock(options.now).for_game(game);
        GameInputs {
            game: game.clone(),
            files,
            now,
        }
    }

    /// These inputs with the files `touched` (paths of the game's data
    /// files) stamped again as the tree read them, the others as they
    /// were, at `now`.
    fn restamped(&self, tree: &Tree, touched: &[&String], now: NaiveDateTime) -> GameInputs {
        let files = self
            .game
            .locales
            .iter()
            .zip(&self.files)
            .map(|(locale, stamp)| {
                let path = crate::tree::data_path(&self.game.id, locale);
                if touched.iter().any(|t| **t == path) {
                    FileStamp::of(tree, &path)
                } else {
                    stamp.clone()
                }
            })
            .collect();
        GameInputs {
            game: self.game.clone(),
            files,
            now,
        }
    }

    /// Whether a game with these inputs and one with `other` have the same
    /// diagnostics.
    fn same(&self, other: &GameInputs) -> bool {
        self == other && !self.files.contains(&FileStamp::Unknown)
    }
}

impl FileStamp {
    /// The stamp of the file at `path` as the loader read it into `tree`
    /// (its size and time then, so a stamp always goes with the text read).
    fn of(tree: &Tree, path: &str) -> FileStamp {
        match (tree.stamps.get(path), tree.files.contains_key(path)) {
            (Some(&(len, modified)), _) => FileStamp::Disk(len, modified),
            (None, false) => FileStamp::Absent,
            (None, true) => FileStamp::Unknown,
        }
    }
}
