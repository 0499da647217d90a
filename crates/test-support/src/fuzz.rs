//! Inputs shared by the fuzz targets: arbitrary text and mutations of valid samples.

use proptest::prelude::*;
use proptest::sample::Index;

/// The number of cases of a target: `PROPTEST_CASES` when set, else `default`.
pub fn config(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

/// Characters that trip naive parsers: control characters, multi-byte letters, combining
/// marks, zero-width and byte-order marks, digits of other scripts, the replacement
/// character, the last code point.
pub const TRICKY: &[char] = &[
    '\0',
    '\t',
    '\n',
    '\r',
    ' ',
    '\u{7f}',
    '\u{85}',
    '\u{a0}',
    'é',
    'ß',
    'ǅ',
    '\u{301}',
    '\u{200b}',
    '\u{200f}',
    '\u{feff}',
    '\u{fffd}',
    '٣',
    '３',
    '²',
    'Ⅻ',
    'K',
    'ſ',
    '😀',
    '\u{10ffff}',
];

/// One character: mostly from the format's alphabet, sometimes tricky, sometimes any.
pub fn format_char(alphabet: &'static str) -> impl Strategy<Value = char> {
    let own: Vec<char> = alphabet.chars().collect();
    prop_oneof![
        8 => prop::sample::select(own),
        1 => prop::sample::select(TRICKY),
        1 => any::<char>(),
    ]
}

/// Arbitrary text: random bytes (lossy UTF-8), any characters, and short or long runs of the
/// format's own characters.
pub fn any_text(alphabet: &'static str) -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..64)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        prop::collection::vec(any::<u8>(), 0..4096)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        any::<String>(),
        prop::collection::vec(format_char(alphabet), 0..48).prop_map(String::from_iter),
        prop::collection::vec(format_char(alphabet), 0..4096).prop_map(String::from_iter),
    ]
}

/// One edit of a text.
#[derive(Clone, Debug)]
pub enum Edit {
    /// Replaces the character at a place.
    Replace(Index, char),
    /// Inserts a character at a place.
    Insert(Index, char),
    /// Deletes the character at a place.
    Delete(Index),
    /// Copies the characters between two places to the first.
    Duplicate(Index, Index),
    /// Swaps the characters at two places.
    Swap(Index, Index),
    /// Cuts the text at a place.
    Truncate(Index),
    /// Flips one bit of one byte of the UTF-8, read back lossily.
    FlipBit(Index, u8),
}

/// One to five edits, inserting and replacing with characters as [`format_char`] draws them.
pub fn edits(alphabet: &'static str) -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        (any::<Index>(), format_char(alphabet)).prop_map(|(i, c)| Edit::Replace(i, c)),
        (any::<Index>(), format_char(alphabet)).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<Index>().prop_map(Edit::Delete),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Duplicate(a, b)),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Swap(a, b)),
        any::<Index>().prop_map(Edit::Truncate),
        (any::<Index>(), 0u8..8).prop_map(|(i, b)| Edit::FlipBit(i, b)),
    ];
    prop::collection::vec(edit, 1..6)
}

/// `text` with `edits` applied in turn (an edit of an empty text other than an insertion
/// does nothing).
pub fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut c: Vec<char> = text.chars().collect();
    for e in edits {
        let n = c.len();
        match e {
            Edit::Insert(i, ch) => c.insert(i.index(n + 1), *ch),
            _ if n == 0 => {}
            Edit::Replace(i, ch) => c[i.index(n)] = *ch,
            Edit::Delete(i) => {
                c.remove(i.index(n));
            }
            Edit::Duplicate(a, b) => {
                let (a, b) = (a.index(n), b.index(n));
                let piece: Vec<char> = c[a.min(b)..=a.max(b)].to_vec();
                c.splice(a..a, piece);
            }
            Edit::Swap(a, b) => c.swap(a.index(n), b.index(n)),
            Edit::Truncate(i) => c.truncate(i.index(n)),
            Edit::FlipBit(i, bit) => {
                let mut bytes = c.iter().collect::<String>().into_bytes();
                let k = i.index(bytes.len());
                bytes[k] ^= 1 << bit;
                c = String::from_utf8_lossy(&bytes).chars().collect();
            }
        }
    }
    c.into_iter().collect()
}
