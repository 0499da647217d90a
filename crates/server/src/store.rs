//! Storage: games and their actions, in SQLite (embedded, the default) or PostgreSQL.
//!
//! One schema for both, written in the SQL they share; queries number their parameters
//! `$1, $2, ...` in order of appearance, which both accept. Every accepted action is written
//! (and committed) before it is announced to anyone.
//!
//! The server sees the database through two small traits, so that another store or another
//! message bus (Redis, NATS) can replace them: [`Storage`] (games, actions, which node owns
//! a game, the nodes' heartbeats) and [`EventBus`] (the news that a game has new actions).
//! On PostgreSQL, [`Store::append`] announces the actions with `NOTIFY` in the transaction
//! that stores them, so an announcement never precedes the data, and no stored action goes
//! unannounced; [`PgBus`] hears them on every node.

use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};
use tablier_catalog::LoggedAction;
use tokio::sync::broadcast;

/// A storage error, with the database's words (logged, never shown to clients).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database failed.
    #[error("storage: {0}")]
    Db(#[from] sqlx::Error),
    /// Another node owns the game now: this node may no longer write it.
    #[error("storage: the game {0} belongs to another node")]
    NotOwner(String),
    /// The database cannot be opened: what is wrong, in words.
    #[error("{0}")]
    Open(String),
}

/// The node name of a server that owns every game of its database: one process alone on
/// it (the embedded SQLite database always).
pub const SOLE_NODE: &str = "local";

/// A node whose heartbeat is older than this (ms) is taken for dead: its games are claimed.
pub const STALE_MS: i64 = 4_000;

/// News on the event bus: game `game` has stored actions up to number `v`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEvent {
    /// The game's id.
    pub game: String,
    /// The number of its last stored action.
    pub v: i64,
}

impl GameEvent {
    /// The payload on the wire: `id v`.
    #[must_use]
    pub fn payload(&self) -> String {
        format!("{} {}", self.game, self.v)
    }

    /// Reads a payload; `None` when it is not one of ours.
    #[must_use]
    pub fn parse(payload: &str) -> Option<GameEvent> {
        let (game, v) = payload.split_once(' ')?;
        Some(GameEvent {
            game: game.to_owned(),
            v: v.parse().ok()?,
        })
    }
}

/// An unfinished game and its owner, whose node has gone silent.
pub type Orphan = (String, Option<String>);

/// Where games live: the server's only way to the database.
///
/// A storage handle speaks for one node (see [`Storage::node`]): it writes only the games
/// that node owns, in transactions that check the ownership.
pub trait Storage: Send + Sync {
    /// This node's name ([`SOLE_NODE`] when it owns every game).
    fn node(&self) -> &str;
    /// Stores a new game, owned by this node.
    fn create_game<'a>(&'a self, g: &'a StoredGame) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Appends actions of a game (and its result, once over), and announces them, in one
    /// transaction; [`StoreError::NotOwner`] if another node has taken the game.
    fn append<'a>(
        &'a self,
        game: &'a str,
        actions: &'a [LoggedAction],
        result: Option<&'a str>,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    /// A game by id.
    fn game<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<StoredGame>, StoreError>>;
    /// A game's actions numbered above `after`, in order.
    fn actions_after<'a>(
        &'a self,
        game: &'a str,
        after: i64,
    ) -> BoxFuture<'a, Result<Vec<LoggedAction>, StoreError>>;
    /// The unfinished games this node owns (or nobody does): to take up at start.
    fn unfinished(&self) -> BoxFuture<'_, Result<Vec<String>, StoreError>>;
    /// Says that this node is alive and reachable at `url`.
    fn heartbeat<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<(), StoreError>>;
    /// A node's address and its last heartbeat (ms since the epoch).
    fn node_seen<'a>(
        &'a self,
        node: &'a str,
    ) -> BoxFuture<'a, Result<Option<(String, i64)>, StoreError>>;
    /// Makes this node the owner of `game` if its owner is still `previous`: true if taken.
    fn claim<'a>(
        &'a self,
        game: &'a str,
        previous: Option<&'a str>,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// Unfinished games of other nodes whose last heartbeat is older than `stale_before`
    /// (or that never had one): (game, owner).
    fn orphans(&self, stale_before: i64) -> BoxFuture<'_, Result<Vec<Orphan>, StoreError>>;
    /// Offers the seat `side` of `game` (whose token is `token`) to anyone until
    /// `expires_ms`.
    fn create_challenge<'a>(
        &'a self,
        game: &'a str,
        side: &'a str,
        token: &'a str,
        created_ms: i64,
        expires_ms: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    /// The challenges still open at `now_ms` (not taken, not expired, their game not over),
    /// the newest first, at most `limit`.
    fn open_challenges(
        &self,
        now_ms: i64,
        limit: i64,
    ) -> BoxFuture<'_, Result<Vec<Challenge>, StoreError>>;
    /// Takes the open seat of `game`'s challenge if it is still open at `now_ms`: its side
    /// and token (once: whoever comes second gets `None`).
    fn take_challenge<'a>(
        &'a self,
        game: &'a str,
        now_ms: i64,
    ) -> BoxFuture<'a, Result<Option<(String, String)>, StoreError>>;
}

/// An open public challenge: a game whose other seat anyone may take.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenge {
    /// The game's id.
    pub game: String,
    /// The seat on offer: `white` or `black`.
    pub side: String,
    /// The game's spec, as JSON.
    pub spec: String,
    /// When it was offered, ms since the epoch.
    pub created_ms: i64,
    /// When the offer ends, ms since the epoch.
    pub expires_ms: i64,
}

/// News of stored actions, from whichever node stored them.
pub trait EventBus: Send + Sync {
    /// Every event from now on.
    fn subscribe(&self) -> broadcast::Receiver<GameEvent>;
}

/// A stored game: what it is, its dice, its seats, and whether it is over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredGame {
    /// The public id.
    pub id: String,
    /// The game's spec and table options, as JSON.
    pub spec: String,
    /// The dice seed, hex (revealed only when the game is over).
    pub seed: String,
    /// SHA-256 of the seed, hex (public from the start).
    pub commitment: String,
    /// The seats, as JSON (kinds, levels, token hashes).
    pub seats: String,
    /// Creation time, ms since the epoch.
    pub created_ms: i64,
    /// The result once over, as JSON.
    pub result: Option<String>,
    /// The node that owns it (writes its actions, runs its engines and clocks).
    #[serde(default)]
    pub owner: Option<String>,
}

/// The database behind the server, as seen by one node.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    postgres: bool,
    node: String,
}

/// The channel of the PostgreSQL notifications.
pub const CHANNEL: &str = "tablier_events";

const MIGRATIONS: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        spec TEXT NOT NULL,
        seed TEXT NOT NULL,
        commitment TEXT NOT NULL,
        seats TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        result TEXT
    )",
    "CREATE TABLE IF NOT EXISTS actions (
        game_id TEXT NOT NULL,
        n BIGINT NOT NULL,
        side TEXT NOT NULL,
        action TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (game_id, n)
    )",
    "CREATE INDEX IF NOT EXISTS games_unfinished ON games (result)",
    "ALTER TABLE games ADD COLUMN owner TEXT",
    "CREATE TABLE IF NOT EXISTS nodes (
        id TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        seen_ms BIGINT NOT NULL
    )",
    // Public challenges: the seat left to anyone, its token until it is taken (then
    // emptied), and when the offer ends.
    "CREATE TABLE IF NOT EXISTS challenges (
        game_id TEXT PRIMARY KEY,
        side TEXT NOT NULL,
        token TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        expires_ms BIGINT NOT NULL,
        taken_ms BIGINT
    )",
];

/// The file of a `sqlite://PATH?options` URL.
fn sqlite_path(url: &str) -> &str {
    let rest = url.trim_start_matches("sqlite:").trim_start_matches("//");
    rest.split('?').next().unwrap_or(rest)
}

/// Refuses at once a file that exists but is not an SQLite database (SQLite files start
/// with the 16 bytes `SQLite format 3\0`; an empty file is a new database).
fn check_sqlite_file(url: &str) -> Result<(), StoreError> {
    use std::io::Read;
    let path = sqlite_path(url);
    let mut head = Vec::with_capacity(16);
    match std::fs::File::open(path) {
        Ok(f) => {
            f.take(16)
                .read_to_end(&mut head)
                .map_err(|e| StoreError::Open(format!("cannot read {path}: {e}")))?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(StoreError::Open(format!("cannot open {path}: {e}"))),
    }
    if head.is_empty() || head == b"SQLite format 3\0" {
        Ok(())
    } else {
        Err(StoreError::Open(format!("file is not a database: {path}")))
    }
}

/// A database error met while opening, with the database named (never the URL's password).
fn open_error(url: &str, e: &sqlx::Error) -> StoreError {
    let what = if url.starts_with("sqlite:") {
        sqlite_path(url).to_owned()
    } else {
        // postgres://user:password@host/db: keep only host and database.
        url.rsplit('@').next().unwrap_or("the database").to_owned()
    };
    let why = match e {
        sqlx::Error::Database(d) => d.message().to_owned(),
        e => e.to_string(),
    };
    if why.contains("file is not a database") {
        StoreError::Open(format!("file is not a database: {what}"))
    } else {
        StoreError::Open(format!("cannot open the database {what}: {why}"))
    }
}

impl Store {
    /// Opens (creating if needed) the database at `url`: `sqlite://path` or
    /// `postgres://...`, and brings its schema up to date, for a node that owns every game
    /// ([`SOLE_NODE`]).
    ///
    /// # Errors
    /// When the database cannot be reached or migrated.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Store::open_as(url, SOLE_NODE).await
    }

    /// Opens the database for the node called `node`: one of several on one PostgreSQL
    /// database, each owning the games it created or claimed.
    ///
    /// # Errors
    /// When the database cannot be reached or migrated.
    pub async fn open_as(url: &str, node: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let url = if url.starts_with("sqlite:") && !url.contains("mode=") {
            let sep = if url.contains('?') { '&' } else { '?' };
            format!("{url}{sep}mode=rwc")
        } else {
            url.to_owned()
        };
        let sqlite = url.starts_with("sqlite:");
        if sqlite {
            check_sqlite_file(&url)?;
        }
        // One connection first, so that a database that cannot be used is reported at once
        // with its reason, instead of the pool retrying until it times out.
        {
            use sqlx::Connection;
            let mut conn = sqlx::AnyConnection::connect(&url)
                .await
                .map_err(|e| open_error(&url, &e))?;
            let probe = if sqlite {
                // Reads the schema page; a damaged file fails here.
                "SELECT COUNT(*) FROM sqlite_master"
            } else {
                "SELECT 1"
            };
            sqlx::query(probe)
                .fetch_one(&mut conn)
                .await
                .map_err(|e| open_error(&url, &e))?;
            let _ = conn.close().await;
        }
        let pool = AnyPoolOptions::new()
            .acquire_timeout(std::time::Duration::from_secs(10))
            // SQLite has one writer; WAL lets readers go on while it writes.
            .max_connections(if sqlite { 4 } else { 16 })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        sqlx::query("PRAGMA journal_mode = WAL")
                            .execute(&mut *conn)
                            .await?;
                        sqlx::query("PRAGMA synchronous = NORMAL")
                            .execute(&mut *conn)
                            .await?;
                        sqlx::query("PRAGMA busy_timeout = 5000")
                            .execute(&mut *conn)
                            .await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await
            .map_err(|e| open_error(&url, &e))?;
        let store = Store {
            pool,
            postgres: !sqlite,
            node: node.to_owned(),
        };
        store.migrate().await.map_err(|e| match e {
            StoreError::Db(e) => open_error(&url, &e),
            e => e,
        })?;
        if sqlite {
            // A file cut short passes the first page but not this.
            let check: String = sqlx::query("PRAGMA quick_check(1)")
                .fetch_one(&store.pool)
                .await
                .and_then(|r| r.try_get(0))
                .map_err(|e| open_error(&url, &e))?;
            if check != "ok" {
                return Err(StoreError::Open(format!(
                    "the database {} is damaged: {check}",
                    sqlite_path(&url)
                )));
            }
        }
        Ok(store)
    }

    /// Whether the database is PostgreSQL (where several nodes may share it).
    #[must_use]
    pub fn is_postgres(&self) -> bool {
        self.postgres
    }

    /// The database's URL-less connection pool (for the bus to listen on).
    #[must_use]
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    fn sole(&self) -> bool {
        self.node == SOLE_NODE
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        sqlx::query("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
            .execute(&self.pool)
            .await?;
        let done: i64 = sqlx::query("SELECT COUNT(*) FROM schema_version")
            .fetch_one(&self.pool)
            .await?
            .try_get(0)?;
        for (i, m) in MIGRATIONS.iter().enumerate().skip(done as usize) {
            let mut tx = self.pool.begin().await?;
            sqlx::query(m).execute(&mut *tx).await?;
            sqlx::query("INSERT INTO schema_version (version) VALUES ($1)")
                .bind(i as i64 + 1)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        }
        Ok(())
    }

    /// Stores a new game, owned by this node.
    ///
    /// # Errors
    /// On a database error.
    pub async fn create_game(&self, g: &StoredGame) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO games (id, spec, seed, commitment, seats, created_ms, result, owner)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&g.id)
        .bind(&g.spec)
        .bind(&g.seed)
        .bind(&g.commitment)
        .bind(&g.seats)
        .bind(g.created_ms)
        .bind(g.result.clone())
        .bind(&self.node)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Appends actions of a game (and, when given, its result), in one transaction that
    /// also checks that this node still owns the game and, on PostgreSQL, announces them
    /// (`NOTIFY`, delivered when the transaction commits).
    ///
    /// # Errors
    /// On a database error (nothing is stored then); a number already taken is an error;
    /// [`StoreError::NotOwner`] when another node has claimed the game.
    pub async fn append(
        &self,
        game: &str,
        actions: &[LoggedAction],
        result: Option<&str>,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        if !self.sole() {
            let owned = sqlx::query("UPDATE games SET owner = $1 WHERE id = $2 AND owner = $3")
                .bind(&self.node)
                .bind(game)
                .bind(&self.node)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if owned != 1 {
                return Err(StoreError::NotOwner(game.to_owned()));
            }
        }
        for a in actions {
            sqlx::query(
                "INSERT INTO actions (game_id, n, side, action, at_ms) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(game)
            .bind(a.n)
            .bind(&a.side)
            .bind(&a.action)
            .bind(a.at_ms)
            .execute(&mut *tx)
            .await?;
        }
        if let Some(r) = result {
            sqlx::query("UPDATE games SET result = $1 WHERE id = $2")
                .bind(r)
                .bind(game)
                .execute(&mut *tx)
                .await?;
        }
        if let (true, Some(last)) = (self.postgres, actions.last()) {
            let event = GameEvent {
                game: game.to_owned(),
                v: last.n,
            };
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANNEL)
                .bind(event.payload())
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    fn game_of(row: &AnyRow) -> Result<StoredGame, sqlx::Error> {
        Ok(StoredGame {
            id: row.try_get("id")?,
            spec: row.try_get("spec")?,
            seed: row.try_get("seed")?,
            commitment: row.try_get("commitment")?,
            seats: row.try_get("seats")?,
            created_ms: row.try_get("created_ms")?,
            result: row.try_get("result")?,
            owner: row.try_get("owner")?,
        })
    }

    /// A game by id.
    ///
    /// # Errors
    /// On a database error.
    pub async fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let row = sqlx::query(
            "SELECT id, spec, seed, commitment, seats, created_ms, result, owner FROM games WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| Self::game_of(&r)).transpose()?)
    }

    /// The ids of the games not over yet that this node owns, or nobody does (every one for
    /// the sole node): to take them up again after a restart.
    ///
    /// # Errors
    /// On a database error.
    pub async fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        let rows = if self.sole() {
            sqlx::query("SELECT id FROM games WHERE result IS NULL ORDER BY created_ms")
                .fetch_all(&self.pool)
                .await?
        } else {
            sqlx::query(
                "SELECT id FROM games WHERE result IS NULL AND (owner = $1 OR owner IS NULL)
                 ORDER BY created_ms",
            )
            .bind(&self.node)
            .fetch_all(&self.pool)
            .await?
        };
        Ok(rows
            .iter()
            .map(|r| r.try_get::<String, _>(0))
            .collect::<Result<_, _>>()?)
    }

    /// Records that this node is alive and reachable at `url`.
    ///
    /// # Errors
    /// On a database error.
    pub async fn heartbeat(&self, url: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO nodes (id, url, seen_ms) VALUES ($1, $2, $3)
             ON CONFLICT (id) DO UPDATE SET url = $4, seen_ms = $5",
        )
        .bind(&self.node)
        .bind(url)
        .bind(crate::now::now_ms())
        .bind(url)
        .bind(crate::now::now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A node's address and last heartbeat.
    ///
    /// # Errors
    /// On a database error.
    pub async fn node_seen(&self, node: &str) -> Result<Option<(String, i64)>, StoreError> {
        let row = sqlx::query("SELECT url, seen_ms FROM nodes WHERE id = $1")
            .bind(node)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row
            .map(|r| Ok::<_, sqlx::Error>((r.try_get("url")?, r.try_get("seen_ms")?)))
            .transpose()?)
    }

    /// Takes `game` for this node if its owner is still `previous`.
    ///
    /// # Errors
    /// On a database error.
    pub async fn claim(&self, game: &str, previous: Option<&str>) -> Result<bool, StoreError> {
        let done = match previous {
            Some(p) => {
                sqlx::query("UPDATE games SET owner = $1 WHERE id = $2 AND owner = $3")
                    .bind(&self.node)
                    .bind(game)
                    .bind(p)
                    .execute(&self.pool)
                    .await?
            }
            None => {
                sqlx::query("UPDATE games SET owner = $1 WHERE id = $2 AND owner IS NULL")
                    .bind(&self.node)
                    .bind(game)
                    .execute(&self.pool)
                    .await?
            }
        };
        Ok(done.rows_affected() == 1)
    }

    /// Offers the seat `side` of `game` to anyone until `expires_ms` (see
    /// [`Storage::create_challenge`]).
    ///
    /// # Errors
    /// On a database error.
    pub async fn create_challenge(
        &self,
        game: &str,
        side: &str,
        token: &str,
        created_ms: i64,
        expires_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO challenges (game_id, side, token, created_ms, expires_ms)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(game)
        .bind(side)
        .bind(token)
        .bind(created_ms)
        .bind(expires_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The challenges open at `now_ms`, the newest first (see [`Storage::open_challenges`]).
    ///
    /// # Errors
    /// On a database error.
    pub async fn open_challenges(
        &self,
        now_ms: i64,
        limit: i64,
    ) -> Result<Vec<Challenge>, StoreError> {
        let rows = sqlx::query(
            "SELECT c.game_id, c.side, g.spec, c.created_ms, c.expires_ms
             FROM challenges c JOIN games g ON g.id = c.game_id
             WHERE c.taken_ms IS NULL AND c.expires_ms > $1 AND g.result IS NULL
             ORDER BY c.created_ms DESC LIMIT $2",
        )
        .bind(now_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Challenge {
                    game: r.try_get(0)?,
                    side: r.try_get(1)?,
                    spec: r.try_get(2)?,
                    created_ms: r.try_get(3)?,
                    expires_ms: r.try_get(4)?,
                })
            })
            .collect()
    }

    /// Takes the open seat of `game`'s challenge (see [`Storage::take_challenge`]): one
    /// `UPDATE` marks it taken only if nobody has, so two takers on two nodes cannot both
    /// win; the token is then read and emptied.
    ///
    /// # Errors
    /// On a database error.
    pub async fn take_challenge(
        &self,
        game: &str,
        now_ms: i64,
    ) -> Result<Option<(String, String)>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE challenges SET taken_ms = $1
             WHERE game_id = $2 AND taken_ms IS NULL AND expires_ms > $3",
        )
        .bind(now_ms)
        .bind(game)
        .bind(now_ms)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(None);
        }
        let row = sqlx::query("SELECT side, token FROM challenges WHERE game_id = $1")
            .bind(game)
            .fetch_one(&mut *tx)
            .await?;
        let taken: (String, String) = (row.try_get(0)?, row.try_get(1)?);
        sqlx::query("UPDATE challenges SET token = '' WHERE game_id = $1")
            .bind(game)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Some(taken))
    }

    /// Unfinished games owned by other nodes that have not shown a heartbeat since
    /// `stale_before` (or never did).
    ///
    /// # Errors
    /// On a database error.
    pub async fn orphans(&self, stale_before: i64) -> Result<Vec<Orphan>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.owner FROM games g LEFT JOIN nodes n ON n.id = g.owner
             WHERE g.result IS NULL AND (g.owner IS NULL OR g.owner <> $1)
               AND (n.seen_ms IS NULL OR n.seen_ms < $2)
             ORDER BY g.created_ms",
        )
        .bind(&self.node)
        .bind(stale_before)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("owner")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::Db)
    }

    /// Every action of a game, in order.
    ///
    /// # Errors
    /// On a database error.
    pub async fn actions(&self, game: &str) -> Result<Vec<LoggedAction>, StoreError> {
        self.actions_after(game, 0).await
    }

    /// The actions of a game numbered above `after`, in order.
    ///
    /// # Errors
    /// On a database error.
    pub async fn actions_after(
        &self,
        game: &str,
        after: i64,
    ) -> Result<Vec<LoggedAction>, StoreError> {
        let rows = sqlx::query(
            "SELECT n, side, action, at_ms FROM actions WHERE game_id = $1 AND n > $2 ORDER BY n",
        )
        .bind(game)
        .bind(after)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(LoggedAction {
                    n: r.try_get("n")?,
                    side: r.try_get("side")?,
                    action: r.try_get("action")?,
                    at_ms: r.try_get("at_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::Db)
    }
}

impl Storage for Store {
    fn node(&self) -> &str {
        &self.node
    }
    fn create_game<'a>(&'a self, g: &'a StoredGame) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(Store::create_game(self, g))
    }
    fn append<'a>(
        &'a self,
        game: &'a str,
        actions: &'a [LoggedAction],
        result: Option<&'a str>,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(Store::append(self, game, actions, result))
    }
    fn game<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<StoredGame>, StoreError>> {
        Box::pin(Store::game(self, id))
    }
    fn actions_after<'a>(
        &'a self,
        game: &'a str,
        after: i64,
    ) -> BoxFuture<'a, Result<Vec<LoggedAction>, StoreError>> {
        Box::pin(Store::actions_after(self, game, after))
    }
    fn unfinished(&self) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        Box::pin(Store::unfinished(self))
    }
    fn heartbeat<'a>(&'a self, url: &'a str) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(Store::heartbeat(self, url))
    }
    fn node_seen<'a>(
        &'a self,
        node: &'a str,
    ) -> BoxFuture<'a, Result<Option<(String, i64)>, StoreError>> {
        Box::pin(Store::node_seen(self, node))
    }
    fn claim<'a>(
        &'a self,
        game: &'a str,
        previous: Option<&'a str>,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(Store::claim(self, game, previous))
    }
    fn orphans(&self, stale_before: i64) -> BoxFuture<'_, Result<Vec<Orphan>, StoreError>> {
        Box::pin(Store::orphans(self, stale_before))
    }
    fn create_challenge<'a>(
        &'a self,
        game: &'a str,
        side: &'a str,
        token: &'a str,
        created_ms: i64,
        expires_ms: i64,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(Store::create_challenge(
            self, game, side, token, created_ms, expires_ms,
        ))
    }
    fn open_challenges(
        &self,
        now_ms: i64,
        limit: i64,
    ) -> BoxFuture<'_, Result<Vec<Challenge>, StoreError>> {
        Box::pin(Store::open_challenges(self, now_ms, limit))
    }
    fn take_challenge<'a>(
        &'a self,
        game: &'a str,
        now_ms: i64,
    ) -> BoxFuture<'a, Result<Option<(String, String)>, StoreError>> {
        Box::pin(Store::take_challenge(self, game, now_ms))
    }
}

/// The event bus on PostgreSQL: one connection per node `LISTEN`s on [`CHANNEL`]; the
/// events are those [`Store::append`] notified. A lost connection is opened again (the
/// nodes catch up from the database, so an event missed then only delays a mirror).
pub struct PgBus {
    tx: broadcast::Sender<GameEvent>,
}

impl PgBus {
    /// Starts listening on the database at `url`.
    ///
    /// # Errors
    /// When the first connection fails.
    pub async fn listen(url: &str) -> Result<PgBus, StoreError> {
        let mut listener = sqlx::postgres::PgListener::connect(url).await?;
        listener.listen(CHANNEL).await?;
        let (tx, _) = broadcast::channel(1024);
        let out = tx.clone();
        tokio::spawn(async move {
            loop {
                match listener.recv().await {
                    Ok(n) => {
                        if let Some(e) = GameEvent::parse(n.payload()) {
                            let _ = out.send(e);
                        }
                    }
                    Err(e) => {
                        // PgListener reconnects by itself on the next recv.
                        tracing::warn!("event bus: {e}");
                        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
                    }
                }
            }
        });
        Ok(PgBus { tx })
    }
}

impl EventBus for PgBus {
    fn subscribe(&self) -> broadcast::Receiver<GameEvent> {
        self.tx.subscribe()
    }
}
