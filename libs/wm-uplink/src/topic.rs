//! Uplink and downlink topic names: `wmeter/v1/gw/{serial}/{kind}`.

use wm_domain::SerialNumber;

use super::Rejection;

/// The prefix of every gateway topic.
pub const PREFIX: &str = "wmeter/v1/gw/";
/// What ingest subscribes to: every uplink of every gateway.
pub const UPLINKS: &str = "wmeter/v1/gw/+/+";

/// What a gateway sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Status,
    Heartbeat,
    Reading,
    Ble,
    Alert,
    Discovery,
    ShutdownRequest,
    Ack,
}

impl Kind {
    pub const ALL: [Kind; 8] = [
        Kind::Status,
        Kind::Heartbeat,
        Kind::Reading,
        Kind::Ble,
        Kind::Alert,
        Kind::Discovery,
        Kind::ShutdownRequest,
        Kind::Ack,
    ];

    /// The topic's last segment.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Status => "status",
            Kind::Heartbeat => "heartbeat",
            Kind::Reading => "reading",
            Kind::Ble => "ble",
            Kind::Alert => "alert",
            Kind::Discovery => "discovery",
            Kind::ShutdownRequest => "shutdown-request",
            Kind::Ack => "ack",
        }
    }
}

/// The topic a gateway publishes `kind` on.
pub fn uplink(serial: &str, kind: Kind) -> String {
    format!("{PREFIX}{serial}/{}", kind.as_str())
}

/// The topic a gateway receives its commands on.
pub fn commands(serial: &str) -> String {
    format!("{PREFIX}{serial}/cmd")
}

/// The gateway and the kind an uplink topic names.
pub fn parse(topic: &str) -> Result<(SerialNumber, Kind), Rejection> {
    let rest =
        topic.strip_prefix(PREFIX).ok_or_else(|| Rejection::unknown_kind(format!("not a gateway topic: {topic}")))?;
    let (serial, kind) = rest.split_once('/').ok_or_else(|| Rejection::unknown_kind(format!("no kind in {topic}")))?;
    let kind = Kind::ALL
        .into_iter()
        .find(|k| k.as_str() == kind)
        .ok_or_else(|| Rejection::unknown_kind(format!("unknown kind {kind:?}")))?;
    let serial = SerialNumber::parse(serial)
        .map_err(|_| Rejection::unknown_gateway(format!("{serial:?} is not a gateway serial number")))?;
    Ok((serial, kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_round_trips() {
        for kind in Kind::ALL {
            let (serial, parsed) = parse(&uplink("AB12CD34EF", kind)).unwrap();
            assert_eq!((serial.as_str(), parsed), ("AB12CD34EF", kind));
        }
    }

    #[test]
    fn strangers_are_refused_with_a_reason() {
        assert!(parse("wmeter/v1/gw/AB12CD34EF/weather").unwrap_err().detail.contains("weather"));
        assert!(parse("wmeter/v1/gw/AB12CD34EF").is_err());
        assert!(parse("other/topic").is_err());
        assert!(parse("wmeter/v1/gw/NOT-A-SERIAL/reading").is_err());
        assert!(parse("wmeter/v1/gw/AB12CD34EF/cmd").is_err(), "commands are not uplinks");
    }
}
