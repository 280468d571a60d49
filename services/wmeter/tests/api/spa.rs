use crate::helpers::spawn_app;

#[tokio::test]
async fn root_serves_the_dashboard() {
    let app = spawn_app().await;
    let response = app.get("/").await;
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
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
    assert_eq!(response.text().await.unwrap(), "console.log('w-meter')");
}

#[tokio::test]
async fn path_traversal_does_not_escape_the_static_folder() {
    let app = spawn_app().await;
    let response = app.get("/..%2f..%2f..%2fetc%2fpasswd").await;
    let body = response.text().await.unwrap();
    assert!(!body.contains("root:"), "{body}");
}
