//! CPU time per program over a phase, from `/proc`: what each reading
//! cost every program on the machine, w-meter's and the test's own. The
//! distributed figure runs every server on the same cores, so this says
//! how much of the machine w-meter had, and the rate those costs allow.

use std::collections::HashMap;

use crate::report;

/// What `/proc/<pid>/stat` counts time in: `USER_HZ`, 100 a second on
/// every Linux ABI since 2.6 (`sysconf(_SC_CLK_TCK)`).
const TICKS_A_SECOND: f64 = 100.0;

/// The programs told apart, by the name the kernel gives each process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Program {
    /// Every `wmeter` process of the deployment.
    Wmeter,
    Postgres,
    /// The Kafka-protocol test broker.
    Tansu,
    Mosquitto,
    /// This harness: the publishers, the raw reference's client and the
    /// API polling that waits for the count.
    Bench,
}

impl Program {
    pub const ALL: [Program; 5] =
        [Program::Wmeter, Program::Postgres, Program::Tansu, Program::Mosquitto, Program::Bench];

    pub fn name(self) -> &'static str {
        match self {
            Program::Wmeter => "w-meter's processes",
            Program::Postgres => "PostgreSQL",
            Program::Tansu => "Tansu (the test's Kafka)",
            Program::Mosquitto => "Mosquitto",
            Program::Bench => "wm-bench (publishers and polling)",
        }
    }

    /// The program a process with kernel name `comm` is, if any: `wmeter`
    /// under any file name that starts so (a copy such as `wmeter-base`).
    fn of(pid: u32, comm: &str) -> Option<Program> {
        match comm {
            _ if pid == std::process::id() => Some(Program::Bench),
            "postgres" => Some(Program::Postgres),
            "tansu" => Some(Program::Tansu),
            "mosquitto" => Some(Program::Mosquitto),
            _ if comm.starts_with("wmeter") => Some(Program::Wmeter),
            _ => None,
        }
    }
}

/// Each known process's CPU ticks (user and system, all its threads) at
/// one moment.
#[derive(Debug, Default)]
pub struct Sample(HashMap<u32, (Program, u64)>);

impl Sample {
    /// Reads every process's counters. One that exits while it is read is
    /// left out.
    pub fn now() -> Sample {
        let Ok(entries) = std::fs::read_dir("/proc") else { return Sample::default() };
        let processes = entries.filter_map(|entry| {
            let pid: u32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let (comm, ticks) = parse_stat(&stat)?;
            Some((pid, (Program::of(pid, comm)?, ticks)))
        });
        Sample(processes.collect())
    }

    /// CPU seconds each program spent since `before`. A process started
    /// since counts from zero; one that exited since is not counted.
    pub fn since(&self, before: &Sample) -> HashMap<Program, f64> {
        let mut spent = HashMap::new();
        for (pid, (program, ticks)) in &self.0 {
            let start = before.0.get(pid).filter(|(p, _)| p == program).map_or(0, |(_, t)| *t);
            *spent.entry(*program).or_default() += ticks.saturating_sub(start) as f64 / TICKS_A_SECOND;
        }
        spent
    }
}

/// The name and the CPU ticks (`utime + stime`) in a `/proc/<pid>/stat`
/// line. The name is between the first `(` and the last `)`: it may hold
/// either.
fn parse_stat(stat: &str) -> Option<(&str, u64)> {
    let (open, close) = (stat.find('(')?, stat.rfind(')')?);
    let comm = stat.get(open + 1..close)?;
    let mut fields = stat.get(close + 1..)?.split_whitespace();
    // After the name: state, ppid, …, utime (12th), stime (13th).
    let utime: u64 = fields.nth(11)?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some((comm, utime + stime))
}

/// How many cores this machine has.
fn cores() -> f64 {
    std::thread::available_parallelism().map_or(1.0, |n| n.get() as f64)
}

/// Prints, per program, the CPU each of `readings` cost in each run
/// (`spent`, CPU seconds per program and run), then the rate the machine's
/// cores allow at that cost, fully busy: with every program's, and with
/// only the test's own (Tansu, Mosquitto, wm-bench), as if w-meter and
/// PostgreSQL took none.
pub fn report(what: &str, spent: &[HashMap<Program, f64>], readings: u32) {
    for program in Program::ALL {
        let each: Vec<f64> = spent.iter().map(|s| micros_a_reading(s, &[program], readings)).collect();
        report::row(&format!("… CPU a reading, {what}: {}", program.name()), "µs", &each, None, false, "—");
    }
    let cores = cores();
    let allowed = |programs: &[Program]| -> Vec<f64> {
        spent.iter().map(|s| rate_allowed(cores, micros_a_reading(s, programs, readings))).collect()
    };
    let (all, test) = (allowed(&Program::ALL), allowed(&[Program::Tansu, Program::Mosquitto, Program::Bench]));
    let what_all = format!("… the rate {cores} cores allow at that CPU, {what}");
    report::row(&what_all, "events/s", &all, None, true, "≥ 30,000/s");
    report::row(&format!("… the same if w-meter and PostgreSQL took none, {what}"), "events/s", &test, None, true, "—");
}

/// The CPU `programs` spent together per reading, in µs.
fn micros_a_reading(spent: &HashMap<Program, f64>, programs: &[Program], readings: u32) -> f64 {
    programs.iter().map(|p| spent.get(p).copied().unwrap_or_default()).sum::<f64>() * 1e6 / f64::from(readings)
}

/// Readings a second that `cores` allow, fully busy, at `micros` each.
fn rate_allowed(cores: f64, micros: f64) -> f64 {
    if micros > 0.0 { cores * 1e6 / micros } else { f64::NAN }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_gives_its_name_and_ticks_even_with_spaces_and_parentheses_in_the_name() {
        let line = "4242 (tokio (rt) w) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 9 0 1 0 0";
        assert_eq!(parse_stat(line), Some(("tokio (rt) w", 325)));
        assert_eq!(parse_stat("4242 (cut short) S 1 2"), None);
    }

    #[test]
    fn processes_are_told_apart_by_name_and_this_one_is_the_bench() {
        assert_eq!(Program::of(1, "postgres"), Some(Program::Postgres));
        assert_eq!(Program::of(1, "wmeter-base"), Some(Program::Wmeter));
        assert_eq!(Program::of(1, "bash"), None);
        assert_eq!(Program::of(std::process::id(), "anything"), Some(Program::Bench));
    }

    #[test]
    fn the_cpu_a_reading_and_the_rate_it_allows() {
        let spent = HashMap::from([(Program::Wmeter, 1.5), (Program::Postgres, 2.5), (Program::Tansu, 1.0)]);
        assert_eq!(micros_a_reading(&spent, &[Program::Wmeter], 100_000), 15.0);
        assert_eq!(micros_a_reading(&spent, &Program::ALL, 100_000), 50.0);
        assert_eq!(micros_a_reading(&spent, &[Program::Mosquitto], 100_000), 0.0);
        assert_eq!(rate_allowed(2.0, 50.0), 40_000.0);
        assert!(rate_allowed(2.0, 0.0).is_nan());
    }

    #[test]
    fn this_process_s_own_time_is_read_and_grows() {
        let before = Sample::now();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let mut x = 0u64;
        let spent = loop {
            for _ in 0..1_000_000 {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
            let spent = Sample::now().since(&before).get(&Program::Bench).copied().unwrap_or_default();
            if spent >= 0.02 || std::time::Instant::now() > deadline {
                break spent;
            }
        };
        assert!(spent >= 0.02, "10 s of a busy loop read as {spent} s of CPU");
    }
}
