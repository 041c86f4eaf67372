// The game table (R-info: drawn only from this seat's player view): route, Market, Farm,
// piles, players, your hand and merchandise, the action bar (bar.js), the decision dialog
// (decide.js), the result. The skeleton is built once; each part is drawn by Preact in
// place, so focus and selection stay on the same control across updates. `ctx` is owned by
// room.js: {room, view, seat, sel: {market, pay: Set, discard: Set, goods: Set}, rove,
//   act(action), pending, inflight, hostBot(seat, level), redraw(), later(ms)}
import { h as v, render } from "../vendor/preact.js";
import { h, appUrl } from "./dom.js";
import { t, tn, listText, listParts } from "./i18n.js";
import { COLORS, SYMBOL, cardEl, cardColor, cardValue, cardChip } from "./cards.js";
import { PLAYER_COLORS, playerName, markerOf, isComputerSeat, nameTag, dot } from "./common.js";
import { buyableGoods, total } from "./payment.js";
import { buildRoute, updateRoute } from "./route.js";
import { barView } from "./bar.js";
import { syncDialog, wireDialog, dialogKey } from "./decide.js";
import { changesSince, turnsPlayed } from "./changes.js";
import { roving, rowKeys, SHORTCUTS } from "./keys.js";
import { idleS } from "./clock.js";

function row(id, labelId) {
  return h("div", { class: "cards" + (id === "market" ? " scroll" : ""), id, "data-row": id, role: "group",
    "aria-labelledby": labelId });
}

/** Create the table skeleton inside `root`; returns the named parts. */
export function buildTable(root, ctx) {
  const parts = {
    result: h("section", { class: "panel result", hidden: true }),
    summary: h("section", { class: "panel summary", id: "summary", hidden: true, "aria-labelledby": "summary-h" }),
    route: buildRoute(),
    market: row("market", "market-h"),
    marketInfo: h("div", { class: "row-info" }),
    farm: row("farm", "farm-h"),
    piles: h("div", { class: "piles" }),
    me: h("section", { class: "panel me", id: "me", "aria-labelledby": "hand-h" }),
    bar: h("div", { class: "actionbar", id: "actionbar", role: "region" }),
    keys: h("details", { class: "keys", id: "keys" }),
    players: h("ul", { class: "players", id: "players" }),
    log: h("ol", { class: "log", id: "log", "aria-labelledby": "log-h", tabindex: "0" }),
    dialog: h("dialog", { class: "dialog", id: "decision", "aria-labelledby": "dlg-h" }),
  };
  parts.logTitle = h("h2", { class: "small-h log-h", id: "log-h" });
  parts.playersTitle = h("h2", { class: "small-h", id: "players-h" });
  parts.marketTitle = h("h2", { class: "row-h", id: "market-h" });
  parts.farmTitle = h("h2", { class: "row-h", id: "farm-h" });
  // Two columns on a desktop (the game on the left; players and the log on the right, the
  // log always in view with its own scroll), one column on a phone in the same order.
  root.textContent = "";
  root.append(h("div", { class: "table" },
    parts.title = h("h1", { class: "sr", id: "table-h" }),
    parts.result,
    h("div", { class: "table-main" },
      parts.summary,
      h("section", { class: "board panel", "aria-labelledby": "market-h" },
        h("div", { class: "route-box" }, parts.route),
        h("div", { class: "row market-row" }, h("div", { class: "row-top" }, parts.marketTitle, parts.marketInfo),
          parts.market),
        h("div", { class: "row farm-row" }, h("div", { class: "row-top" }, parts.farmTitle), parts.farm),
        parts.piles),
      parts.me,
      parts.bar, parts.keys),
    h("div", { class: "table-side" },
      h("section", { class: "panel players-panel", tabindex: "0", "aria-labelledby": "players-h" }, parts.playersTitle,
        parts.players),
      // The log is a live region (role="log"): other players' moves are read out as they come.
      h("section", { class: "panel logbox", "aria-labelledby": "log-h" }, parts.logTitle,
        h("div", { class: "log-live", id: "log-live", role: "log", "aria-live": "polite", "aria-labelledby": "log-h" },
          parts.log),
        parts.earlier = h("p", { id: "earlier", class: "small-p" }))),
  ), parts.dialog);
  for (const r of [parts.market, parts.farm]) rowKeys(ctx, r);
  wireDialog(ctx, parts.dialog);
  return parts;
}

function pieceOf(ctx, seat) {
  return { initial: markerOf(ctx.room, seat), pcolor: PLAYER_COLORS[seat % 4], name: playerName(ctx.room, seat),
    bot: isComputerSeat(ctx.room, seat) };
}

/** A player's round swatch: player colour and the table-unique marker (decoration). */
export function swatch(room, seat) {
  return v("span", { class: "swatch pc-" + PLAYER_COLORS[seat % 4] + (isComputerSeat(room, seat) ? " bot" : ""),
    title: t("table.marker", { name: playerName(room, seat), m: markerOf(room, seat) }),
    "aria-hidden": "true" }, markerOf(room, seat));
}

function myDecision(ctx) {
  const w = ctx.view;
  return ctx.seat !== null && w && w.phase !== "over" && w.to_act === ctx.seat;
}

function resultView(ctx) {
  const w = ctx.view;
  const winners = w.winners || [];
  const rows = w.players.map((p, seat) => ({ seat, vp: p.vp ?? 0,
    tokens: COLORS.reduce((a, c) => a + (p.tokens[c] || 0), 0) }));
  rows.sort((a, b) => b.vp - a.vp || b.tokens - a.tokens || a.seat - b.seat);
  const names = listParts(winners.map((s) => nameTag(ctx.room, s)));
  return [
    v("h2", { id: "result-h", tabIndex: -1 }, t("result.title")),
    v("p", { class: "winners" }, v("span", { "aria-hidden": "true" }, "★ "), tn("result.winner", { names,
      n: winners.length })),
    v("table", { class: "score" },
      v("thead", null, v("tr", null, v("th", { scope: "col" }, t("result.player")), v("th", { scope: "col" },
        t("result.vp")), v("th", { scope: "col" }, t("result.tokens")))),
      v("tbody", null, rows.map((r) => v("tr", { key: r.seat, class: winners.includes(r.seat) ? "win" : "" },
        v("td", null, v("span", { class: "who" }, swatch(ctx.room, r.seat), playerName(ctx.room, r.seat),
          r.seat === ctx.seat ? " (" + t("room.you") + ")" : "")),
        v("td", { class: "num" }, String(r.vp)),
        v("td", { class: "num" }, String(r.tokens)))))),
    v("div", { id: "result-more" }),
    v("p", null, v("a", { class: "btn", href: appUrl("/") }, t("result.new_game"))),
  ];
}

function slotCards(ctx, slots, where) {
  if (!slots.length) return v("span", { class: "muted empty" }, t("table.empty"));
  const turn = myDecision(ctx) && ctx.view.phase === "turn";
  const tab = roving(ctx, where, slots.map((m) => m.card));
  return slots.map((m) => {
    const by = m.reserved_by;
    const reserved = by !== null && by !== undefined;
    return cardEl(m.card, {
      button: true, tabIndex: tab(m.card), selected: ctx.sel.market === m.card,
      dim: reserved && by !== ctx.seat && where === "market",
      reservedBy: reserved ? pieceOf(ctx, by) : null,
      fresh: ctx.changes.fresh.has(m.card),
      disabled: !turn,
      onclick: () => { ctx.sel.market = ctx.sel.market === m.card ? null : m.card; ctx.redraw(); },
    });
  });
}

/** Achievement tokens as symbols, read as one sentence ("Achievement tokens: 2 red, 0 blue…"). */
function tokensEl(tokens, gained = {}) {
  const said = listText(COLORS.map((c) => t("table.token_count", { n: tokens[c] || 0, color: t("color." + c) })));
  return v("span", { class: "tokens", role: "img", "aria-label": t("table.tokens") + ": " + said,
    title: t("table.tokens") },
    COLORS.map((c) => v("span", { key: c, class: "tok s-" + c + ((tokens[c]
      || 0) ? "" : " zero") + (gained[c] ? " gained" : "") }, SYMBOL[c], v("b", null, String(tokens[c] || 0)))));
}

function goodsEl(goods, fresh = new Set()) {
  if (!goods.length) return v("span", { class: "muted" }, t("table.nothing"));
  const by = {};
  for (const g of goods) (by[cardColor(g.card)] ||= []).push(g);
  return v("span", { class: "goods", role: "list" }, COLORS.filter((c) => by[c]).map((c) =>
    v("span", { key: c, class: "goods-group", role: "listitem" }, by[c].sort((a,
      b) => cardValue(b.card) - cardValue(a.card)).map((g) => cardEl(g.card, { small: true, insured: g.insured,
        fresh: fresh.has(g.card) })))));
}

/** Goods a player lost to a Black Tide since your last turn, as a short note. */
function lostNote(ctx, seat) {
  const lost = ctx.changes.lost[seat];
  return lost ? v("span", { class: "lost-note" }, tn("chg.lost", { cards: v("span", { class: "lcards" },
    lost.map(cardChip)) })) : null;
}

function reservationWhere(view, seat) {
  if (view.market.some((m) => m.reserved_by === seat)) return "market";
  if (view.farm.some((m) => m.reserved_by === seat)) return "farm";
  return null;
}

function playerView(ctx, p, seat) {
  const w = ctx.view, room = ctx.room;
  const rp = (room.players || []).find((x) => x.seat === seat) || {};
  const where = reservationWhere(w, seat);
  const acting = w.phase !== "over" && w.to_act === seat;
  const res = t(where === "market" ? "table.res_market" : where === "farm" ? "table.res_farm" : "table.res_free");
  return v("li", { key: seat, class: "player" + (acting ? " acting" : "") + (seat === ctx.seat ? " mine" : ""),
    "data-seat": seat },
    v("div", { class: "pl-head" },
      swatch(room, seat),
      dot(room, rp),
      v("b", { class: "pl-name" }, playerName(room, seat)),
      seat === ctx.seat ? v("span", { class: "badge you" }, t("room.you")) : null,
      // A computer player's name already says so; a person's seat played by one gets a badge.
      rp.bot && !isComputerSeat(room, seat) ? v("span", { class: "badge bot" }, t("room.bot",
        { level: t("level." + (rp.bot_level || "normal")) })) : null,
      acting ? v("span", { class: "badge acting-badge" }, v("span", { "aria-hidden": "true" }, "▶ "),
        t("table.turn_marker")) : null,
      p.vp !== undefined && p.vp !== null ? v("span", { class: "badge vp" }, p.vp + " " + t("table.vp")) : null),
    v("div", { class: "pl-line" },
      v("span", { class: "handsize" }, v("span", { class: "pile-back mini", "aria-hidden": "true" }), " ",
        t("table.hand_size", { n: p.hand_size })),
      tokensEl(p.tokens, ctx.changes.tokens[seat]),
      v("span", { class: "res-state" + (where ? " used" : ""), title: res },
        v("span", { class: "piece-mini pc-" + PLAYER_COLORS[seat % 4] + (where ? " used" : ""),
          "aria-hidden": "true" }),
        v("span", { class: "sr" }, res))),
    v("div", { class: "pl-line" }, v("span", { class: "muted" }, t("table.goods") + ":"), goodsEl(p.goods,
      ctx.changes.bought), lostNote(ctx, seat)),
    handover(ctx, seat, rp));
}

/** "Let a computer player take over" on a disconnected opponent's card (protocol.md): the
 *  host may do it at once, every other seated player after `handover_after_s` offline; and
 *  without a turn timer on a connected seat sitting on its decision that long. */
function handover(ctx, seat, rp) {
  const w = ctx.view, room = ctx.room;
  if (room.stale || ctx.seat === null || seat === ctx.seat || w.phase === "over" || rp.seat === undefined
    || rp.bot) return null;
  const after = room.handover_after_s ?? 60;
  if (rp.connected) {
    const idle = !room.turn_limit_s && ctx.clock && ctx.clock.seat === seat ? idleS() : null;
    if (idle === null) return null;
    if (idle < after) { ctx.later((after - idle) * 1000 + 250); return null; }
    return letBot(ctx, seat, v("span", { class: "muted" }, t("table.let_bot_idle")));
  }
  const isHost = room.you === room.host_seat && !rp.since_start;
  const off = (rp.offline_s ?? 0) + (performance.now() - (ctx.roomAt || performance.now())) / 1000;
  if (!isHost && off < after) {
    ctx.later((after - off) * 1000 + 250);
    return v("div", { class: "pl-line handover muted" }, t("table.let_bot_later", { n: after }));
  }
  return letBot(ctx, seat, isHost && off < after ? v("span", { class: "muted" }, t("table.let_bot_host")) : null);
}

function letBot(ctx, seat, note) {
  const id = "level-" + seat;
  return v("div", { class: "pl-line handover" }, note,
    v("span", { class: "bar-group" },
      v("select", { id, "aria-label": t("room.level") }, ["easy", "normal", "hard"].map((l) => v("option", { value: l,
        selected: l === "normal" }, t("level." + l)))),
      v("button", { type: "button", class: "btn small", title: t("table.let_bot_title"),
        onClick: () => ctx.hostBot(seat, document.getElementById(id).value) }, t("table.let_bot"))));
}

const wired = new WeakSet();
function wireRow(ctx) {
  return (el) => { if (el && !wired.has(el)) { wired.add(el); rowKeys(ctx, el); } };
}

function meView(ctx) {
  const w = ctx.view, me = w.players[ctx.seat];
  const hand = (me.hand || []).slice().sort((a, b) => cardColor(a).localeCompare(cardColor(b))
    || cardValue(a) - cardValue(b) || a - b);
  const tab = roving(ctx, "hand", hand);
  return [
    v("div", { class: "me-head" },
      v("h2", { class: "small-h", id: "hand-h" }, t("table.your_hand"), " · ", v("span", { class: "coins" },
        t("table.coins", { n: total(hand) }))),
      v("span", { class: "vp-me" }, t("table.your_vp", { n: me.vp ?? 0 })),
      tokensEl(me.tokens, ctx.changes.tokens[ctx.seat])),
    v("div", { class: "cards hand", id: "hand", "data-row": "hand", role: "group", "aria-labelledby": "hand-h",
      ref: wireRow(ctx) },
      hand.length ? hand.map((id) => cardEl(id, {
        button: true, tabIndex: tab(id), selected: ctx.sel.pay.has(id), disabled: w.phase !== "turn",
        onclick: () => { ctx.sel.pay.has(id) ? ctx.sel.pay.delete(id) : ctx.sel.pay.add(id); ctx.redraw(); },
      })) : v("span", { class: "muted" }, t("table.empty"))),
    v("div", { class: "me-goods" }, v("h2", { class: "small-h" }, t("table.your_goods")), goodsEl(me.goods,
      ctx.changes.bought), lostNote(ctx, ctx.seat)),
  ];
}

/** The list of shortcuts under the action bar (keys.js). */
function keysView() {
  return [v("summary", null, t("keys.title")),
    v("ul", null, SHORTCUTS.map(([k, id]) => v("li", { key: k }, v("kbd", null, k), " ", t("keys." + id)))),
    v("p", { class: "muted small-p" }, t("keys.arrows"))];
}

/** Drop selections that no longer make sense after a new view. */
export function pruneSelection(ctx) {
  const w = ctx.view;
  if (!w) return;
  const ids = new Set([...w.market, ...w.farm].map((m) => m.card));
  if (ctx.sel.market !== null && !ids.has(ctx.sel.market)) ctx.sel.market = null;
  const me = ctx.seat !== null ? w.players[ctx.seat] : null;
  const hand = new Set((me && me.hand) || []);
  for (const id of [...ctx.sel.pay]) if (!hand.has(id)) ctx.sel.pay.delete(id);
  for (const id of [...ctx.sel.discard]) if (!hand.has(id)) ctx.sel.discard.delete(id);
  const goods = new Set(me ? me.goods.filter((g) => !g.insured).map((g) => g.card) : []);
  for (const id of [...ctx.sel.goods]) if (!goods.has(id)) ctx.sel.goods.delete(id);
}

/** Redraw every part of the table from ctx.view and ctx.room. */
export function renderTable(ctx, parts) {
  const w = ctx.view;
  const over = w.phase === "over";
  ctx.dialogKey = () => dialogKey(ctx);
  ctx.changes = changesSince(ctx.events || [], w, ctx.seat);
  ctx.turnsPlayed = turnsPlayed(ctx.events || [], ctx.seat);
  updateRoute(parts.route, w.ships, ctx.changes.moved);
  // The payment summary's module comes only once there was a payment (not on first load).
  if ((ctx.events || []).some((e) => e.type === "payment")) import("./summary.js").then((m) => m.renderSummary(ctx,
    parts.summary));
  parts.title.textContent = t("table.title");
  parts.marketTitle.textContent = t("table.market");
  parts.farmTitle.textContent = t("table.farm");
  parts.logTitle.textContent = t("table.log");
  parts.playersTitle.textContent = t("table.players");
  const goods = ctx.seat !== null ? buyableGoods(w,
    ctx.seat) : w.market.filter((m) => m.reserved_by == null).map((m) => m.card);
  render(goods.length ? v("span", { class: "cost" }, t("table.buy_cost", { cost: total(goods) })) : null,
    parts.marketInfo);
  render(slotCards(ctx, w.market, "market"), parts.market);
  render(slotCards(ctx, w.farm, "farm"), parts.farm);
  const top = w.discard.slice(-6).reverse();
  render([
    v("span", { class: "pile" }, v("span", { class: "pile-back", "aria-hidden": "true" }), t("table.draw_pile"), ": ",
      v("b", { id: "deck-size" }, String(w.deck_size))),
    v("span", { class: "pile" }, t("table.discard_pile"), ": ", v("b", null, String(w.discard.length)), " ",
      v("span", { class: "lcards" }, top.map((id, i) => [i ? " " : null,
        cardChip(id)])), w.discard.length > 6 ? " …" : ""),
    ctx.changes.any ? v("span", { class: "fresh-legend" }, v("span", { class: "lbl-long" }, t("chg.legend")), v("span",
      { class: "lbl-short" }, t("chg.legend_short"))) : null,
  ], parts.piles);
  parts.result.hidden = !over;
  render(over ? resultView(ctx) : null, parts.result);
  if (over) import("./games.js").then((m) => m.renderResultMore(ctx, document.getElementById("result-more")));
  if (ctx.room.game > 1) import("./games.js").then((m) => m.renderEarlier(parts.earlier, ctx.room));
  render(w.players.map((p, seat) => playerView(ctx, p, seat)), parts.players);
  parts.me.hidden = ctx.seat === null;
  render(ctx.seat === null ? null : meView(ctx), parts.me);
  parts.bar.hidden = over;
  parts.keys.hidden = over || ctx.seat === null;
  parts.bar.className = "actionbar" + (ctx.seat === null ? " watching" : "");
  parts.bar.setAttribute("aria-label", t("table.actions"));
  const me = ctx.seat === null ? null : (ctx.room.players || []).find((x) => x.seat === ctx.seat);
  render(over ? null : ctx.seat === null ? v("p", { class: "hint", id: "spectator-note" }, t("table.spectator"))
    : me && me.bot ? v("p", { class: "hint", id: "taken-over" }, t("table.taken_over"), " ",
      v("button", { type: "button", class: "btn primary", id: "take-back", onClick: ctx.takeBack },
        t("table.take_back")))
    : barView(ctx), parts.bar);
  render(keysView(), parts.keys);
  syncDialog(ctx, parts.dialog);
}

/** The top-bar text: whose turn or decision it is; {text, mine}, and `nodes` (DOM: the same
 *  with the player's swatch before the name) when it names another player. */
export function turnText(ctx) {
  const w = ctx.view;
  if (!w) return { text: t("turn.waiting"), mine: false };
  if (w.phase === "over") return { text: t("turn.over"), mine: false };
  const mine = myDecision(ctx);
  const name = playerName(ctx.room, w.to_act);
  const tag = nameTag(ctx.room, w.to_act, { make: h });
  const key = w.phase === "token_draft" ? "turn.draft_other"
    : w.phase === "insurance" ? "turn.insure_other" : "turn.other";
  if (ctx.seat === null) {
    return { text: t("turn.watching", { text: t(key, { name }) }), nodes: tn("turn.watching", { text: tn(key,
      { name: tag }) }), mine: false };
  }
  if (!mine) return { text: t(key, { name }), nodes: tn(key, { name: tag }), mine };
  const own = w.phase === "token_draft" ? "turn.draft_you" : w.phase === "insurance" ? "turn.insure_you" : "turn.yours";
  return { text: t(own), mine };
}

export { listParts };
