//! Who a client is and what it may do: decided once, at CONNECT, by the
//! [`Authenticator`] the broker is given, then enforced on every publish
//! and subscription.

use std::net::SocketAddr;

use async_trait::async_trait;
use rumqttc::valid_filter;

/// A CONNECT's claim to an identity.
#[derive(Clone, Copy, Debug)]
pub struct Attempt<'a> {
    pub peer: SocketAddr,
    pub client_id: &'a str,
    pub username: Option<&'a str>,
    pub password: Option<&'a str>,
    /// The client certificate (DER) the TLS listener verified against its
    /// client CA, if the client presented one.
    pub certificate: Option<&'a [u8]>,
}

/// What an authenticated client may do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    /// Who it is, for logs and metrics; a session belongs to the identity
    /// that made it, and no other may take it over.
    pub identity: String,
    /// The client id it must connect with, if it is bound to one.
    pub client_id: Option<String>,
    /// The topic filters it may publish on; `None`: any topic.
    pub publish: Option<Vec<String>>,
    /// Filters it may never publish on, even where `publish` allows.
    pub publish_denied: Vec<String>,
    /// The filters it may subscribe to; `None`: any filter. A requested
    /// filter is allowed when it is one of them, or a topic (no
    /// wildcards) that one of them matches.
    pub subscribe: Option<Vec<String>>,
}

impl Access {
    /// Any topic, any filter, any client id: the broker's own services.
    pub fn full(identity: impl Into<String>) -> Self {
        Self { identity: identity.into(), client_id: None, publish: None, publish_denied: Vec::new(), subscribe: None }
    }

    pub fn may_publish(&self, topic: &str) -> bool {
        !self.publish_denied.iter().any(|filter| matches(topic, filter))
            && self.publish.as_ref().is_none_or(|allowed| allowed.iter().any(|filter| matches(topic, filter)))
    }

    pub fn may_subscribe(&self, filter: &str) -> bool {
        let Some(allowed) = &self.subscribe else { return true };
        let wild = filter.contains(['+', '#']);
        allowed.iter().any(|a| a == filter || (!wild && valid_filter(a) && matches(filter, a)))
    }
}

/// Whether `topic` matches `filter` (MQTT 3.1.1 §4.7; a `$` topic matches
/// no filter here). rumqttc's `matches` would do, but panics on a topic
/// whose first character takes more than one byte.
pub fn matches(topic: &str, filter: &str) -> bool {
    if topic.starts_with('$') {
        return false;
    }
    let mut levels = topic.split('/');
    for wanted in filter.split('/') {
        if wanted == "#" {
            return true;
        }
        match levels.next() {
            Some(level) if wanted == "+" || wanted == level => {}
            _ => return false,
        }
    }
    levels.next().is_none()
}

/// What a client was refused, for the authenticator to count and log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal<'a> {
    /// No identity for these credentials, or a client id it may not use.
    Connect,
    Publish(&'a str),
    Subscribe(&'a str),
}

impl Refusal<'_> {
    /// `connect`, `publish` or `subscribe`: a metric label.
    pub fn action(&self) -> &'static str {
        match self {
            Refusal::Connect => "connect",
            Refusal::Publish(_) => "publish",
            Refusal::Subscribe(_) => "subscribe",
        }
    }
}

/// Decides who a connecting client is.
#[async_trait]
pub trait Authenticator: Send + Sync + std::fmt::Debug + 'static {
    /// The client's access, or `None` to refuse the connection.
    async fn authenticate(&self, attempt: &Attempt<'_>) -> Option<Access>;

    /// Told of every refusal (`identity` is empty for a refused CONNECT).
    fn refused(&self, identity: &str, peer: SocketAddr, refusal: Refusal<'_>);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gateway(serial: &str) -> Access {
        Access {
            identity: format!("gateway:{serial}"),
            client_id: Some(serial.to_owned()),
            publish: Some(vec![format!("wmeter/v1/gw/{serial}/+")]),
            publish_denied: vec![format!("wmeter/v1/gw/{serial}/cmd")],
            subscribe: Some(vec![format!("wmeter/v1/gw/{serial}/cmd")]),
        }
    }

    #[test]
    fn a_gateway_publishes_under_its_own_serial_only() {
        let access = gateway("A1");
        assert!(access.may_publish("wmeter/v1/gw/A1/reading"));
        assert!(!access.may_publish("wmeter/v1/gw/B2/reading"));
        assert!(!access.may_publish("wmeter/v1/gw/A1/reading/extra"));
        assert!(!access.may_publish("wmeter/v1/gw/A1/cmd"), "denied where allowed");
        assert!(!access.may_publish("elsewhere"));
    }

    #[test]
    fn a_gateway_subscribes_to_its_own_commands_only() {
        let access = gateway("A1");
        assert!(access.may_subscribe("wmeter/v1/gw/A1/cmd"));
        for filter in ["#", "wmeter/v1/gw/+/+", "wmeter/v1/gw/B2/cmd", "wmeter/v1/gw/A1/#", "wmeter/v1/gw/+/cmd"] {
            assert!(!access.may_subscribe(filter), "{filter}");
        }
    }

    #[test]
    fn topics_match_filters_level_by_level_without_panicking() {
        assert!(matches("a/b/c", "a/+/c") && matches("a/b/c", "a/#") && matches("a/b", "a/b/#"));
        assert!(!matches("a/b/c", "a/b") && !matches("a/b", "a/b/c") && !matches("$SYS/x", "#"));
        assert!(!matches("é/x", "a/x") && matches("é/x", "+/x"), "a multi-byte first character");
        assert!(!gateway("A1").may_publish("é/v1/gw/A1/reading"));
    }

    #[test]
    fn a_wildcard_grant_admits_the_topics_it_matches_but_not_wider_filters() {
        let access = Access { subscribe: Some(vec!["wmeter/v1/gw/+/cmd".into()]), ..Access::full("legacy") };
        assert!(access.may_subscribe("wmeter/v1/gw/+/cmd"));
        assert!(access.may_subscribe("wmeter/v1/gw/B2/cmd"));
        assert!(!access.may_subscribe("wmeter/v1/gw/#"));
        assert!(Access::full("wmeter").may_subscribe("#"));
    }
}
