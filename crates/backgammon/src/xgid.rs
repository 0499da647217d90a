//! eXtreme Gammon's position ID (XGID), both ways, and its conversion to and from gnubg's
//! Position ID + Match ID as gnubg's `set xgid` does it (FORMATS.md §3).
//!
//! ```text
//! XGID=<26 chars>:<cube>:<cubepos>:<turn>:<dice>:<score1>:<score2>:<rules>:<matchlen>:<maxcube>
//! ```
//! The 26 characters are seen from the **bottom** player (gnubg's player 1, "X"): char 0 is the
//! top player's bar, chars 1..24 the points in the bottom player's numbering, char 25 the bottom
//! player's bar; `-` is empty, `A`..`O` 1 to 15 bottom checkers, `a`..`o` top checkers.
//!
//! ```
//! use tablier_backgammon::xgid::{Xgid, XgDice, XgSide};
//! use tablier_backgammon::ids::gnubg_id;
//!
//! let x: Xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:3:0:10".parse().unwrap();
//! assert_eq!((x.turn, x.dice), (XgSide::Bottom, XgDice::Rolled(3, 1)));
//! let (position, match_id) = x.to_gnubg().unwrap();
//! assert_eq!(gnubg_id(&position, &match_id), "4HPwATDgc/ABMA:cIkFAAAAAAAA");
//! assert_eq!(x.to_string(), "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:3:0:10");
//! ```

use std::fmt;
use std::str::FromStr;

use crate::ids::{CubeOwner, GameState, MatchId, ResignationOffer};
use crate::position::{Position, PositionError, BAR, OPP_BAR};

/// A player as XGID names them. gnubg maps the bottom player to its player 1 and the top one to
/// its player 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum XgSide {
    /// The bottom player (upper-case letters; gnubg player 1, "X"); written `1`.
    Bottom,
    /// The top player (lower-case letters; gnubg player 0, "O"); written `-1`.
    Top,
}

impl XgSide {
    /// gnubg's player number: bottom 1, top 0.
    #[must_use]
    pub fn gnubg_player(self) -> u8 {
        match self {
            XgSide::Bottom => 1,
            XgSide::Top => 0,
        }
    }

    /// The side of gnubg's player `p` (1 bottom, anything else top).
    #[must_use]
    pub fn from_gnubg_player(p: u8) -> XgSide {
        if p == 1 {
            XgSide::Bottom
        } else {
            XgSide::Top
        }
    }
}

/// The XGID's dice field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum XgDice {
    /// `00`: the player on turn is to roll (or to decide whether to double).
    ToRoll,
    /// Two digits: the dice rolled, in the order written.
    Rolled(u8, u8),
    /// `D`: a double was offered and must be taken or passed.
    Doubled,
    /// `B`: a beaver was given (XG only; gnubg refuses it).
    Beavered,
    /// `R`: a raccoon was given (XG only; gnubg refuses it).
    Raccooned,
}

/// Every field of an XGID.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Xgid {
    /// The checkers seen from the **bottom** player, whatever the turn: the bottom player's
    /// checkers are this [`Position`]'s "mover" (positive counts, his points 1..24, bar 25),
    /// the top player's its opponent.
    pub board: Position,
    /// Cube value (a power of two; written as its log2).
    pub cube: u32,
    /// Who owns the cube (`None` = centred); written 1 bottom, -1 top, 0 centred.
    pub cube_owner: Option<XgSide>,
    /// The player on turn.
    pub turn: XgSide,
    /// Dice, or a cube decision.
    pub dice: XgDice,
    /// The bottom player's score (`score1`).
    pub score_bottom: u16,
    /// The top player's score (`score2`).
    pub score_top: u16,
    /// Match play: this is the Crawford game (`rules` = 1).
    pub crawford: bool,
    /// Money: the Jacoby rule (`rules` bit 0).
    pub jacoby: bool,
    /// Money: beavers allowed (`rules` bit 1).
    pub beaver: bool,
    /// Match length, 0 for money.
    pub match_length: u16,
    /// log2 of the cube limit (10 usually; gnubg reads 0 as cubeless).
    pub max_cube_log2: u8,
}

/// Why an XGID was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum XgidError {
    /// Not `XGID=` + 26 characters + 9 `:`-separated fields.
    #[error("an XGID is `XGID=<26 chars>:cube:cubepos:turn:dice:score1:score2:rules:matchlen:maxcube`, got {0} fields after the position")]
    Fields(usize),
    /// The position is not 26 characters.
    #[error("the XGID position has 26 characters, not {0}")]
    PositionLength(usize),
    /// A position character that is not `-`, `A`..`O` or `a`..`o`, or a bottom checker on the
    /// top player's bar (char 0) or the reverse (char 25).
    #[error("XGID position character {0:?} at index {1} is not allowed there")]
    PositionChar(char, usize),
    /// The checkers do not make a position.
    #[error("XGID position: {0}")]
    Position(#[from] PositionError),
    /// A numeric field is out of range or not a number.
    #[error("XGID field {field} = {value:?}: {problem}")]
    Field {
        /// The field's name.
        field: &'static str,
        /// The text found.
        value: String,
        /// What it should be.
        problem: &'static str,
    },
    /// gnubg refuses beaver/raccoon states (`B`, `R`).
    #[error("gnubg cannot represent an XGID with a beaver or raccoon pending (dice field B/R)")]
    BeaverPending,
}

fn bad(field: &'static str, value: &str, problem: &'static str) -> XgidError {
    XgidError::Field {
        field,
        value: value.to_string(),
        problem,
    }
}

fn number<T: FromStr>(
    field: &'static str,
    text: &str,
    problem: &'static str,
) -> Result<T, XgidError> {
    if text.is_empty() || text.len() > 6 {
        return Err(bad(field, text, problem));
    }
    text.parse().map_err(|_| bad(field, text, problem))
}

impl Xgid {
    /// Reads an XGID (the `XGID=` prefix is optional; surrounding blanks are ignored).
    ///
    /// # Errors
    /// [`XgidError`] naming the first wrong field. In match play the scores must be below the
    /// match length and `rules` 0 or 1; in money `rules` is 0..=3.
    pub fn parse(text: &str) -> Result<Xgid, XgidError> {
        let text = text.trim();
        let text = text.strip_prefix("XGID=").unwrap_or(text);
        let parts: Vec<&str> = text.split(':').collect();
        if parts.len() != 10 {
            return Err(XgidError::Fields(parts.len().saturating_sub(1)));
        }
        let board = parse_board(parts[0])?;
        let cube_log2: u8 = number("cube", parts[1], "log2 of the cube, 0 to 15")?;
        if cube_log2 > 15 {
            return Err(bad("cube", parts[1], "log2 of the cube, 0 to 15"));
        }
        let cube_owner = match parts[2] {
            "0" => None,
            "1" => Some(XgSide::Bottom),
            "-1" => Some(XgSide::Top),
            v => return Err(bad("cubepos", v, "0 (centred), 1 (bottom) or -1 (top)")),
        };
        let turn = match parts[3] {
            "1" => XgSide::Bottom,
            "-1" => XgSide::Top,
            v => return Err(bad("turn", v, "1 (bottom) or -1 (top)")),
        };
        let dice = match parts[4] {
            "00" => XgDice::ToRoll,
            "D" => XgDice::Doubled,
            "B" => XgDice::Beavered,
            "R" => XgDice::Raccooned,
            v => match v.as_bytes() {
                [a @ b'1'..=b'6', b @ b'1'..=b'6'] => XgDice::Rolled(a - b'0', b - b'0'),
                _ => return Err(bad("dice", v, "00, D, B, R or two dice 1-6")),
            },
        };
        let score_bottom: u16 = number("score1", parts[5], "a score from 0 to 32767")?;
        let score_top: u16 = number("score2", parts[6], "a score from 0 to 32767")?;
        let rules: u8 = number("rules", parts[7], "0 to 3")?;
        let match_length: u16 = number("matchlen", parts[8], "a match length from 0 to 32767")?;
        let max_cube_log2: u8 = number("maxcube", parts[9], "log2 of the cube limit, 0 to 15")?;
        if max_cube_log2 > 15 {
            return Err(bad("maxcube", parts[9], "log2 of the cube limit, 0 to 15"));
        }
        if match_length > 32767 || score_bottom > 32767 || score_top > 32767 {
            return Err(bad("matchlen", parts[8], "numbers up to 32767"));
        }
        let (crawford, jacoby, beaver) = if match_length > 0 {
            if score_bottom >= match_length {
                return Err(bad("score1", parts[5], "below the match length"));
            }
            if score_top >= match_length {
                return Err(bad("score2", parts[6], "below the match length"));
            }
            if rules > 1 {
                return Err(bad(
                    "rules",
                    parts[7],
                    "0 or 1 (Crawford game) in match play",
                ));
            }
            (rules == 1, false, false)
        } else {
            if rules > 3 {
                return Err(bad(
                    "rules",
                    parts[7],
                    "0 to 3 (bit 0 Jacoby, bit 1 beaver) in money play",
                ));
            }
            (false, rules & 1 == 1, rules & 2 == 2)
        };
        Ok(Xgid {
            board,
            cube: 1 << cube_log2,
            cube_owner,
            turn,
            dice,
            score_bottom,
            score_top,
            crawford,
            jacoby,
            beaver,
            match_length,
            max_cube_log2,
        })
    }

    /// The position seen from the player on turn, as gnubg's Position ID encodes it.
    #[must_use]
    pub fn position_on_turn(&self) -> Position {
        match self.turn {
            XgSide::Bottom => self.board,
            XgSide::Top => self.board.flip(),
        }
    }

    /// What gnubg's `set xgid` makes of this XGID: the position seen from the player on turn,
    /// and the Match ID, following gnubg 1.07/1.1 (checked by `tests/ids_gnubg.rs`):
    /// bottom = player 1; the dice are stored higher first; `D` "steps back to the offering of
    /// the cube" (no pending double, the player on turn to roll, the cube as written); money
    /// scores are dropped; the Crawford flag is set only when `rules` = 1 in a match longer
    /// than one point with a player one point away, and then the cube value becomes 1 (its
    /// owner is kept); the cube limit and the beaver option are not in a Match ID.
    ///
    /// # Errors
    /// [`XgidError::BeaverPending`] for the dice fields `B` and `R`, which gnubg refuses.
    pub fn to_gnubg(&self) -> Result<(Position, MatchId), XgidError> {
        let player = self.turn.gnubg_player();
        let dice = match self.dice {
            XgDice::ToRoll | XgDice::Doubled => None,
            XgDice::Rolled(a, b) => Some((a.max(b), a.min(b))),
            XgDice::Beavered | XgDice::Raccooned => return Err(XgidError::BeaverPending),
        };
        let ml = self.match_length;
        let crawford =
            ml > 1 && self.crawford && (self.score_bottom == ml - 1 || self.score_top == ml - 1);
        let id = MatchId {
            cube: if crawford { 1 } else { self.cube },
            cube_owner: match self.cube_owner {
                None => CubeOwner::Centred,
                Some(side) => CubeOwner::Player(side.gnubg_player()),
            },
            on_roll: player,
            crawford,
            game_state: GameState::Playing,
            turn: player,
            double_offered: false,
            resignation: ResignationOffer::None,
            dice,
            match_length: ml,
            score: if ml > 0 {
                [self.score_top, self.score_bottom]
            } else {
                [0, 0]
            },
            jacoby: ml == 0 && self.jacoby,
        };
        Ok((self.position_on_turn(), id))
    }

    /// The XGID of a gnubg position (seen from `match_id.on_roll`) and Match ID: the inverse of
    /// [`Xgid::to_gnubg`] for the states gnubg reads from an XGID. A pending double is written
    /// `D` with the doubler (`on_roll`) on turn; a pending resignation is not representable and
    /// is left out; beavers off and the cube limit 2^10 (change the fields if needed).
    #[must_use]
    pub fn from_gnubg(position: &Position, match_id: &MatchId) -> Xgid {
        let turn = XgSide::from_gnubg_player(match_id.on_roll);
        let board = match turn {
            XgSide::Bottom => *position,
            XgSide::Top => position.flip(),
        };
        let dice = if match_id.double_offered {
            XgDice::Doubled
        } else {
            match match_id.dice {
                Some((a, b)) => XgDice::Rolled(a, b),
                None => XgDice::ToRoll,
            }
        };
        Xgid {
            board,
            cube: match_id.cube,
            cube_owner: match match_id.cube_owner {
                CubeOwner::Centred => None,
                CubeOwner::Player(p) => Some(XgSide::from_gnubg_player(p)),
            },
            turn,
            dice,
            score_bottom: match_id.score[1],
            score_top: match_id.score[0],
            crawford: match_id.crawford,
            jacoby: match_id.jacoby,
            beaver: false,
            match_length: match_id.match_length,
            max_cube_log2: 10,
        }
    }

    /// The `rules` field: Crawford flag in match play, Jacoby + 2 × beaver in money play.
    #[must_use]
    pub fn rules(&self) -> u8 {
        if self.match_length > 0 {
            u8::from(self.crawford)
        } else {
            u8::from(self.jacoby) | u8::from(self.beaver) << 1
        }
    }
}

fn parse_board(text: &str) -> Result<Position, XgidError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 26 {
        return Err(XgidError::PositionLength(chars.len()));
    }
    let mut bottom = [0u8; 25];
    let mut top = [0u8; 25];
    for (i, &c) in chars.iter().enumerate() {
        let (upper, n) = match c {
            '-' => continue,
            'A'..='O' => (true, c as u8 - b'A' + 1),
            'a'..='o' => (false, c as u8 - b'a' + 1),
            _ => return Err(XgidError::PositionChar(c, i)),
        };
        match (i, upper) {
            (0, false) => top[24] = n,
            (25, true) => bottom[24] = n,
            (0, true) | (25, false) => return Err(XgidError::PositionChar(c, i)),
            (_, true) => bottom[i - 1] = n,
            (_, false) => top[24 - i] = n,
        }
    }
    Ok(Position::from_sides(&bottom, &top)?)
}

fn letter(n: i8, upper: bool) -> char {
    let base = if upper { b'A' } else { b'a' };
    (base + (n.unsigned_abs() - 1)) as char
}

impl fmt::Display for Xgid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("XGID=")?;
        let b = &self.board;
        for i in 0..26 {
            let v = match i {
                0 => b.raw(OPP_BAR),
                25 => b.raw(BAR),
                _ => b.raw(i),
            };
            if v == 0 {
                f.write_str("-")?;
            } else {
                write!(f, "{}", letter(v, v > 0))?;
            }
        }
        let cubepos = match self.cube_owner {
            None => "0",
            Some(XgSide::Bottom) => "1",
            Some(XgSide::Top) => "-1",
        };
        let turn = match self.turn {
            XgSide::Bottom => "1",
            XgSide::Top => "-1",
        };
        let dice = match self.dice {
            XgDice::ToRoll => "00".to_string(),
            XgDice::Rolled(a, b) => format!("{a}{b}"),
            XgDice::Doubled => "D".to_string(),
            XgDice::Beavered => "B".to_string(),
            XgDice::Raccooned => "R".to_string(),
        };
        write!(
            f,
            ":{}:{cubepos}:{turn}:{dice}:{}:{}:{}:{}:{}",
            self.cube.trailing_zeros(),
            self.score_bottom,
            self.score_top,
            self.rules(),
            self.match_length,
            self.max_cube_log2
        )
    }
}

impl FromStr for Xgid {
    type Err = XgidError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Xgid::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{gnubg_id, parse_gnubg_id};

    fn check(xgid: &str, gnubg: &str) {
        let x = Xgid::parse(xgid).unwrap();
        assert_eq!(x.to_string(), xgid);
        let (p, m) = x.to_gnubg().unwrap();
        assert_eq!(gnubg_id(&p, &m), gnubg, "{xgid}");
        let (p2, m2) = parse_gnubg_id(gnubg).unwrap();
        let mut back = Xgid::from_gnubg(&p2, &m2);
        back.beaver = x.beaver;
        back.max_cube_log2 = x.max_cube_log2;
        assert_eq!(back, x);
    }

    #[test]
    fn documented_opening() {
        check(
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:3:0:10",
            "4HPwATDgc/ABMA:cIkFAAAAAAAA",
        );
    }

    #[test]
    fn documented_bar() {
        check(
            "XGID=-b----E-C---eE---b-db---AA:0:0:1:00:0:0:3:0:10",
            "sGfwATDgc/ABUA:cAkAAAAAAAAA",
        );
    }

    #[test]
    fn documented_race_in_a_match() {
        check(
            "XGID=-CCCBBB------------cccbbb-:0:0:1:00:3:5:0:7:10",
            "2+4OAAB3tw0AAA:cAngAFAAGAAE",
        );
    }

    #[test]
    fn pending_double_steps_back_like_gnubg() {
        let x = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:1:-1:1:D:4:2:0:7:10").unwrap();
        let (p, m) = x.to_gnubg().unwrap();
        assert_eq!(gnubg_id(&p, &m), "4HPwATDgc/ABMA:QQngACAAIAAE");
    }

    #[test]
    fn top_on_turn_flips_the_position() {
        let x = Xgid::parse("XGID=-b----E-C---eE---b-db---AA:0:0:-1:00:0:0:0:0:10").unwrap();
        let (p, m) = x.to_gnubg().unwrap();
        assert_eq!(p, x.board.flip());
        assert_eq!((m.on_roll, m.jacoby), (0, false));
    }

    #[test]
    fn crawford_disables_the_cube_like_gnubg() {
        let x = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:1:1:1:31:6:3:1:7:10").unwrap();
        let (_, m) = x.to_gnubg().unwrap();
        assert_eq!(m.encode(), "0InlADAAMAAE");
        let x = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:3:5:1:7:10").unwrap();
        assert_eq!(x.to_gnubg().unwrap().1.encode(), "cInlAFAAGAAE");
    }

    #[test]
    fn bad_xgids_are_refused() {
        let good = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:3:0:10";
        assert!(Xgid::parse(good).is_ok());
        assert!(Xgid::parse(&good[5..]).is_ok());
        for (text, want) in [
            ("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:3:0", "fields"),
            (
                "XGID=-b----E-C---eE---c-e----B:0:0:1:31:0:0:3:0:10",
                "26 characters",
            ),
            ("XGID=-b----E-C---eE---c-e----B*:0:0:1:31:0:0:3:0:10", "'*'"),
            ("XGID=Bb----E-C---eE---c-e------:0:0:1:31:0:0:3:0:10", "'B'"),
            ("XGID=-b----E-C---eE---c-e----BP:0:0:1:31:0:0:3:0:10", "'P'"),
            (
                "XGID=-b----E-C---eE---c-e----BA:0:0:1:31:0:0:3:0:10",
                "16 checkers",
            ),
            (
                "XGID=-b----E-C---eE---c-e----B-:x:0:1:31:0:0:3:0:10",
                "cube",
            ),
            (
                "XGID=-b----E-C---eE---c-e----B-:0:2:1:31:0:0:3:0:10",
                "cubepos",
            ),
            (
                "XGID=-b----E-C---eE---c-e----B-:0:0:0:31:0:0:3:0:10",
                "turn",
            ),
            (
                "XGID=-b----E-C---eE---c-e----B-:0:0:1:71:0:0:3:0:10",
                "dice",
            ),
            (
                "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:7:0:0:7:10",
                "score1",
            ),
            (
                "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:2:7:10",
                "rules",
            ),
            (
                "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:4:0:10",
                "rules",
            ),
        ] {
            let e = Xgid::parse(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
        let b = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:3:0:10").unwrap();
        assert_eq!(b.to_gnubg(), Err(XgidError::BeaverPending));
    }
}
