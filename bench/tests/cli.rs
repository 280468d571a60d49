//! The harness's command line: every figure is a subcommand, and a wrong
//! one or a bad value is refused, saying which, before anything starts. (This
//! test also has `cargo test` build the `wm-bench` binary that
//! `make test`'s benchmark smoke run then uses.)

use std::process::Command;

fn wm_bench(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_wm-bench")).args(args).output().expect("wm-bench runs")
}

#[test]
fn every_figure_is_a_subcommand() {
    let output = wm_bench(&["--help"]);
    assert!(output.status.success());
    let help = String::from_utf8_lossy(&output.stdout);
    for figure in ["ingest", "distributed", "api", "lcp", "import", "projection", "sse"] {
        assert!(help.lines().any(|line| line.trim_start().starts_with(figure)), "{figure} missing from:\n{help}");
    }
    assert!(!help.contains("sse-reference"), "the bare handler is not a figure:\n{help}");
}

#[test]
fn an_unknown_figure_or_a_bad_value_is_refused_saying_which() {
    let cases: [(&[&str], &str); 2] = [
        (&["throughput"], "error: unrecognized subcommand 'throughput'"),
        (&["ingest", "--runs", "many"], "error: invalid value 'many' for '--runs <RUNS>'"),
    ];
    for (args, says) in cases {
        let output = wm_bench(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with(says), "{args:?}: {stderr}");
    }
}
