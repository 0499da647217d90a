//! `tablier gnubg-external`: the backgammon engine as GNU Backgammon's external player
//! (TCP), so that gnubg can host matches against it.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use tablier_backgammon_engine::eval::Scratch;

use crate::cmd::backgammon::EngineArgs;

/// `tablier gnubg-external`.
#[derive(Args)]
pub struct ExternalArgs {
    /// TCP port to listen on (0 picks a free one; the address is printed on stdout).
    #[arg(long)]
    port: u16,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    #[command(flatten)]
    engine: EngineArgs,
    /// Serve one connection, then exit (otherwise wait for the next one).
    #[arg(long)]
    once: bool,
    /// Print every line received and every answer on stderr, and in a match the score as read
    /// (`== score: tablier A, opponent B`).
    #[arg(long)]
    verbose: bool,
    /// Keep this file up to date with the decisions answered and the seconds spent on them
    /// (`decisions N seconds S`, rewritten after each answer), for benchmarks that compare
    /// thinking times.
    #[arg(long)]
    stats: Option<PathBuf>,
}

/// Runs `tablier gnubg-external`: gnubg (`set player N external HOST:PORT`) connects, sends a
/// FIBS board line (ended by a newline and a NUL byte) for each decision, and reads one line back.
pub fn run(args: &ExternalArgs) -> Result<()> {
    use std::io::{BufRead, BufReader, Write};
    use tablier_backgammon_engine::fibs::{answer, parse_board, Dialect};
    let (ev, player) = args.engine.load()?;
    let listener = std::net::TcpListener::bind((args.host.as_str(), args.port))
        .with_context(|| format!("cannot listen on {}:{}", args.host, args.port))?;
    println!("listening on {}", listener.local_addr()?);
    std::io::stdout().flush()?;
    let mut rng = ChaCha8Rng::seed_from_u64(args.engine.seed);
    let mut s = Scratch::default();
    let (mut answered, mut thinking) = (0u64, 0f64);
    loop {
        let (stream, peer) = listener.accept()?;
        eprintln!("gnubg connected from {peer}");
        let mut reader = BufReader::new(stream.try_clone()?);
        let mut writer = stream;
        let mut decisions = 0u64;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            if reader.read_until(b'\n', &mut buf)? == 0 {
                break;
            }
            let line = String::from_utf8_lossy(&buf);
            let line = line.trim_matches(|c: char| c == '\0' || c.is_whitespace());
            if line.is_empty() {
                continue;
            }
            let reply = match parse_board(line, Dialect::Gnubg) {
                Ok(req) => {
                    decisions += 1;
                    let started = std::time::Instant::now();
                    let reply = answer(&ev, &req, &player, &mut rng, &mut s);
                    if args.verbose && req.cube.match_length > 0 {
                        // The line is read from the side to act: the doubler while a double
                        // waits for our answer.
                        let [a, b] = req.cube.score;
                        let (ours, theirs) = if req.doubled { (b, a) } else { (a, b) };
                        eprintln!("== score: tablier {ours}, opponent {theirs}");
                    }
                    answered += 1;
                    thinking += started.elapsed().as_secs_f64();
                    if let Some(path) = &args.stats {
                        std::fs::write(
                            path,
                            format!("decisions {answered} seconds {thinking:.3}\n"),
                        )
                        .with_context(|| format!("cannot write {}", path.display()))?;
                    }
                    reply
                }
                Err(e) => {
                    eprintln!("refused {line:?}: {e}");
                    format!("Error: {e}")
                }
            };
            if args.verbose {
                eprintln!("<< {line}\n>> {reply}");
            }
            writer.write_all(reply.as_bytes())?;
            writer.write_all(b"\n")?;
            writer.flush()?;
        }
        eprintln!("gnubg disconnected after {decisions} decisions");
        if args.once {
            return Ok(());
        }
    }
}
