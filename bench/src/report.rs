//! Medians, p99s and ratios, printed as rows of the results table.

/// The value at quantile `q` (nearest rank) of `values`.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// One row: `| what | median | p99 | reference median | reference p99 | ratio | goal |`.
/// For a rate (`higher_is_better`) the p99 is the slowest 1 % and the ratio
/// compares medians; for a latency the ratio compares p99s, as the goals do.
pub fn row(what: &str, unit: &str, ours: &[f64], reference: Option<&[f64]>, higher_is_better: bool, goal: &str) {
    let tail = if higher_is_better { 0.01 } else { 0.99 };
    let (median, p99) = (quantile(ours, 0.5), quantile(ours, tail));
    let (ref_median, ref_p99, ratio) = match reference {
        Some(r) => {
            let (m, p) = (quantile(r, 0.5), quantile(r, tail));
            let ratio = if higher_is_better { median / m } else { p99 / p };
            (format!("{} {unit}", number(m)), format!("{} {unit}", number(p)), format!("{ratio:.2}×"))
        }
        None => ("—".to_owned(), "—".to_owned(), "—".to_owned()),
    };
    println!(
        "| {what} | {} {unit} | {} {unit} | {ref_median} | {ref_p99} | {ratio} | {goal} |",
        number(median),
        number(p99)
    );
}

fn number(value: f64) -> String {
    if value >= 100.0 { format!("{value:.0}") } else { format!("{value:.2}") }
}

#[cfg(test)]
mod tests {
    use super::quantile;

    #[test]
    fn quantiles_are_nearest_rank() {
        let values = [5.0, 1.0, 4.0, 2.0, 3.0];
        assert_eq!(quantile(&values, 0.5), 3.0);
        assert_eq!(quantile(&values, 0.99), 5.0);
        assert_eq!(quantile(&values, 0.01), 1.0);
        assert!(quantile(&[], 0.5).is_nan());
    }
}
