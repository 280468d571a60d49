//! Ports for the servers a test or `make bench` starts in another process, which binds
//! them a moment later. A port the kernel hands out for `127.0.0.1:0`
//! comes from its ephemeral range (32768–60999 on Linux), where every
//! outgoing connection's local port comes from too: between the test
//! letting go of it and the server binding it, a connection of another test
//! could take it (seen in CI: a cluster's process exited with "Address
//! already in use"). These come from below that range, where the kernel
//! never picks, each checked free and handed out once per process.

use std::{
    collections::{BTreeSet, hash_map::RandomState},
    hash::BuildHasher,
    net::TcpListener,
    sync::{Mutex, PoisonError},
};

/// The ports handed out, below Linux's default ephemeral range.
const RANGE: std::ops::Range<u16> = 20_000..32_000;

/// A free port of 127.0.0.1 for a server another process will bind.
pub fn for_server() -> u16 {
    static GIVEN: Mutex<BTreeSet<u16>> = Mutex::new(BTreeSet::new());
    let mut given = GIVEN.lock().unwrap_or_else(PoisonError::into_inner);
    let span = u64::from(RANGE.end - RANGE.start);
    for _ in 0..10_000 {
        // A fresh random number each time: RandomState's keys are random.
        let offset = RandomState::new().hash_one(given.len()) % span;
        let port = RANGE.start + u16::try_from(offset).unwrap_or(0);
        if !given.contains(&port) && TcpListener::bind(("127.0.0.1", port)).is_ok() {
            given.insert(port);
            return port;
        }
    }
    panic!("no free port between {} and {}", RANGE.start, RANGE.end);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_is_free_below_the_ephemeral_range_and_never_handed_out_twice() {
        let ports: Vec<u16> = (0..200).map(|_| for_server()).collect();
        assert!(ports.iter().all(|p| RANGE.contains(p)));
        assert_eq!(ports.iter().collect::<BTreeSet<_>>().len(), ports.len());
        assert!(ports.iter().all(|p| TcpListener::bind(("127.0.0.1", *p)).is_ok()));
    }
}
