// "Learn to play" (issue 32; docs/ui.md "Learn to play"): the guide of a tutorial room, loaded
// only there (room.js, `room.tutorial`). It watches what the table already receives (the view,
// the events, this seat's hint) and, the first time a rule actually comes up, shows its two
// sentences in a small panel (not modal: the table stays usable), reads them out through
// #announce and rings what to press (`learn-ring`, like the hint's ring). On each of the
// person's decisions it asks for the tutorial's hint (the move the prepared deal was made with:
// bots/tutorial.py), so the hint's card, token or payment is ringed and "Play it" is there.
// "Next" dismisses a tip, "Skip tutorial" ends the guidance (the game goes on); which tips were
// shown is kept in localStorage per room, so a reload does not repeat them.
import { h } from "../vendor/preact.js";
import { t, loadPart } from "./i18n.js";
import { announce } from "./keys.js";
import { TIPS, decisionTip, dueTips, myDecision, myHint } from "./learntips.js";

await loadPart("learn");

/** What to ring for each tip (CSS selectors of the table's own elements). */
const RING = {
  draft: ["#btn-decide", ".token-btn.hinted", "#btn-hint-play-dlg"],
  take: [".market-row .card.hinted", "#btn-take", "#btn-hint-play-bar"],
  reserve: [".card.hinted", "#btn-reserve", "#btn-hint-play-bar"],
  buy: [".market-row", "#btn-suggest", "#btn-buy", "#btn-hint-play-bar"],
  ships: [".route-box"],
  payment: ["#summary"],
  tide: [".route-box"],
  insure: ["#btn-decide", "#btn-hint-play-dlg"],
  refresh: [".market-row", ".farm-row"],
  end: ["#players"],
  done: [],
};
const IN_DIALOG = ["draft", "insure"];  // tips drawn in the decision's dialog too
const KEY = "osaka_learn_";

// {code, shown: [ids dismissed], current: id | null, skipped: bool, live: the current tip is about
// the decision being made now (it goes when the decision is made)}
let guide = null;
const asked = new Set();    // versions this page asked the hint of (one ask per decision)

function load(code) {
  if (guide && guide.code === code) return guide;
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(KEY + code)) || {}; } catch { /* storage blocked */ }
  guide = { code, shown: Array.isArray(saved.shown) ? saved.shown : [], current: saved.current || null,
    skipped: saved.skipped === true, live: false };
  return guide;
}

function save(g) {
  try {
    localStorage.setItem(KEY + g.code, JSON.stringify({ shown: g.shown, current: g.current, skipped: g.skipped }));
  } catch { /* storage blocked: the tips may come again after a reload */ }
}

/** Before every drawing of the table (room.js): ask the hint of the person's decision, pick the
 *  tip (read out when it is new), so the panel and the table are drawn together. */
export function pickLearn(ctx) {
  if (!ctx.room || !ctx.view) return;
  const g = load(ctx.room.code);
  if (!g.skipped && myDecision(ctx) && ctx.room.hints && !ctx.room.paused_at && !myHint(ctx)
    && !asked.has(ctx.version) && ctx.askHint) {
    asked.add(ctx.version);
    ctx.askHint();
  }
  const was = g.current;
  if (!g.skipped) pick(ctx, g);
  if (g.current !== was) {
    save(g);
    if (g.current) say(g.current, g.live ? hintLine() : "");
  }
}

/** Just after hint.js read the hint out (room.js): the decision's tip is read again with it, first. */
export function hintSaid(ctx) {
  if (!ctx.room) return;
  const g = load(ctx.room.code);
  if (!g.skipped && g.current && g.live) say(g.current, hintLine());
}

/** The hint's words as drawn (hint.js), or "". */
function hintLine() {
  const line = document.querySelector("#hint-dlg .hint-text, #hint-bar .hint-text");
  return line ? line.textContent : "";
}

/** After every drawing of the table: ring what the tip names (nothing once skipped). */
export function ringLearn(ctx) {
  if (!ctx.room) return;
  const g = load(ctx.room.code);
  ring(g.skipped ? null : g.current);
}

/** Read tip `id` out through #announce, with `more` after it. */
function say(id, more = "") {
  announce(t("learn." + id + ".h") + ". " + t("learn." + id + ".text") + (more ? " " + more : ""));
}

function pick(ctx, g) {
  const now = decisionTip(ctx);
  if (g.current && g.current === now) g.live = true;  // (also after a reload during that decision)
  // A decision's tip shown for that decision is over once the decision is made.
  if (g.current && g.live && g.current !== now) dismiss(g);
  // The person's decision comes first: a tip about something that happened waits for it.
  if (g.current && now && g.current !== now && !g.shown.includes(now) && !g.live) g.current = null;
  if (g.current) return;
  const next = dueTips(ctx).find((id) => !g.shown.includes(id));
  g.live = !!next && next === now;
  if (next) g.current = next;
  else if (TIPS.every((id) => g.shown.includes(id)) && !g.shown.includes("done")) g.current = "done";
}

function dismiss(g) {
  if (g.current && !g.shown.includes(g.current)) g.shown.push(g.current);
  g.current = null;
  g.live = false;
}

/** Ring the elements of tip `id` (none for null), and only those. */
function ring(id) {
  const want = new Set(id ? RING[id].flatMap((s) => [...document.querySelectorAll(s)]) : []);
  for (const el of document.querySelectorAll(".learn-ring")) if (!want.has(el)) el.classList.remove("learn-ring");
  for (const el of want) el.classList.add("learn-ring");
}

/** The guide's panel (a labelled region, not a dialog), or null when there is no tip now. `where`:
 *  "page" (beside the table) or "dlg" (in the decision's modal dialog: the draft's and the insurance's
 *  tips only, whose page copy is behind the dialog then). */
export function learnView(ctx, where = "page") {
  if (!ctx.room) return null;
  const g = load(ctx.room.code);
  if (g.skipped || !g.current) return null;
  const id = g.current, x = where === "dlg" ? "-dlg" : "";
  if (x && !(g.live && IN_DIALOG.includes(id))) return null;
  const n = Math.min(TIPS.length, g.shown.filter((s) => TIPS.includes(s)).length + 1);
  const after = (fn) => () => { fn(); save(g); ctx.redraw(); };
  return h("aside", { class: "learn" + (x ? " in-dlg" : ""), id: "learn" + x, "data-tip": id,
    "aria-labelledby": "learn-h" + x, key: "learn" + x },
  h("h2", { class: "learn-h", id: "learn-h" + x }, t("learn.title"),
    id === "done" ? null : h("span", { class: "learn-count" }, t("learn.count", { n, all: TIPS.length }))),
  h("h3", { class: "learn-tip-h", id: "learn-tip-h" + x }, t("learn." + id + ".h")),
  h("p", { class: "learn-text" }, t("learn." + id + ".text")),
  h("div", { class: "learn-btns" },
    h("button", { type: "button", class: "btn primary small", id: "learn-next" + x, onClick: after(() => dismiss(g)) },
      t("learn.next")),
    id === "done" ? null : h("button", { type: "button", class: "btn small", id: "learn-skip" + x,
      onClick: after(() => { g.skipped = true; g.current = null; announce(t("learn.skipped")); }) },
    t("learn.skip"))));
}

// The guide's look, added with the module (the table page's own style sheet stays as it is).
const style = document.createElement("style");
style.textContent = `
.learn { position: fixed; right: .9rem; bottom: .9rem; z-index: 30; width: calc(clamp(360px, 24vw, 620px) - 1.2rem);
  background: var(--panel, #fffdf7); color: inherit; border: 3px solid #6a1b9a; border-radius: .6rem;
  box-shadow: 0 4px 18px #0004; padding: .55rem .8rem .65rem; }
.learn-h { font-size: .8rem; margin: 0; color: #6a1b9a; text-transform: uppercase; letter-spacing: .04em;
  display: flex; justify-content: space-between; gap: .5rem; }
.learn-count { font-weight: 400; text-transform: none; letter-spacing: 0; color: #4a4a4a; }
.learn-tip-h { font-size: 1.05rem; margin: .2rem 0 .25rem; }
.learn-text { margin: 0 0 .5rem; line-height: 1.35; font-size: .92rem; }
.learn-btns { display: flex; gap: .5rem; flex-wrap: wrap; }
.learn-ring { outline: 4px solid #6a1b9a !important; outline-offset: 3px; border-radius: 6px;
  animation: learn-pulse 1.1s ease-in-out 3; }
.learn.in-dlg { position: static; width: auto; box-shadow: none; margin: .6rem 0 0; border-width: 2px; }
/* While the decision's dialog shows its copy of the tip, the page copy behind it is not shown twice. */
body:has(dialog[open] #learn-dlg) #learn { visibility: hidden; }
@keyframes learn-pulse { 50% { outline-color: #c58af0; } }
@media (prefers-reduced-motion: reduce) { .learn-ring { animation: none; } }
@media (max-width: 979px) {
  .learn { position: sticky; top: 2.9rem; left: 0; right: 0; width: auto; margin: 0 0 .4rem;
    padding: .4rem .55rem .5rem; }
  .learn-tip-h { font-size: .95rem; margin: .1rem 0 .15rem; }
  .learn-text { font-size: .84rem; line-height: 1.3; margin-bottom: .35rem; }
  .learn-btns .btn { min-height: 40px; }
}`;
document.head.append(style);
