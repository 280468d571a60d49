//! Query parameters of the alarm list and counts: the filter and the page,
//! each bad value refused with its field named.

use serde::Deserialize;
use utoipa::IntoParams;

use super::params::id_of;
use crate::{
    domain::alarm::{Severity, Status},
    error::IngestError,
    storage::alarm_filter::{AlarmFilter, Assignee, Cursor, Page, SortKey},
};

const DEFAULT_MAX: i64 = 50;
const MAX_MAX: i64 = 500;

/// Which alarms.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AlarmQuery {
    /// Statuses, comma-separated: `active`, `acknowledged`, `cleared`, `closed`.
    #[param(
        example = "active,acknowledged",
        pattern = "^((active|acknowledged|cleared|closed)(,(active|acknowledged|cleared|closed))*)?$"
    )]
    status: Option<String>,
    /// Severities, comma-separated: `critical`, `major`, `minor`, `warning`.
    #[param(example = "critical", pattern = "^((critical|major|minor|warning)(,(critical|major|minor|warning))*)?$")]
    severity: Option<String>,
    /// Alarm types, comma-separated.
    #[param(example = "leak,burst")]
    r#type: Option<String>,
    /// Only this device's alarms.
    #[param(pattern = "^[0-9a-fA-F]{24}$")]
    device: Option<String>,
    /// Only this user's alarms (a user id), or `none`: nobody's.
    assignee: Option<String>,
    /// Raised at or after this ISO 8601 date or date-time.
    #[param(format = DateTime)]
    from: Option<String>,
    /// Raised before this ISO 8601 date or date-time.
    #[param(format = DateTime)]
    to: Option<String>,
}

/// How many, in which order, from where.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// Alarms per page, 1 to 500 (default 50).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 500)]
    max: Option<String>,
    /// `raisedAt` (default) or `severity`.
    #[param(pattern = "^(raisedAt|severity)?$")]
    sort: Option<String>,
    /// `desc` (default: newest, or least severe, first) or `asc`.
    #[param(pattern = "^(asc|desc)?$")]
    order: Option<String>,
    /// The `next` cursor of the page before.
    #[param(pattern = "^((critical|major|minor|warning)\\.[0-9]{1,18}\\.[0-9a-fA-F]{24})?$")]
    after: Option<String>,
}

fn invalid(field: &'static str, message: impl Into<String>) -> IngestError {
    IngestError::Invalid { field, message: message.into() }
}

/// Comma-separated words, each parsed.
fn words<T: std::str::FromStr>(
    field: &'static str,
    value: Option<&str>,
    allowed: &[&str],
) -> Result<Vec<T>, IngestError> {
    value
        .into_iter()
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .map(|word| word.parse().map_err(|_| invalid(field, format!("{word:?} is not one of {}", allowed.join(", ")))))
        .collect()
}

/// A free-text parameter's value, unless it is absent or empty (`?sort=`
/// is no sort); parameters with a format take no empty value.
fn given(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

fn time(field: &'static str, value: Option<&str>) -> Result<Option<i64>, IngestError> {
    value
        .map(|v| wm_http::params::start(v).map(|at| at.timestamp_micros()).map_err(|message| invalid(field, message)))
        .transpose()
}

impl AlarmQuery {
    pub fn filter(&self) -> Result<AlarmFilter, IngestError> {
        let statuses: Vec<&str> = Status::ALL.iter().map(|s| s.as_str()).collect();
        let severities: Vec<&str> = Severity::ALL.iter().map(|s| s.as_str()).collect();
        let types: Vec<String> = words("type", self.r#type.as_deref(), &["any alarm type"])?;
        let device_id = self.device()?;
        let assignee = match given(&self.assignee) {
            None => None,
            Some("none") => Some(Assignee::Nobody),
            Some(user) => Some(Assignee::User(user.to_owned())),
        };
        let (from, to) = (time("from", self.from.as_deref())?, time("to", self.to.as_deref())?);
        Ok(AlarmFilter {
            statuses: words("status", self.status.as_deref(), &statuses)?,
            severities: words("severity", self.severity.as_deref(), &severities)?,
            types,
            device_id,
            assignee,
            from,
            to,
        })
    }

    fn device(&self) -> Result<Option<String>, IngestError> {
        device(&self.device)
    }
}

/// Whose alarms to count.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CountQuery {
    /// Only this device's alarms.
    #[param(pattern = "^[0-9a-fA-F]{24}$")]
    device: Option<String>,
}

impl CountQuery {
    pub fn device(&self) -> Result<Option<String>, IngestError> {
        device(&self.device)
    }
}

fn device(value: &Option<String>) -> Result<Option<String>, IngestError> {
    value.as_deref().map(id_of).transpose().map_err(|e| invalid("device", e.to_string()))
}

impl PageQuery {
    pub fn page(&self) -> Result<Page, IngestError> {
        let max = wm_http::params::max(self.max.as_deref(), DEFAULT_MAX, MAX_MAX).map_err(|m| invalid("max", m))?;
        let sort = match given(&self.sort) {
            None | Some("raisedAt") => SortKey::RaisedAt,
            Some("severity") => SortKey::Severity,
            Some(other) => return Err(invalid("sort", format!("{other:?} is not one of raisedAt, severity"))),
        };
        let descending = match given(&self.order) {
            None | Some("desc") => true,
            Some("asc") => false,
            Some(other) => return Err(invalid("order", format!("{other:?} is not one of asc, desc"))),
        };
        let after = given(&self.after)
            .map(|text| Cursor::decode(text).ok_or_else(|| invalid("after", "not a cursor")))
            .transpose()?;
        Ok(Page { sort, descending, after, max })
    }
}
