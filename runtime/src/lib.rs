//! The runtime shared by varc's reference interpreter and the engines it
//! generates: the variant model, positions, moves, notation and game rules.

pub mod board;
pub mod erased;
pub mod eval;
pub mod fen;
pub mod game;
pub mod hands;
pub mod input;
pub mod model;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod rules;
pub mod search;
pub mod uci;
pub mod weights;
pub mod xboard;
