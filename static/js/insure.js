// The insurance decision at a Black Tide (R-pay-6), drawn inside decide.js's <dialog>: the
// goods at risk to choose, the hand cards whose insurance icons can save them, a running
// total per colour, Insure / Insure nothing. Loaded only when this seat must decide.
import { h } from "../vendor/preact.js";
import { t, tn, listParts } from "./i18n.js";
import { SYMBOL, cardEl, cardColor, cardIcons, cardText, colorChip, cardChip } from "./cards.js";
import { actBtn } from "./bar.js";

/** Per sinking colour: insurance icons of the selected hand cards and goods chosen (R-pay-6). */
function insureCounts(ctx, sinking) {
  const icons = {}, chosen = {};
  for (const c of sinking) {
    icons[c] = [...ctx.sel.discard].filter((id) => cardColor(id) === c).reduce((a, id) => a + cardIcons(id), 0);
    chosen[c] = [...ctx.sel.goods].filter((id) => cardColor(id) === c).length;
  }
  return { icons, chosen };
}

function insureWhy(ctx, sinking, icons, chosen) {
  if (!ctx.sel.goods.size) return { why: t("insure.why_none") };
  const short = sinking.find((c) => chosen[c] > icons[c]);
  if (short) return { bad: true, why: t("insure.why_short", { sym: SYMBOL[short], color: t("color." + short) }),
    node: tn("insure.why_short", { sym: colorChip(short, false), color: t("color." + short) }) };
  // A hand card whose insurance icons are not needed (R-pay-6a: the discard must be minimal).
  const spare = [...ctx.sel.discard].find((id) => icons[cardColor(id)] - cardIcons(id) >= chosen[cardColor(id)]);
  if (spare !== undefined) return { bad: true, why: t("insure.why_extra", { card: cardText(spare) }),
    node: tn("insure.why_extra", { card: cardChip(spare) }) };
  return { why: null };
}

/** The running total of one colour at risk: "▲ 1 insurance icon for 2 goods to save" (red
 *  while the icons do not cover the goods, green once they do). */
function tallyLine(c, icons, chosen) {
  const cls = chosen > icons ? "bad" : chosen > 0 ? "ok" : "";
  return h("span", { key: c, class: cls, "data-color": c }, tn("insure.tally", { sym: colorChip(c, false),
    icons: t("insure.n_icons", { n: icons }), goods: t("insure.n_goods", { n: chosen }) }));
}

/** The insurance dialog's content (Preact vnodes) for this seat's decision. */
export function insureView(ctx) {
  const me = ctx.view.players[ctx.seat];
  const sinking = ctx.view.sinking || [];
  const atRisk = me.goods.filter((g) => !g.insured && sinking.includes(cardColor(g.card))).map((g) => g.card);
  const risky = sinking.filter((c) => atRisk.some((id) => cardColor(id) === c));
  // Only hand cards that can save something: of a colour with goods at risk, with icons (R-pay-6).
  const handCards = (me.hand || []).filter((id) => risky.includes(cardColor(id)) && cardIcons(id) > 0);
  const { icons, chosen } = insureCounts(ctx, sinking);
  const w = insureWhy(ctx, sinking, icons, chosen);
  const toggle = (set, id) => () => { set.has(id) ? set.delete(id) : set.add(id); ctx.redraw(); };
  // The goods are drawn without insurance icons: only the icons of the discarded hand cards count.
  const pick = (set, plain) => (id) => cardEl(id, { button: true, pick: true, plain, selected: set.has(id),
    onclick: toggle(set, id) });
  const anySel = ctx.sel.goods.size > 0 || ctx.sel.discard.size > 0;
  const busy = ctx.pending ? t("table.sending") : null;
  const ships = h("span", null, listParts(sinking.map((c) => colorChip(c))));
  return [
    h("h2", { id: "dlg-h", key: "h" }, t("insure.title")),
    h("p", { key: "s" }, tn("insure.sinking", { ships, n: sinking.length })),
    h("h3", { id: "insure-goods-h", key: "gh" }, t("insure.save")),
    h("p", { class: "muted small-p", key: "gp" }, t("insure.save_hint")),
    h("div", { class: "cards pick-row", id: "insure-goods", role: "group", "aria-labelledby": "insure-goods-h",
      key: "g" }, atRisk.map(pick(ctx.sel.goods, true))),
    h("h3", { id: "insure-hand-h", key: "hh" }, t("insure.discard")),
    h("div", { class: "cards pick-row ins-hand", id: "insure-hand", role: "group",
      "aria-labelledby": "insure-hand-h", key: "hc" },
      handCards.length ? handCards.map(pick(ctx.sel.discard, false)) : h("span", { class: "muted" },
        t("table.nothing"))),
    anySel ? h("p", { class: "icons-left", id: "insure-count", key: "n", "aria-live": "polite" },
      risky.filter((c) => icons[c] || chosen[c]).map((c) => tallyLine(c, icons[c], chosen[c]))) : null,
    h("div", { class: "bar-group dlg-actions", key: "b" },
      actBtn({ id: "insure-confirm", primary: true, label: t("insure.confirm"), why: busy || w.why,
        onClick: () => ctx.act({ type: "insure", discard: [...ctx.sel.discard], goods: [...ctx.sel.goods] }) }),
      actBtn({ id: "insure-none", label: t("insure.nothing"), why: busy, onClick: () => ctx.act({ type: "insure",
        discard: [], goods: [] }) })),
    w.why ? h("p", { class: "why" + (w.bad ? " bad" : ""), id: "insure-why", key: "w" }, w.node || w.why) : null,
    h("p", { class: "muted small-p", key: "esc" }, t("dialog.escape")),
  ];
}
