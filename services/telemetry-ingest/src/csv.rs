//! Numbers as the consumption exports write them (docs/analytics.md,
//! Exports); the CSV itself is `wm_http::csv`.

use std::fmt::Write;

/// Millilitres as litres with three decimals and a point: `1234` → `1.234`.
pub fn litres(ml: i64) -> String {
    let mut out = String::new();
    let sign = if ml < 0 { "-" } else { "" };
    let _ = write!(out, "{sign}{}.{:03}", ml.unsigned_abs() / 1000, ml.unsigned_abs() % 1000);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn litres_keep_every_millilitre() {
        assert_eq!([litres(0), litres(5), litres(1234), litres(-1500)], ["0.000", "0.005", "1.234", "-1.500"]);
    }
}
