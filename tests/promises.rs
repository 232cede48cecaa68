//! Issue 37: every promise `SECURITY.md` makes, probed through the router or
//! the binary: names in one form, no leftovers after a crash, corrupt state
//! moved aside without a server path in any answer, 401 before 404/405,
//! 415 to anything but JSON, and a token that can be sent.

use activity_site::api::ApiOptions;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::json;

use crate::control::harness::{FAST, fast, open};

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

// Finding 5: 415 to anything but JSON, whatever the body.

/// `POST /api/Backend/restart` with `Content-Type: text/plain` and an empty
/// body restarted the backend (200).
#[tokio::test]
async fn a_non_json_content_type_is_refused_even_with_an_empty_body() {
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
                .send(request(method, path, &[("content-type", content_type)], ""))
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
