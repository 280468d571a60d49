//! The client's address: the TCP peer, or behind the w-meter gateway the
//! address the gateway appended to `X-Forwarded-For` (`http.trust_forwarded_for`).

use std::net::IpAddr;

use actix_web::{HttpRequest, web};

/// Whether this service trusts `X-Forwarded-For`; registered as app data.
#[derive(Clone, Copy, Debug, Default)]
pub struct ForwardedFor {
    pub trusted: bool,
}

/// The client's IP address, when known.
pub fn client_ip(req: &HttpRequest) -> Option<IpAddr> {
    let trusted = req.app_data::<web::Data<ForwardedFor>>().is_some_and(|f| f.trusted);
    if trusted && let Some(ip) = last_forwarded(req) {
        return Some(ip);
    }
    req.peer_addr().map(|a| a.ip())
}

/// The last entry: the one the gateway added. Earlier ones came from the
/// client and prove nothing.
fn last_forwarded(req: &HttpRequest) -> Option<IpAddr> {
    let header = req.headers().get_all("x-forwarded-for").last()?.to_str().ok()?;
    header.rsplit(',').next()?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;

    use super::*;

    fn request(trusted: bool) -> HttpRequest {
        TestRequest::default()
            .peer_addr("10.0.0.2:5000".parse().unwrap())
            .insert_header(("x-forwarded-for", "1.2.3.4, 203.0.113.7"))
            .app_data(web::Data::new(ForwardedFor { trusted }))
            .to_http_request()
    }

    #[test]
    fn behind_the_gateway_the_last_forwarded_address_is_the_client() {
        assert_eq!(client_ip(&request(true)), Some("203.0.113.7".parse().unwrap()));
    }

    #[test]
    fn untrusted_the_peer_is_the_client_whatever_the_header_claims() {
        assert_eq!(client_ip(&request(false)), Some("10.0.0.2".parse().unwrap()));
    }
}
