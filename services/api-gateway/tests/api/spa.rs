use crate::helpers::spawn_app;

#[tokio::test]
async fn root_serves_the_dashboard() {
    let app = spawn_app().await;
    let response = app.get("/").await;
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    assert_eq!(response.headers()["cache-control"], "no-cache", "a deploy is seen on the next load");
    assert!(response.text().await.unwrap().contains("<div id=\"root\">"));
}

#[tokio::test]
async fn client_side_routes_fall_back_to_index() {
    let app = spawn_app().await;
    for path in ["/gateways/0123456789abcdef01234567", "/water-meters", "/login"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        assert!(response.text().await.unwrap().contains("<div id=\"root\">"), "{path}");
    }
}

#[tokio::test]
async fn assets_are_served_as_files() {
    let app = spawn_app().await;
    let response = app.get("/assets/app-1234.js").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "public, max-age=31536000, immutable");
    assert_eq!(response.text().await.unwrap(), "console.log('w-meter')");
}

/// GET `path` with `accept` as its Accept-Encoding (none when `None`).
async fn get_accepting(app: &crate::helpers::TestApp, path: &str, accept: Option<&str>) -> reqwest::Response {
    let request = app.client.get(format!("{}{path}", app.url));
    let request = match accept {
        Some(accept) => request.header("accept-encoding", accept),
        None => request,
    };
    request.send().await.unwrap()
}

#[tokio::test]
async fn an_asset_goes_in_the_coding_the_browser_prefers_among_those_built() {
    let app = spawn_app().await;
    let as_built = get_accepting(&app, "/assets/app-1234.js", None).await;
    let javascript = as_built.headers()["content-type"].clone();
    assert!(javascript.to_str().unwrap().contains("javascript"), "{javascript:?}");
    let cases = [
        (Some("gzip, deflate, br, zstd"), Some("br"), "brotli of app-1234.js"),
        (Some("gzip, deflate"), Some("gzip"), "gzip of app-1234.js"),
        (Some("br;q=0.5, gzip"), Some("gzip"), "gzip of app-1234.js"),
        (Some("br;q=0, gzip;q=0"), None, "console.log('w-meter')"),
        (Some("identity"), None, "console.log('w-meter')"),
        (Some("not a coding list;;"), None, "console.log('w-meter')"),
        (None, None, "console.log('w-meter')"),
    ];
    for (accept, coding, body) in cases {
        let response = get_accepting(&app, "/assets/app-1234.js", accept).await;
        assert_eq!(response.status(), 200, "{accept:?}");
        let headers = response.headers().clone();
        assert_eq!(headers.get("content-encoding").map(|v| v.to_str().unwrap()), coding, "{accept:?}");
        assert_eq!(headers["content-type"], javascript, "{accept:?}: the type of what was built, not of its copy");
        assert_eq!(headers["vary"], "accept-encoding", "{accept:?}: a cache keeps each coding apart");
        assert_eq!(headers["cache-control"], "public, max-age=31536000, immutable", "{accept:?}");
        assert!(headers.get("content-disposition").is_none_or(|v| !v.to_str().unwrap().contains(".br")), "{accept:?}");
        assert_eq!(response.text().await.unwrap(), body, "{accept:?}");
    }
}

#[tokio::test]
async fn an_asset_built_without_compressed_copies_goes_as_built() {
    let app = spawn_app().await;
    let response = get_accepting(&app, "/assets/tiny-5678.js", Some("gzip, deflate, br")).await;
    assert_eq!(response.status(), 200);
    assert!(response.headers().get("content-encoding").is_none());
    assert!(response.headers().get("vary").is_none(), "one representation only");
    assert_eq!(response.text().await.unwrap(), "0");
}

#[tokio::test]
async fn a_head_request_gets_the_headers_of_the_copy_it_would_get() {
    let app = spawn_app().await;
    let head = app.client.head(format!("{}/assets/app-1234.js", app.url)).header("accept-encoding", "br").send().await;
    let head = head.unwrap();
    assert_eq!(head.status(), 200);
    assert_eq!(head.headers()["content-encoding"], "br");
    assert_eq!(head.headers()["content-length"], "brotli of app-1234.js".len().to_string().as_str());
}

#[tokio::test]
async fn a_missing_asset_gets_the_app_as_any_unknown_path_does() {
    let app = spawn_app().await;
    let missing = get_accepting(&app, "/assets/gone-0000.js", Some("br")).await;
    assert_eq!(missing.status(), 200);
    assert!(missing.headers().get("content-encoding").is_none());
    assert!(missing.text().await.unwrap().contains("<div id=\"root\">"));
}

#[tokio::test]
async fn path_traversal_does_not_escape_the_static_folder() {
    let app = spawn_app().await;
    let paths = ["/..%2f..%2f..%2fetc%2fpasswd", "/../../../etc/passwd", "/assets/..%2f..%2f..%2fetc%2fpasswd"];
    for path in
        paths.into_iter().chain(["/assets/..%2f..%2f..%2fetc%2fpasswd%00", "/assets/%2e%2e%2f%2e%2e%2fetc%2fpasswd"])
    {
        let response = get_accepting(&app, path, Some("br, gzip")).await;
        let status = response.status();
        let body = response.text().await.unwrap();
        assert!(status == 200 || status == 404 || status == 400, "{path}: {status}");
        assert!(!body.contains("root:"), "{path}: {body}");
    }
}

#[tokio::test]
async fn other_methods_on_unknown_paths_get_a_json_404() {
    let app = spawn_app().await;
    let token = app.token(wm_http::auth::Role::Admin);
    for path in ["/api/nothing", "/gateways"] {
        let response = app.client.post(format!("{}{path}", app.url)).bearer_auth(&token).send().await.unwrap();
        assert_eq!(response.status(), 404, "{path}");
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["code"], "not_found", "{path}");
    }
}
