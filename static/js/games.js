// Play again and the record of a game, loaded only when needed: the end screen's
// explanation (engine.game_result, sent with the final `state` as `result`), the buttons to
// play again, replay and download, and the "who is in" block of the waiting room: view
// functions of the room page's tree (drawn once this module and its texts are loaded: table.js).
import { h } from "../vendor/preact.js";
import { t, tn, listParts } from "./i18n.js";
import { api } from "./net.js";
import { toast, appUrl } from "./dom.js";
import { colorChip, COLORS } from "./cards.js";
import { errorText, nameTag } from "./common.js";
import { hold, moveOn, nextStarted, noticeView, loadTexts } from "./nextgame.js";
import { standingsView } from "./standings.js";

const enc = encodeURIComponent;
const gamePath = (code, n) => appUrl(`/r/${enc(code)}/games/${n}`);
const apiGame = (code, n) => appUrl(`/api/rooms/${enc(code)}/games/${n}`);

// This module's texts are the catalogue part i18n/games-<lang>.js (the same keys in both:
// tests/e2e/test_i18n.py), loaded with it, so the table page carries none of them until the end.
/** Load the texts of the part (call before drawing; i18n.js loads them again after a switch). */
export { loadTexts };
/** A refusal's text (common.js errorText, which reads this part's codes too once it is loaded). */
export function gErr(e) { return errorText(e.code, e.fields); }

let busy = false;
async function post(path, body) {
  if (busy) return;
  busy = true;
  try { await api("POST", path, body); } catch (e) { toast(gErr(e)); } finally { busy = false; }
}

// The review's status for the end screen's link: the room's `review` frames (roomstore.js), and
// once per game a GET, for a page opened after the review began (docs/protocol.md "Review").
const asked = new Set();
function reviewStatus(ctx, code, n) {
  const r = ctx.review && ctx.review.game === n ? ctx.review : null;
  if (!r && !asked.has(code + "/" + n)) {
    asked.add(code + "/" + n);
    api("GET", `/api/rooms/${enc(code)}/games/${n}/review`).then((got) => {
      if (!ctx.review || ctx.review.game !== n) {
        ctx.dispatch({ type: "review", game: n, status: got.status, progress: got.progress });
        ctx.redraw();
      }
    }).catch(() => { /* the link stays without a status */ });
  }
  return r;
}

function reviewLink(ctx, code, n) {
  const r = reviewStatus(ctx, code, n);
  const status = !r ? "" : r.status === "ready" ? t("res.review_ready") : r.status === "failed" ? t("res.review_failed")
    : r.status === "none" ? "" : t("res.review_progress", { p: r.progress });
  return [h("a", { class: "btn" + (r && r.status === "ready" ? " primary" : ""), href: gamePath(code, n) + "#review",
    id: "review-link" }, "✎ " + t("res.review")), " ",
  status ? h("span", { class: "muted", id: "review-status", role: "status" }, status) : null];
}

function links(ctx, code, n) {
  return h("p", { class: "game-links" },
    h("a", { class: "btn", href: gamePath(code, n), id: "replay-link" }, "▶ " + t("res.replay")), " ",
    reviewLink(ctx, code, n), " ",
    h("a", { class: "btn small", href: apiGame(code, n) + "/record.json", download: "" }, "⤓ " + t("res.json")), " ",
    h("a", { class: "btn small", href: apiGame(code, n) + "/record.txt", download: "" }, "⤓ " + t("res.txt")));
}

const again = (room) => post(`/api/rooms/${enc(room.code)}/again`, { game: room.game || 1 });

/** The notice of the next game at the top of the result (nextgame.js). */
export function notice(ctx) {
  const room = ctx.room;  // the finished game's (moving on first makes ctx.room the next one's)
  return room ? noticeView(ctx, () => again(room)) : null;
}

/** The end screen's explanation and buttons (the result panel's #result-more). */
export function resultMore(ctx) {
  const r = ctx.result, room = ctx.room;
  if (!r || !room) return null;
  const name = (s) => nameTag(room, s);
  const how = r.reason === "tokens"
    ? tn("res.how_tokens", { name: name(r.active), holders: h("span", null, listParts(r.token_seats.map(name))) })
    : tn("res.how_passes", { name: name(r.active) });
  const byRank = [...r.players].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  // Another player's "Play again" leaves this page on the result, with a notice (nextgame.js).
  ctx.hold ||= (msg) => hold(ctx, msg);
  return [
    h("p", { class: "how", id: "result-how" }, how),
    r.tie_break ? h("p", { class: "tie", id: "result-tie" },
      t(r.tie_break === "shared" ? "res.shared" : "res.tie_tokens")) : null,
    h("h3", null, t("res.sales")),
    h("table", { class: "score breakdown" },
      h("thead", null, h("tr", null, h("th", { scope: "col" }, t("res.rank")), h("th", { scope: "col" },
        t("result.player")),
        COLORS.map((c) => h("th", { scope: "col", key: c }, colorChip(c, false))), h("th", { scope: "col" },
          t("result.vp")))),
      h("tbody", null, byRank.map((p) => h("tr", { key: p.seat, class: p.rank === 1 ? "win" : "", "data-seat": p.seat },
        h("td", { class: "num" }, p.rank + "."),
        h("td", null, name(p.seat), p.sales.length ? null : h("span", { class: "muted" },
          " (" + t("res.no_sales") + ")")),
        COLORS.map((c) => h("td", { class: "num", key: c, title: p.sales.filter((x) => x.color === c)
          .map((x) => t("res.sale", { color: t("color." + c), count: x.cards.length, price: x.price,
            raw: x.price * x.cards.length, value: x.value, vp: x.vp })).join("; ") },
          p.vp_by_color[c] ? String(p.vp_by_color[c]) : "·")),
        h("td", { class: "num" }, h("b", null, String(p.vp))))))),
    h("ul", { class: "sales muted" }, byRank.filter((p) => p.sales.length).map((p) => h("li", { key: p.seat },
      name(p.seat), ": ",
      p.sales.map((x, i) => [i ? ", " : "", tn("res.sale", { color: colorChip(x.color, false), count: x.cards.length,
        price: x.price, raw: x.price * x.cards.length, value: x.value, vp: x.vp })])))),
    standingsView(room),
    ctx.seat !== null && !nextStarted(ctx) ? h("p", null, h("button", { type: "button",
      class: "btn primary big-btn", id: "again-btn", onClick: () => { moveOn(ctx); again(room); } },
    "↻ " + t("res.play_again")),
    " ", h("span", { class: "muted" }, t("res.play_again_hint"))) : null,
    links(ctx, room.code, room.game || 1),
  ];
}

/** Links to the replays of the room's earlier games (a vnode), for the waiting room and, under
 *  its log, the table of a later game. */
export function earlierView(room) {
  const ns = [];
  for (let n = 1; n < room.game; n++) ns.push(n);
  return h("span", { class: "earlier" }, t("again.previous"), " ",
    ns.map((n, i) => [i ? ", " : "", h("a", { href: gamePath(room.code, n), key: n }, t("again.game_n", { n }))]));
}

/** The waiting room of a rematch (its #again): who is in, "I'm in" / "Leave my seat", earlier games. */
export function rematchView(room) {
  const me = room.you !== null ? room.players.find((p) => p.seat === room.you) : null;
  const base = `/api/rooms/${enc(room.code)}`;
  return h("div", { class: "rematch", id: "rematch" },
    h("h2", null, t("again.title", { n: room.game })),
    h("ul", { class: "ins" }, room.players.map((p) => h("li", { key: p.seat, class: p.ready ? "in" : "out",
      "data-seat": p.seat },
      nameTag(room, p.seat), " ", h("b", null, p.ready ? "✓ " + t("again.in") : "… " + t("again.not_yet"))))),
    h("p", null,
      me && !me.ready ? h("button", { type: "button", class: "btn primary", id: "im-in-btn",
        onClick: () => post(base + "/again", { game: room.game - 1 }) }, "✓ " + t("again.im_in")) : null, " ",
      me && room.you !== room.host_seat ? h("button", { type: "button", class: "btn", id: "leave-btn",
        onClick: () => post(base + "/leave") }, t("again.leave")) : null),
    h("p", { class: "muted" }, t("again.host_starts")),
    standingsView(room),
    h("p", null, earlierView(room)));
}
