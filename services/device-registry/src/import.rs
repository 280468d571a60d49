//! CSV import of gateways or meters (docs/devices-csv.md): a file is read
//! whole, each row checked with the registration form's own rules and
//! messages (spec §5), against the other rows (duplicates) and against the
//! registry; a dry run reports, an apply registers the valid rows. A row
//! whose identifiers all belong to one registered device is `unchanged`:
//! importing a file twice registers nothing new.

use std::collections::HashMap;

use serde_json::{Map, Value, json};
use wm_domain::DeviceKind;
use wm_storage::{Db, StorageError};

use crate::{
    domain::{gateway::NewGateway, meter::NewMeter},
    error::RegistryError,
    messages::already_in_use,
    routes::bodies::{RegisterGateway, RegisterMeter},
    storage::identifiers,
};

/// The largest file read: about 100,000 gateways.
pub const MAX_BYTES: usize = 10 * 1024 * 1024;
/// The most rows of one file.
pub const MAX_ROWS: usize = 50_000;
/// The message of a cell a spreadsheet would run as a formula.
pub const FORMULA_MESSAGE: &str =
    "A cell may not start with =, +, -, @ or a tab: it would run as a spreadsheet formula";

/// Which devices a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Gateways,
    Meters,
}

impl Kind {
    pub fn parse(text: &str) -> Option<Kind> {
        match text {
            "gateways" => Some(Kind::Gateways),
            "meters" => Some(Kind::Meters),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Gateways => "gateways",
            Kind::Meters => "meters",
        }
    }

    /// The header line, in order: what an export writes and an import reads.
    pub fn columns(self) -> &'static [&'static str] {
        match self {
            Kind::Gateways => {
                &["serialNumber", "imei", "phoneNumber", "bleAddress", "macAddress", "latitude", "longitude"]
            }
            Kind::Meters => &["serialNumber", "bleAddress", "latitude", "longitude"],
        }
    }
}

/// A device a valid row registers.
#[derive(Clone, Debug, PartialEq)]
pub enum NewDevice {
    Gateway(NewGateway),
    Meter(NewMeter),
}

impl NewDevice {
    pub fn kind(&self) -> DeviceKind {
        match self {
            NewDevice::Gateway(_) => DeviceKind::Gateway,
            NewDevice::Meter(_) => DeviceKind::Meter,
        }
    }

    /// Its unique identifiers, canonical, as the registry keeps them.
    pub fn identifiers(&self) -> identifiers::Identifiers {
        match self {
            NewDevice::Gateway(g) => vec![
                ("serialNumber", g.serial_number.to_string()),
                ("imei", g.imei.to_string()),
                ("phoneNumber", g.phone_number.to_string()),
                ("bleAddress", g.ble_address.to_string()),
                ("macAddress", g.mac_address.to_string()),
            ],
            NewDevice::Meter(m) => {
                vec![("serialNumber", m.serial_number.to_string()), ("bleAddress", m.ble_address.to_string())]
            }
        }
    }
}

/// A problem with one row (1 is the first line after the header) and one
/// of its columns ("" for the whole row).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct RowError {
    pub row: usize,
    pub field: String,
    pub message: String,
}

/// A file that cannot be read as rows at all.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FileError {
    #[error("The file is not UTF-8 text (line {0}); save it as CSV UTF-8")]
    NotUtf8(usize),
    #[error("The first line must be the header {expected}; it is {found}")]
    Header { expected: String, found: String },
    #[error("The file has no row after its header")]
    Empty,
    #[error("The file has more than {MAX_ROWS} rows; split it")]
    TooManyRows,
    #[error("The file is not valid CSV at line {line}: {reason}")]
    Malformed { line: u64, reason: String },
}

/// The rows of a file: the devices of the valid ones, and every problem.
#[derive(Debug, Default)]
pub struct Checked {
    pub rows: usize,
    /// Valid rows that would register a new device.
    pub new: Vec<(usize, NewDevice)>,
    /// Valid rows already registered, as they are.
    pub unchanged: usize,
    pub errors: Vec<RowError>,
}

/// Reads `bytes` as a CSV of `kind` and checks each row on its own and
/// against the other rows.
pub fn parse(kind: Kind, bytes: &[u8]) -> Result<Checked, FileError> {
    let text = std::str::from_utf8(bytes).map_err(|e| FileError::NotUtf8(line_of(bytes, e.valid_up_to())))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = csv::ReaderBuilder::new().has_headers(true).flexible(true).from_reader(text.as_bytes());
    let malformed = |e: csv::Error| FileError::Malformed {
        line: e.position().map_or(0, csv::Position::line),
        reason: e.to_string(),
    };
    let header: Vec<String> = reader.headers().map_err(malformed)?.iter().map(|h| h.trim().to_owned()).collect();
    if header != kind.columns() {
        return Err(FileError::Header { expected: kind.columns().join(","), found: header.join(",") });
    }
    let mut checked = Checked::default();
    let mut first_row_of: HashMap<(&'static str, String), usize> = HashMap::new();
    for (index, record) in reader.records().enumerate() {
        let record = record.map_err(malformed)?;
        let row = index + 1;
        if row > MAX_ROWS {
            return Err(FileError::TooManyRows);
        }
        checked.rows = row;
        let cells: Vec<&str> = record.iter().map(str::trim).collect();
        match device(kind, &cells) {
            Err(problems) => {
                checked.errors.extend(problems.into_iter().map(|(field, message)| RowError { row, field, message }));
            }
            Ok(device) => {
                let mut duplicate = false;
                for (field, value) in device.identifiers() {
                    if let Some(first) = first_row_of.get(&(field, value.clone())) {
                        let message = format!("{} (also in row {first} of this file)", already_in_use(field));
                        checked.errors.push(RowError { row, field: field.to_owned(), message });
                        duplicate = true;
                    } else {
                        first_row_of.insert((field, value), row);
                    }
                }
                if !duplicate {
                    checked.new.push((row, device));
                }
            }
        }
    }
    if checked.rows == 0 {
        return Err(FileError::Empty);
    }
    Ok(checked)
}

/// The line (from 1) of byte `at`.
fn line_of(bytes: &[u8], at: usize) -> usize {
    bytes[..at].iter().filter(|b| **b == b'\n').count() + 1
}

/// Whether a spreadsheet would run `cell` as a formula (a number, a
/// negative longitude say, is not one).
fn is_formula(cell: &str) -> bool {
    cell.starts_with(['=', '+', '-', '@', '\t', '\r']) && cell.parse::<f64>().is_err()
}

/// The device of one row's `cells`, or each column's problem.
fn device(kind: Kind, cells: &[&str]) -> Result<NewDevice, Vec<(String, String)>> {
    let columns = kind.columns();
    if cells.len() != columns.len() {
        let message = format!("The row has {} cells; the header has {}", cells.len(), columns.len());
        return Err(vec![(String::new(), message)]);
    }
    let formulas: Vec<(String, String)> = columns
        .iter()
        .zip(cells)
        .filter(|(_, cell)| is_formula(cell))
        .map(|(column, _)| ((*column).to_owned(), FORMULA_MESSAGE.to_owned()))
        .collect();
    if !formulas.is_empty() {
        return Err(formulas);
    }
    let mut body: Map<String, Value> = columns
        .iter()
        .zip(cells)
        .filter(|(c, _)| !c.ends_with("itude"))
        .map(|(c, v)| ((*c).to_owned(), json!(v)))
        .collect();
    let (latitude, longitude) = (cells[columns.len() - 2], cells[columns.len() - 1]);
    if !(latitude.is_empty() && longitude.is_empty()) {
        // The form's own format and checks: "longitude,latitude".
        body.insert("gpsCoordinates".to_owned(), json!(format!("{longitude},{latitude}")));
    }
    let checked = match kind {
        Kind::Gateways => serde_json::from_value::<RegisterGateway>(Value::Object(body))
            .map_err(|e| RegistryError::BadRequest(e.to_string()))
            .and_then(RegisterGateway::validate)
            .map(NewDevice::Gateway),
        Kind::Meters => serde_json::from_value::<RegisterMeter>(Value::Object(body))
            .map_err(|e| RegistryError::BadRequest(e.to_string()))
            .and_then(RegisterMeter::validate)
            .map(NewDevice::Meter),
    };
    checked.map_err(|e| match e {
        RegistryError::Invalid(fields) => fields
            .into_iter()
            .map(|(field, message)| (if field == "gpsCoordinates" { "latitude".to_owned() } else { field }, message))
            .collect(),
        other => vec![(String::new(), other.to_string())],
    })
}

/// Checks the new devices of `checked` against the registry: a row whose
/// identifiers all belong to one device is unchanged; one that shares some
/// with devices gets the spec's "already in use" for each.
pub async fn against_registry(db: &Db, checked: &mut Checked) -> Result<(), StorageError> {
    let wanted: identifiers::Identifiers = checked.new.iter().flat_map(|(_, device)| device.identifiers()).collect();
    let held = identifiers::owners(db, &wanted).await?;
    let mut still_new = Vec::with_capacity(checked.new.len());
    for (row, device) in std::mem::take(&mut checked.new) {
        let owners: Vec<(&str, Option<&String>)> = device
            .identifiers()
            .into_iter()
            .map(|(field, value)| (field, held.get(&(field.to_owned(), value))))
            .collect();
        let first = owners.first().and_then(|(_, owner)| *owner);
        if first.is_some() && owners.iter().all(|(_, owner)| *owner == first) {
            checked.unchanged += 1;
        } else if owners.iter().any(|(_, owner)| owner.is_some()) {
            for (field, _) in owners.iter().filter(|(_, owner)| owner.is_some()) {
                checked.errors.push(RowError { row, field: (*field).to_owned(), message: already_in_use(field) });
            }
        } else {
            still_new.push((row, device));
        }
    }
    checked.new = still_new;
    checked.errors.sort_by(|a, b| (a.row, &a.field).cmp(&(b.row, &b.field)));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GATEWAYS: &str = "serialNumber,imei,phoneNumber,bleAddress,macAddress,latitude,longitude\n";

    fn fields(checked: &Checked) -> Vec<(usize, &str)> {
        checked.errors.iter().map(|e| (e.row, e.field.as_str())).collect()
    }

    #[test]
    fn given_a_file_when_rows_break_the_form_s_rules_then_each_cell_gets_the_spec_message() {
        let file = format!(
            "{GATEWAYS}AB12CD34EF,490154203237518,0612345678,AA:BB:CC:DD:EE:01,AA:BB:CC:DD:EE:02,48.85,-2.29\n\
             short,49015420323751,06123,nope,AA:BB:CC:DD:EE:03,,\n\
             CD12CD34EF,490154203237519,0612345679,AA:BB:CC:DD:EE:04,AA:BB:CC:DD:EE:05,95,\n"
        );
        let checked = parse(Kind::Gateways, file.as_bytes()).unwrap();
        assert_eq!(checked.rows, 3);
        assert_eq!(checked.new.len(), 1, "{:?}", checked.errors);
        assert_eq!(
            fields(&checked),
            [(2, "bleAddress"), (2, "imei"), (2, "phoneNumber"), (2, "serialNumber"), (3, "latitude")]
        );
        assert_eq!(checked.errors[3].message, wm_domain::SERIAL_NUMBER_MESSAGE);
        assert_eq!(checked.errors[4].message, wm_domain::GPS_MESSAGE);
    }

    #[test]
    fn given_a_row_repeating_an_earlier_one_when_read_then_each_shared_identifier_names_the_first_row() {
        let file = "serialNumber,bleAddress,latitude,longitude\nZX98YW76VU,AA:BB:CC:DD:EE:03,,\nZX98YW76VU,aa:bb:cc:dd:ee:03,,\n";
        let checked = parse(Kind::Meters, file.as_bytes()).unwrap();
        assert_eq!(fields(&checked), [(2, "serialNumber"), (2, "bleAddress")]);
        assert_eq!(checked.errors[0].message, "Serial Number already in use (also in row 1 of this file)");
    }

    #[test]
    fn given_formula_cells_when_read_then_they_are_refused_but_negative_numbers_are_not() {
        let file = "serialNumber,bleAddress,latitude,longitude\n=cmd|' /C calc'!A0,AA:BB:CC:DD:EE:03,-1.5,-2.5\n";
        let checked = parse(Kind::Meters, file.as_bytes()).unwrap();
        assert_eq!(
            checked.errors,
            [RowError { row: 1, field: "serialNumber".into(), message: FORMULA_MESSAGE.into() }]
        );
    }

    #[test]
    fn given_a_broken_file_when_read_then_the_whole_file_is_refused_with_the_reason() {
        assert_eq!(
            parse(Kind::Meters, b"serialNumber,bleAddress\n").unwrap_err(),
            FileError::Header {
                expected: "serialNumber,bleAddress,latitude,longitude".into(),
                found: "serialNumber,bleAddress".into()
            }
        );
        assert_eq!(parse(Kind::Meters, b"serialNumber,bleAddress,latitude,longitude\n").unwrap_err(), FileError::Empty);
        let latin1 = b"serialNumber,bleAddress,latitude,longitude\nZX98YW76VU,AA:BB:CC:DD:EE:03,,\n\xe9,x,,\n";
        assert_eq!(parse(Kind::Meters, latin1).unwrap_err(), FileError::NotUtf8(3));
        let short = "serialNumber,bleAddress,latitude,longitude\nZX98YW76VU,AA:BB:CC:DD:EE:03\n";
        assert_eq!(
            parse(Kind::Meters, short.as_bytes()).unwrap().errors[0].message,
            "The row has 2 cells; the header has 4"
        );
        let bom = "\u{feff}serialNumber,bleAddress,latitude,longitude\nZX98YW76VU,AA:BB:CC:DD:EE:03,,\n";
        assert_eq!(parse(Kind::Meters, bom.as_bytes()).unwrap().new.len(), 1, "Excel's byte order mark is fine");
    }
}
