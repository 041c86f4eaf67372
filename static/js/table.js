// The game table (R-info: drawn only from this seat's player view): route, Market, Farm,
// piles, players, your hand and merchandise, the action bar, the token-draft and insurance
// dialogs, the result screen. `ctx` is owned by room.js:
//   {room, view, seat, sel: {market, pay: Set, discard: Set, goods: Set}, act(action),
//    pending, hostBot(seat, level), redraw()}
import { h, fill } from "./dom.js";
import { t, tn } from "./i18n.js";
import { COLORS, SYMBOL, cardEl, cardColor, cardValue, cardIcons, cardText, colorChip, cardChip } from "./cards.js";
import { PLAYER_COLORS, playerName, markerOf, isComputerSeat } from "./common.js";
import { buyableGoods, total, checkPayment, suggestPayment } from "./payment.js";
import { buildRoute, updateRoute } from "./route.js";

/** Create the table skeleton inside `root`; returns the named parts. */
export function buildTable(root) {
  const parts = {
    result: h("section", { class: "panel result", hidden: true, "aria-live": "polite" }),
    route: buildRoute(),
    market: h("div", { class: "cards scroll", id: "market" }),
    marketInfo: h("div", { class: "row-info" }),
    farm: h("div", { class: "cards", id: "farm" }),
    piles: h("div", { class: "piles" }),
    me: h("section", { class: "panel me", id: "me" }),
    bar: h("div", { class: "actionbar", id: "actionbar" }),
    players: h("ul", { class: "players", id: "players" }),
    log: h("ol", { class: "log", id: "log" }),
    dialog: h("div", { class: "overlay", hidden: true }),
  };
  parts.logTitle = h("h2", { class: "small-h log-h" });
  parts.playersTitle = h("h2", { class: "small-h" });
  parts.marketTitle = h("h2", { class: "row-h" });
  parts.farmTitle = h("h2", { class: "row-h" });
  // Two columns on a desktop (the game on the left; players and the log on the right, the
  // log always in view with its own scroll), one column on a phone in the same order.
  fill(root, h("div", { class: "table" },
    parts.result,
    h("div", { class: "table-main" },
      h("section", { class: "board panel" },
        h("div", { class: "route-box" }, parts.route),
        h("div", { class: "row market-row" }, h("div", { class: "row-top" }, parts.marketTitle, parts.marketInfo), parts.market),
        h("div", { class: "row farm-row" }, h("div", { class: "row-top" }, parts.farmTitle), parts.farm),
        parts.piles),
      parts.me,
      parts.bar),
    h("div", { class: "table-side" },
      h("section", { class: "panel players-panel" }, parts.playersTitle, parts.players),
      h("section", { class: "panel logbox" }, parts.logTitle, parts.log)),
  ), parts.dialog);
  return parts;
}

function pieceOf(ctx, seat) {
  const name = playerName(ctx.room, seat);
  return { initial: markerOf(ctx.room, seat), pcolor: PLAYER_COLORS[seat % 4], name, bot: isComputerSeat(ctx.room, seat) };
}

/** A player's round swatch: player colour and the table-unique marker. */
export function swatchEl(room, seat) {
  const m = markerOf(room, seat);
  return h("span", { class: "swatch pc-" + PLAYER_COLORS[seat % 4] + (isComputerSeat(room, seat) ? " bot" : ""),
    title: t("table.marker", { name: playerName(room, seat), m }), "aria-hidden": "true" }, m);
}

function reservationWhere(view, seat) {
  if (view.market.some((m) => m.reserved_by === seat)) return "market";
  if (view.farm.some((m) => m.reserved_by === seat)) return "farm";
  return null;
}

function myDecision(ctx) {
  const v = ctx.view;
  return ctx.seat !== null && v && v.phase !== "over" && v.to_act === ctx.seat;
}

/** What the selected Market/Farm card allows: {take: reason|null, reserve: reason|null}. */
function cardActions(ctx) {
  const v = ctx.view, seat = ctx.seat, id = ctx.sel.market;
  const out = { take: null, reserve: null };
  if (!(myDecision(ctx) && v.phase === "turn")) return { take: t("why.not_your_turn"), reserve: t("why.not_your_turn") };
  if (id === null) return { take: t("why.pick_market"), reserve: t("why.pick_card") };
  const inMarket = v.market.find((m) => m.card === id);
  const inFarm = v.farm.find((m) => m.card === id);
  const slot = inMarket || inFarm;
  if (!slot) return { take: t("why.pick_market"), reserve: t("why.pick_card") };
  const by = slot.reserved_by;
  if (!inMarket) out.take = t("why.farm_no_take");
  else if (by !== null && by !== undefined && by !== seat) out.take = t("why.reserved_other", { name: playerName(ctx.room, by) });
  const where = reservationWhere(v, seat);
  if (!v.players[seat].reservation_free) out.reserve = t(where === "farm" ? "why.res_on_farm" : "why.res_on_market");
  else if (by !== null && by !== undefined) out.reserve = t("why.already_reserved");
  return out;
}

/** True when pass is the only legal action (R-turn-3): nothing to take, reserve or buy. */
export function passOnly(view, seat) {
  if (view.phase !== "turn" || view.to_act !== seat) return false;
  const me = view.players[seat];
  const takeable = view.market.some((m) => m.reserved_by === null || m.reserved_by === undefined || m.reserved_by === seat);
  const free = (m) => m.reserved_by === null || m.reserved_by === undefined;
  const reservable = me.reservation_free && (view.market.some(free) || view.farm.some(free));
  const goods = buyableGoods(view, seat);
  const buyable = goods.length > 0 && me.hand && total(me.hand) >= total(goods);
  return !takeable && !reservable && !buyable;
}

function renderResult(ctx, el) {
  const v = ctx.view;
  if (v.phase !== "over") { el.hidden = true; return; }
  el.hidden = false;
  const winners = v.winners || [];
  const rows = v.players.map((p, seat) => ({ seat, vp: p.vp ?? 0, tokens: COLORS.reduce((a, c) => a + (p.tokens[c] || 0), 0) }));
  rows.sort((a, b) => b.vp - a.vp || b.tokens - a.tokens || a.seat - b.seat);
  const names = winners.map((s) => playerName(ctx.room, s)).join(", ");
  fill(el,
    h("h2", null, t("result.title")),
    h("p", { class: "winners" }, "★ ", t(winners.length > 1 ? "result.winners" : "result.winner", { names })),
    v.end_reason ? h("p", { class: "muted" }, t("result.reason_" + v.end_reason)) : null,
    h("table", { class: "score" },
      h("thead", null, h("tr", null, h("th", null, t("result.player")), h("th", null, t("result.vp")), h("th", null, t("result.tokens")))),
      h("tbody", null, rows.map((r) => h("tr", { class: winners.includes(r.seat) ? "win" : "" },
        h("td", null, h("span", { class: "who" }, swatchEl(ctx.room, r.seat), playerName(ctx.room, r.seat), r.seat === ctx.seat ? " (" + t("room.you") + ")" : "")),
        h("td", { class: "num" }, String(r.vp)),
        h("td", { class: "num" }, String(r.tokens)))))),
    h("p", null, h("a", { class: "btn primary", href: "/" }, t("result.new_game"))));
}

function slotCards(ctx, slots, where) {
  if (!slots.length) return [h("span", { class: "muted empty" }, t("table.empty"))];
  const turn = myDecision(ctx) && ctx.view.phase === "turn";
  return slots.map((m) => {
    const by = m.reserved_by;
    const reserved = by !== null && by !== undefined;
    return cardEl(m.card, {
      button: true,
      selected: ctx.sel.market === m.card,
      dim: reserved && by !== ctx.seat && where === "market",
      reservedBy: reserved ? pieceOf(ctx, by) : null,
      disabled: !turn,
      onclick: () => { ctx.sel.market = ctx.sel.market === m.card ? null : m.card; ctx.redraw(); },
    });
  });
}

function tokensEl(tokens) {
  return h("span", { class: "tokens", title: t("table.tokens") },
    COLORS.map((c) => h("span", { class: "tok s-" + c + ((tokens[c] || 0) ? "" : " zero"), "aria-label": t("color." + c) + " " + (tokens[c] || 0) }, SYMBOL[c], h("b", null, String(tokens[c] || 0)))));
}

function goodsEl(goods, small = true) {
  if (!goods.length) return h("span", { class: "muted" }, t("table.nothing"));
  const by = {};
  for (const g of goods) (by[cardColor(g.card)] ||= []).push(g);
  return h("span", { class: "goods" }, COLORS.filter((c) => by[c]).map((c) =>
    h("span", { class: "goods-group" }, by[c].sort((a, b) => cardValue(b.card) - cardValue(a.card)).map((g) => cardEl(g.card, { small, insured: g.insured })))));
}

function renderPlayers(ctx, ul) {
  const v = ctx.view;
  const room = ctx.room;
  fill(ul, v.players.map((p, seat) => {
    const rp = (room.players || []).find((x) => x.seat === seat) || {};
    const where = reservationWhere(v, seat);
    const acting = v.phase !== "over" && v.to_act === seat;
    const on = rp.connected || rp.bot;
    const res = t(where === "market" ? "table.res_market" : where === "farm" ? "table.res_farm" : "table.res_free");
    return h("li", { class: "player" + (acting ? " acting" : "") + (seat === ctx.seat ? " mine" : ""), dataset: { seat } },
      h("div", { class: "pl-head" },
        swatchEl(room, seat),
        h("span", { class: "dot " + (on ? "on" : "off"), title: t(on ? "room.connected" : "room.disconnected"), "aria-label": t(on ? "room.connected" : "room.disconnected") }),
        h("b", { class: "pl-name" }, playerName(room, seat)),
        seat === ctx.seat ? h("span", { class: "badge you" }, t("room.you")) : null,
        // A computer player's name already says so; a person's seat played by one gets a badge.
        rp.bot && !isComputerSeat(room, seat) ? h("span", { class: "badge bot" }, t("room.bot", { level: t("level." + (rp.bot_level || "normal")) })) : null,
        acting ? h("span", { class: "badge acting-badge" }, "▶ " + t("table.turn_marker")) : null,
        p.vp !== undefined && p.vp !== null ? h("span", { class: "badge vp" }, p.vp + " " + t("table.vp")) : null),
      h("div", { class: "pl-line" },
        h("span", { class: "handsize" }, h("span", { class: "pile-back mini", "aria-hidden": "true" }), " ", t("table.hand_size", { n: p.hand_size })),
        tokensEl(p.tokens),
        h("span", { class: "res-state" + (where ? " used" : ""), title: res },
          h("span", { class: "piece-mini pc-" + PLAYER_COLORS[seat % 4] + (where ? " used" : ""), "aria-hidden": "true" }),
          h("span", { class: "sr" }, res))),
      h("div", { class: "pl-line" }, h("span", { class: "muted" }, t("table.goods") + ":"), goodsEl(p.goods)),
      handover(ctx, seat, rp),
    );
  }));
}

/** "Let a computer player take over" on a disconnected opponent's card (protocol.md): the
 *  host may do it at once, every other seated player after `handover_after_s` offline. */
function handover(ctx, seat, rp) {
  const v = ctx.view, room = ctx.room;
  if (ctx.seat === null || seat === ctx.seat || v.phase === "over" || rp.seat === undefined || rp.bot || rp.connected) return null;
  const isHost = room.you !== null && room.you === room.host_seat;
  const after = room.handover_after_s ?? 60;
  const off = (rp.offline_s ?? 0) + (performance.now() - (ctx.roomAt || performance.now())) / 1000;
  if (!isHost && off < after) {
    ctx.later((after - off) * 1000 + 250);
    return h("div", { class: "pl-line handover muted" }, t("table.let_bot_later", { n: after }));
  }
  const sel = h("select", { "aria-label": t("room.level") }, ["easy", "normal", "hard"].map((l) => h("option", { value: l, selected: l === "normal" }, t("level." + l))));
  return h("div", { class: "pl-line handover" },
    isHost && off < after ? h("span", { class: "muted" }, t("table.let_bot_host")) : null,
    h("span", { class: "bar-group" }, sel,
      h("button", { type: "button", class: "btn small", title: t("table.let_bot_title"), onclick: () => ctx.hostBot(seat, sel.value) }, t("table.let_bot"))));
}

function renderMe(ctx, el) {
  const v = ctx.view;
  if (ctx.seat === null) { el.hidden = true; return; }
  el.hidden = false;
  const me = v.players[ctx.seat];
  const hand = (me.hand || []).slice().sort((a, b) => cardColor(a).localeCompare(cardColor(b)) || cardValue(a) - cardValue(b) || a - b);
  const canSelect = v.phase === "turn";
  fill(el,
    h("div", { class: "me-head" },
      h("h2", { class: "small-h" }, t("table.your_hand"), " · ", String(total(hand))),
      h("span", { class: "vp-me" }, t("table.your_vp", { n: me.vp ?? 0 })),
      tokensEl(me.tokens)),
    h("div", { class: "cards hand", id: "hand" }, hand.length ? hand.map((id) => cardEl(id, {
      button: true,
      selected: ctx.sel.pay.has(id),
      disabled: !canSelect,
      onclick: () => { ctx.sel.pay.has(id) ? ctx.sel.pay.delete(id) : ctx.sel.pay.add(id); ctx.redraw(); },
    })) : h("span", { class: "muted" }, t("table.empty"))),
    h("div", { class: "me-goods" }, h("h2", { class: "small-h" }, t("table.your_goods")), goodsEl(me.goods)));
}

function btn(label, reason, onclick, primary, id) {
  return h("button", {
    type: "button", id: id || null, class: "btn" + (primary ? " primary" : ""), disabled: !!reason || undefined,
    title: reason || null, onclick,
  }, label);
}

function renderBar(ctx, el) {
  const v = ctx.view;
  if (v.phase === "over") { el.hidden = true; return; }
  if (ctx.seat === null) {
    // A spectator is told so where the players' buttons would be.
    el.hidden = false;
    el.className = "actionbar watching";
    fill(el, h("p", { class: "hint", id: "spectator-note" }, t("table.spectator")));
    return;
  }
  el.className = "actionbar";
  el.hidden = false;
  const mine = myDecision(ctx) && v.phase === "turn";
  if (!mine) {
    el.hidden = v.phase !== "turn";
    fill(el, h("p", { class: "hint" }, t("table.hint_wait")));
    return;
  }
  const seat = ctx.seat;
  const me = v.players[seat];
  if (passOnly(v, seat)) {
    fill(el, h("p", { class: "hint" }, t("table.pass_why")), btn(t("table.pass"), null, () => ctx.act({ type: "pass" }), true, "btn-pass"));
    return;
  }
  const ca = cardActions(ctx);
  const goods = buyableGoods(v, seat);
  const cost = total(goods);
  const pay = [...ctx.sel.pay];
  const sel = total(pay);
  // buyWhy: why Buy is disabled (a string, for the title); buyNote: the same shown as a
  // sentence, red only when the selection itself is wrong (too small, too much).
  let buyWhy = null, buyNote = null, buyBad = false;
  if (!goods.length) buyWhy = t("why.no_goods");
  else if (total(me.hand || []) < cost) buyWhy = t("why.cannot_afford", { sum: total(me.hand || []), cost });
  else {
    const chk = checkPayment(pay, cost);
    if (!chk.ok) {
      buyBad = chk.why !== "empty";
      if (chk.why === "empty") buyWhy = t("why.select_payment", { cost });
      else if (chk.why === "too_small") buyWhy = t("why.too_small", { sel, cost });
      else { buyWhy = t("why.not_minimal", { card: cardText(chk.spare) }); buyNote = tn("why.not_minimal", { card: cardChip(chk.spare) }); }
    }
  }
  const busy = ctx.pending ? "…" : null;
  const why = [ca.take, ca.reserve].filter(Boolean);
  fill(el,
    h("div", { class: "bar-group" },
      btn(t("table.take"), busy || ca.take, () => ctx.act({ type: "take", card: ctx.sel.market }), false, "btn-take"),
      btn(t("table.reserve"), busy || ca.reserve, () => ctx.act({ type: "reserve", card: ctx.sel.market }), false, "btn-reserve"),
      ctx.sel.market === null ? h("span", { class: "why hint-long", id: "turn-hint" }, t("table.hint_turn")) : (why.length ? h("span", { class: "why" }, why[0]) : null)),
    h("div", { class: "bar-group pay" },
      h("span", { class: "paycount" + (buyWhy ? "" : " ok") + (buyBad ? " bad" : ""), id: "paycount" }, t("table.selected", { sel, cost })),
      btn(t("table.suggest"), !goods.length || total(me.hand || []) < cost ? t("why.cannot_afford", { sum: total(me.hand || []), cost }) : null, () => {
        const s = suggestPayment(me.hand || [], cost, me.goods.map((g) => g.card));
        if (s) { ctx.sel.pay = new Set(s); ctx.redraw(); }
      }, false, "btn-suggest"),
      pay.length ? btn(t("table.clear"), null, () => { ctx.sel.pay.clear(); ctx.redraw(); }, false, "btn-clear") : null,
      btn(t("table.buy"), busy || buyWhy, () => ctx.act({ type: "buy", payment: pay }), true, "btn-buy"),
      buyWhy ? h("span", { class: "why" + (buyBad ? " bad" : ""), id: "buy-why" }, buyNote || buyWhy) : null));
}

function renderDraft(ctx) {
  return h("div", { class: "dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "dlg-h" },
    h("h2", { id: "dlg-h" }, t("draft.title")),
    h("p", null, t("draft.text")),
    h("div", { class: "draft-choices" }, COLORS.map((c) => h("button", {
      type: "button", class: "btn token-btn s-" + c, disabled: ctx.pending || undefined, dataset: { color: c },
      onclick: () => ctx.act({ type: "choose_token", color: c }),
    }, h("span", { class: "big-sym" }, SYMBOL[c]), t("color." + c)))));
}

function renderInsure(ctx) {
  const v = ctx.view, me = v.players[ctx.seat];
  const sinking = v.sinking || [];
  const atRisk = me.goods.filter((g) => !g.insured && sinking.includes(cardColor(g.card)));
  const handCards = (me.hand || []).filter((id) => sinking.includes(cardColor(id)) && cardIcons(id) > 0);
  // Per sinking colour: shields from the selected hand cards, goods chosen to save (R-pay-6).
  const shields = {}, chosen = {};
  for (const c of sinking) {
    shields[c] = [...ctx.sel.discard].filter((id) => cardColor(id) === c).reduce((a, id) => a + cardIcons(id), 0);
    chosen[c] = [...ctx.sel.goods].filter((id) => cardColor(id) === c).length;
  }
  const short = sinking.find((c) => chosen[c] > shields[c]);
  // A hand card whose shields are not needed (R-pay-6a: the discard must be minimal).
  const spare = [...ctx.sel.discard].find((id) => shields[cardColor(id)] - cardIcons(id) >= chosen[cardColor(id)]);
  let why = null, whyNode = null, bad = false;
  if (!ctx.sel.goods.size) why = t("insure.why_none");
  else if (short) {
    why = t("insure.why_short", { sym: SYMBOL[short], color: t("color." + short) });
    whyNode = tn("insure.why_short", { sym: colorChip(short, false), color: t("color." + short) });
    bad = true;
  } else if (spare !== undefined) {
    why = t("insure.why_extra", { card: cardText(spare) });
    whyNode = tn("insure.why_extra", { card: cardChip(spare) });
    bad = true;
  }
  const anySel = ctx.sel.goods.size > 0 || ctx.sel.discard.size > 0;
  const toggle = (set, id) => () => { set.has(id) ? set.delete(id) : set.add(id); ctx.redraw(); };
  const pick = (set) => (id) => cardEl(id, { button: true, pick: true, selected: set.has(id), onclick: toggle(set, id) });
  const ships = sinking.map((c, i) => [i ? ", " : null, colorChip(c)]);
  return h("div", { class: "dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "dlg-h" },
    h("h2", { id: "dlg-h" }, t("insure.title")),
    h("p", null, tn("insure.sinking", { ships })),
    h("h3", null, t("insure.save")),
    h("p", { class: "muted small-p" }, t("insure.save_hint")),
    h("div", { class: "cards pick-row", id: "insure-goods" }, atRisk.map((g) => g.card).map(pick(ctx.sel.goods))),
    h("h3", null, t("insure.discard")),
    h("div", { class: "cards pick-row", id: "insure-hand" }, handCards.length ? handCards.map(pick(ctx.sel.discard)) : h("span", { class: "muted" }, t("table.nothing"))),
    anySel ? h("p", { class: "icons-left", id: "insure-count" }, sinking.map((c) => h("span", { class: chosen[c] > shields[c] ? "bad" : "" },
      tn("insure.shields", { sym: colorChip(c, false), n: shields[c], g: chosen[c] })))) : null,
    h("div", { class: "bar-group" },
      btn(t("insure.confirm"), ctx.pending ? "…" : why,
        () => ctx.act({ type: "insure", discard: [...ctx.sel.discard], goods: [...ctx.sel.goods] }), true, "insure-confirm"),
      btn(t("insure.nothing"), ctx.pending ? "…" : null, () => ctx.act({ type: "insure", discard: [], goods: [] }), false, "insure-none")),
    why ? h("p", { class: "why" + (bad ? " bad" : ""), id: "insure-why" }, whyNode || why) : null);
}

function renderDialog(ctx, el) {
  const v = ctx.view;
  let d = null;
  if (myDecision(ctx) && v.phase === "token_draft") d = renderDraft(ctx);
  else if (myDecision(ctx) && v.phase === "insurance") d = renderInsure(ctx);
  el.hidden = !d;
  if (d) fill(el, d); else fill(el);
}

/** Drop selections that no longer make sense after a new view. */
export function pruneSelection(ctx) {
  const v = ctx.view;
  if (!v) return;
  const ids = new Set([...v.market, ...v.farm].map((m) => m.card));
  if (ctx.sel.market !== null && !ids.has(ctx.sel.market)) ctx.sel.market = null;
  const me = ctx.seat !== null ? v.players[ctx.seat] : null;
  const hand = new Set((me && me.hand) || []);
  for (const id of [...ctx.sel.pay]) if (!hand.has(id)) ctx.sel.pay.delete(id);
  for (const id of [...ctx.sel.discard]) if (!hand.has(id)) ctx.sel.discard.delete(id);
  const goods = new Set(me ? me.goods.filter((g) => !g.insured).map((g) => g.card) : []);
  for (const id of [...ctx.sel.goods]) if (!goods.has(id)) ctx.sel.goods.delete(id);
}

/** Redraw every part of the table from ctx.view and ctx.room. */
export function renderTable(ctx, parts) {
  const v = ctx.view;
  updateRoute(parts.route, v.ships);
  parts.marketTitle.textContent = t("table.market");
  parts.farmTitle.textContent = t("table.farm");
  parts.logTitle.textContent = t("table.log");
  parts.playersTitle.textContent = t("table.players");
  const goods = ctx.seat !== null ? buyableGoods(v, ctx.seat) : v.market.filter((m) => m.reserved_by == null).map((m) => m.card);
  fill(parts.marketInfo, goods.length ? h("span", { class: "cost" }, t("table.buy_cost", { cost: total(goods) })) : null);
  fill(parts.market, slotCards(ctx, v.market, "market"));
  fill(parts.farm, slotCards(ctx, v.farm, "farm"));
  const top = v.discard.slice(-6).reverse();
  fill(parts.piles,
    h("span", { class: "pile" }, h("span", { class: "pile-back", "aria-hidden": "true" }), t("table.draw_pile"), ": ", h("b", { id: "deck-size" }, String(v.deck_size))),
    h("span", { class: "pile" }, t("table.discard_pile"), ": ", h("b", null, String(v.discard.length)), " ",
      h("span", { class: "lcards" }, top.map((id) => h("span", { class: "lc s-" + cardColor(id) }, cardText(id)))), v.discard.length > 6 ? " …" : ""));
  renderResult(ctx, parts.result);
  renderPlayers(ctx, parts.players);
  renderMe(ctx, parts.me);
  renderBar(ctx, parts.bar);
  renderDialog(ctx, parts.dialog);
}

/** The top-bar text: whose turn or decision it is; {text, mine}. */
export function turnText(ctx) {
  const v = ctx.view;
  if (!v) return { text: t("turn.waiting"), mine: false };
  if (v.phase === "over") return { text: t("turn.over"), mine: false };
  const mine = myDecision(ctx);
  const name = playerName(ctx.room, v.to_act);
  if (ctx.seat === null) {
    const key = v.phase === "token_draft" ? "turn.draft_other" : v.phase === "insurance" ? "turn.insure_other" : "turn.other";
    return { text: t("turn.watching", { text: t(key, { name }) }), mine: false };
  }
  if (v.phase === "token_draft") return { text: mine ? t("turn.draft_you") : t("turn.draft_other", { name }), mine };
  if (v.phase === "insurance") return { text: mine ? t("turn.insure_you") : t("turn.insure_other", { name }), mine };
  return { text: mine ? t("turn.yours") : t("turn.other", { name }), mine };
}

export { tn };
