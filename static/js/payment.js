// Buying (R-buy): the seat to act's view carries its purchase as the engine decides it
// (`view.buy`: goods, cost, every legal payment's shape, a suggested payment; docs/engine.md),
// so this module only chooses among those payments and writes no rule of its own.
import { cardValue } from "./cards.js";

const VALUES = [2, 3, 5]; // the order of a payment's shape: [twos, threes, fives]

/**
 * The purchase the table shows: the seat to act's `view.buy`; for anyone else, only for display
 * and with no payments, the Market cards without another seat's Reservation piece (a spectator:
 * without any), what the seat's own `buy` will list once its turn comes and nothing moved.
 */
export function purchase(view) {
  if (view.buy) return view.buy;
  const goods = view.market.filter((m) => m.reserved_by == null || m.reserved_by === view.seat).map((m) => m.card);
  return { goods, cost: total(goods), payments: [], suggested: null };
}

/** Sum of card values (what the page shows as coins; legality is the engine's). */
export function total(ids) { return ids.reduce((a, id) => a + cardValue(id), 0); }

/** The shape of some cards: how many of value 2, 3 and 5. */
function shapeOf(ids) {
  const n = [0, 0, 0];
  for (const id of ids) n[VALUES.indexOf(cardValue(id))]++;
  return n;
}

/**
 * Check a selected payment against the purchase's legal payments (`buy.payments`). Returns
 * {ok: true} or {ok: false, why: "empty" | "too_small" | "not_minimal", spare: a card id that is
 * not needed}. A selection that holds a legal payment and more is not minimal; the card named
 * spare is of the lowest value the selection has beyond such a payment; any other is too small.
 */
export function checkPayment(ids, buy) {
  if (!ids.length) return { ok: false, why: "empty" };
  const have = shapeOf(ids);
  let spare = -1;
  for (const p of buy.payments) {
    if (p.every((n, i) => n === have[i])) return { ok: true };
    if (p.every((n, i) => n <= have[i])) {
      const i = have.findIndex((n, j) => n > p[j]);
      if (spare < 0 || i < spare) spare = i;
    }
  }
  if (spare < 0) return { ok: false, why: "too_small" };
  return { ok: false, why: "not_minimal", spare: ids.find((id) => cardValue(id) === VALUES[spare]) };
}

/** The payment the engine suggests (card ids), or null when the hand cannot cover the cost. */
export function suggestPayment(buy) { return buy.suggested; }

/** Could the seat to act buy now at all (goods exist and a legal payment does)? */
export function canBuy(view) { return !!view.buy && view.buy.payments.length > 0; }
