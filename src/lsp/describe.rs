//! Hover texts from the lowered model: a piece's movement in words and
//! Betza, its value and the promotions that concern it; a region's squares
//! drawn as a small board.

use crate::model::{
    AtomCondition, Color, HopLanding, Motion, MoveAtom, MoveMode, Obligation, PieceKind,
    PromotionTiming, Region, Square, Variant,
};

/// Markdown describing the piece `piece` of `variant`.
pub fn piece(variant: &Variant, piece: &PieceKind) -> String {
    let mut text = format!("**piece `{}`** — letter `{}`", piece.name, piece.letter);
    if piece.royal {
        text.push_str(", royal");
    }
    if let Some(value) = piece.value {
        text.push_str(&format!(", value {value}"));
    }
    if let Some(region) = piece.confined.and_then(|r| variant.regions.get(r)) {
        text.push_str(&format!(", confined to `{}`", region.name));
    }
    text.push_str(&format!("\n\nBetza: `{}`\n\n", piece.betza));
    for atom in &piece.moves {
        text.push_str(&format!("- {}\n", atom_in_words(variant, atom)));
    }
    let promotions = promotions_of(variant, &piece.name);
    if !promotions.is_empty() {
        text.push_str("\nPromotions:\n\n");
        for line in promotions {
            text.push_str(&format!("- {line}\n"));
        }
    }
    text
}

/// One movement atom in words: "moves only, on its first move: lame-leaps
/// (0,2)".
fn atom_in_words(variant: &Variant, atom: &MoveAtom) -> String {
    let mut qualifiers = Vec::new();
    match atom.mode {
        MoveMode::MoveOrCapture => {}
        MoveMode::MoveOnly => qualifiers.push("moves only".to_string()),
        MoveMode::CaptureOnly => qualifiers.push("captures only".to_string()),
    }
    match atom.condition {
        AtomCondition::Always => {}
        AtomCondition::FirstMove => qualifiers.push("on its first move".to_string()),
        AtomCondition::InRegion(region) => {
            let name = variant
                .regions
                .get(region)
                .map_or("a region", |r| r.name.as_str());
            qualifiers.push(format!("while in `{name}`"));
        }
    }
    if atom.limits.not_from_check {
        qualifiers.push("not out of check".to_string());
    }
    let motion = match atom.motion {
        Motion::Leap => "leaps".to_string(),
        Motion::Ride { max: None } => "rides".to_string(),
        Motion::Ride { max: Some(steps) } => format!("rides up to {steps} steps"),
        Motion::LameLeap => "lame-leaps (path must be empty)".to_string(),
        Motion::Hop {
            landing: HopLanding::Adjacent,
        } => "hops, landing just beyond the screen".to_string(),
        Motion::Hop {
            landing: HopLanding::Any,
        } => "hops over a screen".to_string(),
    };
    let directions = directions_in_words(&atom.directions);
    if qualifiers.is_empty() {
        format!("{motion} {directions}")
    } else {
        format!("{}: {motion} {directions}", qualifiers.join(", "))
    }
}

/// `(1,2) in all 8 directions` when the offsets are every symmetric image of
/// one leap, else the list (`(0,1) forward`, ...).
fn directions_in_words(directions: &[(i8, i8)]) -> String {
    let Some(&(first_file, first_rank)) = directions.first() else {
        return "nowhere".to_string();
    };
    let (a, b) = {
        let (x, y) = (first_file.unsigned_abs(), first_rank.unsigned_abs());
        (x.min(y), x.max(y))
    };
    let same_leap = directions.iter().all(|&(x, y)| {
        let (x, y) = (x.unsigned_abs(), y.unsigned_abs());
        (x.min(y), x.max(y)) == (a, b)
    });
    let images = symmetric_images(a as i8, b as i8);
    let mut sorted = directions.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    if same_leap && sorted.len() == images {
        return format!(
            "({a},{b}) in all {images} direction{}",
            if images == 1 { "" } else { "s" }
        );
    }
    sorted
        .iter()
        .map(|&(x, y)| {
            let way = match y.signum() {
                1 => " forward",
                -1 => " backward",
                _ => " sideways",
            };
            format!("({x},{y}){way}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// How many distinct offsets the 8 symmetries of leap `(a,b)` give.
fn symmetric_images(a: i8, b: i8) -> usize {
    let mut images: Vec<(i8, i8)> = [
        (a, b),
        (b, a),
        (-a, b),
        (-b, a),
        (a, -b),
        (b, -a),
        (-a, -b),
        (-b, -a),
    ]
    .to_vec();
    images.sort_unstable();
    images.dedup();
    images.len()
}

/// The promotion rules that concern piece `name`: as the promoting piece and
/// as a choice.
fn promotions_of(variant: &Variant, name: &str) -> Vec<String> {
    let Some(id) = variant.piece_by_name(name) else {
        return Vec::new();
    };
    let names = |ids: &[usize]| {
        ids.iter()
            .filter_map(|i| variant.pieces.get(*i))
            .map(|p| format!("`{}`", p.name))
            .collect::<Vec<_>>()
            .join(" | ")
    };
    let mut lines = Vec::new();
    for rule in &variant.promotions {
        let zone = variant
            .regions
            .get(rule.zone)
            .map_or("?", |r| r.name.as_str());
        let how = match (&rule.obligation, &rule.timing) {
            (_, PromotionTiming::Delayed { .. }) => "delayed",
            (Obligation::Mandatory, _) => "mandatory",
            (Obligation::Optional, _) => "optional",
            (Obligation::MandatoryUnless(_), _) => "mandatory unless a condition holds",
        };
        let label = rule
            .label
            .as_ref()
            .map_or(String::new(), |l| format!(" (`{l}`)"));
        if rule.pieces.contains(&id) {
            lines.push(format!(
                "promotes to {} in `{zone}`, {how}{label}",
                names(&rule.choices)
            ));
        }
        if rule.choices.contains(&id) {
            lines.push(format!(
                "promoted from {} in `{zone}`, {how}{label}",
                names(&rule.pieces)
            ));
        }
    }
    lines
}

/// Markdown describing `region` of `variant`, with its squares drawn.
pub fn region(variant: &Variant, region: &Region) -> String {
    let white = region.for_side(Color::White);
    let black = region.for_side(Color::Black);
    let mut text = format!("**region `{}`**\n\n", region.name);
    if white == black {
        text.push_str(&format!(
            "```text\n{}```\n",
            board(variant, Color::White, region)
        ));
    } else {
        text.push_str(&format!(
            "White:\n```text\n{}```\nBlack:\n```text\n{}```\n",
            board(variant, Color::White, region),
            board(variant, Color::Black, region)
        ));
    }
    text
}

/// The board with `x` on the region's squares (for `color`), `.` elsewhere,
/// a blank for holes; the last rank on top, as White sees it.
fn board(variant: &Variant, color: Color, region: &Region) -> String {
    let squares = region.for_side(color);
    let files = variant.board.files;
    let mut text = String::new();
    for rank in (0..variant.board.ranks).rev() {
        text.push_str(&format!("{:>2} ", rank + 1));
        for file in 0..files {
            let square = Square::new(file, rank);
            let mark = if variant.board.holes.contains(square) {
                ' '
            } else if squares.contains(square) {
                'x'
            } else {
                '.'
            };
            text.push(mark);
            text.push(' ');
        }
        text.truncate(text.trim_end().len());
        text.push('\n');
    }
    text.push_str("   ");
    for file in 0..files {
        text.push((b'a' + file) as char);
        text.push(' ');
    }
    text.truncate(text.trim_end().len());
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaps_are_named_by_their_symmetry() {
        let knight = [
            (1, 2),
            (2, 1),
            (-1, 2),
            (-2, 1),
            (1, -2),
            (2, -1),
            (-1, -2),
            (-2, -1),
        ];
        assert_eq!(directions_in_words(&knight), "(1,2) in all 8 directions");
        assert_eq!(directions_in_words(&[(0, 1)]), "(0,1) forward");
    }
}
