//! Plays in the notation gnubg writes: `8/5 6/5`, `bar/22*`, `6/off`, `24/18*/13`, `13/9(2)`.
//!
//! Points are numbered from the mover's side (his home board is 1 to 6). A checker's hops are
//! written as one chain (`24/13`), showing an intermediate point only where it hit
//! (`24/18*/13`); identical chains are grouped with a count (`13/9(2)`); chains are listed from
//! the highest start point down. Reading accepts that form and also gnubg's plain one
//! (`25/22 6/0`), `bar`/`off` in any case, and chains or single hops in any order: the text is
//! resolved to the legal play that reaches the same position, so `24/18 18/13` and `24/13`
//! name the same play.

use crate::movegen::{Hop, Play, Roll};
use crate::position::{Position, OPP_BAR};

/// A play's text that names no legal play of the position and roll.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read play {text:?}: {reason}")]
pub struct PlayParseError {
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
    /// Whether the text is malformed (not written as a play at all), rather than a play that
    /// is not legal with this roll.
    pub malformed: bool,
}

fn point_name(p: u8) -> String {
    match p {
        25 => "bar".to_owned(),
        0 => "off".to_owned(),
        p => p.to_string(),
    }
}

/// One checker's path: its points, and whether it hit on arriving at each.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Chain {
    points: Vec<u8>,
    hits: Vec<bool>,
}

/// Formats a play as gnubg does (`24/18*/13 13/9(2)`); the empty play is `""`.
///
/// ```
/// use tablier_backgammon::{notation, Position, Roll};
///
/// let plays = Position::start().legal_plays(Roll::new(3, 1).unwrap());
/// let texts: Vec<String> = plays.iter().map(notation::format_play).collect();
/// assert!(texts.contains(&"8/5 6/5".to_owned()));
/// assert!(texts.contains(&"24/21 24/23".to_owned()) || texts.contains(&"24/23 24/21".to_owned()));
/// ```
#[must_use]
pub fn format_play(play: &Play) -> String {
    let mut hops: Vec<Hop> = play.hops().to_vec();
    hops.sort_by(|a, b| b.from.cmp(&a.from).then(b.to.cmp(&a.to)));
    // Each hop continues the first chain that ends where it starts; chains keep the order in
    // which they were started.
    let mut chains: Vec<Chain> = Vec::new();
    for hop in hops {
        if let Some(c) = chains
            .iter_mut()
            .find(|c| *c.points.last().unwrap() == hop.from && hop.from != 0)
        {
            c.points.push(hop.to);
            c.hits.push(hop.hit);
        } else {
            chains.push(Chain {
                points: vec![hop.from, hop.to],
                hits: vec![false, hop.hit],
            });
        }
    }
    // Chains along the same points are grouped (`13/7(2)`), written as the first of them: only
    // the first checker onto a blot hits (`20/17*(3)`, as gnubg writes it).
    let mut parts: Vec<(&[u8], String, usize)> = Vec::new();
    for c in &chains {
        let mut s = String::new();
        let last = c.points.len() - 1;
        for (i, (&p, &hit)) in c.points.iter().zip(&c.hits).enumerate() {
            // Intermediate points are shown only where the checker hit.
            if i != 0 && i != last && !hit {
                continue;
            }
            if i != 0 {
                s.push('/');
            }
            s.push_str(&point_name(p));
            if hit {
                s.push('*');
            }
        }
        match parts.last_mut() {
            Some((prev, _, n)) if *prev == c.points.as_slice() => *n += 1,
            _ => parts.push((&c.points, s, 1)),
        }
    }
    parts
        .into_iter()
        .map(|(_, s, n)| if n > 1 { format!("{s}({n})") } else { s })
        .collect::<Vec<_>>()
        .join(" ")
}

fn parse_point(word: &str) -> Option<u8> {
    let w = word.trim_end_matches('*');
    match w.to_ascii_lowercase().as_str() {
        "bar" | "b" => Some(25),
        "off" | "o" => Some(0),
        _ => w.parse::<u8>().ok().filter(|&p| p <= 25),
    }
}

/// The checker movements a play's text describes: `(from, to)` pairs.
fn segments(text: &str) -> Result<Vec<(u8, u8)>, String> {
    let mut out = Vec::new();
    for word in text.split_whitespace() {
        let (body, count) = match word.find('(') {
            Some(i) => {
                let n = word[i + 1..]
                    .strip_suffix(')')
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|n| (1..=4).contains(n))
                    .ok_or_else(|| format!("bad repetition in {word:?}"))?;
                (&word[..i], n)
            }
            None => (word, 1),
        };
        let pts = body
            .split(['/', '-'])
            .map(|p| parse_point(p).ok_or_else(|| format!("{p:?} is not a point")))
            .collect::<Result<Vec<u8>, String>>()?;
        if pts.len() < 2 {
            return Err(format!("{word:?} is not a move (write from/to)"));
        }
        for _ in 0..count {
            for w in pts.windows(2) {
                if w[1] >= w[0] {
                    return Err(format!(
                        "{word:?}: checkers move from higher to lower points"
                    ));
                }
                out.push((w[0], w[1]));
            }
        }
    }
    Ok(out)
}

/// Moves checkers as the text says, whatever the dice, to find the position it describes.
fn result_of(position: &Position, segs: &[(u8, u8)]) -> Result<Position, String> {
    let mut segs = segs.to_vec();
    segs.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let mut p = *position;
    for &(from, to) in &segs {
        let (from, to) = (usize::from(from), usize::from(to));
        if p.points[from] <= 0 {
            return Err(format!("no checker of yours on {}", point_name(from as u8)));
        }
        p.points[from] -= 1;
        if to == 0 {
            continue;
        }
        match p.points[to] {
            -1 => {
                p.points[to] = 1;
                p.points[OPP_BAR] -= 1;
            }
            v if v < -1 => return Err(format!("point {to} is closed")),
            _ => p.points[to] += 1,
        }
    }
    Ok(p)
}

/// Reads a play in gnubg's notation against a position and roll: the legal play that reaches
/// the position the text describes. An empty text (or `-`) is the empty play, legal only when
/// no number can be played.
///
/// # Errors
/// [`PlayParseError`] for malformed text, or text that describes no legal play of this roll
/// (the error lists the legal plays).
///
/// ```
/// use tablier_backgammon::{notation, Position, Roll};
///
/// let start = Position::start();
/// let roll = Roll::new(6, 5).unwrap();
/// let a = notation::parse_play(&start, roll, "24/13").unwrap();
/// let b = notation::parse_play(&start, roll, "24/18 18/13").unwrap();
/// assert_eq!(a, b);
/// assert!(notation::parse_play(&start, roll, "24/12").is_err());
/// ```
pub fn parse_play(position: &Position, roll: Roll, text: &str) -> Result<Play, PlayParseError> {
    let trimmed = text.trim();
    let segs = if trimmed.is_empty() || trimmed == "-" {
        Vec::new()
    } else {
        segments(trimmed).map_err(|reason| PlayParseError {
            text: text.to_owned(),
            reason,
            malformed: true,
        })?
    };
    resolve(position, roll, &segs, text)
}

/// The legal play that moves checkers as the `(from, to)` pairs say (mover's numbering, 25 the
/// bar, 0 off; single hops or whole paths, in any order), as a record such as a `.mat` file
/// gives them. No pairs is the empty play.
///
/// # Errors
/// [`PlayParseError`] when the pairs describe no legal play of the roll.
pub fn play_from_hops(
    position: &Position,
    roll: Roll,
    hops: &[(u8, u8)],
) -> Result<Play, PlayParseError> {
    let text = hops
        .iter()
        .map(|&(a, b)| format!("{}/{}", point_name(a), point_name(b)))
        .collect::<Vec<_>>()
        .join(" ");
    if let Some(&(a, b)) = hops.iter().find(|(a, b)| b >= a || *a > 25) {
        return Err(PlayParseError {
            text,
            reason: format!("{a}/{b} does not move forward"),
            malformed: false,
        });
    }
    resolve(position, roll, hops, &text)
}

fn resolve(
    position: &Position,
    roll: Roll,
    segs: &[(u8, u8)],
    text: &str,
) -> Result<Play, PlayParseError> {
    let err = |reason: String| PlayParseError {
        text: text.to_owned(),
        reason,
        malformed: false,
    };
    let plays = position.legal_plays(roll);
    let target = result_of(position, segs).map_err(err)?;
    plays
        .iter()
        .find(|p| p.result == target)
        .copied()
        .ok_or_else(|| {
            let legal: Vec<String> = plays.iter().map(format_play).collect();
            err(if legal == [""] {
                format!("no number of {roll} can be played: the turn passes")
            } else {
                format!("not a legal play of {roll}; legal: {}", legal.join(", "))
            })
        })
}
