//! A light copy of the partie ordinaire in automatic marking, for search, self-play and duels:
//! the board, the marker, the roller and the once-per-relevé jans, without the game record
//! and the écoles machinery of [`tablier_trictrac::Trictrac`]. It follows the same turn
//! structure and the current edition of the rules (gains marked before the play, s'en aller
//! / rester after a hole won by one's own roll, the sortie marked after the play that bears
//! off the last dame and a hole it makes decided then, given points after the play, relevé
//! after a complete sortie with the *jouer pour tout* convention); the test
//! `sim_agrees_with_the_rules_crate` plays both side by side.

use tablier_core::{Dice, Side};
use tablier_trictrac::{Board, EventKind, JanContext, Marker, Roll, RollScore};

/// Holes that win a partie ordinaire (n°140, n°162).
pub const PARTIE_HOLES: u32 = 12;

/// What the once-per-relevé jans need to know (n°123–126).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Releve {
    /// Rolls each player has thrown since the relevé; `None` when unknown (a position set up
    /// by hand): the jan de trois coups is then not looked for.
    pub rolls: Option<[u32; 2]>,
    /// Each player has made (or given) his jan de deux tables.
    pub deux_tables_done: [bool; 2],
    /// The jan de mézéas has been made (or given).
    pub mezeas_done: bool,
}

impl Releve {
    /// The context of a roll by `side`.
    #[must_use]
    pub fn context(&self, side: Side) -> JanContext {
        JanContext {
            rolls_before: self.rolls.map(|r| r[side.index()]),
            deux_tables_open: !self.deux_tables_done[side.index()],
            mezeas_open: !self.mezeas_done,
            sortie_duty: false,
        }
    }
}

/// A partie ordinaire between two throws of the dice: `roller` throws next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Where the dames of both players stand.
    pub board: Board,
    /// Points, holes, bredouilles.
    pub marker: Marker,
    /// Who throws next (or who threw, during a turn).
    pub roller: Side,
    /// The once-per-relevé jans.
    pub releve: Releve,
    /// A player has 12 holes.
    pub over: bool,
}

impl State {
    /// The start of a partie: dames on the talons, `first` (the primauté's winner) to throw.
    #[must_use]
    pub fn new(first: Side) -> State {
        State {
            board: Board::start(),
            marker: Marker::new(),
            roller: first,
            releve: Releve {
                rolls: Some([0, 0]),
                ..Releve::default()
            },
            over: false,
        }
    }

    /// A position set up by hand: the once-per-relevé jans open, the rolls since the relevé
    /// unknown (as [`tablier_trictrac::Trictrac::from_position`] reads it).
    #[must_use]
    pub fn from_position(board: Board, marker: Marker, roller: Side) -> State {
        State {
            board,
            marker,
            roller,
            releve: Releve {
                rolls: Some([3, 3]),
                ..Releve::default()
            },
            over: marker.holes.iter().any(|&h| h >= PARTIE_HOLES),
        }
    }

    /// Scores `roll` for the roller, without changing anything.
    #[must_use]
    pub fn score(&self, roll: Roll) -> RollScore {
        RollScore::new(
            &self.board,
            self.roller,
            roll,
            self.releve.context(self.roller),
        )
    }

    /// The roller throws `roll`: the once-per-relevé jans are noted and his gains marked.
    /// Returns the scoring and the holes his gains made (when more than 0 and the partie is
    /// not over, he chooses [`State::go`] or plays with [`State::play`]).
    pub fn begin_roll(&mut self, roll: Roll) -> (RollScore, u32) {
        let score = self.score(roll);
        let i = self.roller.index();
        for e in &score.events {
            match e.kind {
                EventKind::JanDeDeuxTables | EventKind::ContreJanDeDeuxTables => {
                    self.releve.deux_tables_done[i] = true;
                }
                EventKind::JanDeMezeas | EventKind::ContreJanDeMezeas => {
                    self.releve.mezeas_done = true;
                }
                _ => {}
            }
        }
        if let Some(r) = &mut self.releve.rolls {
            r[i] += 1;
        }
        let holes = self.marker.mark(self.roller, score.gains());
        self.check_over();
        (score, holes)
    }

    /// S'en aller (n°155–157): both players' points are erased, the dames go back to the
    /// talons and the roller throws again.
    pub fn go(&mut self) {
        self.marker.erase_points();
        self.releve_for(self.roller);
    }

    fn releve_for(&mut self, first: Side) {
        self.board = Board::start();
        self.releve = Releve {
            rolls: Some([0, 0]),
            ..Releve::default()
        };
        self.roller = first;
    }

    /// The roller plays the candidate leading to `end` of `score`. Unless the play bore off
    /// his last dame, the points the roll gives the opponent are marked and the opponent
    /// throws next. If it did, his sortie is marked (n°118) and he goes ([`State::go`],
    /// when it made a hole) or stays ([`State::stay_after_sortie`]).
    pub fn play(&mut self, score: &RollScore, end: &Board) -> AfterPlay {
        self.board = *end;
        let sortie = score.sortie_points(end);
        if sortie > 0 {
            let holes = self.marker.mark(self.roller, sortie);
            self.check_over();
            return AfterPlay::Sortie { holes };
        }
        self.marker.mark(self.roller.opposite(), score.given());
        self.roller = self.roller.opposite();
        self.check_over();
        AfterPlay::Next
    }

    /// After his sortie the roller stays: the points the roll gives the opponent are marked,
    /// the dames go back to the talons, both keep their points, and he throws first. Returns
    /// the roll to score at once: by the *jouer pour tout* convention the throw that bore off
    /// his last dame is also his first throw of the new relevé (n°118, n°163).
    pub fn stay_after_sortie(&mut self, score: &RollScore) -> Roll {
        self.marker.mark(self.roller.opposite(), score.given());
        self.check_over();
        self.releve_for(self.roller);
        score.roll
    }

    fn check_over(&mut self) {
        if self.marker.holes.iter().any(|&h| h >= PARTIE_HOLES) {
            self.over = true;
        }
    }

    /// Holes of `side` minus holes of the other.
    #[must_use]
    pub fn hole_margin(&self, side: Side) -> f64 {
        f64::from(self.marker.holes(side)) - f64::from(self.marker.holes(side.opposite()))
    }
}

/// What follows a play ([`State::play`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterPlay {
    /// The opponent throws next (or the partie is over).
    Next,
    /// The roller bore off his last dame and his sortie is marked; `holes`: the holes it
    /// made. Unless the partie is over, he goes ([`State::go`], only when `holes` > 0) or
    /// stays ([`State::stay_after_sortie`]).
    Sortie {
        /// Holes the sortie's points made.
        holes: u32,
    },
}

/// What a player decides in a partie: which play, and whether to go.
pub trait Policy {
    /// The index in `score.plays.legal` of the play to make (`score.plays.legal` is never
    /// empty: a roll that cannot be played has the single play `pass`).
    fn choose_play(&mut self, state: &State, score: &RollScore) -> usize;
    /// After a hole won by his own roll (the gains already marked on `state`): `true` to go.
    fn go(&mut self, state: &State, score: &RollScore) -> bool;
    /// After a hole made by his sortie (`state`: the play made, the sortie marked): `true`
    /// to go, `false` to stay and throw for the new relevé.
    fn go_after_sortie(&mut self, state: &State, score: &RollScore) -> bool;
    /// Before a marqué of a partie à écrire ([`crate::ecrire::play_partie`]): where the
    /// partie stands. Players that do not look at it ignore it.
    fn begin_marque(&mut self, _context: &crate::ecrire::MarqueContext) {}
}

/// The primauté throw (n°28): one die each, thrown again while equal. Returns who starts
/// and the roll he plays.
pub fn primaute(dice: &mut impl Dice) -> (Side, Roll) {
    loop {
        let (w, b) = dice.roll_pair();
        if w != b {
            let first = if w > b { Side::White } else { Side::Black };
            return (first, Roll::new(w, b));
        }
    }
}

/// The longest partie played before giving up (a safety net; real parties need a few
/// hundred throws).
pub const MAX_THROWS: u32 = 20_000;

/// Plays a partie ordinaire from the start with `white` and `black` deciding. `observe` sees
/// every state just before a throw. Returns the final state (over, or stopped after
/// [`MAX_THROWS`]).
pub fn play_partie(
    white: &mut dyn Policy,
    black: &mut dyn Policy,
    dice: &mut impl Dice,
    observe: &mut dyn FnMut(&State),
) -> State {
    let (first, roll) = primaute(dice);
    let mut s = State::new(first);
    let mut pending = Some(roll);
    let mut throws = 0;
    while !s.over && throws < MAX_THROWS {
        let roll = match pending.take() {
            Some(r) => r,
            None => {
                observe(&s);
                let (a, b) = dice.roll_pair();
                Roll::new(a, b)
            }
        };
        throws += 1;
        pending = turn(&mut s, roll, white, black);
    }
    s
}

/// One throw of the roller: gains, go or stay, play, given points. Returns a roll to score at
/// once (after a complete sortie).
pub fn turn(
    s: &mut State,
    roll: Roll,
    white: &mut dyn Policy,
    black: &mut dyn Policy,
) -> Option<Roll> {
    let (score, holes) = s.begin_roll(roll);
    if s.over {
        return None;
    }
    let p: &mut dyn Policy = match s.roller {
        Side::White => white,
        Side::Black => black,
    };
    if holes > 0 && p.go(s, &score) {
        s.go();
        return None;
    }
    let i = p.choose_play(s, &score).min(score.plays.legal.len() - 1);
    let end = score.plays.legal[i].end;
    finish_play(s, &score, &end, p)
}

/// The roller of `s` plays to `end`; after a sortie, `p` chooses to go or stay. Returns a
/// roll to score at once (a stay after a sortie).
pub fn finish_play(
    s: &mut State,
    score: &RollScore,
    end: &Board,
    p: &mut dyn Policy,
) -> Option<Roll> {
    match s.play(score, end) {
        AfterPlay::Next => None,
        AfterPlay::Sortie { .. } if s.over => None,
        AfterPlay::Sortie { holes } => {
            if holes > 0 && p.go_after_sortie(s, score) {
                s.go();
                None
            } else {
                Some(s.stay_after_sortie(score))
            }
        }
    }
}

/// After a throw of the roller of `t` that won a hole (its gains from `score` marked on `t`):
/// the state when he goes (`going`), or when he stays and plays the play `p` chooses; with
/// the roll to score at once, if any (a stay after a sortie).
pub fn go_or_stay(
    t: &State,
    score: &RollScore,
    going: bool,
    p: &mut dyn Policy,
) -> (State, Option<Roll>) {
    let mut s = *t;
    if going {
        s.go();
        return (s, None);
    }
    let i = p.choose_play(&s, score).min(score.plays.legal.len() - 1);
    let end = score.plays.legal[i].end;
    let pending = finish_play(&mut s, score, &end, p);
    (s, pending)
}

/// Plays on from `s` (`pending`: a roll to score first) with `white` and `black` deciding
/// and `dice` throwing, until the partie ends or [`MAX_THROWS`] throws.
pub fn play_to_end(
    s: &mut State,
    mut pending: Option<Roll>,
    dice: &mut impl Dice,
    white: &mut dyn Policy,
    black: &mut dyn Policy,
) {
    let mut throws = 0;
    while !s.over && throws < MAX_THROWS {
        let roll = pending.take().unwrap_or_else(|| {
            let (a, b) = dice.roll_pair();
            Roll::new(a, b)
        });
        pending = turn(s, roll, white, black);
        throws += 1;
    }
}
