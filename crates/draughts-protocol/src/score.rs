//! The score of a match: wins, draws and losses of the first contestant, its score
//! fraction and the Elo difference with its 95% margin.

/// Elo difference of a score fraction.
fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Score fraction, Elo difference and the half-width of its 95% interval (from the games'
/// win/draw/loss variance), from wins, draws and losses.
#[must_use]
pub fn elo_summary(w: u32, d: u32, l: u32) -> (f64, f64, f64) {
    let n = f64::from(w + d + l).max(1.0);
    let s = (f64::from(w) + 0.5 * f64::from(d)) / n;
    let var = (f64::from(w) * (1.0 - s).powi(2)
        + f64::from(d) * (0.5 - s).powi(2)
        + f64::from(l) * s.powi(2))
        / n;
    let se = (var / n).sqrt();
    let lo = elo(s - 1.96 * se);
    let hi = elo(s + 1.96 * se);
    (s, elo(s), (hi - lo) / 2.0)
}

/// The score of a match so far, from the first contestant's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Score fraction, Elo difference and its 95% margin ([`elo_summary`]).
    #[must_use]
    pub fn summary(&self) -> (f64, f64, f64) {
        elo_summary(self.wins, self.draws, self.losses)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_figures() {
        let (s, e, m) = elo_summary(60, 20, 20);
        assert!((s - 0.7).abs() < 1e-9);
        assert!((e - 147.2).abs() < 1.0);
        assert!(m > 30.0 && m < 120.0);
        assert_eq!(elo_summary(10, 0, 10).1.round(), 0.0);
    }
}
