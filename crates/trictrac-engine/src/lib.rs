//! The trictrac engine of tablier: an expected-value search over the 21 rolls with an
//! evaluation trained by self-play, the s'en aller / rester decision from the value of both
//! choices, correct marking and claiming in the écoles mode, and levels for people.
//!
//! # Example
//! ```
//! use tablier_core::{Game, Side};
//! use tablier_trictrac::{Action, Trictrac};
//! use tablier_trictrac_engine::{choose_action, MAX_LEVEL};
//!
//! let mut game = Trictrac::new(Default::default());
//! game.apply(&game.parse_action("W6 B5").unwrap()).unwrap();
//! // White won the primauté with 6-5 and plays it: the engine picks a legal play.
//! let action = choose_action(&game, MAX_LEVEL.min(2), 7).unwrap();
//! assert!(matches!(action, Action::Play(_)));
//! game.apply(&action).unwrap();
//! // Nobody chooses for the dice.
//! assert!(choose_action(&game, 0, 7).is_err());
//! ```
//!
//! # How it decides
//! * [`sim`]: a light copy of the partie ordinaire for search and self-play (checked against
//!   the rules crate, move by move, in the tests).
//! * [`eval`]: features of a position between two throws — points, bredouilles, holes left,
//!   the exact expectation of each player's next throw over the 36 throws (gains, points
//!   given by false hits and contre-jans, holes), the made cases, half-cases, coins, talons —
//!   and two linear heads: the holes still to come for each player.
//! * [`search`]: every play (and going, after a hole) valued by the position it leads to;
//!   at 2 plies the best three plays are valued by the opponent's best answer to each of his
//!   21 rolls. The levels maximise the chance of winning the partie ([`Objective::Partie`];
//!   [`partie`]: a table over the score solved from the engine's own throws, and the
//!   evaluation's hole margin beyond what the table expects of the score added to it), their
//!   staying corrected at 1 ply by [`rester`]; the hint and the review show that chance, and
//!   it decides the claims of écoles. The expected hole margin ([`Objective::Margin`]) is
//!   what the evaluation is trained on.
//! * [`ecrire`]: the partie à écrire, where going with 6 holes on the marker ends the marqué
//!   (n°221): a table of the marqué's expected value in jetons over the score (the
//!   pavillon included), solved from the engine's own throws; every level goes or stays by
//!   it whenever going would end the marqué ([`choose_action`], [`ecrire_goes`]).
//! * [`rester`]: a correction of staying after a hole, fitted on the engine's own go
//!   decisions played out both ways; the 1-ply levels stay or go with it.
//! * [`tenue`]: near the end of a partie in 12 holes, staying valued by playing the tenue
//!   out (the book's n°387: hazard a tenue far behind, circumspection at 11 holes).
//! * [`chances`]: what each of the 21 rolls gives (fills, conservations, hits à vrai and à
//!   faux, points), and the book's arithmetic of numbers (tables C–F).
//! * [`train`]: self-play and ridge regression on the holes actually taken.
//! * [`selfplay`]: a training run, generation after generation, with its checkpoint.
//! * [`duel`]: same dice for both seatings.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod chances;
pub mod duel;
pub mod ecrire;
pub mod eval;
pub mod partie;
pub mod player;
pub mod rester;
pub mod search;
pub mod selfplay;
pub mod sim;
pub mod tenue;
pub mod train;

pub use eval::Weights;
pub use search::{Greedy, Objective, Search, SearchPlayer, TurnAnalysis};
pub use sim::{Policy, State};

use tablier_core::{Actor, Game, Side};
use tablier_trictrac::{Action, Phase, Trictrac};

/// The highest level offered to people (level 0 is the weakest).
///
/// Every level plays for the chance of winning the partie in 12 holes
/// ([`Objective::Partie`], [`partie`]); the noise of the lower levels is in the same units
/// (`2·chance − 1`; one hole at an even score is worth about 0.16 there):
///
/// * 0: beginner — 1-ply search whose values get a random term of ±0.24 (about ±1.5 holes
///   at an even score; seeded), so it often picks a play that is not the best;
/// * 1: 1-ply, ±0.064 of noise (about ±0.4 hole);
/// * 2: 1-ply, no noise;
/// * 3: 2-ply with pruning (the best three plays searched against the 21 answers).
///
/// At 1 ply, staying after a hole gets the correction learnt by playing decisions out
/// ([`rester`]), its holes turned into chance where the partie stands. Near the end (a
/// player at 10 holes) levels 2 and 3 play the tenue out instead ([`tenue`], n°387): a
/// second or a few for such a decision. Level 2 against the
/// 1-ply margin search without the correction (`tablier trictrac duel --a level:2 --b
/// margin --parties 1000 --seed S --threads 2`, the same dice both seatings, seeds 2026–2028)
/// won 506, 527 and 527 parties of 1,000: **1,560 of 3,000, 52.0% ± 1.4%, +0.26 ± 0.18
/// holes per partie** (95%; without the play-outs of the tenue 1,550, +0.22); without the
/// play-outs, against the margin with the same correction (the levels before 2026-11-27),
/// 502 of 1,000 (50.2% ± 0.5%). Level 3 keeps its own 2-ply values (the
/// correction is not measured there); its choices under the chance and under the margin
/// agreed on 49 of 50 go decisions of six self-play parties.
pub const MAX_LEVEL: u8 = 3;

/// Why the engine cannot choose.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The dice are due, or the game is over: no player chooses now.
    #[error("no player chooses now (the dice are due or the game is over)")]
    NotAPlayersTurn,
    /// A level above [`MAX_LEVEL`].
    #[error("level {0} does not exist (0 to {MAX_LEVEL})")]
    NoSuchLevel(u8),
}

/// The player of a level, its random choices seeded by `seed`: the chance of winning the
/// partie in 12 holes decides ([`MAX_LEVEL`]).
///
/// # Errors
/// [`EngineError::NoSuchLevel`] above [`MAX_LEVEL`].
pub fn player(level: u8, seed: u64) -> Result<SearchPlayer, EngineError> {
    level_player(level, seed, Objective::Partie)
}

/// The player of a level for `game`: in a partie à écrire, where a marqué is scored by its
/// holes and not won or lost at 12 ([`ecrire`]), the expected hole margin decides the plays
/// and the going that does not end the marqué (its noise in holes: ±1.5 and ±0.4); in a
/// partie in 12 holes, [`player()`].
///
/// # Errors
/// [`EngineError::NoSuchLevel`] above [`MAX_LEVEL`].
pub fn player_for(game: &Trictrac, level: u8, seed: u64) -> Result<SearchPlayer, EngineError> {
    let objective = match game.options().partie {
        tablier_trictrac::Partie::AEcrire { .. } => Objective::Margin,
        _ => Objective::Partie,
    };
    level_player(level, seed, objective)
}

/// The value of a hole at an even score in `2·chance − 1`: the scale of the levels' noise
/// under [`Objective::Partie`].
const HOLE_AT_EVEN: f64 = 0.16;

fn level_player(level: u8, seed: u64, objective: Objective) -> Result<SearchPlayer, EngineError> {
    let (plies, noise_in_holes) = match level {
        0 => (1, 1.5),
        1 => (1, 0.4),
        2 => (1, 0.0),
        3 => (2, 0.0),
        _ => return Err(EngineError::NoSuchLevel(level)),
    };
    let noise = match objective {
        Objective::Margin => noise_in_holes,
        _ => noise_in_holes * HOLE_AT_EVEN,
    };
    // The correction of staying was learnt on 1-ply values and measured at 1 ply.
    let stay = (plies == 1).then(|| rester::StayModel::shipped().clone());
    // Near the end of the partie the strong levels play the tenue out (n°387).
    let tenue = (level >= 2).then_some(tenue::TenuePlayouts::LEVELS);
    Ok(SearchPlayer::new(
        Search {
            objective,
            stay,
            tenue,
            ..Search::new(Weights::shipped(), plies)
        },
        noise,
        seed,
    ))
}

/// The engine's view of a game in progress: the light state, with the once-per-relevé jans
/// read as open (the game's count of rolls since the relevé is not public). A marqué of a
/// partie à écrire past 11 holes is seen with the leader at 11 and the same margin
/// ([`ecrire::below_twelve`]).
#[must_use]
pub fn state_of(game: &Trictrac) -> State {
    let mut marker = *game.marker();
    if matches!(
        game.options().partie,
        tablier_trictrac::Partie::AEcrire { .. }
    ) {
        marker = ecrire::below_twelve(&marker);
    }
    let mut s = State::from_position(*game.board(), marker, game.roller());
    s.over = game.phase() == Phase::Over;
    s
}

/// The action the engine of `level` takes in `game` for the player who acts now: plays,
/// s'en aller / rester, and in the écoles mode marking exactly what is due and claiming the
/// opponent's écoles whose points do not lower its chance of winning the partie (nearly
/// all; it never warns). The seed
/// makes the noise of the lower levels reproducible.
///
/// # Errors
/// [`EngineError`] when the dice are due or the game is over, or for an unknown level.
pub fn choose_action(game: &Trictrac, level: u8, seed: u64) -> Result<Action, EngineError> {
    let mut p = player_for(game, level, seed)?;
    let Actor::Player(me) = game.actor() else {
        return Err(EngineError::NotAPlayersTurn);
    };
    let legal = game.legal_actions();
    let pick = |a: Action| -> Result<Action, EngineError> {
        if legal.contains(&a) {
            Ok(a)
        } else {
            legal.first().cloned().ok_or(EngineError::NotAPlayersTurn)
        }
    };
    // An école is claimed when the points it gives do not lower the claimant's chance of
    // winning the partie by the table (they nearly never do: partie.rs, tests).
    let claim = || {
        claim_gain(game, me)
            .is_some_and(|g| g >= -1e-12)
            .then_some(Action::Claim)
    };
    let score = game.roll_score();
    match game.phase() {
        Phase::Primaute | Phase::Roll | Phase::Over => Err(EngineError::NotAPlayersTurn),
        Phase::ClaimWindow | Phase::ContestGo | Phase::AfterGiven => {
            pick(claim().unwrap_or(Action::Decline))
        }
        Phase::MarkGains => pick(Action::Mark(score.map_or(0, |s| s.gains()))),
        Phase::MarkGiven => pick(claim().unwrap_or(Action::Mark(score.map_or(0, |s| s.given())))),
        Phase::Decide => {
            let Some(score) = score else {
                return pick(Action::Stay);
            };
            // In the partie à écrire, going with 6 holes on the marker ends the marqué: the
            // marqué's table decides (ecrire.rs).
            if let Some(go) = ecrire_goes(game, score) {
                return pick(if go { Action::Go } else { Action::Stay });
            }
            let a = if game.sortie_marked() {
                p.search.analyse_sortie(&state_of(game), score)
            } else {
                p.search.analyse(&state_of(game), score, 1)
            };
            pick(if p.decide(&a).is_none() {
                Action::Go
            } else {
                Action::Stay
            })
        }
        Phase::Play => {
            let Some(score) = score else {
                return pick(Action::Play(tablier_trictrac::Play::Pass));
            };
            let a = p.search.analyse(&state_of(game), score, 0);
            let i = if me == game.roller() {
                p.decide(&TurnAnalysis { go: None, ..a }).unwrap_or(0)
            } else {
                // Playing the opponent's roll after his contested go (n°170): to his
                // disadvantage.
                let worst = a
                    .plays
                    .iter()
                    .enumerate()
                    .min_by(|x, y| x.1.total_cmp(y.1))
                    .map_or(0, |(i, _)| i);
                worst
            };
            let play = score.plays.legal.get(i).map(|c| c.play.clone());
            pick(Action::Play(play.unwrap_or(tablier_trictrac::Play::Pass)))
        }
    }
}

/// In a partie à écrire, after a hole by the roller's own throw: whether he goes by the
/// marqué's table ([`ecrire::MarqueTable::goes`], the postillons at stake counted:
/// [`ecrire::MarqueContext`]), when going would end the marqué (either player at 6 holes or
/// more); `None` in a partie in 12 holes or when going would only start a new relevé.
#[must_use]
pub fn ecrire_goes(game: &Trictrac, score: &tablier_trictrac::RollScore) -> Option<bool> {
    ecrire::MarqueContext::of(game)?
        .table()
        .goes(game.marker(), game.roller(), score.given())
}

/// What claiming the open école would change in `me`'s chance of winning the partie, by
/// the table of [`partie`] (the board is the same either way); `None` when no claim is
/// legal now.
#[must_use]
pub fn claim_gain(game: &Trictrac, me: Side) -> Option<f64> {
    if !game.legal_actions().contains(&Action::Claim) {
        return None;
    }
    let mut claimed = game.clone();
    claimed.apply(&Action::Claim).ok()?;
    let t = &partie::PartieModel::shipped().table;
    let roller = game.roller();
    let mine = |m: &tablier_trictrac::Marker| {
        let w = t.chance(&partie::Score::of(m, roller));
        if roller == me {
            w
        } else {
            1.0 - w
        }
    };
    Some(mine(claimed.marker()) - mine(game.marker()))
}

/// The side a level plays for in [`choose_action`] is whoever acts; this names it.
#[must_use]
pub fn actor_side(game: &Trictrac) -> Option<Side> {
    match game.actor() {
        Actor::Player(s) => Some(s),
        _ => None,
    }
}
