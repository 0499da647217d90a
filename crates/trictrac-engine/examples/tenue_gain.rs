//! What playing tenues out near the end ([`tablier_trictrac_engine::tenue`]) changes, decision
//! by decision: self-play parties of level 2 without the play-outs; at every hole won by a
//! throw where the play-outs apply, both ways of deciding; where they differ, the decision is
//! played out to the end of the partie both ways (the same dice for each pair, level 2
//! without play-outs deciding afterwards), and the parties won by the decider after the
//! play-outs' choice are compared with those won after the search's.
//!
//! ```sh
//! cargo run --release -p tablier-trictrac-engine --example tenue_gain -- 100 100 1
//! ```
//!
//! Arguments: parties, pairs per differing decision, seed.

use tablier_trictrac_engine::rester::{decisions_of_partie, GoDecision, StayModel};
use tablier_trictrac_engine::sim::{go_or_stay, play_to_end};
use tablier_trictrac_engine::tenue::TenuePlayouts;
use tablier_trictrac_engine::train::partie_dice;
use tablier_trictrac_engine::{Search, SearchPlayer, Weights};

/// Parties won by the decider of `d` out of `pairs` when he goes (`going`) or stays, played
/// to the end by `search` for both players.
fn won(search: &Search, d: &GoDecision, going: bool, pairs: u64, seed: u64) -> u64 {
    let (t, score, _) = d.begin();
    let me = t.roller;
    let mut wins = 0;
    for k in 0..pairs {
        let mut p = SearchPlayer::new(search.clone(), 0.0, 1);
        let mut q = p.clone();
        let (mut s, pending) = go_or_stay(&t, &score, going, &mut p);
        play_to_end(&mut s, pending, &mut partie_dice(seed, k), &mut p, &mut q);
        wins += u64::from(s.marker.holes(me) >= 12);
    }
    wins
}

fn main() -> Result<(), String> {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().map_err(|_| format!("{a:?} is not a number")))
        .collect::<Result<_, _>>()?;
    let [parties, pairs, seed] = args[..] else {
        return Err("usage: PARTIES PAIRS SEED".into());
    };
    let old = Search {
        stay: Some(StayModel::shipped().clone()),
        ..Search::for_partie(Weights::shipped(), 1)
    };
    let new = Search {
        tenue: Some(TenuePlayouts::LEVELS),
        ..old.clone()
    };
    let (mut late, mut differ, mut gain, mut gain2) = (0u64, 0u64, 0i64, 0i64);
    for n in 0..parties {
        let mut w = SearchPlayer::new(old.clone(), 0.0, 1);
        let mut b = SearchPlayer::new(old.clone(), 0.0, 2);
        for d in decisions_of_partie(&mut w, &mut b, &mut partie_dice(seed, n)) {
            let (t, score, holes) = d.begin();
            if !TenuePlayouts::LEVELS.applies(&t) || score.plays.bears_off_last {
                continue;
            }
            late += 1;
            let before = old.analyse(&t, &score, holes).goes();
            let after = new.analyse(&t, &score, holes).goes();
            if before == after {
                continue;
            }
            differ += 1;
            let dice_seed = seed * 1_000_003 + late;
            let by_new = won(&old, &d, after, pairs, dice_seed) as i64;
            let by_old = won(&old, &d, before, pairs, dice_seed) as i64;
            gain += by_new - by_old;
            gain2 += (by_new - by_old).pow(2);
            println!(
                "partie {n}: holes {:?} points {:?} {} {}: search {}, play-outs {}; of {pairs} pairs won {by_old} then {by_new}",
                t.marker.holes,
                t.marker.points,
                t.board,
                score.roll,
                if before { "goes" } else { "stays" },
                if after { "go" } else { "stay" },
            );
        }
        eprint!("\r{} of {parties} parties, {late} late decisions, {differ} changed, gain {gain} parties", n + 1);
    }
    eprintln!();
    println!(
        "{parties} parties: {late} decisions after a hole from {} holes, {differ} changed by the play-outs; over {pairs} pairs each, the play-outs' choice won {gain} parties more (sum of squares {gain2})",
        TenuePlayouts::LEVELS.from_holes
    );
    Ok(())
}
