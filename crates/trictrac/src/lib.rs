//! Grand trictrac as J. L. (Lelasseux-Lafosse) wrote it down in *Le jeu de trictrac rendu
//! facile* (1852): the board and its plays, every scoring event with its number of ways, the
//! marker with holes and bredouille, s'en aller and relevés, the partie in 12 holes and the
//! partie à écrire, automatic marking or écoles. Paragraph numbers (n°N) are the book's; the
//! specification is the project's `reference/trictrac/RULES.md`.
//!
//! # Example
//! ```
//! use tablier_core::{Game, Side};
//! use tablier_trictrac::{Board, EventKind, JanContext, Roll, RollScore, Trictrac};
//!
//! // n°131, fig. 17: White's 4-3 hits Black's lone dame on abs 15 three ways (2 points each).
//! let board: Board = "1W2-4W1-6W1-7W3-8W2-9W2-11W2-12W2-13B2-14B2-15B1-17B2-18B2".parse().unwrap();
//! let score = RollScore::new(&board, Side::White, Roll::new(4, 3), JanContext::default());
//! let hit = score.of(EventKind::BattreAVrai).next().unwrap();
//! assert_eq!((hit.at, hit.ways, hit.points), (Some(15), 3, 6));
//!
//! // A game: the primauté throw, then White plays it.
//! let mut game = Trictrac::new(Default::default());
//! let throw = game.parse_action("W5 B3").unwrap();
//! game.apply(&throw).unwrap();
//! assert_eq!(game.actor(), tablier_core::Actor::Player(Side::White));
//! let play = game.parse_action("1-6,1-4").unwrap();
//! game.apply(&play).unwrap();
//! assert_eq!(game.board().to_string(), "1W13-4W1-6W1-24B15");
//! // An illegal action changes nothing.
//! let before = game.clone();
//! assert!(game.apply(&tablier_trictrac::Action::Go).is_err());
//! assert_eq!(game, before);
//! ```
//!
//! # Notation
//! * Positions (RULES.md §0): `<abs><W|B><count>` joined by `-`, absolute flèches 1..=24
//!   along White's path (White's talon 1, coins 12 and 13, Black's talon 24): `1W15-24B15`.
//!   Dames not listed are borne off. See [`board`].
//! * Plays: `1-7,1-6` (tout à bas, moves in order), `8-12-16` (tout d'une with its rest),
//!   `7-12,8-12 puissance`, `20-off`, `pass`. See [`plays`].
//! * Game records: JSON lines, see [`game`].
//!
//! # Readings of the rules chosen here
//! Where the book is silent or ambiguous we follow RULES.md §11; in particular:
//! * a doublet is two moves of its number, never four (n°30, A5);
//! * *jan interdit* (n°61, n°213, A3): a dame may not stop in a table of the opponent's while
//!   he can still make a plein there, by the counting test on his dames; resting there during
//!   a tout d'une is allowed;
//! * the own coin is checked at the end of the roll: it never holds exactly one dame (n°42–43);
//!   par puissance is refused whenever the roll can take the coin directly (n°44, n°62);
//! * bearing off (n°115–117, A4): an excédant number bears off the dame farthest from the band
//!   and only if it cannot be played inside; two défaillants may be added tout d'une into an
//!   exact sortant (Guiton ch. VII), never into an excédant;
//! * obligations in the order: both numbers, else the larger (n°34, n°83), then fill (n°57),
//!   then conserve (n°60); *remplir en passant* neither scores nor obliges (n°398, A1);
//! * fill *ways* (n°56, A6): only with a single dame missing; the distinct numbers among
//!   `{a, b, a+b}` by which a **surplus** dame (from outside the table, or a third dame; never
//!   one of the two dames holding the coin for the jan de retour, n°104, A8) can
//!   reach the demi-case in a legal play of the whole roll that ends with the plein;
//! * hits (n°129–138, A7): ways are distinct numbers; a sum way is true when one of its rests
//!   holds at most one opposing dame, false (à faux) when all rests hold two or more;
//! * jan de trois coups is worth 4 and a doublet cannot make it (n°123, A9); jan de deux
//!   tables is open once per player per relevé (n°124), jan de mézéas once per relevé
//!   (n°126); the contre-jans close them too;
//! * bredouille (n°143–147, A2): the second scorer also wins a double hole; points de reste
//!   start a new uninterrupted run;
//! * sortie (n°118): see "Bearing off" below. After a complete sortie both keep their
//!   points, the player who bore off has the primauté, and by the *jouer pour tout*
//!   convention (n°118, n°163, A10) the same throw is his first throw of the new relevé
//!   unless he goes; the other number, if nothing is left to play, gives the opponent
//!   nothing;
//! * the partie ordinaire is worth 1 to the winner, or with [`Options::stakes`] Guiton's
//!   multipliers (ch. VIII, A13: [`marker::stake`]); in the partie à écrire the consolation is 2, 4 after a refait, 6
//!   after two (n°226, A11); the outcome is the final settlement by paper and pencil
//!   (n°233): the values of the marqués each lost plus his postillons (28 jetons for the
//!   first marqué lost beyond half, 8 for each other, n°227), the difference to the winner;
//!   [`Trictrac::settlement`] and [`marker::settle`] also count the jetons des marqués
//!   (n°228), fiches (five jetons make one, n°230) and the queue (n°229);
//! * écoles: every paragraph of RULES.md §9 and how it is modelled is listed in [`game`].
//!
//! # Bearing off: a right, not a duty
//! May a player keep a dame on the board when his roll could bear off his last one (with
//! `22W1-24W1`, may 5-1 be played 22-23, 23-off, leaving the dame on 24)? The sources make
//! bearing off a right, and tablier follows them ([`Edition::Second`]):
//! * the book's rules of bearing off (n°115–117) impose no such obligation, and n°118 only
//!   says what the first to bear off wins;
//! * Guiton (ch. VII, points sortants) writes "quoiqu'on pût jouer ce point dans l'intérieur
//!   du tablier, on a le droit de placer sur la bande la dame qui s'y trouve";
//! * Lepeintre (first part, fig. 14) "il peut jouer le 3 en dedans ou en levant une des
//!   dames", and (fourth part, §72–73) "vous pouvez", "on peut"; his "on est obligé de lever
//!   ou de sortir" concerns excédant numbers, in a paragraph that lets a sortant be played
//!   inside;
//! * unlike filling (n°57, école n°192) and conserving (n°60, n°196), no école punishes a
//!   player who does not bear off.
//!
//! The one argument for a duty was n°118's "il marque ce gain avant de toucher ses dames",
//! read as "before the play". Guiton's wording of the same rule settles it: "il doit sous
//! peine d'école les marquer avant de toucher ses dames **pour les remettre à la pile**" —
//! after the play that bore off the last dame, before the dames are put back on the talons.
//! So every play of the roll is legal; the sortie's 4 points (6 by a doublet) are marked
//! after the play that bears off the last dame ([`RollScore::sortie_points`]); a hole they
//! make is decided then (go, or stay and play the same throw from the talons); the points
//! the roll gives the opponent follow, unless the player goes (then, as after any going, the
//! opponent marks nothing from the roll, n°157). In the écoles mode the program marks the
//! sortie for the player (an omitted sortie is not yet an école here).
//!
//! Games stored before this reading (until 2026-11-26) kept the duty, the sortie among the
//! throw's gains and the choice to go before the play: [`Edition::First`], which a record
//! or options that name no edition still mean, so that they replay exactly.
//!
//! # Where the book's examples and the rules disagree
//! The tests follow the rules and say why (TEST_VECTORS.md §9): n°55 (fig. 8, 5-5 does fill
//! with the talon's surplus), n°78 (fig. 13, 4-4 conserves by 8→12→16), the first entry of
//! n°412 (1-1 conserves), the "conserver deux fois" totals of n°378, n°379 and n°415 (the
//! book chose its first plays by placement advice, we maximise), and n°199 (with fig. 21 as
//! transcribed, 6-6 can also be played 1-7,4-10; the par-puissance play is refused as the
//! book says).
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod board;
pub mod chances;
pub mod game;
pub mod marker;
pub mod plays;
pub mod scoring;

pub use board::{Board, PositionError, Table};
pub use game::{Action, Ecole, EcoleKind, Edition, Marking, Options, Partie, Phase, Trictrac};
pub use marker::Marker;
pub use plays::{Play, PlaySet, Roll, Step};
pub use scoring::{Event, EventKind, JanContext, RollScore};
