//! The board, the start position and regions.

use super::Lowerer;
use crate::ast;
use crate::error::{Code, Error, Span};
use crate::model::*;

impl Lowerer<'_> {
    pub(super) fn lower_board(&mut self) {
        let board = self.items.iter().find_map(|i| {
            let ast::BodyKind::Board(board) = &i.body.kind else {
                return None;
            };
            Some((i.file, board))
        });
        let Some((file, board)) = board else {
            self.board_valid = false;
            self.error(
                Error::new(
                    Code::MissingBoard,
                    self.child,
                    self.header_span,
                    "the variant has no board",
                )
                .with_label("no `board` statement in this variant or its ancestors")
                .with_help(format!(
                    "add `board 8 x 8` (files x ranks, each 1 to {MAX_BOARD_SIDE})"
                )),
            );
            return;
        };
        let mut size = [8u8; 2];
        for (slot, (number, what)) in [(&board.files, "files"), (&board.ranks, "ranks")]
            .into_iter()
            .enumerate()
        {
            // The grammar gives digits; too many of them saturate.
            let value = number.text.parse::<u32>().unwrap_or(u32::MAX);
            if value == 0 || value > MAX_BOARD_SIDE as u32 {
                self.board_valid = false;
                let text = &number.text;
                self.error(
                    Error::new(
                        Code::BoardSize,
                        file,
                        number.span,
                        format!("a board has 1 to {MAX_BOARD_SIDE} {what}, not {text}"),
                    )
                    .with_label(format!("{text} {what}"))
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
        for square in &board.holes {
            if let Some(s) = self.square(file, square) {
                self.board.holes.insert(s);
            }
        }
    }

    /// A square name on this board.
    pub(super) fn square(&mut self, file: usize, square: &ast::Token) -> Option<Square> {
        let text = square.text.as_str();
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
                    Code::OffBoard,
                    file,
                    square.span,
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
    pub(super) fn file_letter(&mut self, file: usize, letter: &ast::Token) -> Option<u8> {
        let index = letter
            .text
            .as_bytes()
            .first()
            .map(|b| b.wrapping_sub(b'a'))
            .unwrap_or(u8::MAX);
        if index < self.board.files {
            Some(index)
        } else {
            self.error(
                Error::new(
                    Code::OffBoard,
                    file,
                    letter.span,
                    format!("file `{}` is off the board", letter.text),
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
        let regions: Vec<(usize, &ast::Region)> = self
            .items
            .iter()
            .filter_map(|i| {
                let ast::BodyKind::Region(region) = &i.body.kind else {
                    return None;
                };
                Some((i.file, region))
            })
            .collect();
        for (file, region) in regions {
            let (name, expr, relative) = (&region.name, &region.expr, region.relative);
            let error_count = self.errors.len();
            let white = self.region_expr(file, expr, Color::White, relative);
            let black = self.region_expr(file, expr, Color::Black, relative);
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
                        Code::EmptyRegion,
                        file,
                        expr.span,
                        format!("region `{}` has no square", name.name),
                    )
                    .with_label("empty on this board")
                    .with_help(
                        "check what the expression adds and takes away (`-` removes squares)",
                    ),
                );
            }
            self.region_ids
                .insert(name.name.clone(), self.regions.len());
            self.regions.push(Region {
                name: name.name.clone(),
                squares: [white, black],
            });
        }
    }

    fn region_expr(
        &mut self,
        file: usize,
        expr: &ast::RegionExpr,
        side: Color,
        relative: bool,
    ) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        for (op, term) in &expr.terms {
            let term = self.region_term(file, term, side, relative);
            set = match op {
                ast::RegionOp::Add => set.union(&term),
                ast::RegionOp::Remove => set.difference(&term),
            };
        }
        set.intersection(&self.board.squares())
    }

    fn region_term(
        &mut self,
        file: usize,
        term: &ast::RegionTerm,
        side: Color,
        relative: bool,
    ) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        let mirror = |board: &Board, s: Square| if relative { board.relative(s, side) } else { s };
        match term {
            ast::RegionTerm::Ranks { low, high } => {
                let high = high.as_ref().unwrap_or(low);
                let Some((low, high)) =
                    self.range(file, low, high, self.board.ranks as u32, "rank")
                else {
                    return set;
                };
                for rank in low..=high {
                    for f in 0..self.board.files {
                        set.insert(mirror(&self.board, Square::new(f, rank as u8 - 1)));
                    }
                }
            }
            ast::RegionTerm::Files { low, high, span } => {
                let letters = std::iter::once(low).chain(high);
                let indices: Vec<Option<u8>> = letters.map(|l| self.file_letter(file, l)).collect();
                let (Some(Some(low)), Some(Some(high))) =
                    (indices.first().copied(), indices.last().copied())
                else {
                    return set;
                };
                if high < low {
                    self.error(
                        Error::new(
                            Code::BackwardsRange,
                            file,
                            *span,
                            "a file range runs from the lower file to the higher",
                        )
                        .with_label("backwards range")
                        .with_help(format!(
                            "write `files {}..{}`",
                            (b'a' + high) as char,
                            (b'a' + low) as char
                        )),
                    );
                    return set;
                }
                for f in low..=high {
                    for rank in 0..self.board.ranks {
                        set.insert(mirror(&self.board, Square::new(f, rank)));
                    }
                }
            }
            ast::RegionTerm::Squares(squares) => {
                for square in squares {
                    if let Some(s) = self.square(file, square) {
                        set.insert(mirror(&self.board, s));
                    }
                }
            }
            ast::RegionTerm::WholeBoard => set = self.board.squares(),
            ast::RegionTerm::Group(expr) => set = self.region_expr(file, expr, side, relative),
            ast::RegionTerm::Name(name) => {
                if let Some(id) = self.region(file, name) {
                    set = self.regions[id].squares[side.index()];
                }
            }
        }
        set
    }

    /// A range `low..high` of 1-based numbers within `1..=limit`.
    fn range(
        &mut self,
        file: usize,
        low_number: &ast::RankNumber,
        high_number: &ast::RankNumber,
        limit: u32,
        what: &str,
    ) -> Option<(u32, u32)> {
        let (low, high) = (
            rank_value(low_number, limit),
            rank_value(high_number, limit),
        );
        for (value, number) in [(low, low_number), (high, high_number)] {
            if value <= 0 || value > limit as i64 {
                self.error(
                    Error::new(
                        Code::OffBoard,
                        file,
                        number.span,
                        format!("{what} {} is off the board", number.text),
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
                    Code::BackwardsRange,
                    file,
                    Span::new(low_number.span.start, high_number.span.end),
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
    pub(super) fn lower_setup(&mut self, file: usize, string: &ast::Text) -> String {
        let fen = string.value.clone();
        if !self.board_valid {
            // The board's own error says what is wrong; a placement checked
            // against a stand-in board would only add noise.
            return fen;
        }
        let fen_start = string.span.start + 1;
        let placement_start = fen_start + (fen.len() - fen.trim_start().len());
        let placement = fen.split_whitespace().next().unwrap_or("");
        // Pieces in hand (`[Pp]`) are read with the whole FEN, once the
        // variant is known (`check_start_position`).
        let placement = placement.split('[').next().unwrap_or(placement);
        let rows: Vec<&str> = placement.split('/').collect();
        let ranks = self.board.ranks as usize;
        if rows.len() != ranks {
            self.error(
                Error::new(
                    Code::BadStartPosition,
                    file,
                    Span::new(placement_start, placement_start + placement.len()),
                    format!(
                        "the start position has {} ranks; the board has {ranks}",
                        rows.len()
                    ),
                )
                .with_label(format!("{} ranks", rows.len()))
                .with_help(format!(
                    "write {ranks} ranks separated by `/`, from rank {ranks} down to rank 1"
                )),
            );
            return fen;
        }
        let mut row_start = placement_start;
        for (index, row) in rows.iter().enumerate() {
            self.setup_row(file, row, row_start, ranks - index);
            row_start += row.len() + 1;
        }
        fen
    }

    /// Checks one rank of the start position (`rank` counts from 1), whose
    /// text starts at byte `start` of the file.
    fn setup_row(&mut self, file: usize, row: &str, start: usize, rank: usize) {
        let files = self.board.files as u64;
        let mut width = 0u64;
        let mut chars = row.char_indices().peekable();
        while let Some((offset, c)) = chars.next() {
            if let Some(digit) = c.to_digit(10) {
                let mut empty = u64::from(digit);
                while let Some(d) = chars.peek().and_then(|(_, c)| c.to_digit(10)) {
                    empty = empty.saturating_mul(10).saturating_add(u64::from(d));
                    chars.next();
                }
                width = width.saturating_add(empty);
                continue;
            }
            if c == '*' {
                // A hole of the board, written as FEN writes it.
                let square = (width < files).then(|| Square::new(width as u8, (rank - 1) as u8));
                width = width.saturating_add(1);
                if let Some(square) = square.filter(|s| !self.board.holes.contains(*s)) {
                    self.error(
                        Error::new(
                            Code::BadStartPosition,
                            file,
                            Span::new(start + offset, start + offset + 1),
                            format!("`*` marks a hole, but {square} is not a hole of the board"),
                        )
                        .with_label(format!("{square} in rank {rank} of the start position"))
                        .with_help(format!(
                            "add {square} to the board's holes (`board F x R holes {square} ...`) or write an empty square"
                        )),
                    );
                    return;
                }
                continue;
            }
            let mut letter = c.to_uppercase().to_string();
            let mut end = offset + c.len_utf8();
            while let Some((_, '\'')) = chars.peek() {
                letter.push('\'');
                end += 1;
                chars.next();
            }
            width = width.saturating_add(1);
            if !self.pieces.iter().any(|p| p.letter == letter) {
                let mut known: Vec<&str> = self.pieces.iter().map(|p| p.letter.as_str()).collect();
                known.sort_unstable();
                let help = if known.is_empty() {
                    "no piece is defined: add `piece NAME \"LETTER\" moves ...`".to_string()
                } else {
                    format!(
                        "the pieces are written {} (upper case White, lower case Black); a digit counts empty squares",
                        known.join(", ")
                    )
                };
                let mut error = Error::new(
                    Code::BadStartPosition,
                    file,
                    Span::new(start + offset, start + end),
                    format!("no piece is written `{letter}`"),
                )
                .with_label(format!("in rank {rank} of the start position"))
                .with_help(help);
                // The letter of a piece that a `drop` removed: point at it.
                let dropped = self
                    .dropped
                    .iter()
                    .rev()
                    .find(|d| d.letter.as_deref() == Some(letter.as_str()));
                if let Some(dropped) = dropped {
                    error = error
                        .with_secondary(
                            dropped.file,
                            dropped.span,
                            format!("`{}` (written `{letter}`) is dropped here", dropped.name),
                        )
                        .with_note(format!(
                            "the start position still places the piece `{}`, which a `drop` removed; replace `setup` too",
                            dropped.name
                        ));
                }
                self.error(error);
                return;
            }
        }
        if width != files {
            let shown = match width {
                0..=9999 => width.to_string(),
                10000.. => "over 9999".to_string(),
            };
            self.error(
                Error::new(Code::BadStartPosition,
                    file,
                    Span::new(start, start + row.len()),
                    format!(
                        "rank {rank} of the start position is {shown} squares wide; the board has {files} files"
                    ),
                )
                .with_label(format!("{shown} squares"))
                .with_help("each rank lists its pieces and counts of empty squares, across every file"),
            );
        }
    }
}

/// A rank number's rank (1-based; `last` is `ranks`).
fn rank_value(number: &ast::RankNumber, ranks: u32) -> i64 {
    match number.rank {
        ast::RankFrom::First(rank) => rank,
        ast::RankFrom::Last(back) => ranks as i64 - back,
    }
}
