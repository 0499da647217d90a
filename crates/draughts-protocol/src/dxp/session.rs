//! DXP sessions: our engine playing games on one connection, as follower
//! ([`Session::follow`]: answers game requests) or initiator ([`Session::initiate`]: asks for
//! a series of games). A session runs over a [`Transport`], any pair of byte streams: TCP in
//! `tablier dxp`, but a pipe or an in-memory channel serve as well.
//!
//! The messages are read on a thread of their own, so that a message arriving while our
//! engine searches (a GAMEEND, a BACKREQ) stops the search at once. What happens on the
//! connection (messages sent and received, chats, remarks) goes to a [`Note`] callback; the
//! results of the games to another.
//!
//! With [`Options::ponder`], our engine also thinks on the other side's time: after each of
//! our moves it searches the position after the reply its search expects, until the reply
//! (or any other message) arrives. When the expected reply comes, the search of our next
//! move starts from a hash table that already holds that work. Where no reply is expected (our
//! move was forced, so not searched, or the other side moves first) it searches the other
//! side's position itself, which fills the table under every reply, less deeply.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use tablier_core::Side;
use tablier_draughts::game::{DrawReason, Ending, Game};
use tablier_draughts::{fen, notation, Move, Position, G10, INTERNATIONAL};
use tablier_draughts_engine::{Engine, Limits, Tables, TimeControl, Wdl};

use super::message::{
    colour_char, parse, position_squares, side_name, start_position, DxpMove, EndReason,
    GameRequest, Message, ParseError, StartPosition,
};
use super::{MAX_LEN, VERSION};

/// The two ends of a connection: what the other side sends is read from `reader` (on a
/// thread of the session's own), what we send is written to `writer`.
pub struct Transport {
    reader: Box<dyn Read + Send>,
    writer: Box<dyn Write + Send>,
    close: Option<Box<dyn FnMut() + Send>>,
}

impl Transport {
    /// A connection made of a reading and a writing stream (the two ends of a pipe, two
    /// halves of a socket...). Closing it only flushes `writer`: add a way to end the
    /// connection with [`Transport::on_close`].
    pub fn new(reader: impl Read + Send + 'static, writer: impl Write + Send + 'static) -> Self {
        Transport {
            reader: Box::new(reader),
            writer: Box::new(writer),
            close: None,
        }
    }

    /// What closing the connection does (after the writer is flushed): it should end both
    /// directions, so that the other side reads the end and our reading thread stops.
    #[must_use]
    pub fn on_close(mut self, close: impl FnMut() + Send + 'static) -> Self {
        self.close = Some(Box::new(close));
        self
    }

    /// A TCP connection: Nagle's algorithm off (every message leaves at once), and closing
    /// shuts the socket down both ways.
    ///
    /// # Errors
    /// The socket cannot be set up or duplicated.
    pub fn tcp(stream: TcpStream) -> std::io::Result<Self> {
        stream.set_nodelay(true)?;
        let reader = stream.try_clone()?;
        let closer = stream.try_clone()?;
        Ok(Transport::new(reader, stream).on_close(move || {
            let _ = closer.shutdown(Shutdown::Both);
        }))
    }
}

/// What a session reports besides the results: for a log, or a transcript of the connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note<'a> {
    /// A message sent, as text (without its NUL).
    Sent(&'a str),
    /// What arrived: a message's text as received, an unreadable one quoted with the reason
    /// (`"M12" (bad DXP message M: ...)`), or `(connection closed)` /
    /// `(connection failed: ...)`.
    Received(&'a str),
    /// A chat from the other side.
    Chat {
        /// Who sent it: the opponent's name, or the connection's peer outside a game.
        from: &'a str,
        /// What it says.
        text: &'a str,
    },
    /// Something worth a line in a log: an answer that did not come, the other side asking
    /// to stop.
    Remark(&'a str),
}

/// Where a session's notes go.
type Notes = Box<dyn FnMut(Note<'_>)>;

/// How our side plays.
#[derive(Clone, Debug)]
pub struct Options {
    /// Our name in GAMEREQ and GAMEACC messages (at most 32 characters are sent).
    pub name: String,
    /// Think this long per move, instead of dividing the game's thinking time.
    pub move_time: Option<Duration>,
    /// End a game without result (GAMEEND reason 0, with a chat) once this many plies have
    /// been played and it is our turn.
    pub max_plies: Option<u32>,
    /// Adjudicate by these endgame tables: once the position on the board (at our turn) is
    /// in them, the game ends with the result they give (GAMEEND with our claim, a chat
    /// saying why), and [`Played::adjudicated`] says so.
    pub adjudicate: Option<Arc<Tables>>,
    /// Think on the other side's time (pondering; DXP has no message for it, so either side
    /// may): see the module's documentation.
    pub ponder: bool,
}

/// The games an initiator asks for: `games` games from `start`, colours alternating (we
/// take `first_colour` in the first), each player having `minutes` for `moves` moves (0: the
/// whole game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    /// Games to play.
    pub games: u32,
    /// Thinking time of each player for the whole game, in minutes (the GAMEREQ's field).
    pub minutes: u16,
    /// The number of moves to make in that time (0: the whole game).
    pub moves: u16,
    /// The position every game starts from.
    pub start: Position<G10>,
    /// Our colour in the first game.
    pub first_colour: Side,
}

/// The other side broke the protocol during a game (an illegal or unreadable move): the
/// game is lost by it, and the connection is closed. Sessions return it inside their
/// [`anyhow::Error`]; a match runner finds it with `downcast_ref` and scores a forfeit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Forfeit(pub String);

/// What the reading thread hands over.
enum Incoming {
    /// A message, with its text as received.
    Message(Message, String),
    /// A message that could not be read, with its bytes as text (lossy).
    Bad(ParseError, String),
    /// The other side closed the connection (or it failed).
    Closed(Option<String>),
}

/// One connection: a writer, and a thread that reads and parses messages.
struct Connection {
    writer: Box<dyn Write + Send>,
    close: Option<Box<dyn FnMut() + Send>>,
    rx: Receiver<Incoming>,
    /// Set while our engine searches: the reader then stops the search when a message
    /// other than a chat arrives.
    searching: Arc<AtomicBool>,
    /// Set by the reader at each message received.
    heard: Arc<AtomicBool>,
    /// When we last sent.
    last_send: Option<Instant>,
    notes: Notes,
}

/// Least time between two messages we send with nothing received in between. pydraughts
/// 0.6.7 reads whatever one `recv` returns as a single message, so two messages that arrive
/// together lose the second (a GAMEACC followed at once by our first move, say).
const PACE: Duration = Duration::from_millis(500);

impl Connection {
    fn new(transport: Transport, engine_stop: Arc<AtomicBool>, notes: Notes) -> Self {
        let Transport {
            mut reader,
            writer,
            close,
        } = transport;
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
                    if tx.send(item).is_err() {
                        return;
                    }
                    // Only once the message waits in the channel: a search that began before
                    // this point is stopped, one that begins after it finds the message there
                    // (`Session::ponder` looks before it searches), so none waits for ever.
                    std::sync::atomic::fence(Ordering::SeqCst);
                    if !is_chat && flag.load(Ordering::SeqCst) {
                        engine_stop.store(true, Ordering::SeqCst);
                    }
                }
            }
        });
        Connection {
            writer,
            close,
            rx,
            searching,
            heard,
            last_send: None,
            notes,
        }
    }

    fn send(&mut self, m: &Message) -> Result<()> {
        let text = m.encode();
        let heard = self.heard.swap(false, Ordering::Relaxed);
        if let Some(t) = self.last_send.filter(|_| !heard) {
            std::thread::sleep(PACE.saturating_sub(t.elapsed()));
        }
        (self.notes)(Note::Sent(&text));
        let mut bytes = text.into_bytes();
        bytes.push(0);
        self.writer
            .write_all(&bytes)
            .and_then(|()| self.writer.flush())
            .context("sending a DXP message")?;
        self.last_send = Some(Instant::now());
        Ok(())
    }

    fn chat(&mut self, text: &str) -> Result<()> {
        self.send(&Message::Chat(text.to_string()))
    }

    fn note(&mut self, note: Note<'_>) {
        (self.notes)(note);
    }

    fn log(&mut self, item: &Incoming) {
        let text = match item {
            Incoming::Message(_, raw) => raw.clone(),
            Incoming::Bad(e, raw) => format!("{raw:?} ({e})"),
            Incoming::Closed(None) => "(connection closed)".to_string(),
            Incoming::Closed(Some(e)) => format!("(connection failed: {e})"),
        };
        (self.notes)(Note::Received(&text));
    }

    fn recv(&mut self) -> Incoming {
        let item = self
            .rx
            .recv()
            .unwrap_or_else(|_| Incoming::Closed(Some("reader stopped".into())));
        self.log(&item);
        item
    }

    /// The next item within `t` (`Duration::ZERO`: only what has already arrived).
    fn recv_timeout(&mut self, t: Duration) -> Option<Incoming> {
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

    fn close(&mut self) {
        let _ = self.writer.flush();
        if let Some(close) = self.close.as_mut() {
            close();
        }
    }
}

/// The bytes of a message without the line breaks some programs add around it.
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

/// How a game ended, from our side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// We won.
    Win,
    /// Neither side won.
    Draw,
    /// We lost.
    Loss,
    /// Ended without a result (GAMEEND reason 0 before the end, or the move cap).
    Unfinished,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// Our colour.
    pub us: Side,
    /// The opponent's name.
    pub opponent: String,
    /// How it ended for us.
    pub score: Score,
    /// Why it ended (`White has no legal move`, `draw by threefold repetition`...).
    pub why: String,
    /// Plies played.
    pub plies: usize,
    /// The other side's stop code 1: no more games on this connection.
    pub peer_stop: bool,
    /// Whether the result was given by our endgame tables ([`Options::adjudicate`]) rather
    /// than played out.
    pub adjudicated: bool,
    /// The game as played, from the position it started from.
    pub game: Game<G10>,
    /// With [`Options::ponder`]: the other side's moves we pondered on, and how many of them
    /// were the reply we expected.
    pub pondered: (u32, u32),
    /// With [`Options::ponder`]: the other side's moves that came while we pondered on its
    /// position itself, no reply being expected (after a forced move of ours, which is played
    /// unsearched, or on its first move).
    pub pondered_open: u32,
    /// The nodes of each search for our moves, in order (pondering not counted; a move
    /// played without a search, a forced one, left out).
    pub nodes: Vec<u64>,
}

impl Played {
    /// The result in international notation (2-0, 1-1, 0-2; `*` unfinished).
    #[must_use]
    pub fn result(&self) -> &'static str {
        match (self.score, self.us) {
            (Score::Win, Side::White) | (Score::Loss, Side::Black) => "2-0",
            (Score::Loss, Side::White) | (Score::Win, Side::Black) => "0-2",
            (Score::Draw, _) => "1-1",
            (Score::Unfinished, _) => "*",
        }
    }

    /// The game as one line of a report, game `number` of the connection: `game 1: tablier -
    /// Kingsrow 2-0 (Black has no legal move, 83 plies)`.
    #[must_use]
    pub fn line(&self, number: usize) -> String {
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

/// One player session on a connection: our engine, and how it plays.
pub struct Session {
    conn: Connection,
    engine: Engine<G10>,
    name: String,
    move_time: Option<Duration>,
    max_plies: Option<u32>,
    adjudicate: Option<Arc<Tables>>,
    ponder: bool,
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
    /// Replies pondered on, and how many came as expected.
    pondered: (u32, u32),
    /// Replies that came while we pondered on the other side's position itself.
    pondered_open: u32,
    /// Nodes of each search for our moves.
    nodes: Vec<u64>,
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
            adjudicated: false,
            game: self.game.clone(),
            pondered: self.pondered,
            pondered_open: self.pondered_open,
            nodes: self.nodes.clone(),
        }
    }
}

impl Session {
    /// A session on `transport` with `engine` (its stop flag is raised when a message
    /// other than a chat arrives during a search); what happens on the connection goes to
    /// `notes`.
    pub fn new(
        transport: Transport,
        engine: Engine<G10>,
        options: Options,
        notes: impl FnMut(Note<'_>) + 'static,
    ) -> Session {
        Session {
            conn: Connection::new(transport, engine.stop_flag(), Box::new(notes)),
            engine,
            name: options.name,
            move_time: options.move_time,
            max_plies: options.max_plies,
            adjudicate: options.adjudicate,
            ponder: options.ponder,
        }
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
                    self.conn
                        .note(Note::Remark("no GAMEEND in answer to ours after 10 s"));
                    break;
                }
                Some(Incoming::Message(Message::GameEnd { stop, .. }, _)) => {
                    peer_stop = stop;
                    break;
                }
                Some(Incoming::Message(Message::Chat(text), _)) => {
                    self.conn.note(Note::Chat {
                        from: &cur.opponent,
                        text: &text,
                    });
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
        anyhow::Error::new(Forfeit(what.to_owned()))
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
        // The reply our last search expects, to ponder on.
        let mut expected: Option<Move<G10>> = None;
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
                if let Some(wdl) = self
                    .adjudicate
                    .as_ref()
                    .and_then(|t| t.probe(cur.game.position()))
                {
                    // The side to move is us.
                    let (reason, score) = match wdl {
                        Wdl::Win => (EndReason::Win, Score::Win),
                        Wdl::Draw => (EndReason::Draw, Score::Draw),
                        Wdl::Loss => (EndReason::GiveUp, Score::Loss),
                    };
                    let pieces = cur.game.position().pieces().len();
                    let why = match score {
                        Score::Draw => {
                            format!("adjudicated: a draw by the endgame tables ({pieces} pieces)")
                        }
                        _ => {
                            let winner = if score == Score::Win {
                                cur.us
                            } else {
                                cur.us.opposite()
                            };
                            format!(
                                "adjudicated: {} wins by the endgame tables ({pieces} pieces)",
                                side_name(winner)
                            )
                        }
                    };
                    let mut played = self.end_game(&cur, reason, score, why)?;
                    played.adjudicated = true;
                    return Ok(played);
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
                // A message that stopped an earlier search (a ponder's, a GAMEEND or BACKREQ
                // during our search) must not stop this one.
                self.engine.stop_flag().store(false, Ordering::Relaxed);
                self.conn.searching.store(true, Ordering::Relaxed);
                let result = self.engine.search(&pos, &hist, &limits, &mut |_| {});
                self.conn.searching.store(false, Ordering::Relaxed);
                if result.nodes > 0 {
                    cur.nodes.push(result.nodes);
                }
                let used = started.elapsed();
                if let Some(c) = cur.clock.as_mut() {
                    *c = c.saturating_sub(used);
                }
                // Whatever arrived during the search comes first.
                let mut interrupted = false;
                while let Some(item) = self.conn.recv_timeout(Duration::ZERO) {
                    match item {
                        Incoming::Message(Message::Chat(text), _) => {
                            self.conn.note(Note::Chat {
                                from: &cur.opponent,
                                text: &text,
                            });
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
                expected = result.ponder.filter(|_| self.ponder);
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
            } else if let Some(reply) = expected.take() {
                let item = self.ponder(&cur, Some(&reply));
                if let Incoming::Message(Message::Move(m), _) = &item {
                    cur.pondered.0 += 1;
                    if Move::<G10>::new(m.from, m.to, &m.captured) == reply {
                        cur.pondered.1 += 1;
                    }
                }
                item
            } else if self.ponder {
                // No reply expected (our move was forced, so unsearched, or the other side
                // moves first): search the other side's position itself, which fills the
                // hash table under each of its replies, if less deeply.
                let item = self.ponder(&cur, None);
                if let Incoming::Message(Message::Move(_), _) = &item {
                    cur.pondered_open += 1;
                }
                item
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
                    self.conn.note(Note::Chat {
                        from: &cur.opponent,
                        text: &text,
                    });
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

    /// Searches the position after `reply` (the other side to move in `cur`), or with no
    /// reply the position in `cur` itself, until a message arrives, and returns that message.
    /// The search's only use is the hash table it fills.
    fn ponder(&mut self, cur: &Current, reply: Option<&Move<G10>>) -> Incoming {
        let mut game = cur.game.clone();
        if let Some(reply) = reply {
            if game.play(reply).is_err() {
                return self.conn.recv();
            }
        }
        if game.ending().is_some() {
            return self.conn.recv();
        }
        let pos = *game.position();
        let hist = game.positions_since_irreversible();
        let hist = hist[..hist.len().saturating_sub(1)].to_vec();
        let limits = Limits {
            depth: None,
            nodes: None,
            time: TimeControl::Infinite,
            search_forced: false,
        };
        self.engine.stop_flag().store(false, Ordering::SeqCst);
        self.conn.searching.store(true, Ordering::SeqCst);
        std::sync::atomic::fence(Ordering::SeqCst);
        // What arrived before the reader knew of the search would not stop it.
        if let Some(item) = self.conn.recv_timeout(Duration::ZERO) {
            self.conn.searching.store(false, Ordering::Relaxed);
            return item;
        }
        self.engine.search(&pos, &hist, &limits, &mut |_| {});
        self.conn.searching.store(false, Ordering::Relaxed);
        self.conn.recv()
    }

    /// Serves the connection as follower until the other side closes it: answers each
    /// GAMEREQ (refusing, with a chat saying why, a version other than 01, a malformed
    /// request or an impossible start position) and plays the games. `peer` names the other
    /// side until its GAMEREQ gives a name; `on_game` hears each game played, numbered from
    /// 1. The connection is closed at the end.
    ///
    /// # Errors
    /// The connection fails during a game, or an illegal or unreadable move is received
    /// (the connection is then closed with GAMEEND stop code 1).
    pub fn follow(&mut self, peer: &str, on_game: &mut dyn FnMut(usize, &Played)) -> Result<()> {
        let mut games = 0usize;
        loop {
            match self.conn.recv() {
                Incoming::Closed(_) => break,
                Incoming::Message(Message::GameReq(req), _) => {
                    if req.version != VERSION {
                        self.conn.send(&Message::GameAcc {
                            name: self.name.clone(),
                            code: 1,
                        })?;
                        continue;
                    }
                    let pos = match start_position(&req.start) {
                        Ok(p) => p,
                        Err(e) => {
                            self.conn.send(&Message::GameAcc {
                                name: self.name.clone(),
                                code: 2,
                            })?;
                            self.conn.chat(&format!("refused: {e}"))?;
                            continue;
                        }
                    };
                    self.conn.send(&Message::GameAcc {
                        name: self.name.clone(),
                        code: 0,
                    })?;
                    let cur = Current {
                        game: Game::from_position(pos),
                        us: req.follower,
                        opponent: if req.initiator.is_empty() {
                            peer.to_string()
                        } else {
                            req.initiator.clone()
                        },
                        clock: game_clock(req.minutes),
                        control_moves: req.moves,
                        our_moves: 0,
                        pondered: (0, 0),
                        pondered_open: 0,
                        nodes: Vec::new(),
                    };
                    let played = self.play(cur)?;
                    games += 1;
                    on_game(games, &played);
                }
                // A GAMEEND outside a game answers ours, or comes late: never answered.
                Incoming::Message(Message::GameEnd { .. }, _) => {}
                Incoming::Message(Message::Chat(text), _) => {
                    self.conn.note(Note::Chat {
                        from: peer,
                        text: &text,
                    });
                }
                Incoming::Message(Message::BackReq { .. }, _) => {
                    self.conn.send(&Message::BackAcc { code: 1 })?;
                }
                Incoming::Message(_, raw) => {
                    self.conn
                        .chat(&format!("error: no game in progress, ignored: {raw}"))?;
                }
                Incoming::Bad(e, raw) => {
                    if raw.starts_with('R') {
                        self.conn.send(&Message::GameAcc {
                            name: self.name.clone(),
                            code: 2,
                        })?;
                    }
                    self.conn.chat(&format!("error: {e}"))?;
                }
            }
        }
        self.conn.close();
        Ok(())
    }

    /// Asks the follower `peer` for the games of `series`, one after another, and plays
    /// them; stops early when the follower's GAMEEND asks to (stop code 1). `on_game` hears
    /// each game played, numbered from 1. Returns the games played.
    ///
    /// # Errors
    /// No GAMEACC within 30 s, a game refused, the connection closed or failing, an illegal
    /// or unreadable move received.
    pub fn initiate(
        &mut self,
        peer: &str,
        series: &Series,
        on_game: &mut dyn FnMut(usize, &Played),
    ) -> Result<Vec<Played>> {
        let start = series.start;
        let start_field = if start == Position::start(&INTERNATIONAL)? {
            StartPosition::Initial
        } else {
            StartPosition::Setup {
                to_move: start.side_to_move(),
                squares: position_squares(&start),
            }
        };
        let mut played: Vec<Played> = Vec::new();
        for g in 0..series.games {
            let us = if g % 2 == 0 {
                series.first_colour
            } else {
                series.first_colour.opposite()
            };
            self.conn.send(&Message::GameReq(GameRequest {
                version: VERSION,
                initiator: self.name.clone(),
                follower: us.opposite(),
                minutes: series.minutes,
                moves: series.moves,
                start: start_field.clone(),
            }))?;
            let deadline = Instant::now() + Duration::from_secs(30);
            let opponent = loop {
                let left = deadline.saturating_duration_since(Instant::now());
                match self.conn.recv_timeout(left) {
                    None => bail!("no GAMEACC from {peer} within 30 s"),
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
                        self.conn.note(Note::Chat {
                            from: peer,
                            text: &text,
                        });
                    }
                    Some(Incoming::Message(Message::GameEnd { .. }, _)) => {}
                    Some(Incoming::Closed(_)) => bail!("{peer} closed the connection"),
                    Some(Incoming::Message(_, raw)) => {
                        self.conn
                            .chat(&format!("error: expected GAMEACC, ignored: {raw}"))?;
                    }
                    Some(Incoming::Bad(e, _)) => self.conn.chat(&format!("error: {e}"))?,
                }
            };
            let cur = Current {
                game: Game::from_position(start),
                us,
                opponent,
                clock: game_clock(series.minutes),
                control_moves: series.moves,
                our_moves: 0,
                pondered: (0, 0),
                pondered_open: 0,
                nodes: Vec::new(),
            };
            let p = self.play(cur)?;
            on_game(played.len() + 1, &p);
            let stop = p.peer_stop;
            played.push(p);
            if stop && g + 1 < series.games {
                let remark = format!("the follower asked to stop after game {}", g + 1);
                self.conn.note(Note::Remark(&remark));
                break;
            }
        }
        Ok(played)
    }

    /// Closes the connection (see [`Transport::on_close`]).
    pub fn close(&mut self) {
        self.conn.close();
    }

    /// The engine back, for the next connection.
    #[must_use]
    pub fn into_engine(self) -> Engine<G10> {
        self.engine
    }
}

/// The limits of our next search: `--move-time` if given, else the game's clock (`clock`
/// left, `control_moves` to make in it of which we have made `our_moves`), else 1 s.
pub(crate) fn search_limits(
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
pub(crate) fn game_clock(minutes: u16) -> Option<Duration> {
    (minutes > 0).then(|| Duration::from_secs(u64::from(minutes) * 60))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_breaks_around_messages_are_tolerated() {
        assert_eq!(trim_line_breaks(b"\r\nE00\n"), b"E00");
        assert_eq!(trim_line_breaks(b"\n\n"), b"");
    }
}

#[cfg(all(test, unix))]
mod socket_tests {
    use super::*;
    use std::os::unix::net::UnixStream;

    fn transport(s: UnixStream) -> Transport {
        let reader = s.try_clone().unwrap();
        let closer = s.try_clone().unwrap();
        Transport::new(reader, s).on_close(move || {
            let _ = closer.shutdown(Shutdown::Both);
        })
    }

    fn session(s: UnixStream, name: &str, max_plies: Option<u32>) -> Session {
        session_with(s, name, max_plies, 5, false)
    }

    fn session_with(
        s: UnixStream,
        name: &str,
        max_plies: Option<u32>,
        move_ms: u64,
        ponder: bool,
    ) -> Session {
        let options = Options {
            name: name.to_string(),
            move_time: Some(Duration::from_millis(move_ms)),
            max_plies,
            adjudicate: None,
            ponder,
        };
        let engine = Engine::<G10>::new(&INTERNATIONAL, 1);
        Session::new(transport(s), engine, options, |_| {})
    }

    /// `games` one-minute games from the start, the initiator White in the first.
    fn from_the_start(games: u32) -> Series {
        Series {
            games,
            minutes: 1,
            moves: 0,
            start: Position::start(&INTERNATIONAL).unwrap(),
            first_colour: Side::White,
        }
    }

    #[test]
    fn a_pondering_initiator_ponders_on_each_reply_and_searches_its_moves_in_full() {
        let (a, b) = UnixStream::pair().unwrap();
        let follower = std::thread::spawn(move || {
            let mut s = session_with(b, "follower", None, 40, false);
            s.follow("peer", &mut |_, _| {}).unwrap();
        });
        let mut s = session_with(a, "initiator", Some(24), 40, true);
        // A stop flag left raised (by a message that stopped an earlier search) must not cut
        // the next search short.
        s.engine.stop_flag().store(true, Ordering::Relaxed);
        let played = s
            .initiate("follower", &from_the_start(1), &mut |_, _| {})
            .unwrap();
        s.close();
        follower.join().unwrap();
        let game = &played[0];
        assert_eq!(game.plies, 24);
        // The replies to our 12 moves all come while we ponder: those after a move that was
        // searched on the reply expected, those after a forced move (played unsearched, with
        // no reply expected) on the follower's position itself. The follower thinks 40 ms a
        // move, so the expected reply is often the one that comes.
        let (pondered, hits) = game.pondered;
        assert!((3..=12).contains(&pondered), "{:?}", game.pondered);
        assert_eq!(pondered + game.pondered_open, 12, "{:?}", game.pondered);
        assert!(hits >= 1 && hits <= pondered, "{:?}", game.pondered);
        // 40 ms a move is tens of thousands of nodes on an idle machine (a loaded CI machine
        // once gave a search only 4,096); a search stopped by a stale flag gives up at its
        // first look at the flag, after exactly 1,024.
        assert!(game.nodes.len() >= 6, "{:?}", game.nodes);
        assert!(game.nodes.iter().all(|&n| n > 1_024), "{:?}", game.nodes);
    }

    #[test]
    fn an_initiator_and_a_follower_play_a_series_over_a_socket_pair() {
        let (a, b) = UnixStream::pair().unwrap();
        let follower = std::thread::spawn(move || {
            let mut s = session(b, "follower", None);
            let mut games = Vec::new();
            s.follow("peer", &mut |n, p| games.push((n, p.clone())))
                .unwrap();
            games
        });
        // The initiator alone caps the games: it ends them on its turn, and closes the
        // connection only once the follower has answered its last GAMEEND.
        let mut s = session(a, "initiator", Some(6));
        let mut numbers = Vec::new();
        let played = s
            .initiate("follower", &from_the_start(2), &mut |n, _| numbers.push(n))
            .unwrap();
        s.close();
        let theirs = follower.join().unwrap();
        assert_eq!(numbers, [1, 2]);
        assert_eq!(played.len(), 2);
        assert_eq!(theirs.len(), 2);
        for (i, (mine, (n, their))) in played.iter().zip(&theirs).enumerate() {
            assert_eq!(*n, i + 1);
            // Colours alternate, the initiator White first; its move cap ends both games, on
            // its turn.
            let us = if i == 0 { Side::White } else { Side::Black };
            assert_eq!((mine.us, their.us), (us, us.opposite()));
            assert_eq!(
                (mine.score, their.score),
                (Score::Unfinished, Score::Unfinished)
            );
            assert_eq!((mine.plies, their.plies), (6 + i, 6 + i));
            assert_eq!(mine.opponent, "follower");
            assert_eq!(their.opponent, "initiator");
        }
    }
}
