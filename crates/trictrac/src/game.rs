//! A whole game: primauté, rolls, marking (automatic or by the players with écoles), s'en
//! aller / rester, relevés, the partie in 12 holes or à écrire, and a game record that
//! replays.
//!
//! # Turn structure
//! 1. **Chance** throws: at the very start the primauté throw [`Action::Primaute`] (one die
//!    for each player, never equal: n°28, A12 — the higher die's owner plays that throw),
//!    afterwards [`Action::Roll`].
//! 2. The roller's gains are marked before he touches a dame (n°149, n°171): by the program
//!    (automatic mode) or by the roller himself with [`Action::Mark`] (écoles mode).
//! 3. If those gains completed a hole, the roller chooses [`Action::Go`] (s'en aller: points
//!    erased, relevé, he throws again — n°155–157) or [`Action::Stay`] (n°158).
//! 4. He plays the roll ([`Action::Play`]).
//! 5. The opponent's points given by the roll (false hits, contre-jans, unplayed numbers)
//!    are marked after the play (n°149, n°207): by the program, or by the opponent with
//!    [`Action::Mark`], who may first claim the roller's écoles with [`Action::Claim`].
//!
//! After a player bears off his last dame both players keep their points, everything goes
//! back to the talons and he has the primauté (n°118); by the *jouer pour tout* convention
//! (n°118, n°163, RULES.md A10) the throw that bore off his last dames is also his first
//! throw of the new relevé, scored and played from the talons. If its sortie points complete
//! a hole he may go instead (n°163): points erased, relevé, and he throws anew.
//!
//! # Écoles mode (RULES.md §9)
//! A player marks the points he declares (`Mark(k)`); the holes follow from the points. If
//! `k` differs from what is due, the difference is an *école*:
//! * *par trop* (n°166): the over-marking is corrected at once (we assume the opponent always
//!   erases it, n°187), and the excess becomes claimable;
//! * *par moins* (n°166): the player keeps only what he marked; the missing points become
//!   claimable.
//!
//! The opponent may claim (`Claim`, all or nothing, n°187) or let go (`Decline`) each école of
//! the other player, before he throws himself (n°167):
//! * an école made when marking one's gains is consummated when one plays (n°167, n°171); the
//!   opponent claims it when he marks the points given to him, after the move (n°188–189),
//!   before marking them;
//! * an école made when marking given points is consummated when one throws (n°167); the
//!   opponent claims it right after that throw ([`Phase::ClaimWindow`]), before the roller
//!   marks his gains, because école points are acquired before the next roll's points
//!   (n°200).
//!
//! École points never let the claimant go (n°185); an école not claimed in time is lost for
//! him (no école d'école, n°182); going cancels the goer's écoles of that roll (n°169). Claims
//! are only offered when an école exists: *fausse école* (n°183), *augmentation d'école*
//! (n°194), the warnings of n°176–177 and errors in playing (n°192, n°213: our plays are
//! always legal) are not modelled.
//!
//! # Game record
//! JSON lines: a header `{"game":"trictrac","options":{…}}`, then one line per action
//! `{"by":"chance"|"white"|"black","action":"<notation>","points":[w,b],"holes":[w,b]}` with
//! the marker after the action. [`Trictrac::replay`] re-applies every action and checks the
//! marker. Action notation: `W5 B3` (primauté: White's die, Black's die), `6-5` (roll),
//! plays as in [`crate::plays`], `go`, `stay`, `mark 4`, `claim`, `decline`.

use crate::board::Board;
use crate::marker::{marque_value, Marker};
use crate::plays::{Play, Roll};
use crate::scoring::{EventKind, JanContext, RollScore};
use serde::{Deserialize, Serialize};
use tablier_core::{Actor, Dice, IllegalAction, Outcome, ParseActionError, Side};

/// Who marks the points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Marking {
    /// The program marks every point (no écoles).
    #[default]
    Automatic,
    /// Each player marks his own points; wrong marks are écoles (RULES.md §9).
    Ecoles,
}

/// How the game ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Partie {
    /// Partie ordinaire: the first to 12 holes wins (n°140, n°162).
    #[default]
    Ordinaire,
    /// Partie à écrire in `marques` marqués (an even number, n°220); a marqué ends when a
    /// player goes while either has at least 6 holes (n°221).
    AEcrire {
        /// Number of marqués to play (refaits not counted).
        marques: u32,
    },
}

/// Options of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Automatic marking or écoles.
    pub marking: Marking,
    /// Partie ordinaire or à écrire.
    pub partie: Partie,
    /// Partie ordinaire: the winner's stake grows with the bredouille of holes ([Guiton
    /// ch. VIII], RULES.md §8.1, A13): see [`crate::marker::stake`]. Without it a partie
    /// ordinaire is worth 1.
    #[serde(default)]
    pub stakes: bool,
}

/// One action of a trictrac game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// Chance: the primauté throw, one die for each player (never equal).
    Primaute {
        /// White's die.
        white: u8,
        /// Black's die.
        black: u8,
    },
    /// Chance: the roller's two dice.
    Roll(Roll),
    /// S'en aller after a hole won by one's own roll (n°155).
    Go,
    /// Rester (tenir) (n°158).
    Stay,
    /// Play the roll.
    Play(Play),
    /// Écoles mode: mark this many points.
    Mark(u32),
    /// Écoles mode: take the opponent's oldest école.
    Claim,
    /// Écoles mode: let the opponent's écoles go (no école d'école, n°182).
    Decline,
}

/// Where the game is in the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The primauté throw is due.
    Primaute,
    /// The roller's dice are due.
    Roll,
    /// Écoles: before the roller marks, his opponent may claim the écoles the roller made
    /// when marking the points given to him — they count as acquired before the new roll's
    /// points (n°200).
    ClaimWindow,
    /// Écoles: the roller marks his gains.
    MarkGains,
    /// The roller chooses to go or stay.
    Decide,
    /// The roller plays.
    Play,
    /// Écoles: the opponent marks the points the roll gave him.
    MarkGiven,
    /// The game is over.
    Over,
}

/// A wrong marking that the other player may claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ecole {
    /// The player who marked wrongly.
    pub by: Side,
    /// The points at stake.
    pub points: u32,
    /// `true` for an école par trop (over-marking), `false` par moins.
    pub trop: bool,
}

/// A finished marqué of the partie à écrire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarqueResult {
    /// The winner.
    pub winner: Side,
    /// Holes of White and Black.
    pub holes: [u32; 2],
    /// Whether the winner held the pavillon.
    pub pavillon: bool,
    /// Its value (n°222–226).
    pub value: i64,
}

/// Per-relevé state for the one-shot jans.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Releve {
    rolls: [u32; 2],
    deux_tables_done: [bool; 2],
    mezeas_done: bool,
}

/// One line of the game record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordLine {
    /// `chance`, `white` or `black`.
    pub by: String,
    /// The action in notation.
    pub action: String,
    /// Points after the action.
    pub points: [u32; 2],
    /// Holes after the action.
    pub holes: [u32; 2],
}

#[derive(Serialize, Deserialize)]
struct Header {
    game: String,
    options: Options,
}

/// A game record that does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("record line {line}: {reason}")]
pub struct ReplayError {
    /// 1-based line number.
    pub line: usize,
    /// What went wrong.
    pub reason: String,
}

/// A game of grand trictrac.
#[derive(Clone, Debug)]
pub struct Trictrac {
    options: Options,
    board: Board,
    marker: Marker,
    phase: Phase,
    turn: Side,
    score: Option<RollScore>,
    releve: Releve,
    ecoles: Vec<Ecole>,
    marques: Vec<MarqueResult>,
    refaits: u32,
    starter: Side,
    winner: Option<Outcome>,
    log: Vec<RecordLine>,
}

impl PartialEq for Trictrac {
    fn eq(&self, other: &Self) -> bool {
        self.options == other.options
            && self.board == other.board
            && self.marker == other.marker
            && self.phase == other.phase
            && self.turn == other.turn
            && self.score.as_ref().map(|s| (s.roller, s.roll))
                == other.score.as_ref().map(|s| (s.roller, s.roll))
            && self.releve == other.releve
            && self.ecoles == other.ecoles
            && self.marques == other.marques
            && self.refaits == other.refaits
            && self.winner == other.winner
            && self.log == other.log
    }
}

impl Trictrac {
    /// A new game: dames on the talons, the primauté throw due.
    #[must_use]
    pub fn new(options: Options) -> Trictrac {
        Trictrac {
            options,
            board: Board::start(),
            marker: Marker::new(),
            phase: Phase::Primaute,
            turn: Side::White,
            score: None,
            releve: Releve::default(),
            ecoles: Vec::new(),
            marques: Vec::new(),
            refaits: 0,
            starter: Side::White,
            winner: None,
            log: Vec::new(),
        }
    }

    /// A game from a position in the middle of a relevé: `board`, `marker`, and `roller`
    /// to throw next. The one-shot jans stay open; the jan de trois coups is not looked for
    /// (the rolls since the relevé are unknown).
    #[must_use]
    pub fn from_position(options: Options, board: Board, marker: Marker, roller: Side) -> Trictrac {
        let mut g = Trictrac::new(options);
        g.board = board;
        g.marker = marker;
        g.turn = roller;
        g.starter = roller;
        g.phase = Phase::Roll;
        g.releve.rolls = [3, 3];
        g
    }

    /// The options.
    #[must_use]
    pub fn options(&self) -> Options {
        self.options
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The marker.
    #[must_use]
    pub fn marker(&self) -> &Marker {
        &self.marker
    }

    /// The phase of the turn.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The player whose roll it is (or was).
    #[must_use]
    pub fn roller(&self) -> Side {
        self.turn
    }

    /// The current roll's scoring and plays, between the roll and the end of the turn.
    #[must_use]
    pub fn roll_score(&self) -> Option<&RollScore> {
        self.score.as_ref()
    }

    /// Écoles that can still be claimed.
    #[must_use]
    pub fn ecoles(&self) -> &[Ecole] {
        &self.ecoles
    }

    /// Finished marqués (partie à écrire).
    #[must_use]
    pub fn marques(&self) -> &[MarqueResult] {
        &self.marques
    }

    /// A chance action drawn from `dice` (the primauté throw is re-thrown until the dice
    /// differ, n°28).
    pub fn chance_action(&self, dice: &mut impl Dice) -> Option<Action> {
        match self.phase {
            Phase::Primaute => loop {
                let (w, b) = dice.roll_pair();
                if w != b {
                    return Some(Action::Primaute { white: w, black: b });
                }
            },
            Phase::Roll => {
                let (a, b) = dice.roll_pair();
                Some(Action::Roll(Roll::new(a, b)))
            }
            _ => None,
        }
    }

    /// The given points due to the roller's opponent for the current roll.
    fn given_due(&self) -> u32 {
        self.score.as_ref().map_or(0, RollScore::given)
    }

    fn gains_due(&self) -> u32 {
        self.score.as_ref().map_or(0, RollScore::gains)
    }

    fn mark_range(due: u32) -> impl Iterator<Item = u32> {
        (0..=due + 12).step_by(2)
    }

    fn actor_side(&self) -> Option<Side> {
        match self.phase {
            Phase::MarkGains | Phase::Decide | Phase::Play => Some(self.turn),
            Phase::MarkGiven | Phase::ClaimWindow => Some(self.turn.opposite()),
            _ => None,
        }
    }

    /// Marks points and ends a partie ordinaire at 12 holes. Returns the holes made.
    fn mark(&mut self, side: Side, k: u32) -> u32 {
        let holes = self.marker.mark(side, k);
        if self.options.partie == Partie::Ordinaire && self.marker.holes(side) >= 12 {
            self.phase = Phase::Over;
            self.winner = Some(Outcome::Win {
                winner: side,
                points: if self.options.stakes {
                    crate::marker::stake(&self.marker, side)
                } else {
                    1
                },
            });
        }
        holes
    }

    fn releve(&mut self, first: Side) {
        self.board = Board::start();
        self.releve = Releve::default();
        self.turn = first;
        self.phase = Phase::Roll;
        self.score = None;
    }

    fn start_roll(&mut self, roll: Roll) {
        let ctx = JanContext {
            rolls_before: Some(self.releve.rolls[self.turn.index()]),
            deux_tables_open: !self.releve.deux_tables_done[self.turn.index()],
            mezeas_open: !self.releve.mezeas_done,
        };
        let score = RollScore::new(&self.board, self.turn, roll, ctx);
        for e in &score.events {
            match e.kind {
                EventKind::JanDeDeuxTables | EventKind::ContreJanDeDeuxTables => {
                    self.releve.deux_tables_done[self.turn.index()] = true;
                }
                EventKind::JanDeMezeas | EventKind::ContreJanDeMezeas => {
                    self.releve.mezeas_done = true;
                }
                _ => {}
            }
        }
        self.releve.rolls[self.turn.index()] += 1;
        let gains = score.gains();
        self.score = Some(score);
        match self.options.marking {
            Marking::Automatic => {
                let holes = self.mark(self.turn, gains);
                self.after_gains(holes);
            }
            Marking::Ecoles => {
                let roller = self.turn;
                self.phase = if self.ecoles.iter().any(|e| e.by == roller) {
                    Phase::ClaimWindow
                } else {
                    Phase::MarkGains
                };
            }
        }
    }

    fn after_gains(&mut self, holes: u32) {
        if self.phase == Phase::Over {
            return;
        }
        self.phase = if holes > 0 {
            Phase::Decide
        } else {
            Phase::Play
        };
    }

    /// The end of the turn once the given points are marked.
    fn end_turn(&mut self) {
        if self.phase == Phase::Over {
            return;
        }
        if self.board.on_board(self.turn) == 0 {
            // Relevé after a complete sortie: points kept, he has the primauté (n°118), and by
            // the *jouer pour tout* convention (n°118, n°163, RULES.md A10) the throw that bore
            // off his last dames is also his first throw of the new relevé.
            let p = self.turn;
            let roll = self.score.as_ref().map(|s| s.roll);
            self.releve(p);
            if let Some(roll) = roll {
                self.start_roll(roll);
            }
        } else {
            self.turn = self.turn.opposite();
            self.phase = Phase::Roll;
            self.score = None;
        }
    }

    fn go(&mut self) {
        let p = self.turn;
        self.marker.erase_points();
        // No école when one goes (n°169): the roll is not played.
        self.ecoles.retain(|e| e.by != p);
        if let Partie::AEcrire { marques } = self.options.partie {
            let h = self.marker.holes;
            if h[0] >= 6 || h[1] >= 6 {
                if h[0] == h[1] {
                    // Refait: replayed with the same primauté (n°226).
                    self.refaits += 1;
                    let s = self.starter;
                    self.new_marque(s);
                    return;
                }
                let winner = if h[0] > h[1] {
                    Side::White
                } else {
                    Side::Black
                };
                let pavillon = self.marker.pavillon.holder == Some(winner);
                let value = marque_value(
                    h[winner.index()],
                    h[winner.opposite().index()],
                    pavillon,
                    self.refaits,
                );
                self.marques.push(MarqueResult {
                    winner,
                    holes: h,
                    pavillon,
                    value,
                });
                self.refaits = 0;
                if self.marques.len() as u32 >= marques {
                    let mut net = [0i64; 2];
                    for m in &self.marques {
                        net[m.winner.index()] += m.value;
                    }
                    self.phase = Phase::Over;
                    self.winner = Some(if net[0] == net[1] {
                        Outcome::Draw
                    } else {
                        let w = if net[0] > net[1] {
                            Side::White
                        } else {
                            Side::Black
                        };
                        Outcome::Win {
                            winner: w,
                            points: (net[0] - net[1]).unsigned_abs() as u32,
                        }
                    });
                    return;
                }
                self.new_marque(winner);
                return;
            }
        }
        self.releve(p);
    }

    fn new_marque(&mut self, first: Side) {
        self.marker = Marker::new();
        self.ecoles.clear();
        self.starter = first;
        self.releve(first);
    }

    fn apply_inner(&mut self, action: &Action) -> Result<(), IllegalAction> {
        let wrong = || IllegalAction::new("that action is not possible now");
        match (self.phase, action) {
            (Phase::Primaute, Action::Primaute { white, black }) => {
                if white == black || !(1..=6).contains(white) || !(1..=6).contains(black) {
                    return Err(IllegalAction::new(
                        "the primauté throw needs two different dice 1-6",
                    ));
                }
                self.turn = if white > black {
                    Side::White
                } else {
                    Side::Black
                };
                self.starter = self.turn;
                self.start_roll(Roll::new(*white, *black));
            }
            (Phase::Roll, Action::Roll(r)) => {
                self.start_roll(Roll::new(r.high, r.low));
            }
            (Phase::ClaimWindow, Action::Claim | Action::Decline) => {
                let roller = self.turn;
                let i = self
                    .ecoles
                    .iter()
                    .position(|e| e.by == roller)
                    .ok_or_else(wrong)?;
                let e = self.ecoles.remove(i);
                if *action == Action::Claim {
                    self.mark(roller.opposite(), e.points);
                } else {
                    self.ecoles.retain(|e| e.by != roller);
                }
                if self.phase != Phase::Over && !self.ecoles.iter().any(|e| e.by == roller) {
                    self.phase = Phase::MarkGains;
                }
            }
            (Phase::MarkGains, Action::Mark(k)) => {
                let due = self.gains_due();
                if k % 2 != 0 || *k > due + 12 {
                    return Err(IllegalAction::new("points are marked by twos"));
                }
                let credited = self.record_ecole(self.turn, *k, due);
                let holes = self.mark(self.turn, credited);
                self.after_gains(holes);
            }
            (Phase::Decide, Action::Go) => self.go(),
            (Phase::Decide, Action::Stay) => self.phase = Phase::Play,
            (Phase::Play, Action::Play(play)) => {
                let score = self.score.as_ref().ok_or_else(wrong)?;
                let cand = score
                    .plays
                    .legal
                    .iter()
                    .find(|c| &c.play == play)
                    .ok_or_else(|| IllegalAction::new(format!("{play} is not a legal play")))?;
                self.board = cand.end;
                match self.options.marking {
                    Marking::Automatic => {
                        let given = self.given_due();
                        self.mark(self.turn.opposite(), given);
                        self.end_turn();
                    }
                    Marking::Ecoles => self.phase = Phase::MarkGiven,
                }
            }
            (Phase::MarkGiven, Action::Claim) => {
                let claimant = self.turn.opposite();
                let i = self
                    .ecoles
                    .iter()
                    .position(|e| e.by != claimant)
                    .ok_or_else(|| IllegalAction::new("there is no école to claim"))?;
                let e = self.ecoles.remove(i);
                self.mark(claimant, e.points);
            }
            (Phase::MarkGiven, Action::Mark(k)) => {
                let o = self.turn.opposite();
                let due = self.given_due();
                if k % 2 != 0 || *k > due + 12 {
                    return Err(IllegalAction::new("points are marked by twos"));
                }
                // Écoles of the roller not claimed now are lost (n°167, n°182).
                self.ecoles.retain(|e| e.by == o);
                let credited = self.record_ecole(o, *k, due);
                self.mark(o, credited);
                self.end_turn();
            }
            (Phase::Over, _) => return Err(IllegalAction::new("the game is over")),
            _ => return Err(wrong()),
        }
        Ok(())
    }

    /// Records an école when `marked` differs from `due`; returns the points credited.
    fn record_ecole(&mut self, by: Side, marked: u32, due: u32) -> u32 {
        if marked > due {
            self.ecoles.push(Ecole {
                by,
                points: marked - due,
                trop: true,
            });
            due
        } else {
            if marked < due {
                self.ecoles.push(Ecole {
                    by,
                    points: due - marked,
                    trop: false,
                });
            }
            marked
        }
    }

    /// The game record as JSON lines (see the module docs).
    #[must_use]
    pub fn record(&self) -> String {
        let mut out = serde_json::to_string(&Header {
            game: "trictrac".into(),
            options: self.options,
        })
        .expect("serialisable");
        out.push('\n');
        for l in &self.log {
            out.push_str(&serde_json::to_string(l).expect("serialisable"));
            out.push('\n');
        }
        out
    }

    /// Replays a game record, checking the marker after every action.
    ///
    /// # Errors
    /// [`ReplayError`] naming the first line that is malformed, names no legal action, or
    /// disagrees with the marker.
    pub fn replay(text: &str) -> Result<Trictrac, ReplayError> {
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let (_, first) = lines.next().ok_or(ReplayError {
            line: 1,
            reason: "empty record".into(),
        })?;
        let header: Header = serde_json::from_str(first).map_err(|e| ReplayError {
            line: 1,
            reason: e.to_string(),
        })?;
        if header.game != "trictrac" {
            return Err(ReplayError {
                line: 1,
                reason: format!("not a trictrac record: {}", header.game),
            });
        }
        let mut g = Trictrac::new(header.options);
        for (i, l) in lines {
            let err = |reason: String| ReplayError {
                line: i + 1,
                reason,
            };
            let rec: RecordLine = serde_json::from_str(l).map_err(|e| err(e.to_string()))?;
            let action = tablier_core::Game::parse_action(&g, &rec.action)
                .map_err(|e| err(e.to_string()))?;
            tablier_core::Game::apply(&mut g, &action).map_err(|e| err(e.to_string()))?;
            if g.marker.points != rec.points || g.marker.holes != rec.holes {
                return Err(err(format!(
                    "marker is points {:?} holes {:?}, the record says {:?} {:?}",
                    g.marker.points, g.marker.holes, rec.points, rec.holes
                )));
            }
        }
        Ok(g)
    }
}

/// What a client needs to show a trictrac game.
#[derive(Clone, Debug, Serialize)]
pub struct TrictracView {
    /// The position in the compact notation.
    pub position: String,
    /// Each occupied flèche: absolute index, side, dames.
    pub fleches: Vec<(u8, Side, u8)>,
    /// Dames borne off, White then Black.
    pub off: [u8; 2],
    /// The marker.
    pub marker: Marker,
    /// Phase of the turn.
    pub phase: Phase,
    /// The roller.
    pub roller: Side,
    /// Who acts.
    pub actor: Actor,
    /// The current roll, if thrown.
    pub roll: Option<String>,
    /// The current roll's scoring events, one line each.
    pub events: Vec<String>,
    /// Legal actions: notation and, for plays, the path of flèches of each dame moved.
    pub legal: Vec<ActionView>,
    /// Écoles that can be claimed.
    pub ecoles: Vec<Ecole>,
    /// Finished marqués.
    pub marques: Vec<MarqueResult>,
    /// The options.
    pub options: Options,
}

/// One legal action for a client.
#[derive(Clone, Debug, Serialize)]
pub struct ActionView {
    /// The notation.
    pub notation: String,
    /// For plays: the flèches each moved dame visits (25/0 = off).
    pub paths: Vec<Vec<u8>>,
}

fn paths(play: &Play) -> Vec<Vec<u8>> {
    match play {
        Play::Pass => vec![],
        Play::Moves(s) => s.iter().map(|s| vec![s.from, s.to]).collect(),
        Play::ToutDUne { from, rest, to, .. } => vec![vec![*from, *rest, *to]],
        Play::Puissance { from, coin } => vec![vec![from[0], *coin], vec![from[1], *coin]],
    }
}

impl tablier_core::Game for Trictrac {
    type Action = Action;
    type View = TrictracView;

    fn actor(&self) -> Actor {
        match self.phase {
            Phase::Over => Actor::Nobody,
            Phase::Primaute | Phase::Roll => Actor::Chance,
            _ => Actor::Player(self.actor_side().expect("a player acts")),
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        match self.phase {
            Phase::Primaute => (1..=6u8)
                .flat_map(|w| (1..=6u8).map(move |b| (w, b)))
                .filter(|(w, b)| w != b)
                .map(|(white, black)| Action::Primaute { white, black })
                .collect(),
            Phase::Roll => Roll::all().into_iter().map(Action::Roll).collect(),
            Phase::ClaimWindow => vec![Action::Claim, Action::Decline],
            Phase::MarkGains => Self::mark_range(self.gains_due())
                .map(Action::Mark)
                .collect(),
            Phase::Decide => vec![Action::Go, Action::Stay],
            Phase::Play => self
                .score
                .as_ref()
                .map(|s| s.plays.plays().into_iter().map(Action::Play).collect())
                .unwrap_or_default(),
            Phase::MarkGiven => {
                let claimant = self.turn.opposite();
                let mut v = Vec::new();
                if self.ecoles.iter().any(|e| e.by != claimant) {
                    v.push(Action::Claim);
                }
                v.extend(Self::mark_range(self.given_due()).map(Action::Mark));
                v
            }
            Phase::Over => vec![],
        }
    }

    fn apply(&mut self, action: &Action) -> Result<(), IllegalAction> {
        let by = match tablier_core::Game::actor(self) {
            Actor::Chance => "chance".to_string(),
            Actor::Player(s) => s.to_string(),
            Actor::Nobody => return Err(IllegalAction::new("the game is over")),
        };
        let text = tablier_core::Game::format_action(self, action);
        let mut next = self.clone();
        next.apply_inner(action)?;
        next.log.push(RecordLine {
            by,
            action: text,
            points: next.marker.points,
            holes: next.marker.holes,
        });
        *self = next;
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner
    }

    fn format_action(&self, action: &Action) -> String {
        match action {
            Action::Primaute { white, black } => format!("W{white} B{black}"),
            Action::Roll(r) => r.to_string(),
            Action::Go => "go".into(),
            Action::Stay => "stay".into(),
            Action::Play(p) => p.notation(),
            Action::Mark(k) => format!("mark {k}"),
            Action::Claim => "claim".into(),
            Action::Decline => "decline".into(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, ParseActionError> {
        let err = |reason: String| ParseActionError {
            text: text.to_string(),
            reason,
        };
        let t = text.trim();
        let action = match self.phase {
            Phase::Over => return Err(err("the game is over".into())),
            Phase::Primaute => {
                let mut it = t.split_whitespace();
                let (w, b) = (it.next(), it.next());
                let die = |s: Option<&str>, c: char| {
                    s.and_then(|s| s.strip_prefix(c))
                        .and_then(|d| d.parse::<u8>().ok())
                };
                match (die(w, 'W'), die(b, 'B')) {
                    (Some(white), Some(black)) => Action::Primaute { white, black },
                    _ => return Err(err("expected the primauté throw like `W5 B3`".into())),
                }
            }
            Phase::Roll => Action::Roll(Roll::parse(t).map_err(|e| err(e.to_string()))?),
            Phase::Play => {
                let score = self.score.as_ref().ok_or_else(|| err("no roll".into()))?;
                Action::Play(score.plays.find(t).map_err(err)?.play.clone())
            }
            _ => match t {
                "go" => Action::Go,
                "stay" => Action::Stay,
                "claim" => Action::Claim,
                "decline" => Action::Decline,
                _ => match t.strip_prefix("mark ").map(|k| k.trim().parse::<u32>()) {
                    Some(Ok(k)) => Action::Mark(k),
                    _ => return Err(err("expected go, stay, claim, decline or `mark N`".into())),
                },
            },
        };
        if self.legal_actions().contains(&action) {
            Ok(action)
        } else {
            Err(err("not a legal action now".into()))
        }
    }

    fn chance_action(&self, mut dice: &mut dyn Dice) -> Option<Action> {
        Trictrac::chance_action(self, &mut dice)
    }

    fn view(&self) -> TrictracView {
        TrictracView {
            position: self.board.to_string(),
            fleches: (1..=24u8)
                .filter_map(|a| self.board.owner(a).map(|s| (a, s, self.board.count(s, a))))
                .collect(),
            off: [self.board.off(Side::White), self.board.off(Side::Black)],
            marker: self.marker,
            phase: self.phase,
            roller: self.turn,
            actor: tablier_core::Game::actor(self),
            roll: self.score.as_ref().map(|s| s.roll.to_string()),
            events: self
                .score
                .as_ref()
                .map(|s| s.events.iter().map(ToString::to_string).collect())
                .unwrap_or_default(),
            legal: self
                .legal_actions()
                .iter()
                .map(|a| ActionView {
                    notation: tablier_core::Game::format_action(self, a),
                    paths: match a {
                        Action::Play(p) => paths(p),
                        _ => vec![],
                    },
                })
                .collect(),
            ecoles: self.ecoles.clone(),
            marques: self.marques.clone(),
            options: self.options,
        }
    }
}
