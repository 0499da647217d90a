//! How often the postillons at stake change a going or staying that ends a marqué: self-play
//! parties à écrire between two `ecrire` players (the margin's plays, the marqué's table
//! with the postillons deciding), and at every such decision the table without them asked
//! too; prints each decision they differ on.
//!
//! ```sh
//! cargo run --release -p tablier-trictrac-engine --example postillon_decisions -- 40 4 1
//! ```
//!
//! Arguments: parties, marqués per partie (even), seed.

use tablier_trictrac::RollScore;
use tablier_trictrac_engine::ecrire::{play_partie, EcrirePlayer, MarqueContext, MarqueTable};
use tablier_trictrac_engine::sim::{Policy, State};
use tablier_trictrac_engine::train::partie_dice;
use tablier_trictrac_engine::{Search, SearchPlayer, Weights};

/// An `ecrire` player that counts its decisions ending a marqué and those the table without
/// the postillons would decide otherwise.
struct Counting {
    player: EcrirePlayer<SearchPlayer>,
    decisions: u64,
    differ: u64,
}

impl Counting {
    fn compare(&mut self, state: &State, score: &RollScore) {
        let c = self.player.context;
        let with = c.table();
        let without = MarqueTable::shipped(c.refaits, 0.0);
        let (m, r, given) = (&state.marker, state.roller, score.given());
        let (Some(a), Some(b)) = (with.goes(m, r, given), without.goes(m, r, given)) else {
            return;
        };
        self.decisions += 1;
        if a != b {
            self.differ += 1;
            println!(
                "  {r} holes {:?} pavillon {:?} lost {:?} stake {}: with the postillons {} (go {:+.1} stay {:+.1}), without {}",
                [m.holes(r), m.holes(r.opposite())],
                m.pavillon.holder,
                c.lost,
                with.stake,
                if a { "goes" } else { "stays" },
                with.go_value(m, r).unwrap_or(0.0),
                with.stay_value(m, r, given),
                if b { "goes" } else { "stays" },
            );
        }
    }
}

impl Policy for Counting {
    fn choose_play(&mut self, state: &State, score: &RollScore) -> usize {
        self.player.choose_play(state, score)
    }
    fn go(&mut self, state: &State, score: &RollScore) -> bool {
        self.compare(state, score);
        self.player.go(state, score)
    }
    fn go_after_sortie(&mut self, state: &State, score: &RollScore) -> bool {
        self.compare(state, score);
        self.player.go_after_sortie(state, score)
    }
    fn begin_marque(&mut self, context: &MarqueContext) {
        self.player.begin_marque(context);
    }
}

fn main() -> Result<(), String> {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().map_err(|_| format!("{a:?} is not a number")))
        .collect::<Result<_, _>>()?;
    let [parties, marques, seed] = args[..] else {
        return Err("usage: PARTIES MARQUES SEED".into());
    };
    if marques == 0 || marques % 2 == 1 {
        return Err(format!("{marques} marqués: an even number, 2 or more"));
    }
    let counting = |seed| Counting {
        player: EcrirePlayer::new(SearchPlayer::new(
            Search::new(Weights::shipped(), 1),
            0.0,
            seed,
        )),
        decisions: 0,
        differ: 0,
    };
    let (mut w, mut b) = (counting(1), counting(2));
    for n in 0..parties {
        let end = play_partie(&mut w, &mut b, &mut partie_dice(seed, n), marques as u32);
        println!("partie {n}: White {:+}", end.white);
    }
    let (decisions, differ) = (w.decisions + b.decisions, w.differ + b.differ);
    println!(
        "{parties} parties of {marques} marqués: {decisions} decisions ending a marqué, {differ} changed by the postillons ({:.2} per partie)",
        differ as f64 / parties as f64
    );
    Ok(())
}
