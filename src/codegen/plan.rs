//! What the generator decides about a variant before emitting code: the
//! piece kinds' identifiers, the movement components and the tables they
//! read, promotion zones per kind, and whether the fast legal generator
//! (check and pin masks) applies.

use super::geometry::{absolute_directions, Bits, Component, ComponentMotion, Geometry};
use super::names::Names;
use super::CodegenError;
use proc_macro2::Ident;
use std::collections::BTreeMap;
use varc_runtime::model::{
    AtomCondition, CheckRule, Color, MoveMode, Obligation, PromotionTiming, RoyalFacing, Square,
    Variant,
};

/// Most piece kinds a generated engine supports: the model's limit (a
/// square holds `1 + kind * 2 + colour` in a byte, room for 127).
pub const MAX_KINDS: usize = varc_runtime::model::MAX_PIECE_KINDS;

/// One movement atom of one kind for one colour.
#[derive(Clone, Debug)]
pub struct AtomPlan {
    /// Index into [`Plan::components`].
    pub component: usize,
    /// Move, capture or both.
    pub mode: MoveMode,
    /// When the atom applies.
    pub condition: AtomCondition,
    /// `not over PIECES`: kinds a hop's screen may not be.
    pub not_over: Vec<usize>,
    /// `not capturing PIECES`: kinds the atom does not capture or attack.
    pub not_capturing: Vec<usize>,
    /// `not from check`: not while the mover's side is in check (a
    /// move-only atom, so no attack reads it).
    pub not_from_check: bool,
}

impl AtomPlan {
    /// Whether the atom reads the position's kinds (a screen or capture limit).
    pub fn has_kind_limits(&self) -> bool {
        !self.not_over.is_empty() || !self.not_capturing.is_empty()
    }
}

/// An immediate promotion that applies on `squares` (disjoint from the
/// squares of the kind's earlier rules).
#[derive(Clone, Debug)]
pub struct PromotionZone {
    /// Index of the rule in the model.
    pub rule: usize,
    /// Destination squares where this rule is the first that applies.
    pub squares: Bits,
}

/// The generator's view of a variant.
pub struct Plan<'a> {
    /// The model.
    pub variant: &'a Variant,
    /// The board.
    pub geometry: Geometry,
    /// The `Kind` enum's variant for each piece kind.
    pub kinds: Vec<Ident>,
    /// Distinct movement components, in first-use order.
    pub components: Vec<Component>,
    /// Rays `(direction, max)` that some table needs, in first-use order.
    pub rays: Vec<((i32, i32), Option<u8>)>,
    /// `atoms[kind][color]`.
    pub atoms: Vec<[Vec<AtomPlan>; 2]>,
    /// `promotion_zones[kind][color]`: immediate rules only.
    pub promotion_zones: Vec<[Vec<PromotionZone>; 2]>,
    /// For each rule, for each kind and colour: the squares where it is the
    /// first rule that applies (delayed rules read this for their zone).
    pub first_rule_squares: Vec<Vec<[Bits; 2]>>,
    /// Region squares per side.
    pub regions: Vec<[Bits; 2]>,
    /// Whether the check-and-pin-mask generator is valid for this variant
    /// (when the side to move has exactly one royal piece).
    pub fast_legal: bool,
}

impl<'a> Plan<'a> {
    /// Plans the engine of `variant`.
    pub fn new(variant: &'a Variant) -> Result<Plan<'a>, CodegenError> {
        let geometry = Geometry::new(variant);
        if geometry.files == 0 || geometry.ranks == 0 || geometry.files > 16 || geometry.ranks > 16
        {
            return Err(CodegenError::BoardSize {
                files: variant.board.files,
                ranks: variant.board.ranks,
            });
        }
        if variant.pieces.is_empty() || variant.pieces.len() > MAX_KINDS {
            return Err(CodegenError::KindCount {
                count: variant.pieces.len(),
            });
        }
        let mut names = Names::with_reserved(&["Kind", "ALL", "COUNT"]);
        let kinds = variant
            .pieces
            .iter()
            .map(|p| names.camel(&p.name))
            .collect();
        let mut plan = Plan {
            variant,
            geometry,
            kinds,
            components: Vec::new(),
            rays: Vec::new(),
            atoms: Vec::new(),
            promotion_zones: Vec::new(),
            first_rule_squares: Vec::new(),
            regions: Vec::new(),
            fast_legal: false,
        };
        plan.regions = variant
            .regions
            .iter()
            .map(|r| {
                [
                    plan.geometry.dense_set(&r.squares[0]),
                    plan.geometry.dense_set(&r.squares[1]),
                ]
            })
            .collect();
        for (kind, piece) in variant.pieces.iter().enumerate() {
            if piece
                .confined
                .is_some_and(|region| region >= variant.regions.len())
            {
                return Err(CodegenError::Model(format!(
                    "piece {kind} is confined to a region that does not exist"
                )));
            }
            let mut per_color: [Vec<AtomPlan>; 2] = [Vec::new(), Vec::new()];
            for color in Color::ALL {
                for atom in &piece.moves {
                    if let AtomCondition::InRegion(region) = atom.condition {
                        if region >= variant.regions.len() {
                            return Err(CodegenError::Model(format!(
                                "piece {kind} refers to region {region}, which does not exist"
                            )));
                        }
                    }
                    let directions = absolute_directions(&atom.directions, color);
                    if directions.is_empty() {
                        continue;
                    }
                    let along = match atom.limits.along {
                        Some(region) => match plan.regions.get(region) {
                            Some(squares) => Some(squares[color.index()]),
                            None => {
                                return Err(CodegenError::Model(format!(
                                    "piece {kind} moves along region {region}, which does not exist"
                                )))
                            }
                        },
                        None => None,
                    };
                    let component = plan.component(Component {
                        motion: ComponentMotion::of(atom.motion),
                        directions,
                        along,
                    });
                    per_color[color.index()].push(AtomPlan {
                        component,
                        mode: atom.mode,
                        condition: atom.condition,
                        not_over: atom.limits.not_over.clone(),
                        not_capturing: atom.limits.not_capturing.clone(),
                        not_from_check: atom.limits.not_from_check,
                    });
                }
            }
            plan.atoms.push(per_color);
        }
        // Attackers read the reverse components of leaps and rides.
        for kind in 0..plan.atoms.len() {
            for color in 0..2 {
                for a in 0..plan.atoms[kind][color].len() {
                    let atom = plan.atoms[kind][color][a].clone();
                    if atom.mode != MoveMode::MoveOnly {
                        plan.reverse_component(atom.component);
                    }
                }
            }
        }
        plan.plan_promotions()?;
        plan.fast_legal = plan.fast_legal_applies();
        Ok(plan)
    }

    /// The index of `component`, registering it and the rays it reads.
    fn component(&mut self, component: Component) -> usize {
        if let Some(i) = self.components.iter().position(|c| *c == component) {
            return i;
        }
        for &d in &component.directions {
            match component.motion {
                ComponentMotion::Ride(max) => {
                    self.ray(d, max);
                    self.ray(d, None);
                }
                ComponentMotion::HopAdjacent | ComponentMotion::HopAny => {
                    self.ray(d, None);
                    self.ray(d, Some(1));
                    self.ray((-d.0, -d.1), None);
                    self.ray((-d.0, -d.1), Some(1));
                }
                ComponentMotion::Leap | ComponentMotion::LameLeap => {}
            }
        }
        self.components.push(component);
        self.components.len() - 1
    }

    /// The index of ray table `(direction, max)`, registering it.
    pub fn ray(&mut self, direction: (i32, i32), max: Option<u8>) -> usize {
        if let Some(i) = self.rays.iter().position(|r| *r == (direction, max)) {
            return i;
        }
        self.rays.push((direction, max));
        self.rays.len() - 1
    }

    /// The index of a registered ray table.
    pub fn ray_index(&self, direction: (i32, i32), max: Option<u8>) -> usize {
        self.rays
            .iter()
            .position(|r| *r == (direction, max))
            .unwrap_or_default()
    }

    /// For leaps and rides: the component with the negated directions
    /// (the squares a piece attacks `square` from). Lame leaps and hops have
    /// their own reverse functions and return themselves.
    pub fn reverse_component(&mut self, component: usize) -> usize {
        let c = self.components[component].clone();
        match c.motion {
            ComponentMotion::Leap | ComponentMotion::Ride(_) => {
                let mut directions: Vec<(i32, i32)> =
                    c.directions.iter().map(|(x, y)| (-x, -y)).collect();
                directions.sort_unstable();
                self.component(Component {
                    motion: c.motion,
                    directions,
                    along: c.along,
                })
            }
            _ => component,
        }
    }

    /// The registered reverse of a component (see [`Plan::reverse_component`]).
    pub fn reverse_of(&self, component: usize) -> usize {
        let c = &self.components[component];
        match c.motion {
            ComponentMotion::Leap | ComponentMotion::Ride(_) => {
                let mut directions: Vec<(i32, i32)> =
                    c.directions.iter().map(|(x, y)| (-x, -y)).collect();
                directions.sort_unstable();
                self.components
                    .iter()
                    .position(|o| {
                        o.motion == c.motion && o.directions == directions && o.along == c.along
                    })
                    .unwrap_or(component)
            }
            _ => component,
        }
    }

    fn plan_promotions(&mut self) -> Result<(), CodegenError> {
        let variant = self.variant;
        let kinds = variant.pieces.len();
        for (i, rule) in variant.promotions.iter().enumerate() {
            if rule.zone >= variant.regions.len() {
                return Err(CodegenError::Model(format!(
                    "promotion rule {i} refers to region {}, which does not exist",
                    rule.zone
                )));
            }
            if rule
                .choices
                .iter()
                .chain(rule.pieces.iter())
                .any(|k| *k >= kinds)
            {
                return Err(CodegenError::Model(format!(
                    "promotion rule {i} refers to a piece kind that does not exist"
                )));
            }
        }
        self.first_rule_squares = vec![vec![[Bits::EMPTY; 2]; kinds]; variant.promotions.len()];
        for kind in 0..kinds {
            let mut zones: [Vec<PromotionZone>; 2] = [Vec::new(), Vec::new()];
            for (color, zones) in zones.iter_mut().enumerate() {
                let side = Color::ALL[color];
                for (i, rule) in variant.promotions.iter().enumerate() {
                    let mut squares = Bits::EMPTY;
                    for square in 0..self.geometry.squares {
                        let (file, rank) = self.geometry.coords(square);
                        let at = Square::new(file as u8, rank as u8);
                        if self.geometry.board.contains(square)
                            && variant.promotion_rule_at(kind, side, at) == Some(i)
                        {
                            squares.insert(square);
                        }
                    }
                    self.first_rule_squares[i][kind][color] = squares;
                    if rule.timing == PromotionTiming::Immediate && !squares.is_empty() {
                        zones.push(PromotionZone { rule: i, squares });
                    }
                }
            }
            self.promotion_zones.push(zones);
        }
        Ok(())
    }

    /// Whether a promotion rule is optional (the player may keep the piece).
    /// Conditions such as a clock are false without clocks: mandatory.
    pub fn is_optional(&self, rule: usize) -> bool {
        matches!(
            self.variant.promotions.get(rule).map(|r| &r.obligation),
            Some(Obligation::Optional)
        )
    }

    /// The check-and-pin generator is exact when every attack is a leap or
    /// a ride (moving a piece can only uncover a ride along its line) with
    /// no limits (`along`, `not over`, `not capturing`), no
    /// royal piece promotes, no kind is confined (its attacks would depend
    /// on the attacked square), royal pieces may face each other (facing
    /// is an attack no mask counts) and captures do not explode (a blast
    /// removes pieces off the capture's line): otherwise moves are made and tested.
    fn fast_legal_applies(&self) -> bool {
        if self.variant.legality.check_rule != CheckRule::RoyalMayNotBeAttacked
            || self.variant.legality.royal_facing != RoyalFacing::Allowed
            || self.variant.explosion.is_some()
            || self.variant.pieces.iter().any(|p| p.confined.is_some())
            || self
                .variant
                .pieces
                .iter()
                .any(|p| p.moves.iter().any(|atom| !atom.limits.is_none()))
        {
            return false;
        }
        let attacks_plain = self.atoms.iter().all(|per_color| {
            per_color.iter().flatten().all(|atom| {
                atom.mode == MoveMode::MoveOnly
                    || matches!(
                        self.components[atom.component].motion,
                        ComponentMotion::Leap | ComponentMotion::Ride(_)
                    )
            })
        });
        let royal_promotes = self.variant.promotions.iter().any(|rule| {
            rule.pieces
                .iter()
                .chain(rule.choices.iter())
                .any(|k| self.variant.pieces.get(*k).is_some_and(|p| p.royal))
        });
        attacks_plain && !royal_promotes
    }

    /// The rider lines along which `color`'s pieces attack: for each ride
    /// atom that can capture, per direction, the kinds and condition,
    /// merged when equal. Keys: `(direction, max, condition key)`.
    pub fn attack_lines(&self, color: usize) -> Vec<AttackLine> {
        type LineKey = ((i32, i32), Option<u8>, String);
        let mut lines: BTreeMap<LineKey, AttackLine> = BTreeMap::new();
        for (kind, per_color) in self.atoms.iter().enumerate() {
            for atom in &per_color[color] {
                if atom.mode == MoveMode::MoveOnly {
                    continue;
                }
                let component = &self.components[atom.component];
                let ComponentMotion::Ride(max) = component.motion else {
                    continue;
                };
                for &direction in &component.directions {
                    let key = (direction, max, format!("{:?}", atom.condition));
                    let line = lines.entry(key).or_insert_with(|| AttackLine {
                        direction,
                        max,
                        condition: atom.condition,
                        kinds: Vec::new(),
                    });
                    if !line.kinds.contains(&kind) {
                        line.kinds.push(kind);
                    }
                }
            }
        }
        lines.into_values().collect()
    }

    /// Attack groups of `color`: each (reverse function, condition) with the
    /// kinds that attack that way.
    pub fn attack_groups(&self, color: usize) -> Vec<AttackGroup> {
        let mut groups: Vec<AttackGroup> = Vec::new();
        for (kind, per_color) in self.atoms.iter().enumerate() {
            for atom in &per_color[color] {
                if atom.mode == MoveMode::MoveOnly {
                    continue;
                }
                let reverse = self.reverse_of(atom.component);
                match groups.iter_mut().find(|g| {
                    g.reverse == reverse
                        && g.condition == atom.condition
                        && g.not_over == atom.not_over
                        && g.not_capturing == atom.not_capturing
                }) {
                    Some(group) => {
                        if !group.kinds.contains(&kind) {
                            group.kinds.push(kind);
                        }
                    }
                    None => groups.push(AttackGroup {
                        reverse,
                        condition: atom.condition,
                        kinds: vec![kind],
                        not_over: atom.not_over.clone(),
                        not_capturing: atom.not_capturing.clone(),
                    }),
                }
            }
        }
        groups
    }
}

/// Pieces that attack along one rider direction.
#[derive(Clone, Debug)]
pub struct AttackLine {
    /// The attacker's absolute direction.
    pub direction: (i32, i32),
    /// Longest ride.
    pub max: Option<u8>,
    /// The atom's condition (on the attacker).
    pub condition: AtomCondition,
    /// Kinds that attack this way.
    pub kinds: Vec<usize>,
}

/// Pieces that attack through one reverse lookup.
#[derive(Clone, Debug)]
pub struct AttackGroup {
    /// The component to call from the attacked square (for lame leaps and
    /// hops: the component whose reverse function to call).
    pub reverse: usize,
    /// The atom's condition (on the attacker).
    pub condition: AtomCondition,
    /// Kinds that attack this way.
    pub kinds: Vec<usize>,
    /// Kinds the hop's screen may not be (`not over`).
    pub not_over: Vec<usize>,
    /// Kinds this way does not attack (`not capturing`).
    pub not_capturing: Vec<usize>,
}
