//! Issue 55, the published contract, through the binary: every time of a
//! document with its clock (a DST zone), due times in the documents and
//! the index, `--site-url`, the schemas, the OpenAPI and the API catalog,
//! and `diff` on published fields. The fixture `tests/fixtures/contract`
//! has a game in America/New_York whose version spans the November change
//! (an activity starts in the fold) and one in Asia/Shanghai.

use std::path::Path;

use chrono::{DateTime, NaiveDateTime};
use serde_json::Value;

use crate::util::{copy_tree, crate_root, run, says, stderr, stdout};

const SITE_URL: &str = "https://activity.example.org/sub";

/// The contract fixture copied into a temp root and built into `site/`
/// (with `args` added), or the build's output when it fails.
fn built(args: &[&str]) -> (tempfile::TempDir, std::process::Output) {
    let root = tempfile::tempdir().expect("temp dir");
    copy_tree(&crate_root().join("tests/fixtures/contract"), root.path());
    let mut all = vec!["build", "--no-cache", "--now", "2026-10-25T12:00:00"];
    all.extend_from_slice(args);
    let output = run(root.path(), &all);
    (root, output)
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).expect("file readable")).expect("JSON")
}

fn naive(value: &Value) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(value.as_str().expect("a string"), "%Y-%m-%dT%H:%M:%S")
        .expect("a naive time")
}

/// Reads an instant as a client in another zone would (it knows nothing
/// but the document), checks that it is its naive twin read in the
/// document's `timeZone`, and gives its offset.
fn instant_of(doc: &Value, object: &Value, instant: &str, local: &str) -> String {
    let zone: chrono_tz::Tz = doc["timeZone"]
        .as_str()
        .expect("timeZone")
        .parse()
        .expect("an IANA zone");
    let text = object[instant].as_str().expect("an instant");
    let at = DateTime::parse_from_rfc3339(text).expect("RFC 3339");
    assert_eq!(
        at.with_timezone(&zone).naive_local(),
        naive(&object[local]),
        "{instant} {text} is not {local} {} in {zone}",
        object[local]
    );
    // Seen from Tokyo, the same moment.
    assert_eq!(at.with_timezone(&chrono_tz::Asia::Tokyo), at);
    text[19..].to_owned()
}

#[test]
fn a_client_in_another_zone_reads_every_instant_from_the_document_alone() {
    let (root, output) = built(&[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let site = root.path().join("site");
    let index = json(&site.join("api/v1/games.json"));
    let mut documents = 0;
    for entry in std::fs::read_dir(site.join("api/v1/activity")).expect("folder") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        documents += 1;
        let doc = json(&path);
        let mut offsets = vec![
            instant_of(&doc, &doc, "startsAt", "startTime"),
            instant_of(&doc, &doc, "endsAt", "endTime"),
        ];
        for activity in doc["activities"].as_array().expect("activities") {
            offsets.push(instant_of(&doc, activity, "startsAt", "startTime"));
            offsets.push(instant_of(&doc, activity, "endsAt", "endTime"));
        }
        offsets.sort();
        offsets.dedup();
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        if name.starts_with("ny") {
            assert_eq!(doc["timeZone"], "America/New_York");
            // Two offsets in one version: worked out per time.
            assert_eq!(offsets, ["-04:00", "-05:00"], "{name}");
            // The fold of 1 November is read as its earlier instant.
            let fold = doc["activities"]
                .as_array()
                .expect("activities")
                .iter()
                .find(|a| a["startTime"] == "2026-11-01T01:30:00")
                .expect("the activity in the fold");
            assert_eq!(fold["startsAt"], "2026-11-01T01:30:00-04:00");
            // An `activity` game is due when its last activity ends.
            assert_eq!(doc["updateMode"], "activity");
            assert_eq!(doc["dueAt"], "2026-11-25T09:59:59-05:00");
        } else {
            assert_eq!(offsets, ["+08:00"], "{name}");
            assert_eq!(doc["updateMode"], "version");
            assert_eq!(doc["dueAt"], doc["endsAt"]);
        }
        // The index says the same of every name the document has.
        let url = format!("/api/v1/activity/{name}");
        let file = index["games"]
            .as_array()
            .expect("games")
            .iter()
            .flat_map(|g| g["files"].as_array().expect("files"))
            .find(|f| f["path"] == url.as_str())
            .unwrap_or_else(|| panic!("{url} not in the index"));
        assert_eq!(file["updateMode"], doc["updateMode"], "{url}");
        assert_eq!(file["dueAt"], doc["dueAt"], "{url}");
    }
    // ny.json, ny-en-US.json, ny-zh-CN.json, sh.json and sh-zh-CN.json.
    assert_eq!(documents, 5);
}

#[test]
fn the_published_fields_come_after_the_data_s_own_which_stay_byte_for_byte() {
    let (root, output) = built(&[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let source = std::fs::read_to_string(root.path().join("data/ny/en-US.json")).expect("source");
    let published = std::fs::read_to_string(root.path().join("site/api/v1/activity/ny.json"))
        .expect("published");
    // Each source line (the data is canonical) is in the published text, in order.
    let mut rest = published.as_str();
    for line in source.lines().filter(|l| l.contains("Time\"")) {
        let at = rest
            .find(line)
            .unwrap_or_else(|| panic!("{line:?} not published as written, in order"));
        rest = &rest[at + line.len()..];
    }
    let doc = json(&root.path().join("site/api/v1/activity/ny.json"));
    let keys: Vec<&str> = doc
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "version",
            "versionName",
            "startTime",
            "endTime",
            "activities",
            "timeZone",
            "startsAt",
            "endsAt",
            "updateMode",
            "dueAt"
        ]
    );
    let activity: Vec<&str> = doc["activities"][0]
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(activity[activity.len() - 2..], ["startsAt", "endsAt"]);
}

#[test]
fn without_a_site_url_the_build_says_once_what_stays_relative() {
    let (root, output) = built(&[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let err = stderr(&output);
    assert_eq!(err.matches("no --site-url").count(), 1, "{err}");
    let site = root.path().join("site");
    assert_eq!(
        json(&site.join("api/v1/schema/activity.json"))["$id"],
        "/api/v1/schema/activity.json"
    );
    assert_eq!(
        json(&site.join("api/v1/openapi.json"))["servers"][0]["url"],
        "/"
    );
    let llms = std::fs::read_to_string(site.join("llms.txt")).expect("llms.txt");
    says(&llms, "webcal://<this host>/api/v1/activity/ny.ics");
    let catalog = json(&site.join(".well-known/api-catalog"));
    assert_eq!(
        catalog["linkset"][0]["service-desc"][0]["href"],
        "/api/v1/openapi.json"
    );
}

#[test]
fn a_site_url_makes_every_absolute_link_absolute() {
    let (root, output) = built(&["--site-url", SITE_URL]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        !stderr(&output).contains("--site-url"),
        "{}",
        stderr(&output)
    );
    let site = root.path().join("site");
    let base = "https://activity.example.org/sub/";
    for schema in ["activity", "announcements", "games", "api-catalog"] {
        assert_eq!(
            json(&site.join(format!("api/v1/schema/{schema}.json")))["$id"],
            format!("{base}api/v1/schema/{schema}.json").as_str()
        );
    }
    let openapi = json(&site.join("api/v1/openapi.json"));
    assert_eq!(openapi["openapi"], "3.1.0");
    assert_eq!(
        openapi["servers"][0]["url"],
        "https://activity.example.org/sub"
    );
    // Every 200 answer of a document names the component of the published
    // schema; the one parameter is every published name.
    let document = &openapi["paths"]["/api/v1/activity/{document}.json"]["get"];
    assert_eq!(document["operationId"], "getActivityDocument");
    assert_eq!(
        document["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/ActivityDocument"
    );
    assert_eq!(
        document["parameters"][0]["schema"]["enum"],
        serde_json::json!(["ny", "ny-en-US", "ny-zh-CN", "sh", "sh-zh-CN"])
    );
    // Its example is the first game's published document, cut short.
    let mut example = json(&site.join("api/v1/activity/ny.json"));
    example["activities"]
        .as_array_mut()
        .expect("activities")
        .truncate(2);
    assert_eq!(
        document["responses"]["200"]["content"]["application/json"]["example"],
        example
    );
    let catalog = json(&site.join(".well-known/api-catalog"));
    assert_eq!(
        catalog["linkset"][0]["service-desc"][0]["href"],
        format!("{base}api/v1/openapi.json").as_str()
    );
    let llms = std::fs::read_to_string(site.join("llms.txt")).expect("llms.txt");
    says(
        &llms,
        "webcal://activity.example.org/sub/api/v1/activity/ny.ics",
    );
    let page = std::fs::read_to_string(site.join("ny/index.html")).expect("page");
    says(
        &page,
        "class=\"webcal\" href=\"webcal://activity.example.org/sub/api/v1/activity/ny.ics\"",
    );
    // The API catalog is served with its type, the API's policy and its
    // Link (RFC 9727); llms.txt, which the description lists, with the
    // API's policy; the catalog's anchor is a page naming its links.
    let headers = std::fs::read_to_string(site.join("_headers")).expect("_headers");
    says(
        &headers,
        "/.well-known/api-catalog\n  Access-Control-Allow-Origin: *",
    );
    says(&headers, "Content-Type: application/linkset+json");
    says(
        &headers,
        "  Link: </.well-known/api-catalog>; rel=\"api-catalog\"\n",
    );
    says(
        &headers,
        "/llms.txt\n  Access-Control-Allow-Origin: *\n  Access-Control-Allow-Methods: GET, HEAD, OPTIONS\n  Access-Control-Expose-Headers: ETag, Last-Modified\n  Cache-Control: public, max-age=300",
    );
    assert_eq!(
        catalog["linkset"][0]["anchor"],
        format!("{base}api/v1/").as_str()
    );
    let home = std::fs::read_to_string(site.join("api/v1/index.html")).expect("the anchor's page");
    says(
        &home,
        &format!("<link rel=\"service-desc\" href=\"{base}api/v1/openapi.json\">"),
    );
    says(&home, "<h1>游戏活动 API</h1>");
    says(&home, "<h1>Game activity API</h1>");
}

#[test]
fn a_site_url_that_is_not_an_http_address_is_refused() {
    for (url, why) in [
        ("ftp://example.org/", "not an http or https address"),
        (
            "https://example.org/?page=1",
            "has a query, a fragment or credentials",
        ),
        ("example.org", "is not a URL"),
    ] {
        let (root, output) = built(&["--site-url", url]);
        assert_eq!(output.status.code(), Some(2), "{url}");
        says(&stderr(&output), why);
        assert!(
            !root.path().join("site").exists(),
            "{url}: nothing is built"
        );
    }
}

#[test]
fn diff_calls_added_fields_fine_and_a_removed_or_retyped_published_field_breaking() {
    let (root, output) = built(&[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let base = root.path().join("base");
    copy_tree(&root.path().join("site"), &base);
    let document = base.join("api/v1/activity/sh.json");
    let mut doc = json(&document);
    // A base from before the contract: the new fields are additions.
    for field in ["timeZone", "startsAt", "endsAt", "updateMode", "dueAt"] {
        doc.as_object_mut().expect("object").shift_remove(field);
    }
    for activity in doc["activities"].as_array_mut().expect("activities") {
        activity
            .as_object_mut()
            .expect("object")
            .shift_remove("startsAt");
    }
    std::fs::write(&document, serde_json::to_vec_pretty(&doc).expect("JSON")).expect("write");
    let against = base.to_string_lossy().into_owned();
    let diff = run(
        root.path(),
        &[
            "diff",
            "--against",
            &against,
            "--now",
            "2026-10-25T12:00:00",
            "--format",
            "json",
        ],
    );
    let report: Value = serde_json::from_slice(&diff.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(&diff), stderr(&diff)));
    assert_ne!(diff.status.code(), Some(3), "{report:#}");

    // A field the base publishes and this build does not, and one retyped.
    doc["legacyField"] = Value::from("kept by clients");
    doc["version"] = Value::from(4.6);
    std::fs::write(&document, serde_json::to_vec_pretty(&doc).expect("JSON")).expect("write");
    let diff = run(
        root.path(),
        &[
            "diff",
            "--against",
            &against,
            "--now",
            "2026-10-25T12:00:00",
            "--format",
            "json",
        ],
    );
    assert_eq!(diff.status.code(), Some(3), "{}", stdout(&diff));
    let report: Value = serde_json::from_slice(&diff.stdout).expect("JSON report");
    let codes: Vec<&str> = report["files"]
        .as_array()
        .expect("files")
        .iter()
        .flat_map(|f| f["breaking"].as_array().into_iter().flatten())
        .filter_map(|b| b["code"].as_str())
        .collect();
    assert!(codes.contains(&"published-field-removed"), "{codes:?}");
    assert!(codes.contains(&"published-field-retyped"), "{codes:?}");
    let text = run(
        root.path(),
        &[
            "diff",
            "--against",
            &against,
            "--now",
            "2026-10-25T12:00:00",
        ],
    );
    says(&stdout(&text), "legacyField");
}

#[test]
fn import_of_a_built_site_leaves_the_published_fields_out_of_the_data() {
    let (root, output) = built(&[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let into = tempfile::tempdir().expect("temp dir");
    let from = root.path().join("site").to_string_lossy().into_owned();
    let import = run(into.path(), &["import", "--from", &from]);
    assert!(import.status.success(), "{}", stderr(&import));
    let data = std::fs::read_to_string(into.path().join("data/ny/en-US.json")).expect("imported");
    for field in ["startsAt", "timeZone", "dueAt", "updateMode"] {
        assert!(
            !data.contains(field),
            "{field} in the imported data:\n{data}"
        );
    }
    let check = run(into.path(), &["check", "--now", "2026-10-25T12:00:00"]);
    assert!(check.status.success(), "{}", stderr(&check));
}

#[test]
fn publish_refuses_a_site_built_for_another_address() {
    let (root, output) = built(&["--site-url", SITE_URL]);
    assert!(output.status.success(), "{}", stderr(&output));
    let publish = |url: &str| {
        run(
            root.path(),
            &[
                "publish",
                "--to",
                "s3://bucket/prefix",
                "--endpoint",
                "http://127.0.0.1:9",
                "--dry-run",
                "--site-url",
                url,
                "--now",
                "2026-10-25T12:00:00",
            ],
        )
    };
    let refused = publish("https://elsewhere.example.org/");
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    says(
        &stderr(&refused),
        "was not built for https://elsewhere.example.org/ (its OpenAPI names https://activity.example.org/sub)",
    );
    // The same address gets past the check (to the store, which is not there).
    let same = publish(SITE_URL);
    assert!(
        !stderr(&same).contains("was not built for"),
        "{}",
        stderr(&same)
    );
}

/// Adds `unevaluatedProperties: false` to every object schema that names
/// its properties: the published schemas let readers meet fields they do
/// not know, this copy lets a file hold only what its schema describes.
fn strict(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            if object.contains_key("properties") && !object.contains_key("additionalProperties") {
                object.insert("unevaluatedProperties".into(), Value::Bool(false));
            }
            object.values_mut().for_each(strict);
        }
        Value::Array(items) => items.iter_mut().for_each(strict),
        _ => {}
    }
}

/// A path template of the description as a pattern of site-absolute
/// paths: each `{…}` one of its parameter's values (`enums`), or, without
/// them, any text of one segment, as a router that reads no enum matches.
fn path_pattern(template: &str, item: &Value, enums: bool) -> regex::Regex {
    let mut pattern = String::from("^");
    for (i, part) in template.split(['{', '}']).enumerate() {
        if i % 2 == 0 {
            pattern.push_str(&regex::escape(part));
            continue;
        }
        let values = item["get"]["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|p| p["name"] == part)
            .and_then(|p| p["schema"]["enum"].as_array());
        match values.filter(|_| enums) {
            Some(values) => {
                let values: Vec<String> = values
                    .iter()
                    .map(|v| regex::escape(v.as_str().expect("a string")))
                    .collect();
                pattern.push_str(&format!("(?:{})", values.join("|")));
            }
            None => pattern.push_str("[^/]+"),
        }
    }
    pattern.push('$');
    regex::Regex::new(&pattern).expect("a pattern")
}

/// Every file of a built site the description covers: the API (but the
/// page of its base), `llms.txt` and the API catalog, without their
/// precompressed siblings.
fn described_files(site: &Path) -> Vec<(String, Vec<u8>)> {
    crate::util::files_under(site)
        .into_iter()
        .filter(|(path, _)| {
            !path.ends_with(".gz")
                && !path.ends_with(".br")
                && path != "api/v1/index.html"
                && (path.starts_with("api/v1/")
                    || path == "llms.txt"
                    || path == ".well-known/api-catalog")
        })
        .collect()
}

/// The published schema file a published JSON file's family names, or
/// `None` for the contract's own files.
fn schema_file_of(path: &str) -> Option<&'static str> {
    Some(match path {
        "api/v1/games.json" => "api/v1/schema/games.json",
        ".well-known/api-catalog" => "api/v1/schema/api-catalog.json",
        "api/v1/openapi.json" => return None,
        _ if path.starts_with("api/v1/schema/") || !path.ends_with(".json") => return None,
        _ if path.starts_with("api/v1/anno") => "api/v1/schema/announcements.json",
        _ => "api/v1/schema/activity.json",
    })
}

/// Checks every file of a built site the description covers: its URL
/// matches exactly one path of the description, with the parameters'
/// values and without them; a JSON file validates against its published
/// schema file and against the component the description's answer names
/// (held to name every field when `strict`). Gives the count of files
/// checked against each schema file.
fn check_published(site: &Path, strict_fields: bool) -> std::collections::BTreeMap<String, usize> {
    let openapi = json(&site.join("api/v1/openapi.json"));
    let paths = openapi["paths"].as_object().expect("paths");
    let mut components = serde_json::json!({"components": openapi["components"].clone()});
    if strict_fields {
        strict(&mut components);
    }
    let mut checked = std::collections::BTreeMap::<String, usize>::new();
    for (path, bytes) in described_files(site) {
        let url = format!("/{path}");
        for enums in [true, false] {
            let matching: Vec<&String> = paths
                .iter()
                .filter(|(template, item)| path_pattern(template, item, enums).is_match(&url))
                .map(|(template, _)| template)
                .collect();
            assert_eq!(
                matching.len(),
                1,
                "{url} (enums: {enums}) matches {matching:?}"
            );
        }
        let Some(schema_file) = schema_file_of(&path) else {
            continue;
        };
        let document: Value = serde_json::from_slice(&bytes).expect("JSON");
        let (template, item) = paths
            .iter()
            .find(|(template, item)| path_pattern(template, item, true).is_match(&url))
            .expect("one path");
        let content = &item["get"]["responses"]["200"]["content"];
        let reference = content
            .as_object()
            .and_then(|media| media.values().find_map(|m| m["schema"]["$ref"].as_str()))
            .unwrap_or_else(|| panic!("{template} names no component"));
        let mut by_component = components.clone();
        by_component["$ref"] = Value::String(reference.to_owned());
        for (what, schema) in [
            (schema_file, json(&site.join(schema_file))),
            (reference, by_component),
        ] {
            let validator = jsonschema::draft202012::new(&schema).expect("a schema");
            let errors: Vec<String> = validator
                .iter_errors(&document)
                .map(|error| format!("{} at {}", error, error.instance_path()))
                .collect();
            assert!(
                errors.is_empty(),
                "{path} against {what}:\n{}",
                errors.join("\n")
            );
        }
        *checked.entry(schema_file.to_owned()).or_default() += 1;
    }
    checked
}

/// One owner for each published field, and one operation for each URL:
/// every file of the bundled data's site the description covers matches
/// exactly one of its paths (game ids hold `-`: `ba-cn-zh-CN.json` is one
/// name, never a game and a locale), and holds no field its schema leaves
/// undescribed. A field added to what the build writes and not to the
/// schema fails here, before a client meets it.
#[test]
fn every_published_field_is_described_by_its_schema() {
    let (_dir, site) = crate::util::build_bundled(&["--no-cache", "--site-url", SITE_URL]);
    let checked = check_published(&site, true);
    for schema in ["games", "activity", "announcements", "api-catalog"] {
        let count = checked
            .get(&format!("api/v1/schema/{schema}.json"))
            .copied()
            .unwrap_or(0);
        assert!(
            count > 0,
            "no file was checked against {schema}: {checked:?}"
        );
    }
}

/// Issue 62: a published file validates against its published schema
/// whatever the data lacks. Each folder of `tests/fixtures/published-gaps`
/// but `complete` lays one gap over `complete`: activities without ids yet,
/// a locale without its document, a game named with one string, optional
/// fields absent (covers, kinds, the registry's zone and update mode).
#[test]
fn a_published_file_validates_against_its_schema_whatever_the_data_lacks() {
    let fixtures = crate_root().join("tests/fixtures/published-gaps");
    for case in [
        "complete",
        "no-id",
        "pending-locale",
        "one-string-name",
        "optional-absent",
    ] {
        let dir = tempfile::tempdir().expect("temp dir");
        let overlay = fixtures.join(case);
        crate::util::fixture_tree(&fixtures.join("complete"), Some(&overlay), dir.path());
        let output = run(
            dir.path(),
            &[
                "build",
                "--no-cache",
                "--out",
                "site",
                "--site-url",
                SITE_URL,
            ],
        );
        assert!(output.status.success(), "{case}: {}", stderr(&output));
        let checked = check_published(&dir.path().join("site"), false);
        assert!(
            checked
                .get("api/v1/schema/activity.json")
                .copied()
                .unwrap_or(0)
                >= 2,
            "{case}: {checked:?}"
        );
    }
}

/// The published schemas are open: a document and a board with a field
/// added at the top and in an item validate against them (the sources'
/// schemas, which contributors write against, stay closed).
#[test]
fn a_document_with_an_added_field_validates_against_the_published_schemas() {
    let (root, output) = built(&["--site-url", SITE_URL]);
    assert!(output.status.success(), "{}", stderr(&output));
    let site = root.path().join("site");
    for (path, schema, items) in [
        ("api/v1/activity/ny.json", "activity", "activities"),
        ("api/v1/games.json", "games", "games"),
    ] {
        let mut document = json(&site.join(path));
        document["addedLater"] = serde_json::json!({"any": "shape"});
        document[items][0]["addedLater"] = Value::from(1);
        let schema = json(&site.join(format!("api/v1/schema/{schema}.json")));
        let validator = jsonschema::draft202012::new(&schema).expect("a schema");
        assert!(validator.is_valid(&document), "{path}");
        // The strict copy of the project's own check refuses it.
        let mut closed = schema.clone();
        strict(&mut closed);
        let validator = jsonschema::draft202012::new(&closed).expect("a schema");
        assert!(!validator.is_valid(&document), "{path}");
    }
    let source = std::fs::read_to_string(crate_root().join("schema/activity.schema.json"))
        .expect("the source schema");
    says(&source, "\"additionalProperties\": false");
}
