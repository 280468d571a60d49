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

#[tokio::test]
async fn path_traversal_does_not_escape_the_static_folder() {
    let app = spawn_app().await;
    for path in ["/..%2f..%2f..%2fetc%2fpasswd", "/../../../etc/passwd", "/assets/..%2f..%2f..%2fetc%2fpasswd"] {
        let response = app.get(path).await;
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
