//! A live game: its table, dice, seats, clock and log; accepting actions, storing them before
//! they are announced, drawing the dice, and the state every client sees.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use rand_chacha::rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tablier_core::{Actor, Outcome, SeededDice, Side};
use tokio::sync::broadcast;

use crate::store::{Storage, StoreError, StoredAction, StoredGame};
use crate::table::{new_table, Family, GameSpec, Table};

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Lowercase hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// SHA-256 of a seat token, hex: what the database keeps instead of the token.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Who holds a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum SeatKind {
    /// A person, who acts with the seat's secret token.
    Human,
    /// The engine, at a level.
    Engine {
        /// 0 (random) to [`crate::engine::MAX_LEVEL`].
        level: u8,
    },
}

/// A seat as stored: its kind and the hash of its token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// Who holds it.
    #[serde(flatten)]
    pub kind: SeatKind,
    /// SHA-256 of the secret token (human seats).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_sha256: Option<String>,
}

/// A chess-style clock: minutes each and seconds added per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockSpec {
    /// Starting time per side, in seconds.
    pub initial_s: u32,
    /// Added after each of the side's actions, in seconds.
    pub increment_s: u32,
}

/// What is stored with a game beside its spec.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableSpec {
    /// The game.
    #[serde(flatten)]
    pub game: GameSpec,
    /// The clock, if any.
    #[serde(default)]
    pub clock: Option<ClockSpec>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// The winner (`None`: a draw).
    pub winner: Option<Side>,
    /// Points (backgammon: the match or the game's value; draughts 1; trictrac holes).
    pub points: u32,
    /// `rules`, `resign`, `time`, `draw-agreed`.
    pub reason: String,
}

/// A refused client message: what was wrong, in words for the player. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The action is not legal now (or not this seat's to make).
    #[error("{0}")]
    Illegal(String),
    /// The storage failed: the action was not accepted.
    #[error("the server could not store the action; try again")]
    Storage,
    /// Another server node has taken the game over (this one was thought dead).
    #[error("this game is now played on another server node; try again")]
    Moved,
}

impl From<StoreError> for Refusal {
    fn from(e: StoreError) -> Self {
        tracing::error!("{e}");
        match e {
            StoreError::NotOwner(_) => Refusal::Moved,
            StoreError::Db(_) | StoreError::Open(_) => Refusal::Storage,
        }
    }
}

/// The server's log entry (with an empty side) that says its clocks went on again after a
/// restart: the time between the entry before it and this one is charged to nobody.
pub const RESUME: &str = "!resume";

/// The most table actions (offers and answers to offers, not resignations) one seat may make
/// in a game.
pub const MAX_TABLE_ACTIONS: u32 = 100;

/// The commitment published when a game starts: the SHA-256, in hex, of a domain tag, the
/// 32-byte dice seed and the game's spec as JSON (the spec as the server writes it: the
/// family, variant, options and clock). Revealing the seed at the end proves both that the
/// dice were drawn from it and that the game was played under that spec: changing the match
/// length, the cube or the clock of a record changes its commitment.
#[must_use]
pub fn commitment_for(seed: &[u8; 32], spec: &TableSpec) -> String {
    let mut h = Sha256::new();
    h.update(b"tablier commitment v2\0");
    h.update(seed);
    h.update(serde_json::to_vec(spec).expect("a spec is serialisable"));
    hex(&h.finalize())
}

/// A value quoted in an error message, cut to its first 40 characters.
fn cut(s: &str) -> String {
    const MAX: usize = 40;
    match s.char_indices().nth(MAX) {
        None => s.to_owned(),
        Some((i, _)) => format!("{}… ({} bytes)", &s[..i], s.len()),
    }
}

fn describe_result(r: Option<&GameResult>) -> String {
    match r {
        None => "none (the game goes on)".into(),
        Some(r) => {
            let who = match r.winner {
                Some(s) => format!("{} wins", side_name(s)),
                None => "a draw".into(),
            };
            format!("{who}, {} points, by {}", r.points, r.reason)
        }
    }
}

/// A position of a game's review: the action that led to it (none at the start) and the
/// table then.
pub type ReviewPosition = (Option<StoredAction>, Box<dyn Table>);

/// A live game.
pub struct Room {
    /// The public id.
    pub id: String,
    /// What it is.
    pub spec: TableSpec,
    table: Box<dyn Table>,
    dice: SeededDice,
    seed: [u8; 32],
    /// The seats, white then black.
    pub seats: [Seat; 2],
    log: Vec<StoredAction>,
    created_ms: i64,
    /// The public commitment to the dice seed and the spec ([`commitment_for`]), as stored.
    commitment: String,
    result: Option<GameResult>,
    draw_offer: Option<Side>,
    takeback_offer: Option<Side>,
    /// Per seat: its last draw offer was declined, and its opponent has not moved since (a
    /// declined offer is renewed only after the opponent's next move).
    draw_declined: [bool; 2],
    /// Table actions (offers and answers) each seat has made: capped at
    /// [`MAX_TABLE_ACTIONS`] per game, so that no seat can grow the log without moving.
    table_actions: [u32; 2],
    /// The game actions in force (taken-back ones removed): side, text, log number.
    played: Vec<(Side, String, i64)>,
    /// Log numbers of the actions taken back.
    undone: Vec<i64>,
    /// Events (the serialised state after each change) go out here.
    pub tx: broadcast::Sender<Arc<String>>,
    /// `Some(node)` when another node owns the game: this room is its mirror, kept up to
    /// date from the event bus, and actions are sent to the owner.
    pub mirror_of: Option<String>,
}

/// Sides by index.
pub fn side_name(s: Side) -> &'static str {
    match s {
        Side::White => "white",
        Side::Black => "black",
    }
}

fn side_from(name: &str) -> Option<Side> {
    match name {
        "white" => Some(Side::White),
        "black" => Some(Side::Black),
        _ => None,
    }
}

impl Clone for Room {
    /// A copy to try a change on (its clients' channel is shared).
    fn clone(&self) -> Room {
        Room {
            id: self.id.clone(),
            spec: self.spec.clone(),
            table: self.table.boxed_clone(),
            dice: self.dice.clone(),
            seed: self.seed,
            seats: self.seats.clone(),
            log: self.log.clone(),
            created_ms: self.created_ms,
            commitment: self.commitment.clone(),
            result: self.result.clone(),
            draw_offer: self.draw_offer,
            takeback_offer: self.takeback_offer,
            draw_declined: self.draw_declined,
            table_actions: self.table_actions,
            played: self.played.clone(),
            undone: self.undone.clone(),
            tx: self.tx.clone(),
            mirror_of: self.mirror_of.clone(),
        }
    }
}

impl Room {
    fn blank(
        id: String,
        spec: TableSpec,
        seed: [u8; 32],
        seats: [Seat; 2],
        created_ms: i64,
    ) -> Result<Room, String> {
        let table = new_table(&spec.game)?;
        let (tx, _) = broadcast::channel(64);
        let commitment = commitment_for(&seed, &spec);
        Ok(Room {
            id,
            spec,
            table,
            dice: SeededDice::from_seed(seed),
            seed,
            seats,
            log: Vec::new(),
            created_ms,
            commitment,
            result: None,
            draw_offer: None,
            takeback_offer: None,
            draw_declined: [false; 2],
            table_actions: [0; 2],
            played: Vec::new(),
            undone: Vec::new(),
            tx,
            mirror_of: None,
        })
    }

    /// A new game, stored before it is returned. `seats` are the kinds; human seats get a
    /// fresh secret token each, returned beside the room (only their hashes are kept).
    ///
    /// # Errors
    /// A refusal when the spec names no game, or the storage fails.
    pub async fn create(
        store: &dyn Storage,
        id: String,
        spec: TableSpec,
        kinds: [SeatKind; 2],
    ) -> Result<(Room, [Option<String>; 2]), Refusal> {
        let mut rng = rand_chacha::ChaCha20Rng::from_entropy();
        let mut seed = [0u8; 32];
        rng.fill_bytes(&mut seed);
        let mut tokens: [Option<String>; 2] = [None, None];
        let seats = [0, 1].map(|i| {
            let kind = kinds[i].clone();
            let token_sha256 = (kind == SeatKind::Human).then(|| {
                let t = crate::new_token(&mut rng, 24);
                let h = token_hash(&t);
                tokens[i] = Some(t);
                h
            });
            Seat { kind, token_sha256 }
        });
        let mut room = Room::blank(id, spec, seed, seats, now_ms()).map_err(Refusal::Illegal)?;
        store
            .create_game(&StoredGame {
                id: room.id.clone(),
                spec: serde_json::to_string(&room.spec).expect("serialisable"),
                seed: hex(&seed),
                commitment: room.commitment(),
                seats: serde_json::to_string(&room.seats).expect("serialisable"),
                created_ms: room.created_ms,
                result: None,
                owner: Some(store.node().to_owned()),
            })
            .await?;
        // Opening dice, if the game starts with chance.
        room.settle(store).await?;
        Ok((room, tokens))
    }

    /// A game taken up again from the database: every stored action replayed, every roll
    /// recomputed from the seed and checked.
    ///
    /// # Errors
    /// When the record does not replay (a corrupt database).
    pub fn restore(game: &StoredGame, actions: Vec<StoredAction>) -> Result<Room, String> {
        let spec: TableSpec = serde_json::from_str(&game.spec).map_err(|e| e.to_string())?;
        let seats: [Seat; 2] = serde_json::from_str(&game.seats).map_err(|e| e.to_string())?;
        let seed: [u8; 32] = unhex(&game.seed)
            .and_then(|v| v.try_into().ok())
            .ok_or("bad seed")?;
        let mut room = Room::blank(game.id.clone(), spec, seed, seats, game.created_ms)?;
        // The commitment published at the start, as stored (games created before the spec
        // was committed keep their seed-only commitment).
        room.commitment.clone_from(&game.commitment);
        for a in actions {
            room.replay_one(&a)?;
            room.log.push(a);
        }
        // The stored result must be the one the replay reaches: every way a game ends (a
        // move, a throw, a resignation, a flag, an agreed draw) is in the log.
        let stored: Option<GameResult> = match &game.result {
            Some(r) => Some(serde_json::from_str(r).map_err(|e| format!("stored result: {e}"))?),
            None => None,
        };
        if stored != room.result {
            return Err(format!(
                "the stored result is {}, the replay of its {} actions gives {}",
                describe_result(stored.as_ref()),
                room.log.len(),
                describe_result(room.result.as_ref())
            ));
        }
        Ok(room)
    }

    /// A mirror catches up with actions another node stored: those that follow its log are
    /// replayed (checked like any replay), then announced to its clients. Returns whether
    /// anything was new.
    ///
    /// # Errors
    /// When an action does not replay (the mirror is then left as far as it got).
    pub fn catch_up(&mut self, actions: &[StoredAction]) -> Result<bool, String> {
        let mut new = false;
        for a in actions {
            if a.n != self.log.len() as i64 + 1 {
                continue;
            }
            self.replay_one(a)?;
            self.log.push(a.clone());
            new = true;
        }
        if new {
            self.announce();
        }
        Ok(new)
    }

    /// The game's positions for its review: the start, then the table after each action in
    /// force (not table actions, not moves taken back), with that action.
    ///
    /// # Errors
    /// When the log does not replay (a damaged record).
    pub fn review_tables(&self) -> Result<Vec<ReviewPosition>, String> {
        let mut room = Room::blank(
            self.id.clone(),
            self.spec.clone(),
            self.seed,
            self.seats.clone(),
            self.created_ms,
        )?;
        let mut out = vec![(None, room.table.boxed_clone())];
        for a in &self.log {
            room.replay_one(a)?;
            room.log.push(a.clone());
            if !a.action.starts_with('!') && !self.undone.contains(&a.n) {
                out.push((Some(a.clone()), room.table.boxed_clone()));
            }
        }
        Ok(out)
    }

    /// Applies one logged action during a replay (also used by `tablier verify`).
    fn replay_one(&mut self, a: &StoredAction) -> Result<(), String> {
        let n = a.n;
        if let Some(last) = self.log.last() {
            if a.at_ms < last.at_ms {
                return Err(format!(
                    "action {n}: its time is before action {}'s",
                    last.n
                ));
            }
        }
        if self.result.is_some() {
            return Err(format!(
                "action {n} ({}): the game was already over",
                cut(&a.action)
            ));
        }
        if a.side.is_empty() && a.action == RESUME {
            // The server's own entry: its clocks go on again after a restart.
            if self.spec.clock.is_none() {
                return Err(format!(
                    "action {n}: a clock resumes in a game without a clock"
                ));
            }
            return Ok(());
        }
        if a.side.is_empty() {
            // Chance: the dice must give exactly what was recorded.
            let drawn = self
                .table
                .chance(&mut self.dice)
                .ok_or(format!("action {n} ({}): no dice were due", cut(&a.action)))?;
            if drawn != a.action {
                return Err(format!(
                    "action {n}: the seed gives {drawn:?}, the record says {:?}",
                    cut(&a.action)
                ));
            }
            self.table
                .apply(&drawn)
                .map_err(|e| format!("action {n}: {}", cut(&e)))?;
            // A throw can end the game (trictrac: the points of a throw complete the last
            // hole).
            self.result_from_rules();
        } else {
            let side = side_from(&a.side).ok_or(format!(
                "action {n}: the side {:?} is no seat",
                cut(&a.side)
            ))?;
            if a.action == "!flag" {
                // Only the clock flags, and only a side whose time had run out then.
                if self.spec.clock.is_none() {
                    return Err(format!("action {n} (!flag): the game has no clock"));
                }
                if self.flagged_at(a.at_ms) != Some(side) {
                    return Err(format!(
                        "action {n} (!flag): {}'s clock had not run out at that time",
                        side_name(side)
                    ));
                }
            }
            self.apply_player(side, &a.action)
                .map_err(|e| format!("action {n} ({}): {}", cut(&a.action), cut(&e)))?;
        }
        Ok(())
    }

    /// The commitment published at the start: SHA-256 of the dice seed and the spec
    /// ([`commitment_for`]), hex.
    pub fn commitment(&self) -> String {
        self.commitment.clone()
    }

    /// The event number: how many actions the game has.
    pub fn version(&self) -> u64 {
        self.log.len() as u64
    }

    /// Who acts now (`None` when the game is over).
    pub fn actor(&self) -> Actor {
        if self.result.is_some() {
            Actor::Nobody
        } else {
            self.table.actor()
        }
    }

    /// The seat a token opens, if any (compared through hashes, in constant time).
    pub fn seat_of(&self, token: &str) -> Option<Side> {
        let h = token_hash(token);
        Side::ALL.into_iter().find(|s| {
            self.seats[s.index()]
                .token_sha256
                .as_deref()
                .is_some_and(|t| constant_time_eq(t.as_bytes(), h.as_bytes()))
        })
    }

    /// The result, once over.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// A copy of the table, for an engine to think on.
    pub fn table_copy(&self) -> Box<dyn Table> {
        self.table.boxed_clone()
    }

    /// The engine seat to act now, with its level.
    pub fn engine_to_act(&self) -> Option<(Side, u8)> {
        match self.actor() {
            Actor::Player(s) => match self.seats[s.index()].kind {
                SeatKind::Engine { level } => Some((s, level)),
                SeatKind::Human => None,
            },
            _ => None,
        }
    }

    /// Applies a player's action (game or table action) to the state, without storing it.
    fn apply_player(&mut self, side: Side, text: &str) -> Result<String, String> {
        if self.result.is_some() {
            return Err("the game is over".into());
        }
        if let Some(meta) = text.strip_prefix('!') {
            let counted = !matches!(meta, "resign" | "flag");
            if counted && self.table_actions[side.index()] >= MAX_TABLE_ACTIONS {
                return Err(format!(
                    "you have made {MAX_TABLE_ACTIONS} offers and answers in this game, the most a seat may"
                ));
            }
            let written = self.apply_meta(side, meta)?;
            if counted {
                self.table_actions[side.index()] += 1;
            }
            return Ok(written);
        }
        if self.table.actor() != Actor::Player(side) {
            return Err(match self.table.actor() {
                Actor::Player(_) => "it is not your turn".into(),
                Actor::Chance => "the dice are thrown by the server".into(),
                Actor::Nobody => "the game is over".into(),
            });
        }
        let written = self.table.apply(text)?;
        self.draw_offer = None;
        self.takeback_offer = None;
        // The opponent may offer again what this side declined.
        self.draw_declined[side.opposite().index()] = false;
        self.played
            .push((side, written.clone(), self.log.len() as i64 + 1));
        self.result_from_rules();
        Ok(written)
    }

    /// Takes back `offerer`'s last move and every action after it: the table is rebuilt
    /// from the start with the actions still in force.
    fn take_back(&mut self, offerer: Side) -> Result<(), String> {
        let Some(i) = self.played.iter().rposition(|(s, _, _)| *s == offerer) else {
            return Err("there is no move of yours to take back".into());
        };
        // The offerer's whole turn (a run of its actions), and all that followed.
        let mut from = i;
        while from > 0 && self.played[from - 1].0 == offerer {
            from -= 1;
        }
        let mut table = new_table(&self.spec.game)?;
        for (_, text, n) in &self.played[..from] {
            table
                .apply(text)
                .map_err(|e| format!("action {n} does not replay: {e}"))?;
        }
        self.undone
            .extend(self.played.drain(from..).map(|(_, _, n)| n));
        self.table = table;
        Ok(())
    }

    fn apply_meta(&mut self, side: Side, meta: &str) -> Result<String, String> {
        let draws = self.spec.game.family == Family::Draughts;
        match meta {
            "resign" => {
                self.result = Some(GameResult {
                    winner: Some(side.opposite()),
                    points: 1,
                    reason: "resign".into(),
                });
            }
            "draw-offer" if draws => {
                if self.draw_offer == Some(side.opposite()) {
                    return self.apply_meta(side, "draw-accept");
                }
                if self.draw_offer == Some(side) {
                    return Err("your draw offer stands already".into());
                }
                if self.draw_declined[side.index()] {
                    return Err(
                        "your draw offer was declined: offer again after your opponent's next move"
                            .into(),
                    );
                }
                self.draw_offer = Some(side);
            }
            "draw-accept" if draws => {
                if self.draw_offer != Some(side.opposite()) {
                    return Err("no draw is offered to you".into());
                }
                self.result = Some(GameResult {
                    winner: None,
                    points: 0,
                    reason: "draw-agreed".into(),
                });
            }
            "draw-decline" if draws => {
                if self.draw_offer != Some(side.opposite()) {
                    return Err("no draw is offered to you".into());
                }
                self.draw_offer = None;
                self.draw_declined[side.opposite().index()] = true;
            }
            // Takebacks: draughts, as on lidraughts (the dice games undo a play within the
            // turn, before it is sent; once the next roll is seen, nothing goes back).
            "takeback-offer" if draws => {
                if self.takeback_offer == Some(side.opposite()) {
                    return self.apply_meta(side, "takeback-accept");
                }
                if !self.played.iter().any(|(s, _, _)| *s == side) {
                    return Err("there is no move of yours to take back".into());
                }
                if self.takeback_offer == Some(side) {
                    return Err("you have already asked to take back".into());
                }
                self.takeback_offer = Some(side);
            }
            "takeback-accept" if draws => {
                let Some(offerer) = self.takeback_offer.filter(|o| *o == side.opposite()) else {
                    return Err("no takeback is asked of you".into());
                };
                self.take_back(offerer)?;
                self.takeback_offer = None;
                self.draw_offer = None;
            }
            "takeback-decline" if draws => {
                if self.takeback_offer != Some(side.opposite()) {
                    return Err("no takeback is asked of you".into());
                }
                self.takeback_offer = None;
            }
            "flag" => {
                // Only the server writes it, when a clock runs out.
                self.result = Some(GameResult {
                    winner: Some(side.opposite()),
                    points: 1,
                    reason: "time".into(),
                });
            }
            _ => return Err(format!("unknown table action !{meta}")),
        }
        Ok(format!("!{meta}"))
    }

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

    /// Accepts a player's action: checked, applied, followed by any dice now due, all stored
    /// in one transaction, then announced. A refusal changes nothing.
    ///
    /// # Errors
    /// [`Refusal`] with the reason.
    pub async fn act(
        &mut self,
        store: &dyn Storage,
        side: Side,
        text: &str,
    ) -> Result<(), Refusal> {
        if text.len() > 200 {
            return Err(Refusal::Illegal("that action is too long".into()));
        }
        if text == "!flag" {
            return Err(Refusal::Illegal("only the clock can flag".into()));
        }
        self.act_unchecked_meta(store, side, text).await
    }

    async fn act_unchecked_meta(
        &mut self,
        store: &dyn Storage,
        side: Side,
        text: &str,
    ) -> Result<(), Refusal> {
        // The change is made on a copy, stored, and only then swapped in: a refusal or a
        // storage failure leaves the room exactly as it was.
        let mut next = self.clone();
        let at = now_ms();
        let written = next.apply_player(side, text).map_err(Refusal::Illegal)?;
        next.log.push(StoredAction {
            n: next.log.len() as i64 + 1,
            side: side_name(side).into(),
            action: written,
            at_ms: at,
        });
        next.engine_answers(at);
        next.draw_chance(at);
        next.store_since(store, self.log.len()).await?;
        *self = next;
        self.announce();
        Ok(())
    }

    /// Stores the actions of the log from index `from` on, with the result if the game is
    /// over, in one transaction.
    async fn store_since(&self, store: &dyn Storage, from: usize) -> Result<(), Refusal> {
        let result = self
            .result
            .as_ref()
            .map(|r| serde_json::to_string(r).expect("json"));
        store
            .append(&self.id, &self.log[from..], result.as_deref())
            .await?;
        Ok(())
    }

    /// After a restart (or a take-over by another node), a clock that was running goes on
    /// from now: the server's down time is not the player's. Stores a [`RESUME`] entry in
    /// the log, which the clocks read; nothing when no clock runs.
    ///
    /// # Errors
    /// On a storage failure.
    pub async fn resume_clock(&mut self, store: &dyn Storage) -> Result<bool, Refusal> {
        let running = self.clocks().and_then(|(_, running)| running);
        if running.is_none() || self.log.last().is_some_and(|a| a.action == RESUME) {
            return Ok(false);
        }
        let mut next = self.clone();
        next.log.push(StoredAction {
            n: next.log.len() as i64 + 1,
            side: String::new(),
            action: RESUME.into(),
            at_ms: now_ms().max(self.log.last().map_or(0, |a| a.at_ms)),
        });
        next.store_since(store, self.log.len()).await?;
        *self = next;
        self.announce();
        Ok(true)
    }

    /// An engine seat answers an offer made to it at once: it grants a takeback (as
    /// lidraughts' engines do in casual games), and accepts a draw when its position looks
    /// lost (by the simple engine's measure), declining it otherwise.
    fn engine_answers(&mut self, at: i64) {
        for offer in [
            self.draw_offer.map(|s| (s, true)),
            self.takeback_offer.map(|s| (s, false)),
        ] {
            let Some((offerer, draw)) = offer else {
                continue;
            };
            let engine = offerer.opposite();
            if self.result.is_some()
                || !matches!(self.seats[engine.index()].kind, SeatKind::Engine { .. })
            {
                continue;
            }
            let answer = match draw {
                true if self.table.heuristic(engine) < -2.0 => "draw-accept",
                true => "draw-decline",
                false => "takeback-accept",
            };
            if let Ok(written) = self.apply_meta(engine, answer) {
                self.log.push(StoredAction {
                    n: self.log.len() as i64 + 1,
                    side: side_name(engine).into(),
                    action: written,
                    at_ms: at,
                });
            }
        }
    }

    /// Draws the dice while chance is to act (not stored yet: the caller stores the batch).
    fn draw_chance(&mut self, at: i64) {
        while self.result.is_none() && self.table.actor() == Actor::Chance {
            let Some(text) = self.table.chance(&mut self.dice) else {
                break;
            };
            let written = self
                .table
                .apply(&text)
                .expect("the game's own chance action");
            self.log.push(StoredAction {
                n: self.log.len() as i64 + 1,
                side: String::new(),
                action: written,
                at_ms: at,
            });
            self.result_from_rules();
        }
    }

    /// Draws and stores any dice due now (at creation: the opening throw).
    async fn settle(&mut self, store: &dyn Storage) -> Result<(), Refusal> {
        let n = self.log.len();
        self.draw_chance(now_ms());
        if self.log.len() > n {
            self.store_since(store, n).await?;
        }
        Ok(())
    }

    /// Ends the game on time for `side`, if its clock has run out and it is still to act.
    ///
    /// # Errors
    /// On a storage failure.
    pub async fn check_flag(&mut self, store: &dyn Storage) -> Result<bool, Refusal> {
        let Some(side) = self.flagged() else {
            return Ok(false);
        };
        self.act_unchecked_meta(store, side, "!flag").await?;
        Ok(true)
    }

    /// Remaining clock time of each side in ms, computed from the log's times, and the side
    /// whose clock runs.
    pub fn clocks(&self) -> Option<([i64; 2], Option<Side>)> {
        self.clocks_at(now_ms())
    }

    /// The clocks as they stood at `now` (ms since the epoch), from the log's times.
    fn clocks_at(&self, now: i64) -> Option<([i64; 2], Option<Side>)> {
        let c = self.spec.clock?;
        let mut left = [i64::from(c.initial_s) * 1000; 2];
        let mut since = self.created_ms;
        let mut moved = [false; 2];
        // Table actions (offers and answers) neither stop a clock nor earn an increment: the
        // time until a side's next move is charged to that move.
        for a in &self.log {
            if a.side.is_empty() && a.action == RESUME {
                // The server was down until then: the time before is nobody's.
                since = a.at_ms;
                continue;
            }
            if a.action.starts_with('!') {
                continue;
            }
            if let Some(s) = side_from(&a.side) {
                // The clock starts with each side's first move.
                if moved[s.index()] {
                    left[s.index()] -= a.at_ms - since;
                }
                left[s.index()] += i64::from(c.increment_s) * 1000;
                moved[s.index()] = true;
            }
            since = a.at_ms;
        }
        let running = match self.actor() {
            Actor::Player(s) if moved[s.index()] => {
                left[s.index()] -= now - since;
                Some(s)
            }
            _ => None,
        };
        Some((left, running))
    }

    /// The side whose clock has run out while it is to act.
    pub fn flagged(&self) -> Option<Side> {
        self.flagged_at(now_ms())
    }

    /// The side whose clock had run out at `now` while it was to act.
    fn flagged_at(&self, now: i64) -> Option<Side> {
        let (left, running) = self.clocks_at(now)?;
        running.filter(|s| left[s.index()] <= 0)
    }

    /// Milliseconds until the running clock runs out.
    pub fn ms_to_flag(&self) -> Option<i64> {
        let (left, running) = self.clocks()?;
        running.map(|s| left[s.index()].max(0))
    }

    /// The state every client sees (the same for all: these games hide nothing).
    pub fn state(&self) -> crate::ws::GameState {
        let actor = match self.actor() {
            Actor::Player(s) => side_name(s),
            Actor::Chance => "chance",
            Actor::Nobody => "nobody",
        };
        let legal = match self.actor() {
            Actor::Player(_) => self.table.legal(),
            _ => Vec::new(),
        };
        crate::ws::GameState {
            v: self.version(),
            id: self.id.clone(),
            spec: self.spec.clone(),
            actor: actor.to_owned(),
            legal,
            view: self.table.view(),
            log: self
                .log
                .iter()
                .map(|a| crate::ws::LogEntry {
                    n: a.n,
                    side: a.side.clone(),
                    action: a.action.clone(),
                })
                .collect(),
            seats: self.seats.iter().map(|s| s.kind.clone()).collect(),
            commitment: self.commitment(),
            seed: self.result.as_ref().map(|_| hex(&self.seed)),
            result: self.result.clone(),
            draw_offer: self.draw_offer.map(|s| side_name(s).to_owned()),
            takeback_offer: self.takeback_offer.map(|s| side_name(s).to_owned()),
            undone: self.undone.clone(),
            clock: self.clocks().map(|(left, running)| crate::ws::ClockState {
                white_ms: left[0],
                black_ms: left[1],
                running: running.map(|s| side_name(s).to_owned()),
            }),
        }
    }

    /// The `state` message every client gets after a change.
    pub fn state_msg(&self) -> crate::ws::ServerMsg {
        crate::ws::ServerMsg::State(Box::new(self.state()))
    }

    /// Sends the state to every client of this room.
    pub fn announce(&self) {
        let _ = self
            .tx
            .send(Arc::new(crate::ws::to_text(&self.state_msg())));
    }

    /// The game's record: what `tablier verify` checks.
    pub fn record(&self) -> Value {
        json!({
            "id": self.id,
            "spec": self.spec,
            "commitment": self.commitment(),
            "seed": self.result.as_ref().map(|_| hex(&self.seed)),
            "actions": self.log,
            "result": self.result,
        })
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// What `tablier verify` found in a game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// Actions replayed.
    pub actions: usize,
    /// Rolls recomputed from the seed.
    pub rolls: usize,
    /// How the game ended, as the replay finds it (and the record says).
    pub result: GameResult,
}

/// Checks a finished game's record, as `GET /api/games/{id}/record` gives it:
/// - the revealed seed and the spec hash to the commitment published at the start
///   ([`commitment_for`]), so neither the dice nor the rules (variant, match length, cube,
///   clock) can have been changed;
/// - the actions are numbered 1, 2, ... with times that never go back; every roll is the
///   one the seed gives, every player's action is legal when it is made, and nothing
///   follows the end of the game;
/// - a loss on time (`!flag`) is the clock's: the game has a clock and the flagged side's
///   time, computed from the recorded times, had run out;
/// - the replay ends where the record says: the game over, with the recorded winner,
///   points and reason.
///
/// # Errors
/// The first thing that does not hold, in words, with the action's number.
pub fn verify(record: &Value) -> Result<Verified, String> {
    if !record.is_object() {
        return Err("a game record is a JSON object".into());
    }
    let spec: TableSpec = serde_json::from_value(record["spec"].clone())
        .map_err(|e| format!("spec: {}", cut(&e.to_string())))?;
    let seed_hex = match &record["seed"] {
        Value::Null => {
            return Err(
                "the record has no seed: the game is not over, so it is still secret".into(),
            )
        }
        v => v.as_str().ok_or("the seed is not a string")?,
    };
    let seed: [u8; 32] = unhex(seed_hex)
        .and_then(|v| v.try_into().ok())
        .ok_or("the seed is not 64 hex digits")?;
    let commitment = record["commitment"]
        .as_str()
        .ok_or("the record has no commitment")?;
    if commitment_for(&seed, &spec) != commitment {
        return Err(if hex(&Sha256::digest(seed)) == commitment {
            "the commitment covers the dice seed only (a record made before the spec was committed): its spec cannot be proven".into()
        } else {
            "the seed and the spec do not hash to the commitment published at the start".into()
        });
    }
    let actions: Vec<StoredAction> = serde_json::from_value(record["actions"].clone())
        .map_err(|e| format!("actions: {}", cut(&e.to_string())))?;
    let claimed: Option<GameResult> = serde_json::from_value(record["result"].clone())
        .map_err(|e| format!("result: {}", cut(&e.to_string())))?;
    let seats = [
        Seat {
            kind: SeatKind::Human,
            token_sha256: None,
        },
        Seat {
            kind: SeatKind::Human,
            token_sha256: None,
        },
    ];
    let mut room = Room::blank(String::new(), spec, seed, seats, 0)?;
    let mut rolls = 0;
    for (i, a) in actions.iter().enumerate() {
        if a.n != i as i64 + 1 {
            return Err(format!("action {} is numbered {}", i + 1, a.n));
        }
        if a.side.is_empty() && a.action != RESUME {
            rolls += 1;
        }
        room.replay_one(a)?;
        room.log.push(a.clone());
    }
    let Some(result) = room.result.clone() else {
        return Err(format!(
            "the record stops before the game is over ({} actions replayed; {} is to act)",
            actions.len(),
            match room.table.actor() {
                Actor::Player(s) => side_name(s),
                Actor::Chance => "chance",
                Actor::Nobody => "nobody",
            }
        ));
    };
    if claimed.as_ref() != Some(&result) {
        return Err(format!(
            "the record says the result is {}, its actions give {}",
            describe_result(claimed.as_ref()),
            describe_result(Some(&result))
        ));
    }
    Ok(Verified {
        actions: actions.len(),
        rolls,
        result,
    })
}
