// The game table (R-info: drawn only from this seat's player view): route, Market, Farm,
// piles, players, your hand and merchandise, the action bar (bar.js), the decision dialog
// (decide.js), the result: views of the room page's tree (room.js), drawn in place, so focus
// and selection stay on the same control across updates.
// `ctx` is owned by room.js: {room, view, seat, sel: {market, pay: Set, discard: Set, goods: Set}, rove,
//   act(action), pending, inflight, hostBot(seat, level), redraw(), later(ms)}
import { h } from "../vendor/preact.js";
import { appUrl } from "./dom.js";
import { t, tn, listText, listParts } from "./i18n.js";
import { COLORS, SYMBOL, cardEl, cardColor, cardValue, cardChip } from "./cards.js";
import { PLAYER_COLORS, playerName, markerOf, isComputerSeat, nameTag, dot, lazy, hints } from "./common.js";
import { purchase, total } from "./payment.js";
import { routeView } from "./route.js";
import { barView } from "./bar.js";
import { dialogView } from "./decide.js";
import { changesSince, turnsPlayed, shown } from "./changes.js";
import { roving, rowKeys, SHORTCUTS } from "./keys.js";
import { idleS, Thinking, botThinking } from "./clock.js";
import { logEntries } from "./logview.js";

// The payment summary's module comes only once there was a payment (not on first load); the
// end screen's (games.js, with its texts) at the end or in a later game.
const summary = lazy(() => import("./summary.js"));
const hinted = (ctx) => { const m = hints(ctx); return m ? m.hintedCards(ctx) : new Set(); };
export const games = lazy(() => import("./games.js").then(async (m) => { await m.loadTexts(); return m; }));

// The card rows' arrow keys (keys.js), wired once per row element (one ref function: Preact
// calls it again only for a new element).
const wired = new WeakSet();
let rowRef = null;
function wireRow(ctx) {
  return rowRef ||= (el) => { if (el && !wired.has(el)) { wired.add(el); rowKeys(ctx, el); } };
}

function row(ctx, id, labelId, cards) {
  return h("div", { class: "cards" + (id === "market" ? " scroll" : ""), id, "data-row": id, role: "group",
    "aria-labelledby": labelId, ref: wireRow(ctx) }, cards);
}

/** What changed since your last turn (ctx.changes, ctx.turnsPlayed), for redraw(). After a reload,
 *  what this tab had drawn already stays marked but does not move again. */
export function tableChanges(ctx) {
  const w = ctx.view, room = ctx.room, events = ctx.events || [];
  ctx.shown ||= { game: room.game, seat: ctx.seat, n: shown(room.code, room.game, ctx.seat) };
  ctx.changes = changesSince(events, w, ctx.seat, ctx.shown.game === room.game && ctx.shown.seat === ctx.seat
    ? ctx.shown.n : 0);
  shown(room.code, room.game, ctx.seat, events.length);
  ctx.turnsPlayed = turnsPlayed(events, ctx.seat);
}

/** The table: two columns on a desktop (the game on the left; players and the log on the right,
 *  the log always in view with its own scroll), one column on a phone in the same order; then
 *  the dialog. `kept(view)`: a part room.js's paint() leaves as it was; `chat` beside the log. */
export function tableView(ctx, kept, chat, logRef) {
  const w = ctx.view;
  const over = w.phase === "over";
  const g = ctx.room.game > 1 ? games(ctx.redraw) : null;
  return [
    h("div", { class: "table", key: "table" },
      kept(() => [
        h("h1", { class: "sr", id: "table-h", key: "h1" }, t("table.title")),
        h("section", { class: "panel result", hidden: !over, key: "result" }, over ? resultView(ctx) : null),
        h("div", { class: "table-main", key: "main" }, mainView(ctx)),
      ]),
      h("div", { class: "table-side" },
        kept(() => h("section", { class: "panel players-panel", tabindex: "0", "aria-labelledby": "players-h" },
          h("h2", { class: "small-h", id: "players-h" }, t("table.players")),
          h("ul", { class: "players", id: "players" }, w.players.map((p, seat) => playerView(ctx, p, seat))))),
        // The log is a live region (role="log"): other players' moves are read out as they come.
        h("section", { class: "panel logbox", "aria-labelledby": "log-h" },
          h("h2", { class: "small-h log-h", id: "log-h" }, t("table.log")),
          h("div", { class: "log-live", id: "log-live", role: "log", "aria-live": "polite",
            "aria-labelledby": "log-h" },
            // one entry per turn, one <li> per event line inside it (keyed: only new lines are added)
            h("ol", { class: "log", id: "log", "aria-labelledby": "log-h", tabindex: "0", ref: logRef },
              logEntries(ctx.view, ctx.room, ctx.events))),
          h("p", { id: "earlier", class: "small-p" }, g ? g.earlierView(ctx.room) : null)),
        chat)),
    kept(() => dialogView(ctx)),
  ];
}

function mainView(ctx) {
  const w = ctx.view;
  const over = w.phase === "over";
  const offer = purchase(w);
  const top = w.discard.slice(-6).reverse();
  const me = ctx.seat === null ? null : (ctx.room.players || []).find((x) => x.seat === ctx.seat);
  const sum = (ctx.events || []).some((e) => e.type === "payment") ? summary(ctx.redraw) : null;
  const shownSum = sum && sum.summaryView(ctx);
  return [
    h("section", { class: "board panel", "aria-labelledby": "market-h" },
      h("div", { class: "route-box" }, routeView(w.ships, ctx.changes.moved, ctx.changes.quietShips)),
      h("div", { class: "row market-row" }, h("div", { class: "row-top" },
        h("h2", { class: "row-h", id: "market-h" }, t("table.market")),
        h("div", { class: "row-info" }, offer.goods.length ? h("span", { class: "cost" }, t("table.buy_cost",
          { cost: offer.cost })) : null)),
      row(ctx, "market", "market-h", slotCards(ctx, w.market, "market"))),
      h("div", { class: "row farm-row" }, h("div", { class: "row-top" },
        h("h2", { class: "row-h", id: "farm-h" }, t("table.farm"))), row(ctx, "farm", "farm-h",
        slotCards(ctx, w.farm, "farm"))),
      h("div", { class: "piles" },
        h("span", { class: "pile" }, h("span", { class: "pile-back", "aria-hidden": "true" }), t("table.draw_pile"),
          ": ", h("b", { id: "deck-size" }, String(w.deck_size))),
        h("span", { class: "pile" }, t("table.discard_pile"), ": ", h("b", null, String(w.discard.length)), " ",
          h("span", { class: "lcards" }, top.map((id, i) => [i ? " " : null,
            cardChip(id)])), w.discard.length > 6 ? " …" : ""),
        ctx.changes.any ? h("span", { class: "fresh-legend" }, h("span", { class: "lbl-long" }, t("chg.legend")),
          h("span", { class: "lbl-short" }, t("chg.legend_short"))) : null)),
    h("section", { class: "panel me", id: "me", "aria-labelledby": "hand-h", hidden: ctx.seat === null },
      ctx.seat === null ? null : meView(ctx)),
    h("div", { class: "actionbar" + (ctx.seat === null ? " watching" : ctx.dialogKey() ? " deciding" : ""),
      id: "actionbar", role: "region", "aria-label": t("table.actions"), hidden: over },
    over ? null : ctx.seat === null ? h("p", { class: "hint", id: "spectator-note" }, t("table.spectator"))
      : me && me.bot ? h("p", { class: "hint", id: "taken-over" }, t("table.taken_over"), " ",
        h("button", { type: "button", class: "btn primary", id: "take-back", onClick: ctx.takeBack },
          t("table.take_back")))
        : [barView(ctx), hints(ctx) && hints(ctx).hintView(ctx, "bar")]),
    // Under your hand and the bar: a payment never pushes them out of view.
    h("section", { class: "panel summary", id: "summary", hidden: !shownSum, "aria-labelledby": "summary-h" },
      shownSum || null),
    h("details", { class: "keys", id: "keys", hidden: over || ctx.seat === null }, keysView()),
  ];
}

function pieceOf(ctx, seat) {
  return { initial: markerOf(ctx.room, seat), pcolor: PLAYER_COLORS[seat % 4], name: playerName(ctx.room, seat),
    bot: isComputerSeat(ctx.room, seat) };
}

/** A player's round swatch: player colour and the table-unique marker (decoration). */
export function swatch(room, seat) {
  return h("span", { class: "swatch pc-" + PLAYER_COLORS[seat % 4] + (isComputerSeat(room, seat) ? " bot" : ""),
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
  const g = games(ctx.redraw);
  return [
    h("div", { id: "again-notice", class: "again-notice", role: "status" }, g ? g.notice(ctx) : null),
    h("h2", { id: "result-h", tabIndex: -1 }, t("result.title")),
    h("p", { class: "winners" }, h("span", { "aria-hidden": "true" }, "★ "), tn("result.winner", { names,
      n: winners.length })),
    h("table", { class: "score" },
      h("thead", null, h("tr", null, h("th", { scope: "col" }, t("result.player")), h("th", { scope: "col" },
        t("result.vp")), h("th", { scope: "col" }, t("result.tokens")))),
      h("tbody", null, rows.map((r) => h("tr", { key: r.seat, class: winners.includes(r.seat) ? "win" : "" },
        h("td", null, h("span", { class: "who" }, swatch(ctx.room, r.seat), playerName(ctx.room, r.seat),
          r.seat === ctx.seat ? " (" + t("room.you") + ")" : "",
          ctx.hints && ctx.hints[r.seat] ? h("span", { class: "badge assisted" }, t("result.assisted",
            { n: ctx.hints[r.seat] })) : null)),
        h("td", { class: "num" }, String(r.vp)),
        h("td", { class: "num" }, String(r.tokens)))))),
    h("div", { id: "result-more" }, g ? g.resultMore(ctx) : null),
    h("p", null, h("a", { class: "btn", href: appUrl("/") }, t("result.new_game"))),
  ];
}

function slotCards(ctx, slots, where) {
  if (!slots.length) return h("span", { class: "muted empty" }, t("table.empty"));
  const turn = myDecision(ctx) && ctx.view.phase === "turn";
  const tab = roving(ctx, where, slots.map((m) => m.card)), marked = hinted(ctx);
  return slots.map((m) => {
    const by = m.reserved_by;
    const reserved = by !== null && by !== undefined;
    return cardEl(m.card, {
      button: true, tabIndex: tab(m.card), selected: ctx.sel.market === m.card, hinted: marked.has(m.card),
      dim: reserved && by !== ctx.seat && where === "market",
      reservedBy: reserved ? pieceOf(ctx, by) : null,
      fresh: ctx.changes.fresh.has(m.card), seen: ctx.changes.quiet.has(m.card),
      disabled: !turn,
      onclick: () => { ctx.sel.market = ctx.sel.market === m.card ? null : m.card; ctx.redraw(); },
    });
  });
}

/** Achievement tokens as symbols, read as one sentence ("Achievement tokens: 2 red, 0 blue…"). */
function tokensEl(tokens, gained = {}) {
  const said = listText(COLORS.map((c) => t("table.token_count", { n: tokens[c] || 0, color: t("color." + c) })));
  return h("span", { class: "tokens", role: "img", "aria-label": t("table.tokens") + ": " + said,
    title: t("table.tokens") },
    COLORS.map((c) => h("span", { key: c, class: "tok s-" + c + ((tokens[c]
      || 0) ? "" : " zero") + (gained[c] ? " gained" : "") }, SYMBOL[c], h("b", null, String(tokens[c] || 0)))));
}

function goodsEl(goods, fresh = new Set(), quiet = new Set()) {
  if (!goods.length) return h("span", { class: "muted" }, t("table.nothing"));
  const by = {};
  for (const g of goods) (by[cardColor(g.card)] ||= []).push(g);
  return h("span", { class: "goods", role: "list" }, COLORS.filter((c) => by[c]).map((c) =>
    h("span", { key: c, class: "goods-group", role: "listitem" }, by[c].sort((a,
      b) => cardValue(b.card) - cardValue(a.card)).map((g) => cardEl(g.card, { small: true, insured: g.insured,
        fresh: fresh.has(g.card), seen: quiet.has(g.card) })))));
}

/** Goods a player lost to a Black Tide since your last turn, as a short note. */
function lostNote(ctx, seat) {
  const lost = ctx.changes.lost[seat];
  return lost ? h("span", { class: "lost-note" }, tn("chg.lost", { cards: h("span", { class: "lcards" },
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
  const cards = t("table.hand_size", { n: p.hand_size });
  return h("li", { key: seat, class: "player" + (acting ? " acting" : "") + (seat === ctx.seat ? " mine" : ""),
    "data-seat": seat },
    h("div", { class: "pl-head" },
      swatch(room, seat),
      dot(room, rp),
      h("b", { class: "pl-name" }, playerName(room, seat)),
      seat === ctx.seat ? [h("span", { class: "badge you" }, t("room.you")), h("button", { type: "button",
        class: "btn small", id: "seat-link", onClick: ctx.seatLink }, t("room.seat_link"))] : null,
      // A computer player's name already says so; a person's seat played by one gets a badge.
      rp.bot && !isComputerSeat(room, seat) ? h("span", { class: "badge bot" }, t("room.bot",
        { level: t("level." + (rp.bot_level || "normal")) })) : null,
      acting ? h("span", { class: "badge acting-badge" }, h("span", { "aria-hidden": "true" }, "▶ "),
        t("table.turn_marker")) : null,
      // Goods lost to a Black Tide on the name's line (its right end), not a line of their own.
      lostNote(ctx, seat)),
    // One compact line (four rows fit 1366×768); the words for screen readers.
    h("div", { class: "pl-line" }, botThinking(ctx, seat, rp) ? h(Thinking) : null,
      p.vp !== undefined && p.vp !== null ? h("span", { class: "badge vp" }, p.vp + " " + t("table.vp")) : null,
      h("span", { class: "handsize", title: cards }, h("span", { class: "sr" }, cards),
        h("span", { class: "pile-back mini", "aria-hidden": "true" }), h("b", { "aria-hidden": "true" }, p.hand_size)),
      tokensEl(p.tokens, ctx.changes.tokens[seat]),
      h("span", { class: "res-state" + (where ? " used" : ""), title: res },
        h("span", { class: "piece-mini pc-" + PLAYER_COLORS[seat % 4] + (where ? " used" : ""),
          "aria-hidden": "true" }),
        h("span", { class: "sr" }, res)),
      h("span", { class: "sr" }, t("table.goods") + ":"),
      p.goods.length ? goodsEl(p.goods, ctx.changes.bought, ctx.changes.quiet)
        : h("span", { class: "sr" }, t("table.nothing"))),
    handover(ctx, seat, rp));
}

/** "Let a computer player take over for {name}" on a disconnected opponent's card
 *  (protocol.md): the host may do it at once, every other seated player after
 *  `handover_after_s` offline (turn-based: host only); and without a turn timer on a connected seat sitting on its
 *  decision that long (counted from its return when it came back during it: `connected_s`).
 *  Drawn from each room summary, so the offer goes the moment the seat's presence frame
 *  says it is back. The note above the control always says why it is there. */
function handover(ctx, seat, rp) {
  const w = ctx.view, room = ctx.room;
  if (room.stale || ctx.seat === null || seat === ctx.seat || w.phase === "over" || rp.seat === undefined
    || rp.bot || (room.pace === "turn" && room.you !== room.host_seat)) return null;
  const after = room.handover_after_s ?? 60;
  const since = (performance.now() - (ctx.roomAt || performance.now())) / 1000;  // since the summary came
  const name = playerName(room, seat);
  if (rp.connected) {
    let idle = !room.turn_limit_s && ctx.clock && ctx.clock.seat === seat ? idleS() : null;
    if (idle === null) return null;
    if (rp.connected_s !== null && rp.connected_s !== undefined) idle = Math.min(idle, rp.connected_s + since);
    if (idle < after) { ctx.later((after - idle) * 1000 + 250); return null; }
    return letBot(ctx, seat, t("table.let_bot_idle"));
  }
  // Turn-based (only the host gets here): being offline is how such a game is played.
  if (room.pace === "turn") return letBot(ctx, seat, t("table.let_bot_turn"));
  const isHost = room.you === room.host_seat && !rp.since_start;
  const off = (rp.offline_s ?? 0) + since;
  if (off < after) ctx.later((after - off) * 1000 + 250);  // then the note changes (or the button comes)
  if (!isHost && off < after) {
    return h("div", { class: "pl-line handover muted" }, t("table.let_bot_later", { n: after }));
  }
  return letBot(ctx, seat, t(off < after ? "table.let_bot_host" : "table.let_bot_now", { name, n: after }));
}

function letBot(ctx, seat, note) {
  const id = "level-" + seat, name = playerName(ctx.room, seat);
  return h("div", { class: "pl-line handover" }, h("span", { class: "muted handover-note" }, note),
    h("span", { class: "bar-group" },
      h("label", { for: id }, t("room.level")),
      h("select", { id }, ["easy", "normal", "hard"].map((l) => h("option", { value: l,
        selected: l === "normal" }, t("level." + l)))),
      h("button", { type: "button", class: "btn small", title: t("table.let_bot_title"),
        onClick: () => ctx.hostBot(seat, document.getElementById(id).value) }, t("table.let_bot", { name }))));
}

function meView(ctx) {
  const w = ctx.view, me = w.players[ctx.seat];
  const hand = (me.hand || []).slice().sort((a, b) => cardColor(a).localeCompare(cardColor(b))
    || cardValue(a) - cardValue(b) || a - b);
  const tab = roving(ctx, "hand", hand), marked = hinted(ctx);
  return [
    h("div", { class: "me-head" },
      h("h2", { class: "small-h", id: "hand-h" }, t("table.your_hand"), " · ", h("span", { class: "coins" },
        t("table.coins", { n: total(hand) }))),
      h("span", { class: "vp-me" }, t("table.your_vp", { n: me.vp ?? 0 })),
      tokensEl(me.tokens, ctx.changes.tokens[ctx.seat])),
    h("div", { class: "cards hand", id: "hand", "data-row": "hand", role: "group", "aria-labelledby": "hand-h",
      ref: wireRow(ctx) },
      hand.length ? hand.map((id) => cardEl(id, {
        button: true, tabIndex: tab(id), selected: ctx.sel.pay.has(id), disabled: w.phase !== "turn",
        hinted: marked.has(id),
        onclick: () => { ctx.sel.pay.has(id) ? ctx.sel.pay.delete(id) : ctx.sel.pay.add(id); ctx.redraw(); },
      })) : h("span", { class: "muted" }, t("table.empty"))),
    h("div", { class: "me-goods" }, h("h2", { class: "small-h" }, t("table.your_goods")), goodsEl(me.goods,
      ctx.changes.bought, ctx.changes.quiet), lostNote(ctx, ctx.seat)),
  ];
}

/** The list of shortcuts under the action bar (keys.js). */
function keysView() {
  return [h("summary", null, t("keys.title")),
    h("ul", null, SHORTCUTS.map(([k, id]) => h("li", { key: k }, h("kbd", null, k), " ", t("keys." + id)))),
    h("p", { class: "muted small-p" }, t("keys.arrows"))];
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

/** The top-bar text: whose turn or decision it is; {text, mine}, and `nodes` (DOM: the same
 *  with the player's swatch before the name) when it names another player. */
export function turnText(ctx) {
  const w = ctx.view;
  if (!w) return { text: t("turn.waiting"), mine: false };
  if (w.phase === "over") return { text: t("turn.over"), mine: false };
  const mine = myDecision(ctx);
  const name = playerName(ctx.room, w.to_act);
  const tag = nameTag(ctx.room, w.to_act);
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
