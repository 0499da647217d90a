//! The rules of each variant as data. One move generator reads these fields; no variant is
//! hard-wired into it.

use serde::Serialize;
use tablier_core::Side;

/// Which board a variant is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum BoardSize {
    /// 8x8, 32 squares.
    Eight,
    /// 10x10, 50 squares.
    Ten,
    /// 12x12, 72 squares.
    Twelve,
}

impl BoardSize {
    /// Squares per side.
    #[must_use]
    pub const fn side(self) -> u32 {
        match self {
            BoardSize::Eight => 8,
            BoardSize::Ten => 10,
            BoardSize::Twelve => 12,
        }
    }

    /// Number of playing squares.
    #[must_use]
    pub const fn squares(self) -> u32 {
        self.side() * self.side() / 2
    }
}

/// What a player who can capture must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum CaptureRule {
    /// Capturing is compulsory and the sequence taking the most pieces must be chosen; a king
    /// counts as one piece (FMJD art. 4.13; seed 003 rule 9).
    Majority,
    /// Capturing is compulsory, any capture may be chosen, and a started sequence must be
    /// completed (English checkers).
    Free,
    /// Capturing is not compulsory by legality (the old French rules, seed 000): any quiet move
    /// and any capture, also one stopped before its end, is a legal move; the opponent enforces
    /// the capture by huffing (*souffler*), see [`crate::french`]. A king counts as one piece
    /// when the strongest side is measured.
    Huffing,
}

/// When a man becomes a king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Promotion {
    /// Only if the move *ends* on the far row; passing over it during a capture does not crown
    /// (FMJD art. 4.15; seed 003 rule 13).
    EndOfMove,
    /// A man that reaches the far row during a capture is crowned and the move ends there
    /// (English checkers).
    StopsCapture,
}

/// Which draw rules a game of the variant follows (see [`crate::game`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum DrawRules {
    /// FMJD: threefold repetition, 25 king moves each, the 16- and 5-move endgame rules.
    Fmjd,
    /// Brazilian: threefold repetition, 20 king moves each (seed 004), and the FMJD-64
    /// endgame rules that lidraughts applies to Brazilian.
    Brazilian,
    /// English checkers: threefold repetition and the 40-move rule.
    English,
    /// The old French draw rule (seed 000): one king against three pieces or fewer with a king
    /// is drawn unless the stronger side wins at once; and threefold repetition (a tablier
    /// addition). See [`crate::french`].
    FrenchOld,
}

/// A draughts variant: board, men, kings, capture and draw rules, and its record conventions.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Variant {
    /// Short name used on the command line and in the server (`international`, ...).
    pub name: &'static str,
    /// Human name.
    pub title: &'static str,
    /// The board's size: 8x8, 10x10 or 12x12.
    pub board: BoardSize,
    /// Rows of men each side starts with.
    pub rows_of_men: u32,
    /// Who moves first.
    pub first: Side,
    /// Whether men capture backwards as well as forwards.
    pub men_capture_backward: bool,
    /// Whether kings move and capture at any distance (flying kings) or one square.
    pub flying_kings: bool,
    /// The capture obligation.
    pub capture: CaptureRule,
    /// When men are crowned.
    pub promotion: Promotion,
    /// Draw rules.
    pub draw: DrawRules,
    /// PDN `GameType` tag value written for this variant.
    pub pdn_game_type: &'static str,
    /// Where the rules come from.
    pub source: &'static str,
}

/// International draughts on 10x10 (FMJD rules; seeds 002 and 003).
pub static INTERNATIONAL: Variant = Variant {
    name: "international",
    title: "International draughts (10x10, FMJD)",
    board: BoardSize::Ten,
    rows_of_men: 4,
    first: Side::White,
    men_capture_backward: true,
    flying_kings: true,
    capture: CaptureRule::Majority,
    promotion: Promotion::EndOfMove,
    draw: DrawRules::Fmjd,
    pdn_game_type: "20",
    source: "FMJD rules; seed 003 (19 rules), seed 002 (beginners' text)",
};

/// Brazilian draughts: the international rules on 8x8 with 12 men each (seed 004, Portuguese
/// and Spanish texts).
pub static BRAZILIAN: Variant = Variant {
    name: "brazilian",
    title: "Brazilian draughts (8x8)",
    board: BoardSize::Eight,
    rows_of_men: 3,
    first: Side::White,
    men_capture_backward: true,
    flying_kings: true,
    capture: CaptureRule::Majority,
    promotion: Promotion::EndOfMove,
    draw: DrawRules::Brazilian,
    pdn_game_type: "26",
    source:
        "seed 004 (Portuguese and Spanish texts); FMJD-64 endgame rules as lidraughts applies them",
};

/// Canadian draughts: the international rules on 12x12 with 30 men each (seed 002).
pub static CANADIAN: Variant = Variant {
    name: "canadian",
    title: "Canadian draughts (12x12)",
    board: BoardSize::Twelve,
    rows_of_men: 5,
    first: Side::White,
    men_capture_backward: true,
    flying_kings: true,
    capture: CaptureRule::Majority,
    promotion: Promotion::EndOfMove,
    draw: DrawRules::Fmjd,
    pdn_game_type: "27",
    source: "seed 002 (12x12 boards); FMJD rules",
};

/// English draughts / American checkers on 8x8 (seed 002's "Checkers"): short kings, men
/// capture forwards only, free choice of capture, black moves first.
pub static ENGLISH: Variant = Variant {
    name: "english",
    title: "English draughts / checkers (8x8)",
    board: BoardSize::Eight,
    rows_of_men: 3,
    first: Side::Black,
    men_capture_backward: false,
    flying_kings: false,
    capture: CaptureRule::Free,
    promotion: Promotion::StopsCapture,
    draw: DrawRules::English,
    pdn_game_type: "21",
    source: "seed 002 (\"Checkers\": short king); English Draughts Association rules",
};

/// Draughts on 10x10 under the old French rules, before *souffler* was abolished in 1912
/// (seed 000; seed 002: "La règle « souffler n'est pas jouer » a été abolie en 1912").
///
/// Seed 000 does not restate how pieces move; tablier takes the 10x10 movement of seeds 002
/// and 003, which seed 000 agrees with where it speaks: men capture backwards ("Le pion ou la
/// dame qui prend peut passer plusieurs fois sur la même case vide" — a man can only come back
/// to a square if it captures backwards), kings fly (the draw of three kings against one
/// king only makes sense with flying kings), and a man is crowned only where its move ends.
/// The PDN `GameType` is tablier's own choice: `42` (a number PDN 3.0 reserves and no program
/// uses), written in full as `42,W,10,10,N2,0`.
pub static FRENCH_OLD: Variant = Variant {
    name: "french-old",
    title: "Old French rules (10x10, souffler)",
    board: BoardSize::Ten,
    rows_of_men: 4,
    first: Side::White,
    men_capture_backward: true,
    flying_kings: true,
    capture: CaptureRule::Huffing,
    promotion: Promotion::EndOfMove,
    draw: DrawRules::FrenchOld,
    pdn_game_type: "42",
    source: "seed 000 (old French rules: souffler, côté le plus fort, fausse marche, draw \
             rule); movement from seeds 002 and 003",
};

/// Every variant, for lookups by name.
pub static VARIANTS: [&Variant; 5] = [&INTERNATIONAL, &BRAZILIAN, &CANADIAN, &ENGLISH, &FRENCH_OLD];

impl Variant {
    /// The variant called `name` (case-insensitive; a few aliases are accepted).
    #[must_use]
    pub fn by_name(name: &str) -> Option<&'static Variant> {
        let n = name.to_ascii_lowercase();
        let n = match n.as_str() {
            "standard" | "fmjd" | "10x10" => "international",
            "checkers" | "american" | "english-checkers" => "english",
            "12x12" => "canadian",
            "french" | "souffler" | "old-french" | "french_old" => "french-old",
            other => other,
        };
        VARIANTS.iter().copied().find(|v| v.name == n)
    }

    /// The variant a PDN `GameType` tag names (only its first number is read), if tablier
    /// plays it.
    #[must_use]
    pub fn by_pdn_game_type(game_type: &str) -> Option<&'static Variant> {
        let number = game_type.split(',').next()?.trim();
        VARIANTS.iter().copied().find(|v| v.pdn_game_type == number)
    }

    /// The number of playing squares.
    #[must_use]
    pub fn squares(&self) -> u32 {
        self.board.squares()
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}
