//! The board, the start position and regions.

use super::{children, first_child, int_value, Lowerer};
use crate::error::{Error, Span};
use crate::model::*;
use crate::syntax::{Node, Rule};

impl Lowerer<'_> {
    pub(super) fn lower_board(&mut self) {
        let item = self
            .items
            .iter()
            .find(|i| i.body.as_rule() == Rule::board_stmt)
            .cloned();
        let Some(item) = item else {
            self.error(
                Error::new(self.child, Span::at(0), "the variant has no board")
                    .with_label("no `board` statement in this variant or its ancestors")
                    .with_help("add `board 8 x 8` (files x ranks, each 1 to 16)"),
            );
            return;
        };
        let ints = children(&item.body, Rule::int);
        let mut size = [8u8; 2];
        for (slot, (node, what)) in ints.iter().zip(["files", "ranks"]).enumerate() {
            let value = int_value(node);
            if value == 0 || value > MAX_BOARD_SIDE as u32 {
                self.error(
                    Error::new(
                        item.file,
                        node.as_span().into(),
                        format!("a board has 1 to {MAX_BOARD_SIDE} {what}, not {value}"),
                    )
                    .with_label(format!("{value} {what}"))
                    .with_help(format!(
                        "boards from 1x1 to {MAX_BOARD_SIDE}x{MAX_BOARD_SIDE} are supported"
                    )),
                );
            } else {
                size[slot] = value as u8;
            }
        }
        self.board.files = size[0];
        self.board.ranks = size[1];
        if let Some(holes) = first_child(&item.body, Rule::holes) {
            for square in children(&holes, Rule::square) {
                if let Some(s) = self.square(item.file, &square) {
                    self.board.holes.insert(s);
                }
            }
        }
    }

    /// A square name on this board.
    pub(super) fn square(&mut self, file: usize, node: &Node<'_>) -> Option<Square> {
        let text = node.as_str();
        let file_index = text
            .as_bytes()
            .first()
            .map(|b| b.wrapping_sub(b'a'))
            .unwrap_or(u8::MAX);
        let rank: u32 = text[1..].parse().unwrap_or(0);
        if (file_index as u32) < self.board.files as u32
            && rank >= 1
            && rank <= self.board.ranks as u32
        {
            Some(Square::new(file_index, (rank - 1) as u8))
        } else {
            self.error(
                Error::new(
                    file,
                    node.as_span().into(),
                    format!("square `{text}` is off the board"),
                )
                .with_label(format!(
                    "the board is {} x {}",
                    self.board.files, self.board.ranks
                ))
                .with_help(format!(
                    "files run a..{}, ranks 1..{}",
                    (b'a' + self.board.files - 1) as char,
                    self.board.ranks
                )),
            );
            None
        }
    }

    /// A file letter on this board.
    pub(super) fn file_letter(&mut self, file: usize, node: &Node<'_>) -> Option<u8> {
        let index = node
            .as_str()
            .as_bytes()
            .first()
            .map(|b| b.wrapping_sub(b'a'))
            .unwrap_or(u8::MAX);
        if index < self.board.files {
            Some(index)
        } else {
            self.error(
                Error::new(
                    file,
                    node.as_span().into(),
                    format!("file `{}` is off the board", node.as_str()),
                )
                .with_label(format!("the board has {} files", self.board.files))
                .with_help(format!(
                    "files run a..{}",
                    (b'a' + self.board.files - 1) as char
                )),
            );
            None
        }
    }

    /// Regions, in order; a region may use any region defined before it.
    pub(super) fn lower_regions(&mut self) {
        let items: Vec<_> = self
            .items
            .iter()
            .filter(|i| i.body.as_rule() == Rule::region_stmt)
            .cloned()
            .collect();
        for item in items {
            let Some(name) = first_child(&item.body, Rule::ident) else {
                continue;
            };
            let relative = first_child(&item.body, Rule::relative).is_some();
            let Some(expr) = first_child(&item.body, Rule::region_expr) else {
                continue;
            };
            let error_count = self.errors.len();
            let white = self.region_expr(item.file, &expr, Color::White, relative);
            let black = self.region_expr(item.file, &expr, Color::Black, relative);
            // Report problems of the expression once, not once per side.
            let new_errors: Vec<Error> = self.errors.drain(error_count..).collect();
            for error in new_errors {
                if !self.errors[error_count..].contains(&error) {
                    self.errors.push(error);
                }
            }
            if white.is_empty() && self.errors.len() == error_count {
                self.error(
                    Error::new(
                        item.file,
                        expr.as_span().into(),
                        format!("region `{}` has no square", name.as_str()),
                    )
                    .with_label("empty on this board"),
                );
            }
            self.region_ids
                .insert(name.as_str().to_string(), self.regions.len());
            self.regions.push(Region {
                name: name.as_str().to_string(),
                squares: [white, black],
            });
        }
    }

    fn region_expr(
        &mut self,
        file: usize,
        expr: &Node<'_>,
        side: Color,
        relative: bool,
    ) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        let mut op = "+";
        for part in expr.clone().into_inner() {
            match part.as_rule() {
                Rule::region_op => op = if part.as_str() == "-" { "-" } else { "+" },
                Rule::region_term => {
                    let term = self.region_term(file, &part, side, relative);
                    set = if op == "-" {
                        set.difference(&term)
                    } else {
                        set.union(&term)
                    };
                }
                _ => {}
            }
        }
        set.intersection(&self.board.squares())
    }

    fn region_term(
        &mut self,
        file: usize,
        term: &Node<'_>,
        side: Color,
        relative: bool,
    ) -> SquareSet {
        let Some(inner) = term.clone().into_inner().next() else {
            return SquareSet::EMPTY;
        };
        let mut set = SquareSet::EMPTY;
        let mirror = |board: &Board, s: Square| if relative { board.relative(s, side) } else { s };
        match inner.as_rule() {
            Rule::ranks_term => {
                let ints = children(&inner, Rule::rank_number);
                let Some((low, high)) = self.range(file, &ints, self.board.ranks as u32, "rank")
                else {
                    return set;
                };
                for rank in low..=high {
                    for f in 0..self.board.files {
                        set.insert(mirror(&self.board, Square::new(f, rank as u8 - 1)));
                    }
                }
            }
            Rule::files_term => {
                let letters = children(&inner, Rule::file_letter);
                let indices: Vec<Option<u8>> =
                    letters.iter().map(|l| self.file_letter(file, l)).collect();
                let (Some(Some(low)), Some(Some(high))) =
                    (indices.first().copied(), indices.last().copied())
                else {
                    return set;
                };
                if high < low {
                    self.error(
                        Error::new(
                            file,
                            inner.as_span().into(),
                            "a file range runs from the lower file to the higher",
                        )
                        .with_label("backwards range"),
                    );
                    return set;
                }
                for f in low..=high {
                    for rank in 0..self.board.ranks {
                        set.insert(mirror(&self.board, Square::new(f, rank)));
                    }
                }
            }
            Rule::squares_term => {
                for node in children(&inner, Rule::square) {
                    if let Some(s) = self.square(file, &node) {
                        set.insert(mirror(&self.board, s));
                    }
                }
            }
            Rule::whole_board => set = self.board.squares(),
            Rule::region_expr => set = self.region_expr(file, &inner, side, relative),
            Rule::ident => {
                if let Some(id) = self.region(file, &inner) {
                    set = self.regions[id].squares[side.index()];
                }
            }
            _ => {}
        }
        set
    }

    /// A range `low..high` of 1-based numbers within `1..=limit`.
    fn range(
        &mut self,
        file: usize,
        ints: &[Node<'_>],
        limit: u32,
        what: &str,
    ) -> Option<(u32, u32)> {
        let low_node = ints.first()?;
        let high_node = ints.last()?;
        let (low, high) = (rank_value(low_node, limit), rank_value(high_node, limit));
        for (value, node) in [(low, low_node), (high, high_node)] {
            if value <= 0 || value > limit as i64 {
                self.error(
                    Error::new(
                        file,
                        node.as_span().into(),
                        format!("{what} {value} is off the board"),
                    )
                    .with_label(format!("the board has {limit} {what}s"))
                    .with_help(format!("{what}s run 1..{limit}")),
                );
                return None;
            }
        }
        let (low, high) = (low as u32, high as u32);
        if high < low {
            self.error(
                Error::new(
                    file,
                    Span::new(low_node.as_span().start(), high_node.as_span().end()),
                    format!("a {what} range runs from low to high"),
                )
                .with_label("backwards range")
                .with_help(format!("write `{what}s {high}..{low}`")),
            );
            return None;
        }
        Some((low, high))
    }

    /// The start position: checks the placement against the board and pieces.
    pub(super) fn lower_setup(&mut self, file: usize, body: Node<'_>) -> String {
        let Some(string) = first_child(&body, Rule::string) else {
            return String::new();
        };
        let fen = super::string_value(&string);
        let span: Span = string.as_span().into();
        let placement = fen.split_whitespace().next().unwrap_or("");
        let rows: Vec<&str> = placement.split('/').collect();
        let mut problem = None;
        if rows.len() != self.board.ranks as usize {
            problem = Some(format!(
                "the placement has {} ranks; the board has {}",
                rows.len(),
                self.board.ranks
            ));
        }
        for row in &rows {
            if problem.is_some() {
                break;
            }
            let mut width = 0u32;
            let chars: Vec<char> = row.chars().collect();
            let mut i = 0;
            while i < chars.len() {
                let c = chars[i];
                if c.is_ascii_digit() {
                    let mut n = 0u32;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        n = n * 10 + chars[i].to_digit(10).unwrap_or(0);
                        i += 1;
                    }
                    width += n;
                    continue;
                }
                let mut letter = c.to_ascii_uppercase().to_string();
                i += 1;
                while i < chars.len() && chars[i] == '\'' {
                    letter.push('\'');
                    i += 1;
                }
                if !self.pieces.iter().any(|p| p.letter == letter) {
                    problem = Some(format!("no piece is written `{letter}` (in `{row}`)"));
                    break;
                }
                width += 1;
            }
            if problem.is_none() && width != self.board.files as u32 {
                problem = Some(format!(
                    "rank `{row}` is {width} squares wide; the board has {} files",
                    self.board.files
                ));
            }
        }
        if let Some(problem) = problem {
            self.error(
                Error::new(file, span, format!("bad start position: {problem}"))
                    .with_label("in this FEN"),
            );
        }
        fen
    }
}

/// A rank number: a plain number, or `last` / `last-N` counted from the
/// board's last rank.
fn rank_value(node: &Node<'_>, ranks: u32) -> i64 {
    let text = node.as_str();
    match text.strip_prefix("last") {
        Some(rest) => {
            let back: i64 = rest.trim_start_matches('-').parse().unwrap_or(0);
            ranks as i64 - back
        }
        None => text.parse::<i64>().unwrap_or(i64::MAX),
    }
}
