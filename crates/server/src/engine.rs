//! Engine seats and clocks on the owning node: after each change, the engine seat to act (if
//! any) thinks off the async runtime's threads, on a pool of
//! [`crate::Options::engine_workers`] permits, and the clock of the side to act is watched
//! for its flag. The engines themselves and their levels are the catalog's
//! ([`tablier_catalog::levels`]).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tablier_catalog::{levels, SeatAction};
use tablier_core::Budget;
use tokio::sync::{Mutex, Semaphore};

use crate::room::Room;
use crate::store::Storage;

/// The engine seats of a node: the pool they think on, and where their actions are stored.
#[derive(Clone)]
pub struct Engines {
    store: Arc<dyn Storage>,
    /// One permit per engine seat allowed to think at once.
    pool: Arc<Semaphore>,
    /// Engine seats thinking now, and the most there ever were at once.
    thinking: Arc<(AtomicUsize, AtomicUsize)>,
}

impl Engines {
    /// Engine seats on `workers` threads at most, storing their actions in `store`.
    #[must_use]
    pub fn new(store: Arc<dyn Storage>, workers: usize) -> Engines {
        Engines {
            store,
            pool: Arc::new(Semaphore::new(workers.max(1))),
            thinking: Arc::default(),
        }
    }

    /// The most engine seats that were ever thinking at the same time.
    #[must_use]
    pub fn peak(&self) -> usize {
        self.thinking.1.load(Ordering::Relaxed)
    }

    /// After a change: start the engine if it is to act, and the clock's watch (only on the
    /// node that owns the game).
    pub fn kick(&self, room: Arc<Mutex<Room>>) -> impl std::future::Future<Output = ()> + Send {
        let engines = self.clone();
        async move {
            let (engine, version, flag_in, increment) = {
                let r = room.lock().await;
                if r.mirror_of.is_some() {
                    return;
                }
                (
                    r.engine_to_act(),
                    r.version(),
                    r.ms_to_flag(),
                    // A delay is time the engine may use on every move, as an increment.
                    r.spec().clock.map_or(0, |c| {
                        i64::from(c.increment_s) * 1000 + i64::from(c.delay_s) * 1000
                    }),
                )
            };
            if let Some((side, level)) = engine {
                let engines2 = engines.clone();
                let room2 = room.clone();
                let pool = engines.pool.clone();
                tokio::spawn(async move {
                    // Wait for a free engine worker: engines together never take more
                    // than `Options::engine_workers` cores.
                    let Ok(_permit) = pool.acquire_owned().await else {
                        return;
                    };
                    // The budget comes from the clock as it is now: the time spent waiting
                    // for a worker is the engine's own.
                    let (table, budget) = {
                        let r = room2.lock().await;
                        if r.version() != version {
                            return;
                        }
                        let budget = r.clocks().map_or(Budget::UNLIMITED, |(left, _)| {
                            Budget::at_most(levels::budget(left[side.index()], increment))
                        });
                        (r.game().table().boxed_clone(), budget)
                    };
                    let thinking = engines2.thinking.clone();
                    let now = thinking.0.fetch_add(1, Ordering::SeqCst) + 1;
                    thinking.1.fetch_max(now, Ordering::SeqCst);
                    let choice = tokio::task::spawn_blocking(move || {
                        let mut rng = rand::thread_rng();
                        levels::choose(table.as_ref(), side, level, budget, &mut rng)
                    })
                    .await
                    .ok()
                    .flatten();
                    thinking.0.fetch_sub(1, Ordering::SeqCst);
                    if let Some(text) = choice {
                        let ok = {
                            let mut r = room2.lock().await;
                            r.mirror_of.is_none()
                                && r.version() == version
                                && r.act(&*engines2.store, side, &SeatAction::Game(text))
                                    .await
                                    .is_ok()
                        };
                        if ok {
                            Box::pin(engines2.kick(room2)).await;
                        }
                    }
                });
            }
            if let Some(ms) = flag_in {
                let engines2 = engines.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(std::time::Duration::from_millis(ms as u64 + 20)).await;
                    let mut r = room.lock().await;
                    if r.mirror_of.is_none() && r.version() == version {
                        let _ = r.check_flag(&*engines2.store).await;
                    }
                });
            }
        }
    }
}
