//! `tablier train backgammon`, `tablier rollout`, `tablier analyse FILE.mat`,
//! `tablier gnubg-external` and `tablier bench backgammon-eval`: the backgammon engine's commands.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tablier_backgammon::{notation, Position, Roll};
use tablier_backgammon_engine::eval::{terminal_for_winner, Evaluator, Probs, Scratch};
use tablier_backgammon_engine::search;
use tablier_backgammon_engine::train::{duel, TrainConfig, Trainer};

/// `tablier train backgammon`.
#[derive(Args)]
pub struct TrainArgs {
    /// Seed of the self-play dice and of the initial weights.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Self-play games to play in this run.
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    /// Where the weights go (written at every checkpoint, at the end and on Ctrl-C).
    #[arg(long)]
    out: PathBuf,
    /// Continue from this weights file (its games count sets the learning rate).
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Hidden units per net when starting from scratch.
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// λ of TD(λ).
    #[arg(long, default_value_t = 0.7)]
    lambda: f32,
    /// Initial learning rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f32,
    /// Look-ahead of the one-step targets: 0 = the evaluation after the play made (plain
    /// TD(λ)), 1 = the 1-ply average over the 21 rolls (about 20 times slower per game).
    #[arg(long, default_value_t = 0)]
    target_plies: u32,
    /// Games between checkpoints; each checkpoint also plays a duel against the previous one.
    #[arg(long, default_value_t = 20_000)]
    checkpoint_every: u64,
    /// Games of each checkpoint duel (duplicate dice, 0-ply, cubeless; 0 = none).
    #[arg(long, default_value_t = 2_000)]
    duel_games: u32,
    /// No progress bar (for logs).
    #[arg(long)]
    quiet: bool,
}

/// `tablier rollout`.
#[derive(Args)]
pub struct RolloutArgs {
    /// The position, side on roll before rolling: a Position ID or a GNUbgID.
    #[arg(long)]
    id: String,
    /// Games played out.
    #[arg(long, default_value_t = 1296)]
    trials: u32,
    /// Stop each game after this many plies and evaluate (0 = play to the end).
    #[arg(long, default_value_t = 0)]
    truncate: u32,
    /// No luck adjustment (plain averages of the results).
    #[arg(long)]
    no_variance_reduction: bool,
    /// Seed of the dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Weights to use instead of the shipped ones.
    #[arg(long)]
    weights: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Options of `tablier analyse` for backgammon matches (`--ply`).
#[derive(Args)]
pub struct AnalyseOpts {
    /// Look-ahead of the backgammon analysis of checker plays (0, 1 or 2; cube decisions use
    /// at most 1).
    #[arg(long = "ply", id = "bg_ply", default_value_t = 1)]
    ply: u32,
    /// Money sessions: the Jacoby rule was in force.
    #[arg(long = "jacoby", id = "bg_jacoby")]
    jacoby: bool,
    /// Backgammon weights to use instead of the shipped ones.
    #[arg(long = "weights", id = "bg_weights")]
    weights: Option<PathBuf>,
}

/// `tablier gnubg-external`.
#[derive(Args)]
pub struct ExternalArgs {
    /// TCP port to listen on (0 picks a free one; the address is printed on stdout).
    #[arg(long)]
    port: u16,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Level of play, 0 (beginner) to the strongest.
    #[arg(long, default_value_t = tablier_backgammon_engine::MAX_LEVEL)]
    level: u8,
    /// Never offer a double (takes and drops are still answered).
    #[arg(long)]
    no_double: bool,
    /// Weights to use instead of the shipped ones.
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Serve one connection, then exit (otherwise wait for the next one).
    #[arg(long)]
    once: bool,
    /// Seed of the noise of the lower levels.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print every line received and every answer on stderr.
    #[arg(long)]
    verbose: bool,
}

/// `tablier bench backgammon-eval`.
#[derive(Args)]
pub struct BenchEvalArgs {
    /// Positions of the speed set (drawn by seeded random play).
    #[arg(long, default_value_t = 20_000)]
    positions: usize,
    /// The Python that has gnubg-nn (made by `bash scripts/python-env.sh`).
    #[arg(long, default_value = ".venv/bin/python")]
    python: String,
    /// Then play this many cubeless money games against gnubg 0-ply (duplicate dice: each
    /// dice stream twice, sides swapped) and report points per game with its standard error.
    #[arg(long, default_value_t = 0)]
    versus_gnubg: u32,
    /// Look-ahead of tablier in those games (0, 1 or 2 plies).
    #[arg(long, default_value_t = 0)]
    plies: u32,
    /// Seed of the dice of those games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Weights to use instead of the shipped ones.
    #[arg(long)]
    weights: Option<PathBuf>,
}

/// Writes a weights file atomically (a temporary file renamed over the target).
fn write_weights(path: &Path, ev: &Evaluator) -> Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, ev.to_bytes()).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))?;
    Ok(())
}

/// Reads a weights file.
fn read_weights(path: &Path) -> Result<Evaluator> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Evaluator::from_bytes(&bytes).with_context(|| format!("loading {}", path.display()))
}

/// Runs `tablier train backgammon`.
pub fn train(args: &TrainArgs) -> Result<()> {
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda must be between 0 and 1");
    }
    if args.target_plies > 1 {
        bail!("--target-plies is 0 or 1");
    }
    if args.hidden == 0 || args.hidden > 4096 {
        bail!("--hidden must be between 1 and 4096");
    }
    let eval = match &args.resume {
        Some(p) => read_weights(p)?,
        None => Evaluator::random(args.hidden, args.seed),
    };
    let config = TrainConfig {
        lambda: args.lambda,
        alpha: args.alpha,
        target_plies: args.target_plies,
        ..TrainConfig::default()
    };
    let start_games = eval.games;
    eprintln!(
        "training from {} games, seed {}, {} hidden units, lambda {}, alpha now {:.4}",
        start_games,
        args.seed,
        eval.nets[0].hidden(),
        config.lambda,
        config.alpha_at(start_games)
    );
    let mut trainer = Trainer::new(eval, args.seed, config);
    let mut previous = trainer.eval.clone();
    let stop = crate::interrupt_flag();
    let bar = crate::progress(args.games, args.quiet, "games");
    let started = Instant::now();
    let mut plies = 0u64;
    for i in 1..=args.games {
        if stop.load(Ordering::Relaxed) {
            bar.abandon_with_message("interrupted");
            break;
        }
        plies += u64::from(trainer.play_and_learn().plies);
        bar.inc(1);
        if i % args.checkpoint_every == 0 || i == args.games {
            write_weights(&args.out, &trainer.eval)?;
            let mut line = format!(
                "{} games total ({} this run, {:.0} s, {:.1} games/s, {:.1} plies/game), alpha {:.4}",
                trainer.eval.games,
                i,
                started.elapsed().as_secs_f64(),
                i as f64 / started.elapsed().as_secs_f64(),
                plies as f64 / i as f64,
                trainer.config.alpha_at(trainer.eval.games),
            );
            if args.duel_games > 0 {
                let ppg = duel(
                    &trainer.eval,
                    &previous,
                    args.duel_games,
                    trainer.eval.games,
                );
                line += &format!(
                    "; vs previous checkpoint {ppg:+.3} ppg over {} games",
                    args.duel_games
                );
            }
            previous = trainer.eval.clone();
            bar.println(&line);
            if args.quiet {
                eprintln!("{line}");
            }
        }
    }
    write_weights(&args.out, &trainer.eval)?;
    bar.finish();
    eprintln!(
        "wrote {} ({} games in total, {:.0} s this run)",
        args.out.display(),
        trainer.eval.games,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Formats five probabilities and their cubeless equity.
fn show_probs(p: &Probs) -> String {
    format!(
        "win {:.4} (gammon {:.4}, backgammon {:.4})  lose {:.4} (gammon {:.4}, backgammon {:.4})",
        p[0],
        p[1],
        p[2],
        1.0 - p[0],
        p[3],
        p[4]
    )
}

/// Runs `tablier rollout`.
pub fn rollout(args: &RolloutArgs) -> Result<()> {
    use tablier_backgammon_engine::rollout::{rollout as run, RolloutConfig};
    let ev = evaluator(args.weights.as_deref())?;
    let pid = args.id.trim().split(':').next().unwrap_or_default();
    let pos = Position::from_position_id(pid)
        .with_context(|| format!("bad Position ID {:?}", args.id))?;
    if pos.is_over() {
        bail!("the game is over in this position: nothing to roll out");
    }
    if args.trials == 0 {
        bail!("--trials must be at least 1");
    }
    let cfg = RolloutConfig {
        trials: args.trials,
        truncate: args.truncate,
        variance_reduction: !args.no_variance_reduction,
        seed: args.seed,
    };
    let mut s = Scratch::default();
    let stat = ev.probs(&pos, &mut s);
    println!("position {pid}, side on roll; pips {:?}", pos.pip_count());
    println!(
        "0-ply:   {}  equity {:+.4}",
        show_probs(&stat),
        tablier_backgammon_engine::eval::equity(&stat)
    );
    let stop = crate::interrupt_flag();
    let bar = crate::progress(u64::from(args.trials), args.quiet, "trials");
    let started = Instant::now();
    let stats = run(&ev, &pos, &cfg, |st| {
        bar.set_position(u64::from(st.trials));
        if st.trials % 36 == 0 {
            let (e, se) = st.equity();
            bar.set_message(format!("{e:+.4} ± {se:.4}"));
        }
        !stop.load(Ordering::Relaxed)
    });
    bar.finish_and_clear();
    let (e, se) = stats.equity();
    println!(
        "rollout: {}  equity {e:+.4} ± {se:.4} (standard error)",
        show_probs(&stats.probs())
    );
    println!(
        "{} trials{}{}, {:.1} s{}",
        stats.trials,
        if cfg.truncate > 0 {
            format!(", truncated after {} plies", cfg.truncate)
        } else {
            String::new()
        },
        if cfg.variance_reduction {
            ", luck-adjusted"
        } else {
            ""
        },
        started.elapsed().as_secs_f64(),
        if stats.trials < args.trials {
            " (interrupted)"
        } else {
            ""
        }
    );
    Ok(())
}

/// Runs `tablier analyse` on a .mat file.
pub fn analyse(file: &Path, output: Option<&Path>, opts: &AnalyseOpts) -> Result<()> {
    use std::fmt::Write as _;
    use tablier_backgammon::game::Options;
    use tablier_backgammon::mat::MatchFile;
    use tablier_backgammon::record::replay_mat;
    use tablier_backgammon_engine::analysis::{self, Kind};
    if opts.ply > 2 {
        bail!("--ply goes from 0 to 2");
    }
    let ev = evaluator(opts.weights.as_deref())?;
    let text = crate::read_text(file)?;
    let mat = MatchFile::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let options = if mat.match_length == 0 {
        Options {
            jacoby: opts.jacoby,
            ..Options::money()
        }
    } else {
        Options::match_to(mat.match_length)
    };
    let replayed =
        replay_mat(&mat, options).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let games: Vec<_> = replayed.games.iter().map(|g| g.actions.clone()).collect();
    let names = mat
        .games
        .first()
        .map(|g| [g.players[0].clone(), g.players[1].clone()])
        .unwrap_or_else(|| ["white".into(), "black".into()]);
    let bar = crate::progress(games.len() as u64, false, "games");
    let started = Instant::now();
    let a = analysis::analyse(&ev, options, &games, opts.ply, |g| {
        bar.set_position(g as u64)
    })?;
    bar.finish_and_clear();
    let mut out = String::new();
    writeln!(
        out,
        "{} ({}), analysed at {}-ply in {:.1} s",
        file.display(),
        if mat.match_length == 0 {
            "money".to_string()
        } else {
            format!("{}-point match", mat.match_length)
        },
        opts.ply,
        started.elapsed().as_secs_f64()
    )?;
    let mut game = 0;
    for d in &a.decisions {
        if d.game != game {
            game = d.game;
            writeln!(out, "\nGame {game}")?;
        }
        let who = &names[d.side.index()];
        let what = match &d.kind {
            Kind::Play { roll, played, best } => {
                if played == best {
                    format!("{roll}: {played}")
                } else {
                    format!("{roll}: {played}  (best {best})")
                }
            }
            Kind::Cube { action, best } | Kind::Response { action, best } => {
                if action == best {
                    action.to_string()
                } else {
                    format!("{action}  (best {best})")
                }
            }
        };
        writeln!(
            out,
            "{:>4} {:<12} {:<48} {:>7.3} {}",
            d.turn,
            who,
            what,
            -d.loss,
            d.mark()
        )?;
    }
    writeln!(out)?;
    for (i, name) in names.iter().enumerate() {
        let st = &a.stats[i];
        writeln!(
            out,
            "{name}: {} checker plays (loss {:.3}), {} cube decisions (loss {:.3}); error rate {:.1} mp/decision",
            st.plays,
            st.play_loss,
            st.cube,
            st.cube_loss,
            st.error_rate()
        )?;
    }
    match output {
        Some(p) => std::fs::write(p, out).with_context(|| format!("writing {}", p.display()))?,
        None => print!("{out}"),
    }
    Ok(())
}

/// Runs `tablier gnubg-external`: gnubg (`set player N external HOST:PORT`) connects, sends a
/// FIBS board line (ended by a newline and a NUL byte) for each decision, and reads one line back.
pub fn external(args: &ExternalArgs) -> Result<()> {
    use std::io::{BufRead, BufReader, Write};
    use tablier_backgammon_engine::fibs::{answer, parse_board, Player};
    let ev = evaluator(args.weights.as_deref())?;
    let player = Player {
        doubles: !args.no_double,
        ..Player::at_level(args.level)
    };
    let listener = std::net::TcpListener::bind((args.host.as_str(), args.port))
        .with_context(|| format!("cannot listen on {}:{}", args.host, args.port))?;
    println!("listening on {}", listener.local_addr()?);
    std::io::stdout().flush()?;
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut s = Scratch::default();
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
            let reply = match parse_board(line) {
                Ok(req) => {
                    decisions += 1;
                    answer(&ev, &req, &player, &mut rng, &mut s)
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

/// GNU Backgammon's nets as a peer: a Python script driving PyPI gnubg-nn.
const GNUBG_PEER: &str = include_str!("../../backgammon-engine/oracle/gnubg_peer.py");

/// The evaluator to use: a weights file, or the shipped one.
fn evaluator(weights: Option<&Path>) -> Result<Evaluator> {
    match weights {
        Some(p) => read_weights(p),
        None => Ok(Evaluator::shipped().clone()),
    }
}

/// Positions met in seeded random play (side on roll), none of them finished.
fn random_play_positions(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut plays = Vec::new();
    let mut pos = Position::start();
    while out.len() < count {
        out.push(pos);
        let roll = Roll::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).expect("dice");
        pos.legal_plays_into(roll, &mut plays);
        let next = plays[rng.gen_range(0..plays.len())].result;
        pos = if next.mover_off() == 15 {
            Position::start()
        } else {
            next.flip()
        };
    }
    out
}

/// Runs `tablier bench backgammon-eval`.
pub fn bench_eval(args: &BenchEvalArgs) -> Result<()> {
    let ev = evaluator(args.weights.as_deref())?;
    if args.positions > 0 {
        bench_speed(&ev, args)?;
    }
    if args.versus_gnubg > 0 {
        versus_gnubg(&ev, args)?;
    }
    Ok(())
}

fn bench_speed(ev: &Evaluator, args: &BenchEvalArgs) -> Result<()> {
    let set = random_play_positions(args.positions, 7);
    let file = std::env::temp_dir().join(format!("tablier-bg-eval-{}.txt", std::process::id()));
    let ids: String = set.iter().map(|p| p.position_id() + "\n").collect();
    std::fs::write(&file, ids)?;
    let out = std::process::Command::new(&args.python)
        .args(["-c", GNUBG_PEER, "eval"])
        .arg(&file)
        .output()
        .with_context(|| {
            format!(
                "cannot run {} (make it with `bash scripts/python-env.sh`)",
                args.python
            )
        });
    let _ = std::fs::remove_file(&file);
    let out = out?;
    if !out.status.success() {
        bail!(
            "the gnubg_nn peer did not run: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [n, cpu] = fields[..] else {
        bail!("unexpected output from the peer: {text:?}");
    };
    let (n, their_cpu): (usize, f64) = (n.parse()?, cpu.parse()?);
    // Median of five passes (ours has no cache; gnubg's is defeated by one pass only).
    let mut s = Scratch::default();
    let mut times = Vec::new();
    let mut sink = 0.0f32;
    for _ in 0..5 {
        let t = Instant::now();
        for p in &set {
            sink += ev.probs(p, &mut s)[0];
        }
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let ours = set.len() as f64 / times[2];
    let theirs = n as f64 / their_cpu;
    println!(
        "tablier 0-ply ({}-{}-5 nets, bear-off database): {} positions in {:.4} s (median of 5): {:.0} k positions/s (checksum {sink:.1})",
        ev.nets[0].inputs(),
        ev.nets[0].hidden(),
        set.len(),
        times[2],
        ours / 1e3
    );
    println!(
        "gnubg_nn.probabilities 0-ply (PyPI gnubg-nn, through Python, one pass): {their_cpu:.4} CPU s: {:.0} k positions/s",
        theirs / 1e3
    );
    println!("ratio tablier / gnubg_nn: {:.2}x", ours / theirs);
    Ok(())
}

/// gnubg 0-ply as an opponent, through the peer script.
struct GnubgPlayer {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: std::io::BufReader<std::process::ChildStdout>,
}

impl GnubgPlayer {
    fn start(python: &str) -> Result<GnubgPlayer> {
        let mut child = std::process::Command::new(python)
            .args(["-c", GNUBG_PEER, "play"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot run {python}"))?;
        let input = child.stdin.take().context("no stdin")?;
        let output = std::io::BufReader::new(child.stdout.take().context("no stdout")?);
        Ok(GnubgPlayer {
            child,
            input,
            output,
        })
    }

    fn play(&mut self, pos: &Position, roll: Roll) -> Result<tablier_backgammon::Play> {
        use std::io::{BufRead, Write};
        let (a, b) = roll.high_low();
        writeln!(self.input, "{} {a} {b}", pos.position_id())?;
        self.input.flush()?;
        let mut line = String::new();
        if self.output.read_line(&mut line)? == 0 {
            bail!("the gnubg peer stopped");
        }
        let nums: Vec<u8> = line
            .split_whitespace()
            .map(str::parse)
            .collect::<std::result::Result<_, _>>()?;
        let hops: Vec<(u8, u8)> = nums.chunks(2).map(|c| (c[0], c[1])).collect();
        notation::play_from_hops(pos, roll, &hops).map_err(|e| anyhow::anyhow!("gnubg's play: {e}"))
    }
}

impl Drop for GnubgPlayer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Points won by tablier in one cubeless money game against gnubg.
fn duel_game(
    ev: &Evaluator,
    gnubg: &mut GnubgPlayer,
    plies: u32,
    dice_seed: u64,
    tablier_first: bool,
    s: &mut Scratch,
) -> Result<i32> {
    let mut rng = ChaCha8Rng::seed_from_u64(dice_seed);
    let mut pos = Position::start();
    let mut ours = tablier_first;
    let mut plays = Vec::new();
    let mut first = true;
    loop {
        let roll = loop {
            let r = Roll::new(rng.gen_range(1..=6), rng.gen_range(1..=6)).expect("dice");
            if !(first && r.is_double()) {
                break r;
            }
        };
        first = false;
        let result = if ours {
            let lvl = search::Level { plies, noise: 0.0 };
            let (i, _) = search::choose(ev, &pos, roll, lvl, &mut rng, &mut plays, s);
            plays[i].result
        } else {
            gnubg.play(&pos, roll)?.result
        };
        if result.mover_off() == 15 {
            let t = terminal_for_winner(&result);
            let pts = 1 + t[1] as i32 + t[2] as i32;
            return Ok(if ours { pts } else { -pts });
        }
        pos = result.flip();
        ours = !ours;
    }
}

fn versus_gnubg(ev: &Evaluator, args: &BenchEvalArgs) -> Result<()> {
    let mut gnubg = GnubgPlayer::start(&args.python)?;
    let mut s = Scratch::default();
    let pairs = args.versus_gnubg.div_ceil(2);
    let stop = crate::interrupt_flag();
    let bar = crate::progress(u64::from(pairs) * 2, false, "games");
    let started = Instant::now();
    let mut results: Vec<f64> = Vec::new();
    let mut total = 0i64;
    for k in 0..pairs {
        if stop.load(Ordering::Relaxed) {
            bar.abandon_with_message("interrupted");
            break;
        }
        let dice_seed = args.seed.wrapping_mul(1_000_003).wrapping_add(u64::from(k));
        let a = duel_game(ev, &mut gnubg, args.plies, dice_seed, true, &mut s)?;
        let b = duel_game(ev, &mut gnubg, args.plies, dice_seed, false, &mut s)?;
        total += i64::from(a + b);
        results.push(f64::from(a + b) / 2.0);
        bar.inc(2);
        bar.set_message(format!(
            "{:+.3} ppg",
            total as f64 / (2 * results.len()) as f64
        ));
    }
    bar.finish_and_clear();
    let n = results.len() as f64;
    if results.is_empty() {
        bail!("no game played");
    }
    let mean = results.iter().sum::<f64>() / n;
    let var = results.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    println!(
        "tablier {}-ply vs gnubg 0-ply (gnubg-nn), cubeless money, duplicate dice: {} games, {:+.3} ± {:.3} points per game (standard error over {} dice pairs), {:.0} s",
        args.plies,
        2 * results.len(),
        mean,
        (var / n).sqrt(),
        results.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
