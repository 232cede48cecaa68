//! The source tree's layout, the one owner of its paths, as [`crate::layout`]
//! is of the published site's: the registry `games.json`, the data files
//! `data/<game>/<locale>.json`, the announcements `data/_announcements/<locale>.json`,
//! the verbatim folder `data/_files/` (published byte for byte at the same
//! relative path) and the schemas of `schema/`.
//!
//! Folders of `data/` whose name starts with `_` are the tool's own
//! (announcements, kept files); they are never games, and game ids cannot
//! start with `_` ([`crate::model::is_game_id`]). The folder
//! `.activity-site/` ([`STATE_DIR`]) is the tool's state beside the sources.
//!
//! A leaf: paths and names only, never the file system. Paths are relative
//! to the root, with forward slashes and no leading slash.

use std::path::{Path, PathBuf};

/// The registry of games.
pub const REGISTRY_PATH: &str = "games.json";

/// The folder of every game's data files and of the tool's own folders.
pub const DATA_DIR: &str = "data";

/// The folder of the schemas a root may ship in place of the built-in ones.
pub const SCHEMA_DIR: &str = "schema";

/// The activity schema a root may ship.
pub const ACTIVITY_SCHEMA_PATH: &str = "schema/activity.schema.json";

/// The registry schema a root may ship.
pub const GAMES_SCHEMA_PATH: &str = "schema/games.schema.json";

/// The schema of the kind `$name` a root may ship:
/// `schema/<name>.schema.json` (a kind's declaration names its own).
#[macro_export]
macro_rules! schema_source {
    ($name:literal) => {
        concat!("schema/", $name, ".schema.json")
    };
}

/// `$schema` of a data file, relative to `data/<game>/`.
pub const DATA_SCHEMA: &str = "../../schema/activity.schema.json";

/// `$schema` of `games.json`, relative to the root.
pub const REGISTRY_SCHEMA: &str = GAMES_SCHEMA_PATH;

/// The folder of a kind `$name` with one file per locale, in the data's
/// folder of the tool's own: `data/_<name>` (a kind's declaration names
/// its own; a name with `_` is never a game).
#[macro_export]
macro_rules! locale_files_dir {
    ($name:literal) => {
        concat!("data/_", $name)
    };
}

/// The verbatim folder: every file below it is published byte for byte at
/// the same path relative to it (`data/_files/robots.txt` -> `robots.txt`).
pub const FILES_DIR: &str = "data/_files";

/// The top-level files and folders of the root that hold the sources: all
/// a build reads (`diff --against-rev` takes them from a revision).
pub const TOP_LEVEL_SOURCES: &[&str] = &[REGISTRY_PATH, DATA_DIR, SCHEMA_DIR];

/// The tool's own folder of the root, ignored by git: the control
/// service's state of `serve` (unless `--state-dir`) and the build cache.
pub const STATE_DIR: &str = ".activity-site";

/// The state directory of `serve` in `root` when `--state-dir` does not name one.
pub fn state_dir(root: &Path) -> PathBuf {
    root.join(STATE_DIR)
}

/// The build cache of `root` when `--cache-dir` does not name one.
pub fn cache_dir(root: &Path) -> PathBuf {
    state_dir(root).join("cache")
}

/// Path of the data file of `game` in `locale`.
pub fn data_path(game: &str, locale: &str) -> String {
    format!("{DATA_DIR}/{game}/{locale}.json")
}

/// Path, in the verbatim folder, of the file published at `published`
/// (a site path such as `robots.txt` or `api/v1/activities.json`).
pub fn kept_path(published: &str) -> String {
    format!("{FILES_DIR}/{}", published.trim_start_matches('/'))
}

/// The name of a file directly in the folder `dir` (`dir/<name>`), for a
/// path relative to the root; `None` for any other path.
pub fn file_in<'a>(dir: &str, rel: &'a str) -> Option<&'a str> {
    below(dir, rel).filter(|f| !f.contains('/'))
}

/// The path below the folder `dir` (`dir/<path>`, at any depth) of a path
/// relative to the root; `None` for any other path.
pub fn below<'a>(dir: &str, rel: &'a str) -> Option<&'a str> {
    rel.strip_prefix(dir)
        .and_then(|r| r.strip_prefix('/'))
        .filter(|p| !p.is_empty())
}

/// Whether a folder of `data/` named `name` is the tool's own, never a game.
pub fn is_reserved_dir(name: &str) -> bool {
    name.starts_with('_')
}

/// What a path of the root is, by its place alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourcePath<'a> {
    /// `games.json`.
    Registry,
    /// `data/<game>/<file>`: a game's file (`<locale>.json` when it is one).
    Data { game: &'a str, file: &'a str },
    /// `data/_files/<published>`: a kept file and the site path it is published at.
    Kept { published: &'a str },
    /// Anything else under `data/` (a file directly in it, deeper folders,
    /// another `_` folder).
    OtherData,
    /// Anything outside `games.json` and `data/`.
    Other,
}

/// Classifies a path relative to the root (forward slashes).
pub fn classify(rel: &str) -> SourcePath<'_> {
    if rel == REGISTRY_PATH {
        return SourcePath::Registry;
    }
    let Some(rest) = rel.strip_prefix(DATA_DIR).and_then(|r| r.strip_prefix('/')) else {
        return SourcePath::Other;
    };
    if let Some(published) = below(FILES_DIR, rel) {
        return SourcePath::Kept { published };
    }
    match rest.split_once('/') {
        Some((dir, file)) if !file.is_empty() && !file.contains('/') && !is_reserved_dir(dir) => {
            SourcePath::Data { game: dir, file }
        }
        _ => SourcePath::OtherData,
    }
}

/// The game a path of the root belongs to (`data/<game>/...`), if any.
pub fn game_of(rel: &str) -> Option<&str> {
    match classify(rel) {
        SourcePath::Data { game, .. } => Some(game),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_classified_by_place() {
        assert_eq!(classify("games.json"), SourcePath::Registry);
        assert_eq!(
            classify("data/ba-cn/zh-CN.json"),
            SourcePath::Data {
                game: "ba-cn",
                file: "zh-CN.json"
            }
        );
        assert_eq!(
            classify("data/_announcements/zh-CN.json"),
            SourcePath::OtherData
        );
        assert_eq!(
            classify("data/_files/api/v1/activities.json"),
            SourcePath::Kept {
                published: "api/v1/activities.json"
            }
        );
        assert_eq!(classify("data/_other/x.json"), SourcePath::OtherData);
        assert_eq!(
            classify("data/_announcementsx/x.json"),
            SourcePath::OtherData
        );
        assert_eq!(classify("data/stray.json"), SourcePath::OtherData);
        assert_eq!(classify("schema/x.json"), SourcePath::Other);
        assert_eq!(data_path("sr", "en-US"), "data/sr/en-US.json");
        assert_eq!(locale_files_dir!("board"), "data/_board");
        assert_eq!(schema_source!("board"), "schema/board.schema.json");
        assert_eq!(kept_path("robots.txt"), "data/_files/robots.txt");
        assert_eq!(game_of("data/sr/x.json"), Some("sr"));
        assert_eq!(game_of("data/_files/x"), None);
    }
}
