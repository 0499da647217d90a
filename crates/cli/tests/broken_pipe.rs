//! A closed standard output ends the real binary quietly, as it ends `cat`: no panic
//! ("failed printing to stdout: Broken pipe", exit code 101), whether the reader is gone
//! before the first line or goes away after a few bytes (`tablier perft ... | head -c 10`).

use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Output-heavy commands, with the files they read from the project's test data.
fn commands() -> Vec<Vec<String>> {
    let root = root();
    let mat = root.join("crates/backgammon/tests/data/gnubg_selfplay_5pt.mat");
    let pdn = root.join("crates/draughts/tests/data/pdn-corpus/succeed/ussr1947.pdn");
    assert!(mat.is_file() && pdn.is_file(), "test data missing");
    let words = |w: &[&str]| w.iter().map(|s| (*s).to_string()).collect::<Vec<_>>();
    vec![
        words(&[
            "perft",
            "--variant",
            "international",
            "--depth",
            "3",
            "--divide",
        ]),
        words(&["draughts", "moves"]),
        words(&["draughts", "moves", "--json", "--variant", "brazilian"]),
        vec![
            "convert".into(),
            mat.to_string_lossy().into_owned(),
            "--to".into(),
            "json".into(),
        ],
        vec![
            "draughts".into(),
            "replay".into(),
            pdn.to_string_lossy().into_owned(),
        ],
    ]
}

/// A pipe whose reading end is already closed: every write to the other end fails with
/// EPIPE (or raises SIGPIPE), whatever the timing.
fn widowed_pipe() -> OwnedFd {
    let mut fds = [0; 2];
    // SAFETY: `pipe` writes two new descriptors into the array we own; each is then owned
    // exactly once.
    let rc = unsafe { libc::pipe(fds.as_mut_ptr()) };
    assert_eq!(rc, 0, "pipe: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just created and are owned by nobody else.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    write
}

fn check(args: &[String], status: ExitStatus, stderr: &str) {
    assert!(
        !stderr.contains("panicked"),
        "tablier {}: panicked on a closed pipe: {stderr}",
        args.join(" ")
    );
    assert_ne!(
        status.code(),
        Some(101),
        "tablier {}: exit 101: {stderr}",
        args.join(" ")
    );
}

#[test]
fn a_reader_gone_before_the_first_line_ends_the_command_quietly() {
    for args in commands() {
        let out = Command::new(env!("CARGO_BIN_EXE_tablier"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::from(widowed_pipe()))
            .stderr(Stdio::piped())
            .output()
            .expect("run tablier");
        check(&args, out.status, &String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn a_reader_gone_after_a_few_bytes_ends_the_command_quietly() {
    for args in commands() {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tablier"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run tablier");
        let mut stdout = child.stdout.take().expect("piped stdout");
        let mut first = [0u8; 10];
        stdout
            .read_exact(&mut first)
            .expect("a few bytes of output");
        drop(stdout);
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .expect("piped stderr")
            .read_to_string(&mut stderr)
            .expect("stderr");
        let status = child.wait().expect("wait");
        check(&args, status, &stderr);
    }
}
