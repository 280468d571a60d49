//! Email: the rule's message sent through the configured SMTP server
//! (`notifications.smtp`), over STARTTLS (required), TLS, or, for a relay
//! on the same host only, in the clear.

use std::time::Duration;

use lettre::{
    AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    message::{Mailbox, header::ContentType},
    transport::smtp::{
        authentication::Credentials,
        client::{Certificate, Tls, TlsParameters},
    },
};

use super::Outcome;
use crate::settings::{SmtpSecurity, SmtpSettings};

/// An SMTP server to send through, or why none can be used.
#[derive(Clone)]
pub struct Mailer {
    transport: Result<(AsyncSmtpTransport<Tokio1Executor>, Mailbox), String>,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailer").field("ready", &self.transport.is_ok()).finish()
    }
}

impl Mailer {
    /// The mailer of `settings`; without them, every email fails with the
    /// reason (webhooks are not affected).
    pub fn new(settings: Option<&SmtpSettings>, timeout: Duration) -> Self {
        let transport = match settings {
            None => Err("no SMTP server is configured (notifications.smtp)".to_owned()),
            Some(smtp) => transport(smtp, timeout),
        };
        if let Err(e) = &transport {
            tracing::warn!(reason = %e, "email rules cannot send");
        }
        Self { transport }
    }

    /// Sends `subject` and `body` to `to`.
    pub async fn send(&self, to: &[String], subject: &str, body: &str) -> Outcome {
        let (transport, from) = match &self.transport {
            Ok(ready) => ready,
            Err(reason) => return Outcome::failed(None, reason.clone()),
        };
        let mut message = Message::builder().from(from.clone()).subject(subject).header(ContentType::TEXT_PLAIN);
        for address in to {
            match address.parse::<Mailbox>() {
                Ok(mailbox) => message = message.to(mailbox),
                Err(e) => return Outcome::failed(None, format!("'{address}' is not an email address: {e}")),
            }
        }
        let message = match message.body(body.to_owned()) {
            Ok(message) => message,
            Err(e) => return Outcome::failed(None, format!("cannot build the email: {e}")),
        };
        match transport.send(message).await {
            Ok(response) => Outcome { ok: true, status_code: Some(u16::from(response.code())), error: None },
            Err(e) => Outcome::failed(e.status().map(u16::from), format!("the SMTP server refused or failed: {e}")),
        }
    }
}

fn transport(smtp: &SmtpSettings, timeout: Duration) -> Result<(AsyncSmtpTransport<Tokio1Executor>, Mailbox), String> {
    let from: Mailbox = smtp.from.parse().map_err(|e| format!("notifications.smtp.from: {e}"))?;
    let mut builder =
        AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&smtp.host).port(smtp.port).timeout(Some(timeout));
    if smtp.security != SmtpSecurity::None {
        let mut parameters = TlsParameters::builder(smtp.host.clone());
        if let Some(path) = &smtp.ca_file {
            let pem =
                std::fs::read(path).map_err(|e| format!("notifications.smtp.ca_file: {}: {e}", path.display()))?;
            let ca = Certificate::from_pem(&pem).map_err(|e| format!("notifications.smtp.ca_file: {e}"))?;
            parameters = parameters.add_root_certificate(ca);
        }
        let parameters = parameters.build().map_err(|e| format!("notifications.smtp: TLS: {e}"))?;
        builder = builder.tls(match smtp.security {
            SmtpSecurity::Tls => Tls::Wrapper(parameters),
            _ => Tls::Required(parameters),
        });
    }
    if let (Some(username), Some(password)) = (&smtp.username, &smtp.password) {
        builder = builder.credentials(Credentials::new(username.clone(), password.clone()));
    }
    Ok((builder.build(), from))
}
