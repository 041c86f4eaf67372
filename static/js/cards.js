// The card catalogue as the engine defines it (catalogue.js, generated from the engine) and the
// one card component used for the Market, the Farm, hands, merchandise and the log (Preact
// vnodes: the table updates them in place, so focus stays on the same card).
import { CATALOGUE } from "./catalogue.js";
import { h } from "../vendor/preact.js";
import { t } from "./i18n.js";

export const COLORS = CATALOGUE.colors;
/** Each goods colour also has its own shape, wherever the colour appears (colour-blind safe). */
export const SYMBOL = { red: "◆", blue: "■", yellow: "▲", green: "●" };

/** Colour name of a card id (from the engine's catalogue, R-comp-1). */
export function cardColor(id) { return CATALOGUE.cards[id].color; }
/** Value of a card id: 2, 3 or 5 (R-comp-1). */
export function cardValue(id) { return CATALOGUE.cards[id].value; }
/** Insurance icons: 2 on a 2, 1 on a 3, 0 on a 5 (R-comp-2). */
export function cardIcons(id) { return CATALOGUE.cards[id].icons; }

/** A short text form of a card for logs and labels: "◆5". */
export function cardText(id) { return SYMBOL[cardColor(id)] + cardValue(id); }

/**
 * The card's accessible name: "red 5, no insurance icons" ("red 5" with `plain`: its icons do
 * not count where it is shown), then ", insured" and ", reserved by Bob" when they apply
 * (opts: {plain, insured, reservedBy: {name}}).
 */
export function cardLabel(id, opts = {}) {
  const color = t("color." + cardColor(id)), value = cardValue(id);
  let s = opts.plain ? t("card.plain", { color, value }) : t("card.label", { color, value, n: cardIcons(id) });
  if (opts.insured) s += ", " + t("card.insured");
  if (opts.reservedBy) s += ", " + t("table.reserved_by", { name: opts.reservedBy.name });
  if (opts.fresh) s += ", " + t("card.new");
  return s;
}

function icons(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(h("span", { class: "shield" }));
  return h("span", { class: "icons", "aria-hidden": "true" }, out);
}

/**
 * A card (vnode, keyed by its id). opts: {button (a <button> with aria-pressed), selected,
 * small, insured, dim, reservedBy: {initial, pcolor, name, bot} for a Reservation piece on
 * it, pick (a choice in a dialog: a ✓ when selected), plain (no insurance icons: a good to
 * save, whose own icons insure nothing), fresh (new since your last turn; seen: shown before
 * a reload, not pulsing), disabled (aria-disabled: stays focusable),
 * tabIndex, onclick, onfocus}.
 */
export function cardEl(id, opts = {}) {
  const c = cardColor(id);
  const cls = ["card", "c-" + c];
  if (opts.small) cls.push("small");
  if (opts.selected) cls.push("selected");
  if (opts.insured) cls.push("insured");
  if (opts.dim) cls.push("dim");
  if (opts.pick) cls.push("pick");
  if (opts.fresh) cls.push(opts.seen ? "fresh seen" : "fresh");
  if (opts.plain) cls.push("plain");
  if (opts.hinted) cls.push("hinted");  // named by this seat's hint (hint.js)
  const label = cardLabel(id, opts);
  const attrs = { key: id, class: cls.join(" "), "data-card": id, title: label, "aria-label": label };
  if (opts.hinted) attrs["aria-describedby"] = "hint-bar";  // the hint's words (hint.js)
  if (opts.button) {
    Object.assign(attrs, { type: "button", "aria-pressed": String(!!opts.selected), tabIndex: opts.tabIndex,
      "aria-disabled": opts.disabled ? "true" : null,
      onClick: opts.disabled ? null : opts.onclick, onFocus: opts.onfocus });
  } else attrs.role = "img";
  return h(opts.button ? "button" : "span", attrs,
    h("span", { class: "v", "aria-hidden": "true" }, String(cardValue(id))),
    h("span", { class: "sym", "aria-hidden": "true" }, SYMBOL[c]),
    opts.plain ? null : icons(cardIcons(id)),
    opts.insured ? h("span", { class: "ins-mark", role: "img", title: t("card.insured"),
      "aria-label": t("card.insured") }, "✓") : null,
    opts.reservedBy ? pieceEl(opts.reservedBy) : null,
    opts.pick && opts.selected ? h("span", { class: "pick-mark", "aria-hidden": "true" }, "✓") : null);
}

/** A player's Reservation piece: their player colour (fill and ring) and their table-unique
 *  marker (initial, "⚙" for a computer player, or the seat number), drawn by CSS from
 *  `data-m`, so it is no text of the card (named "… reserved by NAME": WCAG 2.5.3). */
export function pieceEl(p) {
  return h("span", { class: "piece pc-" + p.pcolor + (p.bot ? " bot" : ""), "data-m": p.initial,
    "aria-hidden": "true" });
}

/** A goods colour chip for a sentence: "◆ red" on its own colour (never the text's colour). */
export function colorChip(c, withName = true) {
  return h("span", { class: "lcol s-" + c }, SYMBOL[c] + (withName ? " " + t("color." + c) : ""));
}

/** A card chip for a sentence: "◆5" on its colour, read as "red 5". */
export function cardChip(id) {
  return h("span", { class: "lc s-" + cardColor(id), role: "img",
    "aria-label": t("color." + cardColor(id)) + " " + cardValue(id) }, cardText(id));
}
