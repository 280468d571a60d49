//! A user's dashboard preferences, kept on the server so that they follow
//! the user from browser to browser.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The dashboard's languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    En,
    Fr,
}

/// The dashboard's colour scheme; `system` follows the device's setting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    #[default]
    System,
    Light,
    Dark,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Preferences {
    /// `null` until the user chooses one.
    pub language: Option<Language>,
    pub theme: Theme,
}

impl Language {
    pub fn as_str(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Fr => "fr",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [Language::En, Language::Fr].into_iter().find(|l| l.as_str() == text)
    }
}

impl Theme {
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [Theme::System, Theme::Light, Theme::Dark].into_iter().find(|t| t.as_str() == text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preferences_read_and_write_the_json_the_dashboard_sends() {
        let prefs: Preferences = serde_json::from_str(r#"{"language":"fr","theme":"dark"}"#).unwrap();
        assert_eq!(prefs, Preferences { language: Some(Language::Fr), theme: Theme::Dark });
        assert_eq!(serde_json::to_string(&Preferences::default()).unwrap(), r#"{"language":null,"theme":"system"}"#);
        assert!(serde_json::from_str::<Preferences>(r#"{"language":"de","theme":"dark"}"#).is_err());
        assert_eq!(Theme::parse("light"), Some(Theme::Light));
        assert_eq!(Language::parse("en"), Some(Language::En));
    }
}
