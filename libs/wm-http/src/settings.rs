use serde::{Deserialize, Deserializer, Serialize, de::Error};

/// The `http` section of the configuration.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct HttpSettings {
    /// Interface to bind. Loopback by default: exposing the service is a
    /// deliberate choice (`0.0.0.0` in a container).
    pub host: String,
    /// TCP port; 0 picks a free one (tests).
    #[serde(deserialize_with = "port")]
    pub port: u16,
    /// Largest accepted JSON body, in bytes (413 above it).
    pub max_body_bytes: usize,
    /// Seconds a graceful shutdown waits for in-flight requests.
    pub shutdown_timeout_secs: u64,
    /// Take the client's address from the last `X-Forwarded-For` entry, as
    /// the w-meter gateway appends it. Only for services that nothing but the
    /// gateway can reach; anyone else could claim any address.
    pub trust_forwarded_for: bool,
    /// HTTPS served natively, for deployments without a TLS ingress.
    pub tls: HttpTlsSettings,
}

/// The certificate chain and key (PEM) of HTTPS; both empty: plain HTTP.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct HttpTlsSettings {
    pub cert_file: String,
    pub key_file: String,
}

impl HttpTlsSettings {
    /// Whether HTTPS is on; an error names the half that is missing.
    pub fn enabled(&self) -> Result<bool, (&'static str, String)> {
        match (self.cert_file.is_empty(), self.key_file.is_empty()) {
            (true, true) => Ok(false),
            (false, false) => Ok(true),
            (true, false) => Err(("http.tls.cert_file", "required with http.tls.key_file".to_owned())),
            (false, true) => Err(("http.tls.key_file", "required with http.tls.cert_file".to_owned())),
        }
    }
}

impl Default for HttpSettings {
    fn default() -> Self {
        Self {
            host: "127.0.0.1".to_owned(),
            port: 8080,
            max_body_bytes: 64 * 1024,
            shutdown_timeout_secs: 20,
            trust_forwarded_for: false,
            tls: HttpTlsSettings::default(),
        }
    }
}

impl HttpSettings {
    pub fn address(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }
}

/// A port from a number or a string (environment variables are strings),
/// with an error that says what a port is.
fn port<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u16, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Number(i64),
        Text(String),
    }
    let (shown, parsed) = match Raw::deserialize(deserializer)? {
        Raw::Number(n) => (n.to_string(), u16::try_from(n).ok()),
        Raw::Text(t) => (format!("'{t}'"), t.trim().parse::<u16>().ok()),
    };
    parsed.ok_or_else(|| D::Error::custom(format!("{shown} is not a port; expected a number from 0 to 65535")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<u16, String> {
        serde_json::from_str::<HttpSettings>(json).map(|s| s.port).map_err(|e| e.to_string())
    }

    #[test]
    fn port_accepts_numbers_and_numeric_strings() {
        assert_eq!(parse(r#"{"port": 8081}"#), Ok(8081));
        assert_eq!(parse(r#"{"port": "0"}"#), Ok(0));
    }

    #[test]
    fn port_out_of_range_or_not_a_number_says_what_a_port_is() {
        for bad in [r#"{"port": 70000}"#, r#"{"port": -1}"#, r#"{"port": "eighty"}"#] {
            let err = parse(bad).unwrap_err();
            assert!(err.contains("is not a port; expected a number from 0 to 65535"), "{bad}: {err}");
        }
    }
}
