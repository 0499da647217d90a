//! Which game a spec names: the one place that lists the families of the catalog.

use crate::spec::{Family, GameSpec, SpecError};
use crate::table::{boxed, Table};

/// A new game of `spec`, at its start.
///
/// ```
/// use tablier_catalog::{new_table, Family, GameSpec};
///
/// let spec: GameSpec = serde_json::from_str(r#"{"family": "draughts", "variant": "english"}"#).unwrap();
/// let mut table = new_table(&spec).unwrap();
/// assert_eq!(table.family(), Family::Draughts);
/// assert_eq!(table.legal().len(), 7);
/// assert_eq!(table.apply("11-15").unwrap(), "11-15");
/// assert!(table.apply("11-15").is_err(), "the square is empty now");
/// ```
///
/// # Errors
/// [`SpecError`] when the spec names no game tablier plays.
pub fn new_table(spec: &GameSpec) -> Result<Box<dyn Table>, SpecError> {
    match spec.family {
        Family::Draughts => {
            crate::draughts::new_table(spec.variant.as_deref(), spec.start.as_deref())
        }
        Family::Backgammon => Ok(boxed(crate::backgammon::new_match(spec)?)),
        Family::Trictrac => Ok(boxed(crate::trictrac::new_partie(spec)?)),
    }
}
