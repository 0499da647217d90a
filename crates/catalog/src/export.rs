//! A game written in its family's file format: PDN for draughts, the `.mat` match file for
//! backgammon, the JSON-lines record for trictrac.

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
