//! Where the SQLite writer's time goes during a phase (docs/performance.md
//! §1): its turns by the line of source that took each, read from
//! `wmeter_db_writer_*_total{site}` on `/metrics` before and after.

use std::collections::BTreeMap;

/// The counters of one site, or their growth over a phase.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Site {
    pub turns: f64,
    pub waited: f64,
    pub held: f64,
}

/// Every site's counters, by `file:line`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Turns(BTreeMap<String, Site>);

impl Turns {
    /// The counters `wmeter serve` at `url` exports now.
    pub async fn read(client: &reqwest::Client, url: &str) -> anyhow::Result<Turns> {
        let text = client.get(format!("{url}/metrics")).send().await?.error_for_status()?.text().await?;
        Ok(Self::parse(&text))
    }

    /// The writer's series of a Prometheus text exposition; other lines are ignored.
    pub fn parse(text: &str) -> Turns {
        let mut sites = BTreeMap::<String, Site>::new();
        for line in text.lines() {
            let Some((name, rest)) = line.split_once('{') else { continue };
            let Some((labels, value)) = rest.rsplit_once("} ") else { continue };
            let Some(site) = label(labels, "site") else { continue };
            let Ok(value) = value.trim().parse::<f64>() else { continue };
            let counters = sites.entry(site.to_owned()).or_default();
            match name {
                "wmeter_db_writer_turns_total" => counters.turns += value,
                "wmeter_db_writer_wait_seconds_total" => counters.waited += value,
                "wmeter_db_writer_hold_seconds_total" => counters.held += value,
                _ => {}
            }
        }
        sites.retain(|_, s| *s != Site::default());
        Turns(sites)
    }

    /// What each site added since `before`.
    pub fn since(&self, before: &Turns) -> Turns {
        let mut sites = BTreeMap::new();
        for (name, now) in &self.0 {
            let was = before.0.get(name).copied().unwrap_or_default();
            let grown =
                Site { turns: now.turns - was.turns, waited: now.waited - was.waited, held: now.held - was.held };
            if grown.turns > 0.0 {
                sites.insert(name.clone(), grown);
            }
        }
        Turns(sites)
    }

    /// The seconds the writer was held, summed over the sites.
    pub fn held(&self) -> f64 {
        self.0.values().map(|s| s.held).sum()
    }

    /// The `n` sites that held the writer longest, longest first, each as
    /// `file:line share (held, waited per turn)`.
    pub fn top(&self, n: usize) -> String {
        let total = self.held();
        if total <= 0.0 {
            return "none".to_owned();
        }
        let mut sites: Vec<_> = self.0.iter().collect();
        sites.sort_by(|a, b| b.1.held.total_cmp(&a.1.held));
        let shown: Vec<_> = sites
            .into_iter()
            .take(n)
            .map(|(name, s)| {
                let per_turn = |seconds: f64| seconds * 1000.0 / s.turns;
                format!(
                    "{} {:.0} % ({:.0} ms held, {:.0} ms waited a turn)",
                    short(name),
                    100.0 * s.held / total,
                    per_turn(s.held),
                    per_turn(s.waited)
                )
            })
            .collect();
        shown.join("; ")
    }
}

/// The value of `key` in a label set such as `site="a.rs:1",service="x"`.
fn label<'a>(labels: &'a str, key: &str) -> Option<&'a str> {
    let start = labels.find(&format!("{key}=\""))? + key.len() + 2;
    let len = labels[start..].find('"')?;
    Some(&labels[start..start + len])
}

/// A site by its crate and file, without `services/`, `libs/` or `src/`:
/// `telemetry-ingest/ingest/mod.rs:54`.
fn short(site: &str) -> String {
    let site = site.strip_prefix("services/").or_else(|| site.strip_prefix("libs/")).unwrap_or(site);
    site.replacen("/src/", "/", 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEFORE: &str = r#"# HELP wmeter_db_writer_turns_total Write turns
wmeter_db_writer_turns_total{service="wmeter",site="services/telemetry-ingest/src/ingest/mod.rs:54"} 10
wmeter_db_writer_hold_seconds_total{service="wmeter",site="services/telemetry-ingest/src/ingest/mod.rs:54"} 1.0
wmeter_db_writer_wait_seconds_total{service="wmeter",site="services/telemetry-ingest/src/ingest/mod.rs:54"} 0.5
wmeter_http_requests_total{method="GET"} 3
"#;

    const AFTER: &str = r#"wmeter_db_writer_turns_total{service="wmeter",site="services/telemetry-ingest/src/ingest/mod.rs:54"} 20
wmeter_db_writer_hold_seconds_total{service="wmeter",site="services/telemetry-ingest/src/ingest/mod.rs:54"} 4.0
wmeter_db_writer_wait_seconds_total{service="wmeter",site="services/telemetry-ingest/src/ingest/mod.rs:54"} 1.5
wmeter_db_writer_turns_total{service="wmeter",site="libs/wm-eventlog/src/embedded/consumer.rs:7"} 5
wmeter_db_writer_hold_seconds_total{service="wmeter",site="libs/wm-eventlog/src/embedded/consumer.rs:7"} 1.0
wmeter_db_writer_wait_seconds_total{service="wmeter",site="libs/wm-eventlog/src/embedded/consumer.rs:7"} 2.0
"#;

    #[test]
    fn a_phase_is_told_by_the_sites_that_held_the_writer_longest() {
        let phase = Turns::parse(AFTER).since(&Turns::parse(BEFORE));
        assert_eq!(phase.held(), 4.0);
        assert_eq!(
            phase.top(5),
            "telemetry-ingest/ingest/mod.rs:54 75 % (300 ms held, 100 ms waited a turn); \
             wm-eventlog/embedded/consumer.rs:7 25 % (200 ms held, 400 ms waited a turn)"
        );
        assert_eq!(phase.top(1), "telemetry-ingest/ingest/mod.rs:54 75 % (300 ms held, 100 ms waited a turn)");
    }

    #[test]
    fn a_server_without_the_writer_series_has_no_sites() {
        let none = Turns::parse("wmeter_http_requests_total{method=\"GET\"} 3\nup 1\n");
        assert_eq!(none, Turns::default());
        assert_eq!(none.since(&none).held(), 0.0);
    }
}
