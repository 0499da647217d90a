//! gnubg's Position ID, Match ID and GNUbgID (`PositionID:MatchID`), both ways.
//!
//! Written from the technical description in gnubg's manual and FORMATS.md §1–§2 (no gnubg code).
//!
//! # Player numbering
//! gnubg numbers the two players 0 and 1: **player 1 is the bottom player ("X", the human in
//! gnubg's GUI)** and **player 0 the top player ("O", gnubg itself)**. The Match ID's fields
//! (cube owner, player on roll, player to act, scores) use these numbers; XGID's "bottom" is
//! player 1 (see [`crate::xgid`]). A Position ID carries no player number: it is always seen
//! from the player on roll (the Match ID's [`MatchId::on_roll`]).
//!
//! ```
//! use tablier_backgammon::ids::{CubeOwner, GameState, MatchId};
//! use tablier_backgammon::Position;
//!
//! assert_eq!(Position::start().position_id(), "4HPwATDgc/ABMA");
//! let id = MatchId::decode("QYkqASAAIAAE").unwrap(); // the manual's example
//! assert_eq!((id.match_length, id.score), (9, [2, 4]));
//! assert_eq!((id.cube, id.cube_owner), (2, CubeOwner::Player(0)));
//! assert_eq!((id.on_roll, id.dice, id.game_state), (1, Some((5, 2)), GameState::Playing));
//! assert_eq!(id.encode(), "QYkqASAAIAAE");
//! ```

use crate::position::{Position, PositionError, CHECKERS};

/// Why a Position ID, Match ID or GNUbgID was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    /// The ID has the wrong number of characters.
    #[error("a {what} has {expected} characters, not {found}")]
    Length {
        /// "Position ID" or "Match ID".
        what: &'static str,
        /// The length required.
        expected: usize,
        /// The length given.
        found: usize,
    },
    /// A character outside the Base64 alphabet (`A-Z a-z 0-9 + /`).
    #[error("character {0:?} at position {1} is not Base64 (A-Z a-z 0-9 + /)")]
    Character(char, usize),
    /// The Position ID's bit string describes more than 2 × 25 slots, or fewer, or has bits
    /// set after its end.
    #[error("the Position ID's bit string is malformed: {0}")]
    BitString(&'static str),
    /// A side has more than fifteen checkers (`player` is "player on roll" or "opponent").
    #[error("the {player} has {count} checkers (at most 15)")]
    TooManyCheckers {
        /// Which side.
        player: &'static str,
        /// How many checkers the ID gives it.
        count: u32,
    },
    /// Both sides have checkers on one point (numbered from the player on roll).
    #[error("both sides have checkers on the point {0} of the player on roll")]
    SharedPoint(usize),
    /// A Match ID field holds a value it cannot have.
    #[error("Match ID field {field}: {problem}")]
    Field {
        /// The field's name (FORMATS.md §2).
        field: &'static str,
        /// What is wrong with it.
        problem: String,
    },
    /// A GNUbgID is not `PositionID:MatchID`.
    #[error("a GNUbgID is `PositionID:MatchID` (14 + 1 + 12 characters), got {0:?}")]
    GnubgId(String),
}

impl From<PositionError> for IdError {
    fn from(e: PositionError) -> Self {
        match e {
            PositionError::TooManyCheckers(player, count) => {
                IdError::TooManyCheckers { player, count }
            }
            PositionError::SharedPoint(p) => IdError::SharedPoint(p),
        }
    }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Base64 (RFC 2045 alphabet) of `bytes`, without `=` padding.
fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

/// The 6-bit values of a Base64 string (no padding accepted).
fn base64_values(text: &str) -> Result<Vec<u8>, IdError> {
    text.chars()
        .enumerate()
        .map(|(i, c)| {
            let v = match c {
                'A'..='Z' => c as u8 - b'A',
                'a'..='z' => c as u8 - b'a' + 26,
                '0'..='9' => c as u8 - b'0' + 52,
                '+' => 62,
                '/' => 63,
                _ => return Err(IdError::Character(c, i)),
            };
            Ok(v)
        })
        .collect()
}

/// Decodes `text` of exactly `len` Base64 characters into `bytes` bytes; the bits past the last
/// byte must be zero.
fn base64_decode(
    text: &str,
    what: &'static str,
    len: usize,
    bytes: usize,
) -> Result<Vec<u8>, IdError> {
    let found = text.chars().count();
    if found != len {
        return Err(IdError::Length {
            what,
            expected: len,
            found,
        });
    }
    let values = base64_values(text)?;
    let mut out = vec![0u8; bytes];
    let mut acc: u32 = 0;
    let mut nbits = 0;
    let mut k = 0;
    for v in values {
        acc = (acc << 6) | u32::from(v);
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            out[k] = (acc >> nbits) as u8;
            k += 1;
            acc &= (1 << nbits) - 1;
        }
    }
    if acc != 0 {
        return Err(IdError::BitString(
            "the unused bits of the last character are not zero",
        ));
    }
    Ok(out)
}

impl Position {
    /// The 10-byte Position key (FORMATS.md §1): for the opponent then the player on roll, one
    /// `1` bit per checker on each of his 25 slots (his points 1..24, then his bar) followed by
    /// a `0`; bits packed least significant first.
    #[must_use]
    pub fn position_key(&self) -> [u8; 10] {
        let (mover, opponent) = self.to_sides();
        let mut key = [0u8; 10];
        let mut bit = 0usize;
        for side in [&opponent, &mover] {
            for &n in side.iter() {
                for _ in 0..n {
                    // A position has at most 30 checkers: 30 ones + 50 zeros = 80 bits.
                    if bit < 80 {
                        key[bit / 8] |= 1 << (bit % 8);
                    }
                    bit += 1;
                }
                bit += 1;
            }
        }
        key
    }

    /// gnubg's 14-character Position ID, seen from the player on roll.
    ///
    /// ```
    /// use tablier_backgammon::Position;
    /// assert_eq!(Position::start().position_id(), "4HPwATDgc/ABMA");
    /// ```
    #[must_use]
    pub fn position_id(&self) -> String {
        base64_encode(&self.position_key())
    }

    /// Reads a gnubg Position ID (exactly 14 Base64 characters).
    ///
    /// # Errors
    /// [`IdError`] for a wrong length or character, a bit string that does not describe exactly
    /// 2 × 25 slots within 80 bits, a side with more than fifteen checkers, or both sides on one
    /// point.
    ///
    /// ```
    /// use tablier_backgammon::{ids::IdError, Position};
    /// assert_eq!(Position::from_position_id("4HPwATDgc/ABMA"), Ok(Position::start()));
    /// assert!(matches!(Position::from_position_id("4HPwATDgc/AB"), Err(IdError::Length { .. })));
    /// ```
    pub fn from_position_id(id: &str) -> Result<Position, IdError> {
        let key = base64_decode(id, "Position ID", 14, 10)?;
        let mut sides = [[0u8; 25]; 2]; // [opponent, mover]
        let (mut side, mut slot) = (0usize, 0usize);
        let mut counts = [0u32; 2];
        for bit in 0..80 {
            let set = key[bit / 8] >> (bit % 8) & 1 == 1;
            if side == 2 {
                if set {
                    return Err(IdError::BitString("checkers after the last slot"));
                }
                continue;
            }
            if set {
                counts[side] += 1;
                if counts[side] > u32::from(CHECKERS) {
                    return Err(IdError::TooManyCheckers {
                        player: if side == 0 {
                            "opponent"
                        } else {
                            "player on roll"
                        },
                        count: counts[side],
                    });
                }
                sides[side][slot] += 1;
            } else {
                slot += 1;
                if slot == 25 {
                    side += 1;
                    slot = 0;
                }
            }
        }
        if side < 2 {
            return Err(IdError::BitString("fewer than 2 × 25 slots in 80 bits"));
        }
        Ok(Position::from_sides(&sides[1], &sides[0])?)
    }
}

/// Who owns the cube, in gnubg's player numbers (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum CubeOwner {
    /// Nobody: either player may double.
    Centred,
    /// gnubg player 0 (top, "O") or 1 (bottom, "X").
    Player(u8),
}

/// The Match ID's game state (3 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum GameState {
    /// No game started (0).
    NoGame,
    /// A game is being played (1).
    Playing,
    /// The game is over (2).
    Over,
    /// The game ended by a resignation (3).
    Resigned,
    /// The game ended by a dropped double (4).
    Dropped,
}

/// A resignation on offer (2 bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ResignationOffer {
    /// None (0).
    None,
    /// A single game (1).
    Single,
    /// A gammon (2).
    Gammon,
    /// A backgammon (3).
    Backgammon,
}

/// Every field of gnubg's Match ID (FORMATS.md §2). Players are gnubg's numbers: 1 = bottom
/// ("X"), 0 = top ("O").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct MatchId {
    /// Cube value: a power of two from 1 to 2^15.
    pub cube: u32,
    /// Who owns the cube.
    pub cube_owner: CubeOwner,
    /// The player on roll, who owns the dice (gnubg's `fMove`): the Position ID is seen from
    /// him, even while a double he made is pending.
    pub on_roll: u8,
    /// True when this is the Crawford game.
    pub crawford: bool,
    /// Game state.
    pub game_state: GameState,
    /// The player who must act now (gnubg's `fTurn`): differs from `on_roll` while a double or
    /// a resignation waits for an answer.
    pub turn: u8,
    /// A double waits for an answer.
    pub double_offered: bool,
    /// A resignation waits for an answer.
    pub resignation: ResignationOffer,
    /// The dice rolled, or `None` before the roll. gnubg writes the higher die first; both
    /// orders are read.
    pub dice: Option<(u8, u8)>,
    /// Match length, 0 for a money game (at most 32767).
    pub match_length: u16,
    /// Scores of gnubg player 0 and player 1 (points won so far in a money session).
    pub score: [u16; 2],
    /// Money game with the Jacoby rule (always false in match play).
    pub jacoby: bool,
}

impl Default for MatchId {
    /// A money game with the Jacoby rule, cube 1 centred, player 1 on roll, before the roll
    /// (`cAkAAAAAAAAA`).
    fn default() -> Self {
        MatchId {
            cube: 1,
            cube_owner: CubeOwner::Centred,
            on_roll: 1,
            crawford: false,
            game_state: GameState::Playing,
            turn: 1,
            double_offered: false,
            resignation: ResignationOffer::None,
            dice: None,
            match_length: 0,
            score: [0, 0],
            jacoby: true,
        }
    }
}

fn field(field: &'static str, problem: impl Into<String>) -> IdError {
    IdError::Field {
        field,
        problem: problem.into(),
    }
}

impl MatchId {
    /// Checks every field: the cube is a power of two up to 2^15, players are 0 or 1, dice are
    /// 1..=6, 15-bit numbers fit, and in match play the scores are below the match length and
    /// Jacoby is off (unless the game is over: gnubg's ID of a finished match shows the last
    /// game's points in full); a money game has no Crawford game. (Like gnubg, the Crawford flag is not
    /// checked against the score: gnubg's `set xgid` sets it at any score.)
    ///
    /// # Errors
    /// [`IdError::Field`] naming the first wrong field.
    pub fn validate(&self) -> Result<(), IdError> {
        if !self.cube.is_power_of_two() || self.cube > 1 << 15 {
            return Err(field(
                "cube",
                format!("{} is not a power of two from 1 to 32768", self.cube),
            ));
        }
        if let CubeOwner::Player(p) = self.cube_owner {
            if p > 1 {
                return Err(field("cube owner", format!("player {p} (0 or 1)")));
            }
        }
        if self.on_roll > 1 {
            return Err(field(
                "player on roll",
                format!("{} (0 or 1)", self.on_roll),
            ));
        }
        if self.turn > 1 {
            return Err(field("turn", format!("{} (0 or 1)", self.turn)));
        }
        if let Some((a, b)) = self.dice {
            if !(1..=6).contains(&a) || !(1..=6).contains(&b) {
                return Err(field("dice", format!("{a}-{b} (each from 1 to 6)")));
            }
        }
        let max = (1 << 15) - 1;
        if self.match_length > max || self.score.iter().any(|&s| s > max) {
            return Err(field("match length/score", "above 32767"));
        }
        let over = matches!(
            self.game_state,
            GameState::Over | GameState::Resigned | GameState::Dropped
        );
        if self.match_length > 0 {
            let ml = self.match_length;
            for (p, &s) in self.score.iter().enumerate() {
                // Once the match is over gnubg keeps the whole of the last game's points, so
                // a score can reach or pass the length (a 4-3 game of 5 won with a gammon of
                // 4 is `4-7`).
                if s >= ml && !over {
                    return Err(field(
                        "score",
                        format!("player {p} has {s} in a {ml}-point match (must be below {ml})"),
                    ));
                }
            }
            if self.jacoby {
                return Err(field("jacoby", "the Jacoby rule is for money games only"));
            }
        } else if self.crawford {
            return Err(field("crawford", "a money game has no Crawford game"));
        }
        Ok(())
    }

    /// The 9-byte Match key (72 bits, fields packed least significant first).
    ///
    /// # Errors
    /// As [`MatchId::validate`].
    pub fn key(&self) -> Result<[u8; 9], IdError> {
        self.validate()?;
        let (d1, d2) = self.dice.unwrap_or((0, 0));
        let fields: [(u128, u32); 14] = [
            (u128::from(self.cube.trailing_zeros()), 4),
            (
                match self.cube_owner {
                    CubeOwner::Centred => 3,
                    CubeOwner::Player(p) => u128::from(p),
                },
                2,
            ),
            (u128::from(self.on_roll), 1),
            (u128::from(self.crawford), 1),
            (self.game_state as u128, 3),
            (u128::from(self.turn), 1),
            (u128::from(self.double_offered), 1),
            (self.resignation as u128, 2),
            (u128::from(d1), 3),
            (u128::from(d2), 3),
            (u128::from(self.match_length), 15),
            (u128::from(self.score[0]), 15),
            (u128::from(self.score[1]), 15),
            (u128::from(!(self.jacoby && self.match_length == 0)), 1),
        ];
        let mut x: u128 = 0;
        let mut shift = 0;
        for (v, w) in fields {
            x |= v << shift;
            shift += w;
        }
        let mut key = [0u8; 9];
        key.copy_from_slice(&x.to_le_bytes()[..9]);
        Ok(key)
    }

    /// The 12-character Match ID, or the reason the fields cannot be one.
    ///
    /// # Errors
    /// As [`MatchId::validate`].
    pub fn try_encode(&self) -> Result<String, IdError> {
        Ok(base64_encode(&self.key()?))
    }

    /// The 12-character Match ID.
    ///
    /// # Panics
    /// If [`MatchId::validate`] refuses the fields (use [`MatchId::try_encode`] to get the
    /// error instead).
    #[must_use]
    pub fn encode(&self) -> String {
        self.try_encode()
            .unwrap_or_else(|e| panic!("cannot encode {self:?} as a Match ID: {e}"))
    }

    /// Reads a 12-character Match ID.
    ///
    /// Accepts what gnubg accepts, including the manual's older IDs whose "no Jacoby" bit 66 is
    /// clear in match play (read as Jacoby off, so they re-encode with the bit set).
    ///
    /// # Errors
    /// [`IdError`] for a wrong length or character, a cube owner of 2, a game state above 4, a
    /// die of 7 or a single die, non-zero unused bits 67–71, or what [`MatchId::validate`]
    /// refuses.
    pub fn decode(id: &str) -> Result<MatchId, IdError> {
        let bytes = base64_decode(id, "Match ID", 12, 9)?;
        let mut le = [0u8; 16];
        le[..9].copy_from_slice(&bytes);
        let mut x = u128::from_le_bytes(le);
        let mut take = |w: u32| {
            let v = (x & ((1 << w) - 1)) as u32;
            x >>= w;
            v
        };
        let cube_log2 = take(4);
        let owner = take(2);
        let on_roll = take(1) as u8;
        let crawford = take(1) == 1;
        let state = take(3);
        let turn = take(1) as u8;
        let double_offered = take(1) == 1;
        let resign = take(2);
        let d1 = take(3) as u8;
        let d2 = take(3) as u8;
        let match_length = take(15) as u16;
        let score = [take(15) as u16, take(15) as u16];
        let no_jacoby = take(1) == 1;
        if take(5) != 0 {
            return Err(field("unused bits 67-71", "not zero"));
        }
        let cube_owner = match owner {
            0 | 1 => CubeOwner::Player(owner as u8),
            3 => CubeOwner::Centred,
            _ => return Err(field("cube owner", "2 (0, 1 or 3 = centred)")),
        };
        let game_state = match state {
            0 => GameState::NoGame,
            1 => GameState::Playing,
            2 => GameState::Over,
            3 => GameState::Resigned,
            4 => GameState::Dropped,
            _ => return Err(field("game state", format!("{state} (0 to 4)"))),
        };
        let resignation = match resign {
            0 => ResignationOffer::None,
            1 => ResignationOffer::Single,
            2 => ResignationOffer::Gammon,
            _ => ResignationOffer::Backgammon,
        };
        let dice = match (d1, d2) {
            (0, 0) => None,
            (a, b) if (1..=6).contains(&a) && (1..=6).contains(&b) => Some((a, b)),
            (a, b) => return Err(field("dice", format!("{a}-{b} (0-0, or 1 to 6 each)"))),
        };
        let id = MatchId {
            cube: 1 << cube_log2,
            cube_owner,
            on_roll,
            crawford,
            game_state,
            turn,
            double_offered,
            resignation,
            dice,
            match_length,
            score,
            jacoby: match_length == 0 && !no_jacoby,
        };
        id.validate()?;
        Ok(id)
    }
}

/// The GNUbgID `PositionID:MatchID` that gnubg's `gnubgid` shows and `set gnubgid` reads.
/// `position` is seen from `match_id.on_roll`.
///
/// # Panics
/// If the Match ID's fields are invalid (see [`MatchId::encode`]).
///
/// ```
/// use tablier_backgammon::{ids::{gnubg_id, MatchId}, Position};
/// assert_eq!(gnubg_id(&Position::start(), &MatchId::default()), "4HPwATDgc/ABMA:cAkAAAAAAAAA");
/// ```
#[must_use]
pub fn gnubg_id(position: &Position, match_id: &MatchId) -> String {
    format!("{}:{}", position.position_id(), match_id.encode())
}

/// Reads a GNUbgID `PositionID:MatchID` (surrounding blanks are ignored).
///
/// # Errors
/// [`IdError::GnubgId`] if there is no single `:`; otherwise as
/// [`Position::from_position_id`] and [`MatchId::decode`].
pub fn parse_gnubg_id(text: &str) -> Result<(Position, MatchId), IdError> {
    let text = text.trim();
    let Some((p, m)) = text.split_once(':') else {
        return Err(IdError::GnubgId(text.to_string()));
    };
    if m.contains(':') {
        return Err(IdError::GnubgId(text.to_string()));
    }
    Ok((Position::from_position_id(p)?, MatchId::decode(m)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sides(mover: &[(usize, u8)], opp: &[(usize, u8)]) -> Position {
        let mut m = [0u8; 25];
        let mut o = [0u8; 25];
        for &(p, n) in mover {
            m[p - 1] = n;
        }
        for &(p, n) in opp {
            o[p - 1] = n;
        }
        Position::from_sides(&m, &o).unwrap()
    }

    #[test]
    fn start_position_id_and_key() {
        let start = Position::start();
        assert_eq!(
            start.position_key(),
            [0xE0, 0x73, 0xF0, 0x01, 0x30, 0xE0, 0x73, 0xF0, 0x01, 0x30]
        );
        assert_eq!(start.position_id(), "4HPwATDgc/ABMA");
        assert_eq!(Position::from_position_id("4HPwATDgc/ABMA"), Ok(start));
    }

    #[test]
    fn documented_position_vectors() {
        // After 31 played 8/5 6/5, the opponent on roll.
        let after = sides(
            &[(6, 5), (8, 3), (13, 5), (24, 2)],
            &[(5, 2), (6, 4), (8, 2), (13, 5), (24, 2)],
        );
        assert_eq!(
            after.position_key(),
            [0xb0, 0x67, 0xf0, 0x01, 0x30, 0xe0, 0x73, 0xf0, 0x01, 0x30]
        );
        assert_eq!(after.position_id(), "sGfwATDgc/ABMA");
        // The same, but the player on roll has one checker on the bar and one on his 24-point.
        let bar = sides(
            &[(6, 5), (8, 3), (13, 5), (24, 1), (25, 1)],
            &[(5, 2), (6, 4), (8, 2), (13, 5), (24, 2)],
        );
        assert_eq!(bar.position_id(), "sGfwATDgc/ABUA");
        assert_eq!(Position::from_position_id("sGfwATDgc/ABUA"), Ok(bar));
        assert_eq!(Position::from_position_id("sGfwATDgc/ABMA"), Ok(after));
    }

    #[test]
    fn bad_position_ids_are_refused() {
        assert!(matches!(
            Position::from_position_id("4HPwATDgc/ABMAA"),
            Err(IdError::Length { found: 15, .. })
        ));
        assert_eq!(
            Position::from_position_id("4HPwATDgc/AB=A"),
            Err(IdError::Character('=', 12))
        );
        assert!(matches!(
            Position::from_position_id("4HPwATDgc/ABMB"),
            Err(IdError::BitString(_))
        ));
        // All ones: sixteen checkers on the opponent's 1-point.
        assert!(matches!(
            Position::from_position_id("//////////////"),
            Err(IdError::BitString(_)) | Err(IdError::TooManyCheckers { .. })
        ));
        // 16 checkers for the opponent: 16 ones then 49 zeros.
        let mut key = [0u8; 10];
        key[0] = 0xff;
        key[1] = 0xff;
        assert_eq!(
            Position::from_position_id(&base64_encode(&key)),
            Err(IdError::TooManyCheckers {
                player: "opponent",
                count: 16
            })
        );
        // (Fewer than 50 separators in 80 bits needs more than 30 checkers: refused above.)
        // Both sides on one point: opponent's 24-point is the mover's 1-point.
        let mut bits = vec![];
        bits.extend([0; 23]);
        bits.extend([1, 0, 0]);
        bits.extend([1, 0]);
        bits.extend([0; 24]);
        let mut key = [0u8; 10];
        for (i, b) in bits.iter().enumerate() {
            key[i / 8] |= b << (i % 8);
        }
        assert_eq!(
            Position::from_position_id(&base64_encode(&key)),
            Err(IdError::SharedPoint(1))
        );
    }

    #[test]
    fn documented_match_ids() {
        let money = MatchId::default();
        assert_eq!(money.encode(), "cAkAAAAAAAAA");
        assert_eq!(MatchId::decode("cAkAAAAAAAAA"), Ok(money));
        let rolled = MatchId {
            dice: Some((3, 1)),
            ..money
        };
        assert_eq!(rolled.encode(), "cIkFAAAAAAAA");
        assert_eq!(MatchId::decode("cIkFAAAAAAAA"), Ok(rolled));
        let manual = MatchId {
            cube: 2,
            cube_owner: CubeOwner::Player(0),
            dice: Some((5, 2)),
            match_length: 9,
            score: [2, 4],
            jacoby: false,
            ..money
        };
        assert_eq!(manual.encode(), "QYkqASAAIAAE");
        assert_eq!(MatchId::decode("QYkqASAAIAAE"), Ok(manual));
        // The manual's 66-bit era spelling is read the same.
        assert_eq!(MatchId::decode("QYkqASAAIAAA"), Ok(manual));
        let seven = MatchId {
            match_length: 7,
            score: [5, 3],
            jacoby: false,
            ..money
        };
        assert_eq!(seven.encode(), "cAngAFAAGAAE");
        let owned = MatchId {
            cube: 2,
            cube_owner: CubeOwner::Player(0),
            match_length: 7,
            score: [2, 4],
            jacoby: false,
            ..money
        };
        assert_eq!(owned.encode(), "QQngACAAIAAE");
        let redoubled = MatchId {
            cube: 2,
            cube_owner: CubeOwner::Player(1),
            on_roll: 0,
            turn: 1,
            double_offered: true,
            match_length: 7,
            score: [2, 4],
            jacoby: false,
            ..money
        };
        assert_eq!(redoubled.encode(), "ERngACAAIAAE");
        assert_eq!(MatchId::decode("ERngACAAIAAE"), Ok(redoubled));
        // Either die order is read.
        assert_eq!(
            MatchId::decode(
                &MatchId {
                    dice: Some((1, 3)),
                    ..money
                }
                .encode()
            )
            .unwrap()
            .dice,
            Some((1, 3))
        );
    }

    #[test]
    fn bad_match_ids_are_refused() {
        assert!(matches!(
            MatchId::decode("cAkAAAAAAAA"),
            Err(IdError::Length { .. })
        ));
        assert!(matches!(
            MatchId::decode("cAkAAAAAAA!A"),
            Err(IdError::Character('!', 10))
        ));
        // Score 7 in a 7-point match.
        let bad = MatchId {
            match_length: 7,
            score: [7, 3],
            jacoby: false,
            ..MatchId::default()
        };
        assert!(matches!(
            bad.try_encode(),
            Err(IdError::Field { field: "score", .. })
        ));
        let cube3 = MatchId {
            cube: 3,
            ..MatchId::default()
        };
        assert!(matches!(
            cube3.try_encode(),
            Err(IdError::Field { field: "cube", .. })
        ));
        // Hand-made keys: owner 2, game state 7, a die of 7, score above length.
        let raw = |x: u128| {
            let b = x.to_le_bytes();
            base64_encode(&b[..9])
        };
        let ok: u128 = 3 << 4 | 1 << 8 | 1 << 66;
        assert!(MatchId::decode(&raw(ok)).is_ok());
        assert!(MatchId::decode(&raw(ok & !(1 << 4)))
            .unwrap_err()
            .to_string()
            .contains("cube owner"));
        assert!(MatchId::decode(&raw(ok | 7 << 8))
            .unwrap_err()
            .to_string()
            .contains("game state"));
        assert!(MatchId::decode(&raw(ok | 7 << 15 | 1 << 18))
            .unwrap_err()
            .to_string()
            .contains("dice"));
        assert!(MatchId::decode(&raw(ok | 3 << 15))
            .unwrap_err()
            .to_string()
            .contains("dice"));
        assert!(MatchId::decode(&raw(ok | 5 << 21 | 5 << 36))
            .unwrap_err()
            .to_string()
            .contains("score"));
        assert!(MatchId::decode(&raw(ok | 1 << 70))
            .unwrap_err()
            .to_string()
            .contains("unused"));
    }

    #[test]
    fn gnubg_ids() {
        let (p, m) = parse_gnubg_id(" 4HPwATDgc/ABMA:cAkAAAAAAAAA\n").unwrap();
        assert_eq!((p, m), (Position::start(), MatchId::default()));
        assert_eq!(gnubg_id(&p, &m), "4HPwATDgc/ABMA:cAkAAAAAAAAA");
        assert!(matches!(
            parse_gnubg_id("4HPwATDgc/ABMA"),
            Err(IdError::GnubgId(_))
        ));
        assert!(matches!(
            parse_gnubg_id("4HPwATDgc/ABMA:cAkAAAAAAAAA:x"),
            Err(IdError::GnubgId(_))
        ));
    }
}
