//! A match runner for UCI engines (`cargo run --release -p varc-bench --bin
//! match`; `bench/strength.sh` runs the documented matches): games from a
//! file of openings, each opening played with both colours, the game kept
//! by varc's interpreter of the variant's rules ([`play`]), and the result
//! as a score, an Elo difference with its 95% interval and an optional
//! SPRT ([`stats`]).

pub mod play;
pub mod stats;
pub mod uci_engine;

/// The openings of a file: one per line, moves in the variant's long
/// algebraic from its start position; `#` starts a comment, blank lines
/// are skipped.
pub fn read_openings(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.split_whitespace().map(str::to_string).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn openings_skip_comments_and_blank_lines() {
        let openings = super::read_openings("# c\n\ne2e4 e7e5 # open\n d2d4\n");
        assert_eq!(openings, vec![vec!["e2e4", "e7e5"], vec!["d2d4"]]);
    }
}
