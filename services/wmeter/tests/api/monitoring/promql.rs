//! The metric names a PromQL expression reads: what is left once strings,
//! label matchers, ranges, grouping lists, functions, keywords, numbers and
//! Grafana's `$variables` are set aside. Enough for the expressions of
//! deploy/monitoring, not a PromQL parser: the unit tests below pin what it
//! understands.

use std::collections::BTreeSet;

/// Operators and aggregations (`sum by (x) (…)` puts no parenthesis right
/// after `sum`).
const KEYWORDS: [&str; 18] = [
    "and", "or", "unless", "bool", "offset", "inf", "nan", "sum", "min", "max", "avg", "count", "group", "stddev",
    "stdvar", "topk", "bottomk", "quantile",
];
const GROUPINGS: [&str; 6] = ["by", "without", "on", "ignoring", "group_left", "group_right"];

/// Every metric name `expr` selects.
pub fn metric_names(expr: &str) -> BTreeSet<String> {
    let expr = label_values_metric(expr).unwrap_or(expr);
    let chars: Vec<char> = blank_enclosed(expr).chars().collect();
    let mut names = BTreeSet::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let starts_word = c.is_ascii_alphabetic() || c == '_' || c == ':';
        if c == '$' || c.is_ascii_digit() || c == '.' {
            // A variable or a number (durations included): skip it whole.
            i = skip_while(&chars, i + 1, |c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
            continue;
        }
        if !starts_word {
            i += 1;
            continue;
        }
        let end = skip_while(&chars, i, |c| c.is_ascii_alphanumeric() || c == '_' || c == ':');
        let word: String = chars[i..end].iter().collect();
        let next = skip_while(&chars, end, char::is_whitespace);
        let called = chars.get(next) == Some(&'(');
        i = if called && GROUPINGS.contains(&word.as_str()) { skip_parens(&chars, next) } else { end };
        if !called && !KEYWORDS.contains(&word.to_ascii_lowercase().as_str()) && !GROUPINGS.contains(&word.as_str()) {
            names.insert(word);
        }
    }
    names
}

/// The metric of a Grafana `label_values(metric, label)` variable query.
fn label_values_metric(query: &str) -> Option<&str> {
    let args = query.trim().strip_prefix("label_values(")?;
    args.split([',', ')']).next()
}

/// `expr` with quoted strings, `{…}` label matchers and `[…]` ranges
/// blanked (a string may hold braces: `route="/api/{tail:.*}"`).
fn blank_enclosed(expr: &str) -> String {
    let (mut quote, mut escaped, mut closing) = (None, false, None);
    let blanked = expr.chars().map(|c| {
        match (quote, closing) {
            (Some(_), _) if escaped => escaped = false,
            (Some(_), _) if c == '\\' => escaped = true,
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, _) if matches!(c, '"' | '\'' | '`') => quote = Some(c),
            (None, Some(end)) if c == end => closing = None,
            (None, Some(_)) => {}
            (None, None) if c == '{' => closing = Some('}'),
            (None, None) if c == '[' => closing = Some(']'),
            (None, None) => return c,
        }
        ' '
    });
    blanked.collect()
}

fn skip_while(chars: &[char], mut i: usize, keep: impl Fn(char) -> bool) -> usize {
    while i < chars.len() && keep(chars[i]) {
        i += 1;
    }
    i
}

/// The index past the parenthesis that closes the one at `open`.
fn skip_parens(chars: &[char], open: usize) -> usize {
    let close = chars[open..].iter().position(|&c| c == ')').map_or(chars.len(), |p| open + p);
    close + 1
}

#[cfg(test)]
mod tests {
    use super::metric_names;

    fn names(expr: &str) -> Vec<String> {
        metric_names(expr).into_iter().collect()
    }

    #[test]
    fn functions_groupings_matchers_and_ranges_are_not_metrics() {
        let expr = r#"histogram_quantile(0.99, sum by (service, le) (rate(wmeter_http_request_duration_seconds_bucket{route=~"/api/.+", status!="x(y)"}[5m]))) > 1"#;
        assert_eq!(names(expr), ["wmeter_http_request_duration_seconds_bucket"]);
        let expr = r#"sum(rate(a_total{route="/api/{tail:.*}", q="say \"}\""}[5m])) or vector(0)"#;
        assert_eq!(names(expr), ["a_total"]);
    }

    #[test]
    fn both_sides_of_a_binary_operation_count() {
        let expr = "max by (i) (a_in_use) / on (instance) group_left() b_max > bool 0.9 and c offset 10m";
        assert_eq!(names(expr), ["a_in_use", "b_max", "c"]);
    }

    #[test]
    fn grafana_variables_and_label_values_queries() {
        assert_eq!(names("sum(rate(x_total{service=\"$service\"}[$__rate_interval])) * $factor"), ["x_total"]);
        assert_eq!(names("label_values(wmeter_http_requests_total, instance)"), ["wmeter_http_requests_total"]);
    }

    #[test]
    fn a_block_scalar_over_several_lines() {
        assert_eq!(names("sum(\n  a\n)\n/\nsum(b) > 1e3"), ["a", "b"]);
    }
}
