//! MQTT: the settings, the embedded broker and the client connection.

pub mod broker;
pub mod link;
pub mod settings;
