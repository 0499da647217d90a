//! The server's shared state ([`Hub`]): the store, the live games of this node (owned, or
//! mirrors of games another node owns), the limits in force ([`Options`]), the engine seats;
//! loading a game from the store (claiming it from a silent node, or following it as a
//! mirror), acting on it here or handing the action to its owner, and the cluster's
//! background work (heartbeats, claims, mirrors following the event bus).

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use tablier_catalog::SeatAction;
use tablier_core::Side;
use tokio::sync::Mutex;

use crate::cluster::Peers;
use crate::engine::Engines;
use crate::error::ApiError;
use crate::now::now_ms;
use crate::room::{Room, RoomError, Seat, SeatKind};
use crate::store::{EventBus, Storage, Store, SOLE_NODE, STALE_MS};

/// What a server allows each client, and the CPU its engines may take together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// New games one client address may create per minute, sustained (0: no limit).
    pub games_per_minute: u32,
    /// New games one client address may create at once before the per-minute pace applies.
    pub games_burst: u32,
    /// Engine seats that may think at the same time; the others wait in line (first come,
    /// first served).
    pub engine_workers: usize,
    /// Whether a game may have two engine seats (engine against engine): off by default,
    /// as such games take CPU with nobody playing.
    pub engine_games: bool,
    /// WebSocket messages one connection may send per second, sustained (0: no limit).
    pub messages_per_second: u32,
    /// WebSocket messages one connection may send at once before the per-second pace
    /// applies.
    pub messages_burst: u32,
    /// How long a public challenge stays on the home page before it expires (seconds).
    pub challenge_s: u32,
}

impl Default for Options {
    /// 6 games a minute per address after a burst of 20; engines on half the cores (at
    /// least one); no engine-against-engine games; 20 messages a second per connection after
    /// a burst of 60; public challenges open for 15 minutes.
    fn default() -> Options {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Options {
            games_per_minute: 6,
            games_burst: 20,
            engine_workers: (cores / 2).max(1),
            engine_games: false,
            messages_per_second: 20,
            messages_burst: 60,
            challenge_s: 15 * 60,
        }
    }
}

impl Options {
    /// No limits on games or messages and engine games allowed (tests and benchmarks that
    /// drive the server hard on purpose); engines on every core.
    #[must_use]
    pub fn unlimited() -> Options {
        Options {
            games_per_minute: 0,
            games_burst: 0,
            engine_workers: std::thread::available_parallelism().map_or(1, usize::from),
            engine_games: true,
            messages_per_second: 0,
            messages_burst: 0,
            challenge_s: 15 * 60,
        }
    }
}

type AddressLimiter = governor::DefaultKeyedRateLimiter<IpAddr>;

/// A GCRA quota of `per` a `period` after `burst` (`None` when `per` is 0: no limit).
pub(crate) fn quota(per: u32, burst: u32, period: std::time::Duration) -> Option<governor::Quota> {
    let per = NonZeroU32::new(per)?;
    let burst = NonZeroU32::new(burst.max(1)).expect("at least 1");
    governor::Quota::with_period(period / per.get()).map(|q| q.allow_burst(burst))
}

/// The server's shared state: the store and the live games (owned, or mirrors of games
/// another node owns).
#[derive(Clone)]
pub struct Hub {
    pub(crate) store: Arc<dyn Storage>,
    pub(crate) rooms: Arc<Mutex<HashMap<String, Arc<Mutex<Room>>>>>,
    /// The other nodes of a cluster.
    peers: Peers,
    /// Reviews of finished games (they never change), computed once.
    pub(crate) reviews: Arc<Mutex<HashMap<String, Arc<String>>>>,
    /// News that this node's list of public challenges changed (one made, one taken), for the
    /// home pages' lobby sockets.
    pub(crate) lobby: tokio::sync::broadcast::Sender<()>,
    /// Games whose stored record does not replay: kept out of play, with the reason (logged).
    damaged: Arc<Mutex<HashMap<String, String>>>,
    /// The limits in force.
    pub(crate) options: Options,
    /// New games per client address.
    pub(crate) creations: Option<Arc<AddressLimiter>>,
    /// The engine seats and clock watches of the games this node owns.
    engines: Engines,
}

impl Hub {
    /// A hub on a store with the default [`Options`], taking up every unfinished game it
    /// owns.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn new(store: Store) -> Result<Hub, String> {
        Hub::with_options(Arc::new(store), Options::default()).await
    }

    /// A hub on any [`Storage`] with the default [`Options`].
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn with_storage(store: Arc<dyn Storage>) -> Result<Hub, String> {
        Hub::with_options(store, Options::default()).await
    }

    /// A hub on any [`Storage`] with `options`, taking up every unfinished game this node
    /// owns, except games between two engines (they wait until someone opens them). A game
    /// that does not replay is logged and kept out of play; the others are served.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn with_options(store: Arc<dyn Storage>, options: Options) -> Result<Hub, String> {
        let creations = quota(
            options.games_per_minute,
            options.games_burst,
            std::time::Duration::from_secs(60),
        )
        .map(|q| Arc::new(governor::RateLimiter::keyed(q)));
        let hub = Hub {
            peers: Peers::new(store.clone()),
            engines: Engines::new(store.clone(), options.engine_workers),
            store,
            rooms: Arc::new(Mutex::new(HashMap::new())),
            reviews: Arc::new(Mutex::new(HashMap::new())),
            damaged: Arc::new(Mutex::new(HashMap::new())),
            lobby: tokio::sync::broadcast::channel(16).0,
            options,
            creations,
        };
        let ids = hub.store.unfinished().await.map_err(|e| e.to_string())?;
        let (mut taken, mut waiting) = (0, 0);
        for id in ids {
            match hub.store.game(&id).await.map_err(|e| e.to_string())? {
                Some(g) if engines_only(&g.seats) => {
                    waiting += 1;
                    continue;
                }
                _ => {}
            }
            // A game that does not replay is logged by `load` and kept out of play.
            if hub.load(&id).await.is_ok() {
                taken += 1;
            }
        }
        let damaged = hub.damaged.lock().await.len();
        tracing::info!(
            "{taken} unfinished games taken up, {waiting} engine-only games left until opened, {damaged} damaged"
        );
        Ok(hub)
    }

    /// The most engine seats that were ever thinking at the same time on this hub (never
    /// more than [`Options::engine_workers`]).
    #[must_use]
    pub fn engine_peak(&self) -> usize {
        self.engines.peak()
    }

    /// After a change: the engine seat to act thinks, the clock of the side to act is
    /// watched (on the node that owns the game).
    pub(crate) async fn kick(&self, room: Arc<Mutex<Room>>) {
        self.engines.kick(room).await;
    }

    /// The games kept out of play because their records do not replay, with the reasons.
    pub async fn damaged_games(&self) -> Vec<(String, String)> {
        let mut v: Vec<_> = self
            .damaged
            .lock()
            .await
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        v.sort();
        v
    }

    /// Whether game `id` exists (in memory or stored), without loading it: what the game
    /// page asks before it is served.
    pub(crate) async fn exists(&self, id: &str) -> Result<bool, ApiError> {
        if id.len() > 32 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Ok(false);
        }
        if self.rooms.lock().await.contains_key(id) {
            return Ok(true);
        }
        Ok(self.store.game(id).await?.is_some())
    }

    /// The live room of a game, loading it from the store if needed: owned when this node
    /// owns it (or claims it, its owner silent), a mirror when another live node does.
    pub(crate) async fn load(&self, id: &str) -> Result<Option<Arc<Mutex<Room>>>, ApiError> {
        if id.len() > 32 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Ok(None);
        }
        let mut rooms = self.rooms.lock().await;
        if let Some(r) = rooms.get(id) {
            return Ok(Some(r.clone()));
        }
        if self.damaged.lock().await.contains_key(id) {
            return Err(ApiError::Damaged);
        }
        let Some(mut game) = self.store.game(id).await? else {
            return Ok(None);
        };
        let me = self.store.node().to_owned();
        let mut mirror_of = None;
        let mut owned = game.result.is_none();
        if owned && me != SOLE_NODE && game.owner.as_deref() != Some(me.as_str()) {
            let alive = match &game.owner {
                Some(o) => self.peers.alive(o).await?.is_some(),
                None => false,
            };
            let claimed = !alive && self.store.claim(id, game.owner.as_deref()).await?;
            if !claimed {
                // Another node owns it (or has just claimed it).
                game = self.store.game(id).await?.ok_or(ApiError::NotFound)?;
                mirror_of = game.owner.clone();
                owned = false;
            }
        }
        let actions = self.store.actions_after(id, 0).await?;
        let mut room = match Room::restore(&game, &actions) {
            Ok(room) => room,
            Err(e) => {
                self.damaged.lock().await.insert(id.to_owned(), e.0.clone());
                return Err(ApiError::damaged(id, &e));
            }
        };
        room.mirror_of = mirror_of;
        if owned {
            // The clock of the side to move goes on from now, not from before the outage.
            if let Err(e) = room.resume_clock(&*self.store).await {
                tracing::error!("game {id}: cannot resume its clock: {e}");
                return Err(ApiError::Unavailable);
            }
        }
        let room = Arc::new(Mutex::new(room));
        rooms.insert(id.to_owned(), room.clone());
        drop(rooms);
        if owned {
            self.kick(room.clone()).await;
        }
        Ok(Some(room))
    }
}

/// Whether a game's stored seats (JSON) are both engines.
fn engines_only(seats: &str) -> bool {
    serde_json::from_str::<[Seat; 2]>(seats)
        .is_ok_and(|s| s.iter().all(|s| matches!(s.kind, SeatKind::Engine { .. })))
}

impl Hub {
    /// Makes this hub one node of several on a shared database: it says it is alive at
    /// `url` every second, claims the games of nodes that stopped saying so, and keeps its
    /// mirrors in step with the events of `bus`.
    pub fn join_cluster(&self, bus: Arc<dyn EventBus>, url: String) {
        let hub = self.clone();
        let mut events = bus.subscribe();
        tokio::spawn(async move {
            loop {
                match events.recv().await {
                    Ok(e) => {
                        let room = hub.rooms.lock().await.get(&e.game).cloned();
                        if let Some(room) = room {
                            let behind = {
                                let r = room.lock().await;
                                r.mirror_of.is_some() && (r.version() as i64) < e.v
                            };
                            if behind {
                                hub.refresh(&room).await;
                            }
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        // Events were lost: every mirror reads what it missed.
                        let rooms: Vec<_> = hub.rooms.lock().await.values().cloned().collect();
                        for room in rooms {
                            hub.refresh(&room).await;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let hub = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_millis(1000));
            let mut n = 0u64;
            loop {
                tick.tick().await;
                if let Err(e) = hub.store.heartbeat(&url).await {
                    tracing::warn!("heartbeat: {e}");
                    continue;
                }
                n += 1;
                if n.is_multiple_of(2) {
                    hub.claim_orphans().await;
                }
            }
        });
    }

    /// Takes over the unfinished games of nodes that have gone silent.
    async fn claim_orphans(&self) {
        let orphans = match self.store.orphans(now_ms() - STALE_MS).await {
            Ok(o) => o,
            Err(e) => {
                tracing::warn!("orphans: {e}");
                return;
            }
        };
        for (id, _) in orphans {
            let room = self.rooms.lock().await.get(&id).cloned();
            match room {
                Some(room) => self.take_over(&room).await,
                None => {
                    // Loading claims a game whose owner is silent.
                    if let Err(e) = self.load(&id).await {
                        tracing::warn!("claiming {id}: {e:?}");
                    }
                }
            }
        }
    }

    /// A mirror reads the actions it has not seen yet.
    pub(crate) async fn refresh(&self, room: &Arc<Mutex<Room>>) {
        let mut r = room.lock().await;
        if r.mirror_of.is_none() {
            return;
        }
        match self.store.actions_after(&r.id, r.version() as i64).await {
            Ok(actions) => {
                if let Err(e) = r.catch_up(&actions) {
                    tracing::error!("mirror of {}: {e}", r.id);
                }
            }
            Err(e) => tracing::warn!("mirror of {}: {e}", r.id),
        }
    }

    /// A mirror whose owner has gone silent becomes this node's own game (if no other node
    /// was quicker); an owned room that lost its game to another node becomes a mirror.
    async fn take_over(&self, room: &Arc<Mutex<Room>>) {
        let (id, previous) = {
            let r = room.lock().await;
            (r.id.clone(), r.mirror_of.clone())
        };
        let claimed = match &previous {
            Some(p) if p != self.store.node() => match self.peers.alive(p).await {
                Ok(None) => self.store.claim(&id, Some(p)).await.unwrap_or(false),
                _ => false,
            },
            _ => false,
        };
        let Ok(Some(game)) = self.store.game(&id).await else {
            return;
        };
        if claimed {
            let Ok(actions) = self.store.actions_after(&id, 0).await else {
                return;
            };
            match Room::restore(&game, &actions) {
                Ok(fresh) => {
                    let mut r = room.lock().await;
                    r.replace_game(fresh);
                    if let Err(e) = r.resume_clock(&*self.store).await {
                        tracing::error!("game {id}: cannot resume its clock: {e}");
                    }
                    r.announce();
                }
                Err(e) => {
                    tracing::error!("game {id} does not replay: {e}");
                    return;
                }
            }
            tracing::info!("took over game {id} from node {previous:?}");
            self.kick(room.clone()).await;
        } else {
            let mut r = room.lock().await;
            if game.owner.as_deref() != Some(self.store.node()) && game.result.is_none() {
                r.mirror_of = game.owner.clone();
            }
            drop(r);
            self.refresh(room).await;
        }
    }

    /// A seat's action, on this node if it owns the game, otherwise handed to the owner.
    pub(crate) async fn act(
        &self,
        room: &Arc<Mutex<Room>>,
        side: Side,
        token: &str,
        action: &SeatAction,
    ) -> Result<(), ApiError> {
        let id = room.lock().await.id.clone();
        for _ in 0..3 {
            let outcome = {
                let mut r = room.lock().await;
                match r.mirror_of.clone() {
                    None => Ok(r.act(&*self.store, side, action).await),
                    Some(owner) => Err(owner),
                }
            };
            match outcome {
                Ok(Ok(())) => {
                    self.kick(room.clone()).await;
                    return Ok(());
                }
                Ok(Err(RoomError::Moved)) => {
                    // Another node claimed the game: follow it, then hand it the action.
                    self.take_over(room).await;
                }
                Ok(Err(e)) => return Err(e.into()),
                Err(owner) => match self.peers.forward(&id, &owner, token, action).await {
                    Ok(()) => {
                        // Read our own write before answering.
                        self.refresh(room).await;
                        return Ok(());
                    }
                    Err(None) => self.take_over(room).await,
                    Err(Some(e)) => return Err(e),
                },
            }
        }
        Err(RoomError::Moved.into())
    }
}
