//! A match's results kept in a file, one JSON line per game, so that a long run can stop
//! (Ctrl-C, a crash, a machine handed back) and a later run with the same settings goes on
//! where it stopped: the games already in the file are not played again, and the score is
//! counted over all of them.
//!
//! The first line holds the match's settings (opponent, variant, time control, openings);
//! a file written under other settings is refused rather than mixed with.
//!
//! ```
//! use tablier_draughts_protocol::results::{GameRecord, Outcome, Results};
//!
//! let path = std::env::temp_dir().join(format!("tablier-results-doc-{}.jsonl", std::process::id()));
//! let mut results = Results::open(&path, "vs scan, 1 min/game, seed 1").unwrap();
//! results
//!     .add(GameRecord {
//!         opening: 0,
//!         first_white: true,
//!         outcome: Outcome::Draw,
//!         why: "draw by threefold repetition".into(),
//!         adjudicated: false,
//!         forfeit: false,
//!         pdn: String::new(),
//!     })
//!     .unwrap();
//! // A later run reads what was played.
//! let again = Results::open(&path, "vs scan, 1 min/game, seed 1").unwrap();
//! assert!(again.has(0, true) && !again.has(0, false));
//! assert_eq!(again.tally().draws, 1);
//! // Other settings: refused.
//! assert!(Results::open(&path, "vs scan, 3 min/game, seed 1").is_err());
//! # std::fs::remove_file(&path).unwrap();
//! ```

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

use crate::score::Tally;

/// How a game ended for the first contestant (ours).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The first contestant won.
    Win,
    /// Neither won.
    Draw,
    /// The first contestant lost.
    Loss,
}

/// One game of a match as the results file keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The balloted opening it was played from (its index in the match's list).
    pub opening: usize,
    /// Whether the first contestant had White.
    pub first_white: bool,
    /// How it ended for the first contestant.
    pub outcome: Outcome,
    /// Why it ended (`White has no legal move`, `adjudicated: ...`, `... forfeits: ...`).
    pub why: String,
    /// Whether the result was given by the endgame tables rather than played out.
    pub adjudicated: bool,
    /// Whether a contestant lost by forfeit (no move, an illegal move).
    pub forfeit: bool,
    /// The game as PDN.
    pub pdn: String,
}

/// The first line of a results file.
#[derive(Serialize, Deserialize)]
struct Header {
    settings: String,
}

/// A results file and the games it holds.
#[derive(Debug)]
pub struct Results {
    path: PathBuf,
    games: Vec<GameRecord>,
}

impl Results {
    /// Opens (or creates) the results file of a match played under `settings`, reading the
    /// games it already holds.
    ///
    /// # Errors
    /// The file cannot be read or written, a line is not a game record (with its number),
    /// or the file was written under other settings.
    pub fn open(path: &Path, settings: &str) -> Result<Results> {
        let mut games = Vec::new();
        match std::fs::read_to_string(path) {
            Ok(text) if !text.trim().is_empty() => {
                let mut lines = text.lines().enumerate();
                let (_, first) = lines.next().expect("a non-empty file has a line");
                let header: Header = serde_json::from_str(first).with_context(|| {
                    format!("{}: line 1 is not a results header", path.display())
                })?;
                if header.settings != settings {
                    bail!(
                        "{} holds the games of another match ({}); this one is {settings}: name another file",
                        path.display(),
                        header.settings
                    );
                }
                for (i, line) in lines {
                    if line.trim().is_empty() {
                        continue;
                    }
                    let g: GameRecord = serde_json::from_str(line).with_context(|| {
                        format!("{}: line {} is not a game record", path.display(), i + 1)
                    })?;
                    games.push(g);
                }
            }
            Ok(_) => write_line(
                path,
                &Header {
                    settings: settings.to_owned(),
                },
                true,
            )?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                write_line(
                    path,
                    &Header {
                        settings: settings.to_owned(),
                    },
                    true,
                )?;
            }
            Err(e) => {
                return Err(e).with_context(|| format!("reading {}", path.display()));
            }
        }
        Ok(Results {
            path: path.to_owned(),
            games,
        })
    }

    /// Whether the game of `opening` with the first contestant as White (`first_white`) or
    /// Black has been played.
    #[must_use]
    pub fn has(&self, opening: usize, first_white: bool) -> bool {
        self.games
            .iter()
            .any(|g| g.opening == opening && g.first_white == first_white)
    }

    /// Appends a game to the file (written and flushed before this returns).
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn add(&mut self, game: GameRecord) -> Result<()> {
        write_line(&self.path, &game, false)?;
        self.games.push(game);
        Ok(())
    }

    /// The games, in the order they were played.
    #[must_use]
    pub fn games(&self) -> &[GameRecord] {
        &self.games
    }

    /// The score over every game of the file.
    #[must_use]
    pub fn tally(&self) -> Tally {
        let mut t = Tally::default();
        for g in &self.games {
            match g.outcome {
                Outcome::Win => t.wins += 1,
                Outcome::Draw => t.draws += 1,
                Outcome::Loss => t.losses += 1,
            }
        }
        t
    }
}

/// Writes one JSON line (a new file when `create`), flushed.
fn write_line(path: &Path, value: &impl Serialize, create: bool) -> Result<()> {
    let mut f = OpenOptions::new()
        .create(true)
        .append(!create)
        .write(true)
        .truncate(create)
        .open(path)
        .with_context(|| format!("writing {}", path.display()))?;
    let line = serde_json::to_string(value).expect("records are serialisable");
    writeln!(f, "{line}").with_context(|| format!("writing {}", path.display()))?;
    f.flush()
        .with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(opening: usize, first_white: bool, outcome: Outcome) -> GameRecord {
        GameRecord {
            opening,
            first_white,
            outcome,
            why: "test".into(),
            adjudicated: false,
            forfeit: false,
            pdn: String::new(),
        }
    }

    #[test]
    fn a_run_goes_on_where_the_last_stopped_and_bad_files_are_refused() {
        let dir = std::env::temp_dir().join(format!("tablier-results-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.jsonl");
        let _ = std::fs::remove_file(&path);
        let mut r = Results::open(&path, "s").unwrap();
        r.add(record(0, true, Outcome::Win)).unwrap();
        r.add(record(0, false, Outcome::Loss)).unwrap();
        r.add(record(1, true, Outcome::Draw)).unwrap();
        let again = Results::open(&path, "s").unwrap();
        assert_eq!(again.games().len(), 3);
        assert_eq!(
            again.tally(),
            Tally {
                wins: 1,
                draws: 1,
                losses: 1
            }
        );
        assert!(again.has(1, true) && !again.has(1, false));
        // A line cut short by a crash is named.
        std::fs::write(
            &path,
            std::fs::read_to_string(&path).unwrap() + "{\"opening\": 1, \"fir",
        )
        .unwrap();
        let e = Results::open(&path, "s").unwrap_err().to_string();
        assert!(e.contains("line 5"), "{e}");
        // Not a results file at all.
        std::fs::write(&path, "hello\n").unwrap();
        assert!(Results::open(&path, "s")
            .unwrap_err()
            .to_string()
            .contains("line 1"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
