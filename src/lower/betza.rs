//! Betza notation, both ways: parsing a Betza string into movement atoms
//! (`fmWfcF` is a chess pawn without its double step) and writing a piece's
//! atoms back as Betza for protocols that show custom pieces.

use crate::model::{AtomCondition, AtomLimits, HopLanding, Motion, MoveAtom, MoveMode};

/// A Betza string that cannot be read: the byte offset in the string and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BetzaError {
    /// Byte offset into the Betza string.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

/// The basic leaps a Betza atom letter stands for, as (files, ranks).
fn atom_leap(letter: char) -> Option<(i8, i8)> {
    Some(match letter {
        'W' => (0, 1),
        'F' => (1, 1),
        'D' => (0, 2),
        'N' => (1, 2),
        'A' => (2, 2),
        'H' => (0, 3),
        'C' | 'L' => (1, 3),
        'Z' | 'J' => (2, 3),
        'G' => (3, 3),
        _ => return None,
    })
}

/// Every direction of a leap: its 4 or 8 symmetric images.
pub fn symmetric(leap: (i8, i8)) -> Vec<(i8, i8)> {
    let (a, b) = leap;
    let mut out = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let d = (x * sx, y * sy);
                if !out.contains(&d) {
                    out.push(d);
                }
            }
        }
    }
    out
}

/// A direction specification such as `f`, `fl` or `ff`.
fn matches_spec(spec: &str, (df, dr): (i8, i8)) -> bool {
    let narrow_vertical = dr.abs() > df.abs();
    let narrow_sideways = df.abs() > dr.abs();
    let single = |c: char| match c {
        'f' => dr > 0,
        'b' => dr < 0,
        'l' => df < 0,
        'r' => df > 0,
        'v' => narrow_vertical,
        's' => narrow_sideways,
        _ => false,
    };
    let chars: Vec<char> = spec.chars().collect();
    match chars.as_slice() {
        [c] => single(*c),
        [a, b] if a == b && matches!(a, 'f' | 'b') => single(*a) && narrow_vertical,
        [a, b] if a == b && matches!(a, 'l' | 'r') => single(*a) && narrow_sideways,
        [a, 's'] if matches!(a, 'f' | 'b') => single(*a) && narrow_sideways,
        [a, 'v'] if matches!(a, 'l' | 'r') => single(*a) && narrow_vertical,
        [a, b] => single(*a) && single(*b),
        _ => false,
    }
}

/// Parses a Betza string into atoms.
pub fn parse(text: &str) -> Result<Vec<MoveAtom>, BetzaError> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut atoms = Vec::new();
    let mut i = 0;
    if chars.is_empty() {
        return Err(BetzaError {
            offset: 0,
            message: "the Betza string is empty".into(),
        });
    }
    while i < chars.len() {
        let start = chars[i].0;
        let mut specs: Vec<String> = Vec::new();
        let mut mode = MoveMode::MoveOrCapture;
        let (mut moves, mut captures) = (false, false);
        let mut initial = false;
        let mut lame = false;
        let mut hop: Option<HopLanding> = None;
        while i < chars.len() && chars[i].1.is_ascii_lowercase() {
            let (offset, c) = chars[i];
            match c {
                'f' | 'b' | 'l' | 'r' | 'v' | 's' => {
                    let next = chars.get(i + 1).map(|x| x.1);
                    let pairs = matches!(
                        (c, next),
                        ('f', Some('f' | 'l' | 'r' | 's')) | ('b', Some('b' | 'l' | 'r' | 's')) | ('l', Some('l' | 'v')) | ('r', Some('r' | 'v'))
                    );
                    if pairs {
                        specs.push(format!("{c}{}", next.unwrap_or(c)));
                        i += 1;
                    } else {
                        specs.push(c.to_string());
                    }
                }
                'm' => moves = true,
                'c' => captures = true,
                'i' => initial = true,
                'n' => lame = true,
                'p' => hop = Some(HopLanding::Any),
                'g' => hop = Some(HopLanding::Adjacent),
                _ => {
                    return Err(BetzaError {
                        offset,
                        message: format!("`{c}` is not a Betza modifier this compiler knows (f b l r v s m c i n p g)"),
                    })
                }
            }
            i += 1;
        }
        if moves != captures {
            mode = if moves {
                MoveMode::MoveOnly
            } else {
                MoveMode::CaptureOnly
            };
        }
        let Some(&(offset, letter)) = chars.get(i) else {
            return Err(BetzaError {
                offset: text.len(),
                message: "modifiers without a piece letter at the end".into(),
            });
        };
        i += 1;
        // Compound letters expand to their parts.
        let parts: Vec<(char, bool)> = match letter {
            'K' => vec![('W', false), ('F', false)],
            'R' => vec![('W', true)],
            'B' => vec![('F', true)],
            'Q' => vec![('W', true), ('F', true)],
            _ if atom_leap(letter).is_some() => {
                let doubled = chars.get(i).map(|x| x.1) == Some(letter);
                if doubled {
                    i += 1;
                }
                vec![(letter, doubled)]
            }
            _ => {
                return Err(BetzaError {
                    offset,
                    message: format!(
                        "`{letter}` is not a Betza piece letter (W F D N A H C Z G K R B Q)"
                    ),
                })
            }
        };
        let digits_start = i;
        while i < chars.len() && chars[i].1.is_ascii_digit() {
            i += 1;
        }
        let range: Option<u8> = if i > digits_start {
            let digits: String = chars[digits_start..i].iter().map(|x| x.1).collect();
            match digits.parse::<u8>() {
                Ok(0) => None,
                Ok(n) => Some(n),
                Err(_) => {
                    return Err(BetzaError {
                        offset: chars[digits_start].0,
                        message: "range is too large".into(),
                    })
                }
            }
        } else {
            None
        };
        let ranged = i > digits_start;
        for (part, rider) in parts {
            let base = atom_leap(part).unwrap_or((0, 1));
            let all = symmetric(base);
            let directions: Vec<(i8, i8)> = if specs.is_empty() {
                all
            } else {
                all.into_iter()
                    .filter(|d| specs.iter().any(|s| matches_spec(s, *d)))
                    .collect()
            };
            if directions.is_empty() {
                return Err(BetzaError {
                    offset: start,
                    message: format!("the direction modifiers leave `{letter}` no direction"),
                });
            }
            let motion = match (hop, lame, rider || ranged) {
                (Some(landing), false, _) => Motion::Hop { landing },
                (None, true, false) => Motion::LameLeap,
                (None, false, true) => Motion::Ride {
                    max: if rider && !ranged { None } else { range },
                },
                (None, false, false) => Motion::Leap,
                _ => {
                    return Err(BetzaError {
                        offset: start,
                        message: "this combination of `n`, `p`, `g` and riders is not supported"
                            .into(),
                    })
                }
            };
            let condition = if initial {
                AtomCondition::FirstMove
            } else {
                AtomCondition::Always
            };
            atoms.push(MoveAtom {
                motion,
                directions,
                mode,
                condition,
                limits: AtomLimits::default(),
            });
        }
    }
    Ok(atoms)
}

const SPECS: [&str; 16] = [
    "f", "b", "l", "r", "v", "s", "ff", "bb", "ll", "rr", "fs", "bs", "fl", "fr", "bl", "br",
];

/// Writes atoms as a Betza string (region conditions have no Betza form and
/// are left out).
pub fn write(atoms: &[MoveAtom]) -> String {
    let mut parts: Vec<String> = atoms.iter().map(write_atom).collect();
    let has = |parts: &Vec<String>, s: &str| parts.iter().any(|p| p == s);
    if has(&parts, "R") && has(&parts, "B") {
        parts.retain(|p| p != "R" && p != "B");
        parts.insert(0, "Q".into());
    }
    if has(&parts, "W") && has(&parts, "F") {
        parts.retain(|p| p != "W" && p != "F");
        parts.push("K".into());
    }
    parts.concat()
}

fn write_atom(atom: &MoveAtom) -> String {
    let Some(first) = atom.directions.first() else {
        return String::new();
    };
    let canonical = (
        first.0.abs().min(first.1.abs()),
        first.0.abs().max(first.1.abs()),
    );
    let letter = match canonical {
        (0, 1) => 'W',
        (1, 1) => 'F',
        (0, 2) => 'D',
        (1, 2) => 'N',
        (2, 2) => 'A',
        (0, 3) => 'H',
        (1, 3) => 'C',
        (2, 3) => 'Z',
        (3, 3) => 'G',
        _ => return String::new(),
    };
    let all = symmetric((canonical.0, canonical.1));
    let mut prefix = String::new();
    if atom.condition == AtomCondition::FirstMove {
        prefix.push('i');
    }
    let full = all.iter().all(|d| atom.directions.contains(d));
    if !full {
        prefix.push_str(&direction_prefix(&all, &atom.directions));
    }
    match atom.mode {
        MoveMode::MoveOnly => prefix.push('m'),
        MoveMode::CaptureOnly => prefix.push('c'),
        MoveMode::MoveOrCapture => {}
    }
    let body = match atom.motion {
        Motion::Leap => letter.to_string(),
        Motion::LameLeap => format!("n{letter}"),
        Motion::Ride { max: None } => match letter {
            'W' if prefix.is_empty() => "R".into(),
            'F' if prefix.is_empty() => "B".into(),
            _ => format!("{letter}{letter}"),
        },
        Motion::Ride { max: Some(n) } => format!("{letter}{n}"),
        Motion::Hop {
            landing: HopLanding::Any,
        } => format!("p{letter}{letter}"),
        Motion::Hop {
            landing: HopLanding::Adjacent,
        } => format!("g{letter}{letter}"),
    };
    format!("{prefix}{body}")
}

/// A union of direction specifications equal to `wanted` (greedy cover).
fn direction_prefix(all: &[(i8, i8)], wanted: &[(i8, i8)]) -> String {
    let mut remaining: Vec<(i8, i8)> = wanted.to_vec();
    let mut prefix = String::new();
    while !remaining.is_empty() {
        // The spec covering most of what remains; the first (simplest) wins ties.
        let mut best: Option<(&str, Vec<(i8, i8)>)> = None;
        let mut best_count = 0;
        for spec in SPECS {
            let set: Vec<(i8, i8)> = all
                .iter()
                .copied()
                .filter(|d| matches_spec(spec, *d))
                .collect();
            if set.is_empty() || !set.iter().all(|d| wanted.contains(d)) {
                continue;
            }
            let count = set.iter().filter(|d| remaining.contains(d)).count();
            if count > best_count {
                best_count = count;
                best = Some((spec, set));
            }
        }
        match best {
            Some((spec, set)) if set.iter().any(|d| remaining.contains(d)) => {
                prefix.push_str(spec);
                remaining.retain(|d| !set.contains(d));
            }
            _ => break,
        }
    }
    prefix
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pawn_atoms() {
        let atoms = parse("fmWfcFifmnD").expect("valid Betza");
        assert_eq!(atoms.len(), 3);
        assert_eq!(atoms[0].directions, vec![(0, 1)]);
        assert_eq!(atoms[0].mode, MoveMode::MoveOnly);
        assert_eq!(atoms[1].directions.len(), 2);
        assert_eq!(atoms[2].motion, Motion::LameLeap);
        assert_eq!(atoms[2].condition, AtomCondition::FirstMove);
        assert_eq!(write(&atoms), "fmWfcFifmnD");
    }

    #[test]
    fn compound_letters() {
        assert_eq!(write(&parse("Q").unwrap()), "Q");
        assert_eq!(write(&parse("K").unwrap()), "K");
        assert_eq!(write(&parse("RN").unwrap()), "RN");
        assert_eq!(parse("NN").unwrap()[0].motion, Motion::Ride { max: None });
        assert_eq!(
            parse("R4").unwrap()[0].motion,
            Motion::Ride { max: Some(4) }
        );
    }

    #[test]
    fn errors_point_at_the_letter() {
        assert_eq!(parse("fmX").unwrap_err().offset, 2);
        assert_eq!(parse("fm").unwrap_err().offset, 2);
        assert!(parse("").is_err());
    }
}
