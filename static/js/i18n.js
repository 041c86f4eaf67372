// The message catalogues: one per language (i18n/en.js, i18n/de.js). The language comes
// from localStorage ("osaka_lang", set by the EN|DE switch) or else the browser's languages.
import { append } from "./dom.js";

export const LANGS = ["en", "de"];
const KEY = "osaka_lang";
let lang = "en";
let cat = {};
let fallback = {};
const listeners = [];

function pickLang() {
  try {
    const saved = localStorage.getItem(KEY);
    if (LANGS.includes(saved)) return saved;
  } catch (e) { /* storage blocked: use the browser's language */ }
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

async function load(l) {
  const mod = await import(`./i18n/${l}.js`);
  return mod.default;
}

/** Load the chosen catalogue, fill the static page and wire the EN|DE switch. */
export async function initI18n() {
  lang = pickLang();
  fallback = await load("en");
  cat = lang === "en" ? fallback : await load(lang);
  applyStatic(document);
  for (const b of document.querySelectorAll(".lang-btn")) {
    b.addEventListener("click", () => setLang(b.dataset.lang));
  }
  markLang();
  document.documentElement.dataset.ready = "1";  // the page's scripts are wired (tests wait for it)
}

function markLang() {
  document.documentElement.lang = lang;
  for (const b of document.querySelectorAll(".lang-btn")) {
    b.setAttribute("aria-pressed", String(b.dataset.lang === lang));
  }
}

/** Switch language, remember it, and redraw everything (static text + listeners). */
export async function setLang(l) {
  if (!LANGS.includes(l) || l === lang) return;
  lang = l;
  try { localStorage.setItem(KEY, l); } catch (e) { /* ignore */ }
  cat = l === "en" ? fallback : await load(l);
  applyStatic(document);
  markLang();
  for (const fn of listeners) fn();
}

export function currentLang() { return lang; }

/** Call fn after each language switch (to redraw dynamic parts). */
export function onLangChange(fn) { listeners.push(fn); }

function lookup(key) {
  let v = cat[key];
  if (v === undefined) v = fallback[key];
  return v;
}

/** The raw catalogue entry (string, array or object) for structured texts. */
export function raw(key) { return lookup(key); }

/** t("log.take", {name: "Bob"}) -> string with {placeholders} filled in (as text). */
export function t(key, params) {
  // Plural: a "<key>_one" entry is used when params.n === 1 ("1 card", "1 Karte").
  // ... and a "<key>_zero" entry when params.n === 0 ("no insurance icons").
  if (params && params.n === 1 && lookup(key + "_one") !== undefined) key += "_one";
  else if (params && params.n === 0 && lookup(key + "_zero") !== undefined) key += "_zero";
  let v = lookup(key);
  if (v === undefined) return key;
  if (typeof v === "function") return v(params || {});
  v = String(v);
  if (params) v = v.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
  return v;
}

/**
 * tn("log.take", {name: "Bob", card: <Node>}) -> array of strings and nodes, so rich pieces
 * (card chips) can sit inside a translated sentence; strings are added as text.
 */
export function tn(key, params) {
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

/** Build nodes for a translated sentence: append(el, tn(...)). Re-exported for callers. */
export { append };
