//! The PromQL that deploy/monitoring holds: each alert's `expr` in the
//! rules file and each query of the Grafana dashboards, named by where it
//! stands.

use std::path::{Path, PathBuf};

use serde_json::Value;

pub fn monitoring_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/monitoring")
}

/// `(where, expr)` for every rule of the rules file. The workspace has no
/// YAML parser: an `expr` is read as the one-line value after `expr:` or
/// as the `|` or `>` block below it, and every rule must have one.
pub fn rule_exprs() -> Vec<(String, String)> {
    let path = monitoring_dir().join("alerts.yml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lines: Vec<&str> = text.lines().collect();
    let mut exprs = Vec::new();
    let mut rule = String::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if let Some(name) = trimmed.strip_prefix("- alert:").or_else(|| trimmed.strip_prefix("- record:")) {
            rule = name.trim().to_owned();
        }
        let Some(value) = trimmed.strip_prefix("expr:").map(str::trim) else { continue };
        let expr = if value.starts_with('|') || value.starts_with('>') {
            let indent = line.len() - trimmed.len();
            let block =
                lines[i + 1..].iter().take_while(|l| l.trim().is_empty() || l.len() - l.trim_start().len() > indent);
            block.copied().collect::<Vec<_>>().join("\n")
        } else {
            value.trim_matches(|c| c == '"' || c == '\'').to_owned()
        };
        exprs.push((format!("alerts.yml {rule}"), expr));
    }
    let rules =
        lines.iter().filter(|l| l.trim_start().starts_with("- alert:") || l.trim_start().starts_with("- record:"));
    assert_eq!(exprs.len(), rules.count(), "one expr per rule in {}", path.display());
    exprs
}

/// `(where, query)` for every panel target and query variable of every
/// dashboard.
pub fn dashboard_queries() -> Vec<(String, String)> {
    let dir = monitoring_dir().join("dashboards");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    assert!(files.len() >= 6, "an overview and one dashboard per service in {}", dir.display());
    let mut queries = Vec::new();
    for file in files {
        let dashboard: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        collect(&dashboard, &name, &mut queries);
    }
    queries
}

/// Every `expr` below `value`, and every query variable's `query`.
fn collect(value: &Value, file: &str, out: &mut Vec<(String, String)>) {
    match value {
        Value::Object(object) => {
            if let Some(Value::String(expr)) = object.get("expr") {
                let title = object.get("refId").and_then(Value::as_str).unwrap_or("?");
                out.push((format!("{file} target {title}"), expr.clone()));
            }
            if object.get("type").and_then(Value::as_str) == Some("query") {
                let query = object.get("query").map(|q| q.get("query").unwrap_or(q));
                if let Some(Value::String(query)) = query {
                    out.push((format!("{file} variable {}", object["name"]), query.clone()));
                }
            }
            object.values().for_each(|v| collect(v, file, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect(v, file, out)),
        _ => {}
    }
}
