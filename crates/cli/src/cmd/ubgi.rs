//! `tablier ubgi`: the backgammon engine over UBGI, the Universal Backgammon Interface (draft
//! 0.01, Ø. Schønning-Johansen, 2025), a UCI-like text protocol on stdin/stdout that
//! backgammon runners and leagues use to seat engines.
//!
//! The session: `ubgi` → `id name`, `id author`, `id version`, `readyok`; a position (an XGID
//! line, `XGID=…`, or a FIBS rawboard line, `board:…`) → the best action: the play as
//! from/to pairs written out hop by hop from the mover's side (`24/18 18/13`, 25 = bar,
//! 0 = off, a blank line when nothing can be played), `double` or `roll` before the dice,
//! `take` or `drop` to a double; `isready` → `readyok`; `stop` (nothing runs in the
//! background); `quit`. Anything else is answered `sorry`, with the reason on stderr.

use std::io::{BufRead, Write};

use anyhow::Result;
use clap::Args;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tablier_backgammon::xgid::Xgid;
use tablier_backgammon_engine::eval::{Evaluator, Scratch};
use tablier_backgammon_engine::fibs::{
    answer, board_from_xgid, parse_board, BoardLine, Dialect, Player,
};

use crate::cmd::backgammon::EngineArgs;

/// `tablier ubgi`.
#[derive(Args)]
pub struct UbgiArgs {
    #[command(flatten)]
    engine: EngineArgs,
}

/// What one input line asks of the engine.
#[derive(Debug, PartialEq)]
enum Request {
    /// `ubgi`: identify, initialise, `readyok`.
    Hello,
    /// `isready`.
    IsReady,
    /// `stop`: nothing to stop.
    Stop,
    /// `quit`.
    Quit,
    /// A blank line: ignored.
    Nothing,
    /// A decision to take.
    Position(Box<BoardLine>),
    /// Neither a command nor a readable position: why.
    Sorry(String),
}

fn read_request(line: &str) -> Request {
    let line = line.trim();
    match line {
        "" => Request::Nothing,
        "ubgi" => Request::Hello,
        "isready" => Request::IsReady,
        "stop" => Request::Stop,
        "quit" => Request::Quit,
        _ if line.starts_with("XGID=") => match Xgid::parse(line) {
            Ok(x) => match board_from_xgid(&x) {
                Ok(b) => Request::Position(Box::new(b)),
                Err(e) => Request::Sorry(e.to_string()),
            },
            Err(e) => Request::Sorry(e.to_string()),
        },
        _ if line.starts_with("board:") => match parse_board(line, Dialect::Fibs) {
            Ok(b) => Request::Position(Box::new(b)),
            Err(e) => Request::Sorry(e.to_string()),
        },
        _ => Request::Sorry(format!(
            "unknown command {:?}: expected ubgi, isready, stop, quit, an XGID or a board: line",
            line.chars().take(60).collect::<String>()
        )),
    }
}

/// The engine, loaded on `ubgi` (or on the first position if a runner skips it).
struct Engine {
    ev: Evaluator,
    player: Player,
    rng: ChaCha8Rng,
    s: Scratch,
}

impl Engine {
    fn load(args: &UbgiArgs) -> Result<Engine> {
        let (ev, player) = args.engine.load()?;
        Ok(Engine {
            ev,
            player,
            rng: ChaCha8Rng::seed_from_u64(args.engine.seed),
            s: Scratch::default(),
        })
    }

    /// The UBGI answer: a beaver is a take (UBGI has no word for it).
    fn decide(&mut self, board: &BoardLine) -> String {
        let reply = answer(&self.ev, board, &self.player, &mut self.rng, &mut self.s);
        match reply.as_str() {
            "beaver" => "take".into(),
            _ => reply,
        }
    }
}

/// Runs `tablier ubgi` until `quit` or the end of its input.
pub fn run(args: &UbgiArgs) -> Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut engine: Option<Engine> = None;
    for line in stdin.lock().lines() {
        let line = line?;
        match read_request(&line) {
            Request::Nothing | Request::Stop => continue,
            Request::Quit => break,
            Request::Hello => {
                if engine.is_none() {
                    match Engine::load(args) {
                        Ok(e) => engine = Some(e),
                        Err(e) => {
                            eprintln!("tablier ubgi: {e:#}");
                            writeln!(out, "sorry")?;
                            out.flush()?;
                            continue;
                        }
                    }
                }
                writeln!(out, "id name tablier")?;
                writeln!(out, "id author the tablier developers")?;
                writeln!(out, "id version {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "readyok")?;
            }
            Request::IsReady => writeln!(out, "readyok")?,
            Request::Position(board) => {
                if engine.is_none() {
                    engine = Some(Engine::load(args)?);
                }
                let engine = engine.as_mut().expect("loaded above");
                writeln!(out, "{}", engine.decide(&board))?;
            }
            Request::Sorry(why) => {
                eprintln!("tablier ubgi: {why}");
                writeln!(out, "sorry")?;
            }
        }
        out.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_commands_and_positions() {
        assert_eq!(read_request(" ubgi "), Request::Hello);
        assert_eq!(read_request("quit"), Request::Quit);
        assert_eq!(read_request(""), Request::Nothing);
        let Request::Position(b) =
            read_request("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:3:0:10")
        else {
            panic!("an XGID is a position");
        };
        assert_eq!(b.dice, tablier_backgammon::Roll::new(3, 1));
        assert!(matches!(read_request("go"), Request::Sorry(_)));
        assert!(matches!(
            read_request("XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:3:0:10"),
            Request::Sorry(_)
        ));
        assert!(matches!(read_request("board:1:2"), Request::Sorry(_)));
    }
}
