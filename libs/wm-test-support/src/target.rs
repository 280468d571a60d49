//! What a suite test reaches: a base URL, a way to mint access tokens the
//! deployment accepts, and a way to create users as an operator would.

use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use reqwest::Method;
use serde_json::Value;
use wm_http::auth::{AccessTokens, Role, Subject};

/// How a deployment gets its users: the database in-process, or the CLI.
pub trait Users: Send + Sync {
    fn add<'a>(&'a self, username: &'a str, password: &'a str, role: Role) -> BoxFuture<'a, ()>;
    fn disable<'a>(&'a self, username: &'a str) -> BoxFuture<'a, ()>;
}

/// A deployment without users of its own: one service under test, whose
/// callers carry tokens minted with the test key.
#[derive(Debug)]
pub struct NoUsers;

impl Users for NoUsers {
    fn add<'a>(&'a self, _: &'a str, _: &'a str, _: Role) -> BoxFuture<'a, ()> {
        panic!("this deployment has no users: create them through the auth service")
    }

    fn disable<'a>(&'a self, _: &'a str) -> BoxFuture<'a, ()> {
        panic!("this deployment has no users: disable them through the auth service")
    }
}

/// A deployment under test, through its HTTP API.
#[derive(Clone)]
#[allow(missing_debug_implementations)] // holds a dyn Users
pub struct Target {
    /// `http://127.0.0.1:<port>`: the embedded app, or the distributed gateway.
    pub url: String,
    pub client: reqwest::Client,
    jwt_key: String,
    users: Arc<dyn Users>,
    /// The first number of this test's device identifiers. Tests that share
    /// one deployment get disjoint blocks, so they never collide.
    pub block: u32,
}

impl Target {
    pub fn new(url: String, jwt_key: &str, users: Arc<dyn Users>) -> Target {
        Target { url, client: client(), jwt_key: jwt_key.to_owned(), users, block: 0 }
    }

    /// The same deployment for a test whose identifiers start at `block`.
    pub fn with_block(&self, block: u32) -> Target {
        Target { block, ..self.clone() }
    }

    /// Number `k` of this test's block.
    pub fn n(&self, k: u32) -> u32 {
        self.block + k
    }

    /// The key that signs this deployment's access tokens.
    pub fn jwt_key(&self) -> &[u8] {
        self.jwt_key.as_bytes()
    }

    /// A request without credentials.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(format!("{}{path}", self.url)).send().await.unwrap()
    }

    /// An access token this deployment accepts, for a user with `role`.
    pub fn token(&self, role: Role) -> String {
        self.token_for("test-user", role)
    }

    /// An access token this deployment accepts, for the user `user_id`.
    pub fn token_for(&self, user_id: &str, role: Role) -> String {
        AccessTokens::new(self.jwt_key(), Default::default()).unwrap().issue(&Subject::new(user_id, role)).unwrap()
    }

    /// A GET as a signed-in user with `role`.
    pub async fn get_as(&self, role: Role, path: &str) -> reqwest::Response {
        self.client.get(format!("{}{path}", self.url)).bearer_auth(self.token(role)).send().await.unwrap()
    }

    /// A request as a signed-in user with `role`, with an optional JSON body.
    pub async fn send_as(&self, role: Role, method: Method, path: &str, body: Option<Value>) -> reqwest::Response {
        let mut request = self.client.request(method, format!("{}{path}", self.url)).bearer_auth(self.token(role));
        if let Some(body) = body {
            request = request.json(&body);
        }
        request.send().await.unwrap()
    }

    /// The JSON body of a GET as an operator, asserting the status.
    pub async fn json(&self, path: &str, status: u16) -> Value {
        let response = self.get_as(Role::Operator, path).await;
        assert_eq!(response.status(), status, "GET {path}");
        response.json().await.unwrap()
    }

    /// Creates user `username` with `password` and `role`.
    pub async fn add_user(&self, username: &str, password: &str, role: Role) {
        self.users.add(username, password, role).await;
    }

    /// Disables user `username`.
    pub async fn disable_user(&self, username: &str) {
        self.users.disable(username).await;
    }
}

/// The tests' HTTP client. A server that stops answering fails the test
/// with a read timeout after a minute, instead of hanging it until the
/// runner's own limit (an SSE stream still gets a heartbeat well within it).
fn client() -> reqwest::Client {
    wm_http::client::builder()
        .connect_timeout(Duration::from_secs(10))
        .read_timeout(Duration::from_secs(60))
        .build()
        .expect("an HTTP client")
}
