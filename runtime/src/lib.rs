//! The runtime shared by varc's reference interpreter and the engines it
//! generates: the variant model, positions, moves, notation and game rules.

pub mod model;
