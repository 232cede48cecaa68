//! Issue 47: a kind of document is declared in one module and listed once
//! (`activity_site::kind::ALL`). These tests walk that list and hold every
//! kind to what the rest of the tool expects of it: a schema file that
//! exists, the messages it names in both languages, review findings of
//! its own, sources that are its own.

use activity_site::i18n::{EN_US_FTL, ZH_CN_FTL};
use activity_site::kind::{self, Kind, PublishedAs, Sources};
use activity_site::{layout, tree};

use crate::util::crate_root;

/// Whether `ftl` holds a message `id`.
fn defines(ftl: &str, id: &str) -> bool {
    ftl.lines()
        .any(|line| line.split_once(" =").is_some_and(|(name, _)| name == id))
}

/// Every message the declaration of `kind` names.
fn messages_of(kind: &Kind) -> Vec<String> {
    let mut ids = Vec::new();
    for finding in kind.review.breaking.iter().chain(kind.review.warnings) {
        ids.push(finding.message.to_string());
        ids.push(finding.help.to_string());
    }
    ids.extend(kind.status.map(str::to_owned));
    ids.extend(kind.rules.iter().map(|r| format!("rule-{r}")));
    if let Sources::PerLocale { counted, .. } = kind.sources {
        ids.push(counted.to_owned());
    }
    if let Some(pages) = kind.pages() {
        ids.extend(pages.words.iter().map(|(_, id)| (*id).to_owned()));
    }
    ids
}

/// A source path of `kind`, as the tree lays one out.
fn a_source_of(kind: &Kind) -> String {
    match kind.sources {
        Sources::PerGame => tree::data_path("sr", "en-US"),
        Sources::PerLocale { .. } => kind.locale_path("en-US").expect("a per-locale kind"),
        Sources::Verbatim { .. } => tree::kept_path(layout::ROBOTS_PATH),
    }
}

#[test]
fn every_kind_has_a_schema_that_exists_and_is_the_built_in_one() {
    for kind in kind::ALL {
        let Some(schema) = &kind.schema else {
            assert!(
                matches!(kind.sources, Sources::Verbatim { .. }),
                "`{}` is not kept verbatim, so it needs a schema",
                kind.name
            );
            continue;
        };
        let path = crate_root().join(schema.source);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("`{}`: {}: {e}", kind.name, path.display()));
        assert_eq!(
            text, schema.builtin,
            "`{}`: the built-in schema is {}",
            kind.name, schema.source
        );
        let value: serde_json::Value = serde_json::from_str(&text).expect("a schema is JSON");
        assert!(
            jsonschema::draft202012::new(&value).is_ok(),
            "`{}`: {} is not a JSON Schema",
            kind.name,
            schema.source
        );
        assert!(
            layout::is_api(schema.published)
                && layout::content_type(schema.published) == layout::JSON_TYPE,
            "`{}`: its schema is published as JSON under the API, not at {}",
            kind.name,
            schema.published
        );
        assert!(
            schema.resource.starts_with("activity-site://") && !schema.describes.is_empty(),
            "`{}`: the agents need a resource URI and a description",
            kind.name
        );
    }
}

#[test]
fn every_kind_speaks_both_languages() {
    for kind in kind::ALL {
        assert!(!kind.rules.is_empty(), "`{}` has no rules", kind.name);
        for id in messages_of(kind) {
            for (lang, ftl) in [("en-US", EN_US_FTL), ("zh-CN", ZH_CN_FTL)] {
                assert!(
                    defines(ftl, &id),
                    "`{}`: message `{id}` is missing from {lang}.ftl",
                    kind.name
                );
            }
        }
    }
}

#[test]
fn every_finding_of_a_review_has_one_kind_and_its_own_messages() {
    let mut codes = Vec::new();
    for kind in kind::ALL {
        for (finding, breaking) in kind
            .review
            .breaking
            .iter()
            .map(|f| (f, true))
            .chain(kind.review.warnings.iter().map(|f| (f, false)))
        {
            assert!(
                !codes.contains(&finding.code),
                "`{}`: two findings are coded `{}`",
                kind.name,
                finding.code
            );
            codes.push(finding.code);
            let prefix = if breaking { "breaking-" } else { "warning-" };
            assert!(
                finding.message.starts_with(prefix)
                    && finding.help == format!("{}-help", finding.message),
                "`{}`: `{}` is said by `{}` with `{}`",
                kind.name,
                finding.code,
                finding.message,
                finding.help
            );
        }
    }
}

/// Issue 47: what a review and an import do with a kind's published
/// documents is found from the kind. Every kind whose files are JSON
/// documents has its comparison listed once in `review::kinds::ALL`
/// (the kept files are compared by their status alone) and found from a
/// path it publishes; `import` places the activity documents through the
/// registry, and recognises every kind published once per locale by its
/// shape and the names it declares, placing it at its source of that locale.
#[test]
fn every_kind_has_its_review_and_its_import_placement() {
    use activity_site::import;
    use activity_site::review;
    for kind in kind::ALL {
        let compare = review::kinds::of(kind);
        assert_eq!(
            compare.is_some(),
            kind.is_json(),
            "`{}`: a kind of JSON documents, and only one, has its comparison in \
             review::kinds::ALL",
            kind.name
        );
        let findings = kind.review.breaking.len() + kind.review.warnings.len();
        assert!(
            findings == 0 || compare.is_some(),
            "`{}` declares findings that no comparison reports",
            kind.name
        );
        let published: Vec<String> = match kind.published {
            PublishedAs::PerGame { .. } => vec![
                layout::activity_file("sr", "json"),
                layout::activity_file("sr-en-US", "json"),
            ],
            PublishedAs::PerLocale { .. } => ["", "en-US"]
                .iter()
                .map(|l| {
                    kind.published_path(l, activity_site::layout::Naming::of(l, ""), "json")
                        .expect("a kind published per locale names its documents")
                })
                .collect(),
            PublishedAs::Verbatim => Vec::new(),
        };
        assert_eq!(
            published.is_empty(),
            !kind.is_json(),
            "`{}`: a kind of JSON documents says where the site publishes them",
            kind.name
        );
        for path in &published {
            assert!(
                kind::of_published(path).is_some_and(|k| kind::same(k, kind)),
                "{path} should be a document of `{}`, not of {:?}",
                kind.name,
                kind::of_published(path).map(|k| k.name)
            );
            assert!(
                review::kinds::of_path(path).is_some_and(|c| kind::same(c.kind(), kind)),
                "a review compares {path} as a document of `{}`",
                kind.name
            );
        }
        assert_eq!(
            kind.shape.is_some(),
            kind.is_json(),
            "`{}`: import recognises a kind of JSON documents by its shape",
            kind.name
        );
        assert_eq!(
            import::is_activities(kind),
            kind.sources == Sources::PerGame,
            "`{}`: import places the documents of a kind per game through the registry",
            kind.name
        );
        if !matches!(kind.sources, Sources::PerLocale { .. }) {
            continue;
        }
        assert!(
            matches!(kind.published, PublishedAs::PerLocale { .. }),
            "`{}`: import needs the names a kind with a source per locale is published under",
            kind.name
        );
        let [unsuffixed, suffixed] = [&published[0], &published[1]];
        let recognised = |path: &str| {
            import::per_locale_document(path).map(|(k, l)| (k.name, l.map(str::to_owned)))
        };
        assert_eq!(
            recognised(suffixed),
            Some((kind.name, Some("en-US".to_owned())))
        );
        assert_eq!(recognised(unsuffixed), Some((kind.name, None)));
        let name = suffixed.rsplit('/').next().unwrap_or_default();
        assert_eq!(
            import::per_locale_named(name).as_deref(),
            Some(suffixed.as_str()),
            "`{}`: a flat folder's {name} is read as {suffixed}",
            kind.name
        );
        let placed = kind.locale_path("en-US").expect("a source per locale");
        assert!(
            kind::of_source(&placed).is_some_and(|k| kind::same(k, kind))
                && kind.locale_of(&placed) == Some("en-US"),
            "`{}`: import writes {suffixed} to {placed}, which is not its source of en-US",
            kind.name
        );
    }
    let mut names: Vec<&str> = review::kinds::ALL.iter().map(|c| c.kind().name).collect();
    let listed = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), listed, "review::kinds::ALL names a kind twice");
}

#[test]
fn every_kind_owns_its_sources_alone() {
    let mut names = Vec::new();
    for kind in kind::ALL {
        assert!(
            !names.contains(&kind.name),
            "two kinds are called `{}`",
            kind.name
        );
        names.push(kind.name);
        let source = a_source_of(kind);
        let owner = kind::of_source(&source);
        assert!(
            owner.is_some_and(|k| kind::same(k, kind)),
            "{source} should be `{}`'s, not {:?}'s",
            kind.name,
            owner.map(|k| k.name)
        );
        assert_eq!(
            kind.editor,
            kind.is_json(),
            "`{}`: the editor checks exactly the kinds with a schema",
            kind.name
        );
    }
    assert_eq!(kind::of_source(tree::REGISTRY_PATH).map(|k| k.name), None);
}

/// What each kind does sits behind one trait per layer, keyed by the kind:
/// a kind whose sources are one file per locale is checked by its own
/// `validate::FileRules` and published by its own `site::types::Publish`,
/// listed once in each layer and found from the kind; the activity
/// documents (checked game by game) and the kept files (published byte
/// for byte) have neither.
#[test]
fn every_kind_checked_file_by_file_has_its_rules_and_its_publisher() {
    use activity_site::{site, validate};
    for kind in kind::ALL {
        let per_file = matches!(kind.sources, Sources::PerLocale { .. });
        let rules = validate::rules_of(kind);
        let publish = site::kinds::of(kind);
        assert_eq!(
            rules.is_some(),
            per_file,
            "`{}`: a kind checked file by file, and only one, has its rules in \
             validate::FILE_KINDS",
            kind.name
        );
        assert_eq!(
            publish.is_some(),
            per_file,
            "`{}`: a kind checked file by file, and only one, has its publisher in \
             site::kinds::ALL",
            kind.name
        );
        let Some(publish) = publish else { continue };
        for column in publish.status_columns() {
            for (lang, ftl) in [("en-US", EN_US_FTL), ("zh-CN", ZH_CN_FTL)] {
                assert!(
                    defines(ftl, column.heading),
                    "`{}`: the status heading `{}` is missing from {lang}.ftl",
                    kind.name,
                    column.heading
                );
            }
        }
        assert_eq!(
            publish.status_values(None).len(),
            publish.status_columns().len(),
            "`{}`: a status row has a value per column",
            kind.name
        );
    }
    // Each list names each kind once.
    for (layer, names) in [
        (
            "validate::FILE_KINDS",
            validate::FILE_KINDS
                .iter()
                .map(|r| r.kind().name)
                .collect::<Vec<_>>(),
        ),
        (
            "site::kinds::ALL",
            site::kinds::ALL.iter().map(|p| p.kind().name).collect(),
        ),
    ] {
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(
            unique.len(),
            names.len(),
            "{layer} names a kind twice: {names:?}"
        );
    }
}

#[test]
fn every_kind_published_per_locale_has_an_index_field_and_a_page_folder_of_its_own() {
    let mut fields = vec!["games"];
    let mut folders = Vec::new();
    for kind in kind::ALL {
        let Some(field) = kind.index_field() else {
            continue;
        };
        assert!(
            !fields.contains(&field),
            "`{}`: the index field `{field}` is taken",
            kind.name
        );
        fields.push(field);
        if let Some(pages) = kind.pages() {
            assert!(
                !folders.contains(&pages.dir),
                "`{}`: the page folder `{}` is taken",
                kind.name,
                pages.dir
            );
            folders.push(pages.dir);
            assert!(
                kind::of_page_dir(pages.dir).is_some_and(|k| kind::same(k, kind)),
                "`{}`: a game id may not take its page folder",
                kind.name
            );
        }
    }
    assert!(fields.len() > 1, "the boards have an index field");
}
