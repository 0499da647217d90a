//! `tablier analyse FILE`: a game record analysed by the engine of its game, which the
//! file's extension tells: `.pdn` (draughts) or `.mat` (backgammon).

use anyhow::Result;

pub mod backgammon;
pub mod draughts;

/// `tablier analyse FILE`: the family is known from the file's extension.
#[derive(clap::Args)]
pub struct AnalyseArgs {
    /// The game record: `.pdn` (draughts) or `.mat` (backgammon).
    file: std::path::PathBuf,
    /// Where to write the annotated record (default: standard output).
    #[arg(long, short)]
    output: Option<std::path::PathBuf>,
    #[command(flatten)]
    draughts: draughts::DraughtsAnalyseOpts,
    #[command(flatten)]
    backgammon: backgammon::BackgammonAnalyseOpts,
}

/// Runs `tablier analyse`.
pub fn run(args: &AnalyseArgs) -> Result<()> {
    let ext = args
        .file
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("pdn") => draughts::analyse(&args.file, args.output.as_deref(), &args.draughts),
        Some("mat") | Some("txt") => {
            backgammon::analyse(&args.file, args.output.as_deref(), &args.backgammon)
        }
        _ => anyhow::bail!(
            "{}: cannot tell the game from the file name; use .pdn (draughts) or .mat (backgammon)",
            args.file.display()
        ),
    }
}
