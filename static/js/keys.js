// Keyboard play: one Tab stop per card row (arrow keys move inside it), focus that stays on
// the same logical control across updates, single-key shortcuts for the frequent actions, and
// a polite live region for short announcements (docs/ui.md "Keyboard and screen readers").

/** Shortcut key → the id of the control it presses (or focuses, for rows and the log). */
export const SHORTCUTS = [
  ["T", "btn-take"], ["R", "btn-reserve"], ["B", "btn-buy"], ["S", "btn-suggest"],
  ["C", "btn-clear"], ["P", "btn-pass"], ["D", "btn-decide"],
  ["M", "market"], ["F", "farm"], ["H", "hand"], ["L", "log"],
];

/** Say `text` through the page's polite live region (#announce). */
export function announce(text) {
  const el = document.getElementById("announce");
  if (!el) return;
  el.textContent = "";
  // A new text node after a tick, so the same sentence twice is read twice.
  setTimeout(() => { el.textContent = text; }, 30);
}

/** The card ids' tab stop in a row: the remembered card (`ctx.rove[row]`) when it is still
 *  there, else the first. Returns id -> tabIndex (0 or -1). */
export function roving(ctx, row, ids) {
  const cur = ids.includes(ctx.rove[row]) ? ctx.rove[row] : ids[0];
  return (id) => (id === cur ? 0 : -1);
}

/** Arrow keys, Home and End move between the cards of a row element (`data-row`). */
export function rowKeys(ctx, rowEl) {
  rowEl.addEventListener("keydown", (ev) => {
    const cards = [...rowEl.querySelectorAll(".card")];
    const i = cards.indexOf(document.activeElement);
    if (i < 0) return;
    let j = null;
    if (ev.key === "ArrowRight" || ev.key === "ArrowDown") j = Math.min(cards.length - 1, i + 1);
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") j = Math.max(0, i - 1);
    else if (ev.key === "Home") j = 0;
    else if (ev.key === "End") j = cards.length - 1;
    if (j === null) return;
    ev.preventDefault();
    moveTo(ctx, rowEl, cards[j]);
  });
  rowEl.addEventListener("focusin", (ev) => {
    const card = ev.target.closest && ev.target.closest(".card");
    if (card) ctx.rove[rowEl.dataset.row] = Number(card.dataset.card);
  });
}

function moveTo(ctx, rowEl, card) {
  for (const c of rowEl.querySelectorAll(".card")) c.tabIndex = c === card ? 0 : -1;
  ctx.rove[rowEl.dataset.row] = Number(card.dataset.card);
  card.focus();
}

/** Focus a row's tab stop (its remembered card), or the row itself when it has no card. */
export function focusRow(rowEl) {
  if (!rowEl) return false;
  const card = rowEl.querySelector('.card[tabindex="0"]') || rowEl.querySelector(".card");
  (card || rowEl).focus();
  return true;
}

/** Focus `el` with its ring also after a mouse click (where :focus-visible may not apply):
 *  marked `data-ring` until it loses the focus. */
export function ringFocus(el) {
  if (!el || el === document.body) return;
  if (document.activeElement !== el) el.focus({ focusVisible: true });
  if (el.hasAttribute("data-ring")) return;
  el.setAttribute("data-ring", "");
  el.addEventListener("blur", () => el.removeAttribute("data-ring"), { once: true });
}

/**
 * Run `draw()` and keep the keyboard focus on the same logical control: when the focused
 * element was removed (a taken card, a button that is not needed any more), focus its
 * neighbour in the same card row, else the given fallback (a selector or element), ringed.
 */
export function keepFocus(draw, fallback) {
  const a = document.activeElement;
  const row = a && a.closest ? a.closest("[data-row]") : null;
  const index = row ? [...row.querySelectorAll(".card")].indexOf(a) : -1;
  draw();
  if (!a || a === document.body) return;
  const now = document.activeElement;
  if (now && now !== document.body && now !== a) return;  // moved on purpose (a dialog)
  if (a.isConnected && a.getClientRects().length) return;  // still there and shown
  if (row && row.isConnected) {
    const cards = row.querySelectorAll(".card");
    if (cards.length) { ringFocus(cards[Math.max(0, Math.min(index, cards.length - 1))]); return; }
  }
  ringFocus(typeof fallback === "string" ? document.querySelector(fallback) : fallback);
}

function typing(el) {
  return el && (el.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName));
}

/**
 * Single-key shortcuts (no modifier, not while typing, not under an open modal dialog): a
 * button's key presses it (a disabled one then says why it is not possible now); a row's key focuses it.
 */
export function installShortcuts() {
  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.altKey || ev.metaKey || ev.repeat || typing(ev.target)) return;
    if (document.querySelector("dialog[open]")) return;
    const hit = SHORTCUTS.find(([k]) => k.toLowerCase() === ev.key.toLowerCase());
    if (!hit) return;
    const el = document.getElementById(hit[1]);
    if (!el || el.closest("[hidden]")) return;
    ev.preventDefault();
    if (el.tagName !== "BUTTON") { focusRow(el); return; }
    // A disabled bar button answers its own press (bar.js actBtn): its reason announced and shown.
    el.click();
  });
}
