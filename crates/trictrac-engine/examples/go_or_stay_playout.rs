//! Plays one go-or-stay decision out to the end of the partie, both ways, with the same
//! dice for each pair, the 1-ply margin engine (or the levels' 1-ply search, without the
//! play-outs of [`tablier_trictrac_engine::tenue`]) deciding for both players; prints the
//! parties the decider won and his mean hole margin after each choice, with progress.
//!
//! ```sh
//! # n°387, first half: White 8 points, Black none, 3 holes against 11; White's 6-3 wins a hole.
//! # (1,000 pairs: going won 105 parties, staying 87; 11 minutes on a shared core)
//! cargo run --release -p tablier-trictrac-engine --example go_or_stay_playout -- \
//!   1W1-7W2-8W2-9W2-10W2-11W2-12W4-13B5-14B2-15B2-16B2-17B2-21B1-22B1 8,0 3,11 6-3 1000
//! # n°387, second half: fig. 36, White's 5-3 brings him to 11 holes against 2.
//! # (300 pairs: going won 274 parties, staying 291; 4 minutes)
//! cargo run --release -p tablier-trictrac-engine --example go_or_stay_playout -- \
//!   1W2-2W1-3W2-6W1-7W1-8W2-10W2-11W2-12W2-13B2-15B3-17B3-18B1-19B1-20B1-21B1-22B1-23B1-24B1 \
//!   8,10 10,2 5-3 300
//! # n°387's gamble (tests/book_decisions.rs): Black's 2-1 at 2 holes against 11, the
//! # levels' search playing on (300 pairs: going won 23 parties, staying 38).
//! cargo run --release -p tablier-trictrac-engine --example go_or_stay_playout -- \
//!   4W1-5W1-6W1-7W2-8W2-9W2-10W2-11W2-12W2-13B2-14B2-15B2-16B2-17B2-18B2-20B1-21B1-24B1 \
//!   10,8 11,2 2-1 300 black levels
//! ```
//!
//! Arguments: the position, the points (White's, Black's; White's never in bredouille,
//! Black's in bredouille when he has points and White none), the holes (White's, Black's),
//! the decider's roll (it must win a hole), the number of pairs; then optionally the decider
//! (`white`, the default, or `black`) and who plays (`margin`, the default, or `levels`).

use tablier_core::Side;
use tablier_trictrac::{Board, Marker, Roll};
use tablier_trictrac_engine::rester::StayModel;
use tablier_trictrac_engine::sim::{go_or_stay, play_to_end};
use tablier_trictrac_engine::train::partie_dice;
use tablier_trictrac_engine::{Search, SearchPlayer, State, Weights};

fn pair(text: &str, what: &str) -> Result<(u32, u32), String> {
    let (a, b) = text
        .split_once(',')
        .ok_or_else(|| format!("{what}: expected two numbers like 8,0, found {text:?}"))?;
    let n = |t: &str| {
        t.parse::<u32>()
            .map_err(|_| format!("{what}: {t:?} is not a number"))
    };
    Ok((n(a)?, n(b)?))
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some([board, points, holes, roll, pairs]), rest) =
        (args.get(..5), args.get(5..).unwrap_or_default())
    else {
        return Err(
            "usage: POSITION POINTS(w,b) HOLES(w,b) ROLL PAIRS [white|black] [margin|levels]"
                .into(),
        );
    };
    let me = match rest.first().map(String::as_str) {
        None | Some("white") => Side::White,
        Some("black") => Side::Black,
        Some(o) => return Err(format!("decider: {o:?} is white or black")),
    };
    let search = match rest.get(1).map(String::as_str) {
        None | Some("margin") => Search::new(Weights::shipped(), 1),
        Some("levels") => Search {
            stay: Some(StayModel::shipped().clone()),
            ..Search::for_partie(Weights::shipped(), 1)
        },
        Some(o) => return Err(format!("players: {o:?} is margin or levels")),
    };
    let board: Board = board
        .parse()
        .map_err(|e| format!("position {board:?}: {e}"))?;
    let (wp, bp) = pair(points, "points")?;
    let (hw, hb) = pair(holes, "holes")?;
    let roll = Roll::parse(roll).map_err(|e| format!("roll {roll:?}: {e}"))?;
    let pairs: u64 = pairs
        .parse()
        .map_err(|_| format!("pairs: {pairs:?} is not a number"))?;
    let mut marker = Marker::with_points((wp, false), (bp, bp > 0 && wp == 0));
    marker.holes = [hw, hb];
    let start = State::from_position(board, marker, me);
    let mut probe = start;
    if probe.begin_roll(roll).1 == 0 || probe.over {
        return Err("the roll must win a hole without ending the partie".into());
    }
    let (mut wins, mut margin) = ([0u64; 2], [0f64; 2]);
    for k in 0..pairs {
        for (b, going) in [(0, true), (1, false)] {
            let mut t = start;
            let (score, _) = t.begin_roll(roll);
            let mut white = SearchPlayer::new(search.clone(), 0.0, 1);
            let mut black = SearchPlayer::new(search.clone(), 0.0, 2);
            let decider = if me == Side::White {
                &mut white
            } else {
                &mut black
            };
            let (mut s, pending) = go_or_stay(&t, &score, going, decider);
            play_to_end(
                &mut s,
                pending,
                &mut partie_dice(387, k),
                &mut white,
                &mut black,
            );
            wins[b] += u64::from(s.marker.holes(me) >= 12);
            margin[b] += s.hole_margin(me);
        }
        if (k + 1) % 10 == 0 {
            eprint!("\r{} of {pairs} pairs", k + 1);
        }
    }
    let n = pairs.max(1) as f64;
    eprintln!();
    println!(
        "{pairs} pairs: going, {me:?} won {} parties, margin {:.3}; staying, {} parties, margin {:.3}",
        wins[0],
        margin[0] / n,
        wins[1],
        margin[1] / n
    );
    Ok(())
}
