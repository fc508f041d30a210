//! varc: a compiler toolkit for chess variants.
//!
//! The pipeline, one module per phase: [`syntax`] parses a rules file into a
//! syntax tree, [`lower`] resolves and checks it into a [`model::Variant`],
//! [`diagnostic`] renders errors at the edge.

pub use varc_runtime::model;

pub mod ast;
pub mod bounded;
pub mod codegen;
pub mod diagnostic;
pub mod error;
pub mod fmt;
pub mod load;
pub mod lower;
pub mod lsp;
pub mod output;
pub mod refusal;
pub mod serve;
pub mod syntax;

pub use load::{load_variant, load_variant_from_str, LoadError};
pub mod dump;
pub mod interp;
// Self-play statistics live with the compiler: engines do not need them.
pub mod selfplay;
pub mod tune;
