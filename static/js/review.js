// The review of a finished game on its replay page (docs/ui.md "Review"; docs/protocol.md
// "Review"): each player's win chance over the game as an inline SVG chart with a data table
// for screen readers and keyboards, the three biggest swings per player in one sentence each,
// and per-player VP totals (Black Tide, insurance, unsold). Loaded by replay.js with import()
// once the replay is drawn; its texts are the lazy catalogue part i18n/review-<lang>.js.
import { h } from "../vendor/preact.js";
import { t, tn, loadPart, listParts } from "./i18n.js";
import { api } from "./net.js";
import { SYMBOL, colorChip } from "./cards.js";
import { nameTag } from "./common.js";

await loadPart("review");

const POLL_MS = 3000;
// One line colour per seat (distinct from the goods' colours; each line also has its own dash).
const SEAT_COLORS = ["#1f5fbf", "#c0392b", "#2e8b57", "#8e44ad"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3"];
let got = null;         // the last GET answer: {status, progress, review}
let timer = null;

/** Ask the server for the review of game `game` of room `code` (again every POLL_MS while it is
 *  being computed) and call `redraw` with each answer. */
export function loadReview(code, game, redraw) {
  const ask = async () => {
    try {
      got = await api("GET", `/api/rooms/${encodeURIComponent(code)}/games/${game}/review`);
    } catch (e) {
      got = { status: "error", progress: 0, review: null, error: e };
    }
    redraw();
    clearTimeout(timer);
    if (got.status === "pending" || got.status === "running" || got.status === "none") timer = setTimeout(ask, POLL_MS);
  };
  ask();
}

const fmt = (x, digits = 1) => Number(x).toLocaleString(document.documentElement.lang || "en",
  { minimumFractionDigits: digits, maximumFractionDigits: digits });
const chip = (c, v) => h("span", { class: "lc s-" + c, role: "img", "aria-label": t("color." + c) + " " + v },
  SYMBOL[c] + v);

/** A move of a swing ({type, color, value, goods, colors}) as a phrase of the sentence. */
export function movePhrase(m) {
  switch (m.type) {
    case "take": return tn("rv.m_take", { card: chip(m.color, m.value) });
    case "reserve": return tn("rv.m_reserve", { card: chip(m.color, m.value) });
    case "buy": return tn("rv.m_buy", { n: m.goods, colors: listParts((m.colors || []).map((c) => colorChip(c))) });
    case "insure": return m.goods ? t("rv.m_insure", { n: m.goods }) : t("rv.m_insure_none");
    case "choose_token": return tn("rv.m_token", { color: colorChip(m.color) });
    default: return t("rv.m_pass");
  }
}

/** One swing ({turn, chosen, best, vp, win, context}) as one sentence (vnodes). */
export function swingSentence(s) {
  const colors = s.context ? listParts(s.context.colors.map((c) => colorChip(c))) : null;
  const ctx = s.context ? tn("rv.ctx_" + s.context.code, { colors }) : "";
  return tn(s.turn ? "rv.swing" : "rv.swing_draft", { turn: s.turn, chosen: movePhrase(s.chosen),
    best: movePhrase(s.best), context: ctx, vp: fmt(s.vp),
    win: Math.round(s.win) >= 1 ? t("rv.win_part", { n: Math.round(s.win), win: fmt(s.win, 0) }) : "" });
}

function chart(room, review) {
  const ds = review.decisions;
  const n = (ds[0] && ds[0].chances.length) || 0;
  const W = 400, H = 210, L = 34, B = 22, T = 10, R = 8;
  const last = ds.length ? ds[ds.length - 1].version : 1;
  const x = (v) => L + (W - L - R) * (v / Math.max(1, last));
  const y = (p) => T + (H - T - B) * (1 - p / 100);
  const grid = [0, 25, 50, 75, 100].map((p) => h("g", { key: p },
    h("line", { x1: L, x2: W - R, y1: y(p), y2: y(p), class: "rv-grid" }),
    h("text", { x: L - 4, y: y(p) + 4, class: "rv-axis", "text-anchor": "end" }, p + "%")));
  const lines = [];
  for (let seat = 0; seat < n; seat++) {
    const pts = ds.map((d) => `${x(d.version).toFixed(1)},${y(d.chances[seat]).toFixed(1)}`).join(" ");
    lines.push(h("polyline", { key: seat, points: pts, fill: "none", stroke: SEAT_COLORS[seat], "stroke-width": 2.5,
      "stroke-dasharray": DASHES[seat], "data-seat": seat }));
  }
  return h("figure", { class: "rv-chart" },
    h("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": "rv-chart-cap", id: "rv-svg" },
    grid, h("text", { x: (L + W) / 2, y: H - 4, class: "rv-axis", "text-anchor": "middle" }, t("rv.axis_x")), lines),
    h("figcaption", { id: "rv-chart-cap" }, t("rv.chart_caption"), " ",
      h("span", { class: "rv-legend" }, Array.from({ length: n }, (_, seat) => h("span", { key: seat, class: "rv-key" },
        h("svg", { width: 26, height: 10, "aria-hidden": "true" }, h("line", { x1: 1, x2: 25, y1: 5, y2: 5,
          stroke: SEAT_COLORS[seat], "stroke-width": 3, "stroke-dasharray": DASHES[seat] })), " ",
        nameTag(room, seat))))));
}

function chartTable(room, review) {
  const ds = review.decisions;
  const n = (ds[0] && ds[0].chances.length) || 0;
  const seats = Array.from({ length: n }, (_, s) => s);
  return h("details", { class: "rv-data" }, h("summary", null, t("rv.table_show")),
    h("div", { class: "rv-scroll" }, h("table", { class: "score", id: "rv-table" },
      h("caption", null, t("rv.table_caption")),
      h("thead", null, h("tr", null, h("th", { scope: "col" }, t("rv.turn")), h("th", { scope: "col" }, t("rv.who")),
        seats.map((s) => h("th", { scope: "col", key: s }, nameTag(room, s))))),
      h("tbody", null, ds.map((d) => h("tr", { key: d.index },
        h("th", { scope: "row" }, d.turn ? String(d.turn) : t("rv.draft")), h("td", null, nameTag(room, d.seat)),
        seats.map((s) => h("td", { class: "num", key: s }, fmt(d.chances[s], 0) + "\u00a0%"))))))));
}

function swings(room, review, go) {
  return h("section", { class: "rv-swings", "aria-labelledby": "rv-swings-h" },
    h("h3", { id: "rv-swings-h" }, t("rv.swings")),
    review.swings.map((p) => h("div", { key: p.seat, class: "rv-player", "data-seat": p.seat },
      h("h4", null, nameTag(room, p.seat)),
      p.items.length ? h("ol", { class: "rv-list" }, p.items.map((s) => h("li", { key: s.index, class: "rv-swing" },
        swingSentence(s), " ",
        h("button", { type: "button", class: "btn small rv-go", onClick: () => go(s.index + 1),
          "aria-label": t("rv.show_turn", { turn: s.turn }) }, t("rv.show")))))
        : h("p", { class: "muted" }, t("rv.no_swings")))));
}

function totals(room, review) {
  return h("section", { "aria-labelledby": "rv-totals-h" }, h("h3", { id: "rv-totals-h" }, t("rv.totals")),
    h("div", { class: "rv-scroll" }, h("table", { class: "score", id: "rv-totals" },
      h("caption", null, t("rv.totals_caption")),
      h("thead", null, h("tr", null, h("th", { scope: "col" }, t("rv.player")),
        h("th", { scope: "col" }, t("rv.tide_lost")), h("th", { scope: "col" }, t("rv.insured_saved")),
        h("th", { scope: "col" }, t("rv.unsold")))),
      h("tbody", null, review.totals.map((x) => h("tr", { key: x.seat, "data-seat": x.seat },
        h("th", { scope: "row" }, nameTag(room, x.seat)),
        h("td", { class: "num" }, String(x.tide_lost)), h("td", { class: "num" }, String(x.insured_saved)),
        h("td", { class: "num" }, String(x.unsold))))))));
}

/** The review section of the replay page (a vnode): its status while it is computed, then the
 *  chart, its table, the swings and the totals. `go(step)` shows that step of the replay. */
export function reviewView(room, go) {
  const head = h("h2", { id: "rv-h" }, t("rv.title"));
  const box = (...kids) => h("section", { class: "panel rv", id: "review", "aria-labelledby": "rv-h" }, head, ...kids);
  if (!got) return box(h("p", { class: "muted", id: "rv-status" }, t("rv.loading")));
  if (got.status !== "ready" || !got.review) {
    const text = got.status === "failed" ? t("rv.failed") : got.status === "error" ? t("rv.error")
      : t("rv.progress", { p: got.progress });
    return box(h("p", { id: "rv-status", role: "status" }, text));
  }
  const review = got.review;
  return box(
    h("p", { class: "muted", id: "rv-about" }, t("rv.about", { n: review.reviewed, sims: review.simulations })),
    review.decisions.length ? [chart(room, review), chartTable(room, review)] : h("p", null, t("rv.nothing")),
    swings(room, review, go), totals(room, review));
}
