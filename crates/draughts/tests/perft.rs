//! Perft counts published by others (reference/draughts/PERFT.md, copied to
//! `tests/data/perft.txt`): every variant's start position and the FMJD forum test positions.
//! Depths are capped so that the suite stays fast; `cargo test -- --ignored` runs deeper.

use tablier_draughts::{fen, Geometry, Position, Variant, G10, G12, G8};

struct Case {
    name: String,
    variant: &'static Variant,
    fen: String,
    counts: Vec<u64>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            Case {
                name: f[0].to_string(),
                variant: Variant::by_name(f[1]).expect("known variant"),
                fen: f[2].to_string(),
                counts: f[3].split(',').map(|n| n.trim().parse().unwrap()).collect(),
            }
        })
        .collect()
}

fn run<G: Geometry>(case: &Case, max_nodes: u64) -> usize {
    let p: Position<G> = fen::parse(case.variant, &case.fen).unwrap();
    let mut checked = 0;
    for (i, &want) in case.counts.iter().enumerate() {
        if want > max_nodes {
            break;
        }
        let depth = i as u32 + 1;
        assert_eq!(p.perft(depth), want, "{} depth {depth}", case.name);
        checked += 1;
    }
    checked
}

fn run_all(max_nodes: u64) {
    let mut total = 0;
    for case in cases() {
        let n = match case.variant.board.side() {
            8 => run::<G8>(&case, max_nodes),
            10 => run::<G10>(&case, max_nodes),
            _ => run::<G12>(&case, max_nodes),
        };
        println!("{}: depths 1..={n} agree", case.name);
        total += n;
    }
    assert!(total > 40);
}

#[test]
fn published_counts_up_to_50_million_nodes() {
    run_all(50_000_000);
}

#[test]
#[ignore = "deep counts: minutes in release mode"]
fn published_counts_up_to_2_billion_nodes() {
    run_all(2_000_000_000);
}
