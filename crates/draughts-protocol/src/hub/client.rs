//! The GUI side of the Hub protocol: driving another program's engine, as `tablier match`
//! does against an outside Hub engine.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use tablier_draughts::game::Game;
use tablier_draughts::{Geometry, Move, Variant};

use super::codec::{argument, parse_line, parse_move, write_move, write_position};
use crate::Budget;

/// A Hub engine driven over a pair of streams: the engine's standard input and output when
/// it is a process ([`Client::spawn`]), or any connection ([`Client::connect`]). The engine's
/// lines are read on a thread of their own, so that every wait has a deadline.
///
/// Dropping the client sends `quit` (and ends the process, if it is one).
pub struct Client {
    writer: Box<dyn Write + Send>,
    lines: Receiver<String>,
    label: String,
    child: Option<Child>,
}

impl Client {
    /// Starts the engine `command` (a program and its arguments, split at blanks), and
    /// sets it up for `variant` ([`Client::connect`]). Its standard error is discarded.
    ///
    /// # Errors
    /// The program cannot be started, or the set-up fails.
    pub fn spawn(command: &str, variant: &'static Variant) -> Result<Client> {
        let words: Vec<&str> = command.split_whitespace().collect();
        let (prog, rest) = words
            .split_first()
            .ok_or_else(|| anyhow!("empty engine command"))?;
        let mut child = Command::new(prog)
            .args(rest)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {command}"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut c = Client::new(stdout, stdin, command);
        c.child = Some(child);
        c.set_up(variant)?;
        Ok(c)
    }

    /// Drives the engine that reads `writer` and answers on `reader`, named `label` until it
    /// gives its name: `hub`, then the engine's `id` and parameters up to `wait` (20 s at
    /// most), `set-param name=variant` when the engine names its variants (`normal` for
    /// international where it says so), then `init` and its `ready` (60 s at most).
    ///
    /// # Errors
    /// The engine does not answer in time, does not play `variant` (an engine that names no
    /// variants plays international draughts only), or cannot be written to.
    pub fn connect(
        reader: impl Read + Send + 'static,
        writer: impl Write + Send + 'static,
        label: &str,
        variant: &'static Variant,
    ) -> Result<Client> {
        let mut c = Client::new(reader, writer, label);
        c.set_up(variant)?;
        Ok(c)
    }

    fn new(
        reader: impl Read + Send + 'static,
        writer: impl Write + Send + 'static,
        label: &str,
    ) -> Client {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(reader).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Client {
            writer: Box::new(writer),
            lines: rx,
            label: label.to_string(),
            child: None,
        }
    }

    fn set_up(&mut self, variant: &'static Variant) -> Result<()> {
        let c = self;
        c.send("hub")?;
        let mut variants: Option<Vec<String>> = None;
        loop {
            let l = c.recv(Duration::from_secs(20))?;
            let (cmd, a) = parse_line(&l)?;
            match cmd.as_str() {
                "id" => {
                    if let Some(n) = argument(&a, "name") {
                        c.label = format!("{n} {}", argument(&a, "version").unwrap_or(""))
                            .trim()
                            .to_string();
                    }
                }
                "param" if argument(&a, "name") == Some("variant") => {
                    variants = argument(&a, "values")
                        .map(|v| v.split_whitespace().map(str::to_string).collect());
                }
                "wait" => break,
                _ => {}
            }
        }
        match variants {
            Some(vs) => {
                let name = if variant.name == "international" && vs.iter().any(|v| v == "normal") {
                    "normal"
                } else {
                    variant.name
                };
                if !vs.iter().any(|v| v == name) {
                    bail!("{} does not play {}", c.label, variant.name);
                }
                c.send(&format!("set-param name=variant value={name}"))?;
            }
            None if variant.name != "international" => {
                bail!(
                    "{} names no variants: it plays international draughts only",
                    c.label
                )
            }
            None => {}
        }
        c.send("init")?;
        loop {
            let l = c.recv(Duration::from_secs(60))?;
            if l.starts_with("ready") {
                break;
            }
        }
        Ok(())
    }

    /// The engine's name and version, as its `id` line gives them (the command or label
    /// until then).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.label
    }

    /// Sends one line.
    ///
    /// # Errors
    /// The engine cannot be written to (it has quit).
    pub fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.writer, "{line}")
            .and_then(|()| self.writer.flush())
            .with_context(|| format!("writing to {}", self.label))
    }

    fn recv(&mut self, timeout: Duration) -> Result<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => bail!("{} did not answer in time", self.label),
            Err(RecvTimeoutError::Disconnected) => bail!("{} has quit", self.label),
        }
    }

    /// Tells the engine a new game starts (`new-game`).
    ///
    /// # Errors
    /// The engine cannot be written to.
    pub fn new_game(&mut self) -> Result<()> {
        self.send("new-game")
    }

    /// The engine's move in the current position of `game`: the position at the last
    /// irreversible move and the moves since (so that it sees repetitions), the level of
    /// `budget` (a clock as `level time=`, the time left for the game), `go think`, and its
    /// `done` line. The engine has ten times a move time and 5 s more (120 s for a depth,
    /// its time left and 5 s more on a clock); past that it is sent `stop`, its late answer
    /// is swallowed, and the move is an error.
    ///
    /// # Errors
    /// No answer in time, the engine has quit, or its move is not legal here.
    pub fn choose<G: Geometry>(&mut self, game: &Game<G>, budget: Budget) -> Result<Move<G>> {
        // The position at the last irreversible move, then the reversible tail.
        let hist = game.positions_since_irreversible();
        let tail = &game.moves()[game.moves().len() - (hist.len() - 1)..];
        let moves: Vec<String> = tail.iter().map(write_move).collect();
        // Lines left over from an earlier search are not answers to this one.
        while self.lines.try_recv().is_ok() {}
        let mut line = format!("pos pos={}", write_position(&hist[0]));
        if !moves.is_empty() {
            line.push_str(&format!(" moves=\"{}\"", moves.join(" ")));
        }
        self.send(&line)?;
        let deadline = match budget {
            Budget::Time(t) => {
                self.send(&format!("level move-time={:.3}", t.as_secs_f64()))?;
                t * 10 + Duration::from_secs(5)
            }
            Budget::Depth(d) => {
                self.send(&format!("level depth={d}"))?;
                Duration::from_secs(120)
            }
            Budget::Clock(t) => {
                self.send(&format!("level time={:.3}", t.as_secs_f64()))?;
                t + Duration::from_secs(5)
            }
        };
        self.send("go think")?;
        let start = Instant::now();
        loop {
            let left = deadline.saturating_sub(start.elapsed());
            let l = match self.recv(left.max(Duration::from_millis(1))) {
                Ok(l) => l,
                Err(e) => {
                    // Stop the late search and swallow its answer, so that the next game
                    // does not read it as the answer to its own first question.
                    let _ = self.send("stop");
                    let until = Instant::now() + Duration::from_secs(10);
                    while Instant::now() < until {
                        match self.recv(Duration::from_millis(200)) {
                            Ok(l) if l.starts_with("done") => break,
                            _ => {}
                        }
                    }
                    return Err(e);
                }
            };
            let (cmd, a) = parse_line(&l)?;
            if cmd == "done" {
                let text = argument(&a, "move")
                    .ok_or_else(|| anyhow!("{}: done without a move", self.label))?;
                return parse_move(game.position(), text)
                    .with_context(|| format!("{} played {text}", self.label));
            }
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.send("quit");
        if let Some(child) = self.child.as_mut() {
            std::thread::sleep(Duration::from_millis(20));
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::net::UnixStream;
    use tablier_draughts::{G10, INTERNATIONAL};

    #[test]
    fn a_client_drives_our_engine_over_a_socket_pair() {
        // Our own engine at the other end of the stream, as an outside program would be.
        let (ours, theirs) = UnixStream::pair().unwrap();
        let reader = std::io::BufReader::new(theirs.try_clone().unwrap());
        let engine = std::thread::spawn(move || {
            crate::hub::engine::run(
                &INTERNATIONAL,
                1 << 30,
                crate::hub::engine::solve_tables(),
                reader,
                theirs,
            )
        });
        let mut client =
            Client::connect(ours.try_clone().unwrap(), ours, "socket", &INTERNATIONAL).unwrap();
        assert_eq!(client.name(), "tablier 0.1.0");
        let mut game = Game::<G10>::start(&INTERNATIONAL).unwrap();
        client.new_game().unwrap();
        for _ in 0..4 {
            let m = client.choose(&game, Budget::Depth(2)).unwrap();
            game.play(&m).unwrap();
        }
        assert_eq!(game.moves().len(), 4);
        drop(client);
        engine.join().unwrap().unwrap();
    }
}
