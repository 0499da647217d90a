//! The gnubg/Jellyfish `.mat` match file (FORMATS.md §4): a record type, a writer producing
//! exactly gnubg's layout (`export match mat`), and a tolerant reader.
//!
//! The reader produces **syntax only**: dice, hops, cube actions and results as written, with
//! no check that a play is legal (replay the record against the rules for that). It never
//! panics and reports errors with their line number.
//!
//! Columns: gnubg writes its player 0 in the left column and player 1 in the right one;
//! [`MatGame::players`], [`MatGame::scores`] and [`MatTurn::player`] use these indices
//! (0 = left, 1 = right). Points are numbered from the mover's side: 25 is the bar, 0 is off.
//!
//! ```
//! use tablier_backgammon::mat::{MatchFile, MatAction};
//!
//! let text = " 3 point match\n\n Game 1\n gnubg : 0                      root : 0\n  1) 31: 8/5 6/5                 64: 24/18 13/9 \n";
//! let file = MatchFile::parse(text).unwrap();
//! assert_eq!(file.match_length, 3);
//! let game = &file.games[0];
//! assert_eq!(game.players, ["gnubg".to_string(), "root".to_string()]);
//! assert!(matches!(&game.turns[0].action, MatAction::Roll { dice: (3, 1), hops } if hops.len() == 2));
//! assert_eq!(game.turns[1].player, 1);
//! ```

use std::fmt::{self, Write as _};

/// One checker moving from one point to another (mover's numbering: 25 = bar, 0 = off).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct MatHop {
    /// Start point (25 = the bar).
    pub from: u8,
    /// End point (0 = borne off).
    pub to: u8,
    /// The hop hits a blot on `to` (written `*`).
    pub hit: bool,
}

/// What a player did in one entry of the record.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum MatAction {
    /// Dice rolled (in the order written) and the checkers moved; no hops = no legal play.
    Roll {
        /// The two dice as written (gnubg writes the higher first).
        dice: (u8, u8),
        /// The hops, one per checker step, in order.
        hops: Vec<MatHop>,
    },
    /// `Doubles => N`: offers the cube at value N.
    Double(u32),
    /// `Takes`.
    Take,
    /// `Drops` (passes the double; the game ends).
    Drop,
    /// `Beavers => N`: takes and redoubles to N at once.
    Beaver(u32),
}

/// One entry: a player and his action.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct MatTurn {
    /// 0 = left column (gnubg's player 0), 1 = right column (player 1).
    pub player: usize,
    /// What he did.
    pub action: MatAction,
}

/// A game's result line, `Wins N point(s)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct MatResult {
    /// The winner: 0 = left, 1 = right.
    pub winner: usize,
    /// Points won.
    pub points: u32,
}

/// One game of the match.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct MatGame {
    /// The number after `Game`.
    pub number: u32,
    /// Names, left then right.
    pub players: [String; 2],
    /// Scores at the start of the game, left then right.
    pub scores: [u32; 2],
    /// Every entry in order (the players alternate in gnubg's files).
    pub turns: Vec<MatTurn>,
    /// The result, if the game was finished.
    pub result: Option<MatResult>,
}

/// A whole `.mat` file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct MatchFile {
    /// The `;` lines before the match header, without the `;` and surrounding blanks
    /// (gnubg writes `[EventDate "2026.11.22"]`, `[Player 1 "..."]`, ...).
    pub tags: Vec<String>,
    /// Match length; 0 for a money session.
    pub match_length: u32,
    /// The games, in the order the file gives them.
    pub games: Vec<MatGame>,
}

/// Why a `.mat` text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}: {text:?}")]
pub struct MatError {
    /// 1-based line number.
    pub line: usize,
    /// What was expected.
    pub problem: String,
    /// The line (or token) at fault.
    pub text: String,
}

/// Where gnubg's right column starts (after `"%3d) %-27s "`).
const RIGHT_COLUMN: usize = 33;

fn entry_text(action: &MatAction) -> String {
    match action {
        MatAction::Roll { dice, hops } => {
            let mut s = format!("{}{}: ", dice.0, dice.1);
            for (i, h) in hops.iter().enumerate() {
                let _ = write!(s, "{}/{}{}", h.from, h.to, if h.hit { "*" } else { "" });
                // gnubg puts a blank after each of the first three hops, not after a fourth
                // (it never writes more than four); a read entry may have more, which need
                // blanks between them.
                if i < 3 || i + 1 < hops.len() {
                    s.push(' ');
                }
            }
            s
        }
        MatAction::Double(n) => format!(" Doubles => {n}"),
        MatAction::Take => " Takes".to_string(),
        MatAction::Drop => " Drops".to_string(),
        MatAction::Beaver(n) => format!(" Beavers => {n}"),
    }
}

fn wins_text(points: u32) -> String {
    format!("Wins {points} point{}", if points == 1 { "" } else { "s" })
}

impl fmt::Display for MatchFile {
    /// Writes the file in gnubg's `export match mat` layout.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for tag in &self.tags {
            writeln!(f, "; {tag}")?;
        }
        if !self.tags.is_empty() {
            writeln!(f)?;
        }
        writeln!(f, " {} point match", self.match_length)?;
        writeln!(f)?;
        for game in &self.games {
            write_game(f, game)?;
        }
        Ok(())
    }
}

fn write_game(f: &mut fmt::Formatter<'_>, game: &MatGame) -> fmt::Result {
    writeln!(f, " Game {}", game.number)?;
    let left = format!("{} : {}", game.players[0], game.scores[0]);
    writeln!(f, " {left:<31}{} : {}", game.players[1], game.scores[1])?;
    // Lay the entries out in rows: a left entry starts a row, a right entry fills the current
    // row's right slot if it is free.
    let mut rows: Vec<(Option<String>, Option<String>)> = Vec::new();
    let mut last_drop_left = false;
    for turn in &game.turns {
        let text = entry_text(&turn.action);
        match (turn.player, rows.last_mut()) {
            (1, Some((_, right @ None))) => *right = Some(text),
            (1, _) => rows.push((None, Some(text))),
            _ => rows.push((Some(text), None)),
        }
        last_drop_left = turn.player == 0 && turn.action == MatAction::Drop;
    }
    let mut inline_win = None;
    if let (Some(result), true) = (game.result, last_drop_left) {
        if result.winner == 1 {
            // gnubg writes the win after a left-column drop in the same row, as an entry
            // (a blank before it, like the cube actions) with a blank after it.
            if let Some((_, right @ None)) = rows.last_mut() {
                *right = Some(format!(" {} ", wins_text(result.points)));
                inline_win = Some(result);
            }
        }
    }
    for (i, (l, r)) in rows.iter().enumerate() {
        writeln!(
            f,
            "{:3}) {:<27} {}",
            i + 1,
            l.as_deref().unwrap_or(""),
            r.as_deref().unwrap_or("")
        )?;
    }
    if let (Some(result), None) = (game.result, inline_win) {
        let indent = if result.winner == 0 { 5 } else { RIGHT_COLUMN };
        writeln!(f, "{:indent$} {}", "", wins_text(result.points))?;
    }
    writeln!(f)
}

impl MatchFile {
    /// Reads a `.mat` text: gnubg's layout and what other programs write (Jellyfish, hand
    /// edits): CRLF line ends, missing or extra blank lines, `;`/`#` comment lines anywhere,
    /// lines mentioning Crawford, `bar`/`off` for 25/0, `(2)` repetitions, `a/b/c` chains,
    /// `*` on any hop, entries not aligned to gnubg's columns.
    ///
    /// # Errors
    /// [`MatError`] with the line number of the first line it cannot read.
    pub fn parse(text: &str) -> Result<MatchFile, MatError> {
        let mut file = MatchFile::default();
        let mut header_seen = false;
        let mut game: Option<MatGame> = None;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let err = |problem: &str, t: &str| MatError {
                line: n,
                problem: problem.to_string(),
                text: t.to_string(),
            };
            let line = raw.trim_end_matches(['\r', '\n']);
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            if let Some(tag) = t.strip_prefix(';') {
                if !header_seen {
                    file.tags.push(tag.trim().to_string());
                }
                continue;
            }
            if t.starts_with('#') || t.to_ascii_lowercase().contains("crawford") {
                continue;
            }
            if let Some(len) = t.strip_suffix("point match") {
                file.match_length = len
                    .trim()
                    .parse()
                    .map_err(|_| err("expected `N point match`", t))?;
                header_seen = true;
                continue;
            }
            if let Some(num) = t.strip_prefix("Game ") {
                if let Some(g) = game.take() {
                    if g.players[0].is_empty() {
                        return Err(err(
                            "expected the score line `name : score   name : score`",
                            t,
                        ));
                    }
                    file.games.push(g);
                }
                let number = num
                    .trim()
                    .parse()
                    .map_err(|_| err("expected `Game N`", t))?;
                game = Some(MatGame {
                    number,
                    players: [String::new(), String::new()],
                    scores: [0, 0],
                    turns: Vec::new(),
                    result: None,
                });
                continue;
            }
            let Some(g) = game.as_mut() else {
                return Err(err("expected a `;` tag, `N point match` or `Game N`", t));
            };
            if g.players[0].is_empty() && g.turns.is_empty() && g.result.is_none() {
                let (players, scores) = parse_score_line(t).ok_or_else(|| {
                    err("expected the score line `name : score   name : score`", t)
                })?;
                g.players = players;
                g.scores = scores;
                continue;
            }
            parse_row(line, g).map_err(|(problem, tok)| err(&problem, &tok))?;
        }
        if let Some(g) = game {
            if g.players[0].is_empty() && header_seen {
                // A game needs its score line (the file ends right after `Game N`).
                return Err(MatError {
                    line: text.lines().count() + 1,
                    problem: "expected the score line `name : score   name : score`".to_string(),
                    text: String::new(),
                });
            }
            file.games.push(g);
        }
        if !header_seen {
            return Err(MatError {
                line: text.lines().count().max(1),
                problem: "no `N point match` line".to_string(),
                text: String::new(),
            });
        }
        Ok(file)
    }
}

fn parse_score_line(t: &str) -> Option<([String; 2], [u32; 2])> {
    let (name0, rest) = t.split_once(':')?;
    let rest = rest.trim_start();
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let s0: u32 = rest[..digits].parse().ok()?;
    let (name1, s1) = rest[digits..].rsplit_once(':')?;
    let s1: u32 = s1.trim().parse().ok()?;
    let (name0, name1) = (name0.trim(), name1.trim());
    if name0.is_empty() || name1.is_empty() {
        return None;
    }
    Some(([name0.to_string(), name1.to_string()], [s0, s1]))
}

type RowError = (String, String);

/// Starts of entries: dice `dd:` or a cube/result word.
fn entry_start(tok: &str) -> bool {
    let b = tok.as_bytes();
    (b.len() >= 3 && b[0].is_ascii_digit() && b[1].is_ascii_digit() && b[2] == b':')
        || matches!(
            tok,
            "Doubles" | "Takes" | "Drops" | "Beavers" | "Wins" | "Double" | "Take" | "Drop"
        )
}

fn parse_row(line: &str, g: &mut MatGame) -> Result<(), RowError> {
    let trimmed = line.trim_start();
    // Optional move number `N)`.
    let (numbered, body, body_col) = match trimmed.split_once(')') {
        Some((num, rest)) if !num.is_empty() && num.trim().bytes().all(|b| b.is_ascii_digit()) => {
            let col = line.len() - rest.len();
            (true, rest, col)
        }
        _ => (false, trimmed, line.len() - trimmed.len()),
    };
    // Tokens with their columns.
    let mut tokens: Vec<(usize, &str)> = Vec::new();
    let mut pos = 0;
    for tok in body.split_whitespace() {
        let at = body[pos..].find(tok).map_or(pos, |k| pos + k);
        tokens.push((body_col + at, tok));
        pos = at + tok.len();
    }
    // Group into entries.
    let mut entries: Vec<(usize, Vec<&str>)> = Vec::new();
    for (col, tok) in tokens {
        if entry_start(tok) || entries.is_empty() {
            if !entry_start(tok) {
                return Err(("expected dice `dd:` or a cube action".into(), tok.into()));
            }
            entries.push((col, vec![tok]));
        } else if let Some(e) = entries.last_mut() {
            e.1.push(tok);
        }
    }
    if entries.is_empty() {
        return Ok(()); // `N)` alone: nothing played
    }
    if entries.len() > 2 {
        return Err((
            "more than two entries on one row".into(),
            line.trim().into(),
        ));
    }
    let one_column = entries.len() == 1;
    for (k, (col, toks)) in entries.into_iter().enumerate() {
        // With two entries: left, right. With one: by its column (gnubg's right column
        // starts at 33; anything past 20 is taken as the right one).
        let player = if one_column {
            usize::from(col >= 20 || (!numbered && col > 12))
        } else {
            k
        };
        if toks[0] == "Wins" {
            let points = toks
                .get(1)
                .and_then(|p| p.parse().ok())
                .ok_or_else(|| ("expected `Wins N points`".to_string(), toks.join(" ")))?;
            g.result = Some(MatResult {
                winner: player,
                points,
            });
            continue;
        }
        let action = parse_entry(&toks)?;
        g.turns.push(MatTurn { player, action });
    }
    Ok(())
}

fn parse_entry(toks: &[&str]) -> Result<MatAction, RowError> {
    let whole = || toks.join(" ");
    let cube_value = |toks: &[&str]| -> Result<u32, RowError> {
        let v = match toks {
            [_, "=>", v] => v,
            [_, v] => v.strip_prefix("=>").unwrap_or(v),
            _ => return Err(("expected `Doubles => N`".into(), whole())),
        };
        v.parse()
            .map_err(|_| ("expected a cube value".into(), whole()))
    };
    match toks[0] {
        "Doubles" | "Double" => return Ok(MatAction::Double(cube_value(toks)?)),
        "Beavers" => return Ok(MatAction::Beaver(cube_value(toks)?)),
        "Takes" | "Take" if toks.len() == 1 => return Ok(MatAction::Take),
        "Drops" | "Drop" if toks.len() == 1 => return Ok(MatAction::Drop),
        "Takes" | "Take" | "Drops" | "Drop" => {
            return Err(("unexpected text after the cube action".into(), whole()))
        }
        _ => {}
    }
    let b = toks[0].as_bytes();
    let die = |c: u8| (b'1'..=b'6').contains(&c).then(|| c - b'0');
    let (Some(d1), Some(d2)) = (die(b[0]), die(b[1])) else {
        return Err(("dice must be 1 to 6".into(), toks[0].into()));
    };
    let mut hops = Vec::new();
    // A move glued to the colon (`52:13/8`) is read too.
    let first = &toks[0][3..];
    for tok in std::iter::once(first).chain(toks[1..].iter().copied()) {
        if tok.is_empty() {
            continue;
        }
        parse_move_token(tok, &mut hops).map_err(|p| (p, tok.to_string()))?;
        if hops.len() > 64 {
            return Err(("too many hops".into(), whole()));
        }
    }
    Ok(MatAction::Roll {
        dice: (d1, d2),
        hops,
    })
}

/// One point of a move: a number 0..=25, `bar` or `off`, with an optional `*`.
fn parse_point(text: &str) -> Result<(u8, bool), String> {
    let (p, hit) = match text.strip_suffix('*') {
        Some(p) => (p, true),
        None => (text, false),
    };
    let n = match p.to_ascii_lowercase().as_str() {
        "bar" => 25,
        "off" => 0,
        s if !s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit()) => {
            s.parse().unwrap_or(99)
        }
        _ => return Err("expected a point (0-25, bar or off)".into()),
    };
    if n > 25 {
        return Err("points go from 0 (off) to 25 (bar)".into());
    }
    Ok((n, hit))
}

/// `a/b`, `a/b*`, `a/b/c` chains, `bar/22`, `6/off`, with an optional `(N)` repetition.
fn parse_move_token(tok: &str, hops: &mut Vec<MatHop>) -> Result<(), String> {
    let (body, times) = match tok.strip_suffix(')').and_then(|t| t.rsplit_once('(')) {
        Some((body, n)) => {
            let n: usize = n
                .parse()
                .map_err(|_| "expected a repetition `(N)`".to_string())?;
            if !(1..=4).contains(&n) {
                return Err("a repetition is (1) to (4)".into());
            }
            (body, n)
        }
        None => (tok, 1),
    };
    let parts: Vec<&str> = body.split('/').collect();
    if parts.len() < 2 {
        return Err("expected from/to".into());
    }
    let points = parts
        .iter()
        .map(|p| parse_point(p))
        .collect::<Result<Vec<_>, _>>()?;
    for _ in 0..times {
        for w in points.windows(2) {
            hops.push(MatHop {
                from: w[0].0,
                to: w[1].0,
                hit: w[1].1,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "; [EventDate \"2026.11.22\"]

 7 point match

 Game 1
 gnubg : 0                      root : 0
  1) 52: 13/8 24/22              22: 13/11 13/11 6/4 6/4
  2) 66: 22/16 16/10 13/7 13/7   53: 8/3 6/3 
  3)  Doubles => 2                Takes
  4) 22: 25/23 24/22 22/20* 13/11 61: 25/24 24/18 
  5) 62: 1/0                     32: 
      Wins 2 points

 Game 2
 gnubg : 2                      root : 0
  1)                             21: 13/11 24/23 
  2) 22: 25/23 25/23 25/23 23/21*  Doubles => 2
  3)  Drops                       Wins 1 point 

 Game 3
 gnubg : 2                      root : 1
  1) 31: 8/5 6/5                  Doubles => 2
  2)  Takes                      64: 1/0 1/0 
                                  Wins 2 points

";

    #[test]
    fn gnubg_layout_round_trips() {
        let file = MatchFile::parse(SAMPLE).unwrap();
        assert_eq!(file.tags, ["[EventDate \"2026.11.22\"]"]);
        assert_eq!(file.match_length, 7);
        assert_eq!(file.games.len(), 3);
        let g = &file.games[0];
        assert_eq!(g.turns.len(), 10);
        assert_eq!(
            g.turns[7].action,
            MatAction::Roll {
                dice: (6, 1),
                hops: vec![
                    MatHop {
                        from: 25,
                        to: 24,
                        hit: false
                    },
                    MatHop {
                        from: 24,
                        to: 18,
                        hit: false
                    }
                ]
            }
        );
        assert_eq!(
            g.result,
            Some(MatResult {
                winner: 0,
                points: 2
            })
        );
        assert_eq!(
            g.turns[9].action,
            MatAction::Roll {
                dice: (3, 2),
                hops: vec![]
            }
        );
        let g2 = &file.games[1];
        assert_eq!(g2.turns[0].player, 1);
        assert_eq!(g2.turns.last().unwrap().action, MatAction::Drop);
        assert_eq!(
            g2.result,
            Some(MatResult {
                winner: 1,
                points: 1
            })
        );
        assert_eq!(
            file.games[2].result,
            Some(MatResult {
                winner: 1,
                points: 2
            })
        );
        assert_eq!(file.to_string(), SAMPLE);
    }

    #[test]
    fn tolerant_reader() {
        let text = "; comment\r\n 5 point match\r\n Game 1\r\n # a note\r\n A : 0   B : 0\r\n  1) 31: bar/22* 6/off   64: 24/20/14\r\n  2) 44: 13/9(2) 24/20*(2)\r\n Crawford game\r\n  3)                       11: 25/24\r\n";
        let file = MatchFile::parse(text).unwrap();
        let g = &file.games[0];
        assert_eq!(g.players, ["A".to_string(), "B".to_string()]);
        let hops = |k: usize| match &g.turns[k].action {
            MatAction::Roll { hops, .. } => hops
                .iter()
                .map(|h| (h.from, h.to, h.hit))
                .collect::<Vec<_>>(),
            a => panic!("{a:?}"),
        };
        assert_eq!(hops(0), [(25, 22, true), (6, 0, false)]);
        assert_eq!(hops(1), [(24, 20, false), (20, 14, false)]);
        assert_eq!(
            hops(2),
            [
                (13, 9, false),
                (13, 9, false),
                (24, 20, true),
                (24, 20, true)
            ]
        );
        assert_eq!(g.turns[3].player, 1);
    }

    #[test]
    fn errors_have_line_numbers() {
        for (text, line) in [
            (" 5 point match\n Game 1\n A : 0  B : 0\n  1) 71: 8/5\n", 4),
            (
                " 5 point match\n Game 1\n A : 0  B : 0\n  1) 31: 8/5 6/x\n",
                4,
            ),
            (
                " 5 point match\n Game 1\n A : 0  B : 0\n  1) 31: 8/5 6/26\n",
                4,
            ),
            (
                " 5 point match\n Game 1\n A : 0  B : 0\n  1) 31: 8/5 6/5(9)\n",
                4,
            ),
            (" 5 point match\n Game 1\n A 0 B 0\n", 3),
            (" 5 point match\n  1) 31: 8/5 6/5\n", 2),
            (" x point match\n", 1),
            (" Game 1\n", 1),
            ("", 1),
        ] {
            let e = MatchFile::parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
        }
    }
}
