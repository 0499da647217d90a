//! What a roll scores (RULES.md §5): every event with its beneficiary, number of ways and
//! points, computed on the position **before** the roller moves (n°149, n°171) and on the set
//! of legal plays (fills, conservation, unplayed numbers).

use crate::board::{is_first_table, to_abs, Board, Table, OWN_COIN, THEIR_COIN};
use crate::plays::{PlaySet, Roll};
use serde::{Deserialize, Serialize};
use tablier_core::Side;

/// The kinds of scoring event of RULES.md §5.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EventKind {
    /// Jan de trois coups / de six tables (n°123): 4 to the roller.
    JanDeTroisCoups,
    /// Jan de deux tables (n°124): 4/6 to the roller.
    JanDeDeuxTables,
    /// Contre-jan de deux tables (n°125): 4/6 to the opponent.
    ContreJanDeDeuxTables,
    /// Jan de mézéas (n°126): 4/6 to the roller.
    JanDeMezeas,
    /// Contre-jan de mézéas (n°127): 4/6 to the opponent.
    ContreJanDeMezeas,
    /// Battre le coin (n°45): 4/6 to the roller.
    BattreLeCoin,
    /// A dame hit à vrai (n°129–135): per way, 4/6 in a first table, 2/4 in a second one.
    BattreAVrai,
    /// A dame hit à faux (n°136): the same value, to the opponent.
    BattreAFaux,
    /// Remplir a plein (n°56): 4/6 per way.
    Remplir,
    /// Conserver a plein (n°60, n°76, n°110): 4/6.
    Conserver,
    /// Bearing off one's last dame first (n°118): 4/6.
    Sortie,
    /// Numbers that cannot be played (n°76, n°83, n°153): 2 per number to the opponent.
    NombreNonJoue,
}

impl EventKind {
    /// The French name of the event.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            EventKind::JanDeTroisCoups => "jan de trois coups",
            EventKind::JanDeDeuxTables => "jan de deux tables",
            EventKind::ContreJanDeDeuxTables => "contre-jan de deux tables",
            EventKind::JanDeMezeas => "jan de mézéas",
            EventKind::ContreJanDeMezeas => "contre-jan de mézéas",
            EventKind::BattreLeCoin => "battre le coin",
            EventKind::BattreAVrai => "battre à vrai",
            EventKind::BattreAFaux => "battre à faux",
            EventKind::Remplir => "remplir",
            EventKind::Conserver => "conserver",
            EventKind::Sortie => "sortie (lever le premier)",
            EventKind::NombreNonJoue => "nombre non joué (jan qui ne peut)",
        }
    }

    /// The book paragraph that states the event's value.
    #[must_use]
    pub const fn paragraph(self) -> &'static str {
        match self {
            EventKind::JanDeTroisCoups => "n°123",
            EventKind::JanDeDeuxTables => "n°124",
            EventKind::ContreJanDeDeuxTables => "n°125",
            EventKind::JanDeMezeas => "n°126",
            EventKind::ContreJanDeMezeas => "n°127",
            EventKind::BattreLeCoin => "n°45",
            EventKind::BattreAVrai => "n°129-135",
            EventKind::BattreAFaux => "n°136",
            EventKind::Remplir => "n°56",
            EventKind::Conserver => "n°60",
            EventKind::Sortie => "n°118",
            EventKind::NombreNonJoue => "n°153",
        }
    }
}

/// One scoring event of a roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// What happened.
    pub kind: EventKind,
    /// Who marks the points.
    pub to: Side,
    /// Number of ways (hits, fills) or of unplayed numbers; 1 otherwise.
    pub ways: u8,
    /// The points the event is worth.
    pub points: u32,
    /// The absolute flèche concerned (hit dame, filled demi-case), if any.
    pub at: Option<u8>,
    /// The table concerned (fills, conservation), if any.
    pub table: Option<Table>,
}

impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} +{} {}", self.to, self.points, self.kind.name())?;
        if let Some(t) = self.table {
            write!(f, " ({})", t.name())?;
        }
        if let Some(a) = self.at {
            write!(f, " on flèche {a}")?;
        }
        if self.ways > 1 || matches!(self.kind, EventKind::BattreAVrai | EventKind::Remplir) {
            let unit = if self.kind == EventKind::NombreNonJoue {
                "number"
            } else {
                "way"
            };
            write!(
                f,
                ", {} {unit}{}",
                self.ways,
                if self.ways > 1 { "s" } else { "" }
            )?;
        }
        write!(f, " [{}]", self.kind.paragraph())
    }
}

/// What the game knows beyond the position, for the once-per-relevé jans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JanContext {
    /// How many rolls the roller has played since the relevé (`None`: unknown, read the
    /// position only — used by the `score` command).
    pub rolls_before: Option<u32>,
    /// The roller has not yet made (or given) his jan de deux tables this relevé (n°124).
    pub deux_tables_open: bool,
    /// Nobody has made (or given) the jan de mézéas this relevé (n°126).
    pub mezeas_open: bool,
    /// The first edition of tablier's rules (games recorded before 2026-11-26): a roll that
    /// can bear off the roller's last dame must, and the sortie's points are among the
    /// throw's gains, marked before the play. The current rules (`false`): bearing off is a
    /// right, and the sortie's points are marked after the play that bears off the last
    /// dame ([`RollScore::sortie_points`]).
    #[serde(default)]
    pub sortie_duty: bool,
}

impl Default for JanContext {
    fn default() -> Self {
        JanContext {
            rolls_before: None,
            deux_tables_open: true,
            mezeas_open: true,
            sortie_duty: false,
        }
    }
}

/// Everything a roll scores, with its plays.
#[derive(Clone, Debug)]
pub struct RollScore {
    /// Who threw.
    pub roller: Side,
    /// The dice thrown.
    pub roll: Roll,
    /// The events, the roller's gains first (n°207).
    pub events: Vec<Event>,
    /// The plays of the roll.
    pub plays: PlaySet,
}

impl RollScore {
    /// Scores `roll` thrown by `roller` on `board`.
    #[must_use]
    pub fn new(board: &Board, roller: Side, roll: Roll, ctx: JanContext) -> RollScore {
        let mut plays = PlaySet::new(board, roller, roll);
        if ctx.sortie_duty && plays.bears_off_last {
            plays.legal.retain(|c| c.end.on_board(roller) == 0);
        }
        let opp = roller.opposite();
        let (mine, theirs) = board.relative(roller);
        let abs = |r: u8| to_abs(roller, r);
        let mut gains: Vec<Event> = Vec::new();
        let mut given: Vec<Event> = Vec::new();
        let ev = |kind, to, ways, points, at, table| Event {
            kind,
            to,
            ways,
            points,
            at,
            table,
        };
        let (a, b) = (roll.high, roll.low);
        let own_coin = mine[usize::from(OWN_COIN)];
        let their_coin = theirs[usize::from(THEIR_COIN)];
        let on_talon = mine[1];

        // Jan de trois coups (n°123): third roll, four lone dames on four of the flèches
        // 1–6 (relative 2..=7), 11 on the talon, and the two numbers reach the other two.
        if !roll.is_doublet() && ctx.rolls_before.unwrap_or(2) == 2 && on_talon == 11 {
            let singles: Vec<u8> = (2..=7u8).filter(|&r| mine[usize::from(r)] == 1).collect();
            let elsewhere = (2..=24u8)
                .filter(|&r| mine[usize::from(r)] > 0)
                .any(|r| !(2..=7).contains(&r) || mine[usize::from(r)] != 1);
            if singles.len() == 4 && !elsewhere {
                let missing: Vec<u8> = (2..=7u8).filter(|r| !singles.contains(r)).collect();
                let mut want = [1 + a, 1 + b];
                want.sort_unstable();
                if missing == want {
                    gains.push(ev(EventKind::JanDeTroisCoups, roller, 1, 4, None, None));
                }
            }
        }

        // Jan de deux tables and contre-jan (n°124–125): two dames abattues, own coin empty,
        // one number brings one onto the own coin and the other onto the opponent's coin.
        if ctx.deux_tables_open && on_talon == 13 && own_coin == 0 {
            let down: Vec<u8> = (2..=24u8)
                .flat_map(|r| std::iter::repeat_n(r, usize::from(mine[usize::from(r)])))
                .collect();
            if down.len() == 2 {
                let (x, y) = (down[0], down[1]);
                let hits = |p: u8, q: u8| {
                    (p + a == OWN_COIN && q + b == THEIR_COIN)
                        || (p + b == OWN_COIN && q + a == THEIR_COIN)
                };
                if hits(x, y) || hits(y, x) {
                    if their_coin == 0 {
                        gains.push(ev(
                            EventKind::JanDeDeuxTables,
                            roller,
                            1,
                            roll.value(4),
                            None,
                            None,
                        ));
                    } else {
                        given.push(ev(
                            EventKind::ContreJanDeDeuxTables,
                            opp,
                            1,
                            roll.value(4),
                            None,
                            None,
                        ));
                    }
                }
            }
        }

        // Jan de mézéas and contre-jan (n°126–127): the coin taken with the only two dames
        // abattues, and an ace.
        if ctx.mezeas_open && on_talon == 13 && own_coin == 2 && b == 1 {
            if their_coin == 0 {
                gains.push(ev(
                    EventKind::JanDeMezeas,
                    roller,
                    1,
                    roll.value(4),
                    None,
                    None,
                ));
            } else {
                given.push(ev(
                    EventKind::ContreJanDeMezeas,
                    opp,
                    1,
                    roll.value(4),
                    None,
                    None,
                ));
            }
        }

        // Battre le coin (n°45): own coin held, opponent's empty, one dame by each number onto
        // it; the two dames forming the coin do not count.
        if own_coin >= 2 && their_coin == 0 {
            let usable = |r: u8| {
                let n = mine[usize::from(r)];
                if r == OWN_COIN {
                    n - 2
                } else {
                    n
                }
            };
            let ok = if roll.is_doublet() {
                usable(THEIR_COIN - a) >= 2
            } else {
                usable(THEIR_COIN - a) >= 1 && usable(THEIR_COIN - b) >= 1
            };
            if ok {
                gains.push(ev(
                    EventKind::BattreLeCoin,
                    roller,
                    1,
                    roll.value(4),
                    Some(abs(THEIR_COIN)),
                    None,
                ));
            }
        }

        // Hits (n°129–138): every lone dame of the opponent, by the dice and by the sum.
        let mut hits_true: Vec<Event> = Vec::new();
        for t in 1..=24u8 {
            if theirs[usize::from(t)] != 1 {
                continue;
            }
            let has = |d: u8| d < t && mine[usize::from(t - d)] > 0;
            let mut ways = 0u8;
            let mut faux = false;
            let dice: Vec<u8> = if roll.is_doublet() {
                vec![a]
            } else {
                vec![a, b]
            };
            for &d in &dice {
                if has(d) {
                    ways += 1;
                }
            }
            let sum = if roll.is_doublet() { 2 * a } else { a + b };
            if has(sum) {
                let rests: Vec<u8> = if roll.is_doublet() {
                    vec![t - a]
                } else {
                    vec![t - a, t - b]
                };
                if rests.iter().any(|&r| theirs[usize::from(r)] <= 1) {
                    ways += 1;
                } else {
                    faux = true;
                }
            }
            let base = if is_first_table(abs(t)) { 4 } else { 2 };
            if ways > 0 {
                hits_true.push(ev(
                    EventKind::BattreAVrai,
                    roller,
                    ways,
                    u32::from(ways) * roll.value(base),
                    Some(abs(t)),
                    None,
                ));
            } else if faux {
                given.push(ev(
                    EventKind::BattreAFaux,
                    opp,
                    1,
                    roll.value(base),
                    Some(abs(t)),
                    None,
                ));
            }
        }
        gains.extend(hits_true);

        // Remplir (n°47–56): ways only when exactly one dame is missing (n°56).
        if let Some(table) = plays.fills {
            let missing: u8 = table
                .range()
                .map(|r| 2u8.saturating_sub(mine[usize::from(r)]))
                .sum();
            let demi = table.range().find(|&r| mine[usize::from(r)] == 1);
            let (ways, at) = match demi {
                Some(h) if missing == 1 => {
                    let n = plays.fill_numbers(table, h).len().max(1) as u8;
                    (n, Some(abs(h)))
                }
                _ => (1, None),
            };
            gains.push(ev(
                EventKind::Remplir,
                roller,
                ways,
                u32::from(ways) * roll.value(4),
                at,
                Some(table),
            ));
        }

        // Conserver, also par impuissance and by the privilège de la bande (n°60, n°76, n°110).
        if let Some(table) = plays.conserves {
            gains.push(ev(
                EventKind::Conserver,
                roller,
                1,
                roll.value(4),
                None,
                Some(table),
            ));
        }

        // Lever le premier (n°118): under the first edition's duty, among the throw's gains;
        // otherwise marked after the play ([`RollScore::sortie_points`]).
        if ctx.sortie_duty && plays.bears_off_last {
            gains.push(ev(EventKind::Sortie, roller, 1, roll.value(4), None, None));
        }

        // Unplayed numbers (n°153): 2 each, a doublet changing nothing. Not when the roll bears
        // off the last dame (nothing is left to play).
        let unplayed = 2 - plays.max_dice;
        if unplayed > 0 && !plays.bears_off_last {
            given.push(ev(
                EventKind::NombreNonJoue,
                opp,
                unplayed,
                2 * u32::from(unplayed),
                None,
                None,
            ));
        }

        gains.extend(given);
        RollScore {
            roller,
            roll,
            events: gains,
            plays,
        }
    }

    /// The points of the sortie (*lever le premier*, n°118: 4, 6 by a doublet) that the
    /// roller marks after playing to `end`, when that play bore off his last dame (0
    /// otherwise). He marks them once the last dame is off, before he touches his dames to
    /// put them back on the talon (Guiton ch. VII: "il doit sous peine d'école les marquer
    /// avant de toucher ses dames pour les remettre à la pile").
    ///
    /// ```
    /// use tablier_core::Side;
    /// use tablier_trictrac::{Board, JanContext, Roll, RollScore};
    ///
    /// let board: Board = "22W1-24W1".parse().unwrap();
    /// let score = RollScore::new(&board, Side::White, Roll::new(5, 1), JanContext::default());
    /// // Both dames off, or 22-23 and 23 off leaving the dame on 24: both are legal.
    /// assert_eq!(score.plays.legal.len(), 2);
    /// let points: Vec<u32> = score.plays.legal.iter().map(|c| score.sortie_points(&c.end)).collect();
    /// assert!(points.contains(&4) && points.contains(&0));
    /// ```
    #[must_use]
    pub fn sortie_points(&self, end: &Board) -> u32 {
        let before = self.plays.start.on_board(self.roller);
        if before > 0 && end.on_board(self.roller) == 0 {
            self.roll.value(4)
        } else {
            0
        }
    }

    /// Every event of the throw played to `end`: the throw's events, and the sortie when
    /// that play bears off the last dame ([`RollScore::sortie_points`]).
    #[must_use]
    pub fn events_of_play(&self, end: &Board) -> Vec<Event> {
        let mut v = self.events.clone();
        let points = self.sortie_points(end);
        if points > 0 {
            v.push(Event {
                kind: EventKind::Sortie,
                to: self.roller,
                ways: 1,
                points,
                at: None,
                table: None,
            });
        }
        v
    }

    /// Points `side` marks from this roll played to `end` (the sortie included).
    #[must_use]
    pub fn points_of_play(&self, end: &Board, side: Side) -> u32 {
        let sortie = if side == self.roller {
            self.sortie_points(end)
        } else {
            0
        };
        self.points_for(side) + sortie
    }

    /// Points `side` marks from this roll.
    #[must_use]
    pub fn points_for(&self, side: Side) -> u32 {
        self.events
            .iter()
            .filter(|e| e.to == side)
            .map(|e| e.points)
            .sum()
    }

    /// The roller's gains (marked before he touches a dame).
    #[must_use]
    pub fn gains(&self) -> u32 {
        self.points_for(self.roller)
    }

    /// Points the roll gives the opponent (marked after the roller has played).
    #[must_use]
    pub fn given(&self) -> u32 {
        self.points_for(self.roller.opposite())
    }

    /// The events of one kind.
    pub fn of(&self, kind: EventKind) -> impl Iterator<Item = &Event> {
        self.events.iter().filter(move |e| e.kind == kind)
    }
}
