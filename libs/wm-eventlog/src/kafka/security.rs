//! How the Kafka clients reach the brokers (`event_log.security`): in the
//! clear, over TLS (`ssl`), or over TLS with a SASL login (`sasl_ssl`,
//! SCRAM or PLAIN; never without TLS). librdkafka is built with OpenSSL
//! (rdkafka's `ssl-vendored`) and checks the brokers' host names.

use std::fmt;

#[cfg(feature = "kafka")]
use rdkafka::ClientConfig;
use serde::{Deserialize, Serialize};

#[derive(Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct KafkaSecurity {
    /// `plaintext` (empty), `ssl` or `sasl_ssl`.
    pub protocol: String,
    /// The CA that signed the brokers' certificates (PEM); empty: the
    /// system's.
    pub ca_file: String,
    /// A client certificate and key (PEM), for brokers that require one.
    pub cert_file: String,
    pub key_file: String,
    /// With `sasl_ssl`: `SCRAM-SHA-512` (empty), `SCRAM-SHA-256` or `PLAIN`.
    pub sasl_mechanism: String,
    pub sasl_username: String,
    /// Never printed.
    pub sasl_password: Option<String>,
}

const PROTOCOLS: [&str; 3] = ["plaintext", "ssl", "sasl_ssl"];
const MECHANISMS: [&str; 3] = ["SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN"];

impl KafkaSecurity {
    fn protocol(&self) -> &str {
        if self.protocol.is_empty() { "plaintext" } else { &self.protocol }
    }

    fn mechanism(&self) -> &str {
        if self.sasl_mechanism.is_empty() { "SCRAM-SHA-512" } else { &self.sasl_mechanism }
    }

    /// The first invalid key and why, if any.
    pub fn validate(&self) -> Result<(), (&'static str, String)> {
        let protocol = self.protocol();
        if !PROTOCOLS.contains(&protocol) {
            return Err(("event_log.security.protocol", format!("{protocol:?} is not one of {PROTOCOLS:?}")));
        }
        if self.cert_file.is_empty() != self.key_file.is_empty() {
            return Err(("event_log.security.cert_file", "cert_file and key_file go together".to_owned()));
        }
        let tls_only = [&self.ca_file, &self.cert_file].iter().any(|f| !f.is_empty());
        if protocol == "plaintext" && (tls_only || !self.sasl_username.is_empty()) {
            return Err(("event_log.security.protocol", "plaintext takes no TLS files nor SASL login".to_owned()));
        }
        if protocol == "sasl_ssl" {
            let mechanism = self.mechanism();
            if !MECHANISMS.contains(&mechanism) {
                return Err((
                    "event_log.security.sasl_mechanism",
                    format!("{mechanism:?} is not one of {MECHANISMS:?}"),
                ));
            }
            if self.sasl_username.is_empty() || self.sasl_password.as_deref().is_none_or(str::is_empty) {
                return Err((
                    "event_log.security.sasl_username",
                    "sasl_ssl needs sasl_username and sasl_password".to_owned(),
                ));
            }
        }
        Ok(())
    }

    /// Sets librdkafka's properties for it.
    #[cfg(feature = "kafka")]
    pub(crate) fn apply(&self, config: &mut ClientConfig) {
        let protocol = self.protocol();
        if protocol == "plaintext" {
            return;
        }
        config.set("security.protocol", protocol.to_ascii_uppercase());
        config.set("ssl.endpoint.identification.algorithm", "https");
        for (key, value) in [
            ("ssl.ca.location", &self.ca_file),
            ("ssl.certificate.location", &self.cert_file),
            ("ssl.key.location", &self.key_file),
        ] {
            if !value.is_empty() {
                config.set(key, value);
            }
        }
        if protocol == "sasl_ssl" {
            config.set("sasl.mechanism", self.mechanism());
            config.set("sasl.username", &self.sasl_username);
            config.set("sasl.password", self.sasl_password.as_deref().unwrap_or_default());
        }
    }
}

impl fmt::Debug for KafkaSecurity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KafkaSecurity")
            .field("protocol", &self.protocol())
            .field("ca_file", &self.ca_file)
            .field("cert_file", &self.cert_file)
            .field("key_file", &self.key_file)
            .field("sasl_mechanism", &self.sasl_mechanism)
            .field("sasl_username", &self.sasl_username)
            .field("sasl_password", &self.sasl_password.as_ref().map(|_| "***"))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn security(protocol: &str) -> KafkaSecurity {
        KafkaSecurity { protocol: protocol.to_owned(), ..KafkaSecurity::default() }
    }

    #[test]
    #[cfg(feature = "kafka")]
    fn sasl_ssl_sets_tls_with_host_checks_and_the_login() {
        let settings = KafkaSecurity {
            ca_file: "/etc/kafka-ca.crt".into(),
            sasl_username: "wmeter".into(),
            sasl_password: Some("hunter2".into()),
            ..security("sasl_ssl")
        };
        settings.validate().unwrap();
        let mut config = ClientConfig::new();
        settings.apply(&mut config);
        let get = |key| config.get(key).unwrap_or_default().to_owned();
        assert_eq!(get("security.protocol"), "SASL_SSL");
        assert_eq!(get("ssl.endpoint.identification.algorithm"), "https");
        assert_eq!(get("ssl.ca.location"), "/etc/kafka-ca.crt");
        assert_eq!((get("sasl.mechanism"), get("sasl.username")), ("SCRAM-SHA-512".into(), "wmeter".into()));
        assert!(!format!("{settings:?}").contains("hunter2"));
        let plain = KafkaSecurity { sasl_mechanism: "PLAIN".into(), ..settings };
        plain.validate().unwrap();
    }

    #[test]
    fn bad_combinations_name_the_key() {
        let key = |s: KafkaSecurity| s.validate().unwrap_err().0;
        assert_eq!(key(security("sasl_plaintext")), "event_log.security.protocol");
        assert_eq!(key(KafkaSecurity { ca_file: "x".into(), ..security("") }), "event_log.security.protocol");
        assert_eq!(key(security("sasl_ssl")), "event_log.security.sasl_username");
        let gssapi =
            KafkaSecurity { sasl_mechanism: "GSSAPI".into(), sasl_username: "u".into(), ..security("sasl_ssl") };
        assert_eq!(key(gssapi), "event_log.security.sasl_mechanism");
        assert_eq!(key(KafkaSecurity { cert_file: "c".into(), ..security("ssl") }), "event_log.security.cert_file");
        security("").validate().unwrap();
    }
}
