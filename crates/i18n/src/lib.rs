//! The languages the tool speaks: which one is chosen, and every message of
//! it in Project Fluent (`en-US.ftl` and `zh-CN.ftl` beside this file).
//!
//! A message is a [`Msg`]: a Fluent identifier and its arguments, built where
//! the problem is found ([`msg!`]) and rendered to text only when it is
//! printed, in the language asked for then. Codes (`json-syntax`), JSON keys,
//! file paths and values quoted from the data are arguments, never
//! translated; only the prose around them is.
//!
//! The language of the process: `--lang` if given, else the first set of
//! `LC_ALL`, `LC_MESSAGES` and `LANG` (as POSIX tools read them), else
//! English ([`Lang::from_env`], [`set_process`]). A server that speaks to
//! several clients renders each reply in the client's language with
//! [`scoped`] or [`Msg::render`].
//!
//! Both bundles are parsed once, on first use. Isolation marks (FSI/PDI
//! around placeables) are off: the output is read in terminals, logs and
//! snapshots, where the invisible marks would only get in the way. A message
//! missing from one file is a test failure (`tests/i18n.rs` holds the two
//! files to the same identifiers with the same arguments, and every
//! identifier the code names to both), never a fallback to the other
//! language. A leaf: it imports nothing of the crate.
//!
//! # May know, may not know
//!
//! May know nothing of the workspace; every crate above it may name it.

// Built with `cargo doc --document-private-items` for contributors, where a
// link to a private item resolves.
#![allow(rustdoc::private_intra_doc_links)]

use std::borrow::Cow;
use std::cell::Cell;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicU8, Ordering};

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

/// The English messages: the reference wording.
pub const EN_US_FTL: &str = include_str!("en-US.ftl");
/// The Simplified Chinese messages.
pub const ZH_CN_FTL: &str = include_str!("zh-CN.ftl");

/// The messages a part of the tool keeps beside its code (a kind's folder,
/// `crates/kinds/src/<name>/`), in both languages; each such part adds
/// its own to [`RESOURCES`](static@RESOURCES) where it lives, and the bundles read them
/// after this crate's files.
#[derive(Debug)]
pub struct Resources {
    /// Who owns them, for error messages and order (`announcements`).
    pub owner: &'static str,
    /// Its `en-US.ftl`.
    pub en_us: &'static str,
    /// Its `zh-CN.ftl`.
    pub zh_cn: &'static str,
}

/// The resources beside the code, added at link time
/// (`#[distributed_slice(RESOURCES)]`).
#[linkme::distributed_slice]
pub static RESOURCES: [Resources];

/// Every Fluent source of `lang`: this crate's file, then each part's
/// resources by owner, as `(name, text)`: the whole of what the tool
/// says, for the bundles and the tests that hold both languages alike.
pub fn sources(lang: Lang) -> Vec<(String, &'static str)> {
    let mut extra: Vec<&Resources> = RESOURCES.iter().collect();
    extra.sort_by_key(|r| r.owner);
    let own = (format!("{lang}.ftl"), lang.ftl());
    let parts = extra.into_iter().map(|r| {
        let text = match lang {
            Lang::EnUs => r.en_us,
            Lang::ZhCn => r.zh_cn,
        };
        (format!("{}/{lang}.ftl", r.owner), text)
    });
    std::iter::once(own).chain(parts).collect()
}

/// Every message of `lang` as one Fluent text ([`sources`] joined).
pub fn all_ftl(lang: Lang) -> &'static str {
    static ALL: LazyLock<[String; 2]> = LazyLock::new(|| {
        Lang::ALL.map(|lang| {
            let texts = sources(lang).into_iter().map(|(_, text)| text);
            texts.collect::<Vec<_>>().join("\n")
        })
    });
    &ALL[usize::from(lang.index())]
}

/// A language the tool speaks.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Default,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
pub enum Lang {
    /// English (United States): the default.
    #[default]
    #[value(name = "en-US")]
    #[serde(rename = "en-US")]
    #[value(help = "help-value-lang-en-us")]
    EnUs,
    /// Simplified Chinese (China).
    #[value(name = "zh-CN")]
    #[serde(rename = "zh-CN")]
    #[value(help = "help-value-lang-zh-cn")]
    ZhCn,
}

impl Lang {
    /// Every language, English (the reference) first.
    pub const ALL: [Lang; 2] = [Lang::EnUs, Lang::ZhCn];

    /// The BCP 47 tag (`zh-CN`).
    pub const fn tag(self) -> &'static str {
        match self {
            Lang::EnUs => "en-US",
            Lang::ZhCn => "zh-CN",
        }
    }

    /// The Fluent source of this language.
    pub const fn ftl(self) -> &'static str {
        match self {
            Lang::EnUs => EN_US_FTL,
            Lang::ZhCn => ZH_CN_FTL,
        }
    }

    /// The language a tag or a POSIX locale names: `zh-CN`, `zh_CN.UTF-8`,
    /// `zh-Hans`, `zh` are Chinese; `en_US.UTF-8`, `en` are English; `C`,
    /// `POSIX` and anything else are `None` (the caller's default).
    pub fn parse(tag: &str) -> Option<Lang> {
        // `zh_CN.UTF-8@modifier`: the language is what comes before `_`, `-`, `.` or `@`.
        let language = tag
            .split(['_', '-', '.', '@'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match language.as_str() {
            "zh" => Some(Lang::ZhCn),
            "en" => Some(Lang::EnUs),
            _ => None,
        }
    }

    /// The language of the environment, as POSIX tools read it: the first
    /// of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set and not empty
    /// decides; a language the tool does not speak (or `C`) is English.
    pub fn from_env() -> Lang {
        Self::from_vars(|name| std::env::var(name).ok())
    }

    /// [`Lang::from_env`] over any source of variables (for tests).
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .find_map(|name| var(name).filter(|v| !v.is_empty()))
            .and_then(|value| Lang::parse(&value))
            .unwrap_or_default()
    }

    /// The language of this thread: the one [`scoped`] set, else the process's.
    pub fn current() -> Lang {
        SCOPED
            .with(Cell::get)
            .unwrap_or_else(|| Lang::from_index(PROCESS.load(Ordering::Relaxed)))
    }

    fn from_index(i: u8) -> Lang {
        Lang::ALL.get(usize::from(i)).copied().unwrap_or_default()
    }

    fn index(self) -> u8 {
        match self {
            Lang::EnUs => 0,
            Lang::ZhCn => 1,
        }
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.tag())
    }
}

static PROCESS: AtomicU8 = AtomicU8::new(0);

thread_local! {
    static SCOPED: Cell<Option<Lang>> = const { Cell::new(None) };
}

/// Sets the language of the whole process (`main`, once, from `--lang` or the environment).
pub fn set_process(lang: Lang) {
    PROCESS.store(lang.index(), Ordering::Relaxed);
}

/// Runs `f` with `lang` as this thread's language (a reply to one client).
pub fn scoped<T>(lang: Lang, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Lang>);
    impl Drop for Restore {
        fn drop(&mut self) {
            SCOPED.with(|s| s.set(self.0));
        }
    }
    let _restore = Restore(SCOPED.with(|s| s.replace(Some(lang))));
    f()
}

/// A message to show: its Fluent identifier and arguments, rendered in a
/// language only when printed.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Msg {
    id: &'static str,
    /// A boxed slice, not a `Vec`: a message is two words, so the errors
    /// that carry one (the parser's) stay small.
    args: Box<[(&'static str, Arg)]>,
}

/// One argument of a [`Msg`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Arg {
    /// Text shown as it is: a path, a key, a value from the data, a code.
    Text(String),
    /// A count or a position; counts choose plural forms.
    Number(i64),
    /// Another message, rendered in the same language.
    Msg(Box<Msg>),
    /// Messages joined by the separator message `sep` of the same language.
    List(Vec<Msg>, &'static str),
}

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Text(s)
    }
}
impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Text(s.to_string())
    }
}
impl From<&String> for Arg {
    fn from(s: &String) -> Arg {
        Arg::Text(s.clone())
    }
}
impl From<char> for Arg {
    fn from(c: char) -> Arg {
        Arg::Text(c.to_string())
    }
}
impl From<Msg> for Arg {
    fn from(m: Msg) -> Arg {
        Arg::Msg(Box::new(m))
    }
}
macro_rules! number_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg::Number(i64::try_from(n).unwrap_or(i64::MAX))
            }
        }
    )*};
}
number_arg!(usize, u64, u32, u16, u8, i64, i32);

/// A [`Msg`]: `msg!("id")` or `msg!("id", name = value, ...)`, each value
/// anything that converts into an [`Arg`]. The identifier must be a string
/// literal, so the test can find every identifier the code names.
#[macro_export]
macro_rules! msg {
    ($id:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::Msg::new($id)$(.arg(stringify!($name), $value))*
    };
}

impl Msg {
    /// A message without arguments; add them with [`Msg::arg`].
    pub fn new(id: &'static str) -> Msg {
        Msg {
            id,
            args: Box::default(),
        }
    }

    /// The message with one more argument.
    pub fn arg(self, name: &'static str, value: impl Into<Arg>) -> Msg {
        let mut args = self.args.into_vec();
        args.push((name, value.into()));
        Msg {
            id: self.id,
            args: args.into_boxed_slice(),
        }
    }

    /// The Fluent identifier.
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// The arguments, in the order given.
    pub fn args(&self) -> &[(&'static str, Arg)] {
        &self.args
    }

    /// The text in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        let bundle = bundle(lang);
        let Some(pattern) = bundle.get_message(self.id).and_then(|m| m.value()) else {
            // The parity tests make this unreachable; say which id, never another language.
            debug_assert!(false, "no message `{}` in {lang}", self.id);
            return self.id.to_string();
        };
        let mut args = FluentArgs::with_capacity(self.args.len());
        for (name, value) in &self.args {
            let value: FluentValue<'_> = match value {
                Arg::Text(s) => FluentValue::String(Cow::Borrowed(s.as_str())),
                Arg::Number(n) => FluentValue::from(*n),
                Arg::Msg(m) => FluentValue::String(Cow::Owned(m.render(lang))),
                Arg::List(items, sep) => {
                    let sep = Msg::new(sep).render(lang);
                    let joined: Vec<String> = items.iter().map(|m| m.render(lang)).collect();
                    FluentValue::String(Cow::Owned(joined.join(&sep)))
                }
            };
            args.set(*name, value);
        }
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, Some(&args), &mut errors);
        debug_assert!(
            errors.is_empty(),
            "message `{}` in {lang}: {errors:?}",
            self.id
        );
        text.into_owned()
    }
}

/// The text in the current language ([`Lang::current`]).
impl std::fmt::Display for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(Lang::current()))
    }
}

/// A message serializes as its text in the current language.
impl serde::Serialize for Msg {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.render(Lang::current()))
    }
}

/// A message as an error of the tool (`anyhow::Error::new(msg)`, `.context(msg)`).
impl std::error::Error for Msg {}

/// Values shown as they are, joined by the list separator of each language
/// (`zh-CN, en-US` in English, `zh-CN、en-US` in Chinese).
pub fn list<S: AsRef<str>>(items: &[S]) -> Arg {
    Arg::List(
        items
            .iter()
            .map(|s| msg!("plain", text = s.as_ref()))
            .collect(),
        "list-comma",
    )
}

/// An error and its causes, outermost first, joined by the separator of
/// each language (`: ` in English, `：` in Chinese): what `{err:#}` gives,
/// with the joints in the language of the messages around them.
pub fn causes(err: &anyhow::Error) -> Arg {
    Arg::List(
        err.chain()
            .map(|cause| msg!("plain", text = cause.to_string()))
            .collect(),
        "list-cause",
    )
}

/// The text of message `id` without arguments in the current language.
pub fn text(id: &'static str) -> String {
    Msg::new(id).render(Lang::current())
}

/// The text of the message `id` without arguments in `lang`, or `None`
/// when the file holds no such message: for identifiers the code names as
/// data rather than through [`msg!`] (the command line's help, named in
/// clap's attributes; `tests/i18n.rs` holds each to both files).
pub fn lookup(id: &str, lang: Lang) -> Option<String> {
    let bundle = bundle(lang);
    let pattern = bundle.get_message(id)?.value()?;
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, None, &mut errors);
    errors.is_empty().then(|| text.into_owned())
}

type Bundle = FluentBundle<FluentResource>;

fn load(lang: Lang) -> Bundle {
    let id: unic_langid::LanguageIdentifier = lang.tag().parse().expect("a valid language tag");
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    bundle.set_use_isolating(false);
    for (name, text) in sources(lang) {
        let resource = FluentResource::try_new(text.to_string())
            .unwrap_or_else(|(_, errors)| panic!("{name} does not parse: {errors:?}"));
        bundle
            .add_resource(resource)
            .unwrap_or_else(|errors| panic!("{name} repeats a message: {errors:?}"));
    }
    bundle
}

static EN_US: LazyLock<Bundle> = LazyLock::new(|| load(Lang::EnUs));
static ZH_CN: LazyLock<Bundle> = LazyLock::new(|| load(Lang::ZhCn));

fn bundle(lang: Lang) -> &'static Bundle {
    match lang {
        Lang::EnUs => &EN_US,
        Lang::ZhCn => &ZH_CN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_chooses_as_posix_tools_do() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            Lang::from_vars(move |name| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.to_string())
            })
        };
        assert_eq!(env(&[]), Lang::EnUs);
        assert_eq!(env(&[("LANG", "zh_CN.UTF-8")]), Lang::ZhCn);
        assert_eq!(env(&[("LANG", "C.UTF-8")]), Lang::EnUs);
        assert_eq!(
            env(&[("LANG", "zh_CN.UTF-8"), ("LC_MESSAGES", "en_US.UTF-8")]),
            Lang::EnUs
        );
        assert_eq!(
            env(&[("LC_ALL", "zh_CN.UTF-8"), ("LC_MESSAGES", "en_US.UTF-8")]),
            Lang::ZhCn
        );
        // LC_ALL=C wins over a Chinese LANG; an empty LC_ALL does not count.
        assert_eq!(env(&[("LC_ALL", "C"), ("LANG", "zh_CN")]), Lang::EnUs);
        assert_eq!(env(&[("LC_ALL", ""), ("LANG", "zh_CN")]), Lang::ZhCn);
        assert_eq!(Lang::parse("zh-Hans-CN"), Some(Lang::ZhCn));
        assert_eq!(Lang::parse("fr_FR"), None);
    }

    #[test]
    fn scoped_language_is_restored() {
        assert_eq!(Lang::current(), Lang::EnUs);
        scoped(Lang::ZhCn, || {
            assert_eq!(Lang::current(), Lang::ZhCn);
            scoped(Lang::EnUs, || assert_eq!(Lang::current(), Lang::EnUs));
            assert_eq!(Lang::current(), Lang::ZhCn);
        });
        assert_eq!(Lang::current(), Lang::EnUs);
    }

    #[test]
    fn placeables_carry_no_isolation_marks() {
        let m = msg!("summary", errors = 2usize, warnings = 1usize);
        assert_eq!(m.render(Lang::EnUs), "2 errors, 1 warning");
        assert_eq!(m.render(Lang::ZhCn), "2 个错误，1 个警告");
    }
}
