//! The marker (RULES.md §6, §8): points (jetons), holes (fichets), bredouille for the first
//! *and* the second scorer, points de reste, the pavillon, and the value of a marqué of the
//! partie à écrire.

use serde::{Deserialize, Serialize};
use tablier_core::Side;

/// Points make a hole at this many (n°140).
pub const HOLE: u32 = 12;

/// Who holds the pavillon (holes-level bredouille) in the partie à écrire (n°223–225).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pavillon {
    /// The player whose holes have not been interrupted, if any.
    pub holder: Option<Side>,
    /// The pavillon has passed once from the first taker to the second.
    pub passed: bool,
    /// Both players have interrupted each other: nobody can re-enter it (n°225).
    pub lost: bool,
}

impl Pavillon {
    fn took_holes(&mut self, x: Side) {
        if self.lost {
            return;
        }
        match self.holder {
            None => self.holder = Some(x),
            Some(h) if h == x => {}
            Some(_) if !self.passed => {
                self.holder = Some(x);
                self.passed = true;
            }
            Some(_) => {
                self.holder = None;
                self.lost = true;
            }
        }
    }
}

/// Points, holes and bredouille of both players.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Marker {
    /// Points of White and Black (0..=11), indexed by [`Side::index`].
    pub points: [u32; 2],
    /// Holes of White and Black.
    pub holes: [u32; 2],
    /// Whether each player's current run of points is uninterrupted (n°143–144).
    pub bredouille: [bool; 2],
    /// The pavillon: where the holes are marked.
    pub pavillon: Pavillon,
}

impl Marker {
    /// A marker at zero.
    #[must_use]
    pub fn new() -> Marker {
        Marker::default()
    }

    /// A marker with the given points and bredouille states (for examples and tests).
    #[must_use]
    pub fn with_points(white: (u32, bool), black: (u32, bool)) -> Marker {
        Marker {
            points: [white.0, black.0],
            bredouille: [white.1, black.1],
            ..Marker::default()
        }
    }

    /// Points of `side`.
    #[must_use]
    pub fn points(&self, side: Side) -> u32 {
        self.points[side.index()]
    }

    /// Holes of `side`.
    #[must_use]
    pub fn holes(&self, side: Side) -> u32 {
        self.holes[side.index()]
    }

    /// Marks `k` points for `x` and returns the holes they make (RULES.md §6.2):
    /// * a player who starts from zero points starts an uninterrupted run — the first scorer
    ///   and the second alike (n°144);
    /// * points of one player interrupt the other's run (n°143);
    /// * 12 points make a hole, double if uninterrupted (n°143); only the 12 that make the
    ///   hole count, so 4 interrupted + 16 give one simple hole (n°146); further 12s of the
    ///   same marking are consecutive, hence double (n°147);
    /// * taking a hole erases the opponent's points (n°148, n°209); the points de reste start
    ///   a new uninterrupted run (n°147, n°158).
    pub fn mark(&mut self, x: Side, k: u32) -> u32 {
        if k == 0 {
            return 0;
        }
        let (i, j) = (x.index(), x.opposite().index());
        if self.points[i] == 0 {
            self.bredouille[i] = true;
        }
        if self.points[j] > 0 {
            self.bredouille[j] = false;
        }
        let mut total = self.points[i] + k;
        let mut holes = 0;
        if total >= HOLE {
            holes += if self.bredouille[i] { 2 } else { 1 };
            total -= HOLE;
            while total >= HOLE {
                holes += 2;
                total -= HOLE;
            }
            self.points[j] = 0;
            self.bredouille[i] = true;
            self.pavillon.took_holes(x);
        }
        self.points[i] = total;
        self.holes[i] += holes;
        holes
    }

    /// Erases both players' points (going away, n°155, n°157).
    pub fn erase_points(&mut self) {
        self.points = [0, 0];
        self.bredouille = [false, false];
    }
}

/// The stake multiplier of a partie ordinaire won by `winner` ([Guiton ch. VIII] "Partie en
/// douze trous", RULES.md §8.1, A13; J.L. n°218 only says it "peut se jouer avec la
/// bredouille"):
/// * 4 if the loser has not taken a single hole;
/// * 3 if the winner took his holes second and kept the pavillon to the end;
/// * otherwise (no pavillon) 2 if the loser has fewer than 6 holes, 1 if he has 6 or more.
#[must_use]
pub fn stake(marker: &Marker, winner: Side) -> u32 {
    let loser_holes = marker.holes(winner.opposite());
    if loser_holes == 0 {
        4
    } else if marker.pavillon.holder == Some(winner) {
        3
    } else if loser_holes < 6 {
        2
    } else {
        1
    }
}

/// Value of a marqué of the partie à écrire (n°222–226): winner's holes `hw`, loser's `hl`,
/// whether the winner holds the pavillon, and the number of refaits before it (consolation
/// 2, then 4, then 6: n°226).
/// * simple: `hw + c − hl` (n°222);
/// * petite bredouille (pavillon, ≥ 6 holes): `2(hw + c) − hl` (n°223–224);
/// * grande bredouille (pavillon, more than 11 holes): `4(hw + c) − hl` (n°224).
#[must_use]
pub fn marque_value(hw: u32, hl: u32, pavillon: bool, refaits: u32) -> i64 {
    let c = 2 + 2 * i64::from(refaits);
    let (hw, hl) = (i64::from(hw), i64::from(hl));
    if pavillon && hw > 11 {
        4 * (hw + c) - hl
    } else if pavillon && hw >= 6 {
        2 * (hw + c) - hl
    } else {
        hw + c - hl
    }
}

/// The price of postillons (n°227): 28 jetons for the first, 8 for each further one.
#[must_use]
pub fn postillon_price(postillons: u32) -> i64 {
    if postillons == 0 {
        0
    } else {
        28 + 8 * (i64::from(postillons) - 1)
    }
}

/// Jetons to fiches (n°222, n°230, n°233): "les dizaines sont des fiches, cinq unités valent
/// une fiche" — ten jetons are a fiche, and a rest of five or more counts as one more fiche
/// in favour of the winner.
#[must_use]
pub fn fiches(jetons: u32) -> u32 {
    jetons / 10 + u32::from(jetons % 10 >= 5)
}

/// The final settlement of a partie à écrire (n°227–237).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settlement {
    /// Marqués lost by White and by Black.
    pub lost: [u32; 2],
    /// Postillons of White and Black: marqués lost beyond half the agreed number (n°227).
    pub postillons: [u32; 2],
    /// What each player owes by paper and pencil (n°233): the values of the marqués he lost
    /// and the price of his postillons.
    pub owed: [i64; 2],
    /// Jetons des marqués (n°227–228) moved from one player to the other: with `k` jetons
    /// per marqué, the player who, before the postillons are paid, has the more jetons (owes
    /// less) takes the `k` jetons the other put down for each marqué he lost; equal, each
    /// keeps his own. Positive: White gains them; negative: Black does.
    pub marque_jetons: i64,
    /// The final winner (`None`: neither gains nor loses, n°236).
    pub winner: Option<Side>,
    /// The jetons the winner gains.
    pub jetons: u32,
    /// Those jetons in fiches ([`fiches`]) plus the queue (n°229) if there is a winner.
    pub fiches: u32,
}

/// Settles a partie à écrire of `marques` marqués (n°227–237): `lost[i]` are the values of
/// the marqués lost by White (`i = 0`) and by Black, `jetons_par_marque` the jetons each
/// loser puts down per marqué lost (0: the paper-and-pencil method of n°233, else 1 or 2,
/// n°227–228), `queue` the agreed stake in fiches of the final winner (n°229).
///
/// ```
/// use tablier_core::Side;
/// use tablier_trictrac::marker::settle;
/// // n°235: one loses 19 and 69, the other 51, 14, 5 and 7 with a postillon (six marqués).
/// let s = settle([&[19, 69], &[51, 14, 5, 7]], 6, 0, 0);
/// assert_eq!((s.owed, s.winner, s.jetons, s.fiches), ([88, 105], Some(Side::White), 17, 2));
/// ```
#[must_use]
pub fn settle(lost: [&[i64]; 2], marques: u32, jetons_par_marque: u32, queue: u32) -> Settlement {
    let half = marques / 2;
    let n = [lost[0].len() as u32, lost[1].len() as u32];
    let postillons = [n[0].saturating_sub(half), n[1].saturating_sub(half)];
    let sums = [lost[0].iter().sum::<i64>(), lost[1].iter().sum::<i64>()];
    let owed = [
        sums[0] + postillon_price(postillons[0]),
        sums[1] + postillon_price(postillons[1]),
    ];
    let k = i64::from(jetons_par_marque);
    let marque_jetons = match sums[0].cmp(&sums[1]) {
        std::cmp::Ordering::Less => k * i64::from(n[1]),
        std::cmp::Ordering::Greater => -k * i64::from(n[0]),
        std::cmp::Ordering::Equal => 0,
    };
    let white_gain = owed[1] - owed[0] + marque_jetons;
    let winner = match white_gain.cmp(&0) {
        std::cmp::Ordering::Greater => Some(Side::White),
        std::cmp::Ordering::Less => Some(Side::Black),
        std::cmp::Ordering::Equal => None,
    };
    let jetons = u32::try_from(white_gain.unsigned_abs()).unwrap_or(u32::MAX);
    Settlement {
        lost: n,
        postillons,
        owed,
        marque_jetons,
        winner,
        jetons,
        fiches: if winner.is_some() {
            fiches(jetons) + queue
        } else {
            0
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twelve_points_make_a_hole_n140() {
        let mut m = Marker::new();
        assert_eq!(m.mark(Side::White, 10), 0);
        assert_eq!(m.mark(Side::White, 2), 2);
        assert_eq!(m.points(Side::White), 0);
        assert_eq!(m.holes(Side::White), 2);
    }

    #[test]
    fn stakes_of_the_partie_in_twelve_holes_guiton_viii() {
        let hole = |m: &mut Marker, s: Side| {
            m.mark(s, 12);
            m.erase_points();
        };
        // Twelve holes before the opponent takes one: quadruple.
        let mut m = Marker::new();
        for _ in 0..6 {
            hole(&mut m, Side::White);
        }
        assert_eq!(stake(&m, Side::White), 4);
        // Black takes holes second and is never interrupted: triple.
        let mut m = Marker::new();
        hole(&mut m, Side::White);
        for _ in 0..6 {
            hole(&mut m, Side::Black);
        }
        assert_eq!(stake(&m, Side::Black), 3);
        // Both interrupted: double if the loser has fewer than 6 holes, simple otherwise.
        hole(&mut m, Side::White);
        assert_eq!(m.holes, [4, 12]);
        assert_eq!(stake(&m, Side::Black), 2);
        hole(&mut m, Side::White);
        assert_eq!(stake(&m, Side::Black), 1);
    }

    #[test]
    fn pavillon_n225() {
        let mut m = Marker::new();
        m.mark(Side::White, 12);
        assert_eq!(m.pavillon.holder, Some(Side::White));
        m.mark(Side::Black, 12);
        assert_eq!(m.pavillon.holder, Some(Side::Black));
        m.mark(Side::White, 12);
        assert_eq!(m.pavillon.holder, None);
        m.mark(Side::White, 12);
        assert_eq!(m.pavillon.holder, None, "on ne rentre pas en bredouille");
    }
}
