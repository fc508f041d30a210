//! The search's view of a game: a position with its history, moved along a
//! line of play with [`Tree::make`] and [`Tree::unmake`], that applies every
//! rule the game layer applies after a move, in the same order as
//! [`crate::game::Game`] does:
//!
//! 1. the move's [events](MoveEvents) update the counters and the plies
//!    since the last reset event;
//! 2. the legal moves: the back end's, then the history rules (IRC) over
//!    the line's past positions;
//! 3. the position's identity and how often it occurred (repetition rules);
//! 4. the awarded wins (one that ends the game ends it);
//! 5. the automatic terminations in file order, and the claims open to the
//!    side to move.
//!
//! Conditions are evaluated by the game layer's
//! [`crate::game::condition::Context`], outcomes resolved and
//! awards granted by its own functions; what is written again here is only
//! the order of the steps above, kept in step with the game by the
//! differential test `engine_tree_matches_game` (tests/engine_rules.rs).
//!
//! Clocks are not seen below the root (conditions on clocks are false), so
//! A5's clock-dependent promotion option exists at the root only.

use super::order::is_tactical;
use super::outcome::{resolve_ending, Ending};
use crate::board::Board;
use crate::game::awards;
use crate::game::condition::{
    move_targets, reads_checking_kinds, reads_move_targets, Context, Precheck,
};
use crate::game::events::checking_kinds;
use crate::game::legality::apply_history_rules;
use crate::game::{AwardedWin, Game, Identity, MoveEvents, Repetitions};
use crate::model::{Color, Condition, Termination, Trigger, Variant};
use crate::rules::Rules;

/// What the rules make of the current node; `M` is the back end's move
/// ([`Rules::Move`]).
#[derive(Clone, Debug)]
pub struct NodeRules<M> {
    /// The legal moves (history rules applied) once listed
    /// ([`Tree::legal_moves`]); empty before.
    legal: Vec<M>,
    /// Whether `legal` holds every legal move.
    listed: bool,
    /// Whether the side to move has a legal move.
    pub has_legal_move: bool,
    /// Whether a royal piece of the side to move is attacked.
    pub in_check: bool,
    /// The game ended here (awards or an automatic termination).
    pub ending: Option<Ending>,
    /// The claims open to the side to move.
    pub claims: Vec<Ending>,
}

// By hand: a derive would ask `M: Default`.
impl<M> Default for NodeRules<M> {
    fn default() -> Self {
        NodeRules {
            legal: Vec::new(),
            listed: false,
            has_legal_move: false,
            in_check: false,
            ending: None,
            claims: Vec::new(),
        }
    }
}

/// The state of one position of the line.
#[derive(Clone, Debug)]
struct NodeState<M> {
    identity: Identity,
    hash: u64,
    moves_made: u32,
    plies_since_reset: u32,
    last_move: Option<MoveEvents>,
    awarded_len: usize,
    rules: NodeRules<M>,
}

/// Facts of the variant that decide which work a node needs.
#[derive(Clone, Debug)]
struct Needs {
    events: bool,
    history_rules: bool,
    awards: bool,
    /// A rule asks where the legal moves go: every node lists them.
    move_targets: bool,
    /// A rule asks which kinds give check: nodes in check name them.
    checking_kinds: bool,
    /// The automatic termination rules, then the claims, each as its
    /// index and its [`Precheck`], in file order.
    automatic: Vec<(usize, Precheck)>,
    claims: Vec<(usize, Precheck)>,
}

/// A game position with its history, for the search.
#[derive(Clone, Debug)]
pub struct Tree<R: Rules> {
    rules: R,
    needs: Needs,
    position: R::Position,
    /// The positions the moves of the line left behind, oldest first (the
    /// game's moves, then the search's). Taking a move back restores the
    /// position kept here (counters included), so no undo record is kept.
    left_behind: Vec<R::Position>,
    /// The state of every position of the line, the current one last: one
    /// more than `left_behind` (the root's), never empty. States stay in
    /// place while the line grows and shrinks, so a node costs no copy of
    /// its state.
    states: Vec<NodeState<R::Move>>,
    /// The identity hash of every state, in the order of `states`: the
    /// repetition count reads these first, in one run of memory, and a
    /// state only where its hash matches.
    identity_hashes: Vec<u64>,
    awarded: Vec<AwardedWin>,
    /// Positions left behind by the game's moves (before the search root).
    game_plies: usize,
    /// Whether a repetition within the search's line counts as repeated
    /// as often as any rule asks ([`Tree::project_repetitions`]).
    projects_repetitions: bool,
    /// Legal-move lists of nodes taken back, reused by the next nodes.
    spare_lists: Vec<Vec<R::Move>>,
    /// The current node's legal moves as (kind, destination), where a rule
    /// reads them ([`reads_move_targets`]).
    move_targets: Vec<(crate::model::PieceId, crate::model::Square)>,
    /// The kinds giving the current node's side to move check, where a
    /// rule reads them ([`reads_checking_kinds`]).
    checking_kinds: Vec<crate::model::PieceId>,
}

fn condition_reads_events(condition: &Condition) -> bool {
    match condition {
        Condition::LastMove(_) => true,
        Condition::And(a, b) | Condition::Or(a, b) => {
            condition_reads_events(a) || condition_reads_events(b)
        }
        Condition::Not(a) => condition_reads_events(a),
        _ => false,
    }
}

impl Needs {
    fn of(variant: &Variant) -> Needs {
        let outcome_conditions = variant
            .terminations
            .iter()
            .any(|t| condition_reads_events(&t.condition) || outcome_reads_events(&t.outcome));
        Needs {
            events: !variant.counters.is_empty()
                || variant.counting.in_use()
                || !variant.awards.is_empty()
                || outcome_conditions
                || variant
                    .ply_reset_events
                    .iter()
                    .any(crate::moves::reads_position_after),
            history_rules: !variant.legality.history_rules.is_empty(),
            move_targets: reads_move_targets(variant),
            checking_kinds: reads_checking_kinds(variant),
            awards: !variant.awards.is_empty(),
            automatic: prechecks(variant, Trigger::Automatic),
            claims: prechecks(variant, Trigger::Claim),
        }
    }
}

fn prechecks(variant: &Variant, trigger: Trigger) -> Vec<(usize, Precheck)> {
    variant
        .terminations
        .iter()
        .enumerate()
        .filter(|(_, rule)| rule.trigger == trigger)
        .map(|(index, rule)| (index, Precheck::of(&rule.condition)))
        .collect()
}

fn outcome_reads_events(outcome: &crate::model::Outcome) -> bool {
    match outcome {
        crate::model::Outcome::If(c, a, b) => {
            condition_reads_events(c) || outcome_reads_events(a) || outcome_reads_events(b)
        }
        _ => false,
    }
}

impl<R: Rules + Clone> Tree<R> {
    /// The tree rooted at the current position of `game`, with its history.
    /// The root's legal moves are the game's (A5's options included).
    pub fn from_game(game: &Game<R>) -> Tree<R> {
        let rules = game.rules().clone();
        let mut tree = Tree::new(rules, game.start_position().clone());
        for step in game.steps() {
            if let crate::game::Action::Move(mv) = step.action {
                tree.make(&mv);
            }
        }
        tree.game_plies = tree.left_behind.len();
        tree.position = game.position().clone();
        tree.awarded = game.awards().to_vec();
        let hash = super::tt::position_hash(&tree.rules, &tree.position, &tree.awarded);
        let awarded_len = tree.awarded.len();
        let current = tree.current_mut();
        current.plies_since_reset = game.plies_since_reset();
        current.awarded_len = awarded_len;
        current.hash = hash;
        current.rules.legal = game.legal_moves().to_vec();
        current.rules.listed = true;
        current.rules.has_legal_move = !game.legal_moves().is_empty();
        current.rules.ending = None;
        tree.refresh_claims();
        tree
    }

    /// A tree whose root is `position`, with no history.
    pub fn new(rules: R, position: R::Position) -> Tree<R> {
        let needs = Needs::of(rules.variant());
        let plies = position.halfmove_clock();
        let identity = Identity::of(&rules, &position, &[]);
        let mut tree = Tree {
            needs,
            states: vec![NodeState {
                identity,
                hash: 0,
                moves_made: 0,
                plies_since_reset: plies,
                last_move: None,
                awarded_len: 0,
                rules: NodeRules::default(),
            }],
            position,
            left_behind: Vec::new(),
            identity_hashes: Vec::new(),
            awarded: Vec::new(),
            game_plies: 0,
            projects_repetitions: false,
            spare_lists: Vec::new(),
            move_targets: Vec::new(),
            checking_kinds: Vec::new(),
            rules,
        };
        tree.settle(false, None);
        tree
    }

    /// The current node's state.
    fn current(&self) -> &NodeState<R::Move> {
        let last = self.states.len() - 1;
        &self.states[last]
    }

    fn current_mut(&mut self) -> &mut NodeState<R::Move> {
        let last = self.states.len() - 1;
        &mut self.states[last]
    }

    /// The move generator.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &R::Position {
        &self.position
    }

    /// Appends the legal captures and promotions of the current node
    /// (history rules applied) to `out`: from its list when it has one,
    /// else from the back end's [`Rules::generate_tactical`] where it can,
    /// without listing every move.
    pub fn tactical_moves(&mut self, out: &mut Vec<R::Move>) {
        let first = out.len();
        // A node with history rules is always listed (see `settle`).
        if self.current().rules.listed || !self.rules.generate_tactical(&self.position, out) {
            out.extend_from_slice(self.legal_moves());
        }
        let (rules, position) = (&self.rules, &self.position);
        let mut kept = first;
        for i in first..out.len() {
            if is_tactical(rules, position, &out[i]) {
                out.swap(kept, i);
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// What the rules make of the current node.
    pub fn node(&self) -> &NodeRules<R::Move> {
        &self.current().rules
    }

    /// The legal moves of the current node (history rules applied), listed
    /// on the first call: a node settled without them (the back end told
    /// whether one exists, [`Rules::has_legal_move`]) lists them here.
    pub fn legal_moves(&mut self) -> &[R::Move] {
        let last = self.states.len() - 1;
        let node = &mut self.states[last].rules;
        if !node.listed {
            let mut scratch = self.position.clone();
            self.rules.generate_legal(&mut scratch, &mut node.legal);
            node.listed = true;
        }
        &node.legal
    }

    /// The position before the last move of the line, if any.
    pub fn previous_position(&self) -> Option<&R::Position> {
        self.left_behind.last()
    }

    /// The hash of the current node (position, counters, awarded wins).
    pub fn hash(&self) -> u64 {
        self.current().hash
    }

    /// Plies made since the search root.
    pub fn ply(&self) -> usize {
        self.left_behind.len() - self.game_plies
    }

    /// The wins awarded on the line so far, White first.
    pub fn awarded_wins(&self) -> [u32; 2] {
        awards::total_wins(&self.awarded)
    }

    /// Plays `mv` (one of the node's legal moves) and settles the new node.
    pub fn make(&mut self, mv: &R::Move) {
        self.make_with(mv, |_| {});
    }

    /// [`Tree::make`], telling `before_settling` the new node's hash (as
    /// [`Tree::hash`] will give it, unless the move grants an award) as
    /// soon as it is known, before the node is settled: the search asks
    /// for the table's entry then, so that memory brings it while the
    /// rules settle the node.
    pub fn make_with(&mut self, mv: &R::Move, before_settling: impl FnOnce(u64)) {
        let next = self.rules.play(&self.position, mv);
        let before = std::mem::replace(&mut self.position, next);
        let mover = before.side_to_move();
        let events = self
            .needs
            .events
            .then(|| MoveEvents::of(&self.rules, &before, mv, &self.position));
        let variant = self.rules.variant();
        let resets = match &events {
            Some(events) => {
                events.count_into(variant, self.position.counters_mut(mover));
                crate::game::counting::advance(variant, &mut self.position, events);
                variant.ply_reset_events.iter().any(|p| events.matches(p))
            }
            None => self.position.halfmove_clock() == 0,
        };
        let hash = super::tt::position_hash(&self.rules, &self.position, &self.awarded);
        before_settling(hash);
        let parent = self.current();
        let state = NodeState {
            identity: parent.identity.clone(),
            hash: 0,
            moves_made: parent.moves_made + 1,
            plies_since_reset: if resets {
                0
            } else {
                parent.plies_since_reset.saturating_add(1)
            },
            last_move: events,
            awarded_len: self.awarded.len(),
            rules: NodeRules::default(),
        };
        self.enter(before, state, Some(hash));
    }

    /// Passes the turn (the search's null move, see
    /// [`super::pruning`]) and settles the new node. The pass counts as a
    /// reset of the plies since the last irreversible move, so that no
    /// repetition in a row reaches across it.
    pub fn make_null(&mut self) {
        let before = self.position.clone();
        self.rules.pass_turn(&mut self.position);
        let parent = self.current();
        let state = NodeState {
            identity: parent.identity.clone(),
            hash: 0,
            moves_made: parent.moves_made + 1,
            plies_since_reset: 0,
            last_move: None,
            awarded_len: self.awarded.len(),
            rules: NodeRules::default(),
        };
        self.enter(before, state, None);
    }

    /// Enters the child node `state`, keeping the position `before` and the
    /// parent's state to take the move back, and settles the new node
    /// (whose hash before any award is `hash`, where known).
    fn enter(&mut self, before: R::Position, state: NodeState<R::Move>, hash: Option<u64>) {
        self.left_behind.push(before);
        self.states.push(state);
        self.settle(true, hash);
    }

    /// Takes back the last move made with [`Tree::make`] (or the pass of
    /// [`Tree::make_null`]).
    pub fn unmake(&mut self) {
        let Some(position) = self.left_behind.pop() else {
            return;
        };
        self.position = position;
        let child = self.current_mut();
        let (awarded_len, legal) = (child.awarded_len, std::mem::take(&mut child.rules.legal));
        self.states.truncate(self.left_behind.len() + 1);
        self.identity_hashes.truncate(self.states.len());
        self.awarded.truncate(awarded_len);
        self.spare_lists.push(legal);
    }

    fn context<'a>(
        &'a self,
        has_legal_move: bool,
        in_check: bool,
        repetitions: Repetitions,
    ) -> Context<'a, R::Position> {
        Context {
            variant: self.rules.variant(),
            position: &self.position,
            in_check,
            has_legal_move,
            repetitions,
            plies_since_reset: self.current().plies_since_reset,
            last_move: self.current().last_move.as_ref(),
            move_targets: &self.move_targets,
            checking_kinds: &self.checking_kinds,
            clock: None,
        }
    }

    /// Legal moves, identity, repetitions, awards, terminations, claims.
    /// The moves are listed only where a rule needs them: history rules
    /// filter them, and an en passant target counts for the identity only
    /// if a capture onto it is legal; elsewhere whether a legal move exists
    /// is all the node's rules ask, and the back end may know it without
    /// listing them ([`Rules::has_legal_move`]). `hash` is the node's
    /// hash before any award the move grants, where the caller knows it.
    fn settle(&mut self, after_move: bool, mut hash: Option<u64>) {
        let mut legal = self
            .spare_lists
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(64));
        legal.clear();
        let (in_check, known) = if self.needs.history_rules
            || self.needs.move_targets
            || self.position.en_passant().is_some()
        {
            (self.rules.in_check(&self.position), None)
        } else {
            self.rules.check_and_legal_move(&self.position)
        };
        let (has_legal_move, listed) = match known {
            // No move at all: the empty list is the whole list.
            Some(exists) => (exists, !exists),
            None => {
                let mut scratch = self.position.clone();
                self.rules.generate_legal(&mut scratch, &mut legal);
                if self.needs.history_rules {
                    apply_history_rules(&self.rules, &self.left_behind, &mut scratch, &mut legal);
                }
                (!legal.is_empty(), true)
            }
        };
        // Unlisted moves only where there is no en passant target, which
        // is the one part of the identity that reads them.
        let identity = Identity::of(&self.rules, &self.position, &legal);
        let node = self.states.len() - 1;
        self.identity_hashes.truncate(node);
        self.identity_hashes.push(identity.hash);
        self.current_mut().identity = identity;
        if self.needs.move_targets {
            self.move_targets = move_targets(&self.rules, &self.position, &legal);
        }
        if self.needs.checking_kinds {
            self.checking_kinds = if in_check {
                checking_kinds(&self.rules, &self.position, self.position.side_to_move())
            } else {
                Vec::new()
            };
        }
        let repetitions = self.count_repetitions();
        let mut ending = None;
        if after_move && self.needs.awards {
            let context = self.context(has_legal_move, in_check, repetitions);
            let ply = self.current().moves_made;
            let mut awarded = self.awarded.clone();
            let (_, ends) = awards::grant(&context, &mut awarded, ply);
            if ends.is_some() {
                ending = Some(Ending::game_over(awards::total_wins(&awarded)));
            }
            self.awarded = awarded;
            // An award is part of the hash.
            hash = None;
        }
        self.current_mut().hash = hash.unwrap_or_else(|| {
            super::tt::position_hash(&self.rules, &self.position, &self.awarded)
        });
        let wins = self.awarded_wins();
        let context = self.context(has_legal_move, in_check, repetitions);
        if ending.is_none() {
            ending = self
                .rules_holding(&context, Trigger::Automatic)
                .next()
                .map(|rule| resolve_ending(&context, rule, wins));
        }
        let claims = if ending.is_none() {
            self.rules_holding(&context, Trigger::Claim)
                .map(|rule| resolve_ending(&context, rule, wins))
                .collect()
        } else {
            Vec::new()
        };
        self.current_mut().rules = NodeRules {
            legal,
            listed,
            has_legal_move,
            in_check,
            ending,
            claims,
        };
    }

    /// Recomputes the claims of the current node (after the root was taken
    /// from a game).
    fn refresh_claims(&mut self) {
        let repetitions = self.count_repetitions();
        let in_check = self.rules.in_check(&self.position);
        let wins = self.awarded_wins();
        let has_legal_move = self.current().rules.has_legal_move;
        let context = self.context(has_legal_move, in_check, repetitions);
        let claims = self
            .rules_holding(&context, Trigger::Claim)
            .map(|rule| resolve_ending(&context, rule, wins))
            .collect();
        let node = &mut self.current_mut().rules;
        node.claims = claims;
        node.in_check = in_check;
    }

    /// The termination rules with `trigger` whose condition holds, in file
    /// order (each tried on its precheck first).
    fn rules_holding<'a>(
        &'a self,
        context: &'a Context<'a, R::Position>,
        trigger: Trigger,
    ) -> impl Iterator<Item = &'a Termination> + 'a {
        let terminations = &self.rules.variant().terminations;
        let rules = match trigger {
            Trigger::Automatic => &self.needs.automatic,
            Trigger::Claim => &self.needs.claims,
        };
        rules.iter().filter_map(move |&(index, precheck)| {
            if !context.may_hold(precheck) {
                return None;
            }
            terminations
                .get(index)
                .filter(|rule| context.holds(&rule.condition))
        })
    }

    fn count_repetitions(&self) -> Repetitions {
        let current = self.current();
        let first_in_row = current.moves_made.saturating_sub(current.plies_since_reset);
        let mut repetitions = Repetitions {
            total: 1,
            in_a_row: 1,
        };
        let mut projected = false;
        let earlier =
            &self.identity_hashes[..self.left_behind.len().min(self.identity_hashes.len())];
        for (index, &hash) in earlier.iter().enumerate() {
            if hash != current.identity.hash {
                continue;
            }
            let (Some(position), Some(before)) =
                (self.left_behind.get(index), self.states.get(index))
            else {
                continue;
            };
            if !before
                .identity
                .same_as(position, &current.identity, &self.position)
            {
                continue;
            }
            repetitions.total += 1;
            if before.moves_made >= first_in_row {
                repetitions.in_a_row += 1;
                projected |= self.projects_repetitions && index >= self.game_plies;
            }
        }
        if projected {
            repetitions.total = u32::MAX;
            repetitions.in_a_row = u32::MAX;
        }
        repetitions
    }

    /// From now on, a position that repeats one of the search's own line
    /// (the root or a later one), with no irreversible move or pass
    /// between them, counts as occurring as often as any repetition rule
    /// asks: the side that repeated can repeat again, so the line is
    /// valued as the rule's ending (a draw in chess) at its first return
    /// rather than its third, as engines do. The root's own counts stay
    /// those of the game.
    pub fn project_repetitions(&mut self) {
        self.projects_repetitions = true;
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.position.side_to_move()
    }
}
