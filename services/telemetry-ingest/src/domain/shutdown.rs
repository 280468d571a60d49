//! The shutdown-request aggregate. A gateway asks, for one of its meters,
//! that the valve be closed (`ShutdownRequested`, from its uplink); an
//! operator confirms or rejects the request, once (`ShutdownAnswered`).

use wm_proto::{
    Payload,
    v1::{ShutdownAnswerStatus, ShutdownAnswered},
};

wm_domain::statuses! {
    /// Where a request stands.
    pub enum Status {
        /// Waiting for an operator's answer.
        Requested => "requested",
        /// The valve is to be closed and the meter is down.
        Confirmed => "confirmed",
        /// The valve stays open.
        Rejected => "rejected",
    }
}

/// An operator's answer to a pending request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Confirm,
    Reject,
}

impl Answer {
    /// The answer the API's `status` names: `confirmed` or `rejected`.
    pub fn parse(status: &str) -> Option<Answer> {
        match status.parse() {
            Ok(Status::Confirmed) => Some(Answer::Confirm),
            Ok(Status::Rejected) => Some(Answer::Reject),
            _ => None,
        }
    }

    /// The status the request has once answered.
    pub fn status(self) -> Status {
        match self {
            Answer::Confirm => Status::Confirmed,
            Answer::Reject => Status::Rejected,
        }
    }

    /// The audit trail's name for giving this answer.
    pub fn action(self) -> &'static str {
        match self {
            Answer::Confirm => "shutdown.confirm",
            Answer::Reject => "shutdown.reject",
        }
    }
}

/// A meter's shutdown request, as its events left it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShutdownRequest {
    pub request_id: String,
    pub meter_id: String,
    /// The gateway that relayed the request.
    pub gateway_id: String,
    pub status: Status,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// The operator `by` (a user id) answers the request.
    Answer { answer: Answer, by: String },
}

/// Why an answer was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShutdownError {
    #[error("the meter has no shutdown request")]
    NotFound,
    /// Only a `requested` request may be answered.
    #[error("the shutdown request was already {0}")]
    NotPending(Status),
}

/// Decides `command` against the request `state`.
pub fn decide(state: Option<&ShutdownRequest>, command: Command) -> Result<Vec<Payload>, ShutdownError> {
    let Some(request) = state else { return Err(ShutdownError::NotFound) };
    match command {
        Command::Answer { .. } if request.status != Status::Requested => Err(ShutdownError::NotPending(request.status)),
        Command::Answer { answer, by } => {
            let status = match answer {
                Answer::Confirm => ShutdownAnswerStatus::Confirmed,
                Answer::Reject => ShutdownAnswerStatus::Rejected,
            };
            Ok(vec![Payload::ShutdownAnswered(ShutdownAnswered {
                meter_id: request.meter_id.clone(),
                request_id: request.request_id.clone(),
                status: status.into(),
                answered_by: by,
            })])
        }
    }
}

/// Folds one event into the request. A request is answered once: a second
/// answer changes nothing, whatever order a rebuild sees them in.
pub fn apply(state: Option<ShutdownRequest>, event: &Payload) -> Option<ShutdownRequest> {
    match event {
        Payload::ShutdownRequested(e) => state.or_else(|| {
            Some(ShutdownRequest {
                request_id: e.request_id.clone(),
                meter_id: e.meter_id.clone(),
                gateway_id: e.gateway_id.clone(),
                status: Status::Requested,
            })
        }),
        Payload::ShutdownAnswered(e) => state.map(|mut request| {
            if request.status == Status::Requested && request.request_id == e.request_id {
                request.status = match e.status() {
                    ShutdownAnswerStatus::Confirmed => Status::Confirmed,
                    _ => Status::Rejected,
                };
            }
            request
        }),
        _ => state,
    }
}

#[cfg(test)]
mod tests {
    use wm_proto::v1::ShutdownRequested;

    use super::*;

    fn requested() -> Vec<Payload> {
        vec![Payload::ShutdownRequested(ShutdownRequested {
            meter_id: "m1".into(),
            gateway_id: "g1".into(),
            request_id: "r1".into(),
            message_id: 7,
        })]
    }

    fn state(events: &[Payload]) -> Option<ShutdownRequest> {
        events.iter().fold(None, apply)
    }

    fn answer(answer: Answer) -> Command {
        Command::Answer { answer, by: "u1".into() }
    }

    #[test]
    fn given_a_request_when_confirmed_then_it_is_answered_once_by_its_operator() {
        let given = requested();
        let when = decide(state(&given).as_ref(), answer(Answer::Confirm)).unwrap();
        let Payload::ShutdownAnswered(answered) = &when[0] else { panic!("{when:?}") };
        assert_eq!((answered.request_id.as_str(), answered.answered_by.as_str()), ("r1", "u1"));
        assert_eq!(answered.status(), ShutdownAnswerStatus::Confirmed);
        let then = state(&[given, when].concat()).unwrap();
        assert_eq!(then.status, Status::Confirmed);
    }

    #[test]
    fn given_a_rejected_request_when_answered_again_then_it_is_not_pending() {
        let given = requested();
        let rejected = decide(state(&given).as_ref(), answer(Answer::Reject)).unwrap();
        let given = [given, rejected].concat();
        assert_eq!(state(&given).unwrap().status, Status::Rejected);
        for again in [Answer::Confirm, Answer::Reject] {
            assert_eq!(decide(state(&given).as_ref(), answer(again)), Err(ShutdownError::NotPending(Status::Rejected)));
        }
    }

    #[test]
    fn given_no_request_when_answered_then_there_is_nothing_to_answer() {
        assert_eq!(decide(None, answer(Answer::Confirm)), Err(ShutdownError::NotFound));
    }

    #[test]
    fn given_an_answered_request_when_a_second_answer_is_replayed_then_the_first_stands() {
        let given = requested();
        let confirmed = decide(state(&given).as_ref(), answer(Answer::Confirm)).unwrap();
        let rejected = decide(state(&given).as_ref(), answer(Answer::Reject)).unwrap();
        let then = state(&[given, confirmed, rejected].concat()).unwrap();
        assert_eq!(then.status, Status::Confirmed);
    }

    #[test]
    fn statuses_and_answers_read_back_from_their_words() {
        for status in [Status::Requested, Status::Confirmed, Status::Rejected] {
            assert_eq!(status.as_str().parse(), Ok(status));
        }
        assert!("pending".parse::<Status>().is_err());
        assert_eq!(Answer::parse("confirmed"), Some(Answer::Confirm));
        assert_eq!(Answer::parse("rejected"), Some(Answer::Reject));
        assert_eq!(Answer::parse("requested"), None, "a request cannot be answered with itself");
        assert_eq!(Answer::Confirm.action(), "shutdown.confirm");
    }
}
