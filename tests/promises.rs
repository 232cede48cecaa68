//! Issue 37: every promise `SECURITY.md` makes, probed through the router or
//! the binary: names in one form, no leftovers after a crash, corrupt state
//! moved aside without a server path in any answer, 401 before 404/405,
//! 415 to anything but JSON, and a token that can be sent.

use activity_site_control::api::ApiOptions;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::json;

use crate::harness::{FAST, fast, open};

fn request(method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Request<Body> {
    let mut builder = Request::builder().method(method).uri(path);
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    builder.body(Body::from(body.to_string())).unwrap()
}

// Finding 4: 401 before 404 or 405.

/// `GET`, `PUT`, `DELETE` and `PATCH /api/Auth` answered 405 without a
/// token; only `POST /api/Auth` (and `GET` of the OpenAPI document) need none.
#[tokio::test]
async fn with_a_token_set_every_api_path_answers_401_before_405() {
    let api = open(
        FAST,
        ApiOptions {
            access_token: Some("s3cret".to_string()),
            ..ApiOptions::default()
        },
    );
    for (method, path) in [
        ("GET", "/api/Auth"),
        ("PUT", "/api/Auth"),
        ("DELETE", "/api/Auth"),
        ("PATCH", "/api/Auth"),
        ("POST", "/openapi/v1.json"),
        ("DELETE", "/openapi/v1.json"),
        ("PATCH", "/api/Task/status"),
        ("GET", "/api/Nope"),
    ] {
        api.send(request(method, path, &[], ""))
            .await
            .assert_error(StatusCode::UNAUTHORIZED);
        let with_token = api
            .send(request(method, path, &[("x-access-token", "s3cret")], ""))
            .await;
        assert!(
            matches!(
                with_token.status,
                StatusCode::METHOD_NOT_ALLOWED | StatusCode::NOT_FOUND
            ),
            "{method} {path}: {}",
            with_token.status
        );
    }
    // The open doors stay open.
    let reply = api
        .send(request(
            "POST",
            "/api/Auth",
            &[("content-type", "application/json")],
            r#"{"token": "s3cret"}"#,
        ))
        .await;
    assert_eq!(reply.json["message"], "authorized");
    let document = api.send(request("GET", "/openapi/v1.json", &[], "")).await;
    assert_eq!(document.status, StatusCode::OK);
}

// Finding 5: 415 to any body but JSON; an empty body is no body.

/// `POST /api/Backend/restart` with `Content-Type: text/plain` and an empty
/// body restarted the backend (200).
#[tokio::test]
async fn a_body_of_a_non_json_content_type_is_refused() {
    let api = fast();
    let before = api.get("/api/Task/status").await.data()["session_id"].clone();
    for content_type in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        for (method, path) in [
            ("POST", "/api/Backend/restart"),
            ("POST", "/api/Task/stop"),
            ("POST", "/api/Task/run"),
            ("POST", "/api/Configs/New"),
            ("DELETE", "/api/Configs/Default"),
        ] {
            let reply = api
                .send(request(
                    method,
                    path,
                    &[("content-type", content_type)],
                    "x",
                ))
                .await;
            reply.assert_error(StatusCode::UNSUPPORTED_MEDIA_TYPE);
            assert!(reply.message().contains("application/json"));
        }
    }
    let after = api.get("/api/Task/status").await.data()["session_id"].clone();
    assert_eq!(before, after, "the backend was not restarted");
    assert_eq!(api.get("/api/Configs").await.data(), &json!(["Default"]));
    // No type and no body is no body: what that means is the route's (SECURITY.md).
    let reply = api
        .send(request("POST", "/api/Backend/restart", &[], ""))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.json);
    // No type with a body is refused.
    api.send(request("POST", "/api/Backend/restart", &[], "{}"))
        .await
        .assert_error(StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

// Finding 7: a token that can never be sent.

#[test]
fn serve_refuses_an_access_token_with_surrounding_whitespace() {
    let root = crate::util::fixture_root(None);
    for token in ["s3cret ", " s3cret"] {
        let output = crate::util::run(
            root.path(),
            &[
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--no-watch",
                "--access-token",
                token,
            ],
        );
        assert_eq!(output.status.code(), Some(2), "{token:?}");
        let stderr = crate::util::stderr(&output);
        assert!(stderr.contains("whitespace"), "{stderr}");
        assert!(stderr.contains("X-Access-Token"), "{stderr}");
    }
    // The same from the service configuration file.
    let config = root.path().join("service.json");
    std::fs::write(&config, r#"{"AccessToken": "s3cret\t"}"#).unwrap();
    let output = crate::util::run(
        root.path(),
        &[
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--no-watch",
            "--control-config",
            config.to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(crate::util::stderr(&output).contains("whitespace"));
}

// Finding 2 (leftovers after a crash) is the control crate's
// (crates/control/tests/control.rs), beside the writer it kills.

// Finding 3: corrupt state files, and no server path in any answer.

#[tokio::test]
async fn a_corrupt_extension_configuration_is_moved_aside_at_start_and_while_running() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let config = state.join("extensions/daily-checkin/config.json");
    // Seed, then break the stored configuration.
    drop(activity_site_control::Control::open(crate::util::control_options(&state)).unwrap());
    std::fs::write(&config, "{\"broken\": ").unwrap();
    let api = crate::harness::open_in(dir, FAST, ApiOptions::default());
    assert_eq!(
        std::fs::read_to_string(state.join("extensions/daily-checkin/config.json.corrupt-1"))
            .unwrap(),
        "{\"broken\": ",
        "moved aside at start-up, not rewritten"
    );
    assert_eq!(
        api.get("/api/Extensions/daily-checkin/config").await.data(),
        &json!("{}")
    );
    // Broken while the server runs: one 500 that says so, without a path.
    std::fs::write(&config, "not json").unwrap();
    let reply = api.get("/api/Extensions/daily-checkin/config").await;
    reply.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
    let message = reply.message();
    assert!(
        message.contains("the stored configuration of extension `daily-checkin`"),
        "{message}"
    );
    assert!(message.contains("moved aside"), "{message}");
    assert!(!message.contains(&*state.to_string_lossy()), "{message}");
    assert!(!message.contains('/'), "no path at all: {message}");
    assert!(
        state
            .join("extensions/daily-checkin/config.json.corrupt-2")
            .is_file()
    );
    assert_eq!(
        api.get("/api/Extensions/daily-checkin/config").await.data(),
        &json!("{}")
    );
    // A corrupt configuration while running: the same.
    std::fs::write(state.join("configs/Default.json"), "[").unwrap();
    let reply = api.get("/api/Configs/Default").await;
    reply.assert_error(StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        reply.message().contains("configuration `Default`"),
        "{}",
        reply.message()
    );
    assert!(!reply.message().contains(&*state.to_string_lossy()));
    api.get("/api/Configs/Default")
        .await
        .assert_error(StatusCode::NOT_FOUND);
}

// Finding 1: a configuration name in another Unicode form.

/// `name` as one path segment.
fn segment(name: &str) -> String {
    percent_encoding::utf8_percent_encode(name, percent_encoding::NON_ALPHANUMERIC).to_string()
}

/// Every file of the state directory's `configs/` with its bytes.
fn configs_on_disk(api: &crate::harness::Api) -> Vec<(String, Vec<u8>)> {
    let dir = api.dir.path().join("state/configs");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// Issue 37's reproduction: a persisted run under `Zoe\u0301` saved `Zoé`
/// and answered 500 (the backend got the name as sent); runs, single tasks
/// and GETs naming `Café` in another form disagreed with the store.
#[tokio::test]
async fn a_name_in_another_form_is_one_name_everywhere() {
    let api = fast();
    let reply = api
        .post(
            "/api/Task/run",
            json!({"config": {"dailyTraining": {"enabled": true}}, "persist": true, "configName": "Zoe\u{301}"}),
        )
        .await;
    let status = reply.data();
    assert_eq!(status["target"], "Zo\u{e9}", "{status}");
    api.wait_for(&["completed", "failed"]).await;
    assert_eq!(
        api.get("/api/Configs").await.data(),
        &json!(["Default", "Zo\u{e9}"])
    );
    api.call(
        "POST",
        &format!("/api/Configs/{}", segment("Caf\u{e9}")),
        None,
    )
    .await
    .data();
    api.call(
        "POST",
        &format!("/api/Configs/{}", segment("\u{c5}ngstr\u{f6}m K")),
        None,
    )
    .await
    .data();
    for (name, stored) in [
        ("Cafe\u{301}", "Caf\u{e9}"),
        ("CAFÉ", "Caf\u{e9}"),
        ("\u{ff23}af\u{e9}", "Caf\u{e9}"),
        ("A\u{30a}ngstro\u{308}m K", "\u{c5}ngstr\u{f6}m K"),
        ("\u{212b}ngstr\u{f6}m \u{212a}", "\u{c5}ngstr\u{f6}m K"),
        ("\u{c5}ngstr\u{f6}m\u{3000}K", "\u{c5}ngstr\u{f6}m K"),
    ] {
        assert_eq!(
            api.get(&format!("/api/Configs/{}", segment(name)))
                .await
                .status,
            StatusCode::OK,
            "{name:?}"
        );
        let run = api.post("/api/Task/run", json!({"configName": name})).await;
        assert_eq!(run.data()["target"], stored, "{name:?}");
        api.wait_for(&["completed", "failed"]).await;
        let single = api
            .post(
                "/api/Task/single",
                json!({"taskName": "0", "configName": name}),
            )
            .await;
        assert_eq!(single.status, StatusCode::OK, "{name:?}: {}", single.json);
        api.wait_for(&["completed", "failed"]).await;
        let logs = api.get("/api/Backend/logs?count=2000").await;
        assert!(
            !logs.json.to_string().contains(name) || name == stored,
            "the log shows the stored spelling only"
        );
    }
    // Names that only read as refused ones are refused, and change nothing.
    let before = configs_on_disk(&api);
    for name in ["\u{2000}Caf\u{e9}", "Default\u{a0}", "\u{ff0e}hidden"] {
        let run = api
            .post(
                "/api/Task/run",
                json!({"config": {}, "persist": true, "configName": name}),
            )
            .await;
        run.assert_error(StatusCode::BAD_REQUEST);
        api.call("POST", &format!("/api/Configs/{}", segment(name)), None)
            .await
            .assert_error(StatusCode::BAD_REQUEST);
    }
    // A look-alike of an existing name is that name: a second one is refused.
    for twin in ["\u{ff24}efault", "DEFAULT", "default"] {
        let reply = api
            .call("POST", &format!("/api/Configs/{}", segment(twin)), None)
            .await;
        reply.assert_error(StatusCode::CONFLICT);
        assert!(reply.message().contains("`Default`"), "{}", reply.message());
    }
    // Another script's letters are other letters: Cyrillic `е` is a new name.
    api.call(
        "POST",
        &format!("/api/Configs/{}", segment("D\u{435}fault")),
        None,
    )
    .await
    .data();
    assert_eq!(configs_on_disk(&api).len(), before.len() + 1);
}

mod names {
    use axum::http::StatusCode;
    use proptest::prelude::*;
    use serde_json::json;
    use unicode_normalization::UnicodeNormalization;

    use super::{configs_on_disk, segment};
    use crate::harness::{Api, fast};

    /// Letters with several spellings: composed and decomposed accents,
    /// the Kelvin and Angstrom signs, full-width forms, both cases.
    const LETTERS: &[&str] = &["a", "B", "\u{e9}", "\u{c5}", "k", "\u{df}", "z", "日"];

    /// `base` in spelling `form`.
    fn spell(base: &str, form: usize) -> String {
        match form {
            0 => base.nfc().collect(),
            1 => base.nfd().collect(),
            // Per letter, as NTFS's upcase table does: `ß` stays `ß` (its
            // upper case `SS` is two letters, another name).
            2 => base
                .chars()
                .map(|c| {
                    let mut upper = c.to_uppercase();
                    match (upper.next(), upper.next()) {
                        (Some(u), None) => u,
                        _ => c,
                    }
                })
                .collect(),
            3 => base.to_lowercase().nfd().collect(),
            4 => base
                .chars()
                .map(|c| match c {
                    'A'..='Z' | 'a'..='z' => char::from_u32(c as u32 - 0x21 + 0xFF01).unwrap(),
                    c => c,
                })
                .collect(),
            _ => base
                .chars()
                .map(|c| match c {
                    'k' | 'K' => '\u{212a}',
                    '\u{c5}' => '\u{212b}',
                    c => c,
                })
                .collect(),
        }
    }

    /// What each surface says of `name`: GET, run, single task, PUT and
    /// DELETE of a name that exists succeed; of one that does not, each
    /// refuses. Waits for the runs it starts.
    async fn surfaces(api: &Api, name: &str) -> [bool; 3] {
        let get = api
            .get(&format!("/api/Configs/{}", segment(name)))
            .await
            .status
            == StatusCode::OK;
        let run = api
            .post("/api/Task/run", json!({"configName": name}))
            .await
            .status
            == StatusCode::OK;
        if run {
            api.wait_for(&["completed", "failed"]).await;
        }
        let single = api
            .post(
                "/api/Task/single",
                json!({"taskName": "0", "configName": name}),
            )
            .await
            .status
            == StatusCode::OK;
        if single {
            api.wait_for(&["completed", "failed"]).await;
        }
        [get, run, single]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

        /// For a name created in one spelling, every spelling finds it on
        /// every surface; a name that folds to something else is absent on
        /// every surface, and the requests naming it change nothing.
        #[test]
        fn every_surface_agrees_on_a_name_in_every_form(
            letters in prop::collection::vec(prop::sample::select(LETTERS), 1..5),
            created in 0..6usize,
            asked in 0..6usize,
        ) {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            runtime.block_on(async {
                let api = fast();
                let base: String = letters.concat();
                let stored = spell(&base, created);
                let reply = api.call("POST", &format!("/api/Configs/{}", segment(&stored)), None).await;
                prop_assert_eq!(reply.status, StatusCode::OK, "{:?}: {}", stored, reply.json);
                let asked_name = spell(&base, asked);
                prop_assert_eq!(surfaces(&api, &asked_name).await, [true; 3], "{:?} asked as {:?}", stored, asked_name);
                let other = format!("{asked_name}x");
                let before = configs_on_disk(&api);
                prop_assert_eq!(surfaces(&api, &other).await, [false; 3], "{:?}", other);
                let put = api.put(&format!("/api/Configs/{}", segment(&other)), json!({})).await;
                prop_assert_eq!(put.status, StatusCode::NOT_FOUND);
                let delete = api.call("DELETE", &format!("/api/Configs/{}", segment(&other)), None).await;
                prop_assert_eq!(delete.status, StatusCode::NOT_FOUND);
                prop_assert_eq!(configs_on_disk(&api), before, "a refused request changed nothing");
                // Deleting in the asked spelling deletes the stored one.
                api.call("DELETE", &format!("/api/Configs/{}", segment(&asked_name)), None).await.data();
                prop_assert_eq!(surfaces(&api, &stored).await, [false; 3]);
                Ok(())
            })?;
        }
    }
}
