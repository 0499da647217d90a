//! The pages' languages: the message catalogs (`web/i18n/*.json`) have the same keys with the
//! same placeholders, every key the pages and scripts name is in them, and the pages come in
//! the language of the browser's `Accept-Language`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use tablier_server::http::{router, LANGUAGES};
use tablier_server::store::Store;
use tablier_server::Hub;
use tower::ServiceExt;

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web")
}

fn catalog(lang: &str) -> BTreeMap<String, String> {
    let path = web().join(format!("i18n/{lang}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

/// The `{name}` placeholders of a text.
fn placeholders(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(i) = rest.find('{') {
        rest = &rest[i + 1..];
        if let Some(j) = rest.find('}') {
            let name = &rest[..j];
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                out.insert(name.to_owned());
            }
            rest = &rest[j + 1..];
        }
    }
    out
}

#[test]
fn every_language_has_every_key_with_its_placeholders() {
    let english = catalog(LANGUAGES[0]);
    assert!(english.len() > 100, "{} keys", english.len());
    for lang in &LANGUAGES[1..] {
        let other = catalog(lang);
        let missing: Vec<&String> = english.keys().filter(|k| !other.contains_key(*k)).collect();
        let extra: Vec<&String> = other.keys().filter(|k| !english.contains_key(*k)).collect();
        assert!(missing.is_empty(), "{lang} lacks {missing:?}");
        assert!(extra.is_empty(), "{lang} has keys English lacks: {extra:?}");
        for (k, v) in &other {
            assert!(!v.trim().is_empty(), "{lang}: {k} is empty");
            assert_eq!(
                placeholders(v),
                placeholders(&english[k]),
                "{lang}: {k} does not take the same values as in English"
            );
        }
    }
}

/// The keys named in a file: `data-i18n*="key"` in the pages, `t('key'` in the scripts.
fn keys_named(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for marker in [
        "data-i18n=\"",
        "data-i18n-html=\"",
        "data-i18n-title=\"",
        "data-i18n-placeholder=\"",
        "t('",
    ] {
        let close = if marker.ends_with('"') { '"' } else { '\'' };
        let mut rest = text;
        while let Some(i) = rest.find(marker) {
            // `t('` only as a call of its own, not the end of another name (`split('`).
            let before = rest[..i].chars().last();
            rest = &rest[i + marker.len()..];
            if marker == "t('"
                && before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
            {
                continue;
            }
            let Some(j) = rest.find(close) else { break };
            let key = &rest[..j];
            // A key built at run time (`t('family.' + f)`) is checked by its prefix below.
            if !key.ends_with('.') {
                out.push(key.to_owned());
            }
            rest = &rest[j..];
        }
    }
    out
}

#[test]
fn every_key_the_pages_name_is_in_the_catalogs() {
    let english = catalog(LANGUAGES[0]);
    let mut named = 0;
    let mut files: Vec<PathBuf> = std::fs::read_dir(web())
        .unwrap()
        .chain(std::fs::read_dir(web().join("js")).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "html" || x == "js"))
        .collect();
    files.sort();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for key in keys_named(&text) {
            named += 1;
            assert!(
                english.contains_key(&key),
                "{file:?} names {key:?}, in no catalog"
            );
        }
    }
    assert!(named > 100, "{named} keys named");
    // The keys built at run time from a family, a side or a page.
    for family in ["draughts", "backgammon", "trictrac"] {
        for prefix in ["family", "format"] {
            assert!(english.contains_key(&format!("{prefix}.{family}")));
        }
    }
    for side in ["white", "black"] {
        assert!(english.contains_key(&format!("side.{side}")));
    }
    for page in ["home", "game", "review", "notfound"] {
        assert!(english.contains_key(&format!("title.{page}")));
    }
    let built: [(&str, &[&str]); 10] = [
        ("draughts.variant", &tablier_catalog::DRAUGHTS_VARIANTS),
        (
            "draughts.draw",
            &["Repetition", "KingMoves", "Endgame", "OldFrenchRule"],
        ),
        (
            "meta",
            &[
                "resign",
                "draw-offer",
                "draw-accept",
                "draw-decline",
                "flag",
                "takeback-accept",
            ],
        ),
        ("bg.kind", &["single", "gammon", "backgammon"]),
        ("bg.a", &["single", "gammon", "backgammon"]),
        (
            "tt.act",
            &["go", "stay", "claim", "decline", "erase", "oblige", "pass"],
        ),
        (
            "tt.hint",
            &[
                "Decide",
                "Play",
                "MarkGains",
                "MarkGiven",
                "ClaimWindow",
                "ContestGo",
                "AfterGiven",
            ],
        ),
        (
            "tt.said",
            &["mark", "ecole", "warn", "claim", "decline", "erase"],
        ),
        ("unit", &["men", "win", "partie", "holes"]),
        ("home.position", &["draughts", "backgammon", "trictrac"]),
    ];
    for (prefix, names) in built {
        for name in names {
            let key = format!("{prefix}.{name}");
            assert!(
                english.contains_key(&key),
                "{key} is built at run time but in no catalog"
            );
        }
    }
}

#[tokio::test]
async fn the_pages_come_in_the_browsers_language() {
    let dir = std::env::temp_dir().join(format!("tablier-i18n-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let store = Store::open(&format!("sqlite://{}", dir.join("t.sqlite").display()))
        .await
        .unwrap();
    let app = router(Hub::new(store).await.unwrap());
    for (accept, lang) in [
        (Some("fr-FR,fr;q=0.9,en;q=0.8"), "fr"),
        (Some("en-US,en;q=0.9"), "en"),
        (Some("de-DE,fr;q=0.4"), "fr"),
        (None, "en"),
        (Some("nl-NL,nl;q=0.9"), "nl"),
        (Some("pt-BR,pt;q=0.9,en;q=0.5"), "pt"),
    ] {
        for page in ["/", "/g/abcdefgh"] {
            let mut req = Request::builder().uri(page);
            if let Some(a) = accept {
                req = req.header("accept-language", a);
            }
            let resp = app
                .clone()
                .oneshot(req.body(Body::empty()).unwrap())
                .await
                .unwrap();
            assert_eq!(resp.headers()["vary"], "Accept-Language");
            let body = resp.into_body().collect().await.unwrap().to_bytes();
            let html = String::from_utf8_lossy(&body);
            assert!(
                html.contains(&format!("<html lang=\"{lang}\">")),
                "{accept:?} {page}: {}",
                &html[..80.min(html.len())]
            );
        }
    }
    // The catalogs themselves are served as JSON.
    let resp = app
        .clone()
        .oneshot(
            Request::builder()
                .uri("/static/i18n/fr.json")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(resp.headers()["content-type"], "application/json");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every refusal code of the protocol's reference (`docs/PROTOCOL.md`, "The codes: ...") has
/// its text in the catalogs (`err.CODE`), so that a page says every refusal in its language.
#[test]
fn every_refusal_code_has_its_text() {
    let doc = include_str!("../../../docs/PROTOCOL.md");
    let start = doc.find("The codes:").expect("the list of codes");
    let list = &doc[start..start + doc[start..].find("```").unwrap()];
    let codes: Vec<&str> = list
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|c| !["code", "error"].contains(c))
        .filter(|c| c.chars().all(|ch| ch.is_ascii_lowercase() || ch == '-'))
        .collect();
    assert!(codes.len() > 25, "{codes:?}");
    let english = catalog(LANGUAGES[0]);
    let missing: Vec<&&str> = codes
        .iter()
        .filter(|c| !english.contains_key(&format!("err.{c}")))
        .collect();
    assert!(missing.is_empty(), "no text for {missing:?}");
}
