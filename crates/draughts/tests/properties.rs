//! Property tests: random playouts in every variant keep the piece counts consistent, FEN and
//! move text round-trip, an illegal move changes nothing, and the parsers never panic.

use proptest::prelude::*;
use tablier_core::{Game as _, Side};
use tablier_draughts::game::Game;
use tablier_draughts::{
    fen, notation, with_board, Bits, Geometry, Move, Position, Variant, VARIANTS,
};

/// Plays `choices` as indices into the legal moves, checking invariants after every move.
fn playout<G: Geometry>(v: &'static Variant, choices: &[u16]) {
    let mut g = Game::<G>::start(v).unwrap();
    for &c in choices {
        let legal = g.legal_moves();
        if legal.is_empty() {
            // The game is over: by the rules' draws, or with no move at all.
            let p = g.position();
            let moves = p.legal_moves();
            if moves.is_empty() {
                assert!(!p.has_quiet_move());
            } else if moves.iter().all(|m| !m.is_capture()) {
                assert!(p.has_quiet_move());
            }
            break;
        }
        let p = *g.position();
        // FEN round trip, both with ranges and without.
        assert_eq!(fen::parse::<G>(v, &fen::write(&p)).unwrap(), p);
        assert_eq!(fen::parse::<G>(v, &fen::write_plain(&p)).unwrap(), p);
        // Every legal move's notation reads back as that move, short and full forms.
        for m in &legal {
            assert_eq!(notation::parse(&p, &notation::format(&p, m)).unwrap(), *m);
            assert_eq!(
                notation::parse(&p, &notation::format_full(&p, m)).unwrap(),
                *m
            );
        }
        // The leaf generator: the captures alone, or none and a word on the quiet moves.
        let mut caps = Vec::new();
        p.generate_captures_only(&mut caps);
        let legal_caps: Vec<_> = legal.iter().filter(|m| m.is_capture()).copied().collect();
        assert_eq!(caps, legal_caps);
        if caps.is_empty() {
            assert!(p.has_quiet_move(), "a legal move, none a capture");
        }
        // A move that is not legal is refused and leaves the game as it was.
        let bogus = Move::<G>::new(legal[0].from(), legal[0].from(), &[]);
        let before = g.clone();
        assert!(g.apply(&bogus).is_err());
        assert_eq!(g, before);

        let m = legal[usize::from(c) % legal.len()];
        let mover = p.side_to_move();
        let (m0, k0) = p.count(mover);
        let (om0, ok0) = p.count(mover.opposite());
        g.apply(&m).unwrap();
        let q = g.position();
        let (m1, k1) = q.count(mover);
        let (om1, ok1) = q.count(mover.opposite());
        // The mover keeps all its pieces; a man may become a king.
        assert_eq!(m0 + k0, m1 + k1);
        assert_eq!(k1 - k0, u32::from(p.is_promotion(&m)));
        // The opponent loses exactly the captured pieces.
        assert_eq!(om0 + ok0 - (om1 + ok1), m.capture_count());
        // Nothing overlaps.
        assert!((q.side_bits(Side::White) & q.side_bits(Side::Black)).is_empty());
        assert_eq!(q.side_to_move(), mover.opposite());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_playouts_keep_invariants(vi in 0usize..4, choices in prop::collection::vec(any::<u16>(), 0..160)) {
        let v = VARIANTS[vi];
        with_board!(v.board, G => playout::<G>(v, &choices));
    }

    #[test]
    fn fen_parser_never_panics(s in "\\PC{0,60}") {
        for v in VARIANTS {
            with_board!(v.board, G => { let _ = fen::parse::<G>(v, &s); });
        }
    }

    #[test]
    fn fen_like_strings_never_panic(s in "[WBK?:,.0-9a-l\\- ]{0,40}") {
        for v in VARIANTS {
            with_board!(v.board, G => { let _ = fen::parse::<G>(v, &s); });
        }
    }

    #[test]
    fn move_parser_never_panics(s in "[0-9x:\\- ]{0,20}|\\PC{0,20}") {
        let p = Position::<tablier_draughts::G10>::start(&tablier_draughts::INTERNATIONAL).unwrap();
        let _ = notation::parse(&p, &s);
    }
}
