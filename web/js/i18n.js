// The page's language and its texts. The texts live in one catalog per language
// (web/i18n/en.json, fr.json, nl.json, pt.json: data, a key for each text); the language is the visitor's
// choice, kept in the browser, or else the one the server read in the browser's
// Accept-Language (written into <html lang>). Every page's header has the switch.
export const LANGUAGES = { en: 'English', fr: 'Français', nl: 'Nederlands', pt: 'Português' };

const chosen = localStorage.getItem('tablier:lang');
const served = document.documentElement.lang;
export const lang = LANGUAGES[chosen] ? chosen : LANGUAGES[served] ? served : 'en';
document.documentElement.lang = lang;

async function load(l) {
  const r = await fetch(`/static/i18n/${l}.json`);
  return r.ok ? r.json() : {};
}
const catalog = await load(lang);

/// The text of `key` in the page's language, `{name}` replaced by `vars.name`. A key that the
/// catalog lacks shows as itself (a test keeps both catalogs complete).
export function t(key, vars = {}) {
  const s = catalog[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

/// A refusal of the server (its reason in English words and, mostly, a `code` that names it)
/// or a failure of the page (a code of its own) in the page's language: English keeps the
/// server's words, with their details; another language says the code's text, or the
/// server's words after a line of its own when the code is unknown.
export function serverError(reason, code) {
  const key = `err.${code}`;
  if (lang === 'en') return reason || (code && catalog[key]) || '';
  return code && catalog[key] ? catalog[key] : t('err.other', { reason });
}

/// The error to throw for a failed HTTP answer: its JSON body (`{error, code}`) and status.
export function failure(body, status) {
  return new Error(serverError(body?.error || String(status), body?.code));
}

/// Writes the texts of the elements that name a key: `data-i18n` (the text), `data-i18n-html`
/// (markup of our own catalogs), `data-i18n-title`, `data-i18n-placeholder`.
export function translate(root = document) {
  for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll('[data-i18n-html]')) e.innerHTML = t(e.dataset.i18nHtml);
  for (const e of root.querySelectorAll('[data-i18n-title]')) e.title = t(e.dataset.i18nTitle);
  for (const e of root.querySelectorAll('[data-i18n-placeholder]')) e.placeholder = t(e.dataset.i18nPlaceholder);
}

// The switch, at the end of the header.
function addSwitch() {
  const header = document.querySelector('header.top');
  if (!header || document.getElementById('lang')) return;
  const sel = document.createElement('select');
  sel.id = 'lang';
  sel.className = 'lang';
  sel.title = t('lang.title');
  sel.setAttribute('aria-label', t('lang.title'));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const o = document.createElement('option');
    o.value = code;
    o.textContent = name;
    o.selected = code === lang;
    sel.appendChild(o);
  }
  sel.onchange = () => {
    localStorage.setItem('tablier:lang', sel.value);
    location.reload();
  };
  header.appendChild(sel);
}

translate();
addSwitch();
if (document.title && catalog['title.' + document.body.dataset.page]) document.title = t('title.' + document.body.dataset.page);
