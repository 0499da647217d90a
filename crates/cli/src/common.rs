//! What the commands share: progress bars, Ctrl-C, reading text files, the exit-code-1
//! marker and the CPU clock.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once, OnceLock};

use anyhow::{Context, Result};

/// An error already reported to the user in full (exit code 1, not a usage error).
#[derive(Debug)]
pub struct Failed;

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("failed")
    }
}

impl std::error::Error for Failed {}

/// Writes `bytes` to `path` whole or not at all: into a file beside it, then renamed over it,
/// so that a crash never leaves half a file. A path that exists and is not a regular file
/// (`/dev/null`, a pipe) is written to directly: renaming over it would replace the device.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let special = std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir());
    if special {
        return std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()));
    }
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp{}", std::process::id()));
    let tmp = path.with_file_name(name);
    std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
}

/// Reads a whole file as text (PDN files in the wild are UTF-8 or Latin-1).
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => e.into_bytes().iter().map(|&b| char::from(b)).collect(),
    })
}

/// CPU seconds used by this process so far (user + system), from /proc.
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// A progress bar over `len` steps counted in `unit` (hidden with `quiet`): the style of
/// the long commands (training, analysis, duels, rollouts).
pub fn progress(len: u64, quiet: bool, unit: &str) -> indicatif::ProgressBar {
    bar(
        len,
        quiet,
        &format!(
            "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {unit} ({{per_sec}}, eta {{eta}}) {{msg}}"
        ),
    )
}

/// A short progress bar over `len` steps (hidden with `quiet`), with `unit` after the count
/// when it is not empty: the style of `perft` and `match`.
pub fn short_progress(len: u64, quiet: bool, unit: &str) -> indicatif::ProgressBar {
    let unit = if unit.is_empty() {
        String::new()
    } else {
        format!("{unit} ")
    };
    bar(
        len,
        quiet,
        &format!("{{bar:30}} {{pos}}/{{len}} {unit}{{msg}} [{{elapsed}}]"),
    )
}

fn bar(len: u64, quiet: bool, template: &str) -> indicatif::ProgressBar {
    if quiet {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(indicatif::ProgressStyle::with_template(template).expect("a valid template"));
    bar
}

/// Set by Ctrl-C once [`interrupted`] has been called.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Engines' stop flags that Ctrl-C sets too ([`stop_on_interrupt`]).
static ENGINE_STOPS: Mutex<Vec<Arc<AtomicBool>>> = Mutex::new(Vec::new());

/// What Ctrl-C does after setting the flags ([`on_interrupt`]).
static ACTION: OnceLock<fn()> = OnceLock::new();

/// Installs the program's one Ctrl-C handler (the first call only). A command that never
/// asks for it keeps the default: Ctrl-C ends it at once.
fn install_handler() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            INTERRUPTED.store(true, Ordering::Relaxed);
            if let Ok(stops) = ENGINE_STOPS.lock() {
                for s in stops.iter() {
                    s.store(true, Ordering::Relaxed);
                }
            }
            if let Some(action) = ACTION.get() {
                action();
            }
        });
    });
}

/// The flag Ctrl-C sets, for long commands that stop cleanly: they look at it between two
/// steps (and may clear it to go on with the next stage, which a second Ctrl-C stops).
pub fn interrupted() -> &'static AtomicBool {
    install_handler();
    &INTERRUPTED
}

/// Runs `work(n)` once for every `n` in `0..count`, on `threads` threads (0: one per core),
/// the indices handed out in order; no new index is started once `stop` is set.
pub fn for_each_index(threads: usize, count: u64, stop: &AtomicBool, work: impl Fn(u64) + Sync) {
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    let next = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    break;
                }
                let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if n >= count {
                    break;
                }
                work(n);
            });
        }
    });
}

/// Ctrl-C also sets `engine_stop`: the search in progress ends at once.
pub fn stop_on_interrupt(engine_stop: Arc<AtomicBool>) {
    install_handler();
    if let Ok(mut stops) = ENGINE_STOPS.lock() {
        stops.push(engine_stop);
    }
}

/// Ctrl-C runs `action` (after setting the flags); `action` may end the process.
pub fn on_interrupt(action: fn()) {
    let _ = ACTION.set(action);
    install_handler();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::FileTypeExt;

    #[test]
    fn write_file_replaces_files_whole_and_writes_into_pipes() {
        let d = std::env::temp_dir().join(format!("tablier-write-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let file = d.join("weights.tbg");
        write_file(&file, b"one").unwrap();
        write_file(&file, b"two").unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["weights.tbg"], "no temporary file left behind");
        // A named pipe (like /dev/null, not a regular file) is written into, not replaced:
        // `--out /dev/null` once turned /dev/null into a file.
        let fifo = d.join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        write_file(&fifo, b"through").unwrap();
        assert_eq!(reader.join().unwrap(), b"through");
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        std::fs::remove_dir_all(&d).ok();
    }
}
