//! The [`Referee`] of one game: the rules' table, the dice drawn from the game's secret seed,
//! the log of every accepted action with its time, the offers between the seats
//! ([`offers`]), the clocks computed from the log ([`clock`]) and the result. It is pure: the time of each action is given by the caller, nothing is stored
//! or sent. The server wraps it (storage, clients); [`crate::verify()`] and the review replay a
//! log through it, so that a record is judged by exactly the rules that accepted it.

pub mod clock;
pub mod offers;

use rand::RngCore;
use tablier_core::{ActionError, Actor, Outcome, ParseErrorKind, SeededDice, Side};

use crate::action::{SeatAction, SeatActionError, TableAction};
use crate::export::{civil_date, Export, ExportInfo};
use crate::games::new_table;
use crate::record::{
    commitment_for, cut, describe_result, hex, side_from, side_name, GameResult, LoggedAction,
    Record,
};
use crate::spec::{SpecError, TableSpec};
use crate::table::Table;
pub use clock::RESUME;
use offers::{Effect, OfferRefusal, Offers};

/// A seat's action that was refused. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The game is over: nothing more is accepted.
    #[error("the game is over")]
    GameOver,
    /// The other seat is to act.
    #[error("it is not your turn")]
    NotYourTurn,
    /// Chance is to act: the dice are the server's.
    #[error("the dice are thrown by the server")]
    DiceAreThrown,
    /// A seat wrote `!flag`, which only the clock writes.
    #[error("only the clock can flag")]
    OnlyTheClockFlags,
    /// The text is not one a seat may send.
    #[error("{0}")]
    Text(#[from] SeatActionError),
    /// The rules refused the game action (or could not read it).
    #[error("{0}")]
    Action(#[from] ActionError),
    /// An offer or an answer that does not stand now.
    #[error("{0}")]
    Offer(#[from] OfferRefusal),
    /// A table action the game has no use for (draw offers and takebacks in the dice games).
    #[error("unknown table action {0}")]
    NotInThisGame(TableAction),
}

impl Refusal {
    /// A stable name of the refusal (`not-your-turn`, `action-not-legal`, `draw-declined`,
    /// ...), for a client that says it in its own language; the message stays the reason in
    /// English words, with its details.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::GameOver => "game-over",
            Refusal::NotYourTurn => "not-your-turn",
            Refusal::DiceAreThrown => "dice-are-thrown",
            Refusal::OnlyTheClockFlags => "only-the-clock-flags",
            Refusal::Text(e) => e.code(),
            Refusal::Action(ActionError::Parse(e)) => match e.kind {
                ParseErrorKind::Syntax => "action-syntax",
                ParseErrorKind::NotLegal => "action-not-legal",
                ParseErrorKind::Ambiguous { .. } => "action-ambiguous",
            },
            Refusal::Action(ActionError::Illegal(_)) => "action-illegal",
            Refusal::Offer(e) => e.code(),
            Refusal::NotInThisGame(_) => "not-in-this-game",
        }
    }
}

/// A position of a game's review: the action that led to it (none at the start) and the
/// table then.
pub type ReviewPosition = (Option<LoggedAction>, Box<dyn Table>);

/// One position of a game as [`Referee::positions`] gives it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BrowsedPosition {
    /// The number in the log of the action that led here (0: the start).
    pub n: i64,
    /// Who took that action (`white`, `black`, or empty for the dice and the start).
    pub side: String,
    /// That action, as logged (empty at the start).
    pub action: String,
    /// Who acts in this position: `white`, `black`, `chance` or `nobody`.
    pub actor: &'static str,
    /// The family's view of the position (as in the game's state).
    pub view: serde_json::Value,
}

/// A log that does not replay: what is wrong, with the action's number.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RecordError(pub String);

impl From<SpecError> for RecordError {
    fn from(e: SpecError) -> Self {
        RecordError(e.to_string())
    }
}

/// One game under way (or over): see the [module documentation](self).
///
/// ```
/// use tablier_catalog::{Referee, SeatAction, TableSpec};
/// use tablier_core::{Actor, Side};
///
/// let spec: TableSpec = serde_json::from_str(r#"{"family": "backgammon"}"#).unwrap();
/// let mut game = Referee::new(spec, [7; 32], 0).unwrap();
/// game.draw_chance(10); // the opening roll
/// let Actor::Player(side) = game.actor() else { panic!() };
/// let play = game.table().legal()[0].clone();
/// game.act(side, &SeatAction::Game(play), 2_000).unwrap();
/// assert!(game.act(side, &SeatAction::Game("double".into()), 3_000).is_err(), "not its turn");
/// game.act(Side::White, &SeatAction::parse("!resign").unwrap(), 4_000).unwrap();
/// assert_eq!(game.result().unwrap().winner, Some(Side::Black));
/// assert_eq!(game.log().len(), 3);
/// ```
pub struct Referee {
    spec: TableSpec,
    table: Box<dyn Table>,
    dice: SeededDice,
    seed: [u8; 32],
    log: Vec<LoggedAction>,
    created_ms: i64,
    /// The commitment published at the start, as stored.
    commitment: String,
    result: Option<GameResult>,
    offers: Offers,
    /// The game actions in force (taken-back ones removed): side, text, log number.
    played: Vec<(Side, String, i64)>,
    /// Log numbers of the actions taken back.
    undone: Vec<i64>,
}

impl Clone for Referee {
    /// A copy to try a change on: the caller keeps the original until the copy's new
    /// actions are safely stored.
    fn clone(&self) -> Referee {
        Referee {
            spec: self.spec.clone(),
            table: self.table.boxed_clone(),
            dice: self.dice.clone(),
            seed: self.seed,
            log: self.log.clone(),
            created_ms: self.created_ms,
            commitment: self.commitment.clone(),
            result: self.result.clone(),
            offers: self.offers.clone(),
            played: self.played.clone(),
            undone: self.undone.clone(),
        }
    }
}

impl Referee {
    /// A game of `spec` at its start, its dice drawn from `seed`, created at `created_ms`
    /// (ms since the epoch; the clocks count from it), committed to by
    /// [`commitment_for`]. The dice of an opening throw are not drawn yet
    /// ([`Referee::draw_chance`]).
    ///
    /// # Errors
    /// [`SpecError`] when the spec names no game.
    pub fn new(spec: TableSpec, seed: [u8; 32], created_ms: i64) -> Result<Referee, SpecError> {
        let table = new_table(&spec.game)?;
        let commitment = commitment_for(&seed, &spec);
        Ok(Referee {
            spec,
            table,
            dice: SeededDice::from_seed(seed),
            seed,
            log: Vec::new(),
            created_ms,
            commitment,
            result: None,
            offers: Offers::default(),
            played: Vec::new(),
            undone: Vec::new(),
        })
    }

    /// A game of `spec` with a fresh secret seed from `rng`.
    ///
    /// # Errors
    /// [`SpecError`] when the spec names no game.
    pub fn with_fresh_seed(
        spec: TableSpec,
        rng: &mut impl RngCore,
        created_ms: i64,
    ) -> Result<Referee, SpecError> {
        let mut seed = [0u8; 32];
        rng.fill_bytes(&mut seed);
        Referee::new(spec, seed, created_ms)
    }

    /// A game taken up again from its stored log: every action replayed (every roll
    /// recomputed from the seed and compared), under the commitment as it was published
    /// (games created before the spec was committed keep their seed-only commitment).
    ///
    /// # Errors
    /// [`RecordError`] when the log does not replay.
    pub fn restore(
        spec: TableSpec,
        seed: [u8; 32],
        created_ms: i64,
        commitment: String,
        log: &[LoggedAction],
    ) -> Result<Referee, RecordError> {
        let mut r = Referee::new(spec, seed, created_ms)?;
        r.commitment = commitment;
        for a in log {
            r.replay(a)?;
        }
        Ok(r)
    }

    /// The game and its clock.
    #[must_use]
    pub fn spec(&self) -> &TableSpec {
        &self.spec
    }

    /// The rules' table as it stands.
    #[must_use]
    pub fn table(&self) -> &dyn Table {
        self.table.as_ref()
    }

    /// Every action so far.
    #[must_use]
    pub fn log(&self) -> &[LoggedAction] {
        &self.log
    }

    /// The event number: how many actions the game has.
    #[must_use]
    pub fn version(&self) -> u64 {
        self.log.len() as u64
    }

    /// When the game was created (ms since the epoch).
    #[must_use]
    pub fn created_ms(&self) -> i64 {
        self.created_ms
    }

    /// The commitment published at the start, hex.
    #[must_use]
    pub fn commitment(&self) -> &str {
        &self.commitment
    }

    /// The dice seed in hex: revealed only once the game is over.
    #[must_use]
    pub fn revealed_seed(&self) -> Option<String> {
        self.result.as_ref().map(|_| hex(&self.seed))
    }

    /// The seed in hex, secret or not (for storage).
    #[must_use]
    pub fn seed_hex(&self) -> String {
        hex(&self.seed)
    }

    /// How the game ended, once over.
    #[must_use]
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// Who acts now ([`Actor::Nobody`] once the game is over, whatever ended it).
    #[must_use]
    pub fn actor(&self) -> Actor {
        if self.result.is_some() {
            Actor::Nobody
        } else {
            self.table.actor()
        }
    }

    /// The side whose draw offer stands.
    #[must_use]
    pub fn draw_offer(&self) -> Option<Side> {
        self.offers.draw()
    }

    /// The side whose takeback request stands.
    #[must_use]
    pub fn takeback_offer(&self) -> Option<Side> {
        self.offers.takeback()
    }

    /// The log numbers of the moves taken back.
    #[must_use]
    pub fn undone(&self) -> &[i64] {
        &self.undone
    }

    /// Accepts `side`'s action at `at_ms` and logs it: an action of the game (read against
    /// the position) or a table action. The dice then due are not drawn yet
    /// ([`Referee::draw_chance`]). A refusal changes nothing.
    ///
    /// # Errors
    /// [`Refusal`] with the reason.
    pub fn act(&mut self, side: Side, action: &SeatAction, at_ms: i64) -> Result<(), Refusal> {
        if *action == SeatAction::Table(TableAction::Flag) {
            return Err(Refusal::OnlyTheClockFlags);
        }
        self.accept(side, action, at_ms)
    }

    /// Applies and logs a player's action (the clock's `!flag` included).
    fn accept(&mut self, side: Side, action: &SeatAction, at_ms: i64) -> Result<(), Refusal> {
        let written = self.apply_player(side, action)?;
        self.push(side_name(side), written, at_ms);
        Ok(())
    }

    fn push(&mut self, side: &str, action: String, at_ms: i64) {
        self.log.push(LoggedAction {
            n: self.log.len() as i64 + 1,
            side: side.to_owned(),
            action,
            at_ms,
        });
    }

    /// Applies a player's action to the state, without logging it; returns it as written.
    fn apply_player(&mut self, side: Side, action: &SeatAction) -> Result<String, Refusal> {
        if self.result.is_some() {
            return Err(Refusal::GameOver);
        }
        let text = match action {
            SeatAction::Table(t) => {
                self.table_action(side, *t)?;
                return Ok(t.to_string());
            }
            SeatAction::Game(text) => text,
        };
        match self.table.actor() {
            Actor::Player(s) if s == side => {}
            Actor::Player(_) => return Err(Refusal::NotYourTurn),
            Actor::Chance => return Err(Refusal::DiceAreThrown),
            Actor::Nobody => return Err(Refusal::GameOver),
        }
        let written = self.table.apply(text)?;
        self.offers.after_move(side);
        self.played
            .push((side, written.clone(), self.log.len() as i64 + 1));
        self.result_from_rules();
        Ok(written)
    }

    /// Draws and logs the dice while chance is to act (at creation: the opening throw; after
    /// a play: the next roll); a throw may end the game. Returns how many were drawn.
    pub fn draw_chance(&mut self, at_ms: i64) -> usize {
        let mut drawn = 0;
        while self.result.is_none() && self.table.actor() == Actor::Chance {
            let Some(text) = self.table.chance(&mut self.dice) else {
                break;
            };
            let written = self
                .table
                .apply(&text)
                .expect("the game's own chance action is legal");
            self.push("", written, at_ms);
            self.result_from_rules();
            drawn += 1;
        }
        drawn
    }

    /// Ends the game on time if the clock of the side to act had run out at `at_ms`, and
    /// logs the clock's `!flag` for it. Returns the side that lost on time.
    pub fn flag_fall(&mut self, at_ms: i64) -> Option<Side> {
        let side = self.flagged_at(at_ms)?;
        self.accept(side, &SeatAction::Table(TableAction::Flag), at_ms)
            .ok()?;
        Some(side)
    }

    /// After a restart (or a take-over by another node), a clock that was running goes on
    /// from `at_ms`: the server's down time is not the player's. Logs a [`RESUME`] entry,
    /// which the clocks read; nothing (and `false`) when no clock runs or the last entry is
    /// one already.
    pub fn resume_clock(&mut self, at_ms: i64) -> bool {
        let running = self.clocks_at(at_ms).and_then(|(_, running)| running);
        if running.is_none() || self.log.last().is_some_and(|a| a.action == RESUME) {
            return false;
        }
        let at = at_ms.max(self.log.last().map_or(0, |a| a.at_ms));
        self.push("", RESUME.into(), at);
        true
    }

    /// Applies one logged action as a replay does (restoring a game, following another
    /// node's game, verifying a record, reviewing): every roll must be the one the seed
    /// gives, every player's action legal when made, `!flag` only on a clock that had run
    /// out, and nothing after the end. The action is then in the log.
    ///
    /// # Errors
    /// [`RecordError`] naming the action's number and what is wrong.
    pub fn replay(&mut self, a: &LoggedAction) -> Result<(), RecordError> {
        let n = a.n;
        let fail = |m: String| Err(RecordError(m));
        if let Some(last) = self.log.last() {
            if a.at_ms < last.at_ms {
                return fail(format!(
                    "action {n}: its time is before action {}'s",
                    last.n
                ));
            }
        }
        if self.result.is_some() {
            return fail(format!(
                "action {n} ({}): the game was already over",
                cut(&a.action)
            ));
        }
        if a.side.is_empty() && a.action == RESUME {
            // The server's own entry: its clocks go on again after a restart.
            if self.spec.clock.is_none() {
                return fail(format!(
                    "action {n}: a clock resumes in a game without a clock"
                ));
            }
        } else if a.side.is_empty() {
            // Chance: the dice must give exactly what was recorded.
            let Some(drawn) = self.table.chance(&mut self.dice) else {
                return fail(format!("action {n} ({}): no dice were due", cut(&a.action)));
            };
            if drawn != a.action {
                return fail(format!(
                    "action {n}: the seed gives {drawn:?}, the record says {:?}",
                    cut(&a.action)
                ));
            }
            if let Err(e) = self.table.apply(&drawn) {
                return fail(format!("action {n}: {}", cut(&e.to_string())));
            }
            // A throw can end the game (trictrac: the points of a throw complete the last
            // hole).
            self.result_from_rules();
        } else {
            let Some(side) = side_from(&a.side) else {
                return fail(format!(
                    "action {n}: the side {:?} is no seat",
                    cut(&a.side)
                ));
            };
            let refused = |e: &dyn std::fmt::Display| {
                format!("action {n} ({}): {}", cut(&a.action), cut(&e.to_string()))
            };
            let action = match SeatAction::from_log(&a.action) {
                Ok(action) => action,
                Err(e) => return fail(refused(&e)),
            };
            if action == SeatAction::Table(TableAction::Flag) {
                // Only the clock flags, and only a side whose time had run out then.
                if self.spec.clock.is_none() {
                    return fail(format!("action {n} (!flag): the game has no clock"));
                }
                if self.flagged_at(a.at_ms) != Some(side) {
                    return fail(format!(
                        "action {n} (!flag): {}'s clock had not run out at that time",
                        side_name(side)
                    ));
                }
            }
            if let Err(e) = self.apply_player(side, &action) {
                return fail(refused(&e));
            }
        }
        self.log.push(a.clone());
        Ok(())
    }

    /// The game's result from the rules, once they say it is over.
    fn result_from_rules(&mut self) {
        if let Some(o) = self.table.outcome() {
            self.result = Some(match o {
                Outcome::Win { winner, points } => GameResult {
                    winner: Some(winner),
                    points,
                    reason: "rules".into(),
                },
                Outcome::Draw => GameResult {
                    winner: None,
                    points: 0,
                    reason: "rules".into(),
                },
            });
        }
    }

    /// Checks that the stored result is the one the replay reached: every way a game ends (a
    /// move, a throw, a resignation, a flag, an agreed draw) is in the log.
    ///
    /// # Errors
    /// [`RecordError`] saying both results.
    pub fn check_result(&self, stored: Option<&GameResult>) -> Result<(), RecordError> {
        if stored == self.result.as_ref() {
            return Ok(());
        }
        Err(RecordError(format!(
            "the stored result is {}, the replay of its {} actions gives {}",
            describe_result(stored),
            self.log.len(),
            describe_result(self.result.as_ref())
        )))
    }

    /// The game in its family's file format (see [`crate::Table::export`]), with `players`
    /// (White's and Black's names) in its header, the day it was created, and its result
    /// where the table ended it.
    #[must_use]
    pub fn export(&self, players: [String; 2]) -> Export {
        self.table.export(&ExportInfo {
            players,
            date: self.created_date('.'),
            event: "tablier".into(),
            result: self.result.clone(),
        })
    }

    /// The name to save the export of game `id` under: `tablier-ID-YYYY-MM-DD.EXT`.
    #[must_use]
    pub fn export_file_name(&self, id: &str, extension: &str) -> String {
        format!("tablier-{id}-{}.{extension}", self.created_date('-'))
    }

    /// The day the game was created (UTC), its numbers joined by `sep`.
    fn created_date(&self, sep: char) -> String {
        let [y, m, d] = civil_date(self.created_ms);
        format!("{y:04}{sep}{m:02}{sep}{d:02}")
    }

    /// The game's record (see [`Record`]), under the public id `id`.
    #[must_use]
    pub fn record(&self, id: &str) -> Record {
        Record {
            id: id.to_owned(),
            spec: self.spec.clone(),
            commitment: self.commitment.clone(),
            seed: self.revealed_seed(),
            actions: self.log.clone(),
            result: self.result.clone(),
        }
    }

    /// The game's positions for its review: the start, then the table after each action in
    /// force (not table actions, not moves taken back), with that action.
    ///
    /// # Errors
    /// [`RecordError`] when the log does not replay (a damaged record).
    pub fn review_tables(&self) -> Result<Vec<ReviewPosition>, RecordError> {
        let mut r = Referee::new(self.spec.clone(), self.seed, self.created_ms)?;
        let mut out = vec![(None, r.table.boxed_clone())];
        for a in &self.log {
            r.replay(a)?;
            if !a.action.starts_with('!') && !self.undone.contains(&a.n) {
                out.push((Some(a.clone()), r.table.boxed_clone()));
            }
        }
        Ok(out)
    }

    /// The game's positions for looking back during play: [`Referee::review_tables`] as
    /// data — for each position the action that led to it (none at the start), who acts
    /// there and the family's view of it. Nothing in it is engine help: every position is
    /// public once played.
    ///
    /// # Errors
    /// [`RecordError`] when the log does not replay (a damaged record).
    pub fn positions(&self) -> Result<Vec<BrowsedPosition>, RecordError> {
        Ok(self
            .review_tables()?
            .into_iter()
            .map(|(a, table)| BrowsedPosition {
                n: a.as_ref().map_or(0, |a| a.n),
                side: a.as_ref().map(|a| a.side.clone()).unwrap_or_default(),
                action: a.map(|a| a.action).unwrap_or_default(),
                actor: match table.actor() {
                    Actor::Player(s) => side_name(s),
                    Actor::Chance => "chance",
                    Actor::Nobody => "nobody",
                },
                view: table.view(),
            })
            .collect())
    }

    /// Who is to act, in words for the record's messages.
    pub(crate) fn actor_name(&self) -> &'static str {
        match self.table.actor() {
            Actor::Player(s) => side_name(s),
            Actor::Chance => "chance",
            Actor::Nobody => "nobody",
        }
    }

    /// Applies `side`'s table action (not logged here): resigning and the clock's flag end
    /// the game; offers and answers go through [`Offers`], whose effect is carried out here.
    fn table_action(&mut self, side: Side, action: TableAction) -> Result<(), Refusal> {
        if matches!(action, TableAction::Resign | TableAction::Flag) {
            self.result = Some(GameResult {
                winner: Some(side.opposite()),
                points: 1,
                reason: if action == TableAction::Flag {
                    "time"
                } else {
                    "resign"
                }
                .into(),
            });
            return Ok(());
        }
        self.offers.check_cap(side)?;
        if !self.spec.game.family.has_offers() {
            return Err(Refusal::NotInThisGame(action));
        }
        let has_moved = self.played.iter().any(|(s, _, _)| *s == side);
        let before = self.offers.clone();
        match self.offers.answer(side, action, has_moved)? {
            Effect::Nothing => {}
            Effect::Draw => {
                self.result = Some(GameResult {
                    winner: None,
                    points: 0,
                    reason: "draw-agreed".into(),
                });
            }
            Effect::TakeBack(offerer) => {
                if let Err(e) = self.take_back(offerer) {
                    self.offers = before;
                    return Err(e.into());
                }
            }
        }
        Ok(())
    }

    /// Takes back `offerer`'s last turn (a run of its actions) and every action after it:
    /// the table is rebuilt from the start with the actions still in force.
    fn take_back(&mut self, offerer: Side) -> Result<(), OfferRefusal> {
        let Some(i) = self.played.iter().rposition(|(s, _, _)| *s == offerer) else {
            return Err(OfferRefusal::NothingToTakeBack);
        };
        let mut from = i;
        while from > 0 && self.played[from - 1].0 == offerer {
            from -= 1;
        }
        let mut table =
            new_table(&self.spec.game).map_err(|e| OfferRefusal::Damaged(e.to_string()))?;
        for (_, text, n) in &self.played[..from] {
            table
                .apply(text)
                .map_err(|e| OfferRefusal::Damaged(format!("action {n} does not replay: {e}")))?;
        }
        self.undone
            .extend(self.played.drain(from..).map(|(_, _, n)| n));
        self.table = table;
        Ok(())
    }

    /// Remaining clock time of each side at `now` (ms since the epoch), and the side whose
    /// clock runs; `None` in a game without a clock. See [`clock::clocks`].
    #[must_use]
    pub fn clocks_at(&self, now: i64) -> Option<([i64; 2], Option<Side>)> {
        self.clock_reading_at(now).map(|r| (r.left, r.running))
    }

    /// The clocks at `now` with what is left of the running side's delay; `None` in a game
    /// without a clock. See [`clock::reading`].
    #[must_use]
    pub fn clock_reading_at(&self, now: i64) -> Option<clock::Reading> {
        let to_act = match self.actor() {
            Actor::Player(s) => Some(s),
            _ => None,
        };
        let c = self.spec.clock?;
        Some(clock::reading(c, self.created_ms, &self.log, to_act, now))
    }

    /// The side whose clock had run out at `now` while it was to act.
    #[must_use]
    pub fn flagged_at(&self, now: i64) -> Option<Side> {
        let (left, running) = self.clocks_at(now)?;
        running.filter(|s| left[s.index()] <= 0)
    }

    /// Milliseconds from `now` until the running clock runs out (`None`: none runs).
    #[must_use]
    pub fn ms_to_flag(&self, now: i64) -> Option<i64> {
        let r = self.clock_reading_at(now)?;
        r.running.map(|s| r.left[s.index()].max(0) + r.delay_left)
    }
}
