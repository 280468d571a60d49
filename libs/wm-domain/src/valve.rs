//! How far a valve command got. Telemetry ingest decides the moves
//! (`domain::valve` there); the registry mirrors the latest command's status
//! on its meter. A status only moves forward: pending → sent → acked,
//! failed or timed-out.

crate::statuses! {
    /// Where a valve command stands.
    pub enum ValveStatus {
        /// Queued, not yet handed to the broker.
        Pending => "pending",
        /// Handed to the broker for the gateway.
        Sent => "sent",
        /// The gateway closed the valve.
        Acked => "acked",
        /// The gateway could not close it.
        Failed => "failed",
        /// No ack came in time.
        TimedOut => "timed-out",
    }
}

impl ValveStatus {
    /// The statuses a command may move to this one from.
    pub fn reached_from(self) -> &'static [ValveStatus] {
        match self {
            ValveStatus::Pending => &[],
            ValveStatus::Sent => &[ValveStatus::Pending],
            ValveStatus::Acked | ValveStatus::Failed | ValveStatus::TimedOut => {
                &[ValveStatus::Pending, ValveStatus::Sent]
            }
        }
    }

    /// The status a gateway's ack settles a command in.
    pub fn acknowledged(ok: bool) -> ValveStatus {
        if ok { ValveStatus::Acked } else { ValveStatus::Failed }
    }

    /// Whether the command is over: acked, failed or timed out.
    pub fn is_settled(self) -> bool {
        matches!(self, ValveStatus::Acked | ValveStatus::Failed | ValveStatus::TimedOut)
    }

    /// Whether an operator may send the command again.
    pub fn may_resend(self) -> bool {
        matches!(self, ValveStatus::Failed | ValveStatus::TimedOut)
    }

    /// `next` if a command may move there from this status, else this one.
    pub fn moved_to(self, next: ValveStatus) -> ValveStatus {
        if next.reached_from().contains(&self) { next } else { self }
    }
}

#[cfg(test)]
mod tests {
    use super::ValveStatus;

    #[test]
    fn statuses_read_back_from_their_words_and_only_move_forward() {
        for status in ValveStatus::ALL {
            assert_eq!(status.as_str().parse(), Ok(*status));
        }
        assert_eq!("timed-out".parse(), Ok(ValveStatus::TimedOut));
        assert!("closed".parse::<ValveStatus>().is_err());
        assert_eq!(ValveStatus::Sent.moved_to(ValveStatus::TimedOut), ValveStatus::TimedOut);
        assert_eq!(ValveStatus::Acked.moved_to(ValveStatus::TimedOut), ValveStatus::Acked);
        assert_eq!(ValveStatus::TimedOut.moved_to(ValveStatus::Acked), ValveStatus::TimedOut);
        assert!(ValveStatus::Pending.reached_from().is_empty());
        assert!(ValveStatus::TimedOut.may_resend() && !ValveStatus::Acked.may_resend());
    }
}
