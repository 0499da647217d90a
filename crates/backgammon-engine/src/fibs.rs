//! GNU Backgammon's external-player protocol, without the socket: reading a FIBS `board:`
//! line (as gnubg sends it to an external player) and answering it with a play, `roll`,
//! `double`, `take`, `drop` or `beaver`, or `accept`/`reject` for a resignation.
//!
//! The 52 fields after `board:` (FIBS "rawboard"): names, match length (9999 = money), the two
//! scores, 26 board counts (X positive, O negative), turn (the colour to act), both pairs of
//! dice, the cube, both may-double flags, was-doubled, the colour of the player the line is
//! written for, its direction, and counts gnubg ignores; field 51 is gnubg's post-Crawford
//! flag, field 52 its "not the Crawford game" flag.

use rand::Rng;
use tablier_backgammon::{Position, Roll};

use tablier_backgammon::game::Action;

use crate::cube::{CubeInfo, Owner};
use crate::eval::{Evaluator, Scratch};
pub use crate::player::Player;

/// What a board line asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardLine {
    /// The position, seen from the side to act (for a pending double: the doubler).
    pub position: Position,
    /// The dice to play, if rolled.
    pub dice: Option<Roll>,
    /// The cube, from the side to act.
    pub cube: CubeInfo,
    /// A double is pending: the answer (take, drop, beaver) is the other side's.
    pub doubled: bool,
    /// Points of a resignation offered to the side answering (0 = none).
    pub resignation: u32,
}

/// Why a line is not a board line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Not `board:` followed by 52 fields.
    #[error("a board line is 'board:' and 52 colon-separated fields ({0} found)")]
    FieldCount(usize),
    /// A numeric field is not a number.
    #[error("field {0} ({1:?}) is not a number")]
    NotANumber(usize, String),
    /// The counts do not make a position.
    #[error("not a backgammon position: {0}")]
    Position(String),
    /// The game is over (turn 0).
    #[error("the game is over: nothing to decide")]
    Over,
    /// Dice out of range.
    #[error("dice {0} and {1} are not a roll")]
    Dice(i32, i32),
}

/// Who wrote a `board:` line: the two writers agree on everything but the scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// FIBS's rawboard, as UBGI runners pass it on: every "player" field (name, score,
    /// may-double flag, colour) is the one of the side the line is written for.
    Fibs,
    /// GNU Backgammon's external-player interface (checked against Debian's gnubg 1.07): the
    /// colour is always 1, the turn is 1 when gnubg's player 1 is on roll and −1 for player 0,
    /// the may-double flags follow the turn as in FIBS, but the names and scores are written
    /// by seat: player 0's first, except while a double is pending (then the doubler's first,
    /// as FIBS would). Read as FIBS, the side on roll would get his opponent's score whenever
    /// no double is pending.
    Gnubg,
}

/// Reads a `board:` line written in `dialect`, with gnubg's optional session words after it
/// (`resignation N`, `jacobyrule on|off`, `beavers on|off`, `crawfordrule on|off`).
///
/// ```
/// use tablier_backgammon_engine::fibs::{parse_board, Dialect};
/// // gnubg's player 0 (4 points) to decide on a redouble: he owns the cube at 2; gnubg's
/// // player 1 has 0 points in this 7-point match.
/// let line = "board:gnubg:root:7:4:0:-1:2:-1:2:1:0:2:0:2:0:1:0:-5:3:0:0:0:-4:0:-4:1:0:0:0:1:0:\
///             -1:0:0:0:0:2:0:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";
/// let b = parse_board(line, Dialect::Gnubg).unwrap();
/// assert_eq!(b.cube.score, [4, 0]);
/// assert_eq!(b.cube.value, 2);
/// assert_eq!(b.cube.owner, tablier_backgammon_engine::cube::Owner::Me);
/// ```
///
/// # Errors
/// [`BoardError`] when the line is not one.
pub fn parse_board(line: &str, dialect: Dialect) -> Result<BoardLine, BoardError> {
    let line = line.trim().trim_end_matches('\0').trim();
    let (board, options) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    };
    let body = board
        .strip_prefix("board:")
        .ok_or(BoardError::FieldCount(0))?;
    let fields: Vec<&str> = body.split(':').collect();
    if fields.len() != 52 {
        return Err(BoardError::FieldCount(fields.len()));
    }
    // Field n (1-based, after the keyword) as a number.
    let num = |n: usize| -> Result<i32, BoardError> {
        fields[n - 1]
            .trim()
            .parse::<i32>()
            .map_err(|_| BoardError::NotANumber(n, fields[n - 1].to_owned()))
    };
    let match_length = num(3)?;
    let was_doubled = num(40)? != 0;
    let (player_score, opp_score) = match dialect {
        Dialect::Gnubg if !was_doubled => (num(5)?, num(4)?),
        _ => (num(4)?, num(5)?),
    };
    let mut board = [0i32; 26];
    for (i, b) in board.iter_mut().enumerate() {
        *b = num(6 + i)?;
    }
    let turn = num(32)?;
    let my_dice = (num(33)?, num(34)?);
    let opp_dice = (num(35)?, num(36)?);
    let cube_value = num(37)?.max(1) as u32;
    let (player_may, opp_may) = (num(38)? != 0, num(39)? != 0);
    let colour = num(41)?;
    let direction = num(42)?;
    let post_crawford_flag = num(51)? != 0;
    let not_crawford_flag = num(52)? != 0;
    if turn == 0 {
        return Err(BoardError::Over);
    }
    let mover_sign = turn.signum();
    let mover_is_player = mover_sign == colour.signum();
    let dir = if mover_is_player {
        direction
    } else {
        -direction
    };
    // The mover's point p (25 = his bar) on the board array.
    let at = |p: usize| if dir < 0 { board[p] } else { board[25 - p] };
    let mut mover = [0u8; 25];
    let mut opponent = [0u8; 25];
    for p in 1..=24 {
        let v = at(p) * mover_sign;
        if v > 0 {
            mover[p - 1] = v as u8;
        } else if v < 0 {
            opponent[24 - p] = (-v) as u8;
        }
    }
    let (my_bar, opp_bar) = if dir < 0 {
        (board[25], board[0])
    } else {
        (board[0], board[25])
    };
    mover[24] = my_bar.unsigned_abs().min(15) as u8;
    opponent[24] = opp_bar.unsigned_abs().min(15) as u8;
    let position =
        Position::from_sides(&mover, &opponent).map_err(|e| BoardError::Position(e.to_string()))?;
    let dice = if my_dice.0 > 0 { my_dice } else { opp_dice };
    let dice = if dice.0 > 0 && !was_doubled {
        Some(
            Roll::new(dice.0 as u8, dice.1 as u8)
                .filter(|_| (1..=6).contains(&dice.0) && (1..=6).contains(&dice.1))
                .ok_or(BoardError::Dice(dice.0, dice.1))?,
        )
    } else {
        None
    };
    let (mover_may, other_may) = if mover_is_player {
        (player_may, opp_may)
    } else {
        (opp_may, player_may)
    };
    let money = match_length <= 0 || match_length >= 9999;
    let crawford = !money && !not_crawford_flag;
    let owner = match (mover_may, other_may) {
        (true, false) => Owner::Me,
        (false, true) => Owner::Opponent,
        _ => Owner::Centre,
    };
    let (ms, os) = if mover_is_player {
        (player_score, opp_score)
    } else {
        (opp_score, player_score)
    };
    let mut cube = CubeInfo {
        value: cube_value,
        owner,
        match_length: if money { 0 } else { match_length as u32 },
        score: [ms.max(0) as u32, os.max(0) as u32],
        crawford,
        post_crawford: !money && post_crawford_flag,
        jacoby: false,
        beavers: false,
    };
    let mut resignation = 0;
    let mut words = options.split_whitespace();
    while let Some(w) = words.next() {
        let arg = words.next().unwrap_or_default();
        match w {
            "jacobyrule" => cube.jacoby = arg == "on",
            "beavers" => cube.beavers = arg == "on",
            "resignation" => resignation = arg.parse().unwrap_or(0),
            _ => {}
        }
    }
    Ok(BoardLine {
        position,
        dice,
        cube,
        doubled: was_doubled || (!mover_may && !other_may && !crawford && dice.is_none()),
        resignation,
    })
}

/// The decision an XGID asks for, as a [`BoardLine`]: the position from the player on turn
/// (for a pending double, `D`, the doubler, as gnubg writes it), the dice, and the cube with
/// the match's score, Crawford game and money rules.
///
/// ```
/// use tablier_backgammon::xgid::Xgid;
/// use tablier_backgammon::{Position, Roll};
/// use tablier_backgammon_engine::fibs::board_from_xgid;
///
/// let x = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10").unwrap();
/// let b = board_from_xgid(&x).unwrap();
/// assert_eq!(b.position, Position::start());
/// assert_eq!(b.dice, Roll::new(5, 2));
/// assert!(!b.doubled && b.cube.jacoby && b.cube.beavers);
/// ```
///
/// # Errors
/// [`BoardError::Dice`] for dice out of range, [`BoardError::Position`] for a beaver or
/// raccoon pending (`B`, `R`), which has no answer here.
pub fn board_from_xgid(x: &tablier_backgammon::xgid::Xgid) -> Result<BoardLine, BoardError> {
    use tablier_backgammon::xgid::{XgDice, XgSide};
    let me = x.turn;
    let (dice, doubled) = match x.dice {
        XgDice::ToRoll => (None, false),
        XgDice::Doubled => (None, true),
        XgDice::Rolled(a, b) => (
            Some(Roll::new(a, b).ok_or(BoardError::Dice(i32::from(a), i32::from(b)))?),
            false,
        ),
        XgDice::Beavered | XgDice::Raccooned => {
            return Err(BoardError::Position(
                "a beaver or raccoon pending: nothing to decide here".into(),
            ))
        }
    };
    let (mine, theirs) = match me {
        XgSide::Bottom => (x.score_bottom, x.score_top),
        XgSide::Top => (x.score_top, x.score_bottom),
    };
    let ml = u32::from(x.match_length);
    let away_one = ml > 0 && (u32::from(mine) + 1 == ml || u32::from(theirs) + 1 == ml);
    Ok(BoardLine {
        position: x.position_on_turn(),
        dice,
        cube: CubeInfo {
            value: x.cube,
            owner: match x.cube_owner {
                None => Owner::Centre,
                Some(s) if s == me => Owner::Me,
                Some(_) => Owner::Opponent,
            },
            match_length: ml,
            score: [u32::from(mine), u32::from(theirs)],
            crawford: away_one && x.crawford,
            post_crawford: away_one && !x.crawford,
            jacoby: ml == 0 && x.jacoby,
            beavers: ml == 0 && x.beaver,
        },
        doubled,
        resignation: 0,
    })
}

/// The answer to a board line: a play in gnubg's plain notation (`8/5 6/5`, 25 = bar,
/// 0 = off; empty when nothing can be played), or a cube or resignation word.
pub fn answer(
    ev: &Evaluator,
    req: &BoardLine,
    player: &Player,
    rng: &mut impl Rng,
    s: &mut Scratch,
) -> String {
    let pos = &req.position;
    if req.resignation > 0 {
        let points = req.resignation * req.cube.value;
        let yes = player.accepts_resignation(ev, pos, &req.cube, points, s);
        return if yes { "accept" } else { "reject" }.into();
    }
    if req.doubled {
        return match player.answer_double(ev, pos, &req.cube, s) {
            Action::Beaver => "beaver",
            Action::Take => "take",
            _ => "drop",
        }
        .into();
    }
    match req.dice {
        None if player.wants_to_double(ev, pos, &req.cube, s) => "double".into(),
        None => "roll".into(),
        Some(roll) => player
            .choose_play(ev, pos, roll, &req.cube, rng, s)
            .hops()
            .iter()
            .map(|h| format!("{}/{}", h.from, h.to))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// gnubg's own line (FORMATS.md): our bot (O, "root") to play 5-2 after gnubg's 24/23 13/11.
    const FROM_GNUBG: &str = "board:gnubg:root:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:1:-5:4:0:0:0:-3:0:-5:0:0:0:1:1:0:-1:5:2:5:2:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";

    #[test]
    fn reads_gnubgs_line() {
        let b = parse_board(FROM_GNUBG, Dialect::Gnubg).unwrap();
        assert_eq!(b.dice, Roll::new(5, 2));
        assert!(!b.doubled);
        assert_eq!(b.cube.match_length, 3);
        assert_eq!(b.cube.owner, Owner::Centre);
        let (me, them) = b.position.to_sides();
        assert_eq!(me, Position::START_SIDE);
        let mut gnubg = Position::START_SIDE;
        gnubg[23] = 1;
        gnubg[22] = 1;
        gnubg[12] = 4;
        gnubg[10] = 1;
        assert_eq!(them, gnubg);
    }

    #[test]
    fn reads_the_fibs_start_and_answers() {
        let line = "board:you:gnubg:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:1:3:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";
        let b = parse_board(line, Dialect::Fibs).unwrap();
        assert_eq!(b.position, Position::start());
        assert_eq!(b.cube.match_length, 0);
        let ev = Evaluator::shipped();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let a = answer(
            ev,
            &b,
            &Player::at_level(crate::MAX_LEVEL),
            &mut rng,
            &mut Scratch::default(),
        );
        let legal: Vec<String> = Position::start()
            .legal_plays(Roll::new(3, 1).unwrap())
            .iter()
            .map(|p| {
                p.hops()
                    .iter()
                    .map(|h| format!("{}/{}", h.from, h.to))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert!(legal.contains(&a), "{a}");
    }

    #[test]
    fn refuses_bad_lines() {
        assert_eq!(
            parse_board("hello", Dialect::Gnubg),
            Err(BoardError::FieldCount(0))
        );
        assert_eq!(
            parse_board("board:a:b:1", Dialect::Gnubg),
            Err(BoardError::FieldCount(3))
        );
        let bad = FROM_GNUBG.replace(":5:2:5:2:", ":x:2:5:2:");
        assert!(matches!(
            parse_board(&bad, Dialect::Gnubg),
            Err(BoardError::NotANumber(33, _))
        ));
        let seven = FROM_GNUBG.replace(":5:2:5:2:", ":7:2:5:2:");
        assert_eq!(
            parse_board(&seven, Dialect::Gnubg),
            Err(BoardError::Dice(7, 2))
        );
        let over = FROM_GNUBG.replace(":0:-1:5:2:", ":0:0:5:2:");
        assert_eq!(parse_board(&over, Dialect::Gnubg), Err(BoardError::Over));
    }
}
