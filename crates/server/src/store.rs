//! Storage: games and their actions, in SQLite (embedded, the default) or PostgreSQL.
//!
//! One schema for both, written in the SQL they share; queries number their parameters
//! `$1, $2, ...` in order of appearance, which both accept. Every accepted action is written
//! (and committed) before it is announced to anyone.

use serde::{Deserialize, Serialize};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

/// A storage error, with the database's words (logged, never shown to clients).
#[derive(Debug, thiserror::Error)]
#[error("storage: {0}")]
pub struct StoreError(#[from] sqlx::Error);

/// One stored action of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredAction {
    /// 1-based number within the game.
    pub n: i64,
    /// `white`, `black`, or empty for chance (dice) and the server's own entries.
    pub side: String,
    /// The action in the game's notation, or a table action (`!resign`, `!draw`, ...).
    pub action: String,
    /// Milliseconds since the Unix epoch when it was accepted.
    pub at_ms: i64,
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
}

/// The database behind the server.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
}

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
];

impl Store {
    /// Opens (creating if needed) the database at `url`: `sqlite://path` or
    /// `postgres://...`, and brings its schema up to date.
    ///
    /// # Errors
    /// When the database cannot be reached or migrated.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let url = if url.starts_with("sqlite:") && !url.contains("mode=") {
            let sep = if url.contains('?') { '&' } else { '?' };
            format!("{url}{sep}mode=rwc")
        } else {
            url.to_owned()
        };
        let sqlite = url.starts_with("sqlite:");
        let pool = AnyPoolOptions::new()
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
            .await?;
        let store = Store { pool };
        store.migrate().await?;
        Ok(store)
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

    /// Stores a new game.
    ///
    /// # Errors
    /// On a database error.
    pub async fn create_game(&self, g: &StoredGame) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO games (id, spec, seed, commitment, seats, created_ms, result)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&g.id)
        .bind(&g.spec)
        .bind(&g.seed)
        .bind(&g.commitment)
        .bind(&g.seats)
        .bind(g.created_ms)
        .bind(g.result.clone())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Appends actions of a game (and, when given, its result), in one transaction.
    ///
    /// # Errors
    /// On a database error (nothing is stored then); a number already taken is an error.
    pub async fn append(
        &self,
        game: &str,
        actions: &[StoredAction],
        result: Option<&str>,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
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
        })
    }

    /// A game by id.
    ///
    /// # Errors
    /// On a database error.
    pub async fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let row = sqlx::query(
            "SELECT id, spec, seed, commitment, seats, created_ms, result FROM games WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| Self::game_of(&r)).transpose()?)
    }

    /// The ids of the games not over yet (to take them up again after a restart).
    ///
    /// # Errors
    /// On a database error.
    pub async fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games WHERE result IS NULL ORDER BY created_ms")
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get::<String, _>(0))
            .collect::<Result<_, _>>()?)
    }

    /// Every action of a game, in order.
    ///
    /// # Errors
    /// On a database error.
    pub async fn actions(&self, game: &str) -> Result<Vec<StoredAction>, StoreError> {
        let rows =
            sqlx::query("SELECT n, side, action, at_ms FROM actions WHERE game_id = $1 ORDER BY n")
                .bind(game)
                .fetch_all(&self.pool)
                .await?;
        rows.iter()
            .map(|r| {
                Ok(StoredAction {
                    n: r.try_get("n")?,
                    side: r.try_get("side")?,
                    action: r.try_get("action")?,
                    at_ms: r.try_get("at_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError)
    }
}
