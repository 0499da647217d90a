//! Cube decisions: cubeful equities from cubeless probabilities in Janowski's model (the live
//! cube's equity and the dead cube's, mixed by a cube efficiency), for money games and, through
//! a match equity table, for matches.
//!
//! In a match, outcomes are valued by the match winning chances they lead to (the Kazaross-XG2
//! table), rescaled so that winning the current cube is +1 and losing it −1; the money formulas
//! then apply unchanged to these values, which carry the score's gammon values and the cube's
//! dead or free levels (a post-Crawford trailer's double costs nothing, for example).

use std::sync::OnceLock;

use crate::eval::{Class, Probs};

/// The match equity table: the chance of winning the match of each side from each score.
#[derive(Clone, Debug, PartialEq)]
pub struct Met {
    /// `pre[i][j]`: the player `i + 1` away against `j + 1` away (1-away rows: Crawford game).
    pre: Vec<[f32; 25]>,
    /// `post[j]`: the player `j + 1` away against an opponent 1-away after the Crawford game.
    post: [f32; 25],
}

/// Why a MET text is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad match equity table, line {line}: {reason}")]
pub struct MetError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl Met {
    /// The Kazaross-XG2 table (Neil Kazaross, 2011; see `data/kazaross_xg2_met.txt`).
    pub fn kazaross_xg2() -> &'static Met {
        static MET: OnceLock<Met> = OnceLock::new();
        MET.get_or_init(|| {
            Met::parse(include_str!("../data/kazaross_xg2_met.txt")).expect("the shipped MET")
        })
    }

    /// Reads the text layout of `data/kazaross_xg2_met.txt`: `#` comments, 25 `pre` lines of
    /// 25 numbers, one `post` line of 25.
    ///
    /// # Errors
    /// [`MetError`] on any other text.
    pub fn parse(text: &str) -> Result<Met, MetError> {
        let mut pre = Vec::new();
        let mut post = None;
        for (i, line) in text.lines().enumerate() {
            let err = |reason: &str| MetError {
                line: i + 1,
                reason: reason.to_owned(),
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let kind = words.next().unwrap_or_default();
            let nums: Vec<f32> = words
                .map(|w| w.parse::<f32>().map_err(|_| err("not a number")))
                .collect::<Result<_, _>>()?;
            let row: [f32; 25] = nums.try_into().map_err(|_| err("a row has 25 numbers"))?;
            if row.iter().any(|v| !(0.0..=1.0).contains(v)) {
                return Err(err("chances go from 0 to 1"));
            }
            match kind {
                "pre" if pre.len() < 25 => pre.push(row),
                "post" if post.is_none() => post = Some(row),
                _ => return Err(err("expected 25 'pre' lines and one 'post' line")),
            }
        }
        match (pre.len(), post) {
            (25, Some(post)) => Ok(Met { pre, post }),
            _ => Err(MetError {
                line: text.lines().count(),
                reason: "expected 25 'pre' lines and one 'post' line".into(),
            }),
        }
    }

    /// The chance that the player `away` points from victory wins the match against an opponent
    /// `opp_away` away; `post_crawford` when the Crawford game has been played (one side being
    /// 1-away). Scores beyond 25 away use the 25-away entries.
    #[must_use]
    pub fn mwc(&self, away: i32, opp_away: i32, post_crawford: bool) -> f32 {
        if away <= 0 {
            return 1.0;
        }
        if opp_away <= 0 {
            return 0.0;
        }
        let a = away.min(25) as usize;
        let b = opp_away.min(25) as usize;
        if post_crawford && (a == 1) != (b == 1) {
            return if b == 1 {
                self.post[a - 1]
            } else {
                1.0 - self.post[b - 1]
            };
        }
        self.pre[a - 1][b - 1]
    }
}

/// Who holds the cube.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// In the middle: either side may double.
    Centre,
    /// The player on roll owns it.
    Me,
    /// The opponent owns it.
    Opponent,
}

/// The cube and score around a decision, for the player on roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CubeInfo {
    /// The cube's value.
    pub value: u32,
    /// Who owns it.
    pub owner: Owner,
    /// Match length, 0 for a money game.
    pub match_length: u32,
    /// Points (player on roll, opponent) in a match.
    pub score: [u32; 2],
    /// This is the Crawford game (nobody may double).
    pub crawford: bool,
    /// The Crawford game has been played.
    pub post_crawford: bool,
    /// Money: gammons count only once the cube has been turned.
    pub jacoby: bool,
    /// Money: a taker may beaver.
    pub beavers: bool,
}

impl CubeInfo {
    /// A money game with the cube in the middle at 1, Jacoby rule and beavers off.
    #[must_use]
    pub fn money() -> CubeInfo {
        CubeInfo {
            value: 1,
            owner: Owner::Centre,
            match_length: 0,
            score: [0, 0],
            crawford: false,
            post_crawford: false,
            jacoby: false,
            beavers: false,
        }
    }

    /// True when the opponent could usefully turn a cube of `value` (in a match, a cube that
    /// already wins him the match is dead).
    #[must_use]
    pub fn opponent_cube_live(&self, value: u32) -> bool {
        self.match_length == 0 || self.match_length.saturating_sub(self.score[1]) > value
    }

    /// True when the player on roll may double now.
    #[must_use]
    pub fn may_double(&self) -> bool {
        if self.crawford || self.owner == Owner::Opponent {
            return false;
        }
        if self.match_length > 0 {
            // A cube that already wins the match for the player gains nothing by doubling.
            let away = self.match_length.saturating_sub(self.score[0]);
            return away > self.value;
        }
        true
    }
}

/// The equities of the three cube actions, in units of the current cube (money: points per
/// cube; match: the rescaled match winning chances described in the module docs), for the
/// player on roll.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeDecision {
    /// Equity if he does not double.
    pub no_double: f32,
    /// Equity if he doubles and is taken.
    pub double_take: f32,
    /// Equity if he doubles and is passed (+1).
    pub double_pass: f32,
    /// He should double.
    pub double: bool,
    /// The opponent should take (when doubled).
    pub take: bool,
    /// The opponent should beaver (money with beavers: the take leaves the doubler below 0).
    pub beaver: bool,
    /// He should not double because he is too good: playing on wins more than the cube.
    pub too_good: bool,
}

/// In a match, the scale of equities in units of `unit_cube`: the match winning chance of the
/// player on roll is `mid + half × equity` (`mid` halfway between winning and losing
/// `unit_cube` points, `half` half their difference).
fn match_scale(ci: &CubeInfo, unit_cube: u32) -> (f32, f32) {
    let met = Met::kazaross_xg2();
    let away = ci.match_length as i32 - ci.score[0] as i32;
    let opp = ci.match_length as i32 - ci.score[1] as i32;
    let post = ci.crawford || ci.post_crawford;
    let m = |a: i32, b: i32| met.mwc(a, b, post && (a == 1 || b == 1));
    let w1 = m(away - unit_cube as i32, opp);
    let l1 = m(away, opp - unit_cube as i32);
    ((w1 + l1) / 2.0, ((w1 - l1) / 2.0).max(1e-6))
}

/// An equity of the player on roll at the score of `ci`, in units of a `from` cube, written in
/// units of a `to` cube (money: the ratio of the cubes; a match: through the match winning
/// chance).
///
/// ```
/// use tablier_backgammon_engine::cube::{rescale, CubeInfo};
/// assert_eq!(rescale(&CubeInfo::money(), 0.25, 2, 1), 0.5);
/// ```
#[must_use]
pub fn rescale(ci: &CubeInfo, equity: f32, from: u32, to: u32) -> f32 {
    if from == to {
        return equity;
    }
    if ci.match_length == 0 {
        return equity * from as f32 / to as f32;
    }
    let (m1, h1) = match_scale(ci, from);
    let (m2, h2) = match_scale(ci, to);
    (m1 + h1 * equity - m2) / h2
}

impl CubeInfo {
    /// The same cube and score seen from the opponent (who is on roll next).
    #[must_use]
    pub fn flipped(&self) -> CubeInfo {
        CubeInfo {
            owner: match self.owner {
                Owner::Centre => Owner::Centre,
                Owner::Me => Owner::Opponent,
                Owner::Opponent => Owner::Me,
            },
            score: [self.score[1], self.score[0]],
            ..*self
        }
    }

    /// The cube once the player on roll has doubled and the opponent taken: twice the value,
    /// owned by the opponent.
    #[must_use]
    pub fn doubled(&self) -> CubeInfo {
        CubeInfo {
            value: self.value * 2,
            owner: Owner::Opponent,
            ..*self
        }
    }
}

/// The value of a finished game for its winner, `terminal` his outcome probabilities (see
/// [`crate::eval::terminal_for_winner`]), in units of the cube of `ci` seen from him (a money
/// game under the Jacoby rule with the cube in the middle counts single).
#[must_use]
pub fn terminal_value(terminal: &Probs, ci: &CubeInfo) -> f32 {
    let v = outcome_values(ci, ci.value, ci.value);
    if ci.match_length == 0 && ci.jacoby && ci.owner == Owner::Centre {
        return v[0];
    }
    if terminal[2] > 0.5 {
        v[2]
    } else if terminal[1] > 0.5 {
        v[1]
    } else {
        v[0]
    }
}

/// Values of the six outcomes (win single, gammon, backgammon, lose single, gammon,
/// backgammon) with the cube at `cube`, in units where winning and losing `unit_cube` single
/// are +1 and −1.
fn outcome_values(ci: &CubeInfo, cube: u32, unit_cube: u32) -> [f32; 6] {
    if ci.match_length == 0 {
        let k = cube as f32 / unit_cube as f32;
        return [k, 2.0 * k, 3.0 * k, -k, -2.0 * k, -3.0 * k];
    }
    let met = Met::kazaross_xg2();
    let away = ci.match_length as i32 - ci.score[0] as i32;
    let opp = ci.match_length as i32 - ci.score[1] as i32;
    // After this game: Crawford next if someone reaches 1-away for the first time.
    let post = ci.crawford || ci.post_crawford;
    let m = |a: i32, b: i32| met.mwc(a, b, post && (a == 1 || b == 1));
    let win = |n: u32| m(away - (n * cube) as i32, opp);
    let lose = |n: u32| m(away, opp - (n * cube) as i32);
    let (mid, half) = match_scale(ci, unit_cube);
    let v = |x: f32| (x - mid) / half;
    [
        v(win(1)),
        v(win(2)),
        v(win(3)),
        v(lose(1)),
        v(lose(2)),
        v(lose(3)),
    ]
}

/// Values of the six outcomes (win single, gammon, backgammon, lose single, gammon,
/// backgammon) at the cube and score of `ci`, in units of its cube (money: 1, 2, 3, −1, −2,
/// −3; a match: rescaled match winning chances).
#[must_use]
pub fn outcome_values_for(ci: &CubeInfo) -> [f32; 6] {
    outcome_values(ci, ci.value, ci.value)
}

/// Average values of a win and of a loss: `(W, L)` with `L` counted positive.
fn win_lose_values(p: &Probs, vals: &[f32; 6]) -> (f32, f32) {
    let win = p[0].max(1e-6);
    let lose = (1.0 - p[0]).max(1e-6);
    let w = ((p[0] - p[1]) * vals[0] + (p[1] - p[2]) * vals[1] + p[2] * vals[2]) / win;
    let l = -((lose - p[3]) * vals[3] + (p[3] - p[4]) * vals[4] + p[4] * vals[5]) / lose;
    (w.max(0.0), l.max(0.0))
}

/// Janowski's fully live cube equity for win chance `p`, average win `w` and loss `l`: the
/// piecewise-linear line through (0, −L), the opponent's cash point (−1) when he has cube
/// access, our cash point (+1) when we have it, and (1, +W).
fn live_equity(p: f32, w: f32, l: f32, owner: Owner) -> f32 {
    live_equity_ends(p, money_points(w, l), (l, w), owner)
}

/// Money take and cash points with a live cube, `(TP, CP)` in the winning chances of the
/// player on roll: Janowski's `(L − ½) / (W + L + ½)` and `(L + 1) / (W + L + ½)`.
fn money_points(w: f32, l: f32) -> (f32, f32) {
    let denom = (w + l + 0.5).max(1e-6);
    (
        ((l - 0.5) / denom).clamp(1e-6, 1.0 - 1e-6),
        ((l + 1.0) / denom).clamp(1e-6, 1.0 - 1e-6),
    )
}

/// In a match, the take and cash points `(TP, CP)` of the player on roll at each cube level
/// from the present one (`ci.value`, level 0) up to the first level where the cube is dead for
/// both sides, with the gammon rates of `p` at every level.
///
/// Janowski's points generalised by recursion from the top: where the cube is dead nobody
/// cashes (TP 0, CP 1). One level down, the player takes a double when owning the cube at the
/// next level is worth what passing is: his value owning it runs from the average loss at
/// chance 0 up to cashing at his own cash point there (or, when he could not usefully redouble,
/// to the average win at chance 1). His cash point is where the opponent, owning the next
/// level's cube, is indifferent in the same way. Values are the rescaled match winning chances
/// of [`outcome_values`] in units of the present cube, so the money formulas of
/// [`money_points`] are what this gives with money values and no end to the levels.
fn match_points(p: &Probs, ci: &CubeInfo) -> Vec<(f32, f32)> {
    let my_away = ci.match_length.saturating_sub(ci.score[0]);
    let opp_away = ci.match_length.saturating_sub(ci.score[1]);
    let mut top = 0;
    while (ci.value << top) < my_away.max(opp_away) && top < 12 {
        top += 1;
    }
    let vals: Vec<[f32; 6]> = (0..=top)
        .map(|k| outcome_values(ci, ci.value << k, ci.value))
        .collect();
    let mut pts = vec![(0.0f32, 1.0f32); top + 1];
    for k in (0..top).rev() {
        let next = ci.value << (k + 1);
        let (w1, l1) = win_lose_values(p, &vals[k + 1]);
        let (win_k, lose_k) = (vals[k][0], vals[k][3]);
        // His take: he owns the next cube; the line from (0, −L') to his cash there.
        let (x_end, v_end) = if my_away > next {
            (pts[k + 1].1, vals[k + 1][0])
        } else {
            (1.0, w1)
        };
        let tp = (lose_k + l1) / (v_end + l1).max(1e-6) * x_end;
        // The opponent's take: he owns the next cube; the line from our take point there (or
        // from (0, −L') when he could not redouble) to (1, W').
        let (x_start, v_start) = if opp_away > next {
            (pts[k + 1].0, vals[k + 1][3])
        } else {
            (0.0, -l1)
        };
        let cp = x_start + (win_k - v_start) / (w1 - v_start).max(1e-6) * (1.0 - x_start);
        pts[k] = (tp.clamp(1e-6, 1.0 - 1e-6), cp.clamp(1e-6, 1.0 - 1e-6));
    }
    pts
}

/// [`live_equity`] with the take and cash points given (`points`: from what a doubled game is
/// worth) and the values at 0 and 1 set apart: `ends` = (L, W) of a game played to the end
/// without turning the cube (with the Jacoby rule and the cube in the middle: a single game,
/// ±1).
fn live_equity_ends(p: f32, points: (f32, f32), ends: (f32, f32), owner: Owner) -> f32 {
    let (l_end, w_end) = ends;
    // Our take point (where the opponent cashes) and our cash point, in our winning chances.
    let (tp, cp) = points;
    let low = |p: f32| -l_end + (l_end - 1.0) * p / tp; // from (0, −L) to (TP, −1)
    let high = |p: f32| 1.0 + (w_end - 1.0) * (p - cp) / (1.0 - cp); // from (CP, 1) to (1, W)
    match owner {
        Owner::Centre if p < tp => low(p),
        Owner::Centre if p > cp => high(p),
        Owner::Centre => -1.0 + 2.0 * (p - tp) / (cp - tp).max(1e-6),
        Owner::Me if p > cp => high(p),
        Owner::Me => -l_end + (l_end + 1.0) * p / cp,
        Owner::Opponent if p < tp => low(p),
        Owner::Opponent => -1.0 + (w_end + 1.0) * (p - tp) / (1.0 - tp),
    }
}

/// The cube efficiency of Janowski's model: how much of the live cube's value a position keeps
/// (0.68 in contact; in races it grows with the pip count, from 0.6 to 0.7), for a decision
/// searched two plies deep or more. See [`cube_efficiency_at`] for shallower ones.
#[must_use]
pub fn cube_efficiency(class: Class, pips_on_roll: u32) -> f32 {
    match class {
        Class::Contact => 0.68,
        Class::Race => (0.55 + 0.00125 * pips_on_roll as f32).clamp(0.6, 0.7),
        Class::Bearoff | Class::Over => 0.6,
    }
}

/// The cube efficiency for a decision searched `plies` deep (the depth of the whole decision,
/// not of the node): [`cube_efficiency`] from two plies on; at 0 and 1 ply a livelier cube,
/// 0.76 in contact and in races from 0.6 to 0.8 (0.6 + 0.0025 a pip), the values GNU
/// Backgammon 1.1 uses at those depths (its `show cubeefficiency`). A shallow search sees
/// none of the cube turns ahead of it, and the model with 0.68 then doubles too early:
/// fed the judge's own probabilities on the first position of each of 1,500 self-play games
/// (`tablier bench backgammon-cube --one-per-game --seed 2`) it loses 3.9 mEMG per close
/// double under bgsage 3-ply, 0.9 with 0.76; a two-ply cube search loses 1.1 with 0.68 and
/// more with 0.72 or 0.76.
#[must_use]
pub fn cube_efficiency_at(class: Class, pips_on_roll: u32, plies: u32) -> f32 {
    if plies >= 2 {
        return cube_efficiency(class, pips_on_roll);
    }
    match class {
        Class::Contact => 0.76,
        Class::Race => (0.6 + 0.0025 * pips_on_roll as f32).clamp(0.6, 0.8),
        Class::Bearoff | Class::Over => 0.6,
    }
}

/// Cubeful equity in units of the current cube, for the player on roll with probabilities `p`
/// and the cube as `ci` says, at efficiency `x`.
#[must_use]
pub fn cubeful_equity(p: &Probs, ci: &CubeInfo, x: f32) -> f32 {
    let vals = outcome_values(ci, ci.value, ci.value);
    let (w, l) = win_lose_values(p, &vals);
    // The Jacoby rule: with the cube in the middle gammons count only once it is turned. A
    // game played out without a double is then a single game, at either end of the live line
    // as in the dead cube's equity; the take and cash points are those of the doubled game,
    // where gammons count.
    let jacoby = ci.match_length == 0 && ci.jacoby && ci.owner == Owner::Centre;
    let ends = if jacoby { (1.0, 1.0) } else { (l, w) };
    let dead = p[0] * ends.1 - (1.0 - p[0]) * ends.0;
    if ci.crawford {
        return dead;
    }
    // A cube we cannot usefully turn (it already wins the match for us) has no value for us.
    let mine = ci.match_length == 0 || ci.may_double();
    let theirs = ci.owner != Owner::Me && ci.opponent_cube_live(ci.value);
    let owner = match (ci.owner, mine, theirs) {
        (Owner::Opponent, _, true) => Owner::Opponent,
        (Owner::Centre, true, true) => Owner::Centre,
        (Owner::Centre | Owner::Me, true, false) => Owner::Me,
        (Owner::Centre, false, true) => Owner::Opponent,
        _ => return dead,
    };
    let points = if ci.match_length == 0 {
        money_points(w, l)
    } else {
        match_points(p, ci)[0]
    };
    let e = x * live_equity_ends(p[0], points, ends, owner) + (1.0 - x) * dead;
    match owner {
        Owner::Centre | Owner::Opponent => {
            opponent_doubles_at_once(p, ci, ci.value).map_or(e, |b| e.min(b))
        }
        Owner::Me => e,
    }
}

/// In a match, what the opponent can hold the player on roll to by doubling a cube of `cube`
/// (his to turn) at once, where the cube he then hands over is dead for the player (it would
/// already win him the match): the player takes a game that no cube will change again, or
/// passes. `None` when that does not apply (money, a double the opponent cannot use, a cube
/// the player could still use after taking).
///
/// Janowski's mix assumes that the cube's owner turns it at the edge of his window or never,
/// which undervalues his double where turning it at once is best: a leader 2-away who doubles
/// a trailer 4-away is redoubled at once (the 4-cube makes every win and loss a match), so the
/// leader's double/take is worth his winning chance, not the dead 2-cube's gammon-laden value
/// mixed in. Values in units of `ci.value`.
fn opponent_doubles_at_once(p: &Probs, ci: &CubeInfo, cube: u32) -> Option<f32> {
    if ci.match_length == 0 || !ci.opponent_cube_live(cube) || ci.crawford {
        return None;
    }
    let my_away = ci.match_length.saturating_sub(ci.score[0]);
    if my_away > 2 * cube {
        return None;
    }
    let (w2, l2) = win_lose_values(p, &outcome_values(ci, 2 * cube, ci.value));
    let take = p[0] * w2 - (1.0 - p[0]) * l2;
    let pass = outcome_values(ci, cube, ci.value)[3];
    Some(take.max(pass))
}

/// The cube decision for the player on roll, with cubeless probabilities `p` (before the
/// roll), the cube as `ci` says and efficiency `x` (see [`cube_efficiency`]).
#[must_use]
pub fn decide(p: &Probs, ci: &CubeInfo, x: f32) -> CubeDecision {
    let no_double = cubeful_equity(p, ci, x);
    // Doubled and taken: the opponent owns a cube twice as big, valued in the current cube.
    let vals2 = outcome_values(ci, ci.value * 2, ci.value);
    let (w2, l2) = win_lose_values(p, &vals2);
    let dead2 = p[0] * w2 - (1.0 - p[0]) * l2;
    let (w2h, l2h) = (w2 / 2.0, l2 / 2.0);
    // The taker's cube is live unless it already wins him the match.
    let double_take = if !ci.opponent_cube_live(ci.value * 2) {
        dead2
    } else if ci.match_length == 0 {
        x * 2.0 * live_equity(p[0], w2h, l2h, Owner::Opponent) + (1.0 - x) * dead2
    } else {
        // The opponent owns the doubled cube: from (0, −L') to our take point at that level,
        // where he cashes (our loss of the doubled cube), then to (1, W').
        let tp1 = match_points(p, ci).get(1).map_or(0.0, |pt| pt.0);
        let lose2 = vals2[3];
        let live = if p[0] < tp1 {
            -l2 + (lose2 + l2) * p[0] / tp1
        } else {
            lose2 + (w2 - lose2) * (p[0] - tp1) / (1.0 - tp1).max(1e-6)
        };
        let e = x * live + (1.0 - x) * dead2;
        opponent_doubles_at_once(p, ci, ci.value * 2).map_or(e, |b| e.min(b))
    };
    CubeDecision::from_equities(no_double, double_take, ci)
}

impl CubeDecision {
    /// The decision from the equities of no double and double/take (double/pass is +1), in
    /// units of the cube of `ci`, for the player on roll.
    #[must_use]
    pub fn from_equities(no_double: f32, double_take: f32, ci: &CubeInfo) -> CubeDecision {
        let double_pass = 1.0;
        let may = ci.may_double();
        let best_double = double_take.min(double_pass);
        CubeDecision {
            no_double,
            double_take,
            double_pass,
            // A tie with a pass goes to the double: cashing is as good as playing on, and
            // certain (under the Jacoby rule a position too good for the doubling window wins
            // no more than the cube). A tie with a take (a dead cube in a lost match) does not.
            double: may
                && (best_double > no_double
                    || (double_take > double_pass && double_pass > no_double - 1e-4)),
            take: double_take <= double_pass,
            beaver: ci.match_length == 0 && ci.beavers && double_take < 0.0,
            too_good: may && double_take > double_pass && no_double >= double_pass,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn met_reads_and_is_consistent() {
        let met = Met::kazaross_xg2();
        assert_eq!(met.mwc(1, 1, false), 0.5);
        assert!((met.mwc(1, 2, false) - 0.67736).abs() < 1e-6);
        assert!((met.mwc(2, 1, false) - (1.0 - 0.67736)).abs() < 1e-3);
        assert!((met.mwc(2, 1, true) - 0.48803).abs() < 1e-6);
        assert_eq!(met.mwc(0, 3, false), 1.0);
        assert_eq!(met.mwc(3, 0, false), 0.0);
        for a in 1..=25 {
            for b in 1..=25 {
                let s = met.mwc(a, b, false) + met.mwc(b, a, false);
                assert!((s - 1.0).abs() < 2e-3, "{a} {b}: {s}");
            }
        }
        assert!(Met::parse("pre 1 2").is_err());
    }

    #[test]
    fn a_shallow_decision_keeps_a_livelier_cube() {
        let close = |a: f32, b: f32| (a - b).abs() < 1e-6;
        assert!(close(cube_efficiency_at(Class::Contact, 150, 0), 0.76));
        assert!(close(cube_efficiency_at(Class::Contact, 150, 1), 0.76));
        assert!(close(cube_efficiency_at(Class::Contact, 150, 2), 0.68));
        assert!(close(cube_efficiency_at(Class::Race, 40, 0), 0.7));
        assert!(close(cube_efficiency_at(Class::Race, 100, 1), 0.8));
        assert!(close(cube_efficiency_at(Class::Race, 100, 3), 0.675));
        assert!(close(cube_efficiency_at(Class::Bearoff, 20, 0), 0.6));
        // 70% to win, no gammons, the cube in the middle: a livelier cube holds on to it.
        let p = [0.70, 0.0, 0.0, 0.0, 0.0];
        let ci = CubeInfo::money();
        assert!(decide(&p, &ci, cube_efficiency_at(Class::Contact, 150, 2)).double);
        assert!(!decide(&p, &ci, cube_efficiency_at(Class::Contact, 150, 0)).double);
    }

    #[test]
    fn money_points_of_janowski() {
        let ci = CubeInfo::money();
        // No gammons: take point 20%-ish with a live cube, a clear pass at 90%.
        let pass = decide(&[0.9, 0.0, 0.0, 0.0, 0.0], &ci, 0.68);
        assert!(pass.double && !pass.take);
        let take = decide(&[0.72, 0.0, 0.0, 0.0, 0.0], &ci, 0.68);
        assert!(take.take);
        let early = decide(&[0.55, 0.0, 0.0, 0.0, 0.0], &ci, 0.68);
        assert!(!early.double);
        // Beaver when the taker is the favourite.
        let b = decide(
            &[0.45, 0.0, 0.0, 0.0, 0.0],
            &CubeInfo {
                beavers: true,
                ..ci
            },
            0.68,
        );
        assert!(b.beaver && !b.double);
        // Too good: a near-certain gammon.
        let tg = decide(&[0.99, 0.9, 0.0, 0.0, 0.0], &ci, 0.68);
        assert!(tg.too_good && !tg.double);
    }

    #[test]
    fn the_jacoby_rule_counts_gammons_once_the_cube_is_turned() {
        let free = CubeInfo {
            beavers: true,
            ..CubeInfo::money()
        };
        let jacoby = CubeInfo {
            jacoby: true,
            ..free
        };
        // A gammonish favourite: without a double his gammons do not count, so playing on is
        // worth less, and doubling (after which they count) is worth the same.
        let p = [0.64, 0.30, 0.01, 0.06, 0.0];
        let (a, b) = (decide(&p, &free, 0.68), decide(&p, &jacoby, 0.68));
        assert!(b.no_double < a.no_double - 0.05, "{a:?} {b:?}");
        assert!((a.double_take - b.double_take).abs() < 1e-6);
        // So his doubling window opens earlier: some win chances double under the rule only.
        let earlier = (50..80).any(|k| {
            let w = k as f32 / 100.0;
            let p = [w, 0.45 * w, 0.01, 0.06, 0.0];
            decide(&p, &jacoby, 0.68).double && !decide(&p, &free, 0.68).double
        });
        assert!(earlier);
        // Far too good for the window: without Jacoby he plays on for the gammon; with it,
        // a game without a double is single, so he doubles and cashes.
        let tg = [0.99, 0.9, 0.0, 0.0, 0.0];
        assert!(decide(&tg, &free, 0.68).too_good);
        let cash = decide(&tg, &jacoby, 0.68);
        assert!(cash.double && !cash.take && !cash.too_good, "{cash:?}");
        // Once the cube is turned the rule no longer applies.
        let owned = CubeInfo {
            value: 2,
            owner: Owner::Me,
            ..jacoby
        };
        let owned_free = CubeInfo {
            jacoby: false,
            ..owned
        };
        assert_eq!(decide(&p, &owned, 0.68), decide(&p, &owned_free, 0.68));
    }

    #[test]
    fn match_points_are_money_points_far_from_the_end() {
        // A long match at 0-0 values the cube almost as money does.
        let p = [0.7, 0.2, 0.01, 0.05, 0.0];
        let long = CubeInfo {
            match_length: 25,
            ..CubeInfo::money()
        };
        let (tp, cp) = match_points(&p, &long)[0];
        let (w, l) = win_lose_values(&p, &outcome_values(&long, 1, 1));
        let (mtp, mcp) = money_points(w, l);
        assert!(
            (tp - mtp).abs() < 0.02 && (cp - mcp).abs() < 0.02,
            "{tp} {cp} / {mtp} {mcp}"
        );
        // At 2-away 2-away (no gammons) the cube is dead once turned: the taker needs what
        // passing leaves him, 2-away against a Crawford 1-away (32.3% in the table), and the
        // doubler cashes at 67.7%.
        let p = [0.6, 0.0, 0.0, 0.0, 0.0];
        let ci = CubeInfo {
            match_length: 5,
            score: [3, 3],
            ..CubeInfo::money()
        };
        let (tp, cp) = match_points(&p, &ci)[0];
        let crawford_trail = Met::kazaross_xg2().mwc(2, 1, false);
        assert!((tp - crawford_trail).abs() < 1e-4, "{tp}");
        assert!((cp - (1.0 - crawford_trail)).abs() < 1e-4, "{cp}");
    }

    #[test]
    fn a_leader_who_doubles_is_redoubled_at_once() {
        // 7-point match, 5–3: the leader (2-away) doubling the trailer (4-away) hands him a
        // cube he turns at once, since at 4 every game decides the match. gnubg 1.07 at 3 plies
        // on HZ7BABbYvYEBAw:cAngADAAKAAE, with these probabilities: no double +0.806, double/take
        // +0.540 (the leader's winning chance, 0.765, in these units); the dead 2-cube mixed in
        // made it +0.827 and a double.
        let ci = CubeInfo {
            match_length: 7,
            score: [5, 3],
            ..CubeInfo::money()
        };
        let p = [0.765, 0.220, 0.010, 0.043, 0.001];
        let d = decide(&p, &ci, 0.68);
        assert!((d.double_take - 0.540).abs() < 0.02, "{d:?}");
        assert!(!d.double && d.take, "{d:?}");
        // His immediate double is the binary 4-cube game: the doubler's match winning chance
        // equals his winning chance.
        let (mid, half) = match_scale(&ci, 1);
        assert!((mid + half * d.double_take - 0.765).abs() < 1e-3);
        // Where the leader could still use the cube he would own (a long match), nothing
        // changes, and money play never does.
        let long = CubeInfo {
            match_length: 25,
            score: [5, 3],
            ..CubeInfo::money()
        };
        assert_eq!(opponent_doubles_at_once(&p, &long, 2), None);
        assert_eq!(opponent_doubles_at_once(&p, &CubeInfo::money(), 1), None);
    }

    #[test]
    fn rescaling_goes_both_ways() {
        let ci = CubeInfo {
            match_length: 7,
            score: [2, 4],
            ..CubeInfo::money()
        };
        for e in [-1.5f32, -0.3, 0.0, 0.4, 1.0] {
            let there = rescale(&ci, e, 2, 1);
            assert!((rescale(&ci, there, 1, 2) - e).abs() < 1e-4);
        }
        // Winning a 2-cube is worth more than winning 1, in units of 1.
        assert!(rescale(&ci, 1.0, 2, 1) > 1.0);
        assert_eq!(rescale(&CubeInfo::money(), -0.5, 4, 2), -1.0);
        let flipped = ci.flipped();
        assert_eq!(flipped.score, [4, 2]);
        assert_eq!(flipped.flipped(), ci);
        let d = ci.doubled();
        assert_eq!((d.value, d.owner), (2, Owner::Opponent));
    }

    #[test]
    fn post_crawford_trailer_doubles_at_once() {
        let ci = CubeInfo {
            match_length: 5,
            score: [1, 4],
            post_crawford: true,
            ..CubeInfo::money()
        };
        let d = decide(&[0.3, 0.05, 0.0, 0.1, 0.0], &ci, 0.68);
        assert!(d.double, "{d:?}");
        let crawford = CubeInfo {
            crawford: true,
            post_crawford: false,
            ..ci
        };
        assert!(!decide(&[0.8, 0.1, 0.0, 0.1, 0.0], &crawford, 0.68).double);
        // A lost game whose loss loses the match whatever the cube: doubling ties with playing
        // on, and a tie with a take is not a reason to double.
        let lost = CubeInfo {
            match_length: 7,
            score: [0, 5],
            ..CubeInfo::money()
        };
        let d = decide(&[0.0, 0.0, 0.0, 1.0, 0.0], &lost, 0.68);
        assert!(!d.double && d.take, "{d:?}");
    }
}
