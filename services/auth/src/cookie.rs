//! The refresh-token cookie (DESIGN §7).

use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieDuration};

/// Where the cookie is sent: only to the auth routes.
const PATH: &str = "/api/auth";

#[derive(Clone, Copy, Debug)]
pub struct RefreshCookie {
    pub secure: bool,
    pub max_age_secs: u64,
}

impl RefreshCookie {
    /// `__Secure-wmeter_rt` over HTTPS; `wmeter_rt` on the plain-HTTP demo.
    pub fn name(self) -> &'static str {
        if self.secure { "__Secure-wmeter_rt" } else { "wmeter_rt" }
    }

    pub fn with(self, token: &str) -> Cookie<'static> {
        self.base(token.to_owned())
            .max_age(CookieDuration::seconds(i64::try_from(self.max_age_secs).unwrap_or(i64::MAX)))
            .finish()
    }

    /// A cookie that makes the browser forget the token.
    pub fn cleared(self) -> Cookie<'static> {
        self.base(String::new()).max_age(CookieDuration::ZERO).finish()
    }

    fn base(self, value: String) -> actix_web::cookie::CookieBuilder<'static> {
        Cookie::build(self.name(), value).path(PATH).http_only(true).same_site(SameSite::Strict).secure(self.secure)
    }
}
