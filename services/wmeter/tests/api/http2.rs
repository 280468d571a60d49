//! HTTP/2 beside HTTP/1.1: on the plain port for a client that opens with
//! its preface (a proxy, h2c), and by ALPN over native HTTPS. One
//! connection then carries many notification streams.

use futures::StreamExt;
use reqwest::Version;
use wm_http::auth::Role;

use crate::helpers::spawn_app;

/// Streams opened over the one connection.
const STREAMS: usize = 300;

#[tokio::test]
async fn one_http2_connection_carries_many_notification_streams_beside_http1() {
    let app = spawn_app().await;
    let http1 = app.get_as(Role::Viewer, "/api/proxy/gateways").await;
    assert_eq!((http1.status().as_u16(), http1.version()), (200, Version::HTTP_11), "HTTP/1.1 as before");

    // One client, so one connection: reqwest keeps a single HTTP/2
    // connection per host and multiplexes every request on it.
    let h2 = wm_http::client::builder().http2_prior_knowledge().build().unwrap();
    let token = app.token(Role::Viewer);
    let listed = h2.get(format!("{}/api/proxy/gateways", app.url)).bearer_auth(&token).send().await.unwrap();
    assert_eq!((listed.status().as_u16(), listed.version()), (200, Version::HTTP_2));
    let mut streams = Vec::new();
    for _ in 0..STREAMS {
        let stream = h2.get(format!("{}/api/notifications", app.url)).bearer_auth(&token).send().await.unwrap();
        assert_eq!((stream.status().as_u16(), stream.version()), (200, Version::HTTP_2));
        streams.push(stream.bytes_stream());
    }
    for stream in &mut streams {
        let greeting = stream.next().await.expect("the stream's first event").unwrap();
        assert_eq!(&greeting[..], b"retry: 1000\n\n");
    }
    let metrics = app.get("/metrics").await.text().await.unwrap();
    let open = metrics.lines().find(|l| l.starts_with("wmeter_sse_streams{")).and_then(|l| l.rsplit(' ').next());
    assert_eq!(open, Some(STREAMS.to_string().as_str()), "every stream open at once");
}
