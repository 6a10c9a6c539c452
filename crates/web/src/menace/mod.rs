//! The MENACE room: one machine shared by every viewer, a game a person
//! plays by clicking, and training against a chosen opponent.
//!
//! The game and the learning are `inarow-menace`'s [`Session`]; this module
//! only keeps what the page needs to draw (the game on show with the box
//! and bead behind each move, the learning curve) and does no I/O.
//!
//! - [`room`]: the shared machine, the game on show and the trainer.
//! - [`opponent`]: who plays O when MENACE trains on its own.
//! - [`view`]: the JSON the page draws.
//! - [`refusal`]: why a move from the page was refused.
//!
//! [`Session`]: inarow_menace::Session

pub mod opponent;
pub mod refusal;
pub mod room;
pub mod view;

pub use opponent::Opponent;
pub use refusal::MoveError;
pub use room::Room;
pub use view::Step;
