// Payments and Black Tides as short summaries on the table: who sold what for how
// many VPs and which Achievement tokens they gained (R-pay-1..3); what sank, what was insured
// and with which cards, what was lost (R-pay-5..8). Built from the events this seat may see
// (docs/engine.md; every sale is public, R-info-1). The latest payment stays on the table
// until every player had a turn after it, or until it is closed.
import { h } from "../vendor/preact.js";
import { t, tn, listParts } from "./i18n.js";
import { cardChip, colorChip, cardValue } from "./cards.js";
import { nameTag } from "./common.js";

/**
 * The latest payment among `events` (oldest first): {at: its index, colors: ships at Edo,
 * sales: [{seat, color, cards, vp}], tokens: [{seat, color}], tide: null or {colors,
 * insured: [{seat, goods, discard}], lost: [{seat, color, cards}]}, turns: turns begun
 * since}; null when there was none.
 */
export function lastPayment(events) {
  let at = events.length - 1;
  while (at >= 0 && events[at].type !== "payment") at--;
  if (at < 0) return null;
  const p = { at, colors: events[at].colors || [], sales: [], tokens: [], tide: null, turns: 0 };
  for (const e of events.slice(at + 1)) {
    if (e.type === "turn_started") { p.turns++; continue; }
    if (p.turns) continue;
    if (e.type === "sale") p.sales.push(e);
    else if (e.type === "token_gained") p.tokens.push(e);
    else if (e.type === "black_tide") p.tide = { colors: e.colors || [], insured: [], lost: [] };
    else if (p.tide && e.type === "insure" && (e.goods || []).length) p.tide.insured.push(e);
    else if (p.tide && e.type === "sunk") p.tide.lost.push(e);
  }
  return p;
}

const chips = (ids) => h("span", { class: "lcards" }, (ids || []).slice().sort((a,
  b) => cardValue(b) - cardValue(a)).map(cardChip));
const colors = (cs) => listParts(cs.map((c) => colorChip(c)));
const name = (ctx, seat) => nameTag(ctx.room, seat, { tag: "b", cls: "lname" });

function saleLines(ctx, p) {
  if (!p.sales.length) return [h("li", { key: "none", class: "muted" }, t("sum.nobody_sold"))];
  return p.sales.map((s, i) => {
    const got = p.tokens.filter((k) => k.seat === s.seat && k.color === s.color).map((k) => colorChip(k.color, false));
    return h("li", { key: "s" + i, class: "sum-sale" + (s.seat === ctx.seat ? " mine" : "") },
      tn("sum.sale", { name: name(ctx, s.seat), cards: chips(s.cards), vp: h("b", { class: "sum-vp" }, t("sum.vp",
        { n: s.vp })) }),
      got.length ? [" ", h("span", { class: "sum-tok" }, tn("sum.token", { colors: got }))] : null);
  });
}

function tideLines(ctx, tide) {
  if (ctx.view && ctx.view.phase === "insurance") return [h("li", { key: "wait", class: "muted" }, t("sum.deciding"))];
  const seats = [...new Set([...tide.insured, ...tide.lost].map((e) => e.seat))].sort((a, b) => a - b);
  if (!seats.length) return [h("li", { key: "none", class: "muted" }, t("sum.nothing_lost"))];
  return seats.map((seat) => {
    const lost = tide.lost.filter((e) => e.seat === seat).flatMap((e) => e.cards || []);
    const ins = tide.insured.filter((e) => e.seat === seat);
    const parts = [];
    if (lost.length) parts.push(h("span", { class: "sum-lost" }, tn("sum.lost", { cards: chips(lost) })));
    if (ins.length) parts.push(h("span", { class: "sum-insured" }, tn("sum.insured",
      { goods: chips(ins.flatMap((e) => e.goods)), discard: chips(ins.flatMap((e) => e.discard || [])) })));
    return h("li", { key: "t" + seat, class: seat === ctx.seat ? "mine" : "" }, tn("sum.who", { name: name(ctx, seat),
      what: listParts(parts) }));
  });
}

/** The summary of the latest payment (the content of the table's #summary), or null when there is
 *  none to show (the panel is then hidden). */
export function summaryView(ctx) {
  const p = lastPayment(ctx.events || []);
  const players = ctx.view ? ctx.view.num_players : 4;
  const show = p && p.turns <= players && ctx.summaryClosed !== p.at;
  if (!show) return null;
  return [
    h("div", { class: "sum-part sum-pay", key: "pay" },
      h("h2", { class: "sum-h", id: "summary-h" }, tn("sum.payment", { colors: colors(p.colors) })),
      h("ul", { class: "sum-list" }, saleLines(ctx, p))),
    p.tide ? h("div", { class: "sum-part sum-tide", key: "tide" },
      h("h2", { class: "sum-h" }, tn("sum.tide", { colors: colors(p.tide.colors) })),
      h("ul", { class: "sum-list" }, tideLines(ctx, p.tide))) : null,
    h("button", { type: "button", class: "btn small sum-close", key: "x", "aria-label": t("sum.close"),
      title: t("sum.close"),
      onClick: () => { ctx.summaryClosed = p.at; ctx.redraw(); } }, "×"),
  ];
}
