// The replay page of a finished game (/r/{code}/games/{n}): every moment of the game from the
// server's replay (docs/protocol.md "Finished games"), all hands shown (the game is over).
// Buttons and the arrow keys step forward and back; Home and End jump.
import { h, render } from "../vendor/preact.js";
import { initI18n, t, onLangChange } from "./i18n.js";
import { loadTexts, gErr } from "./games.js";
import { api } from "./net.js";
import { appUrl } from "./dom.js";
import { cardEl, colorChip, COLORS } from "./cards.js";
import { nameTag } from "./common.js";
import { logLine } from "./logview.js";
import { createStore } from "./store.js";
import { initialReplay, reduceReplay } from "./replaystore.js";

const code = document.body.dataset.code;
const game = Number(document.body.dataset.game);
const root = document.getElementById("replay-root");
// The page's one store (replaystore.js) and its one tree, drawn again after each message.
const store = createStore(reduceReplay, initialReplay());
function dispatch(m) { store.dispatch(m); draw(); }
const go = (to) => dispatch({ type: "go", to });
// The game's review (review.js), loaded with import() once the replay is drawn: not at first paint.
let review = null;
let scrolled = false;     // the page's #review was scrolled to once, when the review was first drawn
function loadReview() {
  import("./review.js").then((m) => {
    review = m;
    m.loadReview(code, game, () => {
      draw();
      if (location.hash === "#review" && !scrolled) {
        scrolled = true;
        const el = document.getElementById("review");
        if (el) el.scrollIntoView();
      }
    });
  });
}
const showStep = (to) => { go(to); window.scrollTo(0, 0); document.getElementById("rp-next")?.focus(); };

function cards(ids, opts) { return h("div", { class: "rp-cards" }, ids.map((id) => cardEl(id, { small: true,
  ...opts }))); }

function playerBox(room, p, seat, view) {
  const acting = view.phase !== "over" && view.to_act === seat;
  return h("section", { class: "panel rp-player" + (acting ? " acting" : ""), key: seat, "data-seat": seat },
    h("h3", null, nameTag(room, seat), acting ? h("span", { class: "badge" }, t("replay.to_act")) : null,
      " ", h("span", { class: "rp-vp" }, t("replay.vp", { n: p.vp })), " ",
      COLORS.map((c) => (p.tokens[c] ? h("span", { key: c, class: "rp-tok" }, colorChip(c, false),
        "×" + p.tokens[c]) : null))),
    h("div", { class: "rp-row" }, h("span", { class: "rp-lbl" }, t("replay.hand")), cards(p.hand)),
    h("div", { class: "rp-row" }, h("span", { class: "rp-lbl" }, t("replay.goods")),
      h("div", { class: "rp-cards" }, p.goods.map((g) => cardEl(g.card, { small: true, insured: g.insured })))));
}

/** The page's tree: nothing until the replay or its refusal came, then the one or the other. */
function draw() {
  const { data, failed } = store.get();
  if (data) render(momentView(store.get()), root);
  else if (failed) render(failedView(failed), root);
}

function momentView({ data, room, step }) {
  const s = data.steps[step], view = s.view, last = data.steps.length - 1;
  document.body.dataset.step = String(step);
  document.getElementById("replay-title").textContent = t("replay.title", { n: game });
  const btn = (id, label, to, off) => h("button", { type: "button", class: "btn", id, disabled: off,
    onClick: () => go(to) }, label);
  return [
    h("div", { class: "panel rp-bar" },
      btn("rp-first", "« " + t("replay.first"), 0, step === 0),
      btn("rp-prev", "◀ " + t("replay.prev"), step - 1, step === 0),
      h("b", { id: "rp-step", "aria-live": "polite" }, step === 0 ? t("replay.dealt") : t("replay.step", { k: step,
        n: last })),
      btn("rp-next", t("replay.next") + " ▶", step + 1, step === last),
      btn("rp-last", t("replay.last") + " »", last, step === last),
      h("span", { class: "muted rp-keys" }, t("replay.keys"))),
    h("section", { class: "panel rp-log" }, h("ol", { id: "rp-events" },
      s.seat === null ? h("li", null, t("replay.dealt")) : s.events.filter((e) => e.type !== "vp_total").map((e,
        i) => logLine(e, room, i)))),
    h("section", { class: "panel rp-board" },
      h("div", { class: "rp-row" }, h("span", { class: "rp-lbl" }, t("table.market")),
        cards(view.market.map((m) => m.card))),
      h("div", { class: "rp-row" }, h("span", { class: "rp-lbl" }, t("table.farm")),
        cards(view.farm.map((m) => m.card))),
      h("div", { class: "rp-row" }, h("span", { class: "rp-lbl" }, t("replay.ships")),
        COLORS.map((c) => h("span", { key: c, class: "rp-ship" }, colorChip(c, false), " ",
          t("loc." + view.ships[c])))),
      h("div", { class: "rp-row muted" }, t("table.draw_pile"), ": ", String(view.deck_size))),
    h("div", { class: "rp-players" }, view.players.map((p, seat) => playerBox(room, p, seat, view))),
    review ? review.reviewView(room, showStep) : null,
    h("p", { class: "game-links" }, h("a", { class: "btn", href: appUrl("/r/" + encodeURIComponent(code)) },
      t("replay.back_room")), " ",
      h("a", { class: "btn small", id: "rp-json",
        href: appUrl(`/api/rooms/${encodeURIComponent(code)}/games/${game}/record.json`), download: "" },
        "⤓ " + t("res.json")), " ",
      h("a", { class: "btn small", id: "rp-txt",
        href: appUrl(`/api/rooms/${encodeURIComponent(code)}/games/${game}/record.txt`), download: "" },
        "⤓ " + t("res.txt"))),
  ];
}

// No replay (no such game, or not over yet): why, in the page's language, and the way back.
function failedView(failed) {
  const text = failed.code === "game_not_over" ? t("replay.not_over") : gErr(failed);
  return h("section", { class: "panel" }, h("p", { id: "rp-error" }, text),
    h("a", { class: "btn", href: appUrl("/r/" + encodeURIComponent(code)) }, t("replay.back_room")));
}

document.addEventListener("keydown", (e) => {
  const { data, step } = store.get();
  if (e.altKey || e.ctrlKey || e.metaKey || !data) return;
  const to = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: data.steps.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  go(to);
});

async function main() {
  await initI18n();
  await loadTexts();
  onLangChange(async () => { await loadTexts(); draw(); });
  let msg;
  try {
    msg = { type: "loaded", data: await api("GET", `/api/rooms/${encodeURIComponent(code)}/games/${game}/replay`) };
  } catch (e) {
    msg = { type: "failed", error: e };
  }
  root.textContent = "";  // the server's "Loading…": the tree's from now on
  dispatch(msg);
  if (msg.type === "loaded") loadReview();
}

main();
