//! `tablier dxp`: the draughts engine over DXP, the DamExchange protocol (international
//! draughts, 10x10), as follower (`--listen`) or initiator (`--connect`).
//!
//! The protocol, as reference/draughts/PROTOCOLS.md §2 describes it: a TCP stream of messages
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
//!   connection and, unless `--once`, one connection after another.
//! * Moves received are played through [`Game`], so the draw rules of
//!   [`tablier_draughts::game`] apply. An illegal or malformed move gets a chat
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
//! * Thinking time: `--move-time` if given; else the GAMEREQ's minutes for the whole game
//!   run on our own clock (the number of moves, if not 0, is the number of moves to make in
//!   that time); a GAMEREQ with 0 minutes is played at 1 s per move.
//! * A GAMEREQ's "number of moves" is read as that time control, not as a game length; the
//!   `--max-plies` option ends a game (GAMEEND reason 0, with a chat) after that many plies.
//!
//! * Ctrl-C sends GAMEEND with stop code 1 (and a chat) before closing the connection.
//!
//! [`parse`] reads one message (the bytes between two NULs) into a [`Message`], or a
//! [`ParseError`] saying which field is wrong; it never panics, whatever the bytes.

use std::fmt;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use tablier_core::Side;
use tablier_draughts::game::{DrawReason, Ending, Game};
use tablier_draughts::{fen, notation, Move, Position, G10, INTERNATIONAL};

use crate::draughts_protocol::{hub_position, parse_hub_position, MAX_SECONDS};
use tablier_draughts_engine::{Engine, Limits, Tables, TimeControl};

/// The protocol version tablier speaks (the only one published).
pub const VERSION: u8 = 1;

/// Longest message the protocol allows, NUL excluded.
pub const MAX_LEN: usize = 127;

/// The default TCP port of DXP.
pub const DEFAULT_PORT: u16 = 27531;

// ---------------------------------------------------------------------------------------------
// Messages

/// Why a game ends (GAMEEND's reason).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// `0`: no reason given (always allowed; also the answer to the other side's GAMEEND).
    Unknown,
    /// `1`: the sender gives up.
    GiveUp,
    /// `2`: the sender claims a draw.
    Draw,
    /// `3`: the sender claims the win.
    Win,
}

impl EndReason {
    fn code(self) -> char {
        match self {
            EndReason::Unknown => '0',
            EndReason::GiveUp => '1',
            EndReason::Draw => '2',
            EndReason::Win => '3',
        }
    }
}

/// Where a requested game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// `A`: the normal starting position.
    Initial,
    /// `B`: a set-up position: the side to move and 50 characters, one per square 1..50
    /// (`e` empty, `w`/`z` white/black man, `W`/`Z` white/black king).
    Setup {
        /// The side to move first.
        to_move: Side,
        /// The 50 squares.
        squares: String,
    },
}

/// A GAMEREQ: the initiator asks for a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRequest {
    /// Protocol version (1).
    pub version: u8,
    /// The initiator's name (trailing blanks removed).
    pub initiator: String,
    /// The colour the follower plays.
    pub follower: Side,
    /// Thinking time per player for the whole game, in minutes.
    pub minutes: u16,
    /// Number of moves to make in that time (0: the whole game).
    pub moves: u16,
    /// Where the game starts.
    pub start: StartPosition,
}

/// A MOVE as DXP writes it: from, to and the captured squares (square numbers 1..50).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DxpMove {
    /// Seconds the mover used (informational).
    pub seconds: u16,
    /// Start square.
    pub from: u8,
    /// End square.
    pub to: u8,
    /// Captured squares, in the order sent.
    pub captured: Vec<u8>,
}

/// One DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `R` GAMEREQ.
    GameReq(GameRequest),
    /// `A` GAMEACC: the follower's name and its answer code (0 = accepted).
    GameAcc {
        /// The follower's name (trailing blanks removed).
        name: String,
        /// 0 accepted; 1 version not supported; 2 not this game; 3 no game at all.
        code: u8,
    },
    /// `M` MOVE.
    Move(DxpMove),
    /// `E` GAMEEND.
    GameEnd {
        /// Why.
        reason: EndReason,
        /// Stop code 1: no further game on this connection.
        stop: bool,
    },
    /// `C` CHAT.
    Chat(String),
    /// `B` BACKREQ: take back to this move number with this colour to move.
    BackReq {
        /// Move number (1..999).
        move_number: u16,
        /// The side to move there.
        to_move: Side,
    },
    /// `K` BACKACC: 0 accepted, other codes refuse.
    BackAcc {
        /// The answer code.
        code: u8,
    },
}

/// Why a message could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The message type (`'?'` when there is none).
    pub kind: char,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind == '?' {
            write!(f, "bad DXP message: {}", self.reason)
        } else {
            write!(f, "bad DXP message {}: {}", self.kind, self.reason)
        }
    }
}

impl std::error::Error for ParseError {}

fn colour_char(side: Side) -> char {
    match side {
        Side::White => 'W',
        Side::Black => 'Z',
    }
}

/// Reads fixed-width fields from an ASCII message.
struct Fields<'a> {
    kind: char,
    text: &'a str,
    at: usize,
}

impl<'a> Fields<'a> {
    fn err(&self, reason: impl Into<String>) -> ParseError {
        ParseError {
            kind: self.kind,
            reason: reason.into(),
        }
    }

    fn take(&mut self, width: usize, field: &str) -> Result<&'a str, ParseError> {
        let rest = &self.text[self.at..];
        if rest.len() < width {
            return Err(self.err(format!(
                "too short: {field} needs {width} characters at offset {}, {} left",
                self.at,
                rest.len()
            )));
        }
        self.at += width;
        Ok(&rest[..width])
    }

    fn number(&mut self, width: usize, field: &str) -> Result<u32, ParseError> {
        let s = self.take(width, field)?;
        if !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.err(format!("{field} must be {width} digits, got {s:?}")));
        }
        s.parse()
            .map_err(|_| self.err(format!("{field} must be {width} digits, got {s:?}")))
    }

    fn colour(&mut self, field: &str) -> Result<Side, ParseError> {
        match self.take(1, field)? {
            "W" => Ok(Side::White),
            "Z" => Ok(Side::Black),
            other => Err(self.err(format!("{field} must be W or Z, got {other:?}"))),
        }
    }

    fn square(&mut self, field: &str) -> Result<u8, ParseError> {
        let n = self.number(2, field)?;
        if (1..=50).contains(&n) {
            Ok(n as u8)
        } else {
            Err(self.err(format!("{field} {n:02} is not a square (01..50)")))
        }
    }

    fn end(&self) -> Result<(), ParseError> {
        let rest = &self.text[self.at..];
        if rest.is_empty() {
            Ok(())
        } else {
            Err(self.err(format!(
                "{} unexpected characters after the last field: {rest:?}",
                rest.len()
            )))
        }
    }
}

/// Reads one message: the bytes between two NULs (without them).
///
/// # Errors
/// A [`ParseError`] naming the field that is missing or wrong: an empty message, a byte that
/// is not ASCII 1..127, more than [`MAX_LEN`] characters, an unknown type, a field of the
/// wrong width or content, a capture count that does not match the squares given.
pub fn parse(bytes: &[u8]) -> Result<Message, ParseError> {
    let plain = |reason: String| ParseError { kind: '?', reason };
    if bytes.is_empty() {
        return Err(plain("empty message".into()));
    }
    if let Some(i) = bytes.iter().position(|&b| b == 0 || b > 127) {
        return Err(plain(format!(
            "byte {:#04x} at offset {i} is not an ASCII character 1..127",
            bytes[i]
        )));
    }
    if bytes.len() > MAX_LEN {
        return Err(plain(format!(
            "{} characters, more than the {MAX_LEN} allowed",
            bytes.len()
        )));
    }
    // Every byte is ASCII, so the text is valid UTF-8 and byte offsets are character offsets.
    let text = std::str::from_utf8(bytes).map_err(|e| plain(e.to_string()))?;
    let kind = text.as_bytes()[0] as char;
    let mut f = Fields { kind, text, at: 1 };
    let message = match kind {
        'R' => {
            let version = f.number(2, "version")?;
            if version != u32::from(VERSION) {
                // A later version may lay its fields out otherwise: nothing more is read.
                return Ok(Message::GameReq(GameRequest {
                    version: version.min(99) as u8,
                    initiator: String::new(),
                    follower: Side::White,
                    minutes: 0,
                    moves: 0,
                    start: StartPosition::Initial,
                }));
            }
            let initiator = f.take(32, "initiator name")?.trim_end().to_string();
            let follower = f.colour("follower colour")?;
            let minutes = f.number(3, "thinking time")? as u16;
            let moves = f.number(3, "number of moves")? as u16;
            let start = match f.take(1, "starting position")? {
                "A" => StartPosition::Initial,
                "B" => {
                    let to_move = f.colour("colour to move")?;
                    let squares = f.take(50, "position")?;
                    if let Some((i, c)) = squares
                        .char_indices()
                        .find(|(_, c)| !matches!(c, 'e' | 'w' | 'z' | 'W' | 'Z'))
                    {
                        return Err(f.err(format!(
                            "square {} of the position is {c:?}, not one of e w z W Z",
                            i + 1
                        )));
                    }
                    StartPosition::Setup {
                        to_move,
                        squares: squares.to_string(),
                    }
                }
                other => {
                    return Err(f.err(format!("starting position must be A or B, got {other:?}")))
                }
            };
            f.end()?;
            Message::GameReq(GameRequest {
                version: VERSION,
                initiator,
                follower,
                minutes,
                moves,
                start,
            })
        }
        'A' => {
            // Name (32, blank-padded) then the code; names sent shorter are tolerated.
            if text.len() < 2 {
                return Err(f.err("the acceptance code is missing"));
            }
            let code_char = text.as_bytes()[text.len() - 1];
            if !code_char.is_ascii_digit() {
                return Err(f.err(format!(
                    "acceptance code must be a digit, got {:?}",
                    code_char as char
                )));
            }
            Message::GameAcc {
                name: text[1..text.len() - 1].trim_end().to_string(),
                code: code_char - b'0',
            }
        }
        'M' => {
            let seconds = f.number(4, "time")? as u16;
            let from = f.square("from square")?;
            let to = f.square("to square")?;
            let count = f.number(2, "number captured")?;
            if count > 20 {
                return Err(f.err(format!("number captured {count} is more than 20")));
            }
            let mut captured = Vec::with_capacity(count as usize);
            for i in 0..count {
                captured.push(f.square(&format!("captured square {}", i + 1))?);
            }
            f.end()?;
            Message::Move(DxpMove {
                seconds,
                from,
                to,
                captured,
            })
        }
        'E' => {
            let reason = match f.take(1, "reason")? {
                "0" => EndReason::Unknown,
                "1" => EndReason::GiveUp,
                "2" => EndReason::Draw,
                "3" => EndReason::Win,
                other => return Err(f.err(format!("reason must be 0..3, got {other:?}"))),
            };
            let stop = match f.take(1, "stop code")? {
                "0" => false,
                "1" => true,
                other => return Err(f.err(format!("stop code must be 0 or 1, got {other:?}"))),
            };
            f.end()?;
            Message::GameEnd { reason, stop }
        }
        'C' => Message::Chat(text[1..].to_string()),
        'B' => {
            let move_number = f.number(3, "move number")? as u16;
            let to_move = f.colour("colour to move")?;
            f.end()?;
            Message::BackReq {
                move_number,
                to_move,
            }
        }
        'K' => {
            let code = f.number(1, "acceptance code")? as u8;
            f.end()?;
            Message::BackAcc { code }
        }
        other => {
            return Err(ParseError {
                kind: '?',
                reason: format!("unknown message type {other:?}"),
            })
        }
    };
    Ok(message)
}

/// `c` if it is printable ASCII, else `?`.
fn printable(c: char) -> char {
    if c.is_ascii_graphic() || c == ' ' {
        c
    } else {
        '?'
    }
}

/// A name as a 32-character field: printable ASCII, blank-padded, never starting with a blank.
fn name_field(name: &str) -> String {
    let clean: String = name.chars().map(printable).collect();
    let clean = clean.trim_start();
    let clean = if clean.is_empty() { "?" } else { clean };
    format!("{:<32.32}", clean)
}

impl Message {
    /// The message as sent (without its NUL).
    #[must_use]
    pub fn encode(&self) -> String {
        match self {
            Message::GameReq(r) => {
                let start = match &r.start {
                    StartPosition::Initial => "A".to_string(),
                    StartPosition::Setup { to_move, squares } => {
                        format!("B{}{squares}", colour_char(*to_move))
                    }
                };
                format!(
                    "R{:02}{}{}{:03}{:03}{start}",
                    r.version,
                    name_field(&r.initiator),
                    colour_char(r.follower),
                    r.minutes.min(999),
                    r.moves.min(999),
                )
            }
            Message::GameAcc { name, code } => format!("A{}{}", name_field(name), code % 10),
            Message::Move(m) => {
                let mut s = format!(
                    "M{:04}{:02}{:02}{:02}",
                    m.seconds.min(9999),
                    m.from,
                    m.to,
                    m.captured.len()
                );
                for c in &m.captured {
                    s.push_str(&format!("{c:02}"));
                }
                s
            }
            Message::GameEnd { reason, stop } => {
                format!("E{}{}", reason.code(), if *stop { '1' } else { '0' })
            }
            Message::Chat(text) => {
                let clean: String = text.chars().map(printable).take(MAX_LEN - 1).collect();
                format!("C{clean}")
            }
            Message::BackReq {
                move_number,
                to_move,
            } => format!("B{:03}{}", move_number.min(&999), colour_char(*to_move)),
            Message::BackAcc { code } => format!("K{}", code % 10),
        }
    }
}

/// The DXP position string (50 squares, `e w z W Z`) of a position: the Hub string without
/// its side to move, with `z` (*zwart*) for black.
#[must_use]
pub fn position_squares(pos: &Position<G10>) -> String {
    hub_position(pos)
        .chars()
        .skip(1)
        .map(|c| match c {
            'b' => 'z',
            'B' => 'Z',
            c => c,
        })
        .collect()
}

/// The position a GAMEREQ starts from, checked: no man on its promotion row, and the side to
/// move has a legal move.
///
/// # Errors
/// Why the position cannot start a game.
pub fn start_position(start: &StartPosition) -> Result<Position<G10>> {
    let pos = match start {
        StartPosition::Initial => return Ok(Position::start(&INTERNATIONAL)?),
        StartPosition::Setup { to_move, squares } => {
            if let Some(c) = squares
                .chars()
                .find(|c| !matches!(c, 'e' | 'w' | 'z' | 'W' | 'Z'))
            {
                bail!("{c:?} is not a DXP square letter (e w z W Z)");
            }
            let hub: String = std::iter::once(to_move.letter())
                .chain(squares.chars().map(|c| match c {
                    'z' => 'b',
                    'Z' => 'B',
                    c => c,
                }))
                .collect();
            parse_hub_position::<G10>(&INTERNATIONAL, &hub)?
        }
    };
    if !pos.has_legal_move() {
        bail!(
            "{} is to move and has no legal move ({})",
            side_name(pos.side_to_move()),
            fen::write(&pos)
        );
    }
    Ok(pos)
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

// ---------------------------------------------------------------------------------------------
// The connection

/// What the reading thread hands over.
enum Incoming {
    /// A message, with its text as received.
    Message(Message, String),
    /// A message that could not be read, with its bytes as text (lossy).
    Bad(ParseError, String),
    /// The other side closed the connection (or it failed).
    Closed(Option<String>),
}

/// One TCP connection: a writer, and a thread that reads and parses messages.
struct Connection {
    writer: TcpStream,
    rx: Receiver<Incoming>,
    /// Set while our engine searches: the reader then stops the search when a message
    /// other than a chat arrives.
    searching: Arc<AtomicBool>,
    /// Set by the reader at each message received.
    heard: Arc<AtomicBool>,
    /// When we last sent.
    last_send: Option<Instant>,
    transcript: bool,
}

/// The connection in use, for the Ctrl-C handler.
static PEER: Mutex<Option<TcpStream>> = Mutex::new(None);

/// Least time between two messages we send with nothing received in between. pydraughts
/// 0.6.7 reads whatever one `recv` returns as a single message, so two messages that arrive
/// together lose the second (a GAMEACC followed at once by our first move, say).
const PACE: Duration = Duration::from_millis(500);

impl Connection {
    fn new(stream: TcpStream, engine_stop: Arc<AtomicBool>, transcript: bool) -> Result<Self> {
        stream.set_nodelay(true)?;
        let mut reader = stream.try_clone()?;
        if let Ok(mut peer) = PEER.lock() {
            *peer = stream.try_clone().ok();
        }
        let (tx, rx) = mpsc::channel();
        let searching = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&searching);
        let heard = Arc::new(AtomicBool::new(false));
        let heard_by_reader = Arc::clone(&heard);
        std::thread::spawn(move || {
            let mut frame: Vec<u8> = Vec::new();
            let mut overflow = false;
            let mut buf = [0u8; 1024];
            loop {
                let n = match reader.read(&mut buf) {
                    Ok(0) => {
                        let _ = tx.send(Incoming::Closed(None));
                        return;
                    }
                    Ok(n) => n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        let _ = tx.send(Incoming::Closed(Some(e.to_string())));
                        return;
                    }
                };
                for &b in &buf[..n] {
                    if b != 0 {
                        if frame.len() <= MAX_LEN {
                            frame.push(b);
                        } else {
                            overflow = true;
                        }
                        continue;
                    }
                    let bytes = std::mem::take(&mut frame);
                    let raw = String::from_utf8_lossy(&bytes).into_owned();
                    let item = if overflow {
                        Incoming::Bad(
                            ParseError {
                                kind: '?',
                                reason: format!("more than {MAX_LEN} characters before the NUL"),
                            },
                            raw,
                        )
                    } else {
                        // Some programs end their messages with a line break as well.
                        let trimmed = trim_line_breaks(&bytes);
                        if trimmed.is_empty() {
                            continue;
                        }
                        match parse(trimmed) {
                            Ok(m) => Incoming::Message(m, raw),
                            Err(e) => Incoming::Bad(e, raw),
                        }
                    };
                    overflow = false;
                    heard_by_reader.store(true, Ordering::Relaxed);
                    let is_chat = matches!(item, Incoming::Message(Message::Chat(_), _));
                    if !is_chat && flag.load(Ordering::Relaxed) {
                        engine_stop.store(true, Ordering::Relaxed);
                    }
                    if tx.send(item).is_err() {
                        return;
                    }
                }
            }
        });
        Ok(Connection {
            writer: stream,
            rx,
            searching,
            heard,
            last_send: None,
            transcript,
        })
    }

    fn send(&mut self, m: &Message) -> Result<()> {
        let text = m.encode();
        let heard = self.heard.swap(false, Ordering::Relaxed);
        if let Some(t) = self.last_send.filter(|_| !heard) {
            std::thread::sleep(PACE.saturating_sub(t.elapsed()));
        }
        if self.transcript {
            eprintln!(">> {text}");
        }
        let mut bytes = text.into_bytes();
        bytes.push(0);
        self.writer
            .write_all(&bytes)
            .context("sending a DXP message")?;
        self.last_send = Some(Instant::now());
        Ok(())
    }

    fn chat(&mut self, text: &str) -> Result<()> {
        self.send(&Message::Chat(text.to_string()))
    }

    fn log(&self, item: &Incoming) {
        if self.transcript {
            match item {
                Incoming::Message(_, raw) => eprintln!("<< {raw}"),
                Incoming::Bad(e, raw) => eprintln!("<< {raw:?} ({e})"),
                Incoming::Closed(None) => eprintln!("<< (connection closed)"),
                Incoming::Closed(Some(e)) => eprintln!("<< (connection failed: {e})"),
            }
        }
    }

    fn recv(&self) -> Incoming {
        let item = self
            .rx
            .recv()
            .unwrap_or_else(|_| Incoming::Closed(Some("reader stopped".into())));
        self.log(&item);
        item
    }

    /// The next item within `t` (`Duration::ZERO`: only what has already arrived).
    fn recv_timeout(&self, t: Duration) -> Option<Incoming> {
        match self.rx.recv_timeout(t) {
            Ok(item) => {
                self.log(&item);
                Some(item)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                Some(Incoming::Closed(Some("reader stopped".into())))
            }
        }
    }

    fn close(&self) {
        let _ = self.writer.shutdown(Shutdown::Both);
    }
}

fn trim_line_breaks(bytes: &[u8]) -> &[u8] {
    let is_break = |b: &u8| *b == b'\r' || *b == b'\n';
    let start = bytes
        .iter()
        .position(|b| !is_break(b))
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !is_break(b))
        .map_or(start, |i| i + 1);
    &bytes[start..end]
}

// ---------------------------------------------------------------------------------------------
// Playing

/// `tablier dxp`: the engine over DXP (TCP), as follower (`--listen`) or initiator
/// (`--connect`).
#[derive(Args)]
pub struct DxpArgs {
    /// Follower: listen on this address (port 27531 if left out; port 0 picks a free one) and
    /// play the games an initiator asks for.
    #[arg(long, value_name = "ADDR", conflicts_with = "connect")]
    listen: Option<String>,
    /// Initiator: connect to a follower at HOST:PORT (port 27531 if left out) and ask it for
    /// games.
    #[arg(long, value_name = "HOST:PORT", required_unless_present = "listen")]
    connect: Option<String>,
    /// Initiator: number of games, colours alternating (tablier takes White in the first).
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Initiator: thinking time of each player for the whole game, in minutes (the
    /// GAMEREQ's field, 1..999).
    #[arg(long, default_value_t = 5)]
    time_per_game_min: u16,
    /// Initiator: the number of moves to make in that time (0: the whole game).
    #[arg(long, default_value_t = 0)]
    moves: u16,
    /// Initiator: start every game from this position (FEN) instead of the normal start.
    #[arg(long)]
    fen: Option<String>,
    /// Think this many seconds per move instead of dividing the game's thinking time (above
    /// 0, at most 1e9).
    #[arg(long, value_name = "SECONDS")]
    move_time: Option<f64>,
    /// End a game without result (GAMEEND reason 0, with a chat) once this many plies have
    /// been played and it is our turn.
    #[arg(long)]
    max_plies: Option<u32>,
    /// Follower: serve one connection, then exit.
    #[arg(long)]
    once: bool,
    /// Transposition table size in MiB (at most half of the machine's memory).
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Endgame tables up to this many pieces, generated at start (0: none).
    #[arg(long, default_value_t = 3)]
    tables: u32,
    /// Print every message sent (`>>`) and received (`<<`) on stderr.
    #[arg(long)]
    transcript: bool,
}

/// How a game ended, from tablier's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Score {
    Win,
    Draw,
    Loss,
    /// Ended without a result (GAMEEND reason 0 before the end, or the move cap).
    Unfinished,
}

/// One finished game.
struct Played {
    us: Side,
    opponent: String,
    score: Score,
    why: String,
    plies: usize,
    /// The other side's stop code 1: no more games on this connection.
    peer_stop: bool,
}

impl Played {
    /// The result in international notation (2-0, 1-1, 0-2; `*` unfinished).
    fn result(&self) -> &'static str {
        match (self.score, self.us) {
            (Score::Win, Side::White) | (Score::Loss, Side::Black) => "2-0",
            (Score::Loss, Side::White) | (Score::Win, Side::Black) => "0-2",
            (Score::Draw, _) => "1-1",
            (Score::Unfinished, _) => "*",
        }
    }

    fn line(&self, number: usize) -> String {
        let (white, black) = match self.us {
            Side::White => ("tablier", self.opponent.as_str()),
            Side::Black => (self.opponent.as_str(), "tablier"),
        };
        format!(
            "game {number}: {white} - {black} {} ({}, {} plies)",
            self.result(),
            self.why,
            self.plies
        )
    }
}

fn draw_reason_text(r: DrawReason) -> &'static str {
    match r {
        DrawReason::Repetition => "draw by threefold repetition",
        DrawReason::KingMoves => "draw by the 25-move rule",
        DrawReason::Endgame => "draw by the 16- or 5-move rule",
        DrawReason::OldFrenchRule => "draw by the old French rule",
    }
}

/// One player session on a connection: our engine and the game in progress.
struct Session {
    conn: Connection,
    engine: Engine<G10>,
    name: String,
    move_time: Option<Duration>,
    max_plies: Option<u32>,
}

/// The game being played.
struct Current {
    game: Game<G10>,
    us: Side,
    opponent: String,
    /// Our clock (None: no clock).
    clock: Option<Duration>,
    /// Moves to make in the clock's time (0: all).
    control_moves: u16,
    our_moves: u32,
}

impl Current {
    /// The game as it ended.
    fn played(&self, score: Score, why: String, peer_stop: bool) -> Played {
        Played {
            us: self.us,
            opponent: self.opponent.clone(),
            score,
            why,
            plies: self.game.moves().len(),
            peer_stop,
        }
    }
}

impl Session {
    fn new(stream: TcpStream, args: &DxpArgs, engine: Engine<G10>) -> Result<Session> {
        Ok(Session {
            conn: Connection::new(stream, engine.stop_flag(), args.transcript)?,
            engine,
            name: engine_name(),
            move_time: move_time(args)?,
            max_plies: args.max_plies,
        })
    }

    fn limits(&self, cur: &Current) -> Limits {
        search_limits(self.move_time, cur.clock, cur.control_moves, cur.our_moves)
    }

    /// Ends the game from our side (GAMEEND), waits for the other side's GAMEEND (at most
    /// 10 s), and returns how it ended.
    fn end_game(
        &mut self,
        cur: &Current,
        reason: EndReason,
        score: Score,
        why: String,
    ) -> Result<Played> {
        self.conn.send(&Message::GameEnd {
            reason,
            stop: false,
        })?;
        // The chat comes after the GAMEEND: a reader that runs two messages together (as
        // pydraughts 0.6.7 does) still sees the GAMEEND first.
        self.conn.chat(&format!("game ended: {why}"))?;
        let mut peer_stop = false;
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.conn.recv_timeout(left) {
                None => {
                    eprintln!("dxp: no GAMEEND in answer to ours after 10 s");
                    break;
                }
                Some(Incoming::Message(Message::GameEnd { stop, .. }, _)) => {
                    peer_stop = stop;
                    break;
                }
                Some(Incoming::Message(Message::Chat(text), _)) => {
                    eprintln!("dxp: chat from {}: {text}", cur.opponent);
                }
                Some(Incoming::Closed(_)) => {
                    peer_stop = true;
                    break;
                }
                Some(Incoming::Message(_, raw)) => {
                    self.conn.chat(&format!(
                        "error: the game is over, expected GAMEEND, got {raw}"
                    ))?;
                }
                Some(Incoming::Bad(e, _)) => {
                    self.conn.chat(&format!("error: {e}"))?;
                }
            }
        }
        Ok(cur.played(score, why, peer_stop))
    }

    /// The other side ended the game: answer with our GAMEEND.
    fn peer_ended(&mut self, cur: &Current, reason: EndReason, stop: bool) -> Result<Played> {
        self.conn.send(&Message::GameEnd {
            reason: EndReason::Unknown,
            stop,
        })?;
        let (score, why) = match (cur.game.ending(), reason) {
            (Some(Ending::NoMove { winner }), _) => (
                if winner == cur.us {
                    Score::Win
                } else {
                    Score::Loss
                },
                format!("{} has no legal move", side_name(winner.opposite())),
            ),
            (Some(Ending::Draw(r)), _) => (Score::Draw, draw_reason_text(r).to_string()),
            (None, EndReason::GiveUp) => (Score::Win, format!("{} gives up", cur.opponent)),
            (None, EndReason::Win) => (Score::Loss, format!("{} claims the win", cur.opponent)),
            (None, EndReason::Draw) => (Score::Draw, format!("{} claims a draw", cur.opponent)),
            (None, EndReason::Unknown) => (
                Score::Unfinished,
                format!("{} ended the game without a reason", cur.opponent),
            ),
        };
        Ok(cur.played(score, why, stop))
    }

    /// An illegal or unreadable move: say so, stop, close.
    fn abort(&mut self, what: &str) -> anyhow::Error {
        let _ = self.conn.chat(&format!("error: {what}"));
        let _ = self.conn.send(&Message::GameEnd {
            reason: EndReason::Unknown,
            stop: true,
        });
        self.conn.close();
        anyhow!("{what}")
    }

    /// A BACKREQ: replays the game up to the position named, or refuses.
    fn back(&mut self, cur: &mut Current, move_number: u16, to_move: Side) -> Result<()> {
        let start = *cur.game.start_position();
        let first = start.side_to_move();
        // Plies from the start to move `move_number` with `to_move` to play; the start is
        // move 1 whatever the colour to move.
        let ply = (i64::from(move_number) - 1) * 2 + i64::from(to_move == Side::Black)
            - i64::from(first == Side::Black);
        let played = cur.game.moves().len() as i64;
        if move_number == 0 || ply < 0 || ply > played {
            self.conn.send(&Message::BackAcc { code: 1 })?;
            return self.conn.chat(&format!(
                "cannot go back to move {move_number} {}: the game has {played} plies",
                colour_char(to_move)
            ));
        }
        let moves = cur.game.moves()[..ply as usize].to_vec();
        let mut game = Game::from_position(start);
        for m in &moves {
            game.play(m)
                .map_err(|e| anyhow!("replaying the game: {e}"))?;
        }
        cur.our_moves = moves
            .iter()
            .enumerate()
            .filter(|(i, _)| {
                let mover = if i % 2 == 0 { first } else { first.opposite() };
                mover == cur.us
            })
            .count() as u32;
        cur.game = game;
        self.conn.send(&Message::BackAcc { code: 0 })
    }

    /// Plays one game to its end (both GAMEENDs exchanged).
    fn play(&mut self, mut cur: Current) -> Result<Played> {
        self.engine.new_game();
        loop {
            let to_move = cur.game.position().side_to_move();
            if to_move == cur.us {
                match cur.game.ending() {
                    Some(Ending::NoMove { .. }) => {
                        let why = format!("{} has no legal move", side_name(cur.us));
                        return self.end_game(&cur, EndReason::GiveUp, Score::Loss, why);
                    }
                    Some(Ending::Draw(r)) => {
                        let why = draw_reason_text(r).to_string();
                        return self.end_game(&cur, EndReason::Draw, Score::Draw, why);
                    }
                    None => {}
                }
                if let Some(cap) = self.max_plies {
                    if cur.game.moves().len() >= cap as usize {
                        let why = format!("move cap of {cap} plies reached");
                        return self.end_game(&cur, EndReason::Unknown, Score::Unfinished, why);
                    }
                }
                let limits = self.limits(&cur);
                let pos = *cur.game.position();
                let hist = cur.game.positions_since_irreversible();
                let hist = hist[..hist.len().saturating_sub(1)].to_vec();
                let started = Instant::now();
                self.conn.searching.store(true, Ordering::Relaxed);
                let result = self.engine.search(&pos, &hist, &limits, &mut |_| {});
                self.conn.searching.store(false, Ordering::Relaxed);
                let used = started.elapsed();
                if let Some(c) = cur.clock.as_mut() {
                    *c = c.saturating_sub(used);
                }
                // Whatever arrived during the search comes first.
                let mut interrupted = false;
                while let Some(item) = self.conn.recv_timeout(Duration::ZERO) {
                    match item {
                        Incoming::Message(Message::Chat(text), _) => {
                            eprintln!("dxp: chat from {}: {text}", cur.opponent);
                        }
                        Incoming::Message(Message::GameEnd { reason, stop }, _) => {
                            return self.peer_ended(&cur, reason, stop);
                        }
                        Incoming::Message(
                            Message::BackReq {
                                move_number,
                                to_move,
                            },
                            _,
                        ) => {
                            self.back(&mut cur, move_number, to_move)?;
                            interrupted = true;
                        }
                        Incoming::Closed(e) => bail!(
                            "the connection closed during the game{}",
                            e.map(|e| format!(": {e}")).unwrap_or_default()
                        ),
                        Incoming::Message(_, raw) => {
                            self.conn
                                .chat(&format!("error: not your turn, ignored {raw}"))?;
                        }
                        Incoming::Bad(e, _) => self.conn.chat(&format!("error: {e}"))?,
                    }
                }
                if interrupted {
                    continue;
                }
                let best = result
                    .best
                    .ok_or_else(|| anyhow!("the engine found no move in a live position"))?;
                self.conn.send(&Message::Move(DxpMove {
                    seconds: used.as_secs().min(9999) as u16,
                    from: best.from(),
                    to: best.to(),
                    captured: best.captured_squares(),
                }))?;
                cur.game
                    .play(&best)
                    .map_err(|e| anyhow!("our own move {e}"))?;
                cur.our_moves += 1;
                continue;
            }
            // The other side is to move. If it has no legal move, only a GAMEEND can come;
            // after 30 s of silence we end the game ourselves.
            let item = if matches!(cur.game.ending(), Some(Ending::NoMove { .. })) {
                match self.conn.recv_timeout(Duration::from_secs(30)) {
                    Some(item) => item,
                    None => {
                        let why = format!("{} has no legal move", side_name(to_move));
                        return self.end_game(&cur, EndReason::Win, Score::Win, why);
                    }
                }
            } else {
                self.conn.recv()
            };
            match item {
                Incoming::Message(Message::Move(m), raw) => {
                    let mv = Move::<G10>::new(m.from, m.to, &m.captured);
                    let pos = *cur.game.position();
                    if let Some(Ending::Draw(r)) = cur.game.ending() {
                        if pos.legal_moves().contains(&mv) {
                            let why = format!("{}, before {raw}", draw_reason_text(r));
                            return self.end_game(&cur, EndReason::Draw, Score::Draw, why);
                        }
                    }
                    if cur.game.play(&mv).is_err() {
                        let legal: Vec<String> = pos
                            .legal_moves()
                            .iter()
                            .map(|m| notation::format(&pos, m))
                            .collect();
                        let mut what = format!(
                            "illegal move {raw} in {}; legal: {}",
                            fen::write(&pos),
                            legal.join(" ")
                        );
                        what.truncate(MAX_LEN - 8);
                        return Err(self.abort(&what));
                    }
                }
                Incoming::Message(Message::GameEnd { reason, stop }, _) => {
                    return self.peer_ended(&cur, reason, stop);
                }
                Incoming::Message(Message::Chat(text), _) => {
                    eprintln!("dxp: chat from {}: {text}", cur.opponent);
                }
                Incoming::Message(
                    Message::BackReq {
                        move_number,
                        to_move,
                    },
                    _,
                ) => self.back(&mut cur, move_number, to_move)?,
                Incoming::Message(_, raw) => {
                    self.conn
                        .chat(&format!("error: unexpected during a game, ignored: {raw}"))?;
                }
                Incoming::Bad(e, raw) => {
                    if raw.starts_with('M') {
                        return Err(self.abort(&format!("unreadable move {raw:?}: {e}")));
                    }
                    self.conn.chat(&format!("error: {e}"))?;
                }
                Incoming::Closed(e) => bail!(
                    "the connection closed during the game{}",
                    e.map(|e| format!(": {e}")).unwrap_or_default()
                ),
            }
        }
    }
}

fn new_engine(args: &DxpArgs) -> Engine<G10> {
    let mut engine = Engine::<G10>::new(&INTERNATIONAL, args.hash.max(1));
    if args.tables >= 2 {
        let tables = Tables::generate::<G10>(&INTERNATIONAL, args.tables, &mut |_, _| {});
        engine.set_tables(Some(Arc::new(tables)));
    }
    engine
}

/// The limits of our next search: `--move-time` if given, else the game's clock (`clock`
/// left, `control_moves` to make in it of which we have made `our_moves`), else 1 s.
fn search_limits(
    move_time: Option<Duration>,
    clock: Option<Duration>,
    control_moves: u16,
    our_moves: u32,
) -> Limits {
    if let Some(t) = move_time {
        return Limits::move_time(t);
    }
    match clock {
        None => Limits::move_time(Duration::from_secs(1)),
        Some(remaining) => {
            let moves_to_go = (control_moves > 0 && our_moves < u32::from(control_moves))
                .then(|| u32::from(control_moves) - our_moves);
            Limits {
                depth: None,
                nodes: None,
                time: TimeControl::Clock {
                    remaining,
                    increment: Duration::ZERO,
                    moves_to_go,
                },
                search_forced: false,
            }
        }
    }
}

/// The clock of a game whose GAMEREQ gives each player `minutes` (0: no clock). The field
/// has three digits, but any `u16` gives a clock the engine can keep.
fn game_clock(minutes: u16) -> Option<Duration> {
    (minutes > 0).then(|| Duration::from_secs(u64::from(minutes) * 60))
}

fn engine_name() -> String {
    format!("tablier {}", env!("CARGO_PKG_VERSION"))
}

/// `--move-time`, checked: more than 0 and at most [`MAX_SECONDS`].
fn move_time(args: &DxpArgs) -> Result<Option<Duration>> {
    args.move_time
        .map(|s| {
            crate::draughts_protocol::seconds(s)
                .filter(|d| !d.is_zero())
                .ok_or_else(|| {
                    anyhow!("--move-time must be a number of seconds above 0 and at most {MAX_SECONDS:e}")
                })
        })
        .transpose()
}

/// `--hash`, checked against the memory the machine can give (half of it).
fn check_hash(args: &DxpArgs, memory_limit: u64) -> Result<()> {
    let bytes = (args.hash as u64).saturating_mul(1 << 20);
    if bytes > memory_limit {
        bail!(
            "--hash {}: more than the {} MiB this machine can give the table (half its memory)",
            args.hash,
            memory_limit >> 20
        );
    }
    Ok(())
}

/// Serves one connection as follower: answers GAMEREQs and plays the games.
fn follow(stream: TcpStream, args: &DxpArgs, engine: Engine<G10>) -> Result<Engine<G10>> {
    let peer = stream
        .peer_addr()
        .map_or_else(|_| "?".to_string(), |a| a.to_string());
    let mut s = Session::new(stream, args, engine)?;
    let mut games = 0usize;
    loop {
        match s.conn.recv() {
            Incoming::Closed(_) => break,
            Incoming::Message(Message::GameReq(req), _) => {
                if req.version != VERSION {
                    s.conn.send(&Message::GameAcc {
                        name: s.name.clone(),
                        code: 1,
                    })?;
                    continue;
                }
                let pos = match start_position(&req.start) {
                    Ok(p) => p,
                    Err(e) => {
                        s.conn.send(&Message::GameAcc {
                            name: s.name.clone(),
                            code: 2,
                        })?;
                        s.conn.chat(&format!("refused: {e}"))?;
                        continue;
                    }
                };
                s.conn.send(&Message::GameAcc {
                    name: s.name.clone(),
                    code: 0,
                })?;
                let cur = Current {
                    game: Game::from_position(pos),
                    us: req.follower,
                    opponent: if req.initiator.is_empty() {
                        peer.clone()
                    } else {
                        req.initiator.clone()
                    },
                    clock: game_clock(req.minutes),
                    control_moves: req.moves,
                    our_moves: 0,
                };
                let played = s.play(cur)?;
                games += 1;
                println!("{}", played.line(games));
            }
            // A GAMEEND outside a game answers ours, or comes late: never answered.
            Incoming::Message(Message::GameEnd { .. }, _) => {}
            Incoming::Message(Message::Chat(text), _) => eprintln!("dxp: chat from {peer}: {text}"),
            Incoming::Message(Message::BackReq { .. }, _) => {
                s.conn.send(&Message::BackAcc { code: 1 })?;
            }
            Incoming::Message(_, raw) => {
                s.conn
                    .chat(&format!("error: no game in progress, ignored: {raw}"))?;
            }
            Incoming::Bad(e, raw) => {
                if raw.starts_with('R') {
                    s.conn.send(&Message::GameAcc {
                        name: s.name.clone(),
                        code: 2,
                    })?;
                }
                s.conn.chat(&format!("error: {e}"))?;
            }
        }
    }
    s.conn.close();
    Ok(s.engine)
}

/// `addr` with DXP's port if it names none.
fn with_port(addr: &str) -> String {
    if addr.contains(':') {
        addr.to_string()
    } else {
        format!("{addr}:{DEFAULT_PORT}")
    }
}

fn run_follower(addr: &str, args: &DxpArgs) -> Result<()> {
    let addr = with_port(addr);
    let listener = TcpListener::bind(&addr).with_context(|| format!("listening on {addr}"))?;
    let mut engine = new_engine(args);
    // Said once the engine (and its endgame tables) is ready.
    println!("tablier dxp: listening on {}", listener.local_addr()?);
    let _ = std::io::stdout().flush();
    loop {
        let (stream, peer) = listener.accept().context("accepting a connection")?;
        eprintln!("dxp: connection from {peer}");
        engine = match follow(stream, args, engine) {
            Ok(engine) => engine,
            Err(e) => {
                if args.once {
                    return Err(e);
                }
                eprintln!("dxp: {e:#}");
                new_engine(args)
            }
        };
        if args.once {
            return Ok(());
        }
    }
}

fn run_initiator(addr: &str, args: &DxpArgs) -> Result<()> {
    let addr = with_port(addr);
    let start = match &args.fen {
        None => Position::start(&INTERNATIONAL)?,
        Some(f) => fen::parse::<G10>(&INTERNATIONAL, f).map_err(|e| anyhow!("--fen {f}: {e}"))?,
    };
    let start_field = if start == Position::start(&INTERNATIONAL)? {
        StartPosition::Initial
    } else {
        StartPosition::Setup {
            to_move: start.side_to_move(),
            squares: position_squares(&start),
        }
    };
    if args.time_per_game_min == 0 || args.time_per_game_min > 999 {
        bail!("--time-per-game-min must be 1..999");
    }
    let stream = TcpStream::connect(&addr).with_context(|| format!("connecting to {addr}"))?;
    let mut s = Session::new(stream, args, new_engine(args))?;
    let mut played: Vec<Played> = Vec::new();
    for g in 0..args.games {
        let us = if g % 2 == 0 { Side::White } else { Side::Black };
        s.conn.send(&Message::GameReq(GameRequest {
            version: VERSION,
            initiator: s.name.clone(),
            follower: us.opposite(),
            minutes: args.time_per_game_min,
            moves: args.moves,
            start: start_field.clone(),
        }))?;
        let deadline = Instant::now() + Duration::from_secs(30);
        let opponent = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match s.conn.recv_timeout(left) {
                None => bail!("no GAMEACC from {addr} within 30 s"),
                Some(Incoming::Message(Message::GameAcc { name, code: 0 }, _)) => break name,
                Some(Incoming::Message(Message::GameAcc { name, code }, _)) => {
                    let why = match code {
                        1 => "protocol version not supported",
                        2 => "not this game",
                        3 => "no game at all",
                        _ => "unknown code",
                    };
                    bail!("{name} refused game {}: code {code} ({why})", g + 1);
                }
                Some(Incoming::Message(Message::Chat(text), _)) => {
                    eprintln!("dxp: chat from {addr}: {text}");
                }
                Some(Incoming::Message(Message::GameEnd { .. }, _)) => {}
                Some(Incoming::Closed(_)) => bail!("{addr} closed the connection"),
                Some(Incoming::Message(_, raw)) => {
                    s.conn
                        .chat(&format!("error: expected GAMEACC, ignored: {raw}"))?;
                }
                Some(Incoming::Bad(e, _)) => s.conn.chat(&format!("error: {e}"))?,
            }
        };
        let cur = Current {
            game: Game::from_position(start),
            us,
            opponent,
            clock: game_clock(args.time_per_game_min),
            control_moves: args.moves,
            our_moves: 0,
        };
        let p = s.play(cur)?;
        println!("{}", p.line(played.len() + 1));
        let stop = p.peer_stop;
        played.push(p);
        if stop && g + 1 < args.games {
            eprintln!("dxp: the follower asked to stop after game {}", g + 1);
            break;
        }
    }
    s.conn.close();
    let (mut w, mut d, mut l, mut u) = (0, 0, 0, 0);
    for p in &played {
        match p.score {
            Score::Win => w += 1,
            Score::Draw => d += 1,
            Score::Loss => l += 1,
            Score::Unfinished => u += 1,
        }
    }
    let opponent = played.first().map_or("?", |p| p.opponent.as_str());
    println!(
        "tablier {w} wins, {d} draws, {l} losses{} against {opponent} in {} games: {} points of {}",
        if u > 0 {
            format!(", {u} unfinished")
        } else {
            String::new()
        },
        played.len(),
        2 * w + d,
        2 * (w + d + l)
    );
    Ok(())
}

/// Runs `tablier dxp`.
///
/// # Errors
/// A connection that cannot be made or fails, a GAMEREQ refused (initiator), an illegal or
/// unreadable move received.
pub fn dxp(args: &DxpArgs) -> Result<()> {
    move_time(args)?;
    check_hash(args, crate::draughts_protocol::memory_limit())?;
    // Ctrl-C: the other side hears GAMEEND with stop code 1 before the connection closes.
    let _ = ctrlc::set_handler(|| {
        if let Some(mut peer) = PEER.lock().ok().and_then(|mut p| p.take()) {
            let _ = peer.write_all(b"E01\0Cstopped by the operator\0");
            let _ = peer.shutdown(Shutdown::Both);
        }
        eprintln!("dxp: stopped");
        std::process::exit(130);
    });
    match (&args.listen, &args.connect) {
        (Some(addr), None) => run_follower(addr, args),
        (None, Some(addr)) => run_initiator(addr, args),
        _ => bail!("give either --listen ADDR (follower) or --connect HOST:PORT (initiator)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn spec_examples_read_and_write_back() {
        let cases = [
            "M0012061100",
            "M001205250422122320",
            "ATornado voor Windows 4.0        0",
            "R01Tornado voor Windows 4.0        W060065A",
            "E00",
            "E21",
            "CWhat do you think about move 35?",
            "B005Z",
            "K1",
        ];
        for text in cases {
            let m = parse(text.as_bytes()).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(m.encode(), text, "{m:?}");
        }
        assert_eq!(
            parse(b"M001205250422122320").unwrap(),
            Message::Move(DxpMove {
                seconds: 12,
                from: 5,
                to: 25,
                captured: vec![22, 12, 23, 20],
            })
        );
        match parse(b"R01Tornado voor Windows 4.0        W060065A").unwrap() {
            Message::GameReq(r) => {
                assert_eq!(r.initiator, "Tornado voor Windows 4.0");
                assert_eq!(r.follower, Side::White);
                assert_eq!((r.minutes, r.moves), (60, 65));
                assert_eq!(r.start, StartPosition::Initial);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn pydraughts_gamereq_with_a_position() {
        // What pydraughts' DXPEngine sends: always a set-up position ('B').
        let start = Position::<G10>::start(&INTERNATIONAL).unwrap();
        let text = format!(
            "R01{:<32}Z001000BW{}",
            "DXP Client",
            position_squares(&start)
        );
        let Message::GameReq(r) = parse(text.as_bytes()).unwrap() else {
            panic!()
        };
        assert_eq!(r.follower, Side::Black);
        assert_eq!(start_position(&r.start).unwrap(), start);
        assert_eq!(Message::GameReq(r).encode(), text);
        assert_eq!(&position_squares(&start)[..21], "zzzzzzzzzzzzzzzzzzzze");
    }

    #[test]
    fn impossible_start_positions_are_refused() {
        let mut squares = "e".repeat(50);
        // A white man on square 3 (White's promotion row).
        squares.replace_range(2..3, "w");
        squares.replace_range(30..31, "z");
        let bad = StartPosition::Setup {
            to_move: Side::White,
            squares: squares.clone(),
        };
        assert!(start_position(&bad).is_err());
        // White to move with no piece at all.
        let none = StartPosition::Setup {
            to_move: Side::White,
            squares: format!("z{}", "e".repeat(49)),
        };
        let e = start_position(&none).unwrap_err().to_string();
        assert!(e.contains("no legal move"), "{e}");
        let fine = StartPosition::Setup {
            to_move: Side::Black,
            squares: format!("z{}w", "e".repeat(48)),
        };
        assert!(start_position(&fine).is_ok());
    }

    #[test]
    fn malformed_messages_get_clear_errors() {
        let cases: &[(&[u8], &str)] = &[
            (b"", "empty"),
            (b"X123", "unknown message type"),
            (b"M00120611", "too short: number captured"),
            (b"M0012061101", "too short: captured square 1"),
            (b"M001206110012", "unexpected characters"),
            (b"M00a2061100", "time must be 4 digits"),
            (b"M0012511100", "from square 51"),
            (b"M0012000100", "from square 00"),
            (b"M0012061121", "more than 20"),
            (b"E4", "reason must be 0..3"),
            (b"E0", "too short: stop code"),
            (b"E02", "stop code must be 0 or 1"),
            (b"E000", "unexpected characters"),
            (b"R01short", "too short: initiator name"),
            (
                b"R01Tornado voor Windows 4.0        X060065A",
                "follower colour must be W or Z",
            ),
            (
                b"R01Tornado voor Windows 4.0        W06006",
                "too short: number of moves",
            ),
            (
                b"R01Tornado voor Windows 4.0        W060065C",
                "starting position must be A or B",
            ),
            (
                b"R01Tornado voor Windows 4.0        W060065BWeee",
                "too short: position",
            ),
            (b"Rx1", "version must be 2 digits"),
            (b"A", "acceptance code is missing"),
            (b"ATornado x", "acceptance code must be a digit"),
            (b"B05Z", "move number must be 3 digits"),
            (b"B005Q", "colour to move must be W or Z"),
            (b"K", "too short"),
            (b"M0012\xff611", "not an ASCII character"),
            (b"C\x00", "not an ASCII character"),
        ];
        for (bytes, want) in cases {
            let e = parse(bytes).expect_err(&String::from_utf8_lossy(bytes));
            assert!(
                e.to_string().contains(want),
                "{:?}: {e} (wanted {want:?})",
                String::from_utf8_lossy(bytes)
            );
        }
        let long = [b'C'; 128];
        assert!(parse(&long)
            .unwrap_err()
            .to_string()
            .contains("more than the 127"));
        let mut pos = "R01Tornado voor Windows 4.0        W060065BW".to_string();
        pos.push_str(&"e".repeat(49));
        pos.push('x');
        let e = parse(pos.as_bytes()).unwrap_err().to_string();
        assert!(e.contains("square 50 of the position"), "{e}");
        // A later version is read no further (it is refused with code 1).
        let Message::GameReq(r) = parse(b"R02whatever").unwrap() else {
            panic!()
        };
        assert_eq!(r.version, 2);
    }

    /// Cases per fuzz property: `PROPTEST_CASES` when set (to fuzz longer, e.g.
    /// `PROPTEST_CASES=1000000`), else `default`, a few seconds' worth in CI.
    fn cases(default: u32) -> u32 {
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    }

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

    /// What the engine does with a game's limits: the budgets, and the instant at which the
    /// search must stop; none of it may panic.
    fn engine_side(limits: &Limits) {
        let (soft, hard) = limits.budgets();
        for d in [soft, hard].into_iter().flatten() {
            assert!(Instant::now().checked_add(d).is_some(), "{limits:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases(100_000)))]

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

    fn dxp_args(args: &[&str]) -> DxpArgs {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            dxp: DxpArgs,
        }
        let mut argv = vec!["dxp", "--listen", "127.0.0.1:0"];
        argv.extend_from_slice(args);
        <Cli as clap::Parser>::try_parse_from(argv).unwrap().dxp
    }

    #[test]
    fn move_times_the_engine_cannot_keep_are_refused() {
        for bad in ["1e30", "1.8e19", "1e10", "inf", "NaN", "-1", "0"] {
            let args = dxp_args(&[&format!("--move-time={bad}")]);
            assert!(move_time(&args).is_err(), "--move-time {bad}");
        }
        for good in ["0.001", "1", "1e9"] {
            let args = dxp_args(&["--move-time", good]);
            let t = move_time(&args).unwrap().unwrap();
            assert!(Instant::now().checked_add(t).is_some());
        }
    }

    #[test]
    fn hash_tables_larger_than_the_machine_can_give_are_refused() {
        let gib = 1 << 30;
        assert!(check_hash(&dxp_args(&[]), gib).is_ok());
        assert!(check_hash(&dxp_args(&["--hash", "1024"]), gib).is_ok());
        let e = check_hash(&dxp_args(&["--hash", "1025"]), gib).unwrap_err();
        assert!(e.to_string().contains("1024 MiB"), "{e}");
        let huge = usize::MAX.to_string();
        assert!(check_hash(&dxp_args(&["--hash", &huge]), u64::MAX / 2).is_err());
    }

    #[test]
    fn names_are_fixed_width_and_never_start_blank() {
        assert_eq!(name_field("  x").len(), 32);
        assert!(name_field("  x").starts_with('x'));
        assert_eq!(name_field(&"y".repeat(40)), "y".repeat(32));
        assert_eq!(name_field(""), format!("{:<32}", "?"));
        let chat = Message::Chat(format!("a\0b{}", "c".repeat(200))).encode();
        assert_eq!(chat.len(), MAX_LEN);
        assert!(parse(chat.as_bytes()).is_ok());
    }

    #[test]
    fn line_breaks_around_messages_are_tolerated() {
        assert_eq!(trim_line_breaks(b"\r\nE00\n"), b"E00");
        assert_eq!(trim_line_breaks(b"\n\n"), b"");
    }
}
