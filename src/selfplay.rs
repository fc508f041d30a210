//! Self-play: the engine against itself, for variant designers (is the game
//! balanced, drawish, how does it end, how long does it last?).
//!
//! Game `i` of a run (0-based) starts with `opening_plies` random legal
//! moves drawn from a generator seeded by `(seed, i)`, then both sides
//! search within the run's limits. A side claims whatever the rules let it
//! claim when the claim is worth at least its best move. So game `i` is the
//! same whichever shard plays it: a run split with `--shard i/n` over many
//! machines and [merged](Summary::merge) gives exactly the summary of the
//! whole run.
//!
//! Every move is checked by the game layer; a game that reaches
//! `max_plies` without the rules ending it is counted as unfinished.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use thiserror::Error;
use varc_runtime::board::Board;
use varc_runtime::game::{Game, GameResult, ResultKind};
use varc_runtime::model::Color;
use varc_runtime::rules::Rules;
use varc_runtime::search::tt::mix;
use varc_runtime::search::{Engine, Limits};

/// Settings of a self-play run (the same for every shard of it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The variant's id.
    pub variant: String,
    /// Games in the whole run.
    pub games: u32,
    /// Search depth per move, if fixed.
    pub depth: Option<u32>,
    /// Search time per move in milliseconds, if fixed.
    pub movetime_ms: Option<u64>,
    /// Seed of the random openings.
    pub seed: u64,
    /// Random plies at the start of each game.
    pub opening_plies: u32,
    /// Plies after which a game is stopped as unfinished.
    pub max_plies: u32,
}

impl Settings {
    /// The search limits of one move.
    pub fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            movetime_ms: self.movetime_ms,
            ..Limits::default()
        }
    }
}

/// Which games of the run a process plays: those whose 0-based index `g`
/// has `g % count == index - 1` (`index` is 1-based: `--shard 2/4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// 1-based shard number.
    pub index: u32,
    /// Number of shards.
    pub count: u32,
}

/// A shard text that cannot be read.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("cannot read shard {text:?}: expected i/n with 1 <= i <= n (\"2/8\")")]
pub struct ShardError {
    /// The text.
    pub text: String,
}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let error = || ShardError {
            text: text.to_string(),
        };
        let (index, count) = text.split_once('/').ok_or_else(error)?;
        let index: u32 = index.trim().parse().map_err(|_| error())?;
        let count: u32 = count.trim().parse().map_err(|_| error())?;
        if count == 0 || index == 0 || index > count {
            return Err(error());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// The game indices of this shard among `games`.
    pub fn games(&self, games: u32) -> impl Iterator<Item = u32> + '_ {
        let (index, count) = (self.index, self.count);
        (0..games).filter(move |g| g % count == index - 1)
    }
}

/// One finished (or stopped) self-play game.
#[derive(Clone, Debug)]
pub struct PlayedGame<R: Rules> {
    /// Index of the game in the run.
    pub index: u32,
    /// The game, with its history.
    pub game: Game<R>,
    /// Plies played.
    pub plies: u32,
    /// A move the game layer refused (a bug), if any.
    pub refused: Option<String>,
}

/// A self-play game as [`Summary`] counts it.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// The result, or `None` if the game was stopped at the ply limit.
    pub result: Option<GameResult>,
    /// Plies played.
    pub plies: u32,
    /// Whether a move was refused.
    pub refused: bool,
}

/// Plays game `index` of the run `settings` with `rules`.
pub fn play_game<R: Rules + Clone>(rules: &R, settings: &Settings, index: u32) -> PlayedGame<R> {
    let mut random = mix(settings.seed ^ mix(u64::from(index) + 1));
    let mut game = match Game::new(rules.clone()) {
        Ok(game) => game,
        Err(error) => {
            let empty = rules.import(&varc_runtime::position::Position::empty(8, 8, 0));
            return PlayedGame {
                index,
                game: Game::from_position(rules.clone(), empty, None),
                plies: 0,
                refused: Some(format!("the start position: {error}")),
            };
        }
    };
    let mut engines = [Engine::new(rules.variant()), Engine::new(rules.variant())];
    let limits = settings.limits();
    let stop = AtomicBool::new(false);
    let mut plies = 0;
    let mut refused = None;
    while game.result().is_none() && plies < settings.max_plies {
        let side = game.position().side_to_move();
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let chosen = if plies < settings.opening_plies {
            random = mix(random);
            Some(legal[(random % legal.len() as u64) as usize])
        } else {
            let result = engines[side.index()].search(&game, &limits, &stop, &mut |_| {});
            if result.claim.is_some_and(|claim| claim >= result.value) && game.claim().is_ok() {
                break;
            }
            result.best
        };
        let Some(mv) = chosen else { break };
        if let Err(error) = game.play(&mv) {
            refused = Some(error.to_string());
            break;
        }
        plies += 1;
    }
    PlayedGame {
        index,
        game,
        plies,
        refused,
    }
}

impl<R: Rules> PlayedGame<R> {
    /// What the summary counts of this game.
    pub fn outcome(&self) -> GameOutcome {
        GameOutcome {
            result: self.game.result().cloned(),
            plies: self.plies,
            refused: self.refused.is_some(),
        }
    }

    /// The game as a record, with the run's tags.
    pub fn record(&self, settings: &Settings) -> String {
        let round = (self.index + 1).to_string();
        let seed = settings.seed.to_string();
        let mut tags = vec![
            ("Event", "varc selfplay"),
            ("Round", round.as_str()),
            ("Seed", seed.as_str()),
        ];
        if self.game.result().is_none() {
            tags.push(("Termination", "unfinished (ply limit)"));
        }
        self.game.to_record(&tags)
    }
}

/// The statistics of a run or of shards of it; shards merge exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The run's settings.
    pub settings: Settings,
    /// The shards counted, sorted.
    pub shards: Vec<Shard>,
    /// Games counted.
    pub games: u32,
    /// Games White won.
    pub white_wins: u32,
    /// Games Black won.
    pub black_wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Null games.
    pub null_games: u32,
    /// Games that ended with no result beyond awarded wins.
    pub game_over: u32,
    /// Games stopped at the ply limit.
    pub unfinished: u32,
    /// Games in which the game layer refused an engine move.
    pub refused_moves: u32,
    /// Sum of White's scores under the variant's scoring.
    pub white_score: f64,
    /// Sum of Black's scores.
    pub black_score: f64,
    /// Sum of the wins each side earned (awards included), White first.
    pub wins: [u64; 2],
    /// Games by the reason they ended ("checkmate", "stalemate wins", ...).
    pub reasons: BTreeMap<String, u32>,
    /// Games by length in plies.
    pub lengths: BTreeMap<u32, u32>,
}

/// Why summaries cannot be merged, or a summary cannot be trusted.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum MergeError {
    /// The settings differ.
    #[error("the summaries come from different runs: {0:?} and {1:?}")]
    DifferentRuns(Box<Settings>, Box<Settings>),
    /// A shard is counted twice.
    #[error("shard {index}/{count} is counted twice")]
    Overlap {
        /// The shard's index.
        index: u32,
        /// The shard count.
        count: u32,
    },
    /// Shards of splits into different numbers of shards: their games
    /// overlap and leave gaps (1/2 and 1/3 both hold game 0).
    #[error("shards of {first} and of {other} cannot be merged: a run is split one way")]
    DifferentSplits {
        /// The shard count seen first.
        first: u32,
        /// The other shard count.
        other: u32,
    },
    /// A shard index outside `1..=count`, or a summary with no shard.
    #[error("shard {index}/{count} does not exist (expected 1/{count} to {count}/{count})")]
    NoSuchShard {
        /// The shard's index.
        index: u32,
        /// The shard count.
        count: u32,
    },
    /// The counts of a summary do not add up.
    #[error("the counts do not add up: {0}")]
    Inconsistent(String),
    /// Shards of the run are missing.
    #[error("shards {} of {count} are missing: the merged summary would not be the run's", list(.missing))]
    Missing {
        /// The missing indices.
        missing: Vec<u32>,
        /// The shard count.
        count: u32,
    },
}

fn list(indices: &[u32]) -> String {
    indices
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The reason of a result without the figures that vary from game to game
/// ("with 3 pieces", "decided by material count 12 to 9").
pub fn reason_kind(reason: &str) -> String {
    let mut text = reason.to_string();
    for cut in [" with ", ", decided by", ", equal material"] {
        if let Some(at) = text.find(cut) {
            text.truncate(at);
        }
    }
    text
}

impl Summary {
    /// An empty summary of `shard` of the run `settings`.
    pub fn new(settings: Settings, shard: Shard) -> Summary {
        Summary {
            settings,
            shards: vec![shard],
            games: 0,
            white_wins: 0,
            black_wins: 0,
            draws: 0,
            null_games: 0,
            game_over: 0,
            unfinished: 0,
            refused_moves: 0,
            white_score: 0.0,
            black_score: 0.0,
            wins: [0; 2],
            reasons: BTreeMap::new(),
            lengths: BTreeMap::new(),
        }
    }

    /// Counts one game.
    pub fn add(&mut self, outcome: &GameOutcome) {
        self.games += 1;
        *self.lengths.entry(outcome.plies).or_default() += 1;
        if outcome.refused {
            self.refused_moves += 1;
        }
        let Some(result) = &outcome.result else {
            self.unfinished += 1;
            *self
                .reasons
                .entry("unfinished (ply limit)".into())
                .or_default() += 1;
            return;
        };
        match result.kind {
            ResultKind::Win(Color::White) => self.white_wins += 1,
            ResultKind::Win(Color::Black) => self.black_wins += 1,
            ResultKind::Draw => self.draws += 1,
            ResultKind::NullGame => self.null_games += 1,
            ResultKind::GameOver => self.game_over += 1,
        }
        self.white_score += result.scores[0];
        self.black_score += result.scores[1];
        self.wins[0] += u64::from(result.wins[0]);
        self.wins[1] += u64::from(result.wins[1]);
        *self.reasons.entry(reason_kind(&result.reason)).or_default() += 1;
    }

    /// Checks that this summary can be what shards of its run counted: its
    /// shards exist, are of one split and distinct; its games are their
    /// share of the run; and the counts add up (each game has exactly one
    /// outcome, one reason and one length). A summary file edited by hand
    /// or from another version fails here rather than skewing a merge.
    pub fn check(&self) -> Result<(), MergeError> {
        let Some(first) = self.shards.first() else {
            return Err(MergeError::Inconsistent("no shard is named".into()));
        };
        let count = first.count;
        let mut seen = Vec::new();
        for shard in &self.shards {
            if shard.count != count {
                return Err(MergeError::DifferentSplits {
                    first: count,
                    other: shard.count,
                });
            }
            if shard.index == 0 || shard.index > shard.count {
                return Err(MergeError::NoSuchShard {
                    index: shard.index,
                    count: shard.count,
                });
            }
            if seen.contains(&shard.index) {
                return Err(MergeError::Overlap {
                    index: shard.index,
                    count,
                });
            }
            seen.push(shard.index);
        }
        let share: u64 = self
            .shards
            .iter()
            .map(|shard| shard.games(self.settings.games).count() as u64)
            .sum();
        let games = u64::from(self.games);
        let mismatch = |what: &str, value: u64| {
            MergeError::Inconsistent(format!("{what} is {value}, the games {games}"))
        };
        if games != share {
            return Err(MergeError::Inconsistent(format!(
                "{games} games counted; shards {} of a {}-game run hold {share}",
                list(&seen),
                self.settings.games
            )));
        }
        let outcomes = [
            self.white_wins,
            self.black_wins,
            self.draws,
            self.null_games,
            self.game_over,
            self.unfinished,
        ]
        .iter()
        .map(|n| u64::from(*n))
        .sum::<u64>();
        if outcomes != games {
            return Err(mismatch(
                "the sum of wins, draws, null games, games over and unfinished games",
                outcomes,
            ));
        }
        if u64::from(self.refused_moves) > games {
            return Err(mismatch(
                "the number of games with a refused move",
                u64::from(self.refused_moves),
            ));
        }
        let reasons: u64 = self.reasons.values().map(|n| u64::from(*n)).sum();
        if reasons != games {
            return Err(mismatch("the sum of the reasons games ended", reasons));
        }
        let lengths: u64 = self.lengths.values().map(|n| u64::from(*n)).sum();
        if lengths != games {
            return Err(mismatch("the sum of the game lengths", lengths));
        }
        if !(self.white_score.is_finite() && self.black_score.is_finite()) {
            return Err(MergeError::Inconsistent("a score is not a number".into()));
        }
        Ok(())
    }

    /// The indices of the shards not counted, of the split of the first
    /// shard (all of them when no shard is counted).
    pub fn missing_shards(&self) -> Vec<u32> {
        let count = self.shards.first().map_or(1, |s| s.count);
        (1..=count)
            .filter(|i| !self.shards.iter().any(|s| s.index == *i))
            .collect()
    }

    /// Adds the counts of `other`, a summary of other shards of the same run
    /// (both [checked](Summary::check) first; nothing changes on an error).
    pub fn merge(&mut self, other: &Summary) -> Result<(), MergeError> {
        self.check()?;
        other.check()?;
        if self.settings != other.settings {
            return Err(MergeError::DifferentRuns(
                Box::new(self.settings.clone()),
                Box::new(other.settings.clone()),
            ));
        }
        if let (Some(mine), Some(theirs)) = (self.shards.first(), other.shards.first()) {
            if mine.count != theirs.count {
                return Err(MergeError::DifferentSplits {
                    first: mine.count,
                    other: theirs.count,
                });
            }
        }
        for shard in &other.shards {
            if self.shards.contains(shard) {
                return Err(MergeError::Overlap {
                    index: shard.index,
                    count: shard.count,
                });
            }
        }
        self.shards.extend(other.shards.iter().copied());
        self.shards.sort_by_key(|s| (s.count, s.index));
        self.games += other.games;
        self.white_wins += other.white_wins;
        self.black_wins += other.black_wins;
        self.draws += other.draws;
        self.null_games += other.null_games;
        self.game_over += other.game_over;
        self.unfinished += other.unfinished;
        self.refused_moves += other.refused_moves;
        self.white_score += other.white_score;
        self.black_score += other.black_score;
        self.wins[0] += other.wins[0];
        self.wins[1] += other.wins[1];
        for (reason, count) in &other.reasons {
            *self.reasons.entry(reason.clone()).or_default() += count;
        }
        for (length, count) in &other.lengths {
            *self.lengths.entry(*length).or_default() += count;
        }
        Ok(())
    }

    /// Whether the shards cover the whole run (every shard `i/n` of one `n`).
    pub fn complete(&self) -> bool {
        let Some(count) = self.shards.first().map(|s| s.count) else {
            return false;
        };
        self.shards.iter().all(|s| s.count == count)
            && (1..=count).all(|i| self.shards.iter().any(|s| s.index == i))
    }

    fn length_stats(&self) -> Option<(u32, f64, u32, u32)> {
        let total: u32 = self.lengths.values().sum();
        if total == 0 {
            return None;
        }
        let min = *self.lengths.keys().next()?;
        let max = *self.lengths.keys().next_back()?;
        let sum: u64 = self
            .lengths
            .iter()
            .map(|(l, c)| u64::from(*l) * u64::from(*c))
            .sum();
        let mut seen = 0;
        let mut median = min;
        for (length, count) in &self.lengths {
            seen += count;
            if seen * 2 >= total {
                median = *length;
                break;
            }
        }
        Some((min, sum as f64 / f64::from(total), median, max))
    }

    /// The summary in words, for a terminal.
    pub fn report(&self) -> String {
        let mut out = String::new();
        let games = self.games.max(1) as f64;
        let share = |n: u32| 100.0 * n as f64 / games;
        let s = &self.settings;
        let limit = match (s.depth, s.movetime_ms) {
            (Some(d), _) => format!("depth {d}"),
            (None, Some(ms)) => format!("{ms} ms per move"),
            (None, None) => "no limit".to_string(),
        };
        out.push_str(&format!(
            "{} self-play: {} games ({limit}, seed {}, {} random opening plies)\n",
            s.variant, self.games, s.seed, s.opening_plies
        ));
        if !self.complete() || self.games != s.games {
            let shards: Vec<String> = self
                .shards
                .iter()
                .map(|sh| format!("{}/{}", sh.index, sh.count))
                .collect();
            out.push_str(&format!(
                "  shards {} of a run of {} games\n",
                shards.join(" "),
                s.games
            ));
        }
        out.push_str(&format!(
            "  white wins {:>5} ({:5.1}%)\n  black wins {:>5} ({:5.1}%)\n  draws      {:>5} ({:5.1}%)\n  null games {:>5} ({:5.1}%)\n",
            self.white_wins,
            share(self.white_wins),
            self.black_wins,
            share(self.black_wins),
            self.draws,
            share(self.draws),
            self.null_games,
            share(self.null_games)
        ));
        if self.game_over > 0 {
            out.push_str(&format!(
                "  game over  {:>5} ({:5.1}%)\n",
                self.game_over,
                share(self.game_over)
            ));
        }
        if self.unfinished > 0 {
            out.push_str(&format!(
                "  unfinished {:>5} ({:5.1}%)\n",
                self.unfinished,
                share(self.unfinished)
            ));
        }
        out.push_str(&format!(
            "  score white {:.1} ({:.3} per game), black {:.1} ({:.3} per game)\n",
            self.white_score,
            self.white_score / games,
            self.black_score,
            self.black_score / games
        ));
        if self.wins != [0, 0] {
            out.push_str(&format!(
                "  wins earned: white {}, black {}\n",
                self.wins[0], self.wins[1]
            ));
        }
        out.push_str("  how games ended:\n");
        let mut reasons: Vec<(&String, &u32)> = self.reasons.iter().collect();
        reasons.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (reason, count) in reasons {
            out.push_str(&format!(
                "    {:>5} ({:5.1}%)  {reason}\n",
                count,
                share(*count)
            ));
        }
        if let Some((min, mean, median, max)) = self.length_stats() {
            out.push_str(&format!(
                "  length in plies: min {min}, median {median}, mean {mean:.1}, max {max}\n"
            ));
            let bucket = 20;
            let mut buckets: BTreeMap<u32, u32> = BTreeMap::new();
            for (length, count) in &self.lengths {
                *buckets.entry(length / bucket).or_default() += count;
            }
            let most = buckets.values().copied().max().unwrap_or(1).max(1);
            for (b, count) in buckets {
                let bar = "#".repeat(((count * 40).div_ceil(most)) as usize);
                out.push_str(&format!(
                    "    {:>4}-{:<4} {:>5} {bar}\n",
                    b * bucket,
                    b * bucket + bucket - 1,
                    count
                ));
            }
        }
        if self.refused_moves > 0 {
            out.push_str(&format!(
                "  ENGINE MOVES REFUSED in {} games\n",
                self.refused_moves
            ));
        }
        out
    }
}
