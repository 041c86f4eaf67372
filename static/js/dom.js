// Small DOM helpers outside the Preact trees (URLs, toasts, the banner).
// Elements are built with Preact's h (static/vendor/preact.js), which inserts every string as
// text: no user data is ever parsed as HTML (names may contain "<b>" and must show as typed).

/** The URL prefix the page came under ("" at the root, "/osaka" behind a proxy: the server's
 *  <html data-root>, docs/deploy.md). Every URL the scripts build starts with it: appUrl. */
export const ROOT = document.documentElement.dataset.root || "";

/** appUrl("/r/ABC") -> "/osaka/r/ABC": a path of the app under the page's prefix. */
export function appUrl(path) { return ROOT + path; }

/** Show a short message (an error the server sent, a "copied" note) for a few seconds. */
export function toast(text, kind = "error") {
  const box = document.getElementById("toasts");
  if (!box) return;
  // the same text showing: not stacked again
  const same = [...box.children].find((c) => c.textContent === text && c.className === "toast " + kind);
  const el = same || box.appendChild(document.createElement("div"));
  el.className = "toast " + kind;
  el.textContent = text;
  clearTimeout(el._gone);
  el._gone = setTimeout(() => el.remove(), kind === "error" ? 7000 : 2500);
}

/** Show (text) or hide (null) the banner: the sticky top bar's last row (templates/base.html). */
export function banner(text, kind = "warn") {
  const el = document.getElementById("banner");
  if (!el) return;
  if (!text) { el.hidden = true; el.textContent = ""; return; }
  el.textContent = text;
  el.className = "banner " + kind;
  el.hidden = false;
}
