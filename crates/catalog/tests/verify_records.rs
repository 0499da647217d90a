//! `verify` proves a record's outcome, not only its dice: a folder of game records
//! (`tests/data/records/`), real ones played through the server and tampered ones made from
//! them (a winner flipped, points changed, the result removed, actions cut, a player-written
//! `!flag` or `!resign` inserted or appended, the spec changed, ...), each with the message
//! `verify` must give. Records kept from earlier versions must keep verifying. The server's
//! own test plays such records afresh; to write this folder again from them (after a change
//! of the record format, say):
//! `TABLIER_WRITE_RECORDS=1 cargo test --profile ci -p tablier-server --test verify_records`.

mod records;

#[test]
fn every_kept_record_verifies_or_is_refused_with_its_reason() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records");
    let (genuine, tampered) = records::check_folder(&dir);
    assert!(genuine >= 5, "{genuine} real records");
    assert!(tampered >= 44, "{tampered} tampered records");
}
