//! Checking a folder of game records, each with the message `verify` must give (a part of
//! it), or none for a record that must verify. Shared by the catalog's test of the kept
//! records and the server's test of records played now (`#[path]`-included there).

use std::path::Path;

use serde_json::Value;
use tablier_catalog::verify;

/// Checks every `*.json` case of `dir`; returns how many real and tampered records it held.
pub fn check_folder(dir: &Path) -> (usize, usize) {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let (mut genuine, mut tampered) = (0, 0);
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy();
        let case: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let got = verify(&case["record"]);
        match case["expect"].as_str() {
            None => {
                let v = got.unwrap_or_else(|e| panic!("{name}: a real record refused: {e}"));
                assert!(v.actions > 0, "{name}");
                genuine += 1;
            }
            Some(expected) => {
                let e = match got {
                    Ok(v) => panic!("{name}: a tampered record verified: {v:?}"),
                    Err(e) => e.to_string(),
                };
                assert!(
                    e.contains(expected),
                    "{name}: the message is {e:?}, it should say {expected:?}"
                );
                // Messages stay short even when the record holds huge values.
                assert!(e.len() < 400, "{name}: a message of {} bytes", e.len());
                tampered += 1;
            }
        }
    }
    (genuine, tampered)
}
