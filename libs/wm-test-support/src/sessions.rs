//! Sign-in, refresh and sign-out over HTTP, and the refresh cookie.

use reqwest::Response;
use serde_json::json;

use crate::target::Target;

/// The password of the users tests create.
pub const PASSWORD: &str = "a-long-password";

pub async fn login(t: &Target, username: &str, password: &str) -> Response {
    let body = json!({"username": username, "password": password});
    t.client.post(format!("{}/api/auth/login", t.url)).json(&body).send().await.unwrap()
}

pub async fn refresh(t: &Target, cookie: &str) -> Response {
    t.client
        .post(format!("{}/api/auth/refresh", t.url))
        .header("Cookie", cookie)
        .header("X-WMeter-Refresh", "1")
        .send()
        .await
        .unwrap()
}

/// The `name=value` of the refresh cookie a response set, and its whole
/// `Set-Cookie` line.
pub fn set_cookie(response: &Response) -> (String, String) {
    let line = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|l| l.contains("wmeter_rt="))
        .expect("a refresh cookie")
        .to_owned();
    (line.split(';').next().unwrap().to_owned(), line)
}

/// Signs out the session whose refresh cookie is `cookie`.
pub async fn logout(t: &Target, cookie: &str) -> Response {
    t.client.post(format!("{}/api/auth/logout", t.url)).header("Cookie", cookie).send().await.unwrap()
}
