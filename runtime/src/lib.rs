//! The runtime shared by varc's reference interpreter and the engines it
//! generates: the variant model, positions, moves, notation and game rules.

pub mod model;
pub mod fen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod rules;
