//! The daemon's logs on standard error (issue 19 item 11): the filter
//! from `ARBITRE_LOG` or `RUST_LOG`, colours only on a terminal (a pipe, a
//! file, cron's mail or journald get plain text), and `--log-format json`:
//! one JSON object per line for journald, Loki or jq, with the time, the
//! level, the target, the message, the event's fields and the spans'.

use tracing::field::{Field, Visit};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines (coloured on a terminal only).
    Text,
    /// One JSON object per line.
    Json,
}

/// The log filter: `ARBITRE_LOG`, else `RUST_LOG` (what the systemd unit
/// and most Rust tools use, issue 14 item 16), else `default`. An empty
/// variable, or one that does not parse, is skipped, not fatal.
pub fn log_filter(
    env: impl Fn(&str) -> Option<String>,
    default: &str,
) -> tracing_subscriber::EnvFilter {
    ["ARBITRE_LOG", "RUST_LOG"]
        .iter()
        .filter_map(|name| env(name))
        .filter(|v| !v.trim().is_empty())
        .find_map(|v| tracing_subscriber::EnvFilter::try_new(v).ok())
        .unwrap_or_else(|| tracing_subscriber::EnvFilter::new(default))
}

/// Installs the process's subscriber, writing to standard error.
pub fn init(format: LogFormat, filter: tracing_subscriber::EnvFilter) {
    use std::io::IsTerminal;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    // A second init (tests running `main` twice) is not an error worth dying for.
    let _ = match format {
        LogFormat::Text => builder
            .with_ansi(std::io::stderr().is_terminal())
            .try_init(),
        LogFormat::Json => builder.with_ansi(false).event_format(JsonLines).try_init(),
    };
}

/// `--log-format json`: `{"time":…,"level":…,"target":…,"message":…,
/// "fields":{…},"spans":[{"name":…,…}]}` on one line.
pub struct JsonLines;

struct FieldMap(serde_json::Map<String, serde_json::Value>);

impl Visit for FieldMap {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_string(), value.into());
    }
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.0.insert(field.name().to_string(), value.into());
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.0.insert(field.name().to_string(), value.into());
    }
    fn record_bool(&mut self, field: &Field, value: bool) {
        self.0.insert(field.name().to_string(), value.into());
    }
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0
            .insert(field.name().to_string(), format!("{value:?}").into());
    }
}

impl<S, N> FormatEvent<S, N> for JsonLines
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        let meta = event.metadata();
        let mut fields = FieldMap(serde_json::Map::new());
        event.record(&mut fields);
        let message = fields.0.remove("message").unwrap_or_default();
        let mut spans = Vec::new();
        if let Some(scope) = ctx.event_scope() {
            for span in scope.from_root() {
                let mut s = serde_json::Map::new();
                s.insert("name".into(), span.name().into());
                // The span's fields as the fmt layer stored them ("k=v k2=v2").
                if let Some(f) = span
                    .extensions()
                    .get::<tracing_subscriber::fmt::FormattedFields<N>>()
                {
                    if !f.is_empty() {
                        s.insert("fields".into(), f.to_string().into());
                    }
                }
                spans.push(serde_json::Value::Object(s));
            }
        }
        let line = serde_json::json!({
            "time": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            "level": meta.level().as_str(),
            "target": meta.target(),
            "message": message,
            "fields": fields.0,
            "spans": spans,
        });
        let mut text = line.to_string();
        text.push('\n');
        writer.write_str(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_log_is_honoured_and_arbitre_log_wins() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |n: &str| {
                vars.iter()
                    .find(|(k, _)| *k == n)
                    .map(|(_, v)| v.to_string())
            }
        };
        let f = log_filter(env(&[("RUST_LOG", "debug")]), "info");
        assert_eq!(f.to_string(), "debug");
        let f = log_filter(
            env(&[("RUST_LOG", "debug"), ("ARBITRE_LOG", "warn")]),
            "info",
        );
        assert_eq!(f.to_string(), "warn");
        let f = log_filter(env(&[("RUST_LOG", " ")]), "error");
        assert_eq!(f.to_string(), "error");
    }
}
