//! Request metrics for every service: a counter by route and status, and a
//! latency histogram by route. The route is the matched pattern
//! (`/api/proxy/gateways/{id}`), never the raw path, so ids cannot explode
//! the label set. And the database pool's connections, and the SQLite
//! writer's turns, read at each scrape.

use std::time::Instant;

use actix_web::{
    Error,
    body::MessageBody,
    dev::{ServiceRequest, ServiceResponse},
    middleware::Next,
    web,
};
use prometheus_client::{
    collector::Collector,
    encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric},
    metrics::{counter::Counter, family::Family, gauge::ConstGauge, histogram::Histogram},
    registry::Registry,
};

pub const HTTP_REQUESTS: &str = "wmeter_http_requests";
pub const HTTP_REQUEST_DURATION: &str = "wmeter_http_request_duration_seconds";
pub const DB_POOL_IN_USE: &str = "wmeter_db_pool_connections_in_use";
pub const DB_POOL_IDLE: &str = "wmeter_db_pool_connections_idle";
pub const DB_POOL_MAX: &str = "wmeter_db_pool_connections_max";
pub const DB_WRITER_TURNS: &str = "wmeter_db_writer_turns";
pub const DB_WRITER_WAIT: &str = "wmeter_db_writer_wait_seconds";
pub const DB_WRITER_HOLD: &str = "wmeter_db_writer_hold_seconds";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: String,
    route: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: String,
}

/// Handles to the request metrics; cheap to clone into each worker.
#[derive(Clone, Debug)]
pub struct HttpMetrics {
    requests: Family<RequestLabels, Counter>,
    duration: Family<RouteLabels, Histogram>,
}

impl HttpMetrics {
    pub fn register(registry: &mut Registry) -> Self {
        let requests = Family::<RequestLabels, Counter>::default();
        let duration = Family::<RouteLabels, Histogram>::new_with_constructor(|| {
            Histogram::new([0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0])
        });
        registry.register(HTTP_REQUESTS, "HTTP requests answered", requests.clone());
        registry.register(HTTP_REQUEST_DURATION, "HTTP request latency", duration.clone());
        Self { requests, duration }
    }
}

/// The middleware; install with `App::wrap(from_fn(wm_http::metrics::record))`
/// after putting [`HttpMetrics`] in the app data.
pub async fn record(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let metrics = req.app_data::<web::Data<HttpMetrics>>().cloned();
    let method = req.method().to_string();
    let started = Instant::now();
    let response = next.call(req).await?;
    if let Some(metrics) = metrics {
        let route = response.request().match_pattern().unwrap_or_else(|| "unmatched".to_owned());
        let status = response.status().as_u16();
        metrics.requests.get_or_create(&RequestLabels { method, route: route.clone(), status }).inc();
        metrics.duration.get_or_create(&RouteLabels { route }).observe(started.elapsed().as_secs_f64());
    }
    Ok(response)
}

/// The process's database pool, read at each scrape: connections lent out,
/// idle, and the most it may open (`database.max_connections`). In use
/// near the maximum means queries wait for a connection.
#[derive(Debug)]
pub struct DbPoolMetrics(wm_storage::Db);

impl DbPoolMetrics {
    /// Registers the pool's gauges, and on SQLite the writer's counters.
    pub fn register(registry: &mut Registry, db: wm_storage::Db) {
        if db.backend() == wm_storage::Backend::Sqlite {
            registry.register_collector(Box::new(DbWriterMetrics));
        }
        registry.register_collector(Box::new(Self(db)));
    }
}

impl Collector for DbPoolMetrics {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let pool = self.0.connections();
        let gauges = [
            (DB_POOL_IN_USE, "Database connections lent out to a query or transaction", pool.in_use()),
            (DB_POOL_IDLE, "Database connections open and idle", pool.idle),
            (DB_POOL_MAX, "The most database connections the pool opens", pool.max),
        ];
        for (name, help, value) in gauges {
            let gauge = ConstGauge::new(i64::from(value));
            gauge.encode(encoder.encode_descriptor(name, help, None, gauge.metric_type())?)?;
        }
        Ok(())
    }
}

/// The SQLite writer's turns (`wm_storage::writer`), per place in the
/// source that takes them (`site`, as `file:line`): how many, and the time
/// spent waiting for them and holding them. The writer is one per file, so
/// the rate of `wmeter_db_writer_hold_seconds_total` summed over the sites
/// is how busy it is (1 is always), and each site's share says whose writes
/// the others queue behind.
#[derive(Debug)]
struct DbWriterMetrics;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct SiteLabels {
    site: String,
}

impl Collector for DbWriterMetrics {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let spent = wm_storage::writer::spent_by_site();
        let turns: Family<SiteLabels, Counter> = Family::default();
        let waited: Family<SiteLabels, Counter<f64>> = Family::default();
        let held: Family<SiteLabels, Counter<f64>> = Family::default();
        for (site, s) in spent {
            let labels = SiteLabels { site };
            turns.get_or_create(&labels).inc_by(s.turns);
            waited.get_or_create(&labels).inc_by(s.waited.as_secs_f64());
            held.get_or_create(&labels).inc_by(s.held.as_secs_f64());
        }
        turns.encode(encoder.encode_descriptor(
            DB_WRITER_TURNS,
            "Turns taken at the SQLite writer",
            None,
            turns.metric_type(),
        )?)?;
        let help = "Seconds spent waiting for a turn at the SQLite writer";
        waited.encode(encoder.encode_descriptor(DB_WRITER_WAIT, help, None, waited.metric_type())?)?;
        let help = "Seconds the SQLite writer was held, commits included";
        held.encode(encoder.encode_descriptor(DB_WRITER_HOLD, help, None, held.metric_type())?)?;
        Ok(())
    }
}
