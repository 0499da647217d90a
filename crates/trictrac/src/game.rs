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
//! A play that bears off the roller's last dame (a right, not a duty: see the crate docs,
//! "Bearing off") marks his sortie at once, after the play (4 points, 6 by a doublet,
//! n°118); if they complete a hole he chooses [`Action::Go`] or [`Action::Stay`] then
//! ([`Trictrac::sortie_marked`], n°163). Staying, the given points are marked as after any
//! play, both players keep their points, everything goes back to the talons and he has the
//! primauté (n°118); by the *jouer pour tout* convention (n°118, n°163, RULES.md A10) the
//! throw that bore off his last dames is also his first throw of the new relevé, scored and
//! played from the talons. Going: points erased, relevé, and he throws anew. Games of
//! [`Edition::First`] mark the sortie among the throw's gains, before the play.
//!
//! # Écoles mode (RULES.md §9)
//! Each player marks his own points as actions; the program moves the jetons and fichets
//! from the points declared, and keeps what was due, so that it can tell an école.
//!
//! The turn of the roller R, his opponent O (each window lists what may be done there; a
//! window closes with its last action, and an école not claimed in its window is lost for the
//! claimant, without penalty — no école d'école, n°182):
//! 1. R throws. [`Phase::ClaimWindow`] (O), if R left an école when marking the points
//!    given to him last turn: it is consummated by the throw (n°167) and its points come
//!    before R's new points (n°200).
//! 2. [`Phase::MarkGains`] (R): `Mark(k)` or `Warn(k)`; he may also answer O's claims of
//!    step 1 (fausse école, augmentation d'école).
//! 3. [`Phase::Decide`] (R) if his marking made a hole: `Go` or `Stay`.
//!    [`Phase::ContestGo`] (O) if he went on an over-marking.
//! 4. [`Phase::Play`] (R, or O after a contested go).
//! 5. [`Phase::MarkGiven`] (O): claims of R's écoles of step 2, then `Mark(k)` of the given
//!    points.
//! 6. [`Phase::AfterGiven`] (R), if O claimed anything or omitted given points: answers and
//!    `Oblige`, before O throws.
//!
//! Paragraph by paragraph (book section II, chapter X, and RULES.md §9):
//! * n°164–166 (école par trop, par moins, its value): `Mark(k)` with `k` ≠ the points due
//!   records an [`Ecole`] of the difference; the opponent may take it (`Claim`).
//! * n°167 (when an école is made): an over-marking stands on the marker (holes included)
//!   until the opponent erases or claims it in his window; not claimed, it is kept. An
//!   under-marking of one's gains can still be completed (`Mark(k)` in `Decide`/`Play`) until
//!   a dame is touched, and is claimable only after the play; an under-marking of given points
//!   is made when one throws.
//! * n°168: advice, nothing to model.
//! * n°169: forgotten points de reste are an école par moins (marking is in points, so the
//!   jeton-level slips of its second ¶ cannot happen); no école when one goes: going drops
//!   the goer's écoles.
//! * n°170, n°173, n°180, n°193: `Go` after an over-marking opens [`Phase::ContestGo`]: O may
//!   let him go (`Decline`, the holes are acquired), or make him stay — his marking corrected,
//!   with (`Claim`, `Ecole(k)`) or without (`Erase`) taking the école — and then O chooses
//!   R's play ("jouer à son désavantage les dames levées"). Under-marked holes and going only
//!   lose the holes (n°173 2nd ¶).
//! * n°171: each player marks before the next act (R before playing, O before throwing).
//! * n°172 (words and marks): only marks are actions; what a player says is not modelled.
//! * n°174, n°178, n°184 (double hole marked simple or the reverse), n°190, n°191, n°195:
//!   slips of jetons and fichets; the program places them from the points marked, so they
//!   cannot occur. A hole too many or too few is a 12-point école (n°184) and a hole won
//!   without moving the jeton and not marked an école of that hole (n°179).
//! * n°175, n°181 (points démarqués): no action erases one's own points, and `Erase` is
//!   offered only where there is an over-marking: a wrong erase cannot be made.
//! * n°176 (*je ne marque pas*): `Warn(k)` instead of `Mark(k)`: nothing moves; if a marking
//!   of O's in that turn makes a hole, the warning counts as R's marking and interrupts O's
//!   run (a simple hole); otherwise R's points are lost and O keeps his bredouille. `k` is
//!   what R believes he wins: less than due is an école par moins (2nd ¶: O's école gives
//!   him the hole, simple because of the warning).
//! * n°177: an over-marking by a wrongly warned O can only be erased (`Erase`), not claimed.
//! * n°182: `Decline`, or closing the window, drops the école without penalty.
//! * n°183 (fausse école): `Ecole(k)` claims `k` points on one's own judgement; with no école
//!   (or beyond it), the claimant has marked points he has not, an école par trop the other
//!   may erase or take in his next window.
//! * n°185 (oblige to mark a hole): in [`Phase::AfterGiven`], before O throws, R may
//!   `Oblige` O to mark the given points he omitted; after the throw it is too late.
//! * n°186: `Oblige` also makes R mark his omitted gains (in `MarkGiven`); the other remedies
//!   are `Claim` and `Erase`.
//! * n°187 (école entière): an école is taken whole (`Ecole(k)` with `k` below it takes it
//!   all); `Erase` erases an over-marking without taking it; separate écoles are separate.
//! * n°188–189 (wait to claim): claims of R's écoles come after his play.
//! * n°192, n°196 (remplir, conserver, privilège): marking a fill or conservation one does not
//!   make is an école par trop like any other; our plays are always legal, so the obligation
//!   to fill or conserve is enforced by the legal plays (the opponent's forcing or forbidding a
//!   fill after an error cannot arise).
//! * n°194 (augmentation d'école): contesting a right claim with `Ecole(k)` is a false claim
//!   like n°183, which the first claimant may take in turn.
//! * n°197 (école impossible): an under-marking of one's gains is made only by touching a
//!   dame; with nothing to play (`pass`) it cannot be claimed. Recognising it before
//!   throwing again, R completes his marking in [`Phase::AfterGiven`] (`Mark(k)`): his
//!   points are counted before the given ones (the opponent's holes they no longer make are
//!   erased), and if they make a hole he may go, the opponent then marking nothing from the
//!   roll. Its second ¶ (provoking the opponent to throw) is not modelled. Its last ¶ (the last hole of the partie marked wrongly): a partie ordinaire does not end
//!   on holes the opponent may still correct.
//! * n°198–201: n°200 is the claim window before the throw's points; n°199 and n°201 concern
//!   dames played wrongly, which our legal plays exclude.
//!
//! Claims and erases correct the marker by replaying the markings of the turn with the
//! wrong one set to its due value, so bredouilles and holes come out as if the right points
//! had been marked (n°183 2°: "on reprend son trou avec deux points et on en ajoute
//! quatre").
//!
//! # Game record
//! JSON lines: a header `{"game":"trictrac","options":{…}}`, then one line per action
//! `{"by":"chance"|"white"|"black","action":"<notation>","points":[w,b],"holes":[w,b]}` with
//! the marker after the action; a throw's line also names its jans,
//! `"jans":[{"to":"White","jan":"battre à vrai","points":4},…]` (the roller's gains, then the
//! points given). [`Trictrac::replay`] re-applies every action and checks the marker (the
//! jans are not needed: older records have none). Action notation: `W5 B3` (primauté: White's die, Black's die), `6-5` (roll),
//! plays as in [`crate::plays`], `go`, `stay`, `mark 4`, `claim`, `decline`, `ecole 4`,
//! `erase`, `oblige`, `warn 4`.

use crate::board::{Board, Table};
use crate::marker::{marque_value, settle, Marker, Settlement};
use crate::plays::{Play, Roll};
use crate::scoring::{Event, EventKind, JanContext, RollScore};
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
    /// Which edition of tablier's rules the game follows (bearing off the last dame: a right,
    /// or the first edition's duty). A record or spec that names none was made under the
    /// first edition; a new game gets the current one ([`Edition::Second`]).
    #[serde(default = "Edition::first")]
    pub edition: Edition,
}

/// The editions of tablier's trictrac rules. One rule changed between them, after reading
/// the sources again (see the crate docs, "Bearing off"): stored games keep the edition they
/// were played under, so that they replay exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Edition {
    /// Games created before 2026-11-26: a roll that can bear off the roller's last dame
    /// must do so, and the sortie's points are among the throw's gains, marked before the
    /// play (so a hole they make is decided before the play).
    First,
    /// Bearing off is a right: every play of the roll is legal; the sortie's points are
    /// marked after the play that bears off the last dame, and a hole they make is decided
    /// then (go, or stay and throw for the new relevé).
    #[default]
    Second,
}

impl Edition {
    /// The edition of a record or spec that names none.
    #[must_use]
    pub fn first() -> Edition {
        Edition::First
    }
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
    /// Écoles mode: take the opponent's oldest école that can be claimed now, in full
    /// (n°164, n°187).
    Claim,
    /// Écoles mode: let the opponent's écoles go (no école d'école, n°182); when he went
    /// with a hole he did not have, let him go (n°180).
    Decline,
    /// Écoles mode: put the opponent à l'école for this many points on one's own judgement
    /// (*mettre à l'école*, n°164). Less than the école is taken as the whole école (n°187);
    /// more than there is, or with no école at all, the claimant marks points he has not:
    /// a *fausse école* (n°183) — or, against a right claim, an *augmentation d'école*
    /// (n°194) — which the other may claim in turn.
    Ecole(u32),
    /// Écoles mode: erase the opponent's over-marking without taking it (n°187, n°177).
    Erase,
    /// Écoles mode: oblige the opponent to mark the points he omitted (n°185–186).
    Oblige,
    /// Écoles mode: *"je ne marque pas"* (n°176): instead of marking the points he wins, the
    /// roller who believes his roll gives the opponent the hole warns that he does not mark;
    /// the number is the points he believes he wins.
    Warn(u32),
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
    /// Écoles: the roller went with a hole he had marked wrongly; his opponent may let him
    /// go (n°180), or oblige him to stay, erasing or claiming the over-marking (n°170, n°173).
    ContestGo,
    /// The roller plays (his opponent plays for him after a contested go, n°170).
    Play,
    /// Écoles: the opponent marks the points the roll gave him.
    MarkGiven,
    /// Écoles: before the opponent throws, the roller may answer his claims (fausse école,
    /// augmentation d'école, n°183, n°194) and oblige him to mark points he omitted (n°185).
    AfterGiven,
    /// The game is over.
    Over,
}

/// Which marking an école was made in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum EcoleKind {
    /// The roller marking (or warning about) his gains.
    #[default]
    Gains,
    /// The opponent marking the points given to him.
    Given,
    /// A claim of more than there was: a fausse école (n°183) or an augmentation d'école
    /// (n°194).
    Claim,
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
    /// The marking it was made in.
    #[serde(default)]
    pub kind: EcoleKind,
    /// Consummated, so that it can be claimed now (n°167, n°197).
    #[serde(default)]
    pub open: bool,
    /// The other player caused it by a wrong warning: he may erase it, not claim it (n°177).
    #[serde(default)]
    pub erase_only: bool,
    /// For an école par trop: the marking in the turn's ledger to correct, and to what.
    #[serde(skip)]
    entry: Option<(usize, u32)>,
    /// For an école par moins on one's gains: the marking in the ledger, which its maker may
    /// still complete while the école is not made (n°167, n°197).
    #[serde(skip)]
    marking: Option<usize>,
}

/// A finished marqué of the partie à écrire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarqueResult {
    /// The side that won the marque.
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
    /// For a throw of the dice: every jan it makes, with whom it profits and its points, in
    /// the order they are marked (the roller's gains, then the points given to his opponent).
    /// Records written before this field existed have none; a replay does not need them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub jans: Vec<JanPoints>,
}

/// One jan of a throw, as the game record keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JanPoints {
    /// Who marks the points.
    pub to: Side,
    /// The jan, as the book names it (e.g. `battre à vrai`).
    pub jan: String,
    /// Its points.
    pub points: u32,
}

#[derive(Serialize, Deserialize)]
struct Header {
    game: String,
    options: Options,
    /// The position the partie started from, when not the relevé's (absent otherwise, so
    /// that records of parties from the start are written as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    start: Option<Start>,
}

/// A partie's start in the middle of a relevé (see [`Trictrac::from_position`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Start {
    /// Where the dames stood.
    pub board: Board,
    /// The marker then.
    pub marker: Marker,
    /// Who threw first.
    pub roller: Side,
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
    /// The position it started from, when not the relevé's.
    start: Option<Start>,
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
    /// Écoles: the markings since `ledger_base`, replayed when an over-marking is corrected.
    ledger: Vec<LedgerEntry>,
    ledger_base: Marker,
    /// Écoles: each player has made a claim his opponent has not yet had a window to answer.
    claimed: [bool; 2],
    /// Écoles: who warned "je ne marque pas" this turn (n°176).
    warning: Option<Side>,
    /// The roller's opponent plays the roll (a contested go, n°170).
    forced: bool,
    /// Écoles: the roller completed his marking after the opponent marked (n°197) and may go.
    late: bool,
    /// Écoles: the opponent's marking of the given points this turn, in the ledger.
    given_entry: Option<usize>,
    /// The roller bore off his last dame this turn and his sortie points are marked
    /// ([`Edition::Second`]): a hole they made is decided after the play.
    sortie: bool,
}

/// One marking of points: who, how many, and whether the other had warned "je ne marque
/// pas" (n°176).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LedgerEntry {
    side: Side,
    points: u32,
    warned: bool,
}

impl LedgerEntry {
    /// Marks the entry on `m`. A warning by the other player counts as his marking when
    /// this marking makes a hole: it interrupts this player's run (n°176); otherwise the
    /// bredouille is kept despite the warning.
    fn apply(&self, m: &mut Marker) -> u32 {
        let mut probe = *m;
        if self.warned && m.points(self.side) > 0 && probe.mark(self.side, self.points) > 0 {
            m.bredouille[self.side.index()] = false;
        }
        m.mark(self.side, self.points)
    }
}

impl PartialEq for Trictrac {
    fn eq(&self, other: &Self) -> bool {
        self.options == other.options
            && self.start == other.start
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
            && self.ledger == other.ledger
            && self.ledger_base == other.ledger_base
            && self.claimed == other.claimed
            && self.warning == other.warning
            && self.forced == other.forced
            && self.late == other.late
            && self.given_entry == other.given_entry
            && self.sortie == other.sortie
    }
}

impl Trictrac {
    /// A new game: dames on the talons, the primauté throw due.
    #[must_use]
    pub fn new(options: Options) -> Trictrac {
        Trictrac {
            options,
            start: None,
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
            ledger: Vec::new(),
            ledger_base: Marker::new(),
            claimed: [false; 2],
            warning: None,
            forced: false,
            late: false,
            given_entry: None,
            sortie: false,
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
        g.start = Some(Start {
            board,
            marker,
            roller,
        });
        g
    }

    /// How this partie is scored and played (marking, partie ordinaire or à écrire, stakes).
    #[must_use]
    pub fn options(&self) -> Options {
        self.options
    }

    /// Where the dames stand.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Points, holes and bredouilles of both players.
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

    /// Whether the roller has borne off his last dame with this throw's play and marked his
    /// sortie ([`Edition::Second`]): a [`Phase::Decide`] now comes after the play, between
    /// going and staying for the new relevé (the board already shows the dames off).
    #[must_use]
    pub fn sortie_marked(&self) -> bool {
        self.sortie
    }

    /// Écoles that can still be claimed.
    #[must_use]
    pub fn ecoles(&self) -> &[Ecole] {
        &self.ecoles
    }

    /// Refaits since the last marqué was won (partie à écrire): the consolation of the
    /// marqué being played is `2 + 2 × refaits` (n°226).
    #[must_use]
    pub fn refaits(&self) -> u32 {
        self.refaits
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

    /// The most points one may claim as an école on one's own judgement.
    const MAX_ECOLE: u32 = 24;

    fn actor_side(&self) -> Option<Side> {
        match self.phase {
            Phase::MarkGains | Phase::Decide | Phase::AfterGiven => Some(self.turn),
            Phase::Play if self.forced => Some(self.turn.opposite()),
            Phase::Play => Some(self.turn),
            Phase::MarkGiven | Phase::ClaimWindow | Phase::ContestGo => Some(self.turn.opposite()),
            _ => None,
        }
    }

    /// Marks points (through the turn's ledger, so that an over-marking can be corrected
    /// later). A warning "je ne marque pas" by the other player counts as his marking when
    /// this marking makes a hole: it interrupts this player's run (n°176). Returns the
    /// ledger index and the holes made.
    fn mark(&mut self, side: Side, k: u32) -> (usize, u32) {
        if !self
            .ecoles
            .iter()
            .any(|e| e.entry.is_some() || e.marking.is_some())
        {
            self.ledger.clear();
            self.ledger_base = self.marker;
        }
        let entry = LedgerEntry {
            side,
            points: k,
            warned: self.warning == Some(side.opposite()),
        };
        let holes = entry.apply(&mut self.marker);
        self.ledger.push(entry);
        (self.ledger.len() - 1, holes)
    }

    /// Corrects a marking of the ledger and recomputes the marker from the ledger's base.
    fn correct(&mut self, entry: usize, points: u32) {
        self.ledger[entry].points = points;
        let mut m = self.ledger_base;
        for e in &self.ledger {
            e.apply(&mut m);
        }
        self.marker = m;
    }

    /// Ends a partie ordinaire at 12 holes — unless the holes rest on an over-marking the
    /// opponent may still correct (n°197 last ¶: the error is recognised and play goes on).
    fn check_over(&mut self) {
        if self.phase == Phase::Over || self.options.partie != Partie::Ordinaire {
            return;
        }
        for side in Side::ALL {
            let disputed = self.ecoles.iter().any(|e| e.by == side && e.trop);
            if self.marker.holes(side) >= 12 && !disputed {
                self.phase = Phase::Over;
                self.winner = Some(Outcome::Win {
                    winner: side,
                    points: if self.options.stakes {
                        crate::marker::stake(&self.marker, side)
                    } else {
                        1
                    },
                });
                return;
            }
        }
    }

    fn releve(&mut self, first: Side) {
        self.board = Board::start();
        self.releve = Releve::default();
        self.turn = first;
        self.phase = Phase::Roll;
        self.score = None;
        self.forced = false;
        self.warning = None;
        self.late = false;
        self.given_entry = None;
        self.sortie = false;
    }

    fn start_roll(&mut self, roll: Roll) {
        let ctx = JanContext {
            rolls_before: Some(self.releve.rolls[self.turn.index()]),
            deux_tables_open: !self.releve.deux_tables_done[self.turn.index()],
            mezeas_open: !self.releve.mezeas_done,
            sortie_duty: self.options.edition == Edition::First,
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
                let (_, holes) = self.mark(self.turn, gains);
                self.after_gains(holes);
            }
            Marking::Ecoles => {
                let roller = self.turn;
                // An école made when marking given points is consummated by the throw
                // (n°167); the opponent claims it before the roller marks (n°200).
                for e in &mut self.ecoles {
                    if e.by == roller && e.kind == EcoleKind::Given {
                        e.open = true;
                    }
                }
                self.phase = if self.open_ecole(roller).is_some() {
                    Phase::ClaimWindow
                } else {
                    Phase::MarkGains
                };
            }
        }
    }

    fn after_gains(&mut self, holes: u32) {
        self.phase = if holes > 0 {
            Phase::Decide
        } else {
            Phase::Play
        };
    }

    /// The end of the turn once the given points are marked (and answered).
    fn end_turn(&mut self) {
        self.warning = None;
        self.forced = false;
        self.late = false;
        self.given_entry = None;
        self.sortie = false;
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

    /// After the roller's play (and his sortie, if any): the points given to the opponent,
    /// marked by the program, or by the opponent in the écoles mode.
    fn after_play(&mut self) {
        match self.options.marking {
            Marking::Automatic => {
                let given = self.given_due();
                self.mark(self.turn.opposite(), given);
                self.end_turn();
            }
            Marking::Ecoles => self.phase = Phase::MarkGiven,
        }
    }

    fn go(&mut self) {
        let p = self.turn;
        self.sortie = false;
        self.marker.erase_points();
        // No école when one goes (n°169): the roll is not played.
        self.ecoles.clear();
        self.ledger.clear();
        self.ledger_base = self.marker;
        self.claimed = [false; 2];
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
                    let s = self.settlement(0, 0).expect("a partie à écrire");
                    self.phase = Phase::Over;
                    self.winner = Some(match s.winner {
                        None => Outcome::Draw,
                        Some(w) => Outcome::Win {
                            winner: w,
                            points: s.jetons,
                        },
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
        self.ledger.clear();
        self.ledger_base = self.marker;
        self.starter = first;
        self.releve(first);
    }

    /// The settlement of a partie à écrire from its finished marqués (n°227–237), with
    /// `jetons_par_marque` jetons put down per marqué lost (0: paper and pencil, n°233) and a
    /// queue of `queue` fiches (n°229). `None` in a partie ordinaire. The game's outcome is
    /// the paper settlement in jetons, postillons included.
    #[must_use]
    pub fn settlement(&self, jetons_par_marque: u32, queue: u32) -> Option<Settlement> {
        let Partie::AEcrire { marques } = self.options.partie else {
            return None;
        };
        let lost = |side: Side| -> Vec<i64> {
            self.marques
                .iter()
                .filter(|m| m.winner != side)
                .map(|m| m.value)
                .collect()
        };
        let (w, b) = (lost(Side::White), lost(Side::Black));
        Some(settle([&w, &b], marques, jetons_par_marque, queue))
    }

    /// The oldest école by `by` that can be claimed now.
    /// When the roller went on a wrong marking, that over-marking of his gains (n°170).
    fn open_ecole(&self, by: Side) -> Option<usize> {
        if self.phase == Phase::ContestGo {
            return self
                .ecoles
                .iter()
                .position(|e| e.by == by && e.trop && e.kind == EcoleKind::Gains);
        }
        self.ecoles.iter().position(|e| e.by == by && e.open)
    }

    /// Whether `claimant` may claim (not merely erase) an école of the other now.
    fn can_claim(&self, claimant: Side) -> bool {
        self.open_ecole(claimant.opposite())
            .is_some_and(|i| !self.ecoles[i].erase_only)
    }

    fn can_erase(&self, claimant: Side) -> bool {
        self.open_ecole(claimant.opposite())
            .is_some_and(|i| self.ecoles[i].trop)
    }

    /// The école par moins of the other that `claimant` may oblige him to mark: in
    /// `MarkGiven`, the roller's consummated one (n°186); in `AfterGiven`, the points given
    /// that the opponent omitted, before he throws (n°185).
    fn obligeable(&self, claimant: Side) -> Option<usize> {
        let by = claimant.opposite();
        self.ecoles.iter().position(|e| {
            e.by == by
                && !e.trop
                && match self.phase {
                    Phase::MarkGiven => e.open && e.kind == EcoleKind::Gains,
                    Phase::AfterGiven => !e.open && e.kind == EcoleKind::Given,
                    _ => false,
                }
        })
    }

    /// The roller's own école par moins on his gains, still his to complete before he
    /// touches a dame (n°167, n°191).
    ///
    /// After the opponent has marked, only an école that no dame touched (n°197) remains,
    /// and it is completed by correcting the marking in the ledger.
    fn own_moins(&self) -> Option<usize> {
        if self.forced || self.late {
            return None;
        }
        let roller = self.turn;
        let after = self.phase == Phase::AfterGiven;
        self.ecoles.iter().position(|e| {
            e.by == roller
                && !e.trop
                && !e.open
                && e.kind == EcoleKind::Gains
                && (!after || e.marking.is_some())
        })
    }

    /// Whether `claimant` has a window to claim or answer: the other has an école open, or
    /// made a claim `claimant` has not yet been able to answer (n°183, n°194).
    fn may_answer(&self, claimant: Side) -> bool {
        self.open_ecole(claimant.opposite()).is_some() || self.claimed[claimant.opposite().index()]
    }

    /// Claim actions of `claimant` in his window.
    fn claim_actions(&self, claimant: Side, contest: bool) -> Vec<Action> {
        let mut v = Vec::new();
        if self.can_claim(claimant) {
            v.push(Action::Claim);
        }
        if self.can_erase(claimant) {
            v.push(Action::Erase);
        }
        if self.obligeable(claimant).is_some() {
            v.push(Action::Oblige);
        }
        let erase_only = self
            .open_ecole(claimant.opposite())
            .is_some_and(|i| self.ecoles[i].erase_only);
        if contest && !erase_only {
            v.extend((2..=Self::MAX_ECOLE).step_by(2).map(Action::Ecole));
        }
        v
    }

    /// A claim of the other's oldest open école (`k == None`: in full) or of `k` points on
    /// one's own judgement (n°164, n°183, n°187, n°194).
    fn claim(&mut self, claimant: Side, k: Option<u32>) {
        let by = claimant.opposite();
        self.claimed[claimant.index()] = true;
        let (due, marked) = match self.open_ecole(by) {
            Some(i) => {
                let e = self.ecoles.remove(i);
                if let Some((entry, to)) = e.entry {
                    // The over-marking is erased (n°187).
                    self.correct(entry, to);
                }
                (e.points, k.map_or(e.points, |k| k.max(e.points)))
            }
            None => (0, k.unwrap_or(0)),
        };
        let (entry, _) = self.mark(claimant, marked);
        if marked > due {
            // More than the école, or no école at all: a fausse école (n°183), or against a
            // right claim an augmentation d'école (n°194); the other may take it.
            self.ecoles.push(Ecole {
                by: claimant,
                points: marked - due,
                trop: true,
                kind: EcoleKind::Claim,
                open: true,
                erase_only: false,
                entry: Some((entry, due)),
                marking: None,
            });
        }
    }

    /// Records the école of a marking of `marked` points when `due` were due.
    fn record_ecole(
        &mut self,
        by: Side,
        marked: u32,
        due: u32,
        kind: EcoleKind,
        entry: Option<usize>,
    ) {
        if marked == due {
            return;
        }
        let trop = marked > due;
        self.ecoles.push(Ecole {
            by,
            points: marked.abs_diff(due),
            trop,
            kind,
            // Par trop: made when the jeton is let go (n°167). Par moins on one's gains: when
            // a dame is touched; on given points: when one throws.
            open: trop && kind == EcoleKind::Gains,
            // A player wrongly warned who marks a hole he has not may only have it erased
            // (n°177).
            erase_only: trop && kind == EcoleKind::Given && self.warning == Some(by.opposite()),
            entry: if trop { entry.map(|i| (i, due)) } else { None },
            marking: if trop || kind != EcoleKind::Gains {
                None
            } else {
                entry
            },
        });
    }

    /// Drops the écoles of `by` that could be claimed in the window now closing (n°167,
    /// n°182), and `by`'s claims become unanswerable.
    fn close_window(&mut self, by: Side) {
        self.ecoles.retain(|e| !(e.by == by && e.open));
        self.claimed[by.index()] = false;
    }

    /// Why `action` is refused now.
    fn refusal(&self, action: &Action) -> IllegalAction {
        let reason = match (self.phase, action) {
            (Phase::Over, _) => "the game is over".to_string(),
            (_, Action::Primaute { .. } | Action::Roll(_)) => {
                "the dice are not to be thrown now".into()
            }
            (_, Action::Play(p)) if self.phase == Phase::Play => {
                format!("{p} is not a legal play")
            }
            (_, Action::Play(_)) => "the roll is not to be played now".into(),
            (_, Action::Mark(k) | Action::Warn(k) | Action::Ecole(k)) if k % 2 != 0 => {
                "points are marked by twos (n°140)".into()
            }
            (Phase::MarkGains | Phase::MarkGiven, Action::Mark(k)) => {
                format!("{k} points: one may not mark more than 12 beyond what the roll gives")
            }
            (Phase::Decide | Phase::Play, Action::Mark(_)) => {
                "one may only complete a marking of fewer points than one wins, before touching a dame (n°167)".into()
            }
            (_, Action::Mark(_)) => "no points are to be marked now".into(),
            (Phase::MarkGains, Action::Warn(_)) => {
                "one warns about at least 2 and at most 12 points more than the roll gives".into()
            }
            (_, Action::Warn(_)) => {
                "only the roller warns that he does not mark, instead of marking his gains (n°176)".into()
            }
            (_, Action::Go) => {
                "one may go only just after marking a hole won by one's own roll (n°155)".into()
            }
            (_, Action::Stay) => "there is no choice to stay or go now".into(),
            (_, Action::Claim) => "there is no école to claim now".into(),
            (_, Action::Erase) => "there is no over-marking to erase now".into(),
            (_, Action::Oblige) => {
                "there are no omitted points to oblige the opponent to mark now (n°185–186)".into()
            }
            (_, Action::Ecole(_)) => "no école can be claimed now".into(),
            (_, Action::Decline) => "there is nothing to let go now".into(),
        };
        IllegalAction::new(reason)
    }

    fn apply_inner(&mut self, action: &Action) -> Result<(), IllegalAction> {
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
                self.check_over();
                return Ok(());
            }
            (Phase::Roll, Action::Roll(r)) => {
                if !(1..=6).contains(&r.high) || !(1..=6).contains(&r.low) {
                    return Err(IllegalAction::new("dice show 1 to 6"));
                }
                self.start_roll(Roll::new(r.high, r.low));
                self.check_over();
                return Ok(());
            }
            _ => {}
        }
        if !tablier_core::Game::legal_actions(self).contains(action) {
            return Err(self.refusal(action));
        }
        let roller = self.turn;
        let other = roller.opposite();
        match (self.phase, action) {
            (Phase::ClaimWindow, Action::Decline) => {
                self.close_window(roller);
                self.phase = Phase::MarkGains;
            }
            (Phase::ClaimWindow, Action::Claim | Action::Ecole(_) | Action::Erase) => {
                self.claim_or_erase(other, action);
                if self.open_ecole(roller).is_none() {
                    self.close_window(roller);
                    self.phase = Phase::MarkGains;
                }
            }
            (Phase::MarkGains, Action::Mark(k) | Action::Warn(k)) => {
                self.close_window(other);
                let due = self.gains_due();
                let (entry, holes) = if let Action::Warn(_) = action {
                    // The warning stands for the marking of the points he believes he wins
                    // (n°176); nothing moves on the marker.
                    self.warning = Some(roller);
                    (None, 0)
                } else {
                    let (i, h) = self.mark(roller, *k);
                    (Some(i), h)
                };
                self.record_ecole(roller, *k, due, EcoleKind::Gains, entry);
                self.after_gains(holes);
            }
            (Phase::MarkGains | Phase::MarkGiven | Phase::AfterGiven, _)
                if matches!(
                    action,
                    Action::Claim | Action::Ecole(_) | Action::Erase | Action::Oblige
                ) =>
            {
                let claimant = self.actor_side().expect("a player acts");
                self.claim_or_erase(claimant, action);
            }
            (Phase::Decide | Phase::Play, Action::Mark(k)) => {
                // Completing one's marking before touching a dame (n°167).
                let i = self
                    .own_moins()
                    .expect("listed only with an école par moins");
                self.ecoles[i].points -= k;
                if self.ecoles[i].points == 0 {
                    self.ecoles.remove(i);
                }
                let (_, holes) = self.mark(roller, *k);
                if holes > 0 {
                    self.phase = Phase::Decide;
                }
            }
            (Phase::Decide, Action::Go) if !self.late => {
                let wrong = self
                    .ecoles
                    .iter()
                    .any(|e| e.by == roller && e.trop && e.kind == EcoleKind::Gains);
                if wrong {
                    // Going on a wrong marking (n°170, n°173): the opponent decides.
                    self.phase = Phase::ContestGo;
                } else {
                    self.go();
                }
            }
            (Phase::Decide, Action::Go) if self.late => {
                // He goes after all: the opponent marks nothing from the roll (n°157, n°197).
                if let Some(g) = self.given_entry {
                    self.correct(g, 0);
                }
                self.late = false;
                self.go();
            }
            (Phase::Decide, Action::Stay) if self.late => {
                self.late = false;
                self.phase = Phase::AfterGiven;
            }
            (Phase::Decide, Action::Stay) if self.sortie => self.after_play(),
            (Phase::Decide, Action::Stay) => self.phase = Phase::Play,
            (Phase::ContestGo, Action::Decline) => self.go(),
            (Phase::ContestGo, _) if self.sortie => {
                // He must stay after his sortie: his marking is corrected; the roll is
                // already played.
                self.claim_or_erase(other, action);
                self.after_play();
            }
            (Phase::ContestGo, _) => {
                // He must stay: his marking is corrected, and his opponent plays the roll for
                // him, to his disadvantage (n°170), marking the école if he wishes.
                self.claim_or_erase(other, action);
                self.forced = true;
                self.phase = Phase::Play;
            }
            (Phase::Play, Action::Play(play)) => {
                let score = self.score.as_ref().expect("a roll");
                let cand = score
                    .plays
                    .legal
                    .iter()
                    .find(|c| &c.play == play)
                    .expect("listed");
                let sortie = if self.options.edition == Edition::First {
                    0
                } else {
                    score.sortie_points(&cand.end)
                };
                self.board = cand.end;
                // An école par moins on one's gains is made when one touches a dame (n°167);
                // if there is no dame to play, it cannot be made (n°197).
                if self.options.marking == Marking::Ecoles && *play != Play::Pass {
                    for e in &mut self.ecoles {
                        if e.by == roller && e.kind == EcoleKind::Gains {
                            e.open = true;
                        }
                    }
                }
                if sortie > 0 {
                    // Lever le premier (n°118): marked once the last dame is off, before the
                    // dames go back to the talon (by the program, in the écoles mode too). A
                    // hole it makes may be a reason to go (n°155, n°163).
                    self.sortie = true;
                    let (_, holes) = self.mark(roller, sortie);
                    if holes > 0 {
                        self.phase = Phase::Decide;
                        self.check_over();
                        return Ok(());
                    }
                }
                self.after_play();
            }
            (Phase::MarkGiven, Action::Mark(k)) => {
                // Écoles of the roller not claimed now are lost (n°167, n°182) — except one
                // that no dame touched, which he may still complete (n°197).
                self.ecoles.retain(|e| {
                    e.by != roller
                        || (!e.open && !e.trop && e.kind == EcoleKind::Gains && e.marking.is_some())
                });
                self.claimed[roller.index()] = false;
                let due = self.given_due();
                let (entry, _) = self.mark(other, *k);
                self.given_entry = Some(entry);
                self.record_ecole(other, *k, due, EcoleKind::Given, Some(entry));
                let unmade = self.ecoles.iter().any(|e| e.by == roller);
                if self.may_answer(roller) || self.obligeable_after_given() || unmade {
                    self.phase = Phase::AfterGiven;
                } else {
                    self.end_turn();
                }
            }
            (Phase::AfterGiven, Action::Decline) => {
                self.close_window(other);
                // His école no dame touched is gone (n°197); his claims stay open for O.
                self.ecoles
                    .retain(|e| !(e.by == roller && e.kind == EcoleKind::Gains));
                self.end_turn();
            }
            (Phase::AfterGiven, Action::Mark(k)) => {
                // The école no dame touched is not made: recognising it before throwing again,
                // he completes his marking, before the points given (n°197, n°207).
                let i = self.own_moins().expect("listed");
                let idx = self.ecoles[i].marking.expect("a marking");
                self.ecoles[i].points -= k;
                if self.ecoles[i].points == 0 {
                    self.ecoles.remove(i);
                }
                let before = self.marker.holes(roller);
                let points = self.ledger[idx].points + k;
                self.correct(idx, points);
                if self.marker.holes(roller) > before {
                    self.late = true;
                    self.phase = Phase::Decide;
                }
            }
            _ => return Err(self.refusal(action)),
        }
        self.check_over();
        Ok(())
    }

    /// The roller's completions of an under-marking before he touches a dame (n°167), or
    /// of one no dame touched (n°197).
    fn completions(&self) -> Vec<Action> {
        self.own_moins()
            .map(|i| {
                (2..=self.ecoles[i].points)
                    .step_by(2)
                    .map(Action::Mark)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Whether the opponent omitted given points the roller may oblige him to mark.
    fn obligeable_after_given(&self) -> bool {
        let by = self.turn.opposite();
        self.ecoles
            .iter()
            .any(|e| e.by == by && !e.trop && !e.open && e.kind == EcoleKind::Given)
    }

    fn claim_or_erase(&mut self, claimant: Side, action: &Action) {
        match action {
            Action::Claim => self.claim(claimant, None),
            Action::Ecole(k) => self.claim(claimant, Some(*k)),
            Action::Erase => {
                let i = self.open_ecole(claimant.opposite()).expect("listed");
                let e = self.ecoles.remove(i);
                if let Some((entry, to)) = e.entry {
                    self.correct(entry, to);
                }
            }
            Action::Oblige => {
                let i = self.obligeable(claimant).expect("listed");
                let e = self.ecoles.remove(i);
                self.mark(e.by, e.points);
            }
            _ => unreachable!("only claims"),
        }
    }

    /// The game record as JSON lines (see the module docs).
    #[must_use]
    pub fn record(&self) -> String {
        let mut out = serde_json::to_string(&Header {
            game: "trictrac".into(),
            options: self.options,
            start: self.start,
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
        let mut g = match header.start {
            Some(st) => Trictrac::from_position(header.options, st.board, st.marker, st.roller),
            None => Trictrac::new(header.options),
        };
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
    /// Points, holes and bredouilles of both players.
    pub marker: Marker,
    /// Phase of the turn.
    pub phase: Phase,
    /// The player who throws the dice this turn.
    pub roller: Side,
    /// Who acts.
    pub actor: Actor,
    /// The current roll, if thrown.
    pub roll: Option<String>,
    /// The current roll's scoring events, one line each.
    pub events: Vec<String>,
    /// The same events, each in its parts, for a client that writes them in its own language
    /// (the jans keep the book's names).
    pub event_parts: Vec<EventView>,
    /// Legal actions: notation and, for plays, the path of flèches of each dame moved.
    pub legal: Vec<ActionView>,
    /// Écoles that can be claimed.
    pub ecoles: Vec<Ecole>,
    /// Finished marqués.
    pub marques: Vec<MarqueResult>,
    /// How this partie is scored and played (marking, partie ordinaire or à écrire, stakes).
    pub options: Options,
    /// Every throw of the dice so far (the primauté's included), in order, with its jans and
    /// their points: the move list shows them. In the écoles mode a client hides the last
    /// throw's jans from the seated players while its points are being marked.
    pub throws: Vec<ThrowView>,
}

/// One scoring event of [`TrictracView::event_parts`]: `White +4 battre à vrai (petit jan)
/// on flèche 17, 1 way [n°131]` in its parts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EventView {
    /// Who marks the points.
    pub to: Side,
    /// The points.
    pub points: u32,
    /// The jan, as the book names it.
    pub jan: &'static str,
    /// The table concerned (fills, conservation), if any, as the book names it.
    pub table: Option<&'static str>,
    /// The flèche concerned (a hit dame, a filled demi-case), if any.
    pub at: Option<u8>,
    /// Ways (hits, fills) or unplayed numbers; shown when above 1, or for hits and fills.
    pub ways: Option<u8>,
    /// Whether `ways` counts unplayed numbers rather than ways.
    pub numbers: bool,
    /// The book's paragraph (`n°131`).
    pub paragraph: &'static str,
}

impl From<&Event> for EventView {
    fn from(e: &Event) -> Self {
        let shown = e.ways > 1 || matches!(e.kind, EventKind::BattreAVrai | EventKind::Remplir);
        EventView {
            to: e.to,
            points: e.points,
            jan: e.kind.name(),
            table: e.table.map(Table::name),
            at: e.at,
            ways: shown.then_some(e.ways),
            numbers: e.kind == EventKind::NombreNonJoue,
            paragraph: e.kind.paragraph(),
        }
    }
}

/// A throw of the dice in [`TrictracView::throws`].
#[derive(Clone, Debug, Serialize)]
pub struct ThrowView {
    /// The throw as the game record writes it (`6-5`, `W6 B5` for the primauté).
    pub roll: String,
    /// Its jans (none when it scored nothing).
    pub jans: Vec<JanPoints>,
}

/// One legal action for a client.
#[derive(Clone, Debug, Serialize)]
pub struct ActionView {
    /// The action as the game writes it (`6-5`, `1-7,1-2`, `go`, `mark 4`).
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
            Phase::ClaimWindow => {
                let mut v = self.claim_actions(self.turn.opposite(), true);
                v.push(Action::Decline);
                v
            }
            Phase::MarkGains => {
                let due = self.gains_due();
                let mut v: Vec<Action> = Self::mark_range(due).map(Action::Mark).collect();
                v.extend((2..=due + 12).step_by(2).map(Action::Warn));
                if self.may_answer(self.turn) {
                    v.extend(self.claim_actions(self.turn, true));
                }
                v
            }
            Phase::Decide => {
                let mut v = vec![Action::Go, Action::Stay];
                v.extend(self.completions());
                v
            }
            Phase::ContestGo => {
                let mut v = self.claim_actions(self.turn.opposite(), true);
                v.push(Action::Decline);
                v
            }
            Phase::Play => {
                let mut v: Vec<Action> = self
                    .score
                    .as_ref()
                    .map(|s| s.plays.plays().into_iter().map(Action::Play).collect())
                    .unwrap_or_default();
                v.extend(self.completions());
                v
            }
            Phase::MarkGiven => {
                let mut v = self.claim_actions(self.turn.opposite(), true);
                v.extend(Self::mark_range(self.given_due()).map(Action::Mark));
                v
            }
            Phase::AfterGiven => {
                let mut v = self.claim_actions(self.turn, self.may_answer(self.turn));
                v.extend(self.completions());
                v.push(Action::Decline);
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
        // A play that bears off the roller's last dame marks his sortie (second edition).
        let sortie = match (action, self.score.as_ref()) {
            (Action::Play(p), Some(score))
                if self.phase == Phase::Play && self.options.edition == Edition::Second =>
            {
                score
                    .plays
                    .legal
                    .iter()
                    .find(|c| &c.play == p)
                    .map_or(0, |c| score.sortie_points(&c.end))
            }
            _ => 0,
        };
        let mut next = self.clone();
        next.apply_inner(action)?;
        let jans = match (action, next.score.as_ref()) {
            (Action::Play(_), _) if sortie > 0 => vec![JanPoints {
                to: self.turn,
                jan: EventKind::Sortie.name().to_owned(),
                points: sortie,
            }],
            (Action::Roll(_) | Action::Primaute { .. }, Some(score))
                if next.phase != Phase::Primaute =>
            {
                score
                    .events
                    .iter()
                    .map(|e| JanPoints {
                        to: e.to,
                        jan: e.kind.name().to_owned(),
                        points: e.points,
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
        next.log.push(RecordLine {
            by,
            action: text,
            points: next.marker.points,
            holes: next.marker.holes,
            jans,
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
            Action::Ecole(k) => format!("ecole {k}"),
            Action::Erase => "erase".into(),
            Action::Oblige => "oblige".into(),
            Action::Warn(k) => format!("warn {k}"),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, ParseActionError> {
        let err = |reason: String| ParseActionError::syntax(text, reason);
        let not_legal = |reason: String| ParseActionError::not_legal(text, reason);
        let t = text.trim();
        let number = |prefix: &str| {
            t.strip_prefix(prefix)
                .map(|k| k.trim().parse::<u32>().map_err(|e| err(e.to_string())))
        };
        let word = match t {
            "go" => Some(Action::Go),
            "stay" => Some(Action::Stay),
            "claim" => Some(Action::Claim),
            "decline" => Some(Action::Decline),
            "erase" => Some(Action::Erase),
            "oblige" => Some(Action::Oblige),
            _ => None,
        };
        let word = match word {
            Some(a) => Some(a),
            None => match (number("mark "), number("ecole "), number("warn ")) {
                (Some(k), _, _) => Some(Action::Mark(k?)),
                (_, Some(k), _) => Some(Action::Ecole(k?)),
                (_, _, Some(k)) => Some(Action::Warn(k?)),
                _ => None,
            },
        };
        let action = match (self.phase, word) {
            (Phase::Over, _) => return Err(not_legal("the game is over".into())),
            (_, Some(a)) => a,
            (Phase::Primaute, None) => {
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
            (Phase::Roll, None) => Action::Roll(Roll::parse(t).map_err(|e| err(e.to_string()))?),
            (Phase::Play, None) => {
                let score = self
                    .score
                    .as_ref()
                    .ok_or_else(|| not_legal("no roll".into()))?;
                Action::Play(score.plays.find(t).map_err(not_legal)?.play.clone())
            }
            (_, None) => return Err(err(
                "expected go, stay, claim, decline, erase, oblige, `mark N`, `ecole N` or `warn N`"
                    .into(),
            )),
        };
        if self.legal_actions().contains(&action) {
            Ok(action)
        } else {
            Err(not_legal("not a legal action now".into()))
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
            event_parts: self
                .score
                .as_ref()
                .map(|s| s.events.iter().map(EventView::from).collect())
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
            throws: self
                .log
                .iter()
                .fold(Vec::new(), |mut v: Vec<ThrowView>, l| {
                    if l.by == "chance" {
                        v.push(ThrowView {
                            roll: l.action.clone(),
                            jans: l.jans.clone(),
                        });
                    } else if let Some(last) = v.last_mut() {
                        // The sortie, marked after the play of the throw.
                        last.jans.extend(l.jans.iter().cloned());
                    }
                    v
                }),
        }
    }
}
