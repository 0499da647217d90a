//! Browser tests in a real Chromium (Debian `chromium` + `chromium-driver`), driven with
//! fantoccini: for each family a person's game is played through clicks on the web UI, from
//! the home page's form to the game's end, against the engine (level 0, or 1 for backgammon,
//! whose level 0 would offer to resign at random). Screenshots (start,
//! middle, end) go to `target/screenshots/`. Draughts moves are made by click-click and by
//! drag; the path chooser, a dropped connection and the spectator view are checked too.
//!
//! The test fails, loudly, when chromium or chromedriver is missing (set `CHROMIUM` and
//! `CHROMEDRIVER` to use other paths).

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};

fn chromium() -> String {
    std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into())
}

fn chromedriver() -> String {
    std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into())
}

fn screenshots_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
    std::fs::create_dir_all(&dir).expect("create target/screenshots");
    dir
}

/// A fresh folder named `tablier-{tag}-{pid}-…`, removed when dropped.
fn temp_dir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("tablier-{tag}-{}-", std::process::id()))
        .tempdir()
        .unwrap()
}

/// Chromedriver, killed when dropped, with the browser it started (which a failed test
/// would otherwise leave running: it is found by its profile folder, named after this
/// process), and the browser's profile folders removed.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
        let _ = Command::new("pkill")
            .arg("-f")
            .arg(format!("tablier-chromium-{}-", std::process::id()))
            .status();
        let ours = format!("tablier-chromium-{}-", std::process::id());
        if let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) {
            for e in entries.flatten() {
                if e.file_name().to_string_lossy().starts_with(&ours) {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn start_driver() -> (Driver, u16) {
    for path in [chromium(), chromedriver()] {
        assert!(
            std::path::Path::new(&path).exists(),
            "{path} is missing: the browser tests need Debian's chromium and chromium-driver \
             (apt-get install chromium chromium-driver)"
        );
    }
    let port = free_port();
    let child = Command::new(chromedriver())
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let driver = Driver(child);
    let deadline = Instant::now() + Duration::from_secs(20);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            Instant::now() < deadline,
            "chromedriver did not listen on port {port}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    (driver, port)
}

async fn start_server() -> String {
    let dir = temp_dir("db");
    let url = format!("sqlite://{}/t.sqlite", dir.path().display());
    let store = tablier_server::store::Store::open(&url)
        .await
        .expect("open store");
    let hub = tablier_server::Hub::new(store).await.expect("hub");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        // The database's folder lives as long as the server (until the test's runtime ends).
        let _dir = dir;
        axum::serve(listener, tablier_server::router(hub))
            .await
            .unwrap();
    });
    format!("http://{addr}")
}

async fn browser(port: u16) -> Client {
    // Kept until the driver is dropped (chromium writes to it until then), which removes it.
    let profile = temp_dir("chromium").keep();
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": chromium(),
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--window-size=1360,900",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    ClientBuilder::new(HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("connect to chromedriver")
}

async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![])
        .await
        .unwrap_or_else(|e| panic!("script {script:?}: {e}"))
}

/// The page's current state (`window.tablier.state`) and seat.
async fn state(c: &Client) -> (Value, Value) {
    let v = js(
        c,
        "const t = window.tablier; return t && t.state ? [t.state, t.you] : null",
    )
    .await;
    match v {
        Value::Array(a) => (a[0].clone(), a[1].clone()),
        _ => (Value::Null, Value::Null),
    }
}

async fn shot(c: &Client, name: &str) {
    // Let the dice animation (0.35 s) finish.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(screenshots_dir().join(format!("{name}.png")), png).expect("write screenshot");
}

async fn click(c: &Client, css: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match c.find(Locator::Css(css)).await {
            Ok(e) => match e.click().await {
                Ok(_) => return,
                Err(err) if Instant::now() > deadline => panic!("click {css}: {err}"),
                Err(_) => {}
            },
            Err(err) if Instant::now() > deadline => panic!("find {css}: {err}"),
            Err(_) => {}
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Clicks `css` if it is there (the page may have acted by itself, as when it passes).
async fn try_click(c: &Client, css: &str) {
    if let Ok(e) = c.find(Locator::Css(css)).await {
        let _ = e.click().await;
    }
}

async fn exists(c: &Client, css: &str) -> bool {
    js(
        c,
        &format!("return !!document.querySelector({})", json!(css)),
    )
    .await
        == json!(true)
}

/// Fills the home page's form for a game against the engine at level 0 and starts it.
async fn start_game(c: &Client, base: &str, family: &str, setup: &str, level: u8) {
    c.goto(&format!("{base}/")).await.unwrap();
    click(c, &format!("[data-family={family}]")).await;
    js(c, setup).await;
    click(c, "input[name=opp][value=engine]").await;
    js(
        c,
        &format!("document.getElementById('level').value = '{level}'"),
    )
    .await;
    click(c, "#create").await;
    game_page_opens(c).await;
}

/// Waits until a seat's game page has opened (its address carries the token) and shows
/// the game; returns its state and seat.
async fn game_page_opens(c: &Client) -> (Value, Value) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let url = c.current_url().await.unwrap();
        if url.path().starts_with("/g/") && url.fragment().is_some_and(|f| f.starts_with("t=")) {
            break;
        }
        assert!(Instant::now() < deadline, "the game page did not open");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    wait_state(c, |s, _| !s.is_null()).await
}

/// Waits until `f(state, you)` holds.
async fn wait_state(c: &Client, f: impl Fn(&Value, &Value) -> bool) -> (Value, Value) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (s, you) = state(c).await;
        if f(&s, &you) {
            return (s, you);
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting; last state: {s}"
        );
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

/// Waits for the game to move on from version `v`; returns the new state and seat.
async fn wait_after(c: &Client, v: &Value) -> (Value, Value) {
    let v = v.as_u64().unwrap();
    let toast = wait_state(c, |s, _| s["v"].as_u64().is_some_and(|x| x > v)).await;
    toast
}

/// Waits until the game is over or it is the person's turn.
async fn my_turn(c: &Client) -> (Value, Value) {
    wait_state(c, |s, you| {
        !s["result"].is_null() || (!s.is_null() && s["actor"] == *you)
    })
    .await
}

fn pick(n: usize, seed: u64) -> usize {
    (seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407)
        >> 33) as usize
        % n
}

/// Waits until `script` returns true.
async fn until(c: &Client, script: &str) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while js(c, script).await != json!(true) {
        assert!(Instant::now() < deadline, "timed out waiting for {script}");
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

/// Looking back during the game (issue 19): ◀ shows the position before the last action
/// (the server's), on a board that takes no action; Home shows the start; the game goes on
/// meanwhile; "Back to the game" returns to the live position.
async fn look_back(c: &Client) {
    let (s, _) = my_turn(c).await;
    if !s["result"].is_null() {
        return;
    }
    let board = "return document.getElementById('board').innerHTML";
    let live = js(c, board).await;
    click(c, "#nav-prev").await;
    until(c, "return window.tablier.browse !== null").await;
    assert!(exists(c, "#browsing").await);
    assert_ne!(js(c, board).await, live, "an earlier position is drawn");
    let (shown, count) = {
        let v = js(c, "return [tablier.browse, tablier.positions.length]").await;
        (v[0].as_u64().unwrap(), v[1].as_u64().unwrap())
    };
    assert_eq!(shown + 2, count, "one step before the live position");
    let last = js(c, "return tablier.positions[tablier.positions.length - 1]").await;
    assert_eq!(
        last["view"], s["view"],
        "the server's last position is the live one"
    );
    js(
        c,
        "document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Home'}))",
    )
    .await;
    until(c, "return window.tablier.browse === 0").await;
    let start = js(c, "return tablier.positions[0]").await;
    assert_eq!(
        (start["n"].clone(), start["action"].clone()),
        (json!(0), json!(""))
    );
    assert!(status_text(c).await.contains("the start"));
    shot(c, "draughts-looking-back").await;
    // The board looked at takes no action.
    for sq in ["rect[data-sq='9']", "rect[data-sq='13']"] {
        try_click(c, sq).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (now, _) = state(c).await;
    assert_eq!(now["v"], s["v"], "nothing was played while looking back");
    click(c, "#back-live").await;
    until(c, "return window.tablier.browse === null").await;
    assert!(!exists(c, "#browsing").await);
    assert_eq!(js(c, board).await, live, "the live position again");
    // A click on the first move of the list shows the position after it.
    click(c, "#moves [data-n]").await;
    until(c, "return window.tablier.browse !== null").await;
    let (i, n, first) = {
        let v = js(
            c,
            "return [tablier.browse, tablier.positions[tablier.browse].n, +document.querySelector('#moves [data-n]').dataset.n]",
        )
        .await;
        (v[0].clone(), v[1].clone(), v[2].clone())
    };
    assert_eq!(
        (i, n),
        (json!(1), first),
        "the position after the first move"
    );
    js(
        c,
        "document.dispatchEvent(new KeyboardEvent('keydown', {key: 'End'}))",
    )
    .await;
    until(c, "return window.tablier.browse === null").await;
}

async fn draughts(c: &Client, base: &str) -> usize {
    start_game(
        c,
        base,
        "draughts",
        "document.getElementById('variant').value = 'english'",
        0,
    )
    .await;
    shot(c, "draughts-start").await;
    // Move sounds are off until the player turns them on.
    assert_eq!(
        js(c, "return document.getElementById('sound').checked").await,
        json!(false)
    );
    click(c, "#sound").await;
    let mut moves = 0;
    loop {
        let (s, _) = my_turn(c).await;
        if !s["result"].is_null() {
            break;
        }
        let legal = s["view"]["legal"].as_array().unwrap();
        let m = &legal[pick(legal.len(), s["v"].as_u64().unwrap())];
        let path: Vec<u64> = m["path"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        let start = path[0];
        let end = *path.last().unwrap();
        if moves % 3 == 0 {
            drag(c, start, end).await;
        } else {
            click(c, &format!("rect[data-sq='{start}']")).await;
            click(c, &format!("rect[data-sq='{end}']")).await;
        }
        // Two legal moves with the same start and end: the path chooser.
        if exists(c, "#controls [data-move]").await {
            let via: Vec<u64> = path[1..path.len() - 1].to_vec();
            let mut chosen = false;
            for sq in via {
                if exists(c, &format!("rect[data-via='{sq}']")).await {
                    click(c, &format!("rect[data-sq='{sq}']")).await;
                    chosen = true;
                    break;
                }
            }
            if !chosen || exists(c, "#controls [data-move]").await {
                let notation = m["notation"].as_str().unwrap();
                click(c, &format!("#controls [data-move='{notation}']")).await;
            }
        }
        wait_after(c, &s["v"]).await;
        moves += 1;
        if moves == 4 {
            look_back(c).await;
        }
        if moves == 5 {
            // The engine's moves slid into place, and each made its sound.
            let (animations, sounds) = (
                js(c, "return window.tablier.animations || 0").await,
                js(c, "return window.tablier.sounds || 0").await,
            );
            println!("draughts: {animations} moves animated, {sounds} sounds");
            assert!(animations.as_u64().unwrap() > 0, "no move animated");
            assert!(sounds.as_u64().unwrap() > 0, "no sound");
        }
        if moves == 2 {
            // A draw offer: the engine answers it at once (it declines a level position), and
            // the button is offered again.
            let (s, _) = my_turn(c).await;
            if s["result"].is_null() {
                click(c, "#draw").await;
                let (after, _) = wait_state(c, |s, _| {
                    s["log"].as_array().and_then(|l| l.last()).is_some_and(|a| {
                        a["action"] == "!draw-decline" || a["action"] == "!draw-accept"
                    })
                })
                .await;
                if after["result"].is_null() {
                    assert!(after["draw_offer"].is_null());
                    assert!(exists(c, "#draw:not([disabled])").await);
                }
            }
        }
        if moves == 3 {
            // A takeback: the engine grants it at once; the last move of each side goes, the
            // move list no longer shows them, and it is this side's turn again.
            let (s, _) = my_turn(c).await;
            if s["result"].is_null() {
                let rows_before = js(
                    c,
                    "return document.querySelectorAll('#moves span[data-n]').length",
                )
                .await;
                click(c, "#takeback").await;
                let (after, _) = wait_state(c, |s, _| {
                    s["log"]
                        .as_array()
                        .and_then(|l| l.last())
                        .is_some_and(|a| a["action"] == "!takeback-accept")
                })
                .await;
                assert!(!after["undone"].as_array().unwrap().is_empty());
                let rows_after = js(
                    c,
                    "return document.querySelectorAll('#moves span[data-n]').length",
                )
                .await;
                assert!(
                    rows_after.as_u64() < rows_before.as_u64(),
                    "{rows_before} moves listed before, {rows_after} after"
                );
                shot(c, "draughts-takeback").await;
            }
        }
        if moves == 5 {
            // The connection drops: the page reconnects with its last version and goes on.
            js(c, "window.tablier.socket.ws.close()").await;
            let deadline = Instant::now() + Duration::from_secs(10);
            loop {
                let conn = js(c, "return document.getElementById('conn').textContent").await;
                let ws = js(c, "return window.tablier.socket.ws.readyState").await;
                if ws == json!(1)
                    && conn
                        .as_str()
                        .is_some_and(|t| t.starts_with("lag") || t == "connected")
                {
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "the page did not reconnect: {conn}"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        if moves == 12 {
            shot(c, "draughts-middle").await;
        }
        assert!(moves < 400, "the draughts game does not end");
    }
    shot(c, "draughts-end").await;
    moves
}

/// The result banner says the game the way it ended for this person: won, lost or drawn.
async fn banner_matches(c: &Client, name: &str) {
    let (s, you) = state(c).await;
    let winner = s["result"]["winner"].as_str().map(str::to_lowercase);
    let mine = match (winner, you.as_str()) {
        (None, _) => "draw",
        (Some(w), Some(y)) if w == y => "won",
        _ => "lost",
    };
    assert!(
        exists(c, &format!("#result[data-mine={mine}]")).await,
        "{name}: the banner should say {mine}: {}",
        s["result"]
    );
}

/// The finished game's review page: the link on the game page opens it, the engine's graph
/// and the list of positions appear, and clicking a position shows it.
async fn review(c: &Client, name: &str) {
    let t = Instant::now();
    let banner = "return document.getElementById('result').textContent";
    let on_game_page = js(c, banner).await;
    click(c, "#review-link").await;
    let deadline = Instant::now() + Duration::from_secs(120);
    while js(c, "return window.tablier && window.tablier.ready === true").await != json!(true) {
        let err = js(
            c,
            "return document.getElementById('graph')?.textContent || ''",
        )
        .await;
        assert!(
            Instant::now() < deadline,
            "the review of {name} did not open: {err}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    if name == "backgammon" {
        // The review says how the game ended in the family's words, as the game page did
        // (single, gammon or backgammon, its points with the cube).
        let on_review = js(c, banner).await;
        assert_eq!(on_review, on_game_page, "the review's banner");
        assert!(on_review.as_str().unwrap().contains("point"), "{on_review}");
    }
    assert!(
        exists(c, "svg.evalgraph path.g-line").await,
        "{name}: no graph"
    );
    let rows = js(c, "return document.querySelectorAll('#moves tr').length").await;
    let positions = js(c, "return window.tablier.review.positions.length").await;
    assert_eq!(rows, positions);
    assert!(
        positions.as_u64().unwrap() > 2,
        "{name}: {positions} positions"
    );
    // The moves the engine judged worse than its best carry ? or ??, each side's count is
    // shown, and a marked move names the best one.
    let marks = js(c, "return document.getElementById('marks').textContent").await;
    assert!(
        marks.as_str().unwrap().contains("White:") && marks.as_str().unwrap().contains("blunder"),
        "{name}: {marks}"
    );
    let judged = js(
        c,
        "return window.tablier.review.positions.filter(p => p.loss !== undefined).length",
    )
    .await;
    assert!(judged.as_u64().unwrap() > 0, "{name}: no move judged");
    let worse = js(
        c,
        "return window.tablier.review.positions.findIndex(p => p.best !== undefined)",
    )
    .await;
    if let Some(i) = worse.as_i64().filter(|&i| i > 0) {
        click(c, &format!("#moves tr[data-i='{i}']")).await;
        let now = js(c, "return document.getElementById('now').textContent").await;
        assert!(now.as_str().unwrap().contains("best was"), "{name}: {now}");
    }
    println!("{name}: {marks} ({judged} moves judged)");
    click(c, "#moves tr[data-i='1']").await;
    assert_eq!(js(c, "return window.tablier.at").await, json!(1));
    click(c, "#last").await;
    println!(
        "{name}: review of {positions} positions in {:.1?}",
        t.elapsed()
    );
    shot(c, &format!("{name}-review")).await;
    // Back to the game page.
    click(c, "#back").await;
    while js(
        c,
        "return !!(window.tablier && window.tablier.socket && window.tablier.state)",
    )
    .await
        != json!(true)
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Drags the piece on square `from` to square `to` with the mouse.
async fn drag(c: &Client, from: u64, to: u64) {
    drag_between(
        c,
        &format!("rect[data-sq='{from}']"),
        &format!("rect[data-sq='{to}']"),
    )
    .await;
}

/// Drags the mouse from the centre of the element `from` to that of `to` (CSS selectors).
async fn drag_between(c: &Client, from: &str, to: &str) {
    // Viewport coordinates (the board is redrawn under the pointer, so no element handles).
    let centre = |css: &str| {
        format!(
            "const r = document.querySelector({}).getBoundingClientRect(); \
             return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)]",
            json!(css)
        )
    };
    let a = js(c, &centre(from)).await;
    let b = js(c, &centre(to)).await;
    let at = |v: &Value, i: usize| v[i].as_i64().unwrap();
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo {
            duration: None,
            x: at(&a, 0),
            y: at(&a, 1),
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(120)),
            x: (at(&a, 0) + at(&b, 0)) / 2,
            y: (at(&a, 1) + at(&b, 1)) / 2,
        })
        .then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(120)),
            x: at(&b, 0),
            y: at(&b, 1),
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    c.perform_actions(mouse).await.expect("drag");
}

/// Auto-roll (issue 19): without a cube there is nothing to decide before the roll, so the
/// page throws the dice by itself; turned off, it waits for the button.
async fn auto_roll(c: &Client, base: &str) {
    start_game(
        c,
        base,
        "backgammon",
        "document.getElementById('match').value = '0'; document.getElementById('match').dispatchEvent(new Event('change')); document.getElementById('cube').checked = false",
        1,
    )
    .await;
    // The person's first turn before the roll (after his opening play, if he won the opening
    // throw): the page rolls without a click. Turned off (kept in this browser), the next roll
    // waits for the button.
    let mut auto = true;
    loop {
        let (s, you) = my_turn(c).await;
        assert!(s["result"].is_null());
        let legal = s["legal"].as_array().unwrap().clone();
        let v = s["v"].clone();
        if legal.contains(&json!("roll")) {
            assert!(!legal.contains(&json!("double")));
            if auto {
                let (after, _) = wait_after(c, &v).await;
                let me = you.as_str().unwrap();
                assert!(
                    after["log"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|a| a["side"] == me && a["action"] == "roll"),
                    "the page rolled: {}",
                    after["log"]
                );
                click(c, "#bg-autoroll").await;
                assert_eq!(
                    js(c, "return localStorage.getItem('tablier:autoroll')").await,
                    json!("off")
                );
                auto = false;
                continue;
            }
            tokio::time::sleep(Duration::from_millis(1500)).await;
            let (now, _) = state(c).await;
            assert_eq!(now["v"], v, "no roll by itself when turned off");
            click(c, "#bg-roll").await;
            wait_after(c, &v).await;
            break;
        }
        // The play: the first legal one, hop by hop, then End turn (or the pass).
        if legal.contains(&json!("-")) {
            try_click(c, "#bg-pass").await;
        } else {
            let actions = s["view"]["actions"].as_array().unwrap();
            let a = actions
                .iter()
                .find(|a| !a["hops"].as_array().unwrap().is_empty())
                .cloned()
                .unwrap();
            let playable = actions
                .iter()
                .filter(|a| !a["hops"].as_array().unwrap().is_empty())
                .count();
            if playable > 1 {
                play_hops(c, a["hops"].as_array().unwrap()).await;
            }
            click(c, "#bg-end").await;
        }
        wait_after(c, &v).await;
    }
    js(c, "localStorage.removeItem('tablier:autoroll')").await;
}

async fn backgammon(c: &Client, base: &str) -> usize {
    start_game(
        c,
        base,
        "backgammon",
        "document.getElementById('match').value = '0'; document.getElementById('match').dispatchEvent(new Event('change'))",
        // Level 0 plays at random, resignation offers included; level 1 never resigns.
        1,
    )
    .await;
    shot(c, "backgammon-start").await;
    let mut turns = 0;
    let mut dragged = false;
    let mut auto_rolled = 0;
    loop {
        let (s, _) = my_turn(c).await;
        if !s["result"].is_null() {
            break;
        }
        let legal = legal_of(&s);
        let v = &s["v"];
        if legal.contains(&"roll") && !legal.contains(&"double") {
            // Auto-roll (on by default): nothing to decide before the roll, the page throws.
            assert!(exists(c, "#bg-autoroll:checked").await);
            wait_after(c, v).await;
            auto_rolled += 1;
        } else if legal.contains(&"roll") {
            click(c, "#bg-roll").await;
        } else if legal.contains(&"take") {
            click(c, "#bg-take").await;
        } else if legal.contains(&"reject") {
            click(c, "#bg-reject").await;
        } else if legal.contains(&"-") && !has_play(&s) {
            // The page passes by itself after a moment; a click is quicker.
            try_click(c, "#bg-pass").await;
        } else {
            let actions: Vec<&Value> = s["view"]["actions"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|a| !a["hops"].as_array().unwrap().is_empty())
                .collect();
            assert!(!actions.is_empty(), "nothing to do in {s}");
            if turns == 2 {
                resign_choice(c).await;
            }
            let a = actions[pick(actions.len(), v.as_u64().unwrap())];
            if actions.len() == 1 {
                // A forced play is laid out by the page: the person only confirms it.
            } else {
                if turns == 1 {
                    // A hop, taken back with "undo".
                    play_hops(c, &a["hops"].as_array().unwrap()[..1]).await;
                    assert!(exists(c, "#bg-undo:not([disabled])").await);
                    click(c, "#bg-undo").await;
                    assert!(
                        exists(c, "#bg-undo[disabled]").await,
                        "undo takes the hop back"
                    );
                }
                let hops = a["hops"].as_array().unwrap();
                if turns >= 3 && !dragged {
                    // The first hop dragged, from its point to its destination.
                    dragged = true;
                    let (from, to) = (hops[0][0].as_u64().unwrap(), hops[0][1].as_u64().unwrap());
                    drag_between(
                        c,
                        &format!("rect.hit[data-mp='{from}']"),
                        &format!("rect.hit[data-mp='{to}']"),
                    )
                    .await;
                    assert!(
                        exists(c, "#bg-undo:not([disabled])").await,
                        "the dragged checker made its hop"
                    );
                    play_hops(c, &hops[1..]).await;
                } else {
                    play_hops(c, hops).await;
                }
            }
            assert!(
                exists(c, "#bg-end:not([disabled])").await,
                "a whole play is laid out"
            );
            let label = js(c, "return document.getElementById('bg-end').textContent").await;
            assert!(
                label.as_str().unwrap().starts_with("End turn: "),
                "end turn shows {label}"
            );
            click(c, "#bg-end").await;
            turns += 1;
            if turns == 6 {
                wait_after(c, v).await;
                shot(c, "backgammon-middle").await;
                // The engine's checkers slid from their points to where it played them.
                let animations = js(c, "return window.tablier.animations || 0").await;
                println!("backgammon: {animations} positions animated");
                assert!(animations.as_u64().unwrap() > 0, "no checker slid");
                continue;
            }
        }
        wait_after(c, v).await;
        assert!(turns < 300, "the backgammon game does not end");
    }
    shot(c, "backgammon-end").await;
    assert!(dragged || turns < 6, "a checker was dragged");
    println!("backgammon: the page rolled by itself {auto_rolled} times");
    turns
}

/// Resigning takes two clicks: "Resign…" opens the choice (single, gammon, backgammon with
/// their points, explained), and Cancel closes it with nothing sent.
async fn resign_choice(c: &Client) {
    let (before, _) = state(c).await;
    assert!(exists(c, "#bg-resign").await, "one resign button");
    assert!(
        !exists(c, "[data-resign]").await,
        "no resignation one click away"
    );
    click(c, "#bg-resign").await;
    let labels = js(
        c,
        "return [...document.querySelectorAll('[data-resign]')].map((b) => b.textContent)",
    )
    .await;
    let labels: Vec<&str> = labels
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(labels.len(), 3, "{labels:?}");
    assert!(
        labels[0].starts_with("Resign a single game (")
            && labels.iter().all(|l| l.contains("point")),
        "{labels:?}"
    );
    let help = js(
        c,
        "return document.getElementById('bg-resign-choice').textContent",
    )
    .await;
    assert!(
        help.as_str().unwrap().contains("accepts"),
        "the choice is explained: {help}"
    );
    shot(c, "backgammon-resign-choice").await;
    click(c, "#bg-resign-cancel").await;
    assert!(!exists(c, "[data-resign]").await);
    let (after, _) = state(c).await;
    assert_eq!(before["v"], after["v"], "nothing was sent");
}

/// The backgammon page's texts, from its own module in the browser: a match's winner is
/// named with his score first, and a tied opening throw is the same game thrown again (not
/// "Game 2").
async fn backgammon_texts(c: &Client) {
    let v = js_async(
        c,
        "const m = await import('/static/js/backgammon.js'); \
         const over = {result: {winner: 'Black', reason: 'rules'}, log: [], view: {options: \
         {match_length: 3}, score: [0, 3], results: [{kind: 'Single', winner: 'Black', \
         points: 1}]}}; \
         const log = [{side: '', action: 'opening 2-2'}, {side: '', action: 'opening 3-1'}, \
         {side: 'white', action: '8/5 6/5'}]; \
         const rows = m.moveRows({log, view: {options: {match_length: 0}}}); \
         return [m.resultText(over), rows.map((r) => r.cells.join(' ')).join(' | ')];",
    )
    .await;
    let result = v[0].as_str().unwrap();
    assert!(result.starts_with("Black wins the match 3–0"), "{result}");
    let rows = v[1].as_str().unwrap();
    assert!(!rows.contains("Game"), "{rows}");
    assert!(rows.contains("a tie, thrown again"), "{rows}");
    assert!(
        rows.contains(">31<"),
        "the play has the second throw's dice: {rows}"
    );
}

fn has_play(s: &Value) -> bool {
    s["view"]["actions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| !a["hops"].as_array().unwrap().is_empty())
}

/// Clicks each hop's start and, unless the board moved the checker at once (a single
/// destination), its end.
async fn play_hops(c: &Client, hops: &[Value]) {
    for h in hops {
        let (from, to) = (h[0].as_u64().unwrap(), h[1].as_u64().unwrap());
        click(c, &format!("[data-mp='{from}']")).await;
        if exists(c, "[data-dest]").await {
            click(c, &format!("[data-dest='{to}']")).await;
        }
    }
}

/// A trictrac play's hops: each dame's path cut into steps.
fn hops_of(a: &Value) -> Vec<Value> {
    a["paths"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| {
            let p = p.as_array().unwrap().clone();
            (1..p.len()).map(move |i| json!([p[i - 1], p[i]]))
        })
        .collect()
}

async fn trictrac(c: &Client, base: &str) -> usize {
    start_game(c, base, "trictrac", "", 0).await;
    shot(c, "trictrac-start").await;
    let mut turns = 0;
    let mut shot_middle = false;
    loop {
        let (s, _) = my_turn(c).await;
        if !s["result"].is_null() {
            break;
        }
        let v = &s["v"];
        if trictrac_turn(c, &s).await {
            turns += 1;
        }
        wait_after(c, v).await;
        let holes = s["view"]["marker"]["holes"].as_array().unwrap();
        if !shot_middle && holes.iter().any(|h| h.as_u64().unwrap() >= 4) {
            shot(c, "trictrac-middle").await;
            shot_middle = true;
            // The engine's dames slid from their flèches to where it played them.
            let animations = js(c, "return window.tablier.animations || 0").await;
            println!("trictrac: {animations} positions animated");
            assert!(animations.as_u64().unwrap() > 0, "no dame slid");
            // The move list writes each throw's jans with their points in the row of its
            // play, and the roll box keeps the previous throw in view.
            let jans = js(
                c,
                "return [...document.querySelectorAll('[data-jans]')].map(e => e.textContent)",
            )
            .await;
            let jans: Vec<&str> = jans
                .as_array()
                .unwrap()
                .iter()
                .map(|j| j.as_str().unwrap())
                .collect();
            assert!(jans.len() > 3, "{jans:?}");
            assert!(
                jans.iter()
                    .all(|j| j.starts_with('+') && (j.contains("white") || j.contains("black"))),
                "{jans:?}"
            );
            let previous = js(
                c,
                "const e = document.querySelector('[data-previous-throw]'); return e ? e.textContent : ''",
            )
            .await;
            assert!(
                previous.as_str().unwrap().starts_with("Previous throw ("),
                "{previous}"
            );
        }
        assert!(turns < 2000, "the trictrac partie does not end");
    }
    shot(c, "trictrac-end").await;
    turns
}

/// A finished game's "Download the game" link, as the browser follows it: the record is saved
/// under `tablier-ID-YYYY-MM-DD.EXT` and holds `header` (the PDN's result, never `*`; the
/// .mat's players).
async fn download_record(c: &Client, ext: &str, header: &str) {
    let got = js_async(
        c,
        "const a = [...document.querySelectorAll('a[download]')].find(a => a.href.endsWith('/export'));          const r = await fetch(a.href);          return [tablier.id, r.headers.get('content-disposition') || '', await r.text()]",
    )
    .await;
    let (id, disposition, text) = (
        got[0].as_str().unwrap(),
        got[1].as_str().unwrap(),
        got[2].as_str().unwrap(),
    );
    let name = format!("attachment; filename=\"tablier-{id}-");
    assert!(
        disposition.starts_with(&name) && disposition.ends_with(&format!(".{ext}\"")),
        "{disposition}"
    );
    assert!(text.contains(header), "{ext}: {text}");
    assert!(
        !text.contains("[Result \"*\"]"),
        "a finished game's result: {text}"
    );
}

/// The legal actions of a state, as the seat writes them.
fn legal_of(s: &Value) -> Vec<&str> {
    s["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect()
}

/// The legal plays of a trictrac state (the actions that move dames).
fn trictrac_plays(s: &Value) -> Vec<&Value> {
    s["view"]["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| !a["paths"].as_array().unwrap().is_empty())
        .collect()
}

/// One turn of trictrac through the page, in state `s`: a play chosen by the seed of the
/// version, or go (else pass, else stay, else the first legal action). True for a play.
async fn trictrac_turn(c: &Client, s: &Value) -> bool {
    let v = &s["v"];
    let plays = trictrac_plays(s);
    if !plays.is_empty() {
        let a = plays[pick(plays.len(), v.as_u64().unwrap())];
        // A forced play is laid out by the page: the person only confirms it.
        if plays.len() > 1 {
            play_hops(c, &hops_of(a)).await;
        }
        click(c, "#tt-end").await;
        return true;
    }
    let legal = legal_of(s);
    let choice = ["go", "pass", "stay"]
        .into_iter()
        .find(|t| legal.contains(t))
        .unwrap_or(legal[0]);
    if choice == "pass" {
        // The page passes by itself after a moment; a click is quicker.
        try_click(c, "#controls [data-act='pass']").await;
    } else {
        click(c, &format!("#controls [data-act='{choice}']")).await;
    }
    false
}

/// A few turns of trictrac in the écoles mode: the person marks his points with the buttons.
async fn trictrac_ecoles(c: &Client, base: &str) -> usize {
    start_game(
        c,
        base,
        "trictrac",
        "document.querySelector('input[name=marking][value=ecoles]').click()",
        0,
    )
    .await;
    let (s, _) = state(c).await;
    assert_eq!(s["spec"]["ecoles"], json!(true));
    let mut acts = 0;
    let mut marked = false;
    let mut summaries = 0;
    while acts < 5 || (summaries == 0 && acts < 16) {
        let (s, _) = my_turn(c).await;
        if !s["result"].is_null() {
            break;
        }
        // Once a throw's marking and claims are over (its points no longer hidden), what it
        // gave each player, what each marked and what was claimed are shown.
        if exists(c, "[data-previous-throw]").await && !exists(c, "[data-hidden-points]").await {
            let summary = js(
                c,
                "const e = document.querySelector('[data-ecole-summary]'); return e ? e.textContent : ''",
            )
            .await;
            let summary = summary.as_str().unwrap();
            assert!(
                summary.contains("due") && summary.contains("White:"),
                "no écoles summary: {summary:?}"
            );
            summaries += 1;
        }
        let v = &s["v"];
        let plays = trictrac_plays(&s);
        if let Some(a) = plays.first() {
            if plays.len() > 1 {
                play_hops(c, &hops_of(a)).await;
            }
            click(c, "#tt-end").await;
        } else {
            let legal = legal_of(&s);
            marked |= legal.iter().any(|t| t.starts_with("mark "));
            // Nothing on the page gives the points away before they are marked.
            let phase = s["view"]["phase"].to_string();
            if phase.contains("Mark") || phase.contains("Claim") {
                assert!(!exists(c, "[data-event]").await, "{phase}: points shown");
                assert!(
                    !exists(c, "[data-ecole]").await,
                    "{phase}: wrong marks shown"
                );
                assert!(exists(c, "[data-hidden-points]").await, "{phase}");
            }
            // Mark what the buttons offer; otherwise answer with a word (decline, go, ...)
            // rather than claim an école.
            // One list of numbers at most (marking, warning and claiming share it), and the
            // warning explained wherever it is offered.
            let controls = js(
                c,
                "return [document.querySelectorAll('#controls select').length, \
                 !!document.querySelector('#controls [data-act^=warn], #controls [data-act-group=warn]'), \
                 !!document.querySelector('#controls [data-warn-help]')]",
            )
            .await;
            assert!(controls[0].as_u64().unwrap() <= 1, "{controls}");
            assert_eq!(
                controls[1], controls[2],
                "warning without its help: {controls}"
            );
            if exists(c, "#controls [data-act-group=mark]").await {
                click(c, "#controls [data-act-group=mark]").await;
            } else if exists(c, "#controls [data-act^=mark]").await {
                click(c, "#controls [data-act^=mark]").await;
            } else if exists(c, "#controls [data-act]").await {
                click(c, "#controls [data-act]").await;
            } else {
                click(c, "#controls [data-act-group]").await;
            }
        }
        wait_after(c, v).await;
        acts += 1;
    }
    assert!(marked, "the person was never asked to mark points");
    println!("trictrac (écoles): {summaries} summaries of a previous throw checked");
    // Marks are folded into their turn's row: no cell of the move list is a mark alone.
    let alone = js(
        c,
        "return [...document.querySelectorAll('#moves td')].map((t) => t.textContent.trim()) \
         .filter((t) => /^mark \\d+$/.test(t))",
    )
    .await;
    assert_eq!(alone, json!([]), "marks in rows of their own");
    assert!(
        exists(c, "#moves [data-said]").await || {
            let l = js(c, "return document.getElementById('moves').textContent").await;
            !l.as_str().unwrap().contains("mark")
        },
        "the marks are said in their turn's row"
    );
    let (s, _) = state(c).await;
    println!("trictrac (écoles): resigning = {}", s["result"].is_null());
    if s["result"].is_null() {
        // Resigning takes two clicks.
        click(c, "#resign").await;
        assert!(s["result"].is_null());
        click(c, "#resign").await;
        let (s, you) = wait_state(c, |s, _| !s["result"].is_null()).await;
        assert_eq!(s["result"]["reason"], json!("resign"));
        assert_ne!(s["result"]["winner"], you);
        assert!(exists(c, "#result[data-mine=lost]").await);
    }
    shot(c, "trictrac-ecoles").await;
    // Over, nothing is hidden: where the page shows the previous throw, its summary is
    // there too (the loop above may have met no such moment in a short game; CI's run of
    // 2026-11-26 met none in 16 actions).
    if exists(c, "[data-previous-throw]").await {
        let summary = js(
            c,
            "const e = document.querySelector('[data-ecole-summary]'); return e ? e.textContent : ''",
        )
        .await;
        assert!(
            summary.as_str().unwrap().contains("due"),
            "no écoles summary at the end: {summary}"
        );
        summaries += 1;
    }
    println!("trictrac (écoles): {summaries} summaries checked in all");
    acts
}

/// The path chooser, on a made-up position (random games seldom have two captures with the
/// same start and end): the person picks the path by clicking a square it passes through.
async fn path_chooser(c: &Client) {
    js(
        c,
        r#"
        const t = window.tablier;
        const s = structuredClone(t.state);
        s.result = null; s.actor = t.you; s.v = 100000;
        const side = t.you === 'white' ? 'White' : 'Black';
        const them = side === 'White' ? 'Black' : 'White';
        s.view.pieces = [[28, side, true], [24, them, false], [15, them, false], [23, them, false], [14, them, false]];
        s.view.legal = [
            { notation: '28x19x10', path: [28, 19, 10], captured: [24, 15] },
            { notation: '28x17x10', path: [28, 17, 10], captured: [23, 14] },
        ];
        s.legal = s.view.legal.map((m) => m.notation);
        window.__acted = null;
        t.socket.act = (a) => { window.__acted = a; return Promise.resolve(); };
        t.state = s;
        t.board.render(s, t.you, t.flipped);
        "#,
    )
    .await;
    click(c, "rect[data-sq='28']").await;
    click(c, "rect[data-sq='10']").await;
    assert!(
        exists(c, "rect[data-via='17']").await,
        "the chooser marks the squares that tell the paths apart"
    );
    assert!(exists(c, "#controls [data-move='28x17x10']").await);
    click(c, "rect[data-sq='17']").await;
    assert_eq!(js(c, "return window.__acted").await, json!("28x17x10"));
}

/// The finished game seen through its spectator link: the result, no controls.
async fn spectate(c: &Client) {
    let url = c.current_url().await.unwrap();
    let mut watch = url.clone();
    watch.set_fragment(Some("watch"));
    c.goto(watch.as_str()).await.unwrap();
    c.refresh().await.unwrap();
    // The page before the reload still holds the path chooser's made-up state (version
    // 100000, no result) for a moment: wait for the server's own.
    let (s, you) = wait_state(c, |s, _| !s.is_null() && s["v"] != json!(100000)).await;
    assert!(you.is_null(), "a spectator has no seat");
    assert!(!s["result"].is_null());
    // The state may arrive a moment before the board's module has loaded and drawn it.
    let deadline = Instant::now() + Duration::from_secs(5);
    while exists(c, "#result.hidden").await {
        assert!(Instant::now() < deadline, "the result banner shows");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        exists(c, "#resign.hidden").await,
        "a spectator cannot resign"
    );
    let controls = js(
        c,
        "return document.getElementById('controls').children.length",
    )
    .await;
    assert_eq!(controls, json!(0), "a spectator has no controls");
    click(c, "#flip").await;
}

/// Runs `script` (an async function body) in the page and returns what it returns.
async fn js_async(c: &Client, script: &str) -> Value {
    let wrapped = format!(
        "const done = arguments[arguments.length - 1]; \
         (async () => {{ {script} }})().then(done, (e) => done({{error: String(e)}}));"
    );
    c.execute_async(&wrapped, vec![])
        .await
        .unwrap_or_else(|e| panic!("script {script:?}: {e}"))
}

/// A seat's action through the HTTP API, from the page.
async fn api_act(c: &Client, id: &str, token: &str, action: &str) {
    let v = js_async(
        c,
        &format!(
            "const r = await fetch('/api/games/{id}/act', {{method: 'POST', \
             headers: {{'content-type': 'application/json'}}, \
             body: JSON.stringify({{token: {token}, action: {action}}})}}); \
             return [r.status, await r.text()];",
            token = json!(token),
            action = json!(action)
        ),
    )
    .await;
    assert_eq!(v[0], json!(200), "{action}: {v}");
}

/// Opens game `id`'s page with a seat's token (from another page, so that it loads anew).
async fn open_seat(c: &Client, base: &str, id: &str, token: &str) {
    c.goto(&format!("{base}/static/favicon.svg")).await.unwrap();
    c.goto(&format!("{base}/g/{id}#t={token}")).await.unwrap();
    wait_state(c, |s, you| !s.is_null() && !you.is_null()).await;
}

async fn status_text(c: &Client) -> String {
    js(c, "return document.getElementById('status').textContent")
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The old French rules from the home page's list, and a huff as players see it: White
/// leaves a capture untaken (32-28 19-23 33-29: the man on 28 could take 23), Black's page
/// rings the man and offers "Souffler 28", "Obliger à prendre (28)" and "Laisser" (no
/// "you must capture": capturing is optional), Black huffs, and White's page says that his
/// man was huffed, with the huff inside Black's move in the move list.
async fn french_huff(c: &Client, base: &str) {
    c.goto(&format!("{base}/")).await.unwrap();
    assert!(
        exists(c, "#variant option[value=french-old]").await,
        "the old French rules are in the home page's list"
    );
    let created = js_async(
        c,
        "const r = await fetch('/api/games', {method: 'POST', \
         headers: {'content-type': 'application/json'}, body: JSON.stringify({family: \
         'draughts', variant: 'french-old', seats: [{kind: 'human'}, {kind: 'human'}]})}); \
         return await r.json();",
    )
    .await;
    let id = created["id"].as_str().expect("a game id").to_string();
    let white = created["tokens"][0].as_str().unwrap().to_string();
    let black = created["tokens"][1].as_str().unwrap().to_string();
    for (token, mv) in [(&white, "32-28"), (&black, "19-23"), (&white, "33-29")] {
        api_act(c, &id, token, mv).await;
    }
    open_seat(c, base, &id, &black).await;
    my_turn(c).await;
    let status = status_text(c).await;
    assert!(status.contains("you may huff"), "{status}");
    assert!(!status.contains("must capture"), "{status}");
    assert!(
        exists(c, "[data-huffable='28']").await,
        "the man on 28 is ringed"
    );
    let labels = js(
        c,
        "return [...document.querySelectorAll('#controls button')].map((b) => b.textContent)",
    )
    .await;
    assert_eq!(
        labels,
        json!(["Souffler 28", "Obliger à prendre (28)", "Laisser"]),
        "{labels}"
    );
    shot(c, "french-old-huff-offered").await;
    // "Laisser" puts the buttons away: the move is played on the board.
    click(c, "[data-move=laisser]").await;
    assert!(!exists(c, "[data-move=s28]").await);
    open_seat(c, base, &id, &black).await;
    let (s, _) = state(c).await;
    click(c, "[data-move=s28]").await;
    let (s, _) = wait_after(c, &s["v"]).await;
    let reply = s["view"]["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["kind"] == "move")
        .expect("a move after the huff")["notation"]
        .as_str()
        .unwrap()
        .to_string();
    api_act(c, &id, &black, &reply).await;
    open_seat(c, base, &id, &white).await;
    my_turn(c).await;
    let status = status_text(c).await;
    assert!(
        status.contains("huffed (a soufflé) your man on 28"),
        "{status}"
    );
    assert!(
        exists(c, "[data-huffed='28']").await,
        "a cross where the man was"
    );
    let moves = js(c, "return document.getElementById('moves').textContent").await;
    let moves = moves.as_str().unwrap();
    assert!(
        moves.contains(&format!("souffle 28 {reply}")),
        "the huff is part of Black's move: {moves}"
    );
    shot(c, "french-old-huffed").await;
}

/// On a phone (390x844): what the player reads first is above the board — the opponent,
/// whose turn it is — and his own seat below it; a screenshot of each family.
async fn phone_layout(c: &Client, base: &str) {
    c.set_window_size(390, 844).await.unwrap();
    for (family, setup) in [("draughts", ""), ("backgammon", ""), ("trictrac", "")] {
        start_game(c, base, family, setup, 1).await;
        let tops = js(
            c,
            "const top = (id) => document.getElementById(id).getBoundingClientRect().top; \
             return [top('p-top'), top('status'), top('board'), top('p-bottom')]",
        )
        .await;
        let t: Vec<f64> = tops
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert!(
            t[0] < t[1] && t[1] < t[2] && t[2] < t[3],
            "{family} on a phone: opponent, status, board, own seat from the top: {t:?}"
        );
        let width = js(
            c,
            "return document.getElementById('board').getBoundingClientRect().width",
        )
        .await;
        assert!(
            width.as_f64().unwrap() >= 340.0,
            "{family}: the board takes the phone's width ({width})"
        );
        // Every button and list a finger must hit is 40 px high at least.
        let small = js(
            c,
            "return [...document.querySelectorAll('button, select')] \
               .map(e => [e.id || e.textContent.trim(), e.getBoundingClientRect().height]) \
               .filter(([, h]) => h > 0 && h < 39.5)",
        )
        .await;
        assert_eq!(
            small.as_array().unwrap().len(),
            0,
            "{family}: targets under 40 px on a phone: {small}"
        );
        if family != "draughts" {
            // The board is turned a quarter so that every point (flèche) is a finger's
            // width, and its numbers are readable.
            let sizes = js(
                c,
                "const r = [...document.querySelectorAll('#board [data-pt]')].map(e => e.getBoundingClientRect());                  const n = [...document.querySelectorAll('#board .pt-num, #board .lbl')].map(e => e.getBoundingClientRect().height);                  return [r.length, Math.min(...r.map(b => Math.min(b.width, b.height))), Math.min(...n)]",
            )
            .await;
            assert_eq!(sizes[0], json!(24), "{family}: {sizes}");
            assert!(
                sizes[1].as_f64().unwrap() >= 40.0,
                "{family}: a point under 40 px on a phone: {sizes}"
            );
            assert!(
                sizes[2].as_f64().unwrap() >= 9.0,
                "{family}: a number under 9 px on a phone: {sizes}"
            );
            println!("{family} on a phone: points {} px wide", sizes[1]);
        }
        shot(c, &format!("{family}-phone")).await;
    }
    c.set_window_size(1360, 900).await.unwrap();
}

/// "Rematch, colours swapped" at the end of a game: a new game with the same rules, the
/// engine's seat and the player's swapped; then back to the finished game.
async fn rematch(c: &Client, name: &str) {
    let old_url = c.current_url().await.unwrap();
    let (old, old_you) = state(c).await;
    click(c, "#rematch").await;
    let deadline = Instant::now() + Duration::from_secs(15);
    while c.current_url().await.unwrap().path() == old_url.path() {
        assert!(
            Instant::now() < deadline,
            "{name}: the rematch did not open"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (s, you) = wait_state(c, |s, you| !s.is_null() && !you.is_null()).await;
    assert_ne!(you, old_you, "{name}: the colours are swapped");
    assert_eq!(s["seats"][0], old["seats"][1], "{name}");
    assert_eq!(s["seats"][1], old["seats"][0], "{name}");
    assert_eq!(s["spec"], old["spec"], "{name}: the same rules");
    assert!(s["result"].is_null());
    c.goto(old_url.as_str()).await.unwrap();
    wait_state(c, |s, _| !s.is_null() && !s["result"].is_null()).await;
}

/// An unknown game's address: a "game not found" page, not a game page stuck on
/// "reconnecting…".
async fn unknown_game(c: &Client, base: &str) {
    c.goto(&format!("{base}/g/doesnotexist")).await.unwrap();
    let text = js(c, "return document.body.innerText").await;
    let text = text.as_str().unwrap();
    assert!(text.contains("Game not found"), "{text}");
    assert!(!text.contains("reconnecting"), "{text}");
    assert!(exists(c, "#notfound a[href='/']").await);
    shot(c, "game-not-found").await;
}

/// A record from elsewhere opened for review (issue 19): from the home page's card, a PDN
/// pasted (replayed, judged, drawn with its result), a gnubg .mat chosen as a file (its games
/// listed, the second one opened at its score), and a record with an illegal move refused
/// with the move named.
async fn import_record(c: &Client, base: &str) {
    c.goto(base).await.unwrap();
    click(c, "a#import-go").await;
    until(c, "return location.pathname === '/review' && !document.getElementById('import').classList.contains('hidden')").await;
    no_raw_keys(c, "import form").await;
    js(
        c,
        r#"document.getElementById('import-text').value = '[White "Sijbrands"]\n[Black "Clerc"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 4. 41-37 5-10 1-1'"#,
    )
    .await;
    click(c, "button#import-go").await;
    until(c, "return window.tablier.ready === true").await;
    let rows = js(c, "return document.querySelectorAll('#moves tr').length").await;
    assert_eq!(rows, json!(9), "the start and eight moves");
    let text = js(c, "return document.body.innerText").await;
    let text = text.as_str().unwrap();
    assert!(text.contains("Result in the record: 1-1"), "{text}");
    assert!(text.contains("Sijbrands – Clerc"), "{text}");
    assert!(exists(c, "#graph svg").await, "the evaluation graph");
    let pieces = js(
        c,
        "return document.querySelectorAll('#board [data-piece]').length",
    )
    .await;
    assert_eq!(pieces, json!(38), "two men taken each");
    assert!(
        !exists(c, "#import-games-row:not(.hidden)").await,
        "one game: no list"
    );
    shot(c, "import-pdn").await;

    let mat = std::fs::canonicalize(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../backgammon/tests/data/gnubg_selfplay_7pt.mat"
    ))
    .unwrap();
    let file = c
        .find(fantoccini::Locator::Css("#import-file"))
        .await
        .unwrap();
    file.send_keys(mat.to_str().unwrap()).await.unwrap();
    until(
        c,
        "return document.getElementById('import-text').value.includes('point match')",
    )
    .await;
    js(c, "window.tablier.ready = false").await;
    click(c, "button#import-go").await;
    until(
        c,
        "return window.tablier.ready === true && window.tablier.state.spec.family === 'backgammon'",
    )
    .await;
    let games = js(
        c,
        "return document.querySelectorAll('#import-games option').length",
    )
    .await;
    assert!(games.as_u64().unwrap() >= 3, "{games}");
    js(
        c,
        "window.tablier.ready = false; const s = document.getElementById('import-games'); \
         s.value = '2'; s.dispatchEvent(new Event('change'))",
    )
    .await;
    until(c, "return window.tablier.ready === true").await;
    let text = js(c, "return document.body.innerText").await;
    let text = text.as_str().unwrap();
    assert!(text.contains("gnubg wins 2 point(s)"), "{text}");
    assert!(text.contains("gnubg – root"), "{text}");
    let first = js(c, "return window.tablier.review.positions[0].view.score").await;
    assert_ne!(
        first,
        json!([0, 0]),
        "game 2 starts from the score game 1 left: {first}"
    );
    shot(c, "import-mat").await;

    js(
        c,
        "document.getElementById('import-text').value = '1. 32-28 19-23 2. 31-26 *'",
    )
    .await;
    click(c, "button#import-go").await;
    until(
        c,
        "return document.getElementById('import-err').textContent.includes('31-26')",
    )
    .await;
}

/// Public challenges (issue 19): a challenge another visitor makes appears on the home page
/// while it is open (live, over the WebSocket), one click takes its seat and opens the game;
/// taken, it leaves the list. A challenge made from the form is marked as one's own.
async fn open_challenges(c: &Client, base: &str) {
    c.goto(&format!("{base}/")).await.unwrap();
    until(c, "return !!document.querySelector('#lobby h2')").await;
    // The games played so far are listed under "Join a game" (a variable named like the
    // texts' function once stopped the page's script there, and the lobby with it).
    let recent = js(
        c,
        "return [...document.querySelectorAll('#recent a')].map(a => a.textContent)",
    )
    .await;
    assert!(recent.as_array().is_some_and(|l| l.len() > 1), "{recent}");
    // Another visitor's challenge, made through the API while the page is open.
    let made = js_async(
        c,
        r#"const r = await fetch('/api/games', {method: 'POST', headers: {'content-type': 'application/json'},
             body: JSON.stringify({family: 'backgammon', match_length: 3, seats: [{kind: 'human'}, {kind: 'human'}], challenge: 'black'})});
           return await r.json();"#,
    )
    .await;
    let id = made["id"].as_str().unwrap().to_owned();
    assert!(made["tokens"][1].is_null(), "{made}");
    let row = format!("#challenge-list .challenge[data-id='{id}']");
    until(
        c,
        &format!("return !!document.querySelector(\"{row} button.take\")"),
    )
    .await;
    let text = js(
        c,
        &format!("return document.querySelector(\"{row}\").innerText"),
    )
    .await;
    let text = text.as_str().unwrap();
    assert!(
        text.contains("3-point match") && text.contains("you play Black"),
        "{text}"
    );
    no_raw_keys(c, "home page with a challenge").await;
    shot(c, "home-open-challenge").await;
    click(c, &format!("{row} button.take")).await;
    let (s, you) = game_page_opens(c).await;
    assert_eq!(s["id"], id.as_str());
    assert_eq!(you, json!("black"), "the seat taken is the one offered");
    // Taken, it is gone from every home page.
    c.goto(&format!("{base}/")).await.unwrap();
    until(c, &format!("return !!window.WebSocket && !document.querySelector(\"{row}\") && !!document.querySelector('#challenge-list p, #challenge-list .challenge')")).await;

    // One's own challenge, from the form: the game page says it is offered, the home page
    // marks it as one's own (no button to take it).
    click(c, "[data-family=draughts]").await;
    click(c, "input[name=opp][value=public]").await;
    js(c, "document.getElementById('colour').value = 'white'").await;
    click(c, "#create").await;
    let (s, you) = game_page_opens(c).await;
    assert_eq!(you, json!("white"));
    let own = s["id"].as_str().unwrap().to_owned();
    until(c, "return !!document.getElementById('public-note')").await;
    c.goto(&format!("{base}/")).await.unwrap();
    let mine = format!("#challenge-list .challenge[data-id='{own}']");
    until(c, &format!("return !!document.querySelector(\"{mine} a\")")).await;
    assert!(
        !exists(c, &format!("{mine} button")).await,
        "no button to take one's own challenge"
    );
}

/// A game from a position pasted on the home page: a FEN for draughts.
async fn from_position(c: &Client, base: &str) {
    start_game(
        c,
        base,
        "draughts",
        "document.getElementById('variant').value = 'international'; \
         document.getElementById('start').value = 'W:W28,33:B19'",
        1,
    )
    .await;
    let (s, _) = state(c).await;
    assert_eq!(s["spec"]["start"], "W:W28,33:B19");
    let pieces = js(
        c,
        "return document.querySelectorAll('#board [data-piece]').length",
    )
    .await;
    assert_eq!(pieces, json!(3), "the board drawn from the FEN");
    shot(c, "draughts-from-fen").await;
}

/// A backgammon game with the backgammon servers' clock (a reserve and a delay per move) set
/// on the home page: the spec carries the delay and the clocks say so.
async fn delay_clock(c: &Client, base: &str) {
    start_game(
        c,
        base,
        "backgammon",
        "document.getElementById('clock').checked = true; \
         document.getElementById('minutes').value = '1'; \
         document.getElementById('increment').value = '0'; \
         document.getElementById('delay').value = '12'",
        1,
    )
    .await;
    let (s, _) = state(c).await;
    assert_eq!(
        s["spec"]["clock"],
        json!({"initial_s": 60, "increment_s": 0, "delay_s": 12})
    );
    let tip = js(
        c,
        "return document.querySelector('[data-clock=white]').title",
    )
    .await;
    assert!(tip.as_str().unwrap().contains("12 s"), "{tip}");
    shot(c, "backgammon-delay-clock").await;
}

/// A language's catalog.
fn catalog(lang: &str) -> serde_json::Map<String, Value> {
    let path = format!("{}/../../web/i18n/{lang}.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// No text of the page is a catalog's key (a key shown instead of its text).
async fn no_raw_keys(c: &Client, what: &str) {
    let catalog: serde_json::Map<String, Value> = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../web/i18n/en.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let text = js(
        c,
        "return document.body.innerText + ' ' + [...document.querySelectorAll('[title],[placeholder]')]            .map(e => e.title + ' ' + (e.placeholder || '')).join(' ')",
    )
    .await;
    let words: std::collections::BTreeSet<&str> = text
        .as_str()
        .unwrap()
        .split(|ch: char| ch.is_whitespace() || "()«»,:;".contains(ch))
        .collect();
    let shown: Vec<&String> = catalog
        .keys()
        .filter(|k| words.contains(k.as_str()))
        .collect();
    assert!(
        shown.is_empty(),
        "{what}: keys shown instead of texts: {shown:?}"
    );
}

/// The pages in French and back in English: the browser's choice (the switch, kept in the
/// browser) over the server's reading of Accept-Language; no key shown instead of a text.
async fn languages(c: &Client, base: &str) {
    c.goto(&format!("{base}/")).await.unwrap();
    js(c, "localStorage.setItem('tablier:lang', 'fr')").await;
    c.goto(&format!("{base}/")).await.unwrap();
    let h2 = js(c, "return document.querySelector('#new h2').textContent").await;
    assert_eq!(h2, json!("Nouvelle partie"));
    assert_eq!(
        js(c, "return document.documentElement.lang").await,
        json!("fr")
    );
    assert_eq!(
        js(c, "return document.getElementById('lang').value").await,
        json!("fr")
    );
    no_raw_keys(c, "home (fr)").await;
    shot(c, "home-fr").await;
    start_game(c, base, "draughts", "0", 1).await;
    let status = js(c, "return document.getElementById('status').textContent").await;
    assert!(
        ["À vous de jouer", "le moteur réfléchit"]
            .iter()
            .any(|w| status.as_str().unwrap().contains(w)),
        "{status}"
    );
    let resign = js(c, "return document.getElementById('resign').textContent").await;
    assert_eq!(resign, json!("Abandonner"));
    no_raw_keys(c, "draughts (fr)").await;
    shot(c, "draughts-fr").await;
    // Every family in French, on a desktop and on a phone.
    for family in ["backgammon", "trictrac"] {
        start_game(c, base, family, "0", 1).await;
        let title = js(c, "return document.getElementById('title').textContent").await;
        assert!(
            !title.as_str().unwrap().contains("holes")
                && !title.as_str().unwrap().contains("money"),
            "{family}: {title}"
        );
        no_raw_keys(c, &format!("{family} (fr)")).await;
        shot(c, &format!("{family}-fr")).await;
    }
    // Trictrac's jans in French words around the book's names: "Blanc +4 battre à vrai ...
    // sur la flèche 17, par 1 moyen", "+4 blanc ..." in the move list.
    let mut said = Vec::new();
    for _ in 0..60 {
        let (s, _) = my_turn(c).await;
        if !s["result"].is_null() {
            break;
        }
        let lines = js(
            c,
            "return [...document.querySelectorAll('[data-event], [data-jans]')].map(e => e.textContent)",
        )
        .await;
        said.extend(
            lines
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap().to_owned()),
        );
        if said.iter().any(|l| l.contains("flèche")) {
            break;
        }
        trictrac_turn(c, &s).await;
        wait_after(c, &s["v"]).await;
    }
    assert!(!said.is_empty(), "no jan was said in 60 turns");
    for l in &said {
        assert!(
            (l.contains("blanc")
                || l.contains("noir")
                || l.contains("Blanc")
                || l.contains("Noir"))
                && !["white", "White", "black", "Black", " on flèche", " way"]
                    .iter()
                    .any(|w| l.contains(w)),
            "not French: {l}"
        );
    }
    println!("trictrac in French: {:?}", said.last());
    shot(c, "trictrac-fr-played").await;
    // A refusal of the server, said in French (the server names it; the page says it).
    let refused = js_async(
        c,
        "await tablier.act('zz'); await new Promise((r) => setTimeout(r, 200)); return document.getElementById('toast').textContent",
    )
    .await;
    let fr = catalog("fr");
    assert!(
        fr.iter()
            .any(|(k, v)| k.starts_with("err.") && v.as_str() == refused.as_str()),
        "not a French refusal: {refused}"
    );
    c.set_window_size(390, 844).await.unwrap();
    for family in ["draughts", "backgammon", "trictrac"] {
        start_game(c, base, family, "0", 1).await;
        no_raw_keys(c, &format!("{family} (fr, phone)")).await;
        let wide = js(
            c,
            "return [document.documentElement.scrollWidth, window.innerWidth]",
        )
        .await;
        assert!(
            wide[0].as_f64().unwrap() <= wide[1].as_f64().unwrap() + 1.0,
            "{family} (fr, phone): the page is wider than the phone {wide}"
        );
        shot(c, &format!("{family}-fr-phone")).await;
    }
    c.set_window_size(1360, 900).await.unwrap();
    // Dutch and Portuguese, the languages of 10x10 and Brazilian draughts: the home page and
    // a game of each family with no key shown instead of a text.
    for lang in ["nl", "pt"] {
        js(
            c,
            &format!("localStorage.setItem('tablier:lang', '{lang}')"),
        )
        .await;
        c.goto(&format!("{base}/")).await.unwrap();
        let h2 = js(c, "return document.querySelector('#new h2').textContent").await;
        assert_eq!(h2, catalog(lang)["home.new"], "{lang}");
        no_raw_keys(c, &format!("home ({lang})")).await;
        for family in ["draughts", "backgammon", "trictrac"] {
            start_game(c, base, family, "0", 1).await;
            no_raw_keys(c, &format!("{family} ({lang})")).await;
            shot(c, &format!("{family}-{lang}")).await;
        }
    }
    js(c, "localStorage.setItem('tablier:lang', 'fr')").await;
    c.goto(&format!("{base}/g/doesnotexist")).await.unwrap();
    let text = js(c, "return document.body.innerText").await;
    assert!(
        text.as_str().unwrap().contains("Partie introuvable"),
        "{text}"
    );
    // Back to English with the switch.
    c.goto(&format!("{base}/")).await.unwrap();
    js(
        c,
        "const s = document.getElementById('lang'); s.value = 'en'; s.dispatchEvent(new Event('change'))",
    )
    .await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while js(c, "return document.querySelector('#new h2')?.textContent").await != json!("New game")
    {
        assert!(
            Instant::now() < deadline,
            "the switch did not bring English back"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    no_raw_keys(c, "home (en)").await;
    shot(c, "home-en").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_plays_every_family_in_chromium() {
    let (_driver, port) = start_driver().await;
    let base = start_server().await;
    let c = browser(port).await;
    unknown_game(&c, &base).await;
    french_huff(&c, &base).await;
    let t = Instant::now();
    let n = draughts(&c, &base).await;
    println!("draughts: {n} moves through clicks in {:.1?}", t.elapsed());
    let (s, _) = state(&c).await;
    assert!(!s["result"].is_null());
    banner_matches(&c, "draughts").await;
    download_record(&c, "pdn", "[Result \"").await;
    review(&c, "draughts").await;
    path_chooser(&c).await;
    spectate(&c).await;
    shot(&c, "draughts-spectator").await;
    let t = Instant::now();
    let n = backgammon(&c, &base).await;
    println!(
        "backgammon: {n} plays through clicks in {:.1?}",
        t.elapsed()
    );
    let (s, _) = state(&c).await;
    assert!(!s["seed"].is_null(), "the seed is revealed at the end");
    assert!(
        exists(&c, "#seed").await,
        "the page shows the seed at the end"
    );
    banner_matches(&c, "backgammon").await;
    download_record(&c, "mat", "; [Player 1 ").await;
    backgammon_texts(&c).await;
    review(&c, "backgammon").await;
    auto_roll(&c, &base).await;
    let t = Instant::now();
    let n = trictrac(&c, &base).await;
    println!("trictrac: {n} plays through clicks in {:.1?}", t.elapsed());
    let (s, _) = state(&c).await;
    assert!(!s["result"].is_null());
    banner_matches(&c, "trictrac").await;
    rematch(&c, "trictrac").await;
    review(&c, "trictrac").await;
    let t = Instant::now();
    let n = trictrac_ecoles(&c, &base).await;
    println!(
        "trictrac (écoles): {n} actions through clicks in {:.1?}",
        t.elapsed()
    );
    phone_layout(&c, &base).await;
    delay_clock(&c, &base).await;
    from_position(&c, &base).await;
    import_record(&c, &base).await;
    open_challenges(&c, &base).await;
    languages(&c, &base).await;
    c.close().await.unwrap();
}
