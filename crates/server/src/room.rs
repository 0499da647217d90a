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
            StoreError::Db(_) => Refusal::Storage,
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
    result: Option<GameResult>,
    draw_offer: Option<Side>,
    takeback_offer: Option<Side>,
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
        Ok(Room {
            id,
            spec,
            table,
            dice: SeededDice::from_seed(seed),
            seed,
            seats,
            log: Vec::new(),
            created_ms,
            result: None,
            draw_offer: None,
            takeback_offer: None,
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
        for a in actions {
            room.replay_one(&a)?;
            room.log.push(a);
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
        if a.side.is_empty() {
            // Chance: the dice must give exactly what was recorded.
            let drawn = self
                .table
                .chance(&mut self.dice)
                .ok_or(format!("action {n}: no dice were due"))?;
            if drawn != a.action {
                return Err(format!(
                    "action {n}: the seed gives {drawn:?}, the record says {:?}",
                    a.action
                ));
            }
            self.table
                .apply(&drawn)
                .map_err(|e| format!("action {n}: {e}"))?;
        } else {
            let side = side_from(&a.side).ok_or(format!("action {n}: bad side"))?;
            self.apply_player(side, &a.action)
                .map_err(|e| format!("action {n} ({}): {e}", a.action))?;
        }
        Ok(())
    }

    /// The commitment: SHA-256 of the dice seed, hex.
    pub fn commitment(&self) -> String {
        self.dice.commitment()
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
        if let Some(r) = &self.result {
            let _ = r;
            return Err("the game is over".into());
        }
        if let Some(meta) = text.strip_prefix('!') {
            return self.apply_meta(side, meta);
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
        let before_table = self.table.boxed_clone();
        let before = (
            self.result.clone(),
            self.draw_offer,
            self.dice.clone(),
            self.log.len(),
        );
        let before_takeback = (self.takeback_offer, self.played.clone(), self.undone.len());
        let at = now_ms();
        let mut pending = Vec::new();
        match self.apply_player(side, text) {
            Ok(written) => pending.push(StoredAction {
                n: self.log.len() as i64 + 1,
                side: side_name(side).into(),
                action: written,
                at_ms: at,
            }),
            Err(e) => return Err(Refusal::Illegal(e)),
        }
        self.log.extend(pending);
        self.engine_answers(at);
        self.draw_chance(at);
        let new = self.log[before.3..].to_vec();
        let result = self
            .result
            .as_ref()
            .map(|r| serde_json::to_string(r).expect("json"));
        if let Err(e) = store.append(&self.id, &new, result.as_deref()).await {
            // Nothing was stored: undo everything.
            self.table = before_table;
            self.result = before.0;
            self.draw_offer = before.1;
            self.dice = before.2;
            self.log.truncate(before.3);
            self.takeback_offer = before_takeback.0;
            self.played = before_takeback.1;
            self.undone.truncate(before_takeback.2);
            return Err(e.into());
        }
        self.announce();
        Ok(())
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
            let new = self.log[n..].to_vec();
            store.append(&self.id, &new, None).await?;
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
        let c = self.spec.clock?;
        let mut left = [i64::from(c.initial_s) * 1000; 2];
        let mut since = self.created_ms;
        let mut moved = [false; 2];
        // Table actions (offers and answers) neither stop a clock nor earn an increment: the
        // time until a side's next move is charged to that move.
        for a in self.log.iter().filter(|a| !a.action.starts_with('!')) {
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
                left[s.index()] -= now_ms() - since;
                Some(s)
            }
            _ => None,
        };
        Some((left, running))
    }

    /// The side whose clock has run out while it is to act.
    pub fn flagged(&self) -> Option<Side> {
        let (left, running) = self.clocks()?;
        running.filter(|s| left[s.index()] <= 0)
    }

    /// Milliseconds until the running clock runs out.
    pub fn ms_to_flag(&self) -> Option<i64> {
        let (left, running) = self.clocks()?;
        running.map(|s| left[s.index()].max(0))
    }

    /// The state every client sees (the same for all: these games hide nothing).
    pub fn state(&self) -> Value {
        let actor = match self.actor() {
            Actor::Player(s) => side_name(s),
            Actor::Chance => "chance",
            Actor::Nobody => "nobody",
        };
        let legal = match self.actor() {
            Actor::Player(_) => self.table.legal(),
            _ => Vec::new(),
        };
        json!({
            "t": "state",
            "v": self.version(),
            "id": self.id,
            "spec": self.spec,
            "actor": actor,
            "legal": legal,
            "view": self.table.view(),
            "log": self.log.iter().map(|a| json!({"n": a.n, "side": a.side, "action": a.action})).collect::<Vec<_>>(),
            "seats": self.seats.iter().map(|s| &s.kind).collect::<Vec<_>>(),
            "commitment": self.commitment(),
            "seed": self.result.as_ref().map(|_| hex(&self.seed)),
            "result": self.result,
            "draw_offer": self.draw_offer.map(side_name),
            "takeback_offer": self.takeback_offer.map(side_name),
            "undone": self.undone,
            "clock": self.clocks().map(|(left, running)| json!({"white_ms": left[0], "black_ms": left[1], "running": running.map(side_name)})),
        })
    }

    /// Sends the state to every client of this room.
    pub fn announce(&self) {
        let _ = self.tx.send(Arc::new(self.state().to_string()));
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
}

/// Checks a finished game's record: the seed's SHA-256 is the commitment published at the
/// start, every roll is what the seed gives, and every action is legal.
///
/// # Errors
/// What does not hold, with the action's number.
pub fn verify(record: &Value) -> Result<Verified, String> {
    let spec: TableSpec =
        serde_json::from_value(record["spec"].clone()).map_err(|e| format!("spec: {e}"))?;
    let seed_hex = record["seed"]
        .as_str()
        .ok_or("the record has no seed: the game is not over, so it is still secret")?;
    let seed: [u8; 32] = unhex(seed_hex)
        .and_then(|v| v.try_into().ok())
        .ok_or("the seed is not 64 hex digits")?;
    let commitment = record["commitment"].as_str().ok_or("no commitment")?;
    if hex(&Sha256::digest(seed)) != commitment {
        return Err("the seed's SHA-256 is not the commitment published at the start".into());
    }
    let actions: Vec<StoredAction> =
        serde_json::from_value(record["actions"].clone()).map_err(|e| format!("actions: {e}"))?;
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
        if a.side.is_empty() {
            rolls += 1;
        }
        room.replay_one(a)?;
        room.log.push(a.clone());
    }
    Ok(Verified {
        actions: actions.len(),
        rolls,
    })
}
