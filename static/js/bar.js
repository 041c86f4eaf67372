// The action bar of a seated player (Preact vnodes, drawn in place): Take / Reserve for the
// selected Market or Farm card, the payment (selected / cost, Suggest, Clear, Buy), Pass
// when nothing else is legal (R-turn-3), and the way back into a decision dialog. A button
// that cannot be used now stays focusable: aria-disabled, its reason linked by
// aria-describedby (and shown as text), its shortcut key on it (keys.js).
import { h } from "../vendor/preact.js";
import { t, tn } from "./i18n.js";
import { cardText, cardChip } from "./cards.js";
import { playerName } from "./common.js";
import { purchase, total, checkPayment, suggestPayment, canBuy } from "./payment.js";
import { announce } from "./keys.js";

function myTurn(ctx) {
  const v = ctx.view;
  return ctx.seat !== null && v && v.phase === "turn" && v.to_act === ctx.seat;
}

function reservationWhere(view, seat) {
  if (view.market.some((m) => m.reserved_by === seat)) return "market";
  if (view.farm.some((m) => m.reserved_by === seat)) return "farm";
  return null;
}

/** What the selected Market/Farm card allows: {take: reason|null, reserve: reason|null}. */
export function cardActions(ctx) {
  const v = ctx.view, seat = ctx.seat, id = ctx.sel.market;
  if (!myTurn(ctx)) return { take: t("why.not_your_turn"), reserve: t("why.not_your_turn") };
  const slot = v.market.find((m) => m.card === id) || v.farm.find((m) => m.card === id);
  if (id === null || !slot) return { take: t("why.pick_market"), reserve: t("why.pick_card") };
  const out = { take: null, reserve: null };
  const by = slot.reserved_by;
  if (!v.market.includes(slot)) out.take = t("why.farm_no_take");
  else if (by !== null && by !== undefined && by !== seat) out.take = t("why.reserved_other",
    { name: playerName(ctx.room, by) });
  const where = reservationWhere(v, seat);
  if (!v.players[seat].reservation_free) out.reserve = t(where === "farm" ? "why.res_on_farm" : "why.res_on_market");
  else if (by !== null && by !== undefined) out.reserve = t("why.already_reserved");
  return out;
}

/** True when pass is the only legal action (R-turn-3): nothing to take, reserve or buy. */
export function passOnly(view, seat) {
  if (view.phase !== "turn" || view.to_act !== seat) return false;
  const me = view.players[seat];
  const free = (m) => m.reserved_by === null || m.reserved_by === undefined;
  const takeable = view.market.some((m) => free(m) || m.reserved_by === seat);
  const reservable = me.reservation_free && (view.market.some(free) || view.farm.some(free));
  return !takeable && !reservable && !canBuy(view);
}

/**
 * A button that stays in place: `why` (a reason) makes it aria-disabled with the reason in
 * a hidden element it points to (the visible reason is drawn by the caller). `key`: its
 * shortcut, shown on the button and in aria-keyshortcuts. Pressed while disabled (click,
 * Enter, Space, its shortcut) it calls `onRefused(why)`, by default only announcing it.
 */
export function actBtn({ id, label, why, onClick, primary, key, onRefused = announce }) {
  return [
    h("button", { type: "button", id, class: "btn" + (primary ? " primary" : ""),
      "aria-disabled": why ? "true" : null, "aria-describedby": why ? id + "-why" : null,
      "aria-keyshortcuts": key || null, title: why || null,
      onClick: () => (why ? onRefused(why) : onClick()) },
    label, key ? h("kbd", { "aria-hidden": "true" }, key) : null),
    h("span", { id: id + "-why", class: "sr" }, why || ""),
  ];
}

function buyState(ctx, me, offer, pay) {
  const sum = total(me.hand || []), cost = offer.cost;
  if (!myTurn(ctx)) return { why: t("why.not_your_turn") };
  if (!offer.goods.length) return { why: t("why.no_goods") };
  if (!offer.payments.length) return { why: t("why.cannot_afford", { sum, cost }) };
  const chk = checkPayment(pay, offer);
  if (chk.ok) return { why: null };
  if (chk.why === "empty") return { why: t("why.select_payment", { cost }) };
  if (chk.why === "too_small") return { why: t("why.too_small", { sel: total(pay), cost }), bad: true };
  return { why: t("why.not_minimal", { card: cardText(chk.spare) }), note: tn("why.not_minimal",
    { card: cardChip(chk.spare) }), bad: true };
}

/** A button's label and its short form (`<key>_short`), shown on a phone (Suggest's also in a narrow bar). */
const labels = (key) => [h("span", { class: "lbl-long" }, t(key)), h("span", { class: "lbl-short" },
  t(key + "_short"))];

/** The action bar's content for a seated player while the game goes on. */
export function barView(ctx) {
  const v = ctx.view, seat = ctx.seat, me = v.players[seat];
  // While the host has paused the game no move counts: the buttons say so (its words: pace.js's part).
  const busy = ctx.pending ? t("table.sending") : ctx.room.paused_at ? t("err.game_paused") : null;
  const decision = ctx.dialogKey && ctx.dialogKey();
  const decide = decision ? actBtn({ id: "btn-decide", key: "D", primary: true,
    label: t(v.phase === "token_draft" ? "table.decide_draft" : "table.decide_insure"),
    onClick: () => ctx.openDialog() }) : null;
  if (passOnly(v, seat)) {
    return [h("p", { class: "hint", key: "pass-why" }, t("table.pass_why")),
      h("div", { class: "bar-group", key: "pass" }, actBtn({ id: "btn-pass", key: "P", primary: true,
        label: t("table.pass"), why: busy, onClick: () => ctx.act({ type: "pass" }) }))];
  }
  const ca = cardActions(ctx);
  // A disabled button that was pressed shows its reason in its own group's line (not only to
  // screen readers), for as long as that stays its reason.
  const refused = (id) => (why) => { ctx.pressedWhy = { id, why }; announce(why); ctx.redraw(); };
  const offer = purchase(v), cost = offer.cost, pay = [...ctx.sel.pay], sel = total(pay);
  const buy = buyState(ctx, me, offer, pay);
  const canSuggest = myTurn(ctx) && canBuy(v);
  const whys = { "btn-take": busy || ca.take, "btn-reserve": busy || ca.reserve, "btn-buy": busy || buy.why,
    "btn-suggest": canSuggest ? null : buy.why || t("why.cannot_afford", { sum: total(me.hand || []), cost }),
    "btn-clear": pay.length ? null : t("why.nothing_selected") };
  const pressed = ctx.pressedWhy && whys[ctx.pressedWhy.id] === ctx.pressedWhy.why ? ctx.pressedWhy : null;
  ctx.pressedWhy = pressed;
  const pressedIn = (ids) => (pressed && ids.includes(pressed.id) ? pressed.why : null);
  const cardWhy = !myTurn(ctx) ? (decision ? "" : t(v.phase === "turn" ? "table.hint_wait" : "why.not_your_turn"))
    // The how-to hint only in your first turns; later the buttons speak for themselves.
    : ctx.sel.market === null ? ((ctx.turnsPlayed
      || 0) < 2 ? t("table.hint_turn") : "") : ca.take && ca.reserve ? ca.take : "";
  return [
    decide ? h("div", { class: "bar-group", key: "decide" }, decide) : null,
    h("div", { class: "bar-group", key: "card" },
      actBtn({ id: "btn-take", key: "T", label: t("table.take"), why: whys["btn-take"], onRefused: refused("btn-take"),
        onClick: () => ctx.act({ type: "take", card: ctx.sel.market }) }),
      actBtn({ id: "btn-reserve", key: "R", label: labels("table.reserve"), why: whys["btn-reserve"],
        onRefused: refused("btn-reserve"), onClick: () => ctx.act({ type: "reserve", card: ctx.sel.market }) }),
      h("span", { class: "why" + (ctx.sel.market === null && myTurn(ctx) && !pressedIn(["btn-take", "btn-reserve"])
        ? " hint-long" : ""), id: "turn-hint" }, pressedIn(["btn-take", "btn-reserve"]) || cardWhy)),
    h("div", { class: "bar-group pay", key: "pay" },
      h("span", { class: "paycount" + (buy.why ? "" : " ok") + (buy.bad ? " bad" : ""), id: "paycount" },
        t("table.selected", { sel, cost })),
      actBtn({ id: "btn-suggest", key: "S", label: labels("table.suggest"), why: whys["btn-suggest"],
        onRefused: refused("btn-suggest"), onClick: () => {
        const s = suggestPayment(offer);
        if (s) { ctx.sel.pay = new Set(s); ctx.redraw(); announce(t("table.selected", { sel: total(s), cost })); }
      } }),
      actBtn({ id: "btn-clear", key: "C", label: t("table.clear"), why: whys["btn-clear"],
        onRefused: refused("btn-clear"), onClick: () => { ctx.sel.pay.clear(); ctx.redraw(); } }),
      actBtn({ id: "btn-buy", key: "B", primary: true, label: t("table.buy"), why: whys["btn-buy"],
        onRefused: refused("btn-buy"), onClick: () => ctx.act({ type: "buy", payment: pay }) }),
      h("span", { class: "why" + (buy.bad ? " bad" : ""), id: "buy-why" },
        pressedIn(["btn-suggest", "btn-clear", "btn-buy"]) || (myTurn(ctx) && buy.why ? buy.note || buy.why : ""))),
    ctx.inflight ? h("p", { class: "pending-note", key: "pending", id: "pending-note", role: "status" },
      t(ctx.online ? "table.sending" : "conn.move_waits")) : null,
  ];
}
