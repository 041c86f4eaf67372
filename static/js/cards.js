// The card catalogue as the engine defines it (catalogue.js, generated from the engine) and the one card
// component used for the Market, the Farm, hands, merchandise and the log.
import { CATALOGUE } from "./catalogue.js";
import { h } from "./dom.js";
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

/** "red 5, 2 insurance icons" for screen readers and titles. */
export function cardLabel(id) {
  const c = cardColor(id);
  const n = cardIcons(id);
  return t("card.label", { color: t("color." + c), value: cardValue(id), n });
}

function shields(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(h("span", { class: "shield", "aria-hidden": "true" }));
  return h("span", { class: "icons" }, out);
}

/**
 * A card element. opts: {button: bool (a clickable <button>), selected, small, insured,
 * reservedBy: {initial, pcolor, name, bot} for a Reservation piece on it, pick (a choice in
 * a dialog: looks clickable, a ✓ when selected), onclick}.
 */
export function cardEl(id, opts = {}) {
  const c = cardColor(id);
  const cls = ["card", "c-" + c];
  if (opts.small) cls.push("small");
  if (opts.selected) cls.push("selected");
  if (opts.insured) cls.push("insured");
  if (opts.dim) cls.push("dim");
  if (opts.pick) cls.push("pick");
  const attrs = {
    class: cls.join(" "),
    dataset: { card: id },
    title: cardLabel(id),
    "aria-label": cardLabel(id) + (opts.insured ? ", " + t("card.insured") : ""),
  };
  if (opts.button) {
    attrs.type = "button";
    attrs["aria-pressed"] = String(!!opts.selected);
    if (opts.onclick) attrs.onclick = opts.onclick;
    if (opts.disabled) attrs.disabled = true;
  }
  const el = h(opts.button ? "button" : "div", attrs,
    h("span", { class: "v", "aria-hidden": "true" }, String(cardValue(id))),
    h("span", { class: "sym", "aria-hidden": "true" }, SYMBOL[c]),
    shields(cardIcons(id)),
    opts.insured ? h("span", { class: "ins-mark", "aria-hidden": "true", title: t("card.insured") }, "✓") : null,
    opts.reservedBy ? pieceEl(opts.reservedBy) : null,
    opts.pick && opts.selected ? h("span", { class: "pick-mark", "aria-hidden": "true" }, "✓") : null,
  );
  return el;
}

/** A player's Reservation piece: their player colour (fill and ring) and their table-unique
 *  marker (initial, "⚙" for a computer player, or the seat number). */
export function pieceEl(p) {
  return h("span", { class: "piece pc-" + p.pcolor + (p.bot ? " bot" : ""), title: t("table.reserved_by", { name: p.name }),
    "aria-label": t("table.reserved_by", { name: p.name }) }, p.initial);
}

/** A goods colour chip for a sentence: "◆ red" on its own colour (never the text's colour). */
export function colorChip(c, withName = true) {
  return h("span", { class: "lcol s-" + c }, SYMBOL[c] + (withName ? " " + t("color." + c) : ""));
}

/** A card chip for a sentence: "◆5" on its colour. */
export function cardChip(id) {
  return h("span", { class: "lc s-" + cardColor(id) }, cardText(id));
}

/** A goods colour symbol as a chip: "◆" in its colour. */
export function symEl(color, extra) {
  return h("span", { class: "symchip s-" + color, title: t("color." + color) }, SYMBOL[color], extra ?? null);
}
