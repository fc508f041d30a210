//! The model as a Rust expression: generated engines build their
//! [`Variant`] from Rust values, checked by rustc when the engine is built,
//! rather than parsing data at start-up.
//!
//! The expression is written by a small [`serde::Serializer`] over the
//! model's `Serialize` derive, so a new field or variant of the model needs
//! no change here. serde says the names of structs, enums, variants and
//! fields; values become literals:
//!
//! | serde                 | Rust                                                 |
//! |-----------------------|------------------------------------------------------|
//! | struct                | `varc_runtime::model::Name { field: value, .. }`     |
//! | newtype, tuple struct | `varc_runtime::model::Name(value, ..)`               |
//! | enum variant          | `varc_runtime::model::Enum::Variant`, `(..)`, `{..}` |
//! | sequence              | `Vec::from([..])`, `Vec::new()`                      |
//! | tuple (and array)     | `(a, b)`                                             |
//! | option                | `None`, `Some(value)`                                |
//! | string                | `String::from("..")`                                 |
//! | integer, float        | suffixed literal: `5u8`, `-1i8`, `0.5f64`            |
//! | `u64`, `i64`          | unsuffixed literal: `3`                              |
//!
//! serde writes a `usize` as a `u64` (and an `isize` as an `i64`), and the
//! model's indices ([`PieceId`](varc_runtime::model::PieceId) and the others)
//! are `usize`: so those two have no suffix, and the field or element they
//! fill gives their type. All other integers are suffixed, so that no
//! literal falls back to `i32`.
//!
//! Sequences are not `vec![..]`: prettyplease does not format the inside of
//! a macro, and the literal is read in the golden snapshot of generated code.
//!
//! serde does not say which fields are boxed (`Box<T>` serializes as `T`)
//! nor whether a tuple is an array. So every struct, enum or tuple that
//! fills a field (of a struct, of an enum variant, of a newtype) is written
//! `varc_runtime::model::into_field(value)`, and the field's type picks the
//! conversion: the identity, `Box::new`, or a tuple into an array. Inside a
//! sequence, an option or a tuple, values are written as they are: a
//! `Vec<Box<T>>`, `Option<Box<T>>` or `Vec<[T; N]>` in the model would not
//! compile, and the round trip test (`tests/codegen_model.rs`) would say so.
//! Maps have no literal here (the model has none) and are an error, as are
//! floats that are not finite and fields serde skips.

use super::names;
use super::CodegenError;
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use serde::ser::{self, Serialize};
use std::fmt;
use varc_runtime::model::Variant;

/// A Rust expression that builds `variant` (for generated code):
/// `varc_runtime::model::Variant { ... }`.
pub fn model_expression(variant: &Variant) -> Result<TokenStream, CodegenError> {
    expression(variant)
}

/// A Rust expression that builds `value`, a value of the model's types.
fn expression<T: Serialize + ?Sized>(value: &T) -> Result<TokenStream, CodegenError> {
    value
        .serialize(LiteralSerializer)
        .map(|emitted| emitted.tokens)
        .map_err(|LiteralError(message)| CodegenError::Serialize(message))
}

/// An expression, and whether it may need a conversion to fill a field.
struct Emitted {
    tokens: TokenStream,
    /// A struct, an enum or a tuple: the field may be a `Box` of it, or an
    /// array for a tuple.
    converts: bool,
}

impl Emitted {
    fn plain(tokens: TokenStream) -> Emitted {
        Emitted {
            tokens,
            converts: false,
        }
    }

    fn compound(tokens: TokenStream) -> Emitted {
        Emitted {
            tokens,
            converts: true,
        }
    }

    /// The expression as the value of a field.
    fn into_field(self) -> TokenStream {
        let tokens = self.tokens;
        if self.converts {
            quote!(varc_runtime::model::into_field(#tokens))
        } else {
            tokens
        }
    }
}

/// Why a value has no literal.
#[derive(Debug)]
struct LiteralError(String);

impl fmt::Display for LiteralError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LiteralError {}

impl ser::Error for LiteralError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        LiteralError(message.to_string())
    }
}

/// The path of a type of the model.
fn model_path(type_name: &str) -> TokenStream {
    let name = names::ident(type_name);
    quote!(varc_runtime::model::#name)
}

/// The path of an enum's variant.
fn variant_path(enum_name: &str, variant: &str) -> TokenStream {
    let path = model_path(enum_name);
    let variant = names::ident(variant);
    quote!(#path::#variant)
}

fn float(value: f64, literal: fn(f64) -> Literal) -> Result<Emitted, LiteralError> {
    if !value.is_finite() {
        return Err(LiteralError(format!(
            "the float {value} has no Rust literal"
        )));
    }
    let literal = literal(value);
    Ok(Emitted::plain(quote!(#literal)))
}

/// Writes Rust syntax for the values it is given.
struct LiteralSerializer;

macro_rules! integer {
    ($($method:ident: $type:ty => $literal:ident,)*) => {
        $(fn $method(self, value: $type) -> Result<Emitted, LiteralError> {
            let literal = Literal::$literal(value);
            Ok(Emitted::plain(quote!(#literal)))
        })*
    };
}

impl ser::Serializer for LiteralSerializer {
    type Ok = Emitted;
    type Error = LiteralError;
    type SerializeSeq = Sequence;
    type SerializeTuple = Tuple;
    type SerializeTupleStruct = TupleStruct;
    type SerializeTupleVariant = TupleStruct;
    type SerializeMap = ser::Impossible<Emitted, LiteralError>;
    type SerializeStruct = Struct;
    type SerializeStructVariant = Struct;

    integer! {
        serialize_i8: i8 => i8_suffixed,
        serialize_i16: i16 => i16_suffixed,
        serialize_i32: i32 => i32_suffixed,
        serialize_i64: i64 => i64_unsuffixed,
        serialize_i128: i128 => i128_suffixed,
        serialize_u8: u8 => u8_suffixed,
        serialize_u16: u16 => u16_suffixed,
        serialize_u32: u32 => u32_suffixed,
        serialize_u64: u64 => u64_unsuffixed,
        serialize_u128: u128 => u128_suffixed,
    }

    fn serialize_bool(self, value: bool) -> Result<Emitted, LiteralError> {
        Ok(Emitted::plain(quote!(#value)))
    }

    fn serialize_f32(self, value: f32) -> Result<Emitted, LiteralError> {
        // Widening is exact, and the f32 literal of the result is the value.
        float(f64::from(value), |v| Literal::f32_suffixed(v as f32))
    }

    fn serialize_f64(self, value: f64) -> Result<Emitted, LiteralError> {
        float(value, Literal::f64_suffixed)
    }

    fn serialize_char(self, value: char) -> Result<Emitted, LiteralError> {
        let literal = Literal::character(value);
        Ok(Emitted::plain(quote!(#literal)))
    }

    fn serialize_str(self, value: &str) -> Result<Emitted, LiteralError> {
        let literal = names::string_literal(value);
        Ok(Emitted::plain(quote!(String::from(#literal))))
    }

    fn serialize_bytes(self, value: &[u8]) -> Result<Emitted, LiteralError> {
        let bytes = value
            .iter()
            .map(|b| {
                let literal = Literal::u8_suffixed(*b);
                quote!(#literal)
            })
            .collect();
        Ok(vector(bytes))
    }

    fn serialize_none(self) -> Result<Emitted, LiteralError> {
        Ok(Emitted::plain(quote!(None)))
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Emitted, LiteralError> {
        let inner = value.serialize(LiteralSerializer)?.tokens;
        Ok(Emitted::plain(quote!(Some(#inner))))
    }

    fn serialize_unit(self) -> Result<Emitted, LiteralError> {
        Ok(Emitted::plain(quote!(())))
    }

    fn serialize_unit_struct(self, name: &'static str) -> Result<Emitted, LiteralError> {
        Ok(Emitted::compound(model_path(name)))
    }

    fn serialize_unit_variant(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Emitted, LiteralError> {
        Ok(Emitted::compound(variant_path(name, variant)))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Emitted, LiteralError> {
        let path = model_path(name);
        let inner = value.serialize(LiteralSerializer)?.into_field();
        Ok(Emitted::compound(quote!(#path(#inner))))
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Emitted, LiteralError> {
        let path = variant_path(name, variant);
        let inner = value.serialize(LiteralSerializer)?.into_field();
        Ok(Emitted::compound(quote!(#path(#inner))))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Sequence, LiteralError> {
        Ok(Sequence(Vec::with_capacity(len.unwrap_or(0))))
    }

    fn serialize_tuple(self, len: usize) -> Result<Tuple, LiteralError> {
        Ok(Tuple(Vec::with_capacity(len)))
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<TupleStruct, LiteralError> {
        Ok(TupleStruct {
            path: model_path(name),
            fields: Vec::with_capacity(len),
        })
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<TupleStruct, LiteralError> {
        Ok(TupleStruct {
            path: variant_path(name, variant),
            fields: Vec::with_capacity(len),
        })
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, LiteralError> {
        Err(LiteralError(
            "a map has no Rust literal here (the model has no map field)".to_string(),
        ))
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Struct, LiteralError> {
        Ok(Struct {
            path: model_path(name),
            fields: Vec::with_capacity(len),
        })
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Struct, LiteralError> {
        Ok(Struct {
            path: variant_path(name, variant),
            fields: Vec::with_capacity(len),
        })
    }
}

/// A `Vec` of `elements`.
fn vector(elements: Vec<TokenStream>) -> Emitted {
    if elements.is_empty() {
        Emitted::plain(quote!(Vec::new()))
    } else {
        Emitted::plain(quote!(Vec::from([#(#elements),*])))
    }
}

/// The elements of a `Vec`.
struct Sequence(Vec<TokenStream>);

impl ser::SerializeSeq for Sequence {
    type Ok = Emitted;
    type Error = LiteralError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), LiteralError> {
        self.0.push(value.serialize(LiteralSerializer)?.tokens);
        Ok(())
    }

    fn end(self) -> Result<Emitted, LiteralError> {
        Ok(vector(self.0))
    }
}

/// The elements of a tuple `(a, b)`.
struct Tuple(Vec<TokenStream>);

impl ser::SerializeTuple for Tuple {
    type Ok = Emitted;
    type Error = LiteralError;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), LiteralError> {
        self.0.push(value.serialize(LiteralSerializer)?.tokens);
        Ok(())
    }

    fn end(self) -> Result<Emitted, LiteralError> {
        let elements = self.0;
        // A trailing comma, so that a one-element tuple stays a tuple.
        Ok(Emitted::compound(quote!((#(#elements,)*))))
    }
}

/// A tuple struct or tuple variant: `Path(a, b)`, each field converted.
struct TupleStruct {
    path: TokenStream,
    fields: Vec<TokenStream>,
}

impl TupleStruct {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), LiteralError> {
        self.fields
            .push(value.serialize(LiteralSerializer)?.into_field());
        Ok(())
    }

    fn finish(self) -> Emitted {
        let TupleStruct { path, fields } = self;
        Emitted::compound(quote!(#path(#(#fields),*)))
    }
}

impl ser::SerializeTupleStruct for TupleStruct {
    type Ok = Emitted;
    type Error = LiteralError;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), LiteralError> {
        self.push(value)
    }

    fn end(self) -> Result<Emitted, LiteralError> {
        Ok(self.finish())
    }
}

impl ser::SerializeTupleVariant for TupleStruct {
    type Ok = Emitted;
    type Error = LiteralError;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), LiteralError> {
        self.push(value)
    }

    fn end(self) -> Result<Emitted, LiteralError> {
        Ok(self.finish())
    }
}

/// A struct or struct variant: `Path { field: value, .. }`, each value
/// converted.
struct Struct {
    path: TokenStream,
    fields: Vec<TokenStream>,
}

impl Struct {
    fn push<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), LiteralError> {
        let name = names::ident(key);
        let value = value.serialize(LiteralSerializer)?.into_field();
        self.fields.push(quote!(#name: #value));
        Ok(())
    }

    fn skipped(&self, key: &'static str) -> LiteralError {
        let path = &self.path;
        LiteralError(format!(
            "serde skips the field `{key}` of `{path}`: its literal would lack it"
        ))
    }

    fn finish(self) -> Emitted {
        let Struct { path, fields } = self;
        Emitted::compound(quote!(#path { #(#fields),* }))
    }
}

impl ser::SerializeStruct for Struct {
    type Ok = Emitted;
    type Error = LiteralError;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), LiteralError> {
        self.push(key, value)
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), LiteralError> {
        Err(self.skipped(key))
    }

    fn end(self) -> Result<Emitted, LiteralError> {
        Ok(self.finish())
    }
}

impl ser::SerializeStructVariant for Struct {
    type Ok = Emitted;
    type Error = LiteralError;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), LiteralError> {
        self.push(key, value)
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), LiteralError> {
        Err(self.skipped(key))
    }

    fn end(self) -> Result<Emitted, LiteralError> {
        Ok(self.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use varc_runtime::model::*;

    /// The expression of `value`, as `quote!` would print it.
    fn text<T: Serialize>(value: &T) -> String {
        expression(value).expect("has a literal").to_string()
    }

    fn same(value: impl Serialize, expected: TokenStream) {
        assert_eq!(text(&value), expected.to_string());
    }

    #[test]
    fn every_bundled_variant_is_a_variant_expression() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
        let mut count = 0;
        for entry in std::fs::read_dir(&dir).expect("variants/ exists") {
            let path = entry.expect("entry").path();
            if path.extension().is_none_or(|x| x != "rules") {
                continue;
            }
            let variant = crate::load_variant(&path)
                .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.render()));
            let tokens = model_expression(&variant).expect("has a literal");
            let expr: syn::Expr = syn::parse2(tokens)
                .unwrap_or_else(|e| panic!("{}: not an expression: {e}", path.display()));
            let syn::Expr::Struct(literal) = expr else {
                panic!("{}: not a struct literal", path.display());
            };
            let path = &literal.path;
            assert_eq!(
                quote!(#path).to_string().replace(' ', ""),
                "varc_runtime::model::Variant"
            );
            count += 1;
        }
        assert!(count >= 8, "bundled variants: {count}");
    }

    #[test]
    fn integers_are_suffixed_but_usize_and_floats_are_f64() {
        same(5u8, quote!(5u8));
        same(3usize, quote!(3));
        same(u64::MAX, quote!(18446744073709551615));
        same(3u32, quote!(3u32));
        same(-1i8, quote!(-1i8));
        same(0.5f64, quote!(0.5f64));
        same(1.0f64, quote!(1f64));
        same(true, quote!(true));
        same('x', quote!('x'));
    }

    #[test]
    fn strings_are_escaped_literals() {
        same("say \"hi\"\n", quote!(String::from("say \"hi\"\n")));
        let hostile = "\"); std::process::exit(1); (\"";
        let tokens = expression(hostile).expect("has a literal");
        let idents: Vec<String> = tokens
            .into_iter()
            .filter_map(|t| match t {
                proc_macro2::TokenTree::Ident(i) => Some(i.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(idents, ["String", "from"]);
    }

    #[test]
    fn sequences_tuples_and_options() {
        same(vec![(1i8, -2i8)], quote!(Vec::from([(1i8, -2i8,)])));
        same(Vec::<u32>::new(), quote!(Vec::new()));
        same(Some(3u8), quote!(Some(3u8)));
        same(None::<u8>, quote!(None));
    }

    #[test]
    fn struct_fields_that_are_structs_enums_or_tuples_are_converted() {
        same(
            Square::new(4, 1),
            quote!(varc_runtime::model::Square {
                file: 4u8,
                rank: 1u8
            }),
        );
        same(
            CastlingSide {
                king_file: 6,
                rook_file: 5,
            },
            quote!(varc_runtime::model::CastlingSide {
                king_file: 6u8,
                rook_file: 5u8
            }),
        );
        same(
            MoveAtom {
                motion: Motion::Ride { max: Some(2) },
                directions: vec![(0, 1)],
                mode: MoveMode::MoveOnly,
                condition: AtomCondition::InRegion(1),
                limits: Default::default(),
            },
            quote!(varc_runtime::model::MoveAtom {
                motion: varc_runtime::model::into_field(varc_runtime::model::Motion::Ride {
                    max: Some(2u8)
                }),
                directions: Vec::from([(0i8, 1i8,)]),
                mode: varc_runtime::model::into_field(varc_runtime::model::MoveMode::MoveOnly),
                condition: varc_runtime::model::into_field(
                    varc_runtime::model::AtomCondition::InRegion(1)
                ),
                limits: varc_runtime::model::into_field(varc_runtime::model::AtomLimits {
                    along: None,
                    not_over: Vec::new(),
                    not_capturing: Vec::new(),
                    not_from_check: false
                })
            }),
        );
    }

    #[test]
    fn boxed_payloads_and_arrays_are_converted() {
        same(
            Condition::Not(Box::new(Condition::InCheck)),
            quote!(varc_runtime::model::Condition::Not(
                varc_runtime::model::into_field(varc_runtime::model::Condition::InCheck)
            )),
        );
        same(
            SquareSet([1, 0, 0, 0]),
            quote!(varc_runtime::model::SquareSet(
                varc_runtime::model::into_field((1, 0, 0, 0,))
            )),
        );
    }

    #[test]
    fn a_hand_made_model_spells_its_values() {
        let variant = tiny_variant();
        let squeeze = |text: &str| text.split_whitespace().collect::<String>();
        let text = squeeze(
            &model_expression(&variant)
                .expect("has a literal")
                .to_string(),
        );
        let model = "varc_runtime::model::";
        for expected in [
            format!("{model}Variant{{id:String::from(\"tiny\"),"),
            format!("board:{model}into_field({model}Board{{files:3u8,ranks:2u8,"),
            "value:Some(2.5f64)".to_string(),
            "directions:Vec::from([(1i8,0i8,),(-1i8,0i8,)])".to_string(),
            format!(
                "condition:{model}into_field({model}Condition::And(\
                 {model}into_field({model}Condition::NoLegalMoves),\
                 {model}into_field({model}Condition::Not(\
                 {model}into_field({model}Condition::InCheck)))))"
            ),
            "en_passant:Vec::from([0])".to_string(),
            "tiebreak:None".to_string(),
            format!(
                "scoring:{model}into_field({model}Scoring::Points{{\
                 win:1f64,draw:0.5f64,loss:0f64,null:0f64}})"
            ),
        ] {
            assert!(text.contains(&expected), "{expected}\nnot in\n{text}");
        }
    }

    #[test]
    fn values_without_a_literal_are_errors() {
        let mut variant = tiny_variant();
        variant.pieces[0].value = Some(f64::NAN);
        let error = model_expression(&variant).expect_err("NaN has no literal");
        assert!(error.to_string().contains("NaN"), "{error}");
        let map: BTreeMap<String, u8> = [("a".to_string(), 1)].into();
        assert!(expression(&map).is_err());
    }

    /// A 3x2 board with one royal piece that stalemate ends.
    fn tiny_variant() -> Variant {
        let stalemate = Condition::And(
            Box::new(Condition::NoLegalMoves),
            Box::new(Condition::Not(Box::new(Condition::InCheck))),
        );
        Variant {
            id: "tiny".into(),
            name: "Tiny".into(),
            board: Board {
                files: 3,
                ranks: 2,
                holes: SquareSet::EMPTY,
            },
            regions: vec![],
            pieces: vec![PieceKind {
                name: "king".into(),
                letter: "K".into(),
                value: Some(2.5),
                endgame_value: None,
                square_bonuses: None,
                mobility_tables: None,
                royal_cover: None,
                royal: true,
                confined: None,
                passes: false,
                moves: vec![MoveAtom {
                    motion: Motion::Leap,
                    directions: vec![(1, 0), (-1, 0)],
                    mode: MoveMode::MoveOrCapture,
                    condition: AtomCondition::Always,
                    limits: Default::default(),
                }],
                betza: "W".into(),
            }],
            start_fen: "k2/2K w - - 0 1".into(),
            promotions: vec![],
            castling: vec![],
            en_passant: vec![0],
            en_passant_zone: None,
            explosion: None,
            counting: Counting {
                limits: vec![
                    CountingLimit {
                        moves: None,
                        from_pieces: false,
                        when: Some(Condition::Material {
                            of: Aggregate::Max,
                            filter: PieceFilter::Only(vec![0]),
                            region: None,
                            comparison: Comparison::GreaterEqual,
                            value: 1,
                        }),
                    },
                    CountingLimit {
                        moves: Some(64),
                        from_pieces: true,
                        when: None,
                    },
                ],
                starts: vec![CountingStart {
                    player: PlayerRef::SideToMove,
                    when: Condition::Not(Box::new(Condition::Counting)),
                }],
            },
            legality: Legality {
                check_rule: CheckRule::RoyalMayNotBeAttacked,
                capture_rule: CaptureRule::Free,
                giving_check: GivingCheck::Allowed,
                royal_facing: RoyalFacing::Allowed,
                history_rules: vec![],
                immobility_illegal: false,
                drops_compulsory: false,
            },
            royal_loss: RoyalLoss::EndsGame,
            counters: vec![],
            ply_reset_events: vec![],
            terminations: vec![Termination {
                label: Some("stalemate".into()),
                condition: stalemate,
                trigger: Trigger::Automatic,
                outcome: Outcome::Draw,
                reason: "stalemate".into(),
                tiebreak_applies: false,
            }],
            awards: vec![],
            agreement: Agreement::Always,
            resignation: Resignation::OpponentWins,
            tiebreak: None,
            scoring: Scoring::Points {
                win: 1.0,
                draw: 0.5,
                loss: 0.0,
                null: 0.0,
            },
            match_rules: vec![],
            evaluation: Default::default(),
            hands: Default::default(),
            first_moves: Default::default(),
            network: None,
            passed_tables: None,
            endgame_scaling: false,
            search: Vec::new(),
        }
    }
}
