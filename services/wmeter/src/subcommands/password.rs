//! Passwords for the commands that need one.

use std::io::{BufRead, IsTerminal};

use anyhow::{Context, bail};

/// One line from standard input, or a prompt without echo on a terminal.
/// Never from the command line, where it would land in shell history.
pub fn read(username: &str) -> anyhow::Result<String> {
    let password = if std::io::stdin().is_terminal() {
        rpassword::prompt_password(format!("password for {username}: ")).context("reading the password")?
    } else {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line).context("reading the password from standard input")?;
        line.trim_end_matches(['\r', '\n']).to_owned()
    };
    if password.is_empty() {
        bail!("no password given: pipe it on standard input or type it at the prompt");
    }
    Ok(password)
}
