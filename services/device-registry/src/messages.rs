//! The spec's words for identifiers already in use (spec §5, §8). The
//! format messages live beside their types in `wm_domain`.

/// The registration forms' "{Field} already in use".
pub fn already_in_use(field: &str) -> String {
    let label = match field {
        "serialNumber" => "Serial Number",
        "imei" => "IMEI",
        "phoneNumber" => "Phone Number",
        "bleAddress" => "BLE Address",
        "macAddress" => "MAC Address",
        other => other,
    };
    format!("{label} already in use")
}

/// The gateway edit panel's wording for a phone number in use.
pub const EDIT_PHONE_IN_USE: &str = "Phone number already in use";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_labels_are_the_spec_s() {
        assert_eq!(already_in_use("serialNumber"), "Serial Number already in use");
        assert_eq!(already_in_use("bleAddress"), "BLE Address already in use");
        assert_eq!(already_in_use("imei"), "IMEI already in use");
    }
}
