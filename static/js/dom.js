// Tiny DOM helpers. Every piece of text goes in through textContent / createTextNode:
// no user data is ever parsed as HTML (names may contain "<b>" and must show as typed).

/** The URL prefix the page came under ("" at the root, "/osaka" behind a proxy: the server's
 *  <html data-root>, docs/deploy.md). Every URL the scripts build starts with it: appUrl. */
export const ROOT = document.documentElement.dataset.root || "";

/** appUrl("/r/ABC") -> "/osaka/r/ABC": a path of the app under the page's prefix. */
export function appUrl(path) { return ROOT + path; }

/** h("div", {class: "x", onclick: fn, dataset: {a: 1}}, "text", child, [more]) -> Element */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "dataset") Object.assign(el.dataset, v);
      else if (k === "text") el.textContent = String(v);
      else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
      else if (v === true) el.setAttribute(k, "");
      else el.setAttribute(k, String(v));
    }
  }
  append(el, children);
  return el;
}

/** Append strings (as text nodes), nodes and nested arrays of them. */
export function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
  return el;
}

const SVGNS = "http://www.w3.org/2000/svg";
/** Like h() but for SVG elements. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === "text") el.textContent = String(v);
    else if (k === "class") el.setAttribute("class", v);
    else el.setAttribute(k, String(v));
  }
  for (const c of children) if (c) el.appendChild(c);
  return el;
}

/** Remove every child; return the element. */
export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Replace an element's children with the given ones. */
export function fill(el, ...children) {
  clear(el);
  return append(el, children);
}

/** Show a short message (an error the server sent, a "copied" note) for a few seconds. */
export function toast(text, kind = "error") {
  const box = document.getElementById("toasts");
  if (!box) return;
  // the same text showing: not stacked again
  const same = [...box.children].find((c) => c.textContent === text && c.className === "toast " + kind);
  const el = same || h("div", { class: "toast " + kind }, text);
  if (!same) box.appendChild(el);
  clearTimeout(el._gone);
  el._gone = setTimeout(() => el.remove(), kind === "error" ? 7000 : 2500);
}

/** Show (text) or hide (null) the banner under the top bar. */
export function banner(text, kind = "warn") {
  const el = document.getElementById("banner");
  if (!el) return;
  if (!text) { el.hidden = true; el.textContent = ""; return; }
  el.textContent = text;
  el.className = "banner " + kind;
  el.hidden = false;
}
