//! The kinds of published document, each declared in one module, and the
//! one list of them ([`ALL`]) that the rest of the tool walks.
//!
//! A kind says, as plain data: where its sources are ([`Sources`]), the
//! JSON Schema its files are checked against ([`Schema`]: the file a root
//! may ship, the built-in copy, where the site publishes it and how the
//! agents name it), the rules its files get, the breaking changes and
//! warnings a review (`diff`) may report about it ([`Review`]), the
//! heading of its table in `status`, whether the editor checks its files,
//! how `import` recognises it, and the names the site publishes its
//! documents under ([`PublishedAs`]: for a kind with a file per locale,
//! also the field of the index that lists them and its pages' folder,
//! template and words, [`Pages`]), so nothing of the site takes a second
//! such kind for the announcements boards.
//!
//! The loader reads the schemas of every kind, the validator compiles them,
//! the build publishes them, the agents serve them as resources, the
//! editor and the agents tell a kind's file by [`of_source`], `import` sorts
//! a published file by its shape ([`of_shape`]), a review
//! (`review`) reports the findings its kind's [`Review`] lists (each a
//! `static` of the kind's module that it names), and `status` lays out a table per kind that names one.
//! What a kind does with its typed documents is behind one trait per
//! layer, implemented in the kind's own module of that layer and listed
//! once there: for a kind whose sources are one file per locale, its rules
//! (`validate::FileRules`, listed in `validate::FILE_KINDS`) and what it
//! publishes (`site::types::Publish`, listed in `site::kinds::ALL`); each
//! layer finds a kind's from the kind (`validate::rules_of`,
//! `site::kinds::of`). The activity documents, checked game by game with
//! the registry, and the kept files, published byte for byte, are the
//! layers' own cases. A review has one for every kind of JSON documents,
//! the activity documents too: what it says of them
//! (`review::Compare`, listed in `review::kinds::ALL`, found by
//! the path the kind publishes, [`of_published`]). `import` needs no
//! module of a kind published once per locale: it recognises and places
//! its files from the declaration (its shape, its [`PublishedAs`] names,
//! its [`Sources`]).
//!
//! Adding a kind: the recipe is in the crate's docs (`src/lib.rs`, the
//! code map's entry for this module); `tests/kinds.rs` walks [`ALL`] and
//! says what is missing.
//!
//! Depends on [`crate::tree`], [`crate::layout`] and
//! [`crate::diagnostics`] only, so every part of the data half may read it.

pub mod activities;
pub mod announcements;
pub mod kept;

use serde_json::{Map, Value};

use crate::diagnostics::Code;
use crate::layout;
use crate::tree::{self, SourcePath};

/// Every kind of document, in the order the tool reads and lists them.
pub static ALL: &[&Kind] = &[&activities::KIND, &announcements::KIND, &kept::KIND];

/// One kind of published document.
#[derive(Debug)]
pub struct Kind {
    /// Its name, as the tool's docs and tests call it (`announcements`).
    pub name: &'static str,
    /// Where contributors write it.
    pub sources: Sources,
    /// The JSON Schema of its source files; `None` for files kept byte
    /// for byte, which have no shape.
    pub schema: Option<Schema>,
    /// Every rule its source files get, in the order a note lists the
    /// checks that wait for a broken file's syntax.
    pub rules: &'static [Code],
    /// What a review (`diff`) reports about its published files.
    pub review: Review,
    /// The heading of its table in `status` (its first column), when it
    /// has one of its own; `activity_site::status` lists the tables in kind order.
    pub status: Option<&'static str>,
    /// Whether the editor (`lsp`) checks and formats its files.
    pub editor: bool,
    /// The shape of its published JSON, by which `import` recognises a
    /// file of it; `None` when it is published verbatim.
    pub shape: Option<IsShape>,
    /// The names the site publishes its documents under, which a review
    /// (`review`) and `import` tell its published files by.
    pub published: PublishedAs,
    /// How the agents (`mcp`) are told of the tools that read, check and
    /// write its files, for a kind with a file per locale
    /// (`read_<name>`, `check_<name>`, `write_<name>`); `None` for a kind
    /// with no such tools of its own.
    pub agents: Option<Agents>,
}

/// What the agents (`mcp`) read of a kind with a file per locale: the
/// sentence of the server's instructions and the description of each of
/// its three tools (`read_<name>`, `check_<name>`, `write_<name>`).
#[derive(Debug, Clone, Copy)]
pub struct Agents {
    pub instructions: &'static str,
    pub read: &'static str,
    pub check: &'static str,
    pub write: &'static str,
}

/// Where the site publishes a kind's documents, as [`crate::layout`]
/// names them: the one answer to which kind a published path is
/// ([`of_published`]).
#[derive(Debug, Clone, Copy)]
pub enum PublishedAs {
    /// One document per game and locale, named by the registry
    /// (`api/v1/activity/<game>[-<locale>].json`); `is` tells a path of one.
    PerGame { is: fn(&str) -> bool },
    /// One document per locale, the site locale's also under an
    /// un-suffixed name: `path(locale, default_name, ext)` names the
    /// document (`ext` `json`) and each file published beside it under
    /// the same name (`beside`: its feed's `atom`); `locale_of` reads a
    /// document's path back (`Some(None)` for the un-suffixed name);
    /// `index_field` is the field of the index (`api/v1/games.json`) that
    /// lists its documents; `pages` are its pages, if it has any.
    PerLocale {
        path: fn(&str, layout::Naming, &str) -> String,
        locale_of: fn(&str) -> Option<Option<&str>>,
        beside: &'static [&'static str],
        index_field: &'static str,
        pages: Option<Pages>,
    },
    /// Byte for byte at the path of its source below its folder: no name
    /// of its own.
    Verbatim,
}

/// The pages of a kind published once per locale: the folder they are
/// published in (`<dir>/`, `<dir>/<locale>/`), which no game id may take,
/// their template and the words it reads besides every page's.
#[derive(Debug, Clone, Copy)]
pub struct Pages {
    pub dir: &'static str,
    /// The template's name (as the page renders it) and its source.
    pub template: (&'static str, &'static str),
    /// Each word the template reads (`ui.<name>`) and its message.
    pub words: &'static [(&'static str, &'static str)],
}

/// Whether a published JSON object has a kind's shape.
pub type IsShape = fn(&Map<String, Value>) -> bool;

/// Where a kind's sources are, by their place in the root ([`crate::tree`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sources {
    /// `data/<game>/<locale>.json`: one file per game and locale that
    /// `games.json` lists.
    PerGame,
    /// `<dir>/<locale>.json`: one file per locale, in a folder of the
    /// tool's own; `counted` is the message that counts its files
    /// (`{ $count } announcements files`, in `import`'s summary).
    PerLocale {
        dir: &'static str,
        counted: &'static str,
    },
    /// Every file below `<dir>`, published byte for byte at the same
    /// path relative to it.
    Verbatim { dir: &'static str },
}

/// A kind's JSON Schema.
#[derive(Debug, Clone, Copy)]
pub struct Schema {
    /// The schema a root may ship in place of the built-in one
    /// (`schema/<name>.schema.json`).
    pub source: &'static str,
    /// The built-in schema, used when the root ships none.
    pub builtin: &'static str,
    /// Where the site publishes it ([`crate::layout`]).
    pub published: &'static str,
    /// Its name among the OpenAPI description's `components/schemas`
    /// (`ActivityDocument`): the type generated clients call it by.
    pub component: &'static str,
    /// How the agents (`mcp`) name it: a resource URI and its description.
    pub resource: &'static str,
    pub describes: &'static str,
}

/// What a review (`diff`) reports about a kind's published file beyond its
/// status (added, changed, removed, reformatted) and a removal, which every
/// file gets: the breaking changes and the warnings it may find. Each is a
/// `static` of the kind's module, which `review` names where it
/// reports it, so a finding cannot be reported under a code no kind
/// declares.
#[derive(Debug, Clone, Copy)]
pub struct Review {
    pub breaking: &'static [&'static Finding],
    pub warnings: &'static [&'static Finding],
}

/// A change a review reports: its stable code (as the JSON report and the
/// annotations name it) and its two messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finding {
    /// `ongoing-activity-removed`.
    pub code: &'static str,
    /// The sentence that says what changes for clients.
    pub message: &'static str,
    /// How to avoid it (breaking), or what to do if it was not meant (warning).
    pub help: &'static str,
}

impl Kind {
    /// Whether the source file `rel` (relative to the root, forward
    /// slashes) is one of this kind's, by its place alone.
    pub fn claims(&self, rel: &str) -> bool {
        match (self.sources, tree::classify(rel)) {
            (Sources::PerGame, SourcePath::Data { .. }) => true,
            (Sources::PerLocale { dir, .. }, _) => tree::file_in(dir, rel).is_some(),
            (Sources::Verbatim { dir }, _) => tree::below(dir, rel).is_some(),
            _ => false,
        }
    }

    /// The locale of a source file of a [`Sources::PerLocale`] kind
    /// (`<dir>/<locale>.json`); `None` for any other path.
    pub fn locale_of<'a>(&self, rel: &'a str) -> Option<&'a str> {
        let Sources::PerLocale { dir, .. } = self.sources else {
            return None;
        };
        tree::file_in(dir, rel)?
            .strip_suffix(".json")
            .filter(|l| !l.is_empty())
    }

    /// The source file of `locale` of a [`Sources::PerLocale`] kind.
    pub fn locale_path(&self, locale: &str) -> Option<String> {
        match self.sources {
            Sources::PerLocale { dir, .. } => Some(format!("{dir}/{locale}.json")),
            _ => None,
        }
    }

    /// Whether its sources are JSON documents (checked, formatted, typed).
    pub fn is_json(&self) -> bool {
        self.schema.is_some()
    }

    /// Whether `path` (relative to the site root) is a document of this
    /// kind as the site publishes it.
    pub fn publishes(&self, path: &str) -> bool {
        match self.published {
            PublishedAs::PerGame { is } => is(path),
            PublishedAs::PerLocale { locale_of, .. } => locale_of(path).is_some(),
            PublishedAs::Verbatim => false,
        }
    }

    /// The locale a published document of a [`PublishedAs::PerLocale`] kind
    /// carries in its name: `Some(None)` for the un-suffixed name of the
    /// site's locale, `None` for any other path.
    pub fn published_locale<'a>(&self, path: &'a str) -> Option<Option<&'a str>> {
        match self.published {
            PublishedAs::PerLocale { locale_of, .. } => locale_of(path),
            _ => None,
        }
    }

    /// The field of the index that lists the documents of a
    /// [`PublishedAs::PerLocale`] kind.
    pub fn index_field(&self) -> Option<&'static str> {
        match self.published {
            PublishedAs::PerLocale { index_field, .. } => Some(index_field),
            _ => None,
        }
    }

    /// The pages of a [`PublishedAs::PerLocale`] kind that has any.
    pub fn pages(&self) -> Option<&Pages> {
        match &self.published {
            PublishedAs::PerLocale {
                pages: Some(pages), ..
            } => Some(pages),
            _ => None,
        }
    }

    /// The path of `locale`'s document of a [`PublishedAs::PerLocale`] kind
    /// (`ext` `json`), or of a file published beside it, under `name`
    /// (the un-suffixed one is [`layout::Naming::Plain`]).
    pub fn published_path(&self, locale: &str, name: layout::Naming, ext: &str) -> Option<String> {
        match self.published {
            PublishedAs::PerLocale { path, .. } => Some(path(locale, name, ext)),
            _ => None,
        }
    }
}

/// The kind whose source `rel` is (relative to the root), if any.
pub fn of_source(rel: &str) -> Option<&'static Kind> {
    ALL.iter().copied().find(|k| k.claims(rel))
}

/// The kind whose published document `path` (relative to the site root)
/// is, if any.
pub fn of_published(path: &str) -> Option<&'static Kind> {
    ALL.iter().copied().find(|k| k.publishes(path))
}

/// Whether a game's document may be published under `path` as one of its
/// aliases: a path the layout leaves free ([`layout::is_alias_path`]) that
/// no kind publishes a document under ([`of_published`]: the
/// announcements' `anno-<locale>.json`, any later kind's own names).
pub fn is_alias_path(path: &str) -> bool {
    layout::is_alias_path(path) && of_published(path).is_none()
}

/// The kind whose pages are published in the folder `dir` of the site
/// root, if any: a game id may not be such a name.
pub fn of_page_dir(dir: &str) -> Option<&'static Kind> {
    ALL.iter()
        .copied()
        .find(|k| k.pages().is_some_and(|p| p.dir == dir))
}

/// What the site publishes in the folder `dir` of its root besides the
/// games' pages, if anything: a kind's pages (named by the kind) or the
/// API's reference page ([`layout::REFERENCE_PAGE_DIR`]). A game id may
/// not be such a name.
pub fn page_dir_owner(dir: &str) -> Option<&'static str> {
    of_page_dir(dir)
        .map(|kind| kind.name)
        .or((dir == layout::REFERENCE_PAGE_DIR).then_some(layout::REFERENCE_PAGE_DIR))
}

/// The kind a published JSON object is by its shape, if any.
pub fn of_shape(object: &Map<String, Value>) -> Option<&'static Kind> {
    ALL.iter()
        .copied()
        .find(|k| k.shape.is_some_and(|is| is(object)))
}

/// The kinds with a JSON Schema, with it.
pub fn schemas() -> impl Iterator<Item = (&'static Kind, &'static Schema)> {
    ALL.iter()
        .copied()
        .filter_map(|k| k.schema.as_ref().map(|s| (k, s)))
}

/// Whether `a` and `b` are the same kind.
pub fn same(a: &Kind, b: &Kind) -> bool {
    std::ptr::eq(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_per_locale_kind_reads_and_writes_its_paths() {
        let board = &announcements::KIND;
        assert_eq!(
            board.locale_path("zh-CN").as_deref(),
            Some("data/_announcements/zh-CN.json")
        );
        assert_eq!(
            board.locale_of("data/_announcements/zh-CN.json"),
            Some("zh-CN")
        );
        assert_eq!(board.locale_of("data/_announcements/notes.txt"), None);
        assert_eq!(board.locale_of("data/_announcements/.json"), None);
        assert_eq!(board.locale_of("data/sr/zh-CN.json"), None);
        assert_eq!(activities::KIND.locale_path("zh-CN"), None);
        assert!(board.claims("data/_announcements/notes.txt"));
        assert!(!board.claims("data/_announcements/x/zh-CN.json"));
    }

    #[test]
    fn an_alias_never_takes_a_name_a_kind_publishes_under() {
        assert!(is_alias_path("api/v1/activities.json"));
        assert!(is_alias_path("api/v1/legacy/sr.json"));
        for taken in [
            "api/v1/anno.json",
            "api/v1/anno-en-US.json",
            "api/v1/games.json",
            "api/v1/schema/activity.json",
            "api/v1/schema/announcements.json",
            "api/v1/schema/later.json",
            "api/v1/activity/sr.json",
            "api/v1/../x.json",
            "api/v1/x.txt",
            "site/x.json",
        ] {
            assert!(!is_alias_path(taken), "{taken}");
        }
    }
}
