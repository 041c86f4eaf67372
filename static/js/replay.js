// The replay page of a finished game (/r/{code}/games/{n}): every moment of the game from the
// server's replay (docs/protocol.md "Finished games"), all hands shown (the game is over).
// Buttons and the arrow keys step forward and back; Home and End jump.
import { h as v, render } from "../vendor/preact.js";
import { initI18n, t, onLangChange } from "./i18n.js";
import { loadTexts, gErr } from "./games.js";
import { api } from "./net.js";
import { appUrl } from "./dom.js";
import { cardEl, colorChip, COLORS } from "./cards.js";
import { nameTag } from "./common.js";
import { logLine } from "./logview.js";

const code = document.body.dataset.code;
const game = Number(document.body.dataset.game);
const root = document.getElementById("replay-root");
let data = null, room = null, step = 0;

function go(k) {
  if (!data) return;
  step = Math.max(0, Math.min(data.steps.length - 1, k));
  draw();
}

function cards(ids, opts) { return v("div", { class: "rp-cards" }, ids.map((id) => cardEl(id, { small: true,
  ...opts }))); }

function playerBox(p, seat, view) {
  const acting = view.phase !== "over" && view.to_act === seat;
  return v("section", { class: "panel rp-player" + (acting ? " acting" : ""), key: seat, "data-seat": seat },
    v("h3", null, nameTag(room, seat), acting ? v("span", { class: "badge" }, t("replay.to_act")) : null,
      " ", v("span", { class: "rp-vp" }, t("replay.vp", { n: p.vp })), " ",
      COLORS.map((c) => (p.tokens[c] ? v("span", { key: c, class: "rp-tok" }, colorChip(c, false),
        "×" + p.tokens[c]) : null))),
    v("div", { class: "rp-row" }, v("span", { class: "rp-lbl" }, t("replay.hand")), cards(p.hand)),
    v("div", { class: "rp-row" }, v("span", { class: "rp-lbl" }, t("replay.goods")),
      v("div", { class: "rp-cards" }, p.goods.map((g) => cardEl(g.card, { small: true, insured: g.insured })))));
}

function draw() {
  const s = data.steps[step], view = s.view, last = data.steps.length - 1;
  document.body.dataset.step = String(step);
  document.getElementById("replay-title").textContent = t("replay.title", { n: game });
  const btn = (id, label, to, off) => v("button", { type: "button", class: "btn", id, disabled: off,
    onClick: () => go(to) }, label);
  render([
    v("div", { class: "panel rp-bar" },
      btn("rp-first", "« " + t("replay.first"), 0, step === 0),
      btn("rp-prev", "◀ " + t("replay.prev"), step - 1, step === 0),
      v("b", { id: "rp-step", "aria-live": "polite" }, step === 0 ? t("replay.dealt") : t("replay.step", { k: step,
        n: last })),
      btn("rp-next", t("replay.next") + " ▶", step + 1, step === last),
      btn("rp-last", t("replay.last") + " »", last, step === last),
      v("span", { class: "muted rp-keys" }, t("replay.keys"))),
    v("section", { class: "panel rp-log" }, v("ol", { id: "rp-events" },
      s.seat === null ? v("li", null, t("replay.dealt")) : s.events.filter((e) => e.type !== "vp_total").map((e,
        i) => logLine(e, room, i)))),
    v("section", { class: "panel rp-board" },
      v("div", { class: "rp-row" }, v("span", { class: "rp-lbl" }, t("table.market")),
        cards(view.market.map((m) => m.card))),
      v("div", { class: "rp-row" }, v("span", { class: "rp-lbl" }, t("table.farm")),
        cards(view.farm.map((m) => m.card))),
      v("div", { class: "rp-row" }, v("span", { class: "rp-lbl" }, t("replay.ships")),
        COLORS.map((c) => v("span", { key: c, class: "rp-ship" }, colorChip(c, false), " ",
          t("loc." + view.ships[c])))),
      v("div", { class: "rp-row muted" }, t("table.draw_pile"), ": ", String(view.deck_size))),
    v("div", { class: "rp-players" }, view.players.map((p, seat) => playerBox(p, seat, view))),
    v("p", { class: "game-links" }, v("a", { class: "btn", href: appUrl("/r/" + encodeURIComponent(code)) },
      t("replay.back_room")), " ",
      v("a", { class: "btn small", id: "rp-json",
        href: appUrl(`/api/rooms/${encodeURIComponent(code)}/games/${game}/record.json`), download: "" },
        "⤓ " + t("res.json")), " ",
      v("a", { class: "btn small", id: "rp-txt",
        href: appUrl(`/api/rooms/${encodeURIComponent(code)}/games/${game}/record.txt`), download: "" },
        "⤓ " + t("res.txt"))),
  ], root);
}

document.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || !data) return;
  const to = { ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: data.steps.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  go(to);
});

async function main() {
  await initI18n();
  await loadTexts();
  onLangChange(async () => { await loadTexts(); if (data) draw(); });
  try {
    data = await api("GET", `/api/rooms/${encodeURIComponent(code)}/games/${game}/replay`);
  } catch (e) {
    const text = e.code === "game_not_over" ? t("replay.not_over") : gErr(e);
    render(v("section", { class: "panel" }, v("p", { id: "rp-error" }, text),
      v("a", { class: "btn", href: appUrl("/r/" + encodeURIComponent(code)) }, t("replay.back_room"))), root);
    return;
  }
  room = { players: data.players.map((p) => ({ ...p, bot: p.computer ?? !!p.bot_level })) };
  draw();
}

main();
