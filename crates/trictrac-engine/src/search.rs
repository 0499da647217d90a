//! Play selection by expected value: every legal play of the roll (and s'en aller when the
//! roll won a hole) is valued by the holes it leads to, averaged over the opponent's 21 rolls
//! when searching 2 plies, the leaves valued by the evaluation.

use crate::eval::Weights;
use crate::partie::{PartieModel, Score};
use crate::rester::StayModel;
use crate::sim::{AfterPlay, Policy, State, PARTIE_HOLES};
use crate::tenue::TenuePlayouts;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tablier_core::Side;
use tablier_trictrac::{Board, Roll, RollScore};

/// What the search maximises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// The expected margin of holes at the end of the partie (values in holes): what the
    /// evaluation is trained on, and what the levels play for in a partie à écrire.
    Margin,
    /// The chance of winning the partie in 12 holes ([`crate::partie`]); values are
    /// `2·chance − 1`, from −1 (lost) to 1 (won), so that the opponent's value is the
    /// negation of one's own. The levels' objective in a partie in 12 holes.
    Partie,
    /// The margin while both players have fewer than [`CLOSING_HOLES`] holes, the chance of
    /// winning the partie from there: each decision is searched whole under the objective
    /// of the score it is taken at. Far from the end a hole is worth about the same at
    /// every score and the margin's evaluation is the better trained; near the end the
    /// partie is won or lost (n°387). Measured with the first chance model (which counted
    /// the next throw twice) against [`Objective::Margin`] over 1,000 parties with the same
    /// dice both seatings: 49.2% ± 0.9% of the parties; the levels play for the chance
    /// throughout.
    Closing,
    /// The margin, except that near the end (a player at [`CLOSING_HOLES`] holes or more) a
    /// choice to go is turned into staying when the chance of winning the partie says stay:
    /// the first chance model went too often (see [`crate::partie`]), so only its advice to
    /// keep the tenue — the book's n°387 when far behind — was taken. Measured with that
    /// model against [`Objective::Margin`] over 1,000 parties with the same dice both
    /// seatings: 49.3% ± 0.6% of the parties; the levels do not use it.
    ClosingStay,
}

/// From how many holes of either player [`Objective::Closing`] plays for the partie.
pub const CLOSING_HOLES: u32 = 9;

/// The expected-value search.
#[derive(Clone, Debug)]
pub struct Search {
    /// What it maximises.
    pub objective: Objective,
    /// The trained evaluation of a position between two throws.
    pub weights: Weights,
    /// 1: the play is chosen by the evaluation of the position after it (the evaluation
    /// itself averages the next throw of each player over the 21 rolls); 2: the position
    /// after each of the best plays is valued by the opponent's best answer to each of his
    /// 21 rolls.
    pub plies: u8,
    /// At 2 plies, how many of the best plays by the 1-ply value are searched deeper.
    pub keep: usize,
    /// At 2 plies, how many of the opponent's answers to each roll (ordered by the quick
    /// estimate, without the outlooks) are valued properly.
    pub replies: usize,
    /// A correction of staying after a hole won by a throw, learnt by playing both choices
    /// out ([`crate::rester`]); applied under [`Objective::Margin`] and
    /// [`Objective::Partie`] (`None`: the search's values as they are).
    pub stay: Option<StayModel>,
    /// Near the end of the partie, staying valued by playing the tenue out
    /// ([`crate::tenue`]); applied under [`Objective::Partie`] after a hole won by a throw
    /// (`None`: the search's values as they are).
    pub tenue: Option<TenuePlayouts>,
}

/// The distinct end positions of a roll's legal plays, and for each legal play the index of
/// its end position.
#[must_use]
pub fn distinct_ends(score: &RollScore) -> (Vec<Board>, Vec<usize>) {
    let mut ends: Vec<Board> = Vec::new();
    let mut index = Vec::with_capacity(score.plays.legal.len());
    for c in &score.plays.legal {
        let k = ends.iter().position(|b| *b == c.end).unwrap_or_else(|| {
            ends.push(c.end);
            ends.len() - 1
        });
        index.push(k);
    }
    if ends.is_empty() {
        ends.push(score.plays.start);
    }
    (ends, index)
}

/// What the search says about one throw, after the gains are marked.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnAnalysis {
    /// The value of each legal play (same order as `score.plays.legal`) for the roller: his
    /// final margin of holes over the opponent as estimated ([`Objective::Margin`]), or
    /// `2·chance − 1` of winning the partie ([`Objective::Partie`]; see [`chance`]).
    pub plays: Vec<f64>,
    /// The value of going, when the roll won a hole (and the partie goes on).
    pub go: Option<f64>,
}

impl TurnAnalysis {
    /// Index of the best play.
    #[must_use]
    pub fn best_play(&self) -> usize {
        argmax(&self.plays)
    }

    /// The value of staying (the best play's).
    #[must_use]
    pub fn stay(&self) -> f64 {
        self.plays.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    }

    /// Whether going is worth more than staying.
    #[must_use]
    pub fn goes(&self) -> bool {
        self.go.is_some_and(|g| g > self.stay())
    }
}

/// The chance of winning the partie of a value under [`Objective::Partie`].
#[must_use]
pub fn chance(value: f64) -> f64 {
    ((value + 1.0) / 2.0).clamp(0.0, 1.0)
}

fn argmax(v: &[f64]) -> usize {
    let mut best = 0;
    for (i, x) in v.iter().enumerate() {
        if *x > v[best] {
            best = i;
        }
    }
    best
}

impl Search {
    /// A search for the hole margin with `weights` at `plies` (1 or 2; 2 keeps the best 3
    /// plays).
    #[must_use]
    pub fn new(weights: Weights, plies: u8) -> Search {
        Search {
            objective: Objective::Margin,
            weights,
            plies: plies.clamp(1, 2),
            keep: 3,
            replies: 4,
            stay: None,
            tenue: None,
        }
    }

    /// A search for the chance of winning the partie ([`Objective::Partie`], with the
    /// shipped [`PartieModel`]) with `weights` at `plies`.
    #[must_use]
    pub fn for_partie(weights: Weights, plies: u8) -> Search {
        Search {
            objective: Objective::Partie,
            ..Search::new(weights, plies)
        }
    }

    /// A search for the hole margin far from the end of the partie and for its chance near
    /// the end ([`Objective::Closing`]) with `weights` at `plies`.
    #[must_use]
    pub fn closing(weights: Weights, plies: u8) -> Search {
        Search {
            objective: Objective::Closing,
            ..Search::new(weights, plies)
        }
    }

    /// The objective a decision taken in `s` is searched under: [`Objective::Closing`]
    /// resolved by the score of `s`, the others as they are.
    #[must_use]
    pub fn objective_at(&self, s: &State) -> Objective {
        match self.objective {
            Objective::ClosingStay => Objective::Margin,
            Objective::Closing => {
                let most = s.marker.holes(Side::White).max(s.marker.holes(Side::Black));
                if most >= CLOSING_HOLES {
                    Objective::Partie
                } else {
                    Objective::Margin
                }
            }
            o => o,
        }
    }

    /// This search with its objective resolved at `s` (see [`Search::objective_at`]).
    fn resolved(&self, s: &State) -> Option<Search> {
        matches!(self.objective, Objective::Closing | Objective::ClosingStay).then(|| Search {
            objective: self.objective_at(s),
            ..self.clone()
        })
    }

    /// Under [`Objective::ClosingStay`], near the end: `margin` (the margin's analysis) with
    /// going made worth less than staying when the chance of the partie says stay.
    fn keep_tenue(
        &self,
        s: &State,
        margin: TurnAnalysis,
        partie: impl FnOnce(&Search) -> TurnAnalysis,
    ) -> TurnAnalysis {
        let late = s.marker.holes(Side::White).max(s.marker.holes(Side::Black)) >= CLOSING_HOLES;
        if self.objective != Objective::ClosingStay || !late || !margin.goes() {
            return margin;
        }
        let chance = partie(&Search {
            objective: Objective::Partie,
            ..self.clone()
        });
        if chance.goes() {
            return margin;
        }
        let stay = margin.stay();
        TurnAnalysis {
            go: margin.go.map(|g| g.min(stay - 1e-9)),
            ..margin
        }
    }

    /// The value of a finished partie for the roller of `s`.
    #[must_use]
    pub fn terminal(&self, s: &State) -> f64 {
        match self.objective_at(s) {
            Objective::Margin | Objective::Closing | Objective::ClosingStay => {
                s.hole_margin(s.roller)
            }
            Objective::Partie => {
                if s.marker.holes(s.roller) >= PARTIE_HOLES {
                    1.0
                } else {
                    -1.0
                }
            }
        }
    }

    /// The evaluation of `s` (not over) for its roller, in the objective's units.
    #[must_use]
    pub fn leaf(&self, s: &State) -> f64 {
        match self.objective_at(s) {
            Objective::Margin | Objective::Closing | Objective::ClosingStay => {
                s.hole_margin(s.roller) + self.weights.roller_value(s)
            }
            Objective::Partie => {
                let score = Score::of(&s.marker, s.roller);
                let p = PartieModel::shipped().chance(&score, self.weights.roller_value(s));
                2.0 * p - 1.0
            }
        }
    }

    /// The value for its roller of a state before his throw, looking `depth` throws ahead
    /// (0: the evaluation).
    #[must_use]
    pub fn throw_value(&self, s: &State, depth: u8) -> f64 {
        if s.over {
            return self.terminal(s);
        }
        if depth == 0 {
            return self.leaf(s);
        }
        Roll::all()
            .into_iter()
            .map(|r| f64::from(r.chances()) / 36.0 * self.roll_value(s, r, depth - 1))
            .sum()
    }

    /// The value for the roller of throwing `roll` from `s` and deciding best, the positions
    /// after the turn valued `depth` throws ahead.
    #[must_use]
    pub fn roll_value(&self, s: &State, roll: Roll, depth: u8) -> f64 {
        let mut t = *s;
        let (score, holes) = t.begin_roll(roll);
        if t.over {
            return self.terminal(&t);
        }
        let a = self.analyse_at(&t, &score, holes, depth, true);
        a.go.map_or(a.stay(), |g| g.max(a.stay()))
    }

    /// The value for the roller of playing to `end` (the gains of `score` marked on `t`).
    fn after_play(&self, t: &State, score: &RollScore, end: &Board, depth: u8) -> f64 {
        let me = t.roller;
        let mut s = *t;
        if let AfterPlay::Sortie { holes } = s.play(score, end) {
            // A complete sortie: going, or staying for the new relevé.
            let a = self.sortie_at(&s, score, holes, depth);
            return a.go.map_or(a.stay(), |g| g.max(a.stay()));
        }
        let v = self.throw_value(&s, depth);
        if s.roller == me {
            v
        } else {
            -v
        }
    }

    /// Staying and going after a sortie (`s`: the play made and the sortie marked, `holes`
    /// the holes it made), `depth` throws ahead: staying throws the same roll for the new
    /// relevé (*jouer pour tout*); going is valued one throw deeper, so that both see the
    /// new relevé's first throw.
    fn sortie_at(&self, s: &State, score: &RollScore, holes: u32, depth: u8) -> TurnAnalysis {
        if s.over {
            return TurnAnalysis {
                plays: vec![self.terminal(s)],
                go: None,
            };
        }
        let mut t = *s;
        let roll = t.stay_after_sortie(score);
        let stay = if t.over {
            self.terminal(&t)
        } else {
            self.roll_value(&t, roll, depth)
        };
        TurnAnalysis {
            plays: vec![stay],
            go: (holes > 0).then(|| self.go_value(s, depth + 1)),
        }
    }

    /// Going or staying after a sortie that made a hole (`s`: the play made and the sortie
    /// marked on the marker, the roller to decide): the value of staying (the only "play")
    /// and of going, searched as deep as the search's plies.
    #[must_use]
    pub fn analyse_sortie(&self, s: &State, score: &RollScore) -> TurnAnalysis {
        if let Some(r) = self.resolved(s) {
            let a = r.analyse_sortie(s, score);
            return self.keep_tenue(s, a, |p| p.analyse_sortie(s, score));
        }
        self.sortie_at(s, score, 1, self.plies.saturating_sub(1))
    }

    fn go_value(&self, t: &State, depth: u8) -> f64 {
        let mut g = *t;
        g.go();
        self.throw_value(&g, depth)
    }

    /// The value of playing to `end`, quickly estimated (no outlooks).
    fn quick_after_play(&self, t: &State, score: &RollScore, end: &Board) -> f64 {
        let me = t.roller;
        let mut s = *t;
        if s.play(score, end) != AfterPlay::Next {
            // A complete sortie: always valued properly.
            return f64::INFINITY;
        }
        let v = s.hole_margin(s.roller) + self.weights.quick_value(&s);
        if s.roller == me {
            v
        } else {
            -v
        }
    }

    pub(crate) fn analyse_at(
        &self,
        t: &State,
        score: &RollScore,
        holes: u32,
        depth: u8,
        answer: bool,
    ) -> TurnAnalysis {
        let (ends, index) = distinct_ends(score);
        let mut chosen = vec![true; ends.len()];
        if answer && self.replies > 0 && ends.len() > self.replies {
            // An answer inside a deeper search: only the best few by the quick estimate.
            let quick: Vec<f64> = ends
                .iter()
                .map(|e| self.quick_after_play(t, score, e))
                .collect();
            let mut order: Vec<usize> = (0..ends.len()).collect();
            order.sort_by(|&x, &y| quick[y].total_cmp(&quick[x]));
            chosen = vec![false; ends.len()];
            for &k in order.iter().take(self.replies) {
                chosen[k] = true;
            }
        }
        let vals: Vec<f64> = ends
            .iter()
            .zip(&chosen)
            .map(|(e, &c)| {
                if c {
                    self.after_play(t, score, e, depth)
                } else {
                    f64::NEG_INFINITY
                }
            })
            .collect();
        // After a complete sortie, staying values the relevé's first throw (the same roll);
        // going is then valued one throw deeper too, so that both see the new relevé's first
        // throw.
        let sortie = score.plays.bears_off_last;
        let go = (holes > 0).then(|| self.go_value(t, depth + u8::from(sortie)));
        let plays: Vec<f64> = index.iter().map(|&k| vals[k]).collect();
        TurnAnalysis {
            go: go.map(|g| g - self.stay_correction(t, score, &plays, g)),
            plays,
        }
    }

    /// What the stay model ([`Search::stay`]) adds to staying after a hole won by a throw
    /// (not a sortie), given the plays' values and going's, in the objective's units; 0
    /// without a model. The model is in holes of margin, fed the margin search's own stay −
    /// go: under [`Objective::Margin`] it is added as it is; under [`Objective::Partie`] the
    /// margin's 1-ply analysis gives its input, and its holes are added to the margin the
    /// board promises after the best play, the chance recomputed there with the partie
    /// model (a hole of margin is worth more where the partie is close to its end).
    fn stay_correction(&self, t: &State, score: &RollScore, plays: &[f64], go: f64) -> f64 {
        let Some(model) = &self.stay else {
            return 0.0;
        };
        let best = argmax(plays);
        let stay = plays.get(best).copied().unwrap_or(f64::NEG_INFINITY);
        if score.plays.bears_off_last || !stay.is_finite() {
            return 0.0;
        }
        match self.objective_at(t) {
            Objective::Margin => model.correction(t, stay - go),
            Objective::Partie => {
                let margin = Search {
                    objective: Objective::Margin,
                    plies: 1,
                    stay: None,
                    ..self.clone()
                };
                let m = margin.analyse_at(t, score, 1, 0, false);
                let Some(go_m) = m.go else { return 0.0 };
                let holes = model.correction(t, m.stay() - go_m);
                let Some(c) = score.plays.legal.get(best) else {
                    return 0.0;
                };
                let mut after = *t;
                if after.play(score, &c.end) != AfterPlay::Next || after.over {
                    return 0.0;
                }
                // The opponent throws next: his chance, less the correction's holes.
                let partie = PartieModel::shipped();
                let his = Score::of(&after.marker, after.roller);
                let p = chance(-stay).clamp(1e-9, 1.0 - 1e-9);
                let z = crate::partie::logit(p) - holes * partie.board_slope(&his);
                let corrected = 1.0 - 2.0 * crate::partie::sigmoid(z);
                corrected - stay
            }
            _ => 0.0,
        }
    }

    /// Values every choice of the roller of `t`, whose gains from `score` are marked on `t`
    /// (`holes`: the holes they made; going is considered when more than 0).
    #[must_use]
    pub fn analyse(&self, t: &State, score: &RollScore, holes: u32) -> TurnAnalysis {
        if let Some(r) = self.resolved(t) {
            let a = r.analyse(t, score, holes);
            return self.keep_tenue(t, a, |p| p.analyse(t, score, holes));
        }
        let mut a = self.searched(t, score, holes);
        if holes > 0 && self.objective == Objective::Partie {
            let played = self.tenue.filter(|p| p.applies(t));
            if let Some((stay, go)) = played.and_then(|p| p.values(self, t, score)) {
                // Going keeps its place against the plays by the play-outs' difference.
                a.go = Some(a.stay() + (go - stay));
            }
        }
        a
    }

    /// [`Search::analyse`] by the search alone (no play-outs of the tenue).
    fn searched(&self, t: &State, score: &RollScore, holes: u32) -> TurnAnalysis {
        let mut a = self.analyse_at(t, score, holes, 0, false);
        if self.plies < 2 || t.over {
            return a;
        }
        // 2 plies: the best plays (and going) by the 1-ply value, searched deeper.
        let (ends, index) = distinct_ends(score);
        let mut order: Vec<usize> = (0..ends.len()).collect();
        let first: Vec<f64> = order
            .iter()
            .map(|&k| a.plays[index.iter().position(|&i| i == k).unwrap_or(0)])
            .collect();
        order.sort_by(|&x, &y| first[y].total_cmp(&first[x]));
        let deep: Vec<(usize, f64)> = order
            .iter()
            .take(self.keep.max(1))
            .map(|&k| (k, self.after_play(t, score, &ends[k], 1)))
            .collect();
        // Plays not searched deeper keep a value below every deep one.
        let floor = deep.iter().map(|d| d.1).fold(f64::INFINITY, f64::min) - 1e-6;
        for (i, k) in index.iter().enumerate() {
            a.plays[i] = deep
                .iter()
                .find(|d| d.0 == *k)
                .map_or(floor - (first[*k].abs() * 1e-9), |d| d.1);
        }
        if holes > 0 {
            let g = self.go_value(t, 1 + u8::from(score.plays.bears_off_last));
            a.go = Some(g - self.stay_correction(t, score, &a.plays, g));
        }
        a
    }
}

/// A [`Policy`] playing by the search, with optional noise for levels below the strongest.
#[derive(Clone, Debug)]
pub struct SearchPlayer {
    /// How deep it looks and with which evaluation.
    pub search: Search,
    /// Each value gets a uniform random term in ±`noise` holes before choosing (0: none).
    pub noise: f64,
    rng: ChaCha8Rng,
}

impl SearchPlayer {
    /// A player searching with `search`, its random choices seeded by `seed`.
    #[must_use]
    pub fn new(search: Search, noise: f64, seed: u64) -> SearchPlayer {
        SearchPlayer {
            search,
            noise,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    fn jitter(&mut self, v: f64) -> f64 {
        if self.noise > 0.0 {
            v + self.rng.gen_range(-self.noise..=self.noise)
        } else {
            v
        }
    }

    /// Chooses among the analysed options: `None` to go, `Some(i)` to play `i`.
    pub fn decide(&mut self, a: &TurnAnalysis) -> Option<usize> {
        let plays: Vec<f64> = a.plays.iter().map(|&v| self.jitter(v)).collect();
        let best = argmax(&plays);
        match a.go {
            Some(g) if self.jitter(g) > plays[best] => None,
            _ => Some(best),
        }
    }
}

impl Policy for SearchPlayer {
    fn choose_play(&mut self, state: &State, score: &RollScore) -> usize {
        let a = self.search.analyse(state, score, 0);
        let plays: Vec<f64> = a.plays.iter().map(|&v| self.jitter(v)).collect();
        argmax(&plays)
    }

    fn go(&mut self, state: &State, score: &RollScore) -> bool {
        let a = self.search.analyse(state, score, 1);
        let go = a.go.map(|g| self.jitter(g));
        let stay = self.jitter(a.stay());
        go.is_some_and(|g| g > stay)
    }

    fn go_after_sortie(&mut self, state: &State, score: &RollScore) -> bool {
        let a = self.search.analyse_sortie(state, score);
        let go = a.go.map(|g| self.jitter(g));
        let stay = self.jitter(a.stay());
        go.is_some_and(|g| g > stay)
    }
}

/// The baseline: it maximises the points of the current roll. In trictrac every play of a
/// roll scores the same (the points come from the dice and the position before the play), so
/// it picks among the plays at random (seeded); it never goes (it keeps its points de reste).
#[derive(Clone, Debug)]
pub struct Greedy {
    rng: ChaCha8Rng,
}

impl Greedy {
    /// A greedy player with its tie-breaks seeded by `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Policy for Greedy {
    fn choose_play(&mut self, _state: &State, score: &RollScore) -> usize {
        self.rng.gen_range(0..score.plays.legal.len().max(1))
    }

    fn go(&mut self, _state: &State, _score: &RollScore) -> bool {
        false
    }

    fn go_after_sortie(&mut self, _state: &State, _score: &RollScore) -> bool {
        false
    }
}
