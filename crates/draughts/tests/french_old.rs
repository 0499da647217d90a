//! The old French rules (variant `french-old`, module `french`): one test per rule sentence of
//! seed 000 (the sentence is quoted above each test, the test is named after it), huffing
//! round trips through the record and PDN, perft against a brute-force count through the
//! `Game` trait, and random games checked against the international rules.

use proptest::prelude::*;
use tablier_core::{Game as _, Outcome, Side};
use tablier_draughts::french::{self, Action, BoardEntry, FrenchGame, TableOptions, Touched};
use tablier_draughts::game::{DrawReason, Ending};
use tablier_draughts::{fen, notation, pdn, Bits as _, Position, FRENCH_OLD, G10, INTERNATIONAL};

const PLAIN: TableOptions = TableOptions {
    touch_move: false,
    arbitrated: false,
};
const STRICT: TableOptions = TableOptions {
    touch_move: true,
    arbitrated: false,
};
const ARBITRATED: TableOptions = TableOptions {
    touch_move: false,
    arbitrated: true,
};

fn game(f: &str, o: TableOptions) -> FrenchGame<G10> {
    FrenchGame::from_position(fen::parse(&FRENCH_OLD, f).unwrap(), o)
}

fn act(g: &mut FrenchGame<G10>, text: &str) {
    let a = g
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    g.apply(&a).unwrap_or_else(|e| panic!("{text}: {e}"));
}

/// The legal actions in notation, sorted.
fn actions(g: &FrenchGame<G10>) -> Vec<String> {
    let mut v: Vec<String> = g
        .legal_actions()
        .iter()
        .map(|a| g.format_action(a))
        .collect();
    v.sort();
    v
}

fn has(g: &FrenchGame<G10>, text: &str) -> bool {
    actions(g).iter().any(|a| a == text)
}

/// White can take 23 with 28 (landing on 19); black's 23 cannot take back (32 is occupied).
const MISSED: &str = "W:W28,32,46:B23,1";

// "Un joueur qui prend plusieurs pions ou dames ne peut pas les enlever au fur et à mesure
// qu'il saute par-dessus, mais seulement quand le coup est terminé, et que, n'ayant plus à
// prendre, il a placé son pion ou sa dame sur une case vide."
#[test]
fn ne_peut_pas_les_enlever_au_fur_et_a_mesure() {
    // Coup turc (FMJD 4.8): the king may not jump 38 twice; the strongest side takes four.
    let g = game("W:WK41,49:B9,10,12,19,38", PLAIN);
    let largest = g.position().largest_captures();
    assert_eq!(largest.len(), 1);
    assert_eq!(largest[0].captured_squares(), vec![9, 12, 19, 38]);
    assert_eq!(largest[0].to(), 43);
    // The pieces leave the board only once the move is over: all at once.
    let mut g2 = g.clone();
    g2.apply(&Action::Move(largest[0])).unwrap();
    assert_eq!(g2.position().count(Side::Black), (1, 0));
}

// "Le pion ou la dame qui prend peut passer plusieurs fois sur la même case vide, mais pas
// deux fois sur le même pion ou sur la même dame."
#[test]
fn peut_passer_plusieurs_fois_sur_la_meme_case_vide_mais_pas_deux_fois_sur_le_meme_pion() {
    // The king goes round and comes back to its own square, taking four pieces once each.
    let g = game("W:WK2:B7,8,17,18", PLAIN);
    let largest = g.position().largest_captures();
    assert_eq!(largest.len(), 1);
    assert_eq!((largest[0].from(), largest[0].to()), (2, 2));
    assert_eq!(largest[0].captured_squares(), vec![7, 8, 17, 18]);
    // No capture anywhere takes a piece twice: at most the four pieces there are.
    assert!(g.legal_moves().iter().all(|m| m.capture_count() <= 4));
}

// "Dame touchée, dame jouée. On entend par cet axiome qu'il faut jouer la pièce qu'on a
// touchée. Tant qu'on tient le pion ou la dame, les eût-on posés sur une case vide, si on ne
// les a pas lâchés, on peut les poser ailleurs; mais dès qu'on les a lâchés, ils sont joués
// irrévocablement."
#[test]
fn dame_touchee_dame_jouee() {
    let mut g = FrenchGame::<G10>::start(STRICT).unwrap();
    assert!(has(&g, "t32") && has(&g, "t31"));
    // 46 cannot move: it is not offered, and touching it binds nothing.
    assert!(!has(&g, "t46"));
    act(&mut g, "t46");
    assert_eq!(g.touched(), None);
    act(&mut g, "t32");
    assert_eq!(g.touched(), Some(Touched::Own(32)));
    // Still held: either of its squares.
    assert_eq!(actions(&g), ["32-27", "32-28"]);
    act(&mut g, "32-27");
    // Played irrevocably: black to move.
    assert_eq!(g.position().side_to_move(), Side::Black);
    // Without touch-move, no touch actions at all.
    let plain = FrenchGame::<G10>::start(PLAIN).unwrap();
    assert_eq!(plain.legal_actions().len(), 9);
}

// "Celui dont c'est le tour de jouer, doit, lorsqu'il touche un ou plusieurs pions pour les
// arranger, dire: J'adoube; autrement l'adversaire pourrait lui faire jouer un des pions
// qu'il aurait touchés."
#[test]
fn j_adoube() {
    let mut g = FrenchGame::<G10>::start(STRICT).unwrap();
    assert!(has(&g, "j32") && has(&g, "j46"));
    act(&mut g, "j32");
    assert_eq!(g.touched(), None);
    // Every move is still open.
    assert!(has(&g, "31-26") && has(&g, "32-28"));
    assert_eq!(g.record_text(), ["j32"]);
}

// "Toute faute est faute, de quelque nature qu'elle soit. Si donc un joueur fait une fausse
// marche, c'est-à-dire place son pion ou sa dame sur une case autre que celle sur laquelle ils
// devaient être placés, l'adversaire fait redresser l'erreur, ou la laisse subsister s'il juge
// qu'elle lui soit avantageuse."
#[test]
fn fausse_marche_redressee_ou_laissee() {
    let mut g = FrenchGame::<G10>::start(ARBITRATED).unwrap();
    // 32 put on 22: two squares on, a false move.
    act(&mut g, "e32-22");
    assert!(g.false_move_pending());
    assert_eq!(g.faults(), 1);
    assert!(g.position().piece_at(22).is_some());
    assert!(has(&g, "redresse"));
    // Corrected: the move is taken back and the same piece must be played properly.
    let mut c = g.clone();
    act(&mut c, "redresse");
    assert_eq!(c.position().side_to_move(), Side::White);
    assert!(c.position().piece_at(32).is_some());
    assert_eq!(actions(&c), ["32-27", "32-28"]);
    // Let stand: black plays, and the white man stays on 22.
    let mut s = g.clone();
    act(&mut s, "19-24");
    assert!(s.position().piece_at(22).is_some());
    assert!(!s.false_move_pending());
    // A legal move entered from the board is just that move.
    let mut ok = FrenchGame::<G10>::start(ARBITRATED).unwrap();
    act(&mut ok, "e32-28");
    assert!(!ok.false_move_pending());
    assert_eq!(ok.faults(), 0);
    // Not arbitrated: entries are refused.
    let mut plain = FrenchGame::<G10>::start(PLAIN).unwrap();
    assert!(plain.apply(&plain.parse_action("e32-22").unwrap()).is_err());
}

// "De même, si un joueur lève son propre pion ou sa dame, il ne peut les replacer."
#[test]
fn leve_son_propre_pion_il_ne_peut_les_replacer() {
    let mut g = FrenchGame::<G10>::start(ARBITRATED).unwrap();
    act(&mut g, "l31");
    assert!(g.position().piece_at(31).is_none());
    assert_eq!(g.position().count(Side::White), (19, 0));
    // The player still has his move.
    assert_eq!(g.position().side_to_move(), Side::White);
    assert!(has(&g, "36-31"));
    // Only one's own piece.
    assert!(g.apply(&Action::Lift(19)).is_err());
}

// "Si on n'enlève point tous les pions ou dames qu'on avait à prendre, quand même on aurait
// figuré qu'on aurait à les prendre, on est tenu de les laisser sur le damier."
#[test]
fn on_est_tenu_de_les_laisser_sur_le_damier() {
    // 37x19 takes 32 and 23; the player takes off 32 only.
    let mut g = game("W:W37,46:B32,23,1", ARBITRATED);
    act(&mut g, "e37-19/32");
    assert!(g.position().piece_at(23).is_some(), "23 stays on");
    assert!(g.position().piece_at(32).is_none());
    assert!(g.position().piece_at(19).is_some());
    // Not a false move (nothing to correct), but the piece took less than it had to: huffable.
    assert!(!g.false_move_pending());
    assert!(!has(&g, "redresse"));
    assert!(has(&g, "s19") && has(&g, "f19"));
}

// "Il n'y a pas de faute à jouer un pion qui n'est pas jouable; il n'y a pas non plus de faute
// à jouer un pion ou une dame de son adversaire."
#[test]
fn pas_de_faute_a_jouer_un_pion_qui_n_est_pas_jouable_ni_un_pion_de_son_adversaire() {
    let mut g = FrenchGame::<G10>::start(ARBITRATED).unwrap();
    let before = g.clone();
    act(&mut g, "e46-37"); // 46 is blocked
    act(&mut g, "e19-24"); // black's man
    assert_eq!(g, before);
    assert_eq!(g.faults(), 0);
}

// "Souffler, c'est enlever le pion ou la dame qui n'a pas pris tout ce qu'il avait à prendre;
// après avoir soufflé, on doit jouer son coup comme à l'ordinaire. C'est ce qui est établi par
// cet axiome: Souffler n'est pas jouer."
#[test]
fn souffler_n_est_pas_jouer() {
    let mut g = game(MISSED, PLAIN);
    // Capture is not compulsory: the quiet moves are legal.
    assert!(has(&g, "46-41") && has(&g, "28x19"));
    act(&mut g, "46-41");
    assert_eq!(g.huffable().iter().map(|h| h.now).collect::<Vec<_>>(), [28]);
    act(&mut g, "s28");
    assert!(g.position().piece_at(28).is_none());
    // The huff is not a move: black still plays.
    assert_eq!(g.actor(), tablier_core::Actor::Player(Side::Black));
    assert!(!has(&g, "s28") && !has(&g, "f28"));
    act(&mut g, "1-7");
    assert_eq!(g.record_text(), ["46-41", "s28", "1-7"]);
}

// "Le joueur qui a le droit de souffler, est libre de le faire ou de ne pas le faire. Il peut
// donc, à son gré, ou enlever le pion qui n'a pas pris tout ce qu'il devait prendre et jouer,
// ou ne pas l'enlever et jouer, ou enfin forcer le joueur à prendre avec son pion tout ce
// qu'il avait à prendre."
#[test]
fn enlever_et_jouer_ou_ne_pas_l_enlever_et_jouer_ou_forcer_a_prendre() {
    let mut g = game(MISSED, PLAIN);
    act(&mut g, "46-41");
    let opts = actions(&g);
    assert_eq!(
        opts,
        ["1-6", "1-7", "23-29", "f28", "s28"],
        "black's moves (letting it stand), huff, force"
    );
    // Let it stand.
    let mut stand = g.clone();
    act(&mut stand, "1-7");
    assert!(stand.position().piece_at(28).is_some());
    assert!(stand.huffable().is_empty());
    // Force: white takes back 46-41 and takes with 28.
    let mut force = g.clone();
    act(&mut force, "f28");
    assert_eq!(force.position().side_to_move(), Side::White);
    assert!(force.position().piece_at(46).is_some());
    assert_eq!(force.forced(), Some(28));
    assert_eq!(actions(&force), ["28x19"]);
    act(&mut force, "28x19");
    assert_eq!(force.position().side_to_move(), Side::Black);
    assert!(force.huffable().is_empty());
    assert_eq!(force.record_text(), ["46-41", "f28", "28x19"]);
}

// "Mais si la pièce soufflable a été touchée par le joueur qui a le droit de souffler, ce
// joueur est obligé de jouer, par la raison que dame touchée est dame jouée, et qu'en touchant
// le pion soufflable, il a touché un pion qui lui appartient par la loi du jeu."
#[test]
fn la_piece_soufflable_touchee_doit_etre_soufflee() {
    let mut g = game(MISSED, STRICT);
    act(&mut g, "46-41");
    assert!(has(&g, "t28"));
    act(&mut g, "t28");
    assert_eq!(g.touched(), Some(Touched::Huffable(28)));
    assert_eq!(actions(&g), ["s28"]);
    act(&mut g, "s28");
    assert!(has(&g, "1-7"));
}

// "Si le joueur qui avait à souffler a touché un de ses pions avant d'avoir soufflé, il ne
// peut plus revenir sur le coup."
#[test]
fn touche_un_de_ses_pions_avant_d_avoir_souffle() {
    let mut g = game(MISSED, STRICT);
    act(&mut g, "46-41");
    act(&mut g, "t1");
    assert_eq!(actions(&g), ["1-6", "1-7"]);
    assert!(g.huffable().is_empty());
}

// "Néanmoins, si le joueur soufflable jouait plusieurs coups sans s'apercevoir qu'il a à
// prendre, l'autre joueur peut toujours le souffler au coup suivant, quoiqu'il ait oublié de
// le faire la première fois."
#[test]
fn peut_toujours_le_souffler_au_coup_suivant() {
    let mut g = game(MISSED, PLAIN);
    act(&mut g, "46-41");
    act(&mut g, "1-7"); // black forgets to huff
    assert!(has(&g, "28x19"));
    act(&mut g, "41-36"); // white still does not take
    assert!(has(&g, "s28") && has(&g, "f28"));
    // A move that takes is no fault: nothing to huff.
    let mut h = game(MISSED, PLAIN);
    act(&mut h, "46-41");
    act(&mut h, "1-7");
    act(&mut h, "28x19");
    assert!(h.huffable().is_empty());
}

// "Celui qui a à prendre de plusieurs côtés doit prendre du côté le plus fort, sinon il est
// soufflable. On appelle le côté le plus fort le côté où il y a le plus à prendre. Une dame ne
// compte, en cas de prise, que pour un pion."
#[test]
fn prendre_du_cote_le_plus_fort_une_dame_ne_compte_que_pour_un_pion() {
    // FMJD 4.13's position: 48x19 takes three men; other captures take two kings or fewer.
    let g = game("W:W48:B24,K31,34,K42,43", PLAIN);
    let largest = g.position().largest_captures();
    assert_eq!(largest.len(), 1);
    assert_eq!(largest[0].captured_squares(), vec![24, 34, 43]);
    let smaller: Vec<_> = g
        .legal_moves()
        .into_iter()
        .filter(|m| m.is_capture() && m.capture_count() < 3)
        .collect();
    assert!(smaller
        .iter()
        .any(|m| !(m.captured() & g.position().king_bits()).is_empty()));
    for m in &smaller {
        let mut h = g.clone();
        h.apply(&Action::Move(*m)).unwrap();
        // The man took less than the strongest side: huffable where it landed.
        assert_eq!(
            h.huffable().iter().map(|x| x.now).collect::<Vec<_>>(),
            [m.to()]
        );
    }
    let mut full = g.clone();
    full.apply(&Action::Move(largest[0])).unwrap();
    assert!(full.huffable().is_empty());
}

/// Seed 000 does not say which piece is huffable when several could have made the largest
/// capture. Reading of "Souffler, c'est enlever le pion ou la dame qui n'a pas pris tout ce
/// qu'il avait à prendre": each such piece; the opponent chooses one and removes that one.
#[test]
fn plusieurs_pieces_pouvaient_prendre_le_plus_fort() {
    // 28 takes 23, 30 takes 24 (both land on 19); one piece each.
    let mut g = game("W:W28,30,46:B23,24,1", PLAIN);
    act(&mut g, "46-41");
    let h: Vec<u8> = g.huffable().iter().map(|x| x.now).collect();
    assert_eq!(h, [28, 30]);
    assert!(has(&g, "s28") && has(&g, "s30") && has(&g, "f28") && has(&g, "f30"));
    act(&mut g, "s30");
    // One piece only.
    assert!(g.position().piece_at(28).is_some());
    assert!(!has(&g, "s28"));
    // A piece that took, but less than another could: the other is huffable, not the taker.
    // 28 takes one piece (23 or 22), 38 takes three (32, 22, 23): 38 is huffable, 28 is not.
    let mut k = game("W:W28,38,46:B23,32,22,1", PLAIN);
    let two = k.position().largest_captures();
    assert!(two.iter().all(|m| m.capture_count() == 3 && m.from() == 38));
    let one = k
        .legal_moves()
        .into_iter()
        .find(|m| m.from() == 28 && m.to() == 19)
        .unwrap();
    k.apply(&Action::Move(one)).unwrap();
    let h: Vec<u8> = k.huffable().iter().map(|x| x.now).collect();
    assert_eq!(h, [38]);
    let mut want: Vec<u8> = two
        .iter()
        .map(|m| if m.from() == 28 { one.to() } else { m.from() })
        .collect();
    want.sort_unstable();
    want.dedup();
    assert_eq!(h, want);
}

// "Lorsque deux joueurs égaux en force restent, l'un avec une dame damée, et l'autre avec une
// dame damée et deux pions, deux dames et un pion, et même trois dames, la partie ne se joue
// plus, et l'on en recommence une autre, à moins que le joueur qui a la supériorité n'ait
// gagné forcément sur le coup."
#[test]
fn la_partie_ne_se_joue_plus_a_moins_d_avoir_gagne_sur_le_coup() {
    // White king 50 takes the lone king on 28 at once: a win.
    let mut win = game("W:WK50,36,31:BK28", PLAIN);
    assert!(win.outcome().is_none());
    act(&mut win, "50x22");
    assert_eq!(
        win.outcome(),
        Some(Outcome::Win {
            winner: Side::White,
            points: 1
        })
    );
    // The same material, white does not win with his move: drawn.
    let mut draw = game("W:WK50,36,31:BK28", PLAIN);
    act(&mut draw, "31-27");
    assert_eq!(draw.ending(), Some(Ending::Draw(DrawReason::OldFrenchRule)));
    // Three kings, and the lone king to move first: it plays, then white has one move.
    let mut three = game("B:WK50,K36,K31:BK5", PLAIN);
    act(&mut three, "5-10");
    assert!(three.outcome().is_none());
    act(&mut three, "31-27");
    assert_eq!(three.outcome(), Some(Outcome::Draw));
    // Two kings and a man; a fortiori one king against two pieces.
    for f in ["W:WK50,K45,36:BK5", "W:WK50,36:BK5"] {
        let mut g = game(f, PLAIN);
        act(&mut g, "36-31");
        assert_eq!(g.outcome(), Some(Outcome::Draw), "{f}");
    }
    // Not the material: one king against three men (no king) plays on.
    let mut men = game("W:W36,37,38:BK5", PLAIN);
    act(&mut men, "36-31");
    assert!(men.outcome().is_none());
    // Nor four pieces against a king.
    let mut four = game("W:WK50,36,37,38:BK5", PLAIN);
    act(&mut four, "36-31");
    assert!(four.outcome().is_none());
}

#[test]
fn threefold_repetition_ends_the_game() {
    let mut g = game("W:WK50,K49:BK1,K2", PLAIN);
    for _ in 0..2 {
        for m in ["50-44", "1-7", "44-50", "7-1"] {
            act(&mut g, m);
        }
    }
    assert_eq!(g.ending(), Some(Ending::Draw(DrawReason::Repetition)));
}

// ---------------------------------------------------------------------------------------
// Records

/// Writes the game as PDN text, reads it back and replays it; also replays the record.
fn round_trip(g: &FrenchGame<G10>) -> String {
    let back = FrenchGame::from_record(*g.start_position(), g.options(), &g.record_text()).unwrap();
    assert_eq!(&back, g);
    let text = pdn::write_pdn(&french::to_pdn(g, &[("White", "A"), ("Black", "B")]));
    let parsed = pdn::parse_game(&text).unwrap();
    let replayed = french::replay_pdn(&parsed).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(replayed.position(), g.position(), "{text}");
    assert_eq!(replayed.record_text(), g.record_text(), "{text}");
    // The generic PDN replay knows GameType 42.
    let r = tablier_draughts::replay::replay(&parsed, 1, &INTERNATIONAL).unwrap();
    assert_eq!(r.final_fen, fen::write(g.position()));
    text
}

#[test]
fn every_option_replays_from_the_record_and_pdn_marks_the_huff() {
    let mut base = game(MISSED, PLAIN);
    act(&mut base, "46-41");
    for (first, rest) in [
        ("s28", &["1-7", "41-36"][..]),
        ("1-7", &["41-37", "s28"][..]),
        ("f28", &["28x19", "1-7"][..]),
    ] {
        let mut g = base.clone();
        act(&mut g, first);
        for m in rest {
            act(&mut g, m);
        }
        let text = round_trip(&g);
        assert!(text.contains("[GameType \"42,W,10,10,N2,0\"]"), "{text}");
        if first == "s28" {
            assert!(text.contains("{s28}"), "{text}");
        }
        if first == "f28" {
            assert!(
                text.contains("{f28}") && text.contains("1. 28x19"),
                "{text}"
            );
        }
    }
    // Touch-move and arbitrated records.
    let mut t = game(MISSED, STRICT);
    for a in ["j46", "t46", "46-41", "t28", "s28", "1-7"] {
        act(&mut t, a);
    }
    assert!(round_trip(&t).contains("TableOptions"));
    let mut a = FrenchGame::<G10>::start(ARBITRATED).unwrap();
    for x in [
        "e32-22",
        "redresse",
        "32-28",
        "l1",
        "19-23",
        "e28-19/23",
        "14x23",
    ] {
        act(&mut a, x);
    }
    round_trip(&a);
}

// ---------------------------------------------------------------------------------------
// Perft

/// Brute force through the `Game` trait: every legal action, applied to a clone.
fn brute(g: &FrenchGame<G10>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    g.legal_actions()
        .iter()
        .map(|a| {
            let mut h = g.clone();
            h.apply(a).unwrap();
            brute(&h, depth - 1)
        })
        .sum()
}

/// Whether no capture is possible anywhere in the move tree `depth` plies deep.
fn capture_free(p: &Position<G10>, depth: u32) -> bool {
    if depth == 0 {
        return true;
    }
    let moves = p.legal_moves();
    moves.iter().all(|m| !m.is_capture())
        && moves.iter().all(|m| {
            let mut q = *p;
            q.play_unchecked(m);
            depth == 1 || capture_free(&q, depth - 1)
        })
}

#[test]
fn perft_agrees_with_a_brute_force_count_of_the_actions() {
    let cases: &[(&str, u32)] = &[
        ("W:W31-50:B1-20", 4),
        (MISSED, 4),
        ("W:W28,30,46:B23,24,1", 4),
        ("W:W37,46:B32,23,1", 4),
        ("W:WK41,49:B9,10,12,19,38", 3),
        ("W:W28,37,46:B23,32,22,1,K5", 3),
        ("W:W27,28,32,33,37,38:B17,18,19,22,23,24", 4),
    ];
    for (f, depth) in cases {
        let p: Position<G10> = fen::parse(&FRENCH_OLD, f).unwrap();
        let g = FrenchGame::from_position(p, PLAIN);
        for d in 1..=*depth {
            assert_eq!(french::perft(&p, d), brute(&g, d), "{f} depth {d}");
        }
    }
}

/// tablier's own counts from the start (no published numbers exist for these rules, see
/// reference/draughts/PERFT.md §8); depths 1-5 are checked against the brute force.
const START_COUNTS: [u64; 5] = [9, 81, 793, 7_968, 88_353];

#[test]
fn perft_from_the_start() {
    let p = Position::<G10>::start(&FRENCH_OLD).unwrap();
    let g = FrenchGame::from_position(p, PLAIN);
    for (i, want) in START_COUNTS.iter().enumerate() {
        let d = i as u32 + 1;
        assert_eq!(french::perft(&p, d), *want, "depth {d}");
        assert_eq!(brute(&g, d), *want, "brute force, depth {d}");
    }
    let divide = french::perft_divide(&p, 3);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), START_COUNTS[2]);
}

#[test]
fn perft_equals_the_international_count_where_no_capture_is_possible() {
    let cases: &[(&str, u32)] = &[
        ("W:W31-50:B1-20", 2),
        ("W:W6,7,8,9,10:B41,42,43,44,45", 2),
        ("W:WK46,K50:BK1,K5", 1),
    ];
    let mut checked = 0;
    for (f, max) in cases {
        let intl: Position<G10> = fen::parse(&INTERNATIONAL, f).unwrap();
        let fr: Position<G10> = fen::parse(&FRENCH_OLD, f).unwrap();
        for d in 1..=*max {
            assert!(capture_free(&intl, d), "{f} {d}");
            assert_eq!(french::perft(&fr, d), intl.perft(d), "{f} depth {d}");
            checked += 1;
        }
    }
    assert_eq!(checked, 5);
    // At the start no capture is possible for two plies: 9 and 81, as published.
    let start = Position::<G10>::start(&FRENCH_OLD).unwrap();
    assert_eq!(french::perft(&start, 2), 81);
    // From the third ply on captures are optional and the counts part.
    assert!(french::perft(&start, 3) > 658);
}

// ---------------------------------------------------------------------------------------
// Random games

fn random_game(choices: &[u16]) {
    let mut g = FrenchGame::<G10>::start(PLAIN).unwrap();
    for &c in choices {
        let legal = g.legal_actions();
        if legal.is_empty() {
            break;
        }
        let p = *g.position();
        if g.forced().is_none() {
            // Every capture taken at its maximum == the international legal moves.
            let intl: Position<G10> = fen::parse(&INTERNATIONAL, &fen::write(&p)).unwrap();
            let mut want = intl.legal_moves();
            let max = p
                .largest_captures()
                .first()
                .map_or(0, |m| m.capture_count());
            let mut got: Vec<_> = p
                .legal_moves()
                .into_iter()
                .filter(|m| m.capture_count() == max)
                .collect();
            let key = |m: &tablier_draughts::Move<G10>| (m.from(), m.to(), m.captured_squares());
            want.sort_by_key(key);
            got.sort_by_key(key);
            assert_eq!(got.len(), want.len(), "{}", fen::write(&p));
            for (a, b) in got.iter().zip(&want) {
                assert_eq!(key(a), key(b));
            }
            assert_eq!(p.proper_moves().len(), want.len());
        }
        // Every action's notation reads back as that action.
        for a in &legal {
            assert_eq!(&g.parse_action(&g.format_action(a)).unwrap(), a);
        }
        // Prefer huffs and forces sometimes, so that they are exercised.
        let a = legal[usize::from(c) % legal.len()].clone();
        let before = g.clone();
        g.apply(&a).unwrap();
        if let Action::Move(m) = a {
            assert_eq!(
                notation::format(before.position(), &m),
                before.format_action(&Action::Move(m))
            );
        }
    }
    // The record replays, and the PDN record too.
    round_trip(&g);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_games_match_international_moves_and_replay(
        choices in prop::collection::vec(any::<u16>(), 0..120)
    ) {
        random_game(&choices);
    }
}

#[test]
fn variant_lookup_and_entry_format() {
    assert_eq!(
        tablier_draughts::Variant::by_name("french-old")
            .unwrap()
            .name,
        "french-old"
    );
    assert_eq!(
        tablier_draughts::Variant::by_pdn_game_type("42,W,10,10,N2,0")
            .unwrap()
            .name,
        "french-old"
    );
    let g = FrenchGame::<G10>::start(ARBITRATED).unwrap();
    let e = Action::Entry(BoardEntry {
        from: 28,
        to: 17,
        removed: vec![22, 23],
    });
    assert_eq!(g.format_action(&e), "e28-17/22,23");
    assert_eq!(g.parse_action("e28-17/22,23").unwrap(), e);
}
