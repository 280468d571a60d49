//! CSV as every export writes it (docs/analytics.md, Exports): RFC 4180,
//! comma-separated, a header line, CRLF line ends, UTF-8; a field with a
//! comma, a quote or a line break is quoted, its quotes doubled. Text that
//! people typed goes through [`text`], so that a spreadsheet never reads it
//! as a formula.

use std::borrow::Cow;

use actix_web::{
    HttpResponse, HttpResponseBuilder,
    http::header::{ContentDisposition, DispositionParam, DispositionType},
};

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

/// `field` safe from formula injection (OWASP, CSV Injection): text that
/// starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a
/// leading `'`, which spreadsheets show as text. Numbers are written
/// without it: a negative one is a number, not a formula.
pub fn text(field: &str) -> Cow<'_, str> {
    if field.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        Cow::Owned(format!("'{field}"))
    } else {
        Cow::Borrowed(field)
    }
}

/// A CSV download named `name`.
pub fn download(name: String) -> HttpResponseBuilder {
    let mut response = HttpResponse::Ok();
    response.content_type("text/csv; charset=utf-8").insert_header(ContentDisposition {
        disposition: DispositionType::Attachment,
        parameters: vec![DispositionParam::Filename(name)],
    });
    response
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
    fn text_that_a_spreadsheet_would_run_is_kept_as_text() {
        for (field, safe) in [
            ("=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"),
            ("+1", "'+1"),
            ("-2", "'-2"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("W-SM01000004", "W-SM01000004"),
            ("", ""),
        ] {
            assert_eq!(text(field), safe, "{field:?}");
        }
    }
}
