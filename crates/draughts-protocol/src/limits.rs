//! What a GUI or an opponent may ask of the engine: the longest thinking time, and the
//! largest hash table this machine can hold.

use std::time::Duration;

/// The longest thinking time a Hub `level` (or a DXP `--move-time`) may give, in seconds:
/// about 31 years. Longer times mean nothing to a game, and the engine adds them to the
/// current instant, which cannot reach much further.
pub const MAX_SECONDS: f64 = 1e9;

/// A time in seconds as a duration, if it is a number from 0 to [`MAX_SECONDS`] (`None` for
/// NaN, negative or larger numbers).
#[must_use]
pub fn seconds(x: f64) -> Option<Duration> {
    if (0.0..=MAX_SECONDS).contains(&x) {
        Duration::try_from_secs_f64(x.abs()).ok()
    } else {
        None
    }
}

/// The most memory the hash table may take, in bytes: half of the machine's memory (read
/// from `/proc/meminfo`), or 4 GiB where that cannot be read.
#[must_use]
pub fn memory_limit() -> u64 {
    const UNKNOWN: u64 = 4 << 30;
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| total_memory(&text))
        .map_or(UNKNOWN, |total| total / 2)
}

/// `MemTotal` of a `/proc/meminfo` text, in bytes.
fn total_memory(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut words = line["MemTotal:".len()..].split_whitespace();
    let n: u64 = words.next()?.parse().ok()?;
    let unit = match words.next() {
        Some("kB") => 1024,
        None => 1,
        Some(_) => return None,
    };
    n.checked_mul(unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_memory_is_read_from_meminfo() {
        let text = "MemTotal:       24684084 kB\nMemFree:        22385416 kB\n";
        assert_eq!(total_memory(text), Some(24_684_084 * 1024));
        assert_eq!(total_memory("MemFree: 1 kB\n"), None);
        assert_eq!(total_memory("MemTotal: lots\n"), None);
        assert_eq!(total_memory("MemTotal: 18446744073709551615 kB\n"), None);
        assert!(memory_limit() > 0);
    }
}
