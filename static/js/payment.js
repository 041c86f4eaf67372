// Buying (R-buy): the goods, their cost, the minimal-payment rule and a suggested payment.
import { cardValue, cardColor, cardIcons } from "./cards.js";

/** Market cards the seat would buy: every card not reserved by another player (R-buy-1). */
export function buyableGoods(view, seat) {
  return view.market.filter((m) => m.reserved_by === null || m.reserved_by === undefined || m.reserved_by === seat).map((m) => m.card);
}

/** Sum of card values. */
export function total(ids) { return ids.reduce((a, id) => a + cardValue(id), 0); }

/**
 * Check a payment against a cost (R-buy-2/3). Returns {ok: true} or
 * {ok: false, why: "empty" | "too_small" | "not_minimal", spare: card id that is not needed}.
 * Legal iff sum >= cost and removing any single card drops it below cost, i.e. removing the
 * smallest card does.
 */
export function checkPayment(ids, cost) {
  if (!ids.length) return { ok: false, why: "empty" };
  const sum = total(ids);
  if (sum < cost) return { ok: false, why: "too_small" };
  let smallest = ids[0];
  for (const id of ids) if (cardValue(id) < cardValue(smallest)) smallest = id;
  if (sum - cardValue(smallest) >= cost) return { ok: false, why: "not_minimal", spare: smallest };
  return { ok: true };
}

/**
 * A minimal payment of `cost` from `hand` (card ids) with the least overpayment, then the
 * fewest cards; among cards of equal value it spends those whose colour matters least to the
 * player (fewest own goods of that colour, so insurance icons for their goods are kept).
 * Returns card ids, or null when the hand cannot cover the cost.
 */
export function suggestPayment(hand, cost, ownGoods = []) {
  if (total(hand) < cost) return null;
  const keep = {};
  for (const g of ownGoods) keep[cardColor(g)] = (keep[cardColor(g)] || 0) + 1;
  const byVal = { 2: [], 3: [], 5: [] };
  for (const id of hand) byVal[cardValue(id)].push(id);
  for (const v of [2, 3, 5]) {
    byVal[v].sort((a, b) => ((keep[cardColor(a)] || 0) - (keep[cardColor(b)] || 0)) || (cardIcons(a) - cardIcons(b)) || a - b);
  }
  let best = null;
  for (let c5 = 0; c5 <= byVal[5].length; c5++) {
    for (let c3 = 0; c3 <= byVal[3].length; c3++) {
      for (let c2 = 0; c2 <= byVal[2].length; c2++) {
        const sum = 5 * c5 + 3 * c3 + 2 * c2;
        if (sum < cost) continue;
        const min = c2 ? 2 : c3 ? 3 : c5 ? 5 : 0;
        if (!min || sum - min >= cost) continue;
        const n = c5 + c3 + c2;
        if (!best || sum < best.sum || (sum === best.sum && n < best.n)) best = { sum, n, c5, c3, c2 };
        break; // more 2s only overpay further
      }
    }
  }
  if (!best) return null;
  return [...byVal[5].slice(0, best.c5), ...byVal[3].slice(0, best.c3), ...byVal[2].slice(0, best.c2)];
}

/** Could this seat buy now at all (goods exist and the hand covers them)? */
export function canBuy(view, seat) {
  const goods = buyableGoods(view, seat);
  const me = view.players[seat];
  return goods.length > 0 && !!me.hand && total(me.hand) >= total(goods);
}
