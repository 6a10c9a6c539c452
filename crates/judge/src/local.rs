//! A Swap2 player of this process as a contestant: it hears the same
//! prompts as a bot program and answers through the bot's side of the
//! protocol, with no process in between (the house bot in `-d` mode and in
//! tests).

use std::convert::Infallible;

use inarow_contest::Fault;
use inarow_core::swap2::Strategy;
use inarow_protocol::koth::bot::{self, Reply, ReplyError};

use crate::referee::{Contestant, answer_fault};

/// A player that always answers, seated under a name.
#[derive(Clone, Debug)]
pub struct Local<S> {
    name: String,
    strategy: S,
}

impl<S> Local<S> {
    /// `strategy` playing as `name`.
    pub fn new(name: &str, strategy: S) -> Local<S> {
        Local {
            name: name.to_string(),
            strategy,
        }
    }
}

impl<S: Strategy<Error = Infallible>> Contestant for Local<S> {
    fn name(&self) -> &str {
        &self.name
    }

    fn ask(&mut self, prompt: &str) -> Result<String, Fault> {
        match bot::reply(&mut self.strategy, prompt) {
            Ok(Reply::Answer(answer)) => Ok(answer),
            Ok(Reply::Exit) => Err(Fault::Eof),
            Err(ReplyError::Prompt(e)) => Err(answer_fault(e)),
            Err(ReplyError::Strategy(never)) => match never {},
        }
    }

    fn exit(&mut self, _line: &str) {}

    fn finish(&mut self) {}
}
