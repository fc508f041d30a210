//! Self-play: games end by the variant's rules with legal moves only, their
//! records reload to the same result, and shards merge exactly into the
//! summary of the whole run.

mod common;

use varc::selfplay::{play_game, Settings, Shard, Summary};
use varc_runtime::game::record::load;

fn settings(variant: &str, games: u32) -> Settings {
    Settings {
        variant: variant.to_string(),
        games,
        depth: Some(1),
        movetime_ms: None,
        seed: 7,
        opening_plies: 4,
        max_plies: 400,
    }
}

fn run(variant: &str, games: u32, shard: Shard) -> Summary {
    let rules = common::rules(variant);
    let settings = settings(variant, games);
    let mut summary = Summary::new(settings.clone(), shard);
    for index in shard.games(games) {
        let played = play_game(&rules, &settings, index);
        assert!(
            played.refused.is_none(),
            "{variant} game {index}: {:?}",
            played.refused
        );
        let record = played.record(&settings);
        let loaded = load(rules.clone(), &record)
            .unwrap_or_else(|e| panic!("{variant} game {index}: {e}\n{record}"));
        assert_eq!(
            loaded.result(),
            played.game.result(),
            "{variant} game {index}"
        );
        assert_eq!(
            loaded.position(),
            played.game.position(),
            "{variant} game {index}"
        );
        summary.add(&played.outcome());
    }
    summary
}

#[test]
fn selfplay_games_end_by_rules_and_records_replay() {
    for variant in [
        "chess",
        "ppc",
        "kingcapture",
        "alternate-scoring",
        "chess99",
        "losalamos",
    ] {
        let summary = run(variant, 2, Shard::ALL);
        assert_eq!(summary.games, 2);
        assert_eq!(summary.refused_moves, 0);
        assert!(summary.unfinished <= 1, "{variant}: {}", summary.report());
    }
}

#[test]
fn selfplay_shards_merge_exactly() {
    let whole = run("losalamos", 6, Shard::ALL);
    let mut merged = run("losalamos", 6, Shard { index: 1, count: 3 });
    for index in [3, 2] {
        merged
            .merge(&run("losalamos", 6, Shard { index, count: 3 }))
            .expect("same run");
    }
    assert!(merged.complete());
    assert_eq!(merged.shards.len(), 3);
    let mut whole_counts = whole.clone();
    whole_counts.shards = merged.shards.clone();
    assert_eq!(merged, whole_counts);
    // JSON round trip, and a shard counted twice is refused.
    let text = serde_json::to_string(&merged).expect("json");
    let back: Summary = serde_json::from_str(&text).expect("json");
    assert_eq!(back, merged);
    let one = run("losalamos", 6, Shard { index: 1, count: 3 });
    assert!(merged.clone().merge(&one).is_err());
}

#[test]
fn selfplay_shard_text() {
    assert_eq!("2/8".parse::<Shard>(), Ok(Shard { index: 2, count: 8 }));
    assert!("0/8".parse::<Shard>().is_err());
    assert!("9/8".parse::<Shard>().is_err());
    assert!("x".parse::<Shard>().is_err());
}
