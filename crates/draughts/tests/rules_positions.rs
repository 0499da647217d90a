//! Exact legal-move sets of rule edge cases (reference/draughts/rules_positions.txt: positions
//! from the FFJD and FID translations of the FMJD rules, and py-draughts' tests).

use tablier_draughts::{fen, notation, Position, G10, INTERNATIONAL};

/// `(from, to, captured squares or None when the text gives none)`.
type Expected = (u8, u8, Option<Vec<u8>>);

fn parse_expected(item: &str) -> Expected {
    let (mv, caps) = match item.split_once('[') {
        Some((mv, rest)) => {
            let caps: Vec<u8> = rest
                .trim_end_matches(']')
                .split(',')
                .map(|s| s.parse().unwrap())
                .collect();
            (mv, Some(caps))
        }
        None => (item, None),
    };
    let sq: Vec<u8> = mv.split(['-', 'x']).map(|s| s.parse().unwrap()).collect();
    (sq[0], sq[1], caps)
}

#[test]
fn every_rules_position_has_exactly_the_published_moves() {
    let text = include_str!("data/rules_positions.txt");
    let mut cases = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('|').collect();
        let (name, fen_text, moves) = (f[0], f[1], f[2]);
        let p: Position<G10> = fen::parse(&INTERNATIONAL, fen_text).unwrap();
        let legal = p.legal_moves();
        let expected: Vec<Expected> = moves.split_whitespace().map(parse_expected).collect();
        let shown: Vec<String> = legal
            .iter()
            .map(|m| format!("{}{:?}", notation::format(&p, m), m.captured_squares()))
            .collect();
        assert_eq!(legal.len(), expected.len(), "{name}: we generate {shown:?}");
        for (from, to, caps) in &expected {
            let found = legal.iter().any(|m| {
                m.from() == *from
                    && m.to() == *to
                    && caps.as_ref().is_none_or(|c| {
                        let mut c = c.clone();
                        c.sort_unstable();
                        m.captured_squares() == c
                    })
            });
            assert!(
                found,
                "{name}: {from}->{to} {caps:?} missing; we generate {shown:?}"
            );
        }
        cases += 1;
    }
    assert_eq!(cases, 23);
}
