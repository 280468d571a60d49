//! CSV as the exports write it (docs/analytics.md, Exports): RFC 4180,
//! comma-separated, a header line, CRLF line ends, UTF-8; a field with a
//! comma, a quote or a line break is quoted, its quotes doubled.

use std::fmt::Write;

/// Appends one record of `fields` to `out`.
pub fn record<'a>(out: &mut String, fields: impl IntoIterator<Item = &'a str>) {
    for (i, field) in fields.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        if field.contains([',', '"', '\r', '\n']) {
            out.push('"');
            out.push_str(&field.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(field);
        }
    }
    out.push_str("\r\n");
}

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
    fn fields_are_quoted_only_when_they_must_be() {
        let mut out = String::new();
        record(&mut out, ["a", "b,c", "say \"hi\"", "two\nlines"]);
        assert_eq!(out, "a,\"b,c\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n");
    }

    #[test]
    fn litres_keep_every_millilitre() {
        assert_eq!([litres(0), litres(5), litres(1234), litres(-1500)], ["0.000", "0.005", "1.234", "-1.500"]);
    }
}
