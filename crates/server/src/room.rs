//! A live game on this server: its [`Referee`] (the rules, the log, the dice, the offers and
//! the clocks, from the catalog), its seats with their secret tokens, and the channel its
//! clients listen on. Every change is made on a copy of the referee, stored, and only then
//! swapped in and announced: a refusal or a storage failure leaves the room exactly as it
//! was.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tablier_catalog::action::TableAction;
use tablier_catalog::record::{hex, seed_from_hex, side_name};
use tablier_catalog::{GameResult, LoggedAction, RecordError, Referee, SeatAction, TableSpec};
use tablier_core::{Actor, Side};
use tokio::sync::broadcast;

use crate::now::now_ms;
pub use crate::protocol::SeatKind;
use crate::store::{Storage, StoreError, StoredGame};

/// A random token of `len` letters and digits (about 5.95 bits each).
pub fn new_token(rng: &mut impl rand::RngCore, len: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    (0..len)
        .map(|_| {
            // Rejection keeps the letters equally likely.
            loop {
                let b = (rng.next_u32() & 0xff) as usize;
                if b < 248 {
                    return ALPHABET[b % 62] as char;
                }
            }
        })
        .collect()
}

/// SHA-256 of a seat token, hex: what the database keeps instead of the token.
#[must_use]
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
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

/// Why a game was not created or a seat's action not accepted. Nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum RoomError {
    /// The referee refused the action: the reason is the player's to read.
    #[error("{0}")]
    Refused(#[from] tablier_catalog::Refusal),
    /// The spec of a new game names no game.
    #[error("{0}")]
    Spec(#[from] tablier_catalog::SpecError),
    /// The storage failed: the action was not accepted.
    #[error("the server could not store the action; try again")]
    Storage,
    /// Another server node has taken the game over (this one was thought dead).
    #[error("this game is now played on another server node; try again")]
    Moved,
}

impl From<StoreError> for RoomError {
    fn from(e: StoreError) -> Self {
        tracing::error!("{e}");
        match e {
            StoreError::NotOwner(_) => RoomError::Moved,
            StoreError::Db(_) | StoreError::Open(_) => RoomError::Storage,
        }
    }
}

/// A live game.
pub struct Room {
    /// The public id.
    pub id: String,
    /// The game itself.
    game: Referee,
    /// The seats, white then black.
    pub seats: [Seat; 2],
    /// Events (the serialised state after each change) go out here.
    pub tx: broadcast::Sender<Arc<String>>,
    /// `Some(node)` when another node owns the game: this room is its mirror, kept up to
    /// date from the event bus, and actions are sent to the owner.
    pub mirror_of: Option<String>,
}

/// Constant-time comparison of two byte strings.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl Room {
    fn with_game(id: String, game: Referee, seats: [Seat; 2]) -> Room {
        let (tx, _) = broadcast::channel(64);
        Room {
            id,
            game,
            seats,
            tx,
            mirror_of: None,
        }
    }

    /// A new game, stored before it is returned, with its opening dice drawn. `kinds` are
    /// the seats; human seats get a fresh secret token each, returned beside the room (only
    /// their hashes are kept).
    ///
    /// # Errors
    /// When the spec names no game ([`tablier_catalog::SpecError`]), or the storage fails.
    pub async fn create(
        store: &dyn Storage,
        id: String,
        spec: TableSpec,
        kinds: [SeatKind; 2],
    ) -> Result<(Room, [Option<String>; 2]), RoomError> {
        use rand_chacha::rand_core::SeedableRng;
        let mut rng = rand_chacha::ChaCha20Rng::from_entropy();
        let mut tokens: [Option<String>; 2] = [None, None];
        let seats = [0, 1].map(|i| {
            let kind = kinds[i].clone();
            let token_sha256 = (kind == SeatKind::Human).then(|| {
                let t = new_token(&mut rng, 24);
                let h = token_hash(&t);
                tokens[i] = Some(t);
                h
            });
            Seat { kind, token_sha256 }
        });
        let game = Referee::with_fresh_seed(spec, &mut rng, now_ms())?;
        let mut room = Room::with_game(id, game, seats);
        store
            .create_game(&StoredGame {
                id: room.id.clone(),
                spec: serde_json::to_string(room.game.spec()).expect("serialisable"),
                seed: room.game.seed_hex(),
                commitment: room.game.commitment().to_owned(),
                seats: serde_json::to_string(&room.seats).expect("serialisable"),
                created_ms: room.game.created_ms(),
                result: None,
                owner: Some(store.node().to_owned()),
            })
            .await?;
        // Opening dice, if the game starts with chance.
        room.change(store, |g| {
            g.draw_chance(now_ms());
            Ok(())
        })
        .await?;
        Ok((room, tokens))
    }

    /// A game taken up again from the database: every stored action replayed, every roll
    /// recomputed from the seed and checked, and the stored result compared with the one the
    /// replay reaches.
    ///
    /// # Errors
    /// When the record does not replay (a corrupt database).
    pub fn restore(game: &StoredGame, actions: &[LoggedAction]) -> Result<Room, RecordError> {
        let bad = |what: &str, e: &dyn std::fmt::Display| RecordError(format!("{what}: {e}"));
        let spec: TableSpec = serde_json::from_str(&game.spec).map_err(|e| bad("spec", &e))?;
        let seats: [Seat; 2] = serde_json::from_str(&game.seats).map_err(|e| bad("seats", &e))?;
        let seed = seed_from_hex(&game.seed).ok_or_else(|| RecordError("bad seed".into()))?;
        let referee = Referee::restore(
            spec,
            seed,
            game.created_ms,
            game.commitment.clone(),
            actions,
        )?;
        let stored: Option<GameResult> = match &game.result {
            Some(r) => Some(serde_json::from_str(r).map_err(|e| bad("stored result", &e))?),
            None => None,
        };
        referee.check_result(stored.as_ref())?;
        Ok(Room::with_game(game.id.clone(), referee, seats))
    }

    /// A mirror catches up with actions another node stored: those that follow its log are
    /// replayed (checked like any replay), then announced to its clients. Returns whether
    /// anything was new.
    ///
    /// # Errors
    /// When an action does not replay (the mirror is then left as far as it got).
    pub fn catch_up(&mut self, actions: &[LoggedAction]) -> Result<bool, RecordError> {
        let mut new = false;
        for a in actions {
            if a.n != self.game.log().len() as i64 + 1 {
                continue;
            }
            self.game.replay(a)?;
            new = true;
        }
        if new {
            self.announce();
        }
        Ok(new)
    }

    /// The game's referee: its rules, log, offers, clocks and result.
    #[must_use]
    pub fn game(&self) -> &Referee {
        &self.game
    }

    /// The event number: how many actions the game has.
    #[must_use]
    pub fn version(&self) -> u64 {
        self.game.version()
    }

    /// The result, once over.
    #[must_use]
    pub fn result(&self) -> Option<&GameResult> {
        self.game.result()
    }

    /// The game and its clock.
    #[must_use]
    pub fn spec(&self) -> &TableSpec {
        self.game.spec()
    }

    /// The seat a token opens, if any (compared through hashes, in constant time).
    #[must_use]
    pub fn seat_of(&self, token: &str) -> Option<Side> {
        let h = token_hash(token);
        Side::ALL.into_iter().find(|s| {
            self.seats[s.index()]
                .token_sha256
                .as_deref()
                .is_some_and(|t| constant_time_eq(t.as_bytes(), h.as_bytes()))
        })
    }

    /// The engine seat to act now, with its level.
    #[must_use]
    pub fn engine_to_act(&self) -> Option<(Side, u8)> {
        match self.game.actor() {
            Actor::Player(s) => match self.seats[s.index()].kind {
                SeatKind::Engine { level } => Some((s, level)),
                SeatKind::Human => None,
            },
            _ => None,
        }
    }

    /// Makes a change on a copy of the game, stores the actions it added (with the result,
    /// once over) in one transaction, then swaps the copy in and announces it (when it added
    /// any). A refusal or a storage failure changes nothing.
    async fn change(
        &mut self,
        store: &dyn Storage,
        f: impl FnOnce(&mut Referee) -> Result<(), RoomError>,
    ) -> Result<(), RoomError> {
        let mut next = self.game.clone();
        f(&mut next)?;
        let from = self.game.log().len();
        if next.log().len() == from {
            return Ok(());
        }
        let result = next
            .result()
            .map(|r| serde_json::to_string(r).expect("json"));
        store
            .append(&self.id, &next.log()[from..], result.as_deref())
            .await?;
        self.game = next;
        self.announce();
        Ok(())
    }

    /// Accepts a seat's action: checked, applied, followed by the engine's answer to an
    /// offer made to it and by any dice now due, all stored in one transaction, then
    /// announced. A refusal changes nothing.
    ///
    /// # Errors
    /// [`RoomError`] with the reason.
    pub async fn act(
        &mut self,
        store: &dyn Storage,
        side: Side,
        action: &SeatAction,
    ) -> Result<(), RoomError> {
        let seats = self.seats.clone();
        self.change(store, |g| {
            let at = now_ms();
            g.act(side, action, at)?;
            engine_answers(g, &seats, at);
            g.draw_chance(at);
            Ok(())
        })
        .await
    }

    /// After a restart (or a take-over by another node), a clock that was running goes on
    /// from now: stores the referee's resume entry. Returns whether one was written.
    ///
    /// # Errors
    /// On a storage failure.
    pub async fn resume_clock(&mut self, store: &dyn Storage) -> Result<bool, RoomError> {
        let mut resumed = false;
        self.change(store, |g| {
            resumed = g.resume_clock(now_ms());
            Ok(())
        })
        .await?;
        Ok(resumed)
    }

    /// Ends the game on time for the side to act, if its clock has run out.
    ///
    /// # Errors
    /// On a storage failure.
    pub async fn check_flag(&mut self, store: &dyn Storage) -> Result<bool, RoomError> {
        if self.game.flagged_at(now_ms()).is_none() {
            return Ok(false);
        }
        let mut flagged = false;
        self.change(store, |g| {
            flagged = g.flag_fall(now_ms()).is_some();
            Ok(())
        })
        .await?;
        Ok(flagged)
    }

    /// Milliseconds until the running clock runs out.
    #[must_use]
    pub fn ms_to_flag(&self) -> Option<i64> {
        self.game.ms_to_flag(now_ms())
    }

    /// The remaining time of each side now, and the side whose clock runs.
    #[must_use]
    pub fn clocks(&self) -> Option<([i64; 2], Option<Side>)> {
        self.game.clocks_at(now_ms())
    }

    /// The state every client sees (the same for all: these games hide nothing).
    #[must_use]
    pub fn state(&self) -> crate::protocol::GameState {
        let g = &self.game;
        let actor = match g.actor() {
            Actor::Player(s) => side_name(s),
            Actor::Chance => "chance",
            Actor::Nobody => "nobody",
        };
        let legal = match g.actor() {
            Actor::Player(_) => g.table().legal().to_vec(),
            _ => Vec::new(),
        };
        crate::protocol::GameState {
            v: g.version(),
            id: self.id.clone(),
            spec: g.spec().clone(),
            actor: actor.to_owned(),
            legal,
            view: g.table().view(),
            log: g
                .log()
                .iter()
                .map(|a| crate::protocol::LogEntry {
                    n: a.n,
                    side: a.side.clone(),
                    action: a.action.clone(),
                })
                .collect(),
            seats: self.seats.iter().map(|s| s.kind.clone()).collect(),
            commitment: g.commitment().to_owned(),
            seed: g.revealed_seed(),
            result: g.result().cloned(),
            draw_offer: g.draw_offer().map(|s| side_name(s).to_owned()),
            takeback_offer: g.takeback_offer().map(|s| side_name(s).to_owned()),
            undone: g.undone().to_vec(),
            clock: g
                .clock_reading_at(now_ms())
                .map(|r| crate::protocol::ClockState {
                    white_ms: r.left[0],
                    black_ms: r.left[1],
                    running: r.running.map(|s| side_name(s).to_owned()),
                    delay_ms: r.delay_left,
                }),
        }
    }

    /// The `state` message every client gets after a change.
    #[must_use]
    pub fn state_msg(&self) -> crate::protocol::ServerMsg {
        crate::protocol::ServerMsg::State(Box::new(self.state()))
    }

    /// Sends the state to every client of this room.
    pub fn announce(&self) {
        let _ = self
            .tx
            .send(Arc::new(crate::protocol::to_text(&self.state_msg())));
    }

    /// Takes the game of a fresh restore, keeping this room's clients.
    pub fn replace_game(&mut self, fresh: Room) {
        self.game = fresh.game;
        self.seats = fresh.seats;
        self.mirror_of = fresh.mirror_of;
    }
}

/// An engine seat answers an offer made to it at once: it grants a takeback (as lidraughts'
/// engines do in casual games), and accepts a draw when its position looks lost (by the
/// game's heuristic), declining it otherwise.
fn engine_answers(g: &mut Referee, seats: &[Seat; 2], at: i64) {
    for (offer, draw) in [(g.draw_offer(), true), (g.takeback_offer(), false)] {
        let Some(offerer) = offer else {
            continue;
        };
        let engine = offerer.opposite();
        if g.result().is_some() || !matches!(seats[engine.index()].kind, SeatKind::Engine { .. }) {
            continue;
        }
        let answer = match draw {
            true if g.table().heuristic(engine) < -2.0 => TableAction::DrawAccept,
            true => TableAction::DrawDecline,
            false => TableAction::TakebackAccept,
        };
        let _ = g.act(engine, &SeatAction::Table(answer), at);
    }
}
