//! The variant-specific half of the generated engine: the square-set type,
//! the `Kind` enum, lookup tables, per-kind move reach, attack detection,
//! check and pin masks, promotion zones and the rules data (castling,
//! delayed promotion, succession, Zobrist keys).

use super::geometry::{BitboardWidth, Bits, Component, ComponentMotion};
use super::magic::{self, MagicTable};
use super::names::{ident, string_literal, Names};
use super::plan::{AttackGroup, AttackLine, Plan, PromotionZone};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};
use varc_runtime::model::{
    AtomCondition, CaptureRule, CastlingRequirement, CheckRule, Color, GivingCheck, MoveMode,
    PromotionTiming, RoyalFacing, RoyalLoss, Square,
};
use varc_runtime::search::tt;

/// Emits the variant-specific items.
pub struct EngineEmitter<'p, 'a> {
    plan: &'p Plan<'a>,
    region_names: Vec<Ident>,
    kind_snake: Vec<String>,
    /// Per component: magic lookups (rides on boards of up to 64 squares).
    magics: Vec<Option<MagicTable>>,
}

const COLOR_NAMES: [&str; 2] = ["white", "black"];

impl<'p, 'a> EngineEmitter<'p, 'a> {
    /// An emitter for `plan`.
    pub fn new(plan: &'p Plan<'a>) -> Self {
        let mut names = Names::default();
        let region_names = plan
            .variant
            .regions
            .iter()
            .map(|r| names.screaming("REGION_", &r.name))
            .collect();
        let kind_snake = plan.kinds.iter().map(|k| snake(&k.to_string())).collect();
        let magics = plan
            .components
            .iter()
            .enumerate()
            .map(|(i, c)| match c.motion {
                ComponentMotion::Ride(max)
                    if plan.geometry.width() == BitboardWidth::U64 && c.along.is_none() =>
                {
                    magic::find(
                        &plan.geometry,
                        &c.directions,
                        max,
                        0x6d61_6769_6300_0000 ^ i as u64,
                    )
                }
                _ => None,
            })
            .collect();
        EngineEmitter {
            plan,
            region_names,
            kind_snake,
            magics,
        }
    }

    /// The static data too large to read in the engine's source: the magic
    /// lookups and attack tables (`src/tables.rs`, included by the engine).
    pub fn emit_tables(&self) -> TokenStream {
        let mut out = TokenStream::new();
        for (i, table) in self.magics.iter().enumerate() {
            let Some(table) = table else { continue };
            let name = self.component_fn(i).to_string().to_uppercase();
            let lookups = format_ident!("{}_MAGIC", name);
            let attacks = format_ident!("{}_ATTACKS", name);
            let entries = table.entries.iter().map(|e| {
                let mask = hex(&format!("0x{:016x}", e.mask), "u64");
                let magic = hex(&format!("0x{:016x}", e.magic), "u64");
                let shift = Literal::u32_unsuffixed(e.shift);
                let offset = Literal::u32_unsuffixed(e.offset);
                quote! { Magic { mask: #mask, magic: #magic, shift: #shift, offset: #offset } }
            });
            let values = table
                .attacks
                .iter()
                .map(|a| hex(&format!("0x{a:016x}"), "u64"));
            let count = Self::usize_lit(table.attacks.len());
            let doc = string_literal(&format!(
                " Magic lookups of component {i} ({:?} by {:?}), per square.",
                self.plan.components[i].motion, self.plan.components[i].directions
            ));
            out.extend(quote! {
                #[doc = #doc]
                pub static #lookups: [Magic; SQUARES] = [#(#entries),*];
                /// Its attack sets.
                pub static #attacks: [Bb; #count] = [#(#values),*];
            });
        }
        out
    }

    /// A literal of the square-set type.
    pub fn bb(&self, bits: &Bits) -> TokenStream {
        match self.plan.geometry.width() {
            BitboardWidth::U64 => hex(&format!("0x{:016x}", bits.0[0]), "u64"),
            BitboardWidth::U128 => {
                let value = (bits.0[1] as u128) << 64 | bits.0[0] as u128;
                hex(&format!("0x{value:032x}"), "u128")
            }
            BitboardWidth::Wide => {
                let words = bits.0.iter().map(|w| hex(&format!("0x{w:016x}"), "u64"));
                quote! { SquareSet([#(#words),*]) }
            }
        }
    }

    fn usize_lit(n: usize) -> Literal {
        Literal::usize_unsuffixed(n)
    }

    /// The square code of a piece of `kind` and `color` (the engine core's
    /// `code_of`), as a literal.
    fn piece_code(kind: usize, color: usize) -> TokenStream {
        let code = Literal::u8_unsuffixed((1 + kind * 2 + color) as u8);
        quote! { #code }
    }

    /// `square` as an index into a per-square table. On a board of 64 (or
    /// any power of two) squares, `% SQUARES` is one AND that tells the
    /// compiler the index is in range, so the bounds check goes. `square`
    /// is a variable, so the index needs no parentheses (which rustc would
    /// flag as unused).
    fn square_index(&self, square: &str) -> TokenStream {
        let square = format_ident!("{}", square);
        if self.plan.geometry.squares.is_power_of_two() {
            quote! { #square % SQUARES }
        } else {
            quote! { #square }
        }
    }

    /// Everything variant-specific, in file order, ending with the
    /// engine core's [`CompiledVariant`] impl for the unit struct
    /// `variant_type`; `model` is the expression that builds the model.
    pub fn emit(&self, variant_type: &Ident, model: TokenStream) -> TokenStream {
        let mut out = TokenStream::new();
        out.extend(self.emit_board());
        out.extend(self.emit_kinds());
        out.extend(self.emit_regions());
        out.extend(self.emit_rays());
        out.extend(self.emit_components());
        out.extend(self.emit_reach());
        out.extend(self.emit_attack_tests());
        out.extend(self.emit_safety());
        out.extend(self.emit_generate());
        let rules = self.emit_rules_data();
        out.extend(rules.items);
        out.extend(self.emit_zobrist());
        let RulesData {
            lineages,
            impl_items,
            ..
        } = rules;
        let mailbox = if self.keeps_mailbox() {
            quote! { [u8; SQUARES] }
        } else {
            quote! { NotKept }
        };
        // The evaluation's guards first, both sides', so that their
        // captures are known before the pieces whose mobility they bound.
        let guards = varc_runtime::eval::Evaluator::new(self.plan.variant).guards();
        let is_guard = |kind: usize| kind < 64 && guards >> kind & 1 == 1;
        let kinds = self.plan.kinds.len();
        let visit_order = [true, false].into_iter().flat_map(|guard_group| {
            (0..2).flat_map(move |color| {
                (0..kinds)
                    .filter(move |&kind| is_guard(kind) == guard_group)
                    .map(move |kind| (kind, color))
            })
        });
        let visit_reaches = visit_order.map(|(kind, color)| {
            let k = &self.plan.kinds[kind];
            let c = Self::usize_lit(color);
            let reach = self.reach_fn(kind, color);
            quote! {
                let mut froms = pos.pieces[Kind::#k as usize] & pos.colors[#c];
                while froms != EMPTY {
                    let from = lsb(froms);
                    froms = clear_lsb(froms);
                    visit.reach(Kind::#k as usize, #c, from, #reach(pos, from, occupied));
                }
            }
        });
        let visit_reaches = quote! { #(#visit_reaches)* };
        let guards_literal = hex(&format!("0x{guards:x}"), "u64");
        let doc = string_literal(&format!(" {}, compiled.", self.plan.variant.name));
        let counters = Self::usize_lit(self.plan.variant.counter_slots());
        // A hand is kept only where the variant has hands: a count per kind.
        let hand_kinds = Self::usize_lit(if self.plan.variant.hands.in_use() {
            self.plan.kinds.len()
        } else {
            0
        });
        let square_at = self.square_index("square");
        out.extend(quote! {
            #[doc = #doc]
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            pub struct #variant_type;
            /// A position of this variant.
            pub type Pos = varc_engine_core::Pos<#variant_type>;
            /// Check and pin masks of this variant.
            pub type Masks = varc_engine_core::Masks<#variant_type>;
            impl CompiledVariant for #variant_type {
                type Bb = Bb;
                type KindSets = [Bb; KINDS];
                type Codes = #mailbox;
                type PinLines = [Bb; MAX_PINS];
                type PinSquares = [u8; MAX_PINS];
                type Lineages = #lineages;
                type Counters = [u32; #counters];
                type Hand = [u8; #hand_kinds];
                const FILES: usize = FILES;
                const RANKS: usize = RANKS;
                const SQUARES: usize = SQUARES;
                const KINDS: usize = KINDS;
                const BOARD: Bb = BOARD;
                const NO_KIND_SETS: [Bb; KINDS] = [EMPTY; KINDS];
                const NO_PIN_LINES: [Bb; MAX_PINS] = [EMPTY; MAX_PINS];
                const NO_PIN_SQUARES: [u8; MAX_PINS] = [0; MAX_PINS];
                const NO_COUNTERS: [u32; #counters] = [0; #counters];
                const NO_HAND: [u8; #hand_kinds] = [0; #hand_kinds];
                const ROYAL_KINDS: u128 = ROYAL_KINDS;
                const KINDS_FIRST: u64 = #guards_literal;
                #impl_items
                fn model() -> Variant {
                    #model
                }
                #[inline(always)]
                fn zobrist_piece(code: u8, square: usize) -> u64 {
                    ZOBRIST_PIECES[code as usize][#square_at]
                }
                #[inline(always)]
                fn zobrist_unmoved(code: u8, square: usize) -> u64 {
                    ZOBRIST_UNMOVED[code as usize][#square_at]
                }
                #[inline(always)]
                fn reach(kind: usize, color: usize, pos: &Pos, from: usize, occupied: Bb) -> [Bb; 3] {
                    reach(kind, color, pos, from, occupied)
                }
                #[inline(always)]
                fn visit_reaches<F: ReachSink<Bb>>(pos: &Pos, occupied: Bb, visit: &mut F) {
                    #visit_reaches
                }
                #[inline(always)]
                fn is_attacked(pos: &Pos, square: usize, occupied: Bb, color: usize) -> bool {
                    is_attacked(pos, square, occupied, color)
                }
                #[inline(always)]
                fn attackers(pos: &Pos, square: usize, occupied: Bb, color: usize) -> Bb {
                    attackers(pos, square, occupied, color)
                }
                #[inline(always)]
                fn fast_masks(pos: &Pos, masks: &mut Masks) -> bool {
                    fast_masks(pos, masks)
                }
                #[inline(always)]
                fn piece_moves<S: Sink<Bb>>(pos: &Pos, sink: &mut S, masks: &Masks) {
                    if pos.side() == 0 { generate_white(pos, sink, masks) } else { generate_black(pos, sink, masks) }
                }
            }
        });
        out
    }

    fn emit_board(&self) -> TokenStream {
        let g = &self.plan.geometry;
        let files = Self::usize_lit(g.files);
        let ranks = Self::usize_lit(g.ranks);
        let squares = Self::usize_lit(g.squares);
        let board = self.bb(&g.board);
        let bb_type = match g.width() {
            BitboardWidth::U64 => quote! { u64 },
            BitboardWidth::U128 => quote! { u128 },
            BitboardWidth::Wide => quote! { SquareSet },
        };
        quote! {
            /// Files of the board.
            pub const FILES: usize = #files;
            /// Ranks of the board.
            pub const RANKS: usize = #ranks;
            /// Squares of the board rectangle, numbered `rank * FILES + file`.
            pub const SQUARES: usize = #squares;
            /// The square-set type sized to the board.
            pub type Bb = #bb_type;
            /// The empty square set.
            pub const EMPTY: Bb = <Bb as Bitboard>::EMPTY;
            /// The squares of the board (holes excluded).
            pub const BOARD: Bb = #board;
        }
    }

    fn emit_kinds(&self) -> TokenStream {
        let variants = self.plan.kinds.iter().enumerate().map(|(i, k)| {
            let doc = string_literal(&format!(
                " `{}` ({}).",
                self.plan.variant.pieces[i].name, self.plan.variant.pieces[i].letter
            ));
            let value = Literal::u8_unsuffixed(i as u8);
            quote! { #[doc = #doc] #k = #value }
        });
        let all = &self.plan.kinds;
        let count = Self::usize_lit(all.len());
        let royal_kinds: Vec<usize> = (0..all.len())
            .filter(|k| self.plan.variant.pieces[*k].royal)
            .collect();
        let royal_mask = royal_kinds.iter().fold(0u128, |m, k| m | 1 << k);
        let royal_mask = hex(&format!("0x{royal_mask:x}"), "u128");
        quote! {
            /// The piece kinds of the variant.
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            #[repr(u8)]
            pub enum Kind { #(#variants),* }
            impl Kind {
                /// Every kind, in the model's order.
                pub const ALL: [Kind; #count] = [#(Kind::#all),*];
            }
            /// Number of piece kinds.
            pub const KINDS: usize = #count;
            /// Bit `k` set: kind `k` is royal.
            pub const ROYAL_KINDS: u128 = #royal_mask;
        }
    }

    fn emit_regions(&self) -> TokenStream {
        let items = self.plan.regions.iter().enumerate().map(|(i, sides)| {
            let name = &self.region_names[i];
            let white = self.bb(&sides[0]);
            let black = self.bb(&sides[1]);
            let doc = string_literal(&format!(
                " Region `{}` for White and Black.",
                self.plan.variant.regions[i].name
            ));
            quote! { #[doc = #doc] pub const #name: [Bb; 2] = [#white, #black]; }
        });
        quote! { #(#items)* }
    }

    fn emit_rays(&self) -> TokenStream {
        let g = &self.plan.geometry;
        let items = self
            .plan
            .rays
            .iter()
            .enumerate()
            .map(|(i, &(direction, max))| {
                let name = format_ident!("RAY_{}", i);
                let values = (0..g.squares).map(|sq| {
                    let mut bits = Bits::EMPTY;
                    if g.board.contains(sq) {
                        for s in g.ray(sq, direction, max) {
                            bits.insert(s);
                        }
                    }
                    self.bb(&bits)
                });
                let doc = string_literal(&format!(
                    " Ray by ({}, {}){} from each square.",
                    direction.0,
                    direction.1,
                    max.map_or(String::new(), |m| format!(", at most {m} steps"))
                ));
                quote! { #[doc = #doc] static #name: [Bb; SQUARES] = [#(#values),*]; }
            });
        quote! { #(#items)* }
    }

    fn ray_name(&self, direction: (i32, i32), max: Option<u8>) -> Ident {
        format_ident!("RAY_{}", self.plan.ray_index(direction, max))
    }

    fn nearest(&self, direction: (i32, i32), set: TokenStream) -> TokenStream {
        if self.plan.geometry.step_is_positive(direction) {
            quote! { lsb(#set) }
        } else {
            quote! { msb(#set) }
        }
    }

    /// The name of component `i`'s function (forward).
    pub fn component_fn(&self, i: usize) -> Ident {
        let kind = match self.plan.components[i].motion {
            ComponentMotion::Leap => "leap",
            ComponentMotion::Ride(_) => "ride",
            ComponentMotion::LameLeap => "lame_leap",
            ComponentMotion::HopAdjacent => "hop_adjacent",
            ComponentMotion::HopAny => "hop_any",
        };
        format_ident!("{}_{}", kind, i)
    }

    /// The function that finds attackers of a square through component `i`.
    fn reverse_fn(&self, i: usize) -> Ident {
        match self.plan.components[i].motion {
            ComponentMotion::Leap | ComponentMotion::Ride(_) => self.component_fn(i),
            _ => format_ident!("{}_reverse", self.component_fn(i)),
        }
    }

    fn emit_components(&self) -> TokenStream {
        let g = &self.plan.geometry;
        let mut out = TokenStream::new();
        for (i, component) in self.plan.components.iter().enumerate() {
            let name = self.component_fn(i);
            let doc = string_literal(&format!(
                " {:?} by {:?}{}.",
                component.motion,
                component.directions,
                if component.along.is_some() {
                    ", along a region"
                } else {
                    ""
                }
            ));
            let inside = |square: usize| component.along.is_none_or(|a| a.contains(square));
            if let (
                Some(along),
                ComponentMotion::Ride(_) | ComponentMotion::HopAdjacent | ComponentMotion::HopAny,
            ) = (component.along, component.motion)
            {
                out.extend(self.emit_along_lines(i, component, &along, doc));
                continue;
            }
            match component.motion {
                ComponentMotion::Leap => {
                    let table = format_ident!("LEAP_{}", i);
                    let values = (0..g.squares).map(|sq| {
                        let mut bits = Bits::EMPTY;
                        if g.board.contains(sq) && inside(sq) {
                            let (f, r) = g.coords(sq);
                            for &(dx, dy) in &component.directions {
                                if let Some(t) = g.at(f + dx, r + dy).filter(|t| inside(*t)) {
                                    bits.insert(t);
                                }
                            }
                        }
                        self.bb(&bits)
                    });
                    let index = self.square_index("square");
                    out.extend(quote! {
                        static #table: [Bb; SQUARES] = [#(#values),*];
                        #[doc = #doc]
                        #[inline(always)]
                        fn #name(square: usize, _occupied: Bb) -> Bb { #table[#index] }
                    });
                }
                ComponentMotion::Ride(_) if self.magics[i].is_some() => {
                    let upper = name.to_string().to_uppercase();
                    let lookups = format_ident!("{}_MAGIC", upper);
                    let attacks = format_ident!("{}_ATTACKS", upper);
                    let index = self.square_index("square");
                    out.extend(quote! {
                        #[doc = #doc]
                        #[inline(always)]
                        fn #name(square: usize, occupied: Bb) -> Bb {
                            #lookups[#index].attacks(&#attacks, occupied)
                        }
                    });
                }
                ComponentMotion::Ride(max) => {
                    let rays = component.directions.iter().map(|&d| {
                        let limited = self.ray_name(d, max);
                        let full = self.ray_name(d, None);
                        // Branchless: a sentinel on the far corner, whose ray
                        // in this direction is empty, stands in for "no blocker".
                        let nearest = if self.plan.geometry.step_is_positive(d) {
                            quote! { lsb(ray & occupied | Bb::bit(SQUARES - 1)) }
                        } else {
                            quote! { msb(ray & occupied | Bb::bit(0)) }
                        };
                        quote! {
                            let ray = #limited[square];
                            attacks |= ray & !#full[#nearest];
                        }
                    });
                    out.extend(quote! {
                        #[doc = #doc]
                        #[inline(always)]
                        fn #name(square: usize, occupied: Bb) -> Bb {
                            let mut attacks = EMPTY;
                            #({ #rays })*
                            attacks
                        }
                    });
                }
                ComponentMotion::LameLeap => {
                    let count = Self::usize_lit(component.directions.len());
                    let table = format_ident!("LAME_LEAP_{}", i);
                    let reverse_table = format_ident!("LAME_LEAP_{}_REVERSE", i);
                    let reverse = self.reverse_fn(i);
                    let forward_rows = (0..g.squares).map(|sq| {
                        let entries = component.directions.iter().map(|&d| {
                            let (target, path) = if g.board.contains(sq) && inside(sq) {
                                match g.lame_leap(sq, d).filter(|(path, target)| {
                                    inside(*target) && path.iter().all(|s| inside(*s))
                                }) {
                                    Some((path, target)) => (Bits::single(target), set_of(&path)),
                                    None => (Bits::EMPTY, Bits::EMPTY),
                                }
                            } else {
                                (Bits::EMPTY, Bits::EMPTY)
                            };
                            let (t, p) = (self.bb(&target), self.bb(&path));
                            quote! { (#t, #p) }
                        });
                        quote! { [#(#entries),*] }
                    });
                    let reverse_rows = (0..g.squares).map(|sq| {
                        let entries = component.directions.iter().map(|&(dx, dy)| {
                            let (f, r) = g.coords(sq);
                            let found = if g.board.contains(sq) && inside(sq) {
                                g.at(f - dx, r - dy)
                                    .filter(|from| inside(*from))
                                    .and_then(|from| {
                                        g.lame_leap(from, (dx, dy))
                                            .filter(|(path, _)| path.iter().all(|s| inside(*s)))
                                            .map(|(path, _)| (from, path))
                                    })
                            } else {
                                None
                            };
                            let (a, p) = match found {
                                Some((from, path)) => (Bits::single(from), set_of(&path)),
                                None => (Bits::EMPTY, Bits::EMPTY),
                            };
                            let (a, p) = (self.bb(&a), self.bb(&p));
                            quote! { (#a, #p) }
                        });
                        quote! { [#(#entries),*] }
                    });
                    out.extend(quote! {
                        static #table: [[(Bb, Bb); #count]; SQUARES] = [#(#forward_rows),*];
                        static #reverse_table: [[(Bb, Bb); #count]; SQUARES] = [#(#reverse_rows),*];
                        #[doc = #doc]
                        #[inline(always)]
                        fn #name(square: usize, occupied: Bb) -> Bb {
                            let mut attacks = EMPTY;
                            for (target, path) in #table[square].iter() {
                                if *path & occupied == EMPTY { attacks |= *target; }
                            }
                            attacks
                        }
                        /// The squares whose lame leap reaches `square`, path clear.
                        #[inline(always)]
                        fn #reverse(square: usize, occupied: Bb) -> Bb {
                            let mut from = EMPTY;
                            for (origin, path) in #reverse_table[square].iter() {
                                if *path & occupied == EMPTY { from |= *origin; }
                            }
                            from
                        }
                    });
                }
                ComponentMotion::HopAdjacent | ComponentMotion::HopAny => {
                    let adjacent = component.motion == ComponentMotion::HopAdjacent;
                    let reverse = self.reverse_fn(i);
                    let forward = component.directions.iter().map(|&d| {
                        let full = self.ray_name(d, None);
                        let step = self.ray_name(d, Some(1));
                        let nearest = self.nearest(d, quote! { screens });
                        let nearest_beyond = self.nearest(d, quote! { blockers });
                        if adjacent {
                            quote! {
                                let screens = #full[square] & occupied;
                                if screens != EMPTY { attacks |= #step[#nearest]; }
                            }
                        } else {
                            quote! {
                                let screens = #full[square] & occupied;
                                if screens != EMPTY {
                                    let beyond = #full[#nearest];
                                    let blockers = beyond & occupied;
                                    attacks |= if blockers != EMPTY { beyond & !#full[#nearest_beyond] } else { beyond };
                                }
                            }
                        }
                    });
                    let backward = component.directions.iter().map(|&(dx, dy)| {
                        let back = (-dx, -dy);
                        let full = self.ray_name(back, None);
                        let step = self.ray_name(back, Some(1));
                        let nearest_screen = self.nearest(back, quote! { screens });
                        let nearest = self.nearest(back, quote! { beyond });
                        if adjacent {
                            quote! {
                                let screens = #step[square] & occupied;
                                if screens != EMPTY && screens & barred == EMPTY {
                                    let beyond = #full[lsb(screens)] & occupied;
                                    if beyond != EMPTY { from |= Bb::bit(#nearest); }
                                }
                            }
                        } else {
                            quote! {
                                let screens = #full[square] & occupied;
                                if screens != EMPTY {
                                    let screen = #nearest_screen;
                                    let beyond = #full[screen] & occupied;
                                    if beyond != EMPTY && Bb::bit(screen) & barred == EMPTY {
                                        from |= Bb::bit(#nearest);
                                    }
                                }
                            }
                        }
                    });
                    out.extend(quote! {
                        #[doc = #doc]
                        #[inline(always)]
                        fn #name(square: usize, occupied: Bb) -> Bb {
                            let mut attacks = EMPTY;
                            #({ #forward })*
                            attacks
                        }
                    });
                    out.extend(Self::hop_reverse_fn(&reverse, backward));
                }
            }
        }
        out
    }

    /// A ride or hop component `along` a region: its lines cut to the
    /// region, per square and direction (`ALONG_i`, and `ALONG_i_REVERSE`
    /// from the attacked square back for hops), read as the full lines
    /// are read elsewhere.
    fn emit_along_lines(
        &self,
        i: usize,
        component: &Component,
        along: &Bits,
        doc: Literal,
    ) -> TokenStream {
        let g = &self.plan.geometry;
        let name = self.component_fn(i);
        let count = Self::usize_lit(component.directions.len());
        let max = match component.motion {
            ComponentMotion::Ride(max) => max,
            _ => None,
        };
        let lines = |back: bool| {
            let rows = (0..g.squares).map(|sq| {
                let entries = component.directions.iter().map(|&(dx, dy)| {
                    let mut bits = Bits::EMPTY;
                    if g.board.contains(sq) && along.contains(sq) {
                        let d = if back { (-dx, -dy) } else { (dx, dy) };
                        for t in g
                            .ray(sq, d, max)
                            .into_iter()
                            .take_while(|t| along.contains(*t))
                        {
                            bits.insert(t);
                        }
                    }
                    self.bb(&bits)
                });
                quote! { [#(#entries),*] }
            });
            quote! { [#(#rows),*] }
        };
        let table = format_ident!("ALONG_{}", i);
        let forward_rows = lines(false);
        let at = self.square_index("square");
        let forward = component.directions.iter().enumerate().map(|(j, &d)| {
            let j = Self::usize_lit(j);
            let full = self.ray_name(d, None);
            let nearest = self.nearest(d, quote! { blockers });
            match component.motion {
                ComponentMotion::Ride(_) => quote! {
                    let line = #table[#at][#j];
                    let blockers = line & occupied;
                    attacks |= if blockers != EMPTY { line & !#full[#nearest] } else { line };
                },
                ComponentMotion::HopAdjacent => {
                    let step = self.ray_name(d, Some(1));
                    let nearest_screen = self.nearest(d, quote! { screens });
                    quote! {
                        let line = #table[#at][#j];
                        let screens = line & occupied;
                        if screens != EMPTY { attacks |= #step[#nearest_screen] & line; }
                    }
                }
                _ => {
                    let nearest_screen = self.nearest(d, quote! { screens });
                    quote! {
                        let line = #table[#at][#j];
                        let screens = line & occupied;
                        if screens != EMPTY {
                            let beyond = #full[#nearest_screen] & line;
                            let blockers = beyond & occupied;
                            attacks |= if blockers != EMPTY { beyond & !#full[#nearest] } else { beyond };
                        }
                    }
                }
            }
        });
        let mut out = quote! {
            static #table: [[Bb; #count]; SQUARES] = #forward_rows;
            #[doc = #doc]
            #[inline(always)]
            fn #name(square: usize, occupied: Bb) -> Bb {
                let mut attacks = EMPTY;
                #({ #forward })*
                attacks
            }
        };
        if matches!(component.motion, ComponentMotion::Ride(_)) {
            return out;
        }
        let reverse = self.reverse_fn(i);
        let reverse_table = format_ident!("ALONG_{}_REVERSE", i);
        let reverse_rows = lines(true);
        let adjacent = component.motion == ComponentMotion::HopAdjacent;
        let backward = component
            .directions
            .iter()
            .enumerate()
            .map(|(j, &(dx, dy))| {
                let j = Self::usize_lit(j);
                let back = (-dx, -dy);
                let full = self.ray_name(back, None);
                let step = self.ray_name(back, Some(1));
                let nearest_screen = self.nearest(back, quote! { screens });
                let nearest = self.nearest(back, quote! { beyond });
                let screens = if adjacent {
                    quote! { #step[square] & line & occupied }
                } else {
                    quote! { line & occupied }
                };
                quote! {
                    let line = #reverse_table[#at][#j];
                    let screens = #screens;
                    if screens != EMPTY {
                        let screen = #nearest_screen;
                        let beyond = #full[screen] & line & occupied;
                        if beyond != EMPTY && Bb::bit(screen) & barred == EMPTY {
                            from |= Bb::bit(#nearest);
                        }
                    }
                }
            });
        out.extend(quote! {
            static #reverse_table: [[Bb; #count]; SQUARES] = #reverse_rows;
        });
        out.extend(Self::hop_reverse_fn(&reverse, backward));
        out
    }

    /// The function giving the squares from which a hop component reaches
    /// `square` over a screen not in `barred`, one block per direction.
    fn hop_reverse_fn(reverse: &Ident, backward: impl Iterator<Item = TokenStream>) -> TokenStream {
        quote! {
            /// The squares from which a hop of this component reaches
            /// `square`, over a screen not in `barred`.
            #[inline(always)]
            fn #reverse(square: usize, occupied: Bb, barred: Bb) -> Bb {
                let mut from = EMPTY;
                #({ #backward })*
                from
            }
        }
    }

    fn condition_test(
        &self,
        condition: AtomCondition,
        color: usize,
        square: TokenStream,
    ) -> Option<TokenStream> {
        match condition {
            AtomCondition::Always => None,
            AtomCondition::FirstMove => Some(quote! { pos.unmoved & Bb::bit(#square) != EMPTY }),
            AtomCondition::InRegion(region) => {
                let name = &self.region_names[region];
                let c = Self::usize_lit(color);
                Some(quote! { #name[#c] & Bb::bit(#square) != EMPTY })
            }
        }
    }

    fn condition_mask(&self, condition: AtomCondition, color: usize) -> TokenStream {
        match condition {
            AtomCondition::Always => quote! {},
            AtomCondition::FirstMove => quote! { & pos.unmoved },
            AtomCondition::InRegion(region) => {
                let name = &self.region_names[region];
                let c = Self::usize_lit(color);
                quote! { & #name[#c] }
            }
        }
    }

    fn reach_fn(&self, kind: usize, color: usize) -> Ident {
        ident(&format!(
            "reach_{}_{}",
            self.kind_snake[kind], COLOR_NAMES[color]
        ))
    }

    fn emit_reach(&self) -> TokenStream {
        let mut out = TokenStream::new();
        let mut arms = Vec::new();
        for kind in 0..self.plan.kinds.len() {
            for (color, color_name) in COLOR_NAMES.iter().enumerate() {
                let name = self.reach_fn(kind, color);
                let atoms = &self.plan.atoms[kind][color];
                let reads_position = atoms.iter().any(|atom| {
                    matches!(atom.condition, AtomCondition::FirstMove)
                        || atom.has_kind_limits()
                        || atom.not_from_check
                });
                let pos = if reads_position {
                    quote! { pos }
                } else {
                    quote! { _pos }
                };
                let parts = atoms.iter().map(|atom| {
                    let f = self.component_fn(atom.component);
                    let slot = Self::usize_lit(mode_slot(atom.mode));
                    // `not over`: the squares reached both with the barred
                    // screens and without them (a barred screen's hops
                    // lead elsewhere); `not capturing`: less those kinds.
                    let mut targets = quote! { #f(from, occupied) };
                    if !atom.not_over.is_empty() {
                        let barred = self.kinds_union(&atom.not_over);
                        targets = quote! { #targets & #f(from, occupied & !#barred) };
                    }
                    if !atom.not_capturing.is_empty() {
                        let spared = self.kinds_union(&atom.not_capturing);
                        targets = quote! { (#targets) & !#spared };
                    }
                    let mut add = quote! { reach[#slot] |= #targets; };
                    if atom.not_from_check {
                        let c = Self::usize_lit(color);
                        add = quote! { if !pos.royal_attacked(#c) { #add } };
                    }
                    match self.condition_test(atom.condition, color, quote! { from }) {
                        None => add,
                        Some(test) => quote! { if #test { #add } },
                    }
                });
                let doc = string_literal(&format!(
                    " Where a {} {} on `from` can go: `[move or capture, move only, capture only]`.",
                    color_name, self.plan.variant.pieces[kind].name
                ));
                let confine = self.confinement(kind, color).map(|region| {
                    quote! {
                        for slot in &mut reach {
                            *slot &= #region;
                        }
                    }
                });
                let body = if atoms.is_empty() {
                    quote! { let _ = (from, occupied); [EMPTY; 3] }
                } else {
                    quote! {
                        let mut reach = [EMPTY; 3];
                        #(#parts)*
                        #confine
                        reach
                    }
                };
                out.extend(quote! {
                    #[doc = #doc]
                    #[inline(always)]
                    fn #name(#pos: &Pos, from: usize, occupied: Bb) -> [Bb; 3] {
                        #body
                    }
                });
                let k = &self.plan.kinds[kind];
                let c = Self::usize_lit(color);
                arms.push(
                    quote! { (#c, x) if x == Kind::#k as usize => #name(pos, from, occupied), },
                );
            }
        }
        out.extend(quote! {
            /// Where a piece of `kind` and `color` on `from` can go.
            #[inline]
            pub fn reach(kind: usize, color: usize, pos: &Pos, from: usize, occupied: Bb) -> [Bb; 3] {
                match (color, kind) {
                    #(#arms)*
                    _ => [EMPTY; 3],
                }
            }
        });
        out
    }

    fn kinds_union(&self, kinds: &[usize]) -> TokenStream {
        let terms = kinds.iter().map(|k| {
            let k = &self.plan.kinds[*k];
            quote! { pos.pieces[Kind::#k as usize] }
        });
        quote! { (#(#terms)|*) }
    }

    /// The squares a piece of `kind` and `color` may end on, when the kind
    /// is `confined to` a region: the region's constant for that side.
    fn confinement(&self, kind: usize, color: usize) -> Option<TokenStream> {
        let region = self.plan.variant.pieces.get(kind)?.confined?;
        let name = self.region_names.get(region)?;
        let c = Self::usize_lit(color);
        Some(quote! { #name[#c] })
    }

    /// The pieces of `kinds` of `color` that may attack `square`: as
    /// [`Self::kinds_union`], but a confined kind only while `square` is in
    /// its region.
    fn attacking_kinds(&self, kinds: &[usize], color: usize) -> TokenStream {
        let terms = kinds.iter().map(|k| {
            let kind = &self.plan.kinds[*k];
            match self.confinement(*k, color) {
                None => quote! { pos.pieces[Kind::#kind as usize] },
                Some(region) => quote! {
                    (if #region & Bb::bit(square) != EMPTY { pos.pieces[Kind::#kind as usize] } else { EMPTY })
                },
            }
        });
        quote! { (#(#terms)|*) }
    }

    /// The squares from which a group's pieces would attack `square`: its
    /// reverse lookup, a hop's over screens not `not over` its kinds,
    /// nothing when `square` holds a kind the group does not capture.
    fn attack_origins(&self, group: &AttackGroup) -> TokenStream {
        let f = self.reverse_fn(group.reverse);
        let hop = matches!(
            self.plan.components[group.reverse].motion,
            ComponentMotion::HopAdjacent | ComponentMotion::HopAny
        );
        let origins = match (hop, group.not_over.is_empty()) {
            (false, _) => quote! { #f(square, occupied) },
            (true, true) => quote! { #f(square, occupied, EMPTY) },
            (true, false) => {
                let barred = self.kinds_union(&group.not_over);
                quote! { #f(square, occupied, #barred) }
            }
        };
        if group.not_capturing.is_empty() {
            origins
        } else {
            let spared = self.kinds_union(&group.not_capturing);
            quote! { (if #spared & Bb::bit(square) == EMPTY { #origins } else { EMPTY }) }
        }
    }

    fn emit_attack_tests(&self) -> TokenStream {
        let mut out = TokenStream::new();
        for (color, color_name) in COLOR_NAMES.iter().enumerate() {
            let name = format_ident!("attacked_by_{}", color_name);
            let c = Self::usize_lit(color);
            let mut groups = self.plan.attack_groups(color);
            // Leaps are one table read; rides and paths cost more.
            groups.sort_by_key(|group| {
                self.plan.components[group.reverse].motion != ComponentMotion::Leap
            });
            let tests = groups.into_iter().map(|group| {
                let from = self.attack_origins(&group);
                let kinds = self.attacking_kinds(&group.kinds, color);
                let condition = self.condition_mask(group.condition, color);
                quote! {
                    let pieces = #kinds & them #condition;
                    if pieces != EMPTY && #from & pieces != EMPTY {
                        return true;
                    }
                }
            });
            let doc = string_literal(&format!(
                " Whether a {} piece attacks `square` with `occupied` as the occupancy.",
                color_name
            ));
            out.extend(quote! {
                #[doc = #doc]
                #[inline(always)]
                fn #name(pos: &Pos, square: usize, occupied: Bb) -> bool {
                    let them = pos.colors[#c];
                    #(#tests)*
                    false
                }
            });
        }
        out.extend(quote! {
            /// Whether a piece of `color` attacks `square`.
            #[inline(always)]
            pub fn is_attacked(pos: &Pos, square: usize, occupied: Bb, color: usize) -> bool {
                if color == 0 { attacked_by_white(pos, square, occupied) } else { attacked_by_black(pos, square, occupied) }
            }
        });
        out.extend(self.emit_attackers());
        out
    }

    /// Every piece of a colour that attacks a square: the attack tests'
    /// groups, all taken instead of stopping at the first (the exchange
    /// evaluation's attackers).
    fn emit_attackers(&self) -> TokenStream {
        let mut out = TokenStream::new();
        for (color, color_name) in COLOR_NAMES.iter().enumerate() {
            let name = format_ident!("attackers_{}", color_name);
            let c = Self::usize_lit(color);
            let terms = self.plan.attack_groups(color).into_iter().map(|group| {
                let from = self.attack_origins(&group);
                let kinds = self.attacking_kinds(&group.kinds, color);
                let condition = self.condition_mask(group.condition, color);
                quote! { found |= #from & (#kinds & them #condition); }
            });
            let doc = string_literal(&format!(
                " The {} pieces that attack `square` with `occupied` as the occupancy \
                 (pieces off `occupied` included: the caller masks them).",
                color_name
            ));
            out.extend(quote! {
                #[doc = #doc]
                #[inline(always)]
                fn #name(pos: &Pos, square: usize, occupied: Bb) -> Bb {
                    let them = pos.colors[#c];
                    let mut found = EMPTY;
                    #(#terms)*
                    found
                }
            });
        }
        out.extend(quote! {
            /// The pieces of `color` that attack `square`.
            #[inline(always)]
            pub fn attackers(pos: &Pos, square: usize, occupied: Bb, color: usize) -> Bb {
                if color == 0 { attackers_white(pos, square, occupied) } else { attackers_black(pos, square, occupied) }
            }
        });
        out
    }

    fn emit_safety(&self) -> TokenStream {
        let fast = self.plan.fast_legal;
        let mut max_pins = 1;
        let mut bodies = Vec::new();
        for (color, color_name) in COLOR_NAMES.iter().enumerate() {
            let enemy = 1 - color;
            let e = Self::usize_lit(enemy);
            let c = Self::usize_lit(color);
            let name = format_ident!("safety_{}", color_name);
            let lines = self.plan.attack_lines(enemy);
            max_pins = max_pins.max(lines.len());
            let leapers = self
                .plan
                .attack_groups(enemy)
                .into_iter()
                .filter(|g| self.plan.components[g.reverse].motion == ComponentMotion::Leap)
                .map(|group| {
                    let f = self.reverse_fn(group.reverse);
                    let kinds = self.kinds_union(&group.kinds);
                    let condition = self.condition_mask(group.condition, enemy);
                    quote! { leapers |= #f(king, occupied) & #kinds & them #condition; }
                });
            // Lines of the same attackers share one test of whether any
            // stands on the board: without an enemy bishop or queen, none
            // of the diagonals is looked at.
            let mut families: Vec<(Vec<usize>, AtomCondition, Vec<&AttackLine>)> = Vec::new();
            for line in &lines {
                let mut kinds = line.kinds.clone();
                kinds.sort_unstable();
                match families
                    .iter_mut()
                    .find(|(k, c, _)| *k == kinds && *c == line.condition)
                {
                    Some((_, _, members)) => members.push(line),
                    None => families.push((kinds, line.condition, vec![line])),
                }
            }
            let king_at = self.square_index("king");
            let sniper_at = self.square_index("sniper");
            let riders = families.iter().map(|(kinds, condition, members)| {
                let kinds = self.kinds_union(kinds);
                let condition = self.condition_mask(*condition, enemy);
                let directions = members.iter().map(|line| {
                    let back = (-line.direction.0, -line.direction.1);
                    let limited = self.ray_name(back, line.max);
                    let full = self.ray_name(back, None);
                    quote! {
                        let mut snipers = #limited[#king_at] & attackers;
                        while snipers != EMPTY {
                            let sniper = lsb(snipers);
                            snipers = clear_lsb(snipers);
                            let line = (#full[#king_at] & !#full[#sniper_at]) | Bb::bit(sniper);
                            let blockers = line & occupied & !Bb::bit(sniper);
                            if blockers == EMPTY {
                                masks.check &= line;
                                checkers |= Bb::bit(sniper);
                            } else if clear_lsb(blockers) == EMPTY && blockers & own != EMPTY {
                                masks.pin(lsb(blockers), line);
                            }
                        }
                    }
                });
                quote! {
                    let attackers = #kinds & them #condition;
                    if attackers != EMPTY {
                        #({ #directions })*
                    }
                }
            });
            let doc = string_literal(&format!(
                " Check and pin masks for {} (its one royal piece on `king`).",
                color_name
            ));
            bodies.push(quote! {
                #[doc = #doc]
                #[inline(always)]
                fn #name(pos: &Pos, king: usize, masks: &mut Masks) {
                    let own = pos.colors[#c];
                    let them = pos.colors[#e];
                    let occupied = own | them;
                    masks.reset_for_royal(king);
                    let mut leapers = EMPTY;
                    #(#leapers)*
                    if leapers != EMPTY {
                        masks.check &= leapers;
                    }
                    // A compound piece may check along two atoms: count pieces.
                    let mut checkers = leapers;
                    #({ #riders })*
                    masks.checkers = u32::from(checkers != EMPTY) + u32::from(clear_lsb(checkers) != EMPTY);
                }
            });
        }
        let max_pins = Self::usize_lit(max_pins);
        let masks = if fast {
            quote! {
                #(#bodies)*
                /// Check and pin masks when they decide legality: the check rule
                /// holds, every attack is a leap or a ride, and the side to move
                /// has exactly one royal piece. Otherwise moves are tried.
                #[inline(always)]
                fn fast_masks(pos: &Pos, masks: &mut Masks) -> bool {
                    let royals = pos.royals(pos.side());
                    if royals == EMPTY || clear_lsb(royals) != EMPTY { return false; }
                    let king = lsb(royals);
                    if pos.side() == 0 { safety_white(pos, king, masks) } else { safety_black(pos, king, masks) }
                    true
                }
            }
        } else {
            quote! {
                /// Check and pin masks never decide legality in this variant: moves are tried.
                #[inline(always)]
                fn fast_masks(_pos: &Pos, _masks: &mut Masks) -> bool { false }
            }
        };
        quote! {
            /// Most pins a position can hold (one per attack line).
            pub const MAX_PINS: usize = #max_pins;
            #masks
        }
    }

    /// Set-wise moves of the unpinned pieces (`free`) of `kind` and `color`
    /// when every atom is a leap or lame leap in one direction (pawn-shaped
    /// movers): each atom shifts the whole set by its offset. `None` when
    /// the kind does not qualify (other motions, a 256-square board, or two
    /// atoms that could reach the same square from the same piece).
    /// The set-wise moves of `kind`'s unpinned pieces (one shift per leap
    /// direction), and the number of shifts, when every atom is a leap.
    fn setwise_block(&self, kind: usize, color: usize) -> Option<(TokenStream, usize)> {
        let g = &self.plan.geometry;
        if g.width() == BitboardWidth::Wide {
            return None;
        }
        // Squares the piece may not stay on, and promotions on leaving the
        // zone (which read the piece's square): one piece at a time.
        if self.immobile(kind, color).is_some() || self.leaving_zones(kind, color) {
            return None;
        }
        let atoms = &self.plan.atoms[kind][color];
        for (i, a) in atoms.iter().enumerate() {
            let component = &self.plan.components[a.component];
            if a.has_kind_limits() || a.not_from_check || component.along.is_some() {
                return None;
            }
            if !matches!(
                component.motion,
                ComponentMotion::Leap | ComponentMotion::LameLeap
            ) {
                return None;
            }
            for b in &atoms[..i] {
                let other = &self.plan.components[b.component];
                let disjoint = matches!(
                    (a.mode, b.mode),
                    (MoveMode::MoveOnly, MoveMode::CaptureOnly)
                        | (MoveMode::CaptureOnly, MoveMode::MoveOnly)
                );
                let overlap = other
                    .directions
                    .iter()
                    .any(|d| component.directions.contains(d));
                if overlap && !disjoint {
                    return None;
                }
            }
        }
        let zones = &self.plan.promotion_zones[kind][color];
        let all_zones = zones.iter().fold(Bits::EMPTY, |a, z| a.union(&z.squares));
        let shift = |expr: TokenStream, offset: i64| -> TokenStream {
            let amount = Literal::u32_unsuffixed(offset.unsigned_abs() as u32);
            if offset > 0 {
                quote! { (#expr << #amount) }
            } else {
                quote! { (#expr >> #amount) }
            }
        };
        let steps = atoms.iter().flat_map(|atom| {
            let component = &self.plan.components[atom.component];
            component
                .directions
                .iter()
                .map(move |d| (atom, component, *d))
        });
        let blocks: Vec<TokenStream> = steps.map(|(atom, component, (dx, dy))| {
            let offset = i64::from(dy) * g.files as i64 + i64::from(dx);
            let lame = component.motion == ComponentMotion::LameLeap;
            let mut valid = Bits::EMPTY;
            let mut path_offsets: Vec<i64> = Vec::new();
            for square in 0..g.squares {
                if !g.board.contains(square) {
                    continue;
                }
                if lame {
                    if let Some((path, _)) = g.lame_leap(square, (dx, dy)) {
                        valid.insert(square);
                        path_offsets = path.iter().map(|p| *p as i64 - square as i64).collect();
                    }
                } else {
                    let (f, r) = g.coords(square);
                    if g.at(f + dx, r + dy).is_some() {
                        valid.insert(square);
                    }
                }
            }
            let valid = self.bb(&valid);
            let condition = self.condition_mask(atom.condition, color);
            let confine = self
                .confinement(kind, color)
                .map(|region| quote! { & #region });
            let paths = path_offsets.iter().map(|p| {
                let back = shift(quote! { empty }, -p);
                quote! { let src = src & #back; }
            });
            let moved = shift(quote! { src }, offset);
            let mode = match atom.mode {
                MoveMode::MoveOrCapture => quote! { not_own },
                MoveMode::MoveOnly => quote! { empty },
                MoveMode::CaptureOnly => quote! { enemy },
            };
            let offset_lit = Literal::i64_unsuffixed(offset);
            let emit = if zones.is_empty() {
                quote! { sink.shifted(piece, to, #offset_lit); }
            } else if let Some((zone, choice)) = self.single_mandatory_choice(zones) {
                quote! { sink.shifted_promoting(piece, to, #offset_lit, #zone, #choice); }
            } else {
                let all = self.bb(&all_zones);
                let each = zones.iter().map(|zone| {
                    let mask = self.bb(&zone.squares);
                    let (choices, optional) = self.promotion_choices(zone.rule, color);
                    quote! {
                        let promoting = to & #mask;
                        if promoting != EMPTY { sink.shifted_promotions(piece, promoting, #offset_lit, #choices, #optional); }
                    }
                });
                quote! {
                    sink.shifted(piece, to & !#all, #offset_lit);
                    #(#each)*
                }
            };
            quote! {
                {
                    let src = free & #valid #condition;
                    #(#paths)*
                    let to = #moved & #mode & masks.check #confine;
                    #emit
                }
            }
        }).collect();
        let steps = blocks.len();
        Some((quote! { #(#blocks)* }, steps))
    }

    /// The squares a piece of `kind` and `color` may not stay on (`no piece
    /// may stand where it could not move`), if any.
    fn immobile(&self, kind: usize, color: usize) -> Option<Bits> {
        let squares = varc_runtime::hands::immobile_squares(self.plan.variant);
        let set = squares.get(kind)?[color];
        (!set.is_empty()).then(|| self.plan.geometry.dense_set(&set))
    }

    /// Whether a promotion rule of `kind` says `starting or ending there`.
    fn leaving_zones(&self, kind: usize, color: usize) -> bool {
        self.plan.promotion_zones[kind][color]
            .iter()
            .any(|zone| self.plan.variant.promotions[zone.rule].leaving_too)
    }

    /// One piece's moves onto `targets` (from `from`) when the kind has
    /// squares it may not stay on or promotes on leaving its zone; `None`
    /// otherwise (the faster forms apply). A move that ends in a zone is
    /// promoted by that zone's rule; one that ends outside every zone, by
    /// the rule of the zone it starts in if that rule says `starting or
    /// ending there`; the unpromoted form of each is left out on the
    /// squares the piece may not stay on.
    fn emit_immobile_or_leaving(&self, kind: usize, color: usize) -> Option<TokenStream> {
        let immobile = self.immobile(kind, color);
        if immobile.is_none() && !self.leaving_zones(kind, color) {
            return None;
        }
        let zones = &self.plan.promotion_zones[kind][color];
        let stay = match &immobile {
            Some(dead) => {
                let dead = self.bb(dead);
                quote! { & !#dead }
            }
            None => quote! {},
        };
        let dead = immobile.as_ref().map(|dead| self.bb(dead));
        let promote = |set: TokenStream, rule: usize| -> TokenStream {
            let (choices, optional) = self.promotion_choices(rule, color);
            match (&dead, optional) {
                (Some(dead), true) => quote! {
                    let promoting = #set;
                    if promoting != EMPTY {
                        sink.promotions(piece, from, promoting & !#dead, #choices, true);
                        sink.promotions(piece, from, promoting & #dead, #choices, false);
                    }
                },
                _ => quote! {
                    let promoting = #set;
                    if promoting != EMPTY { sink.promotions(piece, from, promoting, #choices, #optional); }
                },
            }
        };
        let all = zones.iter().fold(Bits::EMPTY, |a, z| a.union(&z.squares));
        let all = self.bb(&all);
        let arrivals = zones.iter().map(|zone| {
            let mask = self.bb(&zone.squares);
            promote(quote! { targets & #mask }, zone.rule)
        });
        // Zones do not overlap (E0411): the piece starts in one at most.
        let leaving = zones
            .iter()
            .filter(|zone| self.plan.variant.promotions[zone.rule].leaving_too)
            .map(|zone| {
                let mask = self.bb(&zone.squares);
                let body = promote(quote! { outside }, zone.rule);
                quote! { if #mask & Bb::bit(from) != EMPTY { #body } else }
            });
        Some(quote! {
            let outside = targets & !#all;
            #(#leaving)* { sink.moves(piece, from, outside #stay); }
            #(#arrivals)*
        })
    }

    /// The zone and the kind when a piece's promotions are one zone whose
    /// rule offers one kind, mandatorily (the engine core's `Sink::moves_promoting`).
    fn single_mandatory_choice(
        &self,
        zones: &[PromotionZone],
    ) -> Option<(TokenStream, TokenStream)> {
        let [zone] = zones else {
            return None;
        };
        let rule = &self.plan.variant.promotions[zone.rule];
        let [choice] = rule.choices[..] else {
            return None;
        };
        if !rule.limits.is_empty() {
            return None;
        }
        if self.plan.is_optional(zone.rule) {
            return None;
        }
        let kind = &self.plan.kinds[choice];
        Some((self.bb(&zone.squares), quote! { Kind::#kind as u8 }))
    }

    /// The kinds promotion rule `rule` offers `color`, as an expression of
    /// type `&[u8]` (read from the position where the rule limits them:
    /// `only into captured kinds`), and whether promoting is optional.
    fn promotion_choices(&self, rule: usize, color: usize) -> (TokenStream, bool) {
        let promotion = &self.plan.variant.promotions[rule];
        let choices = promotion.choices.iter().map(|c| {
            let c = &self.plan.kinds[*c];
            quote! { Kind::#c as u8 }
        });
        let optional = self.plan.is_optional(rule);
        if promotion.limits.is_empty() {
            return (quote! { &[#(#choices),*] }, optional);
        }
        let color = Self::usize_lit(color);
        let limits = Self::promotion_limits(promotion);
        (
            quote! { limited_choices(pos, #color, &[#(#choices),*], &#limits).as_slice() },
            optional,
        )
    }

    /// A rule's limits per choice (`only into captured kinds`), as an array
    /// expression of `[white, black]` pairs.
    fn promotion_limits(promotion: &varc_runtime::model::Promotion) -> TokenStream {
        let limits = promotion.choices.iter().map(|kind| {
            let counts = promotion
                .limits
                .iter()
                .find(|limit| limit.kind == *kind)
                .map_or([u32::MAX; 2], |limit| limit.counts);
            let [white, black] = counts.map(Literal::u32_unsuffixed);
            quote! { [#white, #black] }
        });
        quote! { [#(#limits),*] }
    }

    fn emit_generate(&self) -> TokenStream {
        let mut out = TokenStream::new();
        let ep_kinds = &self.plan.variant.en_passant;
        for (color, color_name) in COLOR_NAMES.iter().enumerate() {
            let c = Self::usize_lit(color);
            let e = Self::usize_lit(1 - color);
            let name = format_ident!("generate_{}", color_name);
            let blocks = (0..self.plan.kinds.len()).filter(|k| !self.plan.atoms[*k][color].is_empty()).map(|kind| {
                let k = &self.plan.kinds[kind];
                let piece = Self::piece_code(kind, color);
                let reach = self.reach_fn(kind, color);
                let zones = &self.plan.promotion_zones[kind][color];
                let emit = if let Some(emit) = self.emit_immobile_or_leaving(kind, color) {
                    emit
                } else if zones.is_empty() {
                    quote! { sink.moves(piece, from, targets); }
                } else if let Some((zone, choice)) = self.single_mandatory_choice(zones) {
                    quote! { sink.moves_promoting(piece, from, targets, #zone, #choice); }
                } else {
                    let all = zones.iter().fold(Bits::EMPTY, |a, z| a.union(&z.squares));
                    let all = self.bb(&all);
                    let each = zones.iter().map(|zone| {
                        let mask = self.bb(&zone.squares);
                        let (choices, optional) = self.promotion_choices(zone.rule, color);
                        quote! {
                            let promoting = targets & #mask;
                            if promoting != EMPTY { sink.promotions(piece, from, promoting, #choices, #optional); }
                        }
                    });
                    quote! {
                        sink.moves(piece, from, targets & !#all);
                        #(#each)*
                    }
                };
                let en_passant = if ep_kinds.contains(&kind) {
                    quote! {
                        let en_passant = capture_only & pos.en_passant_targets & empty;
                        if en_passant != EMPTY { en_passant_moves(pos, from, en_passant, sink, masks.verify_specials); }
                    }
                } else {
                    quote! {}
                };
                // The moves of each piece in `froms`, one at a time, within
                // `allowed` (an unpinned piece's is the check mask alone).
                let one_by_one = |allowed: TokenStream| quote! {
                    while froms != EMPTY {
                        let from = lsb(froms);
                        froms = clear_lsb(froms);
                        let [move_or_capture, move_only, capture_only] = #reach(pos, from, occupied);
                        let targets = ((move_or_capture & not_own) | (move_only & empty) | (capture_only & enemy))
                            & #allowed;
                        #emit
                        #en_passant
                    }
                };
                let free_by_piece = one_by_one(quote! { masks.check });
                let pinned_by_piece = one_by_one(quote! { masks.targets_from(from) });
                if let Some((setwise, steps)) = self.setwise_block(kind, color) {
                    let en_passant_free = if ep_kinds.contains(&kind) {
                        quote! {
                            if pos.en_passant_targets != EMPTY {
                                let mut froms = free;
                                while froms != EMPTY {
                                    let from = lsb(froms);
                                    froms = clear_lsb(froms);
                                    let [_, _, capture_only] = #reach(pos, from, occupied);
                                    let en_passant = capture_only & pos.en_passant_targets & empty;
                                    if en_passant != EMPTY { en_passant_moves(pos, from, en_passant, sink, masks.verify_specials); }
                                }
                            }
                        }
                    } else {
                        quote! {}
                    };
                    // A shift costs about what one piece's table read costs
                    // (three times less with many directions): few pieces
                    // move one at a time.
                    let few = match steps / 3 {
                        0 => quote! { false },
                        1 => quote! { clear_lsb(free) == EMPTY },
                        _ => quote! { clear_lsb(clear_lsb(free)) == EMPTY },
                    };
                    return quote! {
                        {
                            let movers = pos.pieces[Kind::#k as usize] & own & !masks.skip;
                        let piece = #piece;
                            // Unpinned pieces move set-wise: every atom is one leap.
                            let free = movers & !masks.pinned;
                            if free != EMPTY {
                                if #few {
                                    let mut froms = free;
                                    #free_by_piece
                                } else {
                                    #setwise
                                    #en_passant_free
                                }
                            }
                            let mut froms = movers & masks.pinned;
                            #pinned_by_piece
                        }
                    };
                }
                quote! {
                    {
                        let movers = pos.pieces[Kind::#k as usize] & own & !masks.skip;
                        let piece = #piece;
                        let mut froms = movers & !masks.pinned;
                        #free_by_piece
                        let mut froms = movers & masks.pinned;
                        #pinned_by_piece
                    }
                }
            });
            let doc = string_literal(&format!(
                " The moves of {}'s pieces under `masks`.",
                color_name
            ));
            // One royal kind: its reach is known without reading the square.
            let royal_kinds: Vec<usize> = (0..self.plan.kinds.len())
                .filter(|k| self.plan.variant.pieces[*k].royal)
                .collect();
            let (king_reach, king_piece) = match royal_kinds[..] {
                [kind] => {
                    let f = self.reach_fn(kind, color);
                    (
                        quote! { #f(pos, king, occupied) },
                        Self::piece_code(kind, color),
                    )
                }
                _ => (
                    quote! { reach(kind_of(pos.code_at(king)), #c, pos, king, occupied) },
                    quote! { pos.code_at(king) },
                ),
            };
            out.extend(quote! {
                #[doc = #doc]
                #[inline(always)]
                fn #name<S: Sink<Bb>>(pos: &Pos, sink: &mut S, masks: &Masks) {
                    let own = pos.colors[#c];
                    let enemy = pos.colors[#e];
                    let occupied = own | enemy;
                    let empty = BOARD & !occupied;
                    let not_own = BOARD & !own;
                    if masks.checkers < 2 {
                        #(
                            #blocks
                            if sink.done() {
                                return;
                            }
                        )*
                    }
                    if masks.skip != EMPTY {
                        let king = lsb(masks.skip);
                        let [move_or_capture, move_only, capture_only] = #king_reach;
                        let mut targets = ((move_or_capture & not_own) | (move_only & empty) | (capture_only & enemy)) & masks.royal_targets;
                        let without_king = occupied ^ Bb::bit(king);
                        let mut safe = EMPTY;
                        while targets != EMPTY {
                            let to = lsb(targets);
                            targets = clear_lsb(targets);
                            if !is_attacked(pos, to, without_king, #e) {
                                safe |= Bb::bit(to);
                                if S::FIRST_ONLY {
                                    break;
                                }
                            }
                        }
                        sink.moves(#king_piece, king, safe);
                    }
                }
            });
        }
        out
    }

    /// Whether the position keeps a mailbox of square codes. Copy-make
    /// copies the whole position per move, and a copy of at most 128
    /// bytes is a few register moves where a larger one calls `memcpy`
    /// (measured: a third of every-leaf chess perft). So the mailbox is
    /// left out when the rest of the position fits in 128 bytes, and the
    /// code on a square is then read from the square sets.
    fn keeps_mailbox(&self) -> bool {
        let set_bytes = match self.plan.geometry.width() {
            BitboardWidth::U64 => 8,
            BitboardWidth::U128 => 16,
            BitboardWidth::Wide => 32,
        };
        let v = self.plan.variant;
        let lineage_bytes = if varc_runtime::moves::tracks_history(v) {
            4 * self.plan.geometry.squares
        } else {
            0
        };
        // Kind sets, colours, unmoved pieces, en passant targets; the
        // placement hash; clocks, counters, castling, en passant victim, turn.
        let bytes = (self.plan.kinds.len() + 4) * set_bytes
            + 8
            + 8
            + 8 * v.counter_slots()
            + 4
            + 2
            + 1
            + lineage_bytes;
        bytes > 128
    }

    fn emit_rules_data(&self) -> RulesData {
        let v = self.plan.variant;
        let kinds = &self.plan.kinds;
        let g = &self.plan.geometry;
        let kind_set = |list: &[usize]| -> TokenStream {
            let mask = list.iter().fold(0u128, |m, k| m | 1 << k);
            hex(&format!("0x{mask:x}"), "u128")
        };
        let ep_kinds = kind_set(&v.en_passant);
        let castling_kings = kind_set(&v.castling.iter().map(|c| c.king).collect::<Vec<_>>());
        let check_rule = v.legality.check_rule == CheckRule::RoyalMayNotBeAttacked;
        let compulsory_capture = v.legality.capture_rule == CaptureRule::Compulsory;
        let compulsory_drops = v.legality.drops_compulsory;
        let no_checks = v.legality.giving_check == GivingCheck::Forbidden;
        let royals_face = v.legality.royal_facing == RoyalFacing::Forbidden;
        let explosion = v.explosion.as_ref().map(|explosion| {
            let radius = explosion.radius;
            let immune = kind_set(&explosion.immune);
            quote! {
                const EXPLOSION_RADIUS: Option<u8> = Some(#radius);
                const BLAST_IMMUNE_KINDS: u128 = #immune;
            }
        });
        let tracks = varc_runtime::moves::tracks_history(v);
        let (succession, becomes, candidates) = match &v.royal_loss {
            RoyalLoss::Succession {
                candidates,
                becomes,
            } => (
                v.pieces.get(*becomes).is_some_and(|p| p.royal),
                *becomes,
                kind_set(candidates),
            ),
            RoyalLoss::EndsGame => (false, 0, kind_set(&[])),
        };
        let becomes = Literal::u8_unsuffixed(becomes as u8);
        let castling = v.castling.iter().map(|rule| {
            let king = &kinds[rule.king];
            let rook = &kinds[rule.rook];
            let (sk, sr, lk, lr) = (
                Self::usize_lit(rule.short.king_file as usize),
                Self::usize_lit(rule.short.rook_file as usize),
                Self::usize_lit(rule.long.king_file as usize),
                Self::usize_lit(rule.long.rook_file as usize),
            );
            let (from, through, into) = (
                rule.not_from_check,
                rule.not_through_check,
                rule.not_into_check,
            );
            let mut loose = 0u32;
            let mut lineage = quote! { None };
            for requirement in &rule.requirements {
                match requirement {
                    CastlingRequirement::RookMayHaveMovedOnFiles(files) => {
                        for f in files {
                            loose |= 1u32.checked_shl(*f as u32).unwrap_or(0);
                        }
                    }
                    CastlingRequirement::KingLineage(l) => {
                        let was = l.was.iter().map(|k| Literal::u8_unsuffixed(*k as u8));
                        lineage = quote! { Some(&[#(#was),*]) };
                    }
                }
            }
            let loose = Literal::u16_unsuffixed(loose as u16);
            let [white_rank, black_rank] = rule.ranks.map(|r| Self::usize_lit(r as usize));
            quote! {
                CastlingRule {
                    king: Kind::#king as u8,
                    rook: Kind::#rook as u8,
                    short: (#sk, #sr),
                    long: (#lk, #lr),
                    not_from_check: #from,
                    not_through_check: #through,
                    not_into_check: #into,
                    loose_rook_files: #loose,
                    king_lineage: #lineage,
                    ranks: [#white_rank, #black_rank],
                }
            }
        });
        // Promotion rules, for en passant captures that promote and for delayed rules.
        let rules = v.promotions.iter().enumerate().map(|(i, rule)| {
            let choices = rule.choices.iter().map(|c| {
                let c = &kinds[*c];
                quote! { Kind::#c as u8 }
            });
            let optional = self.plan.is_optional(i);
            let delayed = match rule.timing {
                PromotionTiming::Immediate => quote! { None },
                PromotionTiming::Delayed { follow_up } => match follow_up {
                    None => quote! { Some(FollowUp::None) },
                    Some(MoveMode::MoveOrCapture) => quote! { Some(FollowUp::MoveOrCapture) },
                    Some(MoveMode::MoveOnly) => quote! { Some(FollowUp::MoveOnly) },
                    Some(MoveMode::CaptureOnly) => quote! { Some(FollowUp::CaptureOnly) },
                },
            };
            let limits = if rule.limits.is_empty() {
                quote! { &[] }
            } else {
                let limits = Self::promotion_limits(rule);
                quote! { &#limits }
            };
            let attacking_nothing = rule.attacking_nothing;
            quote! { PromotionRule { choices: &[#(#choices),*], optional: #optional, delayed: #delayed, limits: #limits, attacking_nothing: #attacking_nothing } }
        });
        // First applicable promotion rule per kind, colour and square.
        let first_rule = (0..kinds.len()).map(|kind| {
            let sides = (0..2).map(|color| {
                let row = (0..g.squares).map(|sq| {
                    let rule = (0..v.promotions.len())
                        .find(|r| self.plan.first_rule_squares[*r][kind][color].contains(sq));
                    Literal::u8_unsuffixed(rule.map_or(u8::MAX, |r| r as u8))
                });
                quote! { [#(#row),*] }
            });
            quote! { [#(#sides),*] }
        });
        // Delayed rules: per kind, the squares of each side where the rule applies.
        let delayed = v.promotions.iter().enumerate().filter(|(_, r)| r.timing != PromotionTiming::Immediate).flat_map(|(i, rule)| {
            let rule_lit = Self::usize_lit(i);
            rule.pieces.iter().map(move |&kind| (i, kind, rule_lit.clone())).collect::<Vec<_>>()
        }).map(|(i, kind, rule_lit)| {
            let k = &kinds[kind];
            let white = self.bb(&self.plan.first_rule_squares[i][kind][0]);
            let black = self.bb(&self.plan.first_rule_squares[i][kind][1]);
            let rule = &v.promotions[i];
            // `anywhere for the last one`: the side's last piece of the
            // rule's kinds promotes on any square no earlier rule has.
            let last_anywhere = rule.last_anywhere.then(|| {
                let of_rule = rule.pieces.iter().map(|&p| {
                    let p = &kinds[p];
                    quote! { pos.pieces[Kind::#p as usize] }
                });
                let elsewhere = (0..2).map(|color| {
                    let taken = (0..v.promotions.len()).filter(|&r| r != i).fold(Bits::EMPTY, |all, r| {
                        all.union(&self.plan.first_rule_squares[r][kind][color])
                    });
                    self.bb(&self.plan.geometry.board.difference(&taken))
                });
                quote! {
                    let of_rule = (#(#of_rule)|*) & pos.colors[pos.side()];
                    let zone = if of_rule.popcnt() == 1 { [#(#elsewhere),*][pos.side()] } else { zone };
                }
            });
            quote! {
                let zone = [#white, #black][pos.side()];
                #last_anywhere
                let mut froms = zone & pos.pieces[Kind::#k as usize] & pos.colors[pos.side()];
                while froms != EMPTY {
                    let from = lsb(froms);
                    froms = clear_lsb(froms);
                    delayed_promotion_moves(pos, from, &Self::PROMOTION_RULES[#rule_lit], sink, verify);
                }
            }
        });
        let history_rules = v.legality.history_rules.iter().map(|rule| match rule.kind {
            varc_runtime::model::HistoryRuleKind::RepeatedCheck { plies_ago } => {
                let plies = Literal::u32_unsuffixed(plies_ago);
                let unless = rule.unless_only_such_moves;
                quote! { HistoryRule { plies_ago: #plies, unless_only_such_moves: #unless } }
            }
        });
        let succession = if succession {
            quote! { Some(Succession { becomes: #becomes, candidates: #candidates }) }
        } else {
            quote! { None }
        };
        let lineages = if tracks {
            quote! { [[u8; 4]; SQUARES] }
        } else {
            quote! { NotKept }
        };
        let delayed = if v
            .promotions
            .iter()
            .any(|r| r.timing != PromotionTiming::Immediate)
        {
            quote! {
                fn delayed_promotions<S: Sink<Bb>>(pos: &Pos, sink: &mut S, verify: bool) {
                    #(#delayed)*
                }
            }
        } else {
            quote! {
                fn delayed_promotions<S: Sink<Bb>>(_pos: &Pos, _sink: &mut S, _verify: bool) {}
            }
        };
        let promotion_squares = [0, 1].map(|color| {
            let all = self
                .plan
                .promotion_zones
                .iter()
                .flat_map(|zones| zones[color].iter())
                .fold(Bits::EMPTY, |all, zone| all.union(&zone.squares));
            self.bb(&all)
        });
        // Per capturing side, where en passant may capture (the board if the
        // variant does not limit it).
        let en_passant_zone = [0, 1].map(|color| {
            let squares = match self.plan.variant.en_passant_zone {
                Some(zone) => self
                    .plan
                    .regions
                    .get(zone)
                    .map_or(Bits::EMPTY, |sides| sides[color]),
                None => self.plan.geometry.board,
            };
            self.bb(&squares)
        });
        let hands = self.emit_hands();
        // Passing kinds and bikjang, only where the variant has them: the
        // trait's defaults say "none" elsewhere.
        let passing_kinds = v
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.passes)
            .fold(0u128, |mask, (k, _)| mask | 1u128 << k);
        let mut passing = TokenStream::new();
        if passing_kinds != 0 {
            let mask = Literal::u128_unsuffixed(passing_kinds);
            passing.extend(quote! { const PASSING_KINDS: u128 = #mask; });
        }
        if v.legality.royal_facing == RoyalFacing::MustPart {
            passing.extend(quote! { const ROYALS_MUST_PART: bool = true; });
        }
        if !v.first_moves.losses.is_empty() {
            let mask = |kinds: &[usize]| {
                Literal::u128_unsuffixed(kinds.iter().fold(0u128, |m, k| m | 1u128 << k))
            };
            let rules = v.first_moves.losses.iter().map(|loss| {
                let (pieces, by) = (mask(&loss.pieces), mask(&loss.by));
                quote! { FirstMoveLossRule { pieces: #pieces, by: #by } }
            });
            passing.extend(quote! {
                const FIRST_MOVE_LOSSES: &'static [FirstMoveLossRule] = &[#(#rules),*];
            });
        }
        RulesData {
            items: quote! {
                /// `FIRST_PROMOTION[kind][color][square]`: the first promotion rule that
                /// applies to a piece arriving there, or 255.
                static FIRST_PROMOTION: [[[u8; SQUARES]; 2]; KINDS] = [#(#first_rule),*];
            },
            lineages,
            impl_items: quote! {
                const CHECK_RULE: bool = #check_rule;
                const COMPULSORY_CAPTURE: bool = #compulsory_capture;
                const COMPULSORY_DROPS: bool = #compulsory_drops;
                const NO_CHECKS: bool = #no_checks;
                const ROYALS_FACE: bool = #royals_face;
                #explosion
                const EN_PASSANT_KINDS: u128 = #ep_kinds;
                const CASTLING_KINGS: u128 = #castling_kings;
                const PROMOTION_SQUARES: [Bb; 2] = [#(#promotion_squares),*];
                const EN_PASSANT_ZONE: [Bb; 2] = [#(#en_passant_zone),*];
                const SUCCESSION: Option<Succession> = #succession;
                const CASTLING_RULES: &'static [CastlingRule] = &[#(#castling),*];
                const PROMOTION_RULES: &'static [PromotionRule] = &[#(#rules),*];
                const HISTORY_RULES: &'static [HistoryRule] = &[#(#history_rules),*];
                #[inline(always)]
                fn first_promotion(kind: usize, color: usize, square: usize) -> u8 {
                    FIRST_PROMOTION[kind][color][square]
                }
                #delayed
                #hands
                #passing
            },
        }
    }

    /// The hand rules (`CompiledVariant::HANDS` and the rest), only in a
    /// variant with hands: elsewhere the trait's defaults say "none".
    fn emit_hands(&self) -> TokenStream {
        let v = self.plan.variant;
        if !v.hands.in_use() {
            return TokenStream::new();
        }
        let per_kind = |sets: Vec<[varc_runtime::model::SquareSet; 2]>| {
            let rows = sets.iter().map(|sides| {
                let [white, black] = sides.map(|set| self.bb(&self.plan.geometry.dense_set(&set)));
                quote! { [#white, #black] }
            });
            quote! { &[#(#rows),*] }
        };
        let drop_squares = per_kind(varc_runtime::hands::drop_squares(v));
        let unmoved_drops = per_kind(varc_runtime::hands::unmoved_drop_squares(v));
        let to_hand = v.hands.captures_to_hand.is_some();
        let demotes = v.hands.demotes();
        let no_two = v.hands.no_two_on_a_file(v.pieces.len());
        let files = if no_two.iter().any(|&flag| flag) {
            let g = &self.plan.geometry;
            let files = (0..v.board.files).map(|file| {
                let mut set = varc_runtime::model::SquareSet::EMPTY;
                for rank in 0..v.board.ranks {
                    set.insert(varc_runtime::model::Square::new(file, rank));
                }
                let set = self.bb(&g.dense_set(&set.intersection(&v.board.squares())));
                quote! { #set }
            });
            quote! {
                const DROP_NO_TWO_ON_A_FILE: &'static [bool] = &[#(#no_two),*];
                const FILE_SQUARES: &'static [Bb] = &[#(#files),*];
            }
        } else {
            TokenStream::new()
        };
        let gates = if v.hands.gating() {
            let gate_squares = per_kind(varc_runtime::hands::gate_squares(v));
            quote! { const GATE_SQUARES: &'static [[Bb; 2]] = #gate_squares; }
        } else {
            TokenStream::new()
        };
        quote! {
            const HANDS: bool = true;
            const CAPTURES_TO_HAND: bool = #to_hand;
            const DEMOTES: bool = #demotes;
            const DROP_SQUARES: &'static [[Bb; 2]] = #drop_squares;
            const UNMOVED_DROPS: &'static [[Bb; 2]] = #unmoved_drops;
            #files
            #gates
        }
    }

    fn emit_zobrist(&self) -> TokenStream {
        let g = &self.plan.geometry;
        let codes = 1 + 2 * self.plan.kinds.len();
        // Piece keys are the runtime's transposition keys (`tt::piece_key`),
        // so that a compiled engine and the interpreter key their tables
        // alike and search alike; the unmoved table holds what an unmoved
        // piece adds.
        let key = |code: usize, square: usize, unmoved: bool| -> u64 {
            if code == 0 || !g.board.contains(square) {
                return 0;
            }
            let (kind, color) = ((code - 1) / 2, [Color::White, Color::Black][(code - 1) % 2]);
            let (file, rank) = g.coords(square);
            let index = Square::new(file as u8, rank as u8).index();
            tt::piece_key(kind, color, unmoved, std::iter::empty(), index)
        };
        let table = |value: &dyn Fn(usize, usize) -> u64| {
            (0..codes)
                .map(|code| {
                    let values = (0..g.squares)
                        .map(|square| hex(&format!("0x{:016x}", value(code, square)), "u64"));
                    quote! { [#(#values),*] }
                })
                .collect::<Vec<_>>()
        };
        let rows = table(&|code, square| key(code, square, false));
        let unmoved_rows =
            table(&|code, square| key(code, square, false) ^ key(code, square, true));
        let codes = Self::usize_lit(codes);
        quote! {
            /// Zobrist keys of a piece (`1 + kind * 2 + color`) on a square.
            pub static ZOBRIST_PIECES: [[u64; SQUARES]; #codes] = [#(#rows),*];
            /// What a piece adds to its key when it has not moved.
            pub static ZOBRIST_UNMOVED: [[u64; SQUARES]; #codes] = [#(#unmoved_rows),*];

        }
    }
}

/// The rules data: items of the module, the lineage store's type and the
/// items of the [`CompiledVariant`] impl.
struct RulesData {
    items: TokenStream,
    lineages: TokenStream,
    impl_items: TokenStream,
}

fn mode_slot(mode: MoveMode) -> usize {
    match mode {
        MoveMode::MoveOrCapture => 0,
        MoveMode::MoveOnly => 1,
        MoveMode::CaptureOnly => 2,
    }
}

fn set_of(squares: &[usize]) -> Bits {
    let mut bits = Bits::EMPTY;
    for s in squares {
        bits.insert(*s);
    }
    bits
}

/// An integer literal in hex with a type suffix, built from a number the
/// generator computed (never from user text).
fn hex(digits: &str, suffix: &str) -> TokenStream {
    let lit = syn::LitInt::new(&format!("{digits}{suffix}"), Span::call_site());
    quote! { #lit }
}

fn snake(camel: &str) -> String {
    let camel = camel.trim_start_matches("r#");
    let mut out = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
