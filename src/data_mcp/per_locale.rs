//! The tools of each kind with a file per locale, made from the kind
//! ([`crate::kind::Kind::agents`]): `read_<name>`, `check_<name>` and
//! `write_<name>` for every such kind of [`kind::all`], under its own name
//! (`read_announcements`, ...), with the descriptions the kind gives.
//!
//! What a write tells beyond the diagnostics is the kind's own
//! ([`summary`], from its declaration); a kind without one says it was
//! written.

use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::{
    IntoCallToolResult, ToolCallContext, parse_json_object, schema_for_type,
};
use rmcp::model::{CallToolResult, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::{DataTools, LocaleDraftArgs, Target, failure};
use crate::i18n::{Lang, Msg, msg};
use crate::kind::{self, Kind};
use crate::validate;

/// Arguments naming the file of one locale of a kind.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LocaleArgs {
    /// Locale tag of the file (such as `zh-CN`).
    locale: String,
    /// Language of the messages in the answer: `zh-CN` or `en-US`
    /// (default: the server's, from `--lang` or its environment).
    #[serde(default)]
    lang: Option<Lang>,
}

/// What a write of `kind`'s file changed: what its declaration says
/// ([`kind::Agents::written`]), else that it was written.
pub(super) fn summary(kind: &Kind, before: Option<&[u8]>, canonical: &str) -> Msg {
    kind.agents
        .and_then(|agents| agents.written)
        .map_or_else(|| msg!("agent-written"), |say| say(before, canonical))
}

/// The kinds with a file per locale and tools of their own.
pub(super) fn kinds() -> impl Iterator<Item = (&'static Kind, &'static kind::Agents)> {
    kind::all()
        .iter()
        .copied()
        .filter_map(|k| k.agents.as_ref().map(|agents| (k, agents)))
}

/// The name of `kind`'s tool that does `verb` (`write_announcements`).
pub(super) fn tool_name(verb: &str, kind: &Kind) -> String {
    format!("{verb}_{}", kind.name)
}

/// The three tools of every kind with a file per locale.
pub(super) fn router() -> ToolRouter<DataTools> {
    let mut router = ToolRouter::new();
    for (kind, agents) in kinds() {
        let reads = ToolAnnotations::new().read_only(true).open_world(false);
        let writes = ToolAnnotations::new()
            .read_only(false)
            .destructive(false)
            .idempotent(true)
            .open_world(false);
        let read = Tool::new(
            tool_name("read", kind),
            Msg::new(agents.read).to_string(),
            schema_for_type::<LocaleArgs>(),
        )
        .annotate(reads.clone());
        router.add_route(ToolRoute::new_dyn(read, move |context| {
            call(context, move |tools, args: LocaleArgs| {
                i18n_scoped(args.lang, || tools.read_locale(kind, &args.locale))
            })
        }));
        let check = (tool_name("check", kind), Msg::new(agents.check), reads);
        router.add_route(draft_tool(kind, check, DataTools::check_text));
        let write = (tool_name("write", kind), Msg::new(agents.write), writes);
        router.add_route(draft_tool(kind, write, DataTools::write_draft));
    }
    router
}

/// What the check and write tools do with a draft of a file.
type OnDraft = fn(&DataTools, &str, &str, bool, Target<'_>) -> CallToolResult;

/// A tool (its name, description and annotations) that takes a draft of
/// `kind`'s file of a locale and does `run` with it.
fn draft_tool(
    kind: &'static Kind,
    (name, description, annotations): (String, Msg, ToolAnnotations),
    run: OnDraft,
) -> ToolRoute<DataTools> {
    let tool = Tool::new(
        name,
        description.to_string(),
        schema_for_type::<LocaleDraftArgs>(),
    )
    .annotate(annotations);
    ToolRoute::new_dyn(tool, move |context| {
        call(context, move |tools, args: LocaleDraftArgs| {
            i18n_scoped(args.lang, || match draft_path(kind, &args) {
                Ok(rel) => run(tools, &rel, &args.text, args.fix, Target::PerLocale(kind)),
                Err(message) => failure(message, None),
            })
        })
    })
}

/// A call of a tool: its arguments parsed as `A` (refused as invalid
/// parameters otherwise), then `run` on the server.
fn call<'s, A>(
    mut context: ToolCallContext<'s, DataTools>,
    run: impl FnOnce(&DataTools, A) -> CallToolResult + Send + 's,
) -> futures::future::BoxFuture<'s, Result<rmcp::model::CallToolResponse, rmcp::ErrorData>>
where
    A: serde::de::DeserializeOwned + Send + 's,
{
    let arguments = context.arguments.take().unwrap_or_default();
    let tools = context.service;
    Box::pin(async move {
        let args: A = parse_json_object(arguments)?;
        run(tools, args).into_call_tool_result()
    })
}

/// `f` in the language `lang` asks for, or the server's.
fn i18n_scoped<T>(lang: Option<Lang>, f: impl FnOnce() -> T) -> T {
    crate::i18n::scoped(lang.unwrap_or_else(Lang::current), f)
}

/// The path (relative to the root) of `kind`'s file of `locale`; an error
/// for anything but a language tag.
pub(super) fn locale_path(kind: &Kind, locale: &str) -> Result<String, Msg> {
    if !validate::rules::is_language_tag(locale) {
        return Err(msg!("agent-not-a-locale", locale = locale));
    }
    kind.locale_path(locale)
        .ok_or_else(|| msg!("agent-not-a-locale", locale = locale))
}

/// The path of a draft's `locale`, refused when its `path` names another
/// file (the per-locale twin of `DataTools::document_path`).
fn draft_path(kind: &Kind, args: &LocaleDraftArgs) -> Result<String, Msg> {
    let rel = locale_path(kind, &args.locale)?;
    DataTools::same_path(args.path.as_deref(), &rel)?;
    Ok(rel)
}

impl DataTools {
    /// `read_<kind>`: the text of `kind`'s file of `locale`.
    fn read_locale(&self, kind: &'static Kind, locale: &str) -> CallToolResult {
        match locale_path(kind, locale) {
            Ok(rel) => self.read(json!({ "locale": locale }), &rel, &tool_name("write", kind)),
            Err(message) => failure(message, None),
        }
    }
}
