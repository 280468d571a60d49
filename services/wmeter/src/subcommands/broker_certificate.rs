//! `wmeter broker-certificate`: the MQTT broker's TLS certificate, signed
//! by the device CA, for Mosquitto's TLS listeners (docs/device-plane.md).

use chrono::Utc;
use wm_device_registry::device_ca::DeviceCa;

use crate::{
    broker_certificate::{self, CA, CERTIFICATE, KEY, Outcome},
    cli::BrokerCertificateArgs,
    config::Settings,
    output::say,
};

pub fn run(settings: &Settings, args: &BrokerCertificateArgs) -> anyhow::Result<()> {
    let devices = &settings.devices;
    // An operator's explicit step: the CA is made when there is none yet.
    let ca = DeviceCa::new(devices.ca_cert_file.clone(), devices.ca_key_file.clone(), true);
    let dir = args.dir.display();
    match broker_certificate::ensure(&ca, &args.dir, &args.hosts, Utc::now())? {
        Outcome::Kept(expires) => {
            say(format_args!("kept the broker certificate in {dir}: it still serves, until {}", expires.date_naive()));
        }
        Outcome::Written(expires) => say(format_args!(
            "wrote {CERTIFICATE}, {KEY} and {CA} to {dir}: valid until {}; restart the broker to serve them",
            expires.date_naive()
        )),
    }
    Ok(())
}
