//! The home pages' cards of one build: each game's card in every home
//! locale ([`pages::home_card`]) and its group on the timeline page of
//! that locale ([`timeline::group`]), rendered when the build renders the game
//! and kept on disk, in an unnamed temporary file beside the output, until
//! the home pages list them ([`pages::each_home_page`]). A home page lists
//! every game's activities; keeping what it needs of every game in memory
//! until the end made a build's memory grow with the site. Now it holds
//! the games in flight, and each page is written to its file as it is
//! rendered.
//!
//! The file is the build's own: nothing else reads it, it has no name, and
//! it goes when the build ends (or dies).

use std::fs::File;
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::path::Path;
use std::sync::Mutex;

use anyhow::Context as _;

use super::{pages, timeline};
use crate::i18n::msg;

/// The cards of a build, by game (its position in the registry) and home
/// locale.
pub(crate) struct Cards {
    /// The home pages' locales, in order ([`pages::home_locales`]).
    locales: Vec<String>,
    inner: Mutex<Spool>,
}

struct Spool {
    file: File,
    /// Bytes written so far.
    end: u64,
    /// Per game, per locale: where its card is in `file` (offset, length),
    /// then per locale where its timeline group is.
    at: Vec<Option<Vec<(u64, usize)>>>,
}

impl Cards {
    /// An empty set of cards for `games` games and the home `locales`,
    /// kept in a temporary file in `dir`.
    pub fn new(dir: &Path, games: usize, locales: Vec<String>) -> anyhow::Result<Cards> {
        std::fs::create_dir_all(dir)
            .with_context(|| msg!("err-create", path = dir.display().to_string()))?;
        let file = tempfile::tempfile_in(dir)
            .with_context(|| msg!("err-create", path = dir.display().to_string()))?;
        Ok(Cards {
            locales,
            inner: Mutex::new(Spool {
                file,
                end: 0,
                at: vec![None; games],
            }),
        })
    }

    /// Renders and keeps the cards of the game at position `game` from
    /// what the home pages show of it.
    pub fn put(
        &self,
        game: usize,
        home: &pages::HomeGame,
        site_locale: &str,
        site: Option<&crate::layout::SiteUrl>,
    ) -> anyhow::Result<()> {
        let cards = self
            .locales
            .iter()
            .map(|locale| pages::home_card(home, locale, site_locale, site));
        let groups = self
            .locales
            .iter()
            .map(|locale| timeline::group(home, locale, site_locale));
        let texts = cards
            .chain(groups)
            .collect::<anyhow::Result<Vec<String>>>()?;
        let mut spool = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let spool = &mut *spool;
        let mut at = Vec::with_capacity(texts.len());
        for text in &texts {
            spool
                .file
                .seek(SeekFrom::Start(spool.end))
                .and_then(|_| spool.file.write_all(text.as_bytes()))
                .with_context(|| msg!("build-cards-spool"))?;
            at.push((spool.end, text.len()));
            spool.end += text.len() as u64;
        }
        if let Some(slot) = spool.at.get_mut(game) {
            *slot = Some(at);
        }
        Ok(())
    }

    /// Whether the game at position `game` has its cards.
    pub fn has(&self, game: usize) -> bool {
        let spool = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        spool.at.get(game).is_some_and(Option::is_some)
    }

    /// The card of the game at position `game` in `locale`.
    pub fn get(&self, game: usize, locale: &str) -> anyhow::Result<String> {
        self.text(game, locale, 0)
    }

    /// The timeline group of the game at position `game` in `locale`.
    pub fn group(&self, game: usize, locale: &str) -> anyhow::Result<String> {
        self.text(game, locale, self.locales.len())
    }

    /// The text kept at `skip` past the place of `locale` of the game at
    /// position `game`.
    fn text(&self, game: usize, locale: &str, skip: usize) -> anyhow::Result<String> {
        let index = skip
            + self
                .locales
                .iter()
                .position(|l| l == locale)
                .with_context(|| format!("no home page cards in {locale}"))?;
        let mut spool = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let spool = &mut *spool;
        let (offset, len) = spool
            .at
            .get(game)
            .and_then(|at| at.as_ref()?.get(index).copied())
            .with_context(|| format!("no home page card of game {game} in {locale}"))?;
        let mut bytes = vec![0; len];
        spool
            .file
            .seek(SeekFrom::Start(offset))
            .and_then(|_| spool.file.read_exact(&mut bytes))
            .with_context(|| msg!("build-cards-spool"))?;
        String::from_utf8(bytes).with_context(|| msg!("build-cards-spool"))
    }
}
