//! A game written in its family's file format: PDN for draughts, the `.mat` match file for
//! backgammon, the JSON-lines record for trictrac.

use crate::record::GameResult;

/// A game's record as a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Export {
    /// The MIME type to serve it with.
    pub mime: &'static str,
    /// The file name extension, without the dot (`pdn`, `mat`, `jsonl`).
    pub extension: &'static str,
    /// The file's text.
    pub text: String,
}

/// What a file's header says beyond the moves: who played, when, at which event, and how
/// the game ended when the table ended it (a resignation, a flag, an agreed draw), which the
/// rules of the game alone do not know.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExportInfo {
    /// White's and Black's names.
    pub players: [String; 2],
    /// The day the game was created, `YYYY.MM.DD` (PDN's and gnubg's form).
    pub date: String,
    /// The event (`tablier` for the server's games).
    pub event: String,
    /// How the game ended, once over.
    pub result: Option<GameResult>,
}

/// The civil date (UTC) of `ms` milliseconds since the Unix epoch, as `[year, month, day]`.
///
/// ```
/// use tablier_catalog::export::civil_date;
/// assert_eq!(civil_date(0), [1970, 1, 1]);
/// assert_eq!(civil_date(1_795_564_800_000), [2026, 11, 25]);
/// assert_eq!(civil_date(951_782_400_000), [2000, 2, 29]);
/// ```
#[must_use]
pub fn civil_date(ms: i64) -> [i64; 3] {
    // Days to civil date in the proleptic Gregorian calendar, by 400-year eras.
    let days = ms.div_euclid(86_400_000) + 719_468;
    let era = days.div_euclid(146_097);
    let doe = days - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    [year, month, day]
}

/// The words of a table's ending for a PDN `Termination` tag or a file's note: `None` for an
/// ending by the rules, which the moves show.
#[must_use]
pub fn termination(result: &GameResult) -> Option<&'static str> {
    match result.reason.as_str() {
        "resign" => Some("resignation"),
        "time" => Some("time forfeit"),
        "draw-agreed" => Some("draw agreed"),
        _ => None,
    }
}
