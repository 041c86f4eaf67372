// The message catalogues, all in i18n/: <lang>.js for every page, <part>-<lang>.js loaded by
// loadPart for the modules that need it; one lookup reads them all. The language comes from
// localStorage ("osaka_lang", set by the EN|DE switch) or else the browser's languages.

export const LANGS = ["en", "de"];
const KEY = "osaka_lang";
let lang = "en";
let cat = {};
const loaded = {};  // by file name ("en", "games-de"); en and de have the same keys (tested)
const parts = [];  // the parts asked for: loaded again on a switch
let partCats = [];
const listeners = [];

function pickLang() {
  try {
    const saved = localStorage.getItem(KEY);
    if (LANGS.includes(saved)) return saved;
  } catch { /* storage blocked: use the browser's language */ }
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

async function load(file) {
  loaded[file] ||= (await import(`./i18n/${file}.js`)).default;
  return loaded[file];
}

async function loadParts(l) {
  await Promise.all(parts.map((p) => load(p + "-" + l)));
  // Every part asked for and loaded by now: a call that began before another part was asked for
  // (hint.js and learn.js load at once) must not end with the shorter list.
  if (l === lang) partCats = parts.map((p) => loaded[p + "-" + l]).filter(Boolean);
}

/** Load the part i18n/<name>-<lang>.js now and after each switch; t, tn, raw, has read it. */
export async function loadPart(name) {
  if (!parts.includes(name)) parts.push(name);
  await loadParts(lang);
}

/** Load the chosen catalogue, fill the static page and wire the EN|DE switch. */
export async function initI18n() {
  lang = pickLang();
  cat = await load(lang);  // only this one: the catalogues have the same keys
  applyStatic(document);
  for (const b of document.querySelectorAll(".lang-btn")) {
    b.addEventListener("click", () => setLang(b.dataset.lang));
  }
  markLang();
  document.documentElement.dataset.ready = "1";  // the page's scripts are wired (tests wait for it)
}

function markLang() {
  document.documentElement.lang = lang;
  plural = new Intl.PluralRules(lang);
  for (const b of document.querySelectorAll(".lang-btn")) {
    b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
  }
}

/** Switch language, remember it, and redraw everything (static text + listeners). */
export async function setLang(l) {
  if (!LANGS.includes(l) || l === lang) return;
  lang = l;
  try { localStorage.setItem(KEY, l); } catch { /* ignore */ }
  cat = await load(l);
  await loadParts(l);
  applyStatic(document);
  markLang();
  for (const fn of listeners) fn();
}

export function currentLang() { return lang; }

/** Call fn after each language switch (to redraw dynamic parts). */
export function onLangChange(fn) { listeners.push(fn); }

function lookup(key) {
  if (key in cat) return cat[key];
  for (const c of partCats) if (key in c) return c[key];
  return undefined;
}

/** The raw catalogue entry (string, array or object) for structured texts. */
export function raw(key) { return lookup(key); }

let plural = new Intl.PluralRules("en");

/** The catalogue key for a count: "<key>_zero" for 0 when there is one, else the language's
 *  plural category ("<key>_one", "<key>_few", … by Intl.PluralRules), else "<key>". */
function countKey(key, n) {
  if (typeof n !== "number") return key;
  if (n === 0 && lookup(key + "_zero") !== undefined) return key + "_zero";
  const k = key + "_" + plural.select(n);
  return lookup(k) !== undefined ? k : key;
}

/** t("log.take", {name: "Bob"}) -> string with {placeholders} filled in (as text); a
 *  numeric `n` picks the plural form. */
export function t(key, params) {
  if (params) key = countKey(key, params.n);
  let v = lookup(key);
  if (v === undefined) return key;
  v = String(v);
  if (params) v = v.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
  return v;
}

/** True when the catalogue has `key`. */
export function has(key) { return lookup(key) !== undefined; }

/** ["Ann", "Bob", "Cy"] -> "Ann, Bob and Cy" in the page's language (Intl.ListFormat). */
export function listText(items) {
  return new Intl.ListFormat(lang, { type: "conjunction" }).format(items.map(String));
}

/** Like listText, for rich items (nodes): an array of the items with the language's
 *  separators (strings) between them. */
export function listParts(items) {
  const parts = new Intl.ListFormat(lang, { type: "conjunction" }).formatToParts(items.map((_, i) => String(i)));
  return parts.map((p) => (p.type === "element" ? items[Number(p.value)] : p.value));
}

/**
 * tn("log.take", {name: "Bob", card: <Node>}) -> array of strings and nodes, so rich pieces
 * (card chips) can sit inside a translated sentence; strings are added as text.
 */
export function tn(key, params) {
  if (params) key = countKey(key, params.n);
  const v = String(lookup(key) ?? key);
  const out = [];
  let last = 0;
  v.replace(/\{(\w+)\}/g, (m, k, off) => {
    out.push(v.slice(last, off));
    const p = params && k in params ? params[k] : m;
    out.push(p);
    last = off + m.length;
    return m;
  });
  out.push(v.slice(last));
  return out.filter((x) => x !== "");
}

/** Fill data-i18n (text), data-i18n-title, data-i18n-aria and -placeholder attributes. */
export function applyStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}
