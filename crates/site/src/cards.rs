//! The home pages' cards: each game's card in every home locale
//! ([`pages::home_card`]) and its group on the timeline page of that
//! locale ([`timeline::group`]), rendered when a build renders the game
//! and kept on disk, in an unnamed temporary file beside the output, until
//! the pages that list them are written ([`pages::each_home_page`]). A home
//! page lists every game's activities; keeping what it needs of every game
//! in memory until the end made a build's memory grow with the site. Now it
//! holds the games in flight, and each page is written to its file as it
//! is rendered.
//!
//! Each game's cards are kept with the digest of what the pages show of
//! it (`home`, [`super::render`]'s `home_digest`), and a card is a function
//! of that alone and of the site's locale, address and home locales
//! ([`Cards::context`]): a build kept between runs (`serve`'s
//! [`super::LiveBuild`]) hands its cards to the next build, which renders
//! again only the cards of the games whose digest changed.
//!
//! The file is the builds' own: nothing else reads it, it has no name, and
//! it goes when the last build holding it ends (or dies). Cards replaced
//! stay in it unread; it is made afresh when it grows past four times what
//! its current cards take.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::path::Path;
use std::sync::Mutex;

use anyhow::Context as _;

use super::{pages, timeline};
use crate::i18n::msg;

/// The cards of a build, by game id and home locale.
pub(crate) struct Cards {
    /// What every card depends on besides its game: the home pages'
    /// locales in order ([`pages::home_locales`]), the site's locale and
    /// its address.
    context: Vec<String>,
    /// The home pages' locales, in order.
    locales: Vec<String>,
    inner: Mutex<Spool>,
}

struct Spool {
    file: File,
    /// Bytes written so far.
    end: u64,
    /// Bytes of the cards that are current.
    live: u64,
    /// Per game id: the digest its cards were rendered from, and per
    /// locale where its card is in `file` (offset, length), then per
    /// locale where its timeline group is.
    at: HashMap<String, (String, Vec<(u64, usize)>)>,
}

impl Cards {
    /// An empty set of cards for the home `locales`, kept in a temporary
    /// file in `dir`; or `kept` (a build's cards before this one) when
    /// they were made for the same `locales`, `site_locale` and `site`,
    /// and their file has not grown past what it is worth.
    pub fn new(
        dir: &Path,
        locales: Vec<String>,
        site_locale: &str,
        site: Option<&crate::layout::SiteUrl>,
        kept: Option<std::sync::Arc<Cards>>,
    ) -> anyhow::Result<std::sync::Arc<Cards>> {
        let mut context = locales.clone();
        context.push(site_locale.to_owned());
        context.push(site.map(|s| format!("{s:?}")).unwrap_or_default());
        if let Some(kept) = kept
            && kept.context == context
        {
            let spool = kept.inner.lock().unwrap_or_else(|p| p.into_inner());
            if spool.end <= spool.live.saturating_mul(4).max(1 << 20) {
                drop(spool);
                return Ok(kept);
            }
        }
        std::fs::create_dir_all(dir)
            .with_context(|| msg!("err-create", path = dir.display().to_string()))?;
        let file = tempfile::tempfile_in(dir)
            .with_context(|| msg!("err-create", path = dir.display().to_string()))?;
        Ok(std::sync::Arc::new(Cards {
            context,
            locales,
            inner: Mutex::new(Spool {
                file,
                end: 0,
                live: 0,
                at: HashMap::new(),
            }),
        }))
    }

    /// Renders and keeps the cards of the game `id` from what the home
    /// pages show of it, whose digest is `digest`.
    pub fn put(
        &self,
        id: &str,
        digest: &str,
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
            spool.live += text.len() as u64;
        }
        if let Some((_, before)) = spool.at.insert(id.to_owned(), (digest.to_owned(), at)) {
            spool.live -= before.iter().map(|(_, len)| *len as u64).sum::<u64>();
        }
        Ok(())
    }

    /// Whether the game `id` has its cards of `digest`.
    pub fn has(&self, id: &str, digest: &str) -> bool {
        let spool = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        spool.at.get(id).is_some_and(|(kept, _)| kept == digest)
    }

    /// The card of the game `id` in `locale`.
    pub fn get(&self, id: &str, locale: &str) -> anyhow::Result<String> {
        self.text(id, locale, 0)
    }

    /// The timeline group of the game `id` in `locale`.
    pub fn group(&self, id: &str, locale: &str) -> anyhow::Result<String> {
        self.text(id, locale, self.locales.len())
    }

    /// The text kept at `skip` past the place of `locale` of the game `id`.
    fn text(&self, id: &str, locale: &str, skip: usize) -> anyhow::Result<String> {
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
            .get(id)
            .and_then(|(_, at)| at.get(index).copied())
            .with_context(|| format!("no home page card of game {id} in {locale}"))?;
        let mut bytes = vec![0; len];
        spool
            .file
            .seek(SeekFrom::Start(offset))
            .and_then(|_| spool.file.read_exact(&mut bytes))
            .with_context(|| msg!("build-cards-spool"))?;
        String::from_utf8(bytes).with_context(|| msg!("build-cards-spool"))
    }
}
