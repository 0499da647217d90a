//! DXP, the DamExchange protocol (international draughts, 10x10): [`message`]s as bytes, and
//! [`session`]s of our engine as follower or initiator over any byte stream.
//!
//! The protocol, as reference/draughts/PROTOCOLS.md §2 describes it: a stream of messages
//! of 1–127 ASCII characters, each followed by one NUL byte; the first character gives the
//! type and the fields after it have fixed widths (numbers zero-padded):
//!
//! | type | layout |
//! |---|---|
//! | `R` GAMEREQ | version(2) initiator name(32) follower colour(1, `W`/`Z`) minutes(3) moves(3) `A` \| `B` colour to move(1) position(50) |
//! | `A` GAMEACC | follower name(32) code(1): 0 accepted, 1 version not supported, 2 not this game, 3 no game at all |
//! | `M` MOVE | seconds used(4) from(2) to(2) count(2) captured squares(2 each, any order) |
//! | `E` GAMEEND | reason(1): 0 none, 1 I give up, 2 draw, 3 I win; stop code(1): 0 a next game may follow, 1 stop |
//! | `C` CHAT | free text |
//! | `B` BACKREQ | move number(3) colour to move(1) |
//! | `K` BACKACC | code(1): 0 accepted, 1 not supported |
//!
//! What tablier does with them:
//! * The follower answers a GAMEREQ with `A…0`, or refuses it with code 1 (a version other
//!   than 01) or 2 (a malformed request, an impossible start position, or one where the side
//!   to move has no legal move), with a chat saying why. It serves any number of games on a
//!   connection ([`session::Session::follow`]).
//! * Moves received are played through [`tablier_draughts::game::Game`], so the draw rules
//!   of [`tablier_draughts::game`] apply. An illegal or malformed move gets a chat
//!   `error: illegal move …`, a GAMEEND with stop code 1, and the connection is closed.
//! * The side to move sends GAMEEND instead of a move when the game is over: reason 1 when it
//!   has no legal move, 2 for a draw rule. A GAMEEND received during a game is answered with a
//!   GAMEEND (reason 0, the same stop code); one received outside a game is taken as the
//!   answer to ours and never answered (two tablier programs would otherwise echo forever).
//! * If the opponent moves in a position our rules already call drawn (another program may
//!   count a draw rule differently), the move is checked for legality and we claim the draw
//!   (GAMEEND reason 2) instead of answering it.
//! * Two messages in a row (a GAMEACC and our first move, a GAMEEND and the chat that says
//!   why) leave half a second between them, and the chat comes after the GAMEEND:
//!   pydraughts 0.6.7 reads whatever one `recv` returns as one message and would lose the
//!   second.
//! * BACKREQ during a game is accepted when the move number names a position of the game
//!   (the game is replayed up to there); otherwise it is refused with code 1.
//! * Thinking time: [`session::Options::move_time`] if given; else the GAMEREQ's minutes for
//!   the whole game run on our own clock (the number of moves, if not 0, is the number of
//!   moves to make in that time); a GAMEREQ with 0 minutes is played at 1 s per move.
//! * A GAMEREQ's "number of moves" is read as that time control, not as a game length;
//!   [`session::Options::max_plies`] ends a game (GAMEEND reason 0, with a chat) after that
//!   many plies.
//!
//! [`parse`] reads one message (the bytes between two NULs) into a [`Message`], or a
//! [`ParseError`] saying which field is wrong; it never panics, whatever the bytes.

pub mod message;
pub mod session;

pub use message::{
    frame, parse, position_squares, start_position, DxpMove, EndReason, GameRequest, Message,
    ParseError, StartError, StartPosition,
};

/// The protocol version tablier speaks (the only one published).
pub const VERSION: u8 = 1;

/// Longest message the protocol allows, NUL excluded.
pub const MAX_LEN: usize = 127;

/// The default TCP port of DXP.
pub const DEFAULT_PORT: u16 = 27531;

#[cfg(test)]
mod tests {
    use super::session::{game_clock, search_limits};
    use super::*;
    use crate::test_util::engine_side;
    use proptest::prelude::*;
    use tablier_draughts::game::Game;
    use tablier_draughts::{Move, Position, G10, INTERNATIONAL};

    /// Well-formed messages of every type, which the fuzz mutates.
    const SEEDS: &[&[u8]] = &[
        b"M001205250422122320",
        b"M0012061100",
        b"R01Tornado voor Windows 4.0        W060065A",
        b"R01DXP Client                      Z001000BWzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
        b"ATornado voor Windows 4.0        0",
        b"E00",
        b"E21",
        b"B005Z",
        b"K0",
        b"Chello",
    ];

    /// The characters that make DXP fields.
    const ALPHABET: &[u8] = b"0123456789WZABEMRCKewzWZ \r\n";

    /// One edit of a message: replace, cut, insert, or repeat a stretch.
    #[derive(Debug, Clone)]
    enum Edit {
        Set(proptest::sample::Index, u8),
        Truncate(proptest::sample::Index),
        Insert(proptest::sample::Index, u8),
        Repeat(proptest::sample::Index, usize),
    }

    fn edit() -> impl Strategy<Value = Edit> {
        let byte = prop_oneof![proptest::sample::select(ALPHABET), any::<u8>()];
        prop_oneof![
            (any::<proptest::sample::Index>(), byte.clone()).prop_map(|(i, b)| Edit::Set(i, b)),
            any::<proptest::sample::Index>().prop_map(Edit::Truncate),
            (any::<proptest::sample::Index>(), byte).prop_map(|(i, b)| Edit::Insert(i, b)),
            (any::<proptest::sample::Index>(), 1..8usize).prop_map(|(i, n)| Edit::Repeat(i, n)),
        ]
    }

    fn apply(mut bytes: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
        for e in edits {
            if bytes.is_empty() {
                break;
            }
            match e {
                Edit::Set(i, b) => {
                    let i = i.index(bytes.len());
                    bytes[i] = *b;
                }
                Edit::Truncate(i) => bytes.truncate(i.index(bytes.len())),
                Edit::Insert(i, b) => bytes.insert(i.index(bytes.len() + 1), *b),
                Edit::Repeat(i, n) => {
                    let i = i.index(bytes.len());
                    let end = (i + n).min(bytes.len());
                    let part = bytes[i..end].to_vec();
                    bytes.splice(end..end, part);
                }
            }
        }
        bytes
    }

    /// Messages: any bytes, mutated well-formed messages, and GAMEREQs and MOVEs with random
    /// fields (any times, any set-up position, any squares), so that the deep paths are
    /// reached too.
    fn message() -> impl Strategy<Value = Vec<u8>> {
        let digits = |n: usize| proptest::collection::vec(b'0'..=b'9', n);
        let squares = proptest::collection::vec(proptest::sample::select(&b"eeeeeewzWZ"[..]), 50);
        let request = (
            proptest::sample::select(&b"WZ"[..]),
            digits(3),
            digits(3),
            proptest::sample::select(&b"WZ"[..]),
            squares,
        )
            .prop_map(|(follower, minutes, moves, to_move, squares)| {
                let mut m = format!("R01{:<32}", "fuzz").into_bytes();
                m.push(follower);
                m.extend(minutes);
                m.extend(moves);
                m.push(b'B');
                m.push(to_move);
                m.extend(squares);
                m
            });
        let mv = (
            digits(4),
            0..=99u8,
            0..=99u8,
            proptest::collection::vec(0..=99u8, 0..22),
        )
            .prop_map(|(time, from, to, captured)| {
                let mut m = b"M".to_vec();
                m.extend(time);
                m.extend(format!("{from:02}{to:02}{:02}", captured.len()).bytes());
                for c in captured {
                    m.extend(format!("{c:02}").bytes());
                }
                m
            });
        prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..140),
            (
                proptest::sample::select(SEEDS),
                proptest::collection::vec(edit(), 0..5)
            )
                .prop_map(|(seed, edits)| apply(seed.to_vec(), &edits)),
            request,
            mv,
        ]
    }

    proptest! {
        #![proptest_config(tablier_test_support::fuzz::config(100_000))]

        /// Any bytes at all: an answer, never a panic. Whatever is read is written back as a
        /// message that reads again; a GAMEREQ read gives a start position or a reason, and
        /// a clock the engine can keep; a MOVE read is tried on a game without a panic.
        #[test]
        fn parser_never_panics(bytes in message(), our_moves in any::<u32>()) {
            let Ok(m) = parse(&bytes) else { return Ok(()) };
            // The same one for the messages without free text.
            let again = m.encode();
            let back = parse(again.as_bytes());
            prop_assert!(back.is_ok(), "{:?} written as {:?}: {:?}", m, again, back);
            if matches!(
                m,
                Message::Move(_)
                    | Message::GameEnd { .. }
                    | Message::BackReq { .. }
                    | Message::BackAcc { .. }
            ) {
                prop_assert_eq!(back, Ok(m.clone()), "{:?}", again);
            }
            match &m {
                Message::GameReq(r) => {
                    let _ = start_position(&r.start);
                    for played in [0, our_moves, u32::from(r.moves)] {
                        engine_side(&search_limits(None, game_clock(r.minutes), r.moves, played));
                    }
                }
                Message::Move(mv) => {
                    let mut game = Game::from_position(Position::start(&INTERNATIONAL).unwrap());
                    let _ = game.play(&Move::<G10>::new(mv.from, mv.to, &mv.captured));
                }
                _ => {}
            }
        }

        /// Any game clock and any count of moves make limits the engine can keep.
        #[test]
        fn any_clock_makes_limits_the_engine_can_keep(
            minutes in any::<u16>(),
            control in any::<u16>(),
            played in any::<u32>(),
        ) {
            engine_side(&search_limits(None, game_clock(minutes), control, played));
        }
    }
}
