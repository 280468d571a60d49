//! What `wmeter` prints for the operator, on standard output.

/// Prints a line for the operator. A closed or broken stdout (a supervisor
/// that dropped it, `| head`) must not stop a server or a run, so a failure
/// is only logged.
pub(crate) fn say(line: std::fmt::Arguments) {
    use std::io::Write;
    if let Err(e) = writeln!(std::io::stdout(), "{line}") {
        tracing::warn!(error = %e, "a line for the operator could not be printed");
    }
}
