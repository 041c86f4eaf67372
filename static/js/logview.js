// The game log: one readable, translated line per event (docs/engine.md "Events"), as Preact
// vnodes; the list is a live region (role="log"), so new lines are read out.
import { h } from "../vendor/preact.js";
import { t, tn, listParts } from "./i18n.js";
import { cardChip, colorChip } from "./cards.js";
import { nameTag } from "./common.js";

function cardsNode(ids) {
  if (!ids || !ids.length) return h("span", { class: "muted" }, t("log.none"));
  return h("span", { class: "lcards" }, ids.map((id, i) => [i ? " " : null, cardChip(id)]));
}

function colorNode(c) { return colorChip(c); }

function colorsNode(cs) { return h("span", null, listParts((cs || []).map(colorNode))); }

function nameNode(room, seat) { return nameTag(room, seat, { tag: "b", cls: "lname" }); }

function loc(i) { return t("loc." + i); }

/** The log line (an <li> vnode, keyed by `key`) for one event, or null for events not worth a line. */
export function logLine(ev, room, key) {
  const n = (s) => nameNode(room, s);
  let parts;
  let cls = "";
  switch (ev.type) {
    case "token_chosen": parts = tn("log.token_chosen", { name: n(ev.seat), color: colorNode(ev.color) }); break;
    case "turn_started": parts = tn("log.turn_started", { name: n(ev.seat) }); cls = "sep"; break;
    case "take": parts = tn("log.take", { name: n(ev.seat), card: cardsNode([ev.card]) }); break;
    case "reserve": parts = tn(ev.where === "farm" ? "log.reserve_farm" : "log.reserve_market", { name: n(ev.seat),
      card: cardsNode([ev.card]) }); break;
    case "buy": parts = tn("log.buy", { name: n(ev.seat), goods: cardsNode(ev.goods), cost: ev.cost,
      payment: cardsNode(ev.payment) }); cls = "big"; break;
    case "ship_moved": parts = tn("log.ship_moved", { color: colorNode(ev.color), from: loc(ev.from),
      to: loc(ev.to) }); break;
    case "payment": parts = tn("log.payment", { colors: colorsNode(ev.colors) }); cls = "big"; break;
    case "sale": {
      // "Alice sold 3 ■ blue goods ■3 ■3 ■2: price 3 × 3 = 9 → 10 → 2 VP." (R-pay-1)
      const count = (ev.cards || []).length;
      parts = [...tn(count === 1 ? "log.sale_one" : "log.sale", { name: n(ev.seat), color: colorNode(ev.color),
        cards: cardsNode(ev.cards), count, price: ev.price, raw: ev.price * count, value: ev.value, vp: ev.vp }),
        ev.drawn ? t("log.drawn", { drawn: ev.drawn }) : "", "."];
      break;
    }
    case "vp_total": parts = tn("log.vp_total", { vp: ev.vp }); cls = "private"; break;
    case "token_gained": parts = tn("log.token_gained", { name: n(ev.seat), color: colorNode(ev.color) }); break;
    case "black_tide": parts = tn("log.black_tide", { colors: colorsNode(ev.colors) }); cls = "danger"; break;
    case "insure":
      parts = (ev.discard && ev.discard.length) || (ev.goods && ev.goods.length)
        ? tn("log.insure", { name: n(ev.seat), discard: cardsNode(ev.discard), goods: cardsNode(ev.goods) })
        : tn("log.insure_none", { name: n(ev.seat) });
      break;
    case "sunk": parts = tn("log.sunk", { name: n(ev.seat), color: colorNode(ev.color),
      cards: cardsNode(ev.cards) }); cls = "danger"; break;
    case "ship_returned": parts = tn("log.ship_returned", { color: colorNode(ev.color), to: loc(ev.to) }); break;
    case "reshuffle": parts = tn("log.reshuffle", { size: ev.size }); break;
    case "refresh": parts = tn("log.refresh", { moved: cardsNode(ev.moved), market: cardsNode(ev.market),
      farm: cardsNode(ev.farm) }); cls = "minor"; break;
    case "pass": parts = tn("log.pass", { name: n(ev.seat) }); break;
    case "hint_used": parts = tn(room?.tutorial ? "log.hint_guide" : "log.hint_used", { name: n(ev.seat) });
      cls = "minor"; break;
    case "timed_out": parts = tn("log.timed_out", { name: n(ev.seat) }); cls = "danger"; break;
    case "game_over": {
      const names = h("span", null, listParts((ev.winners || []).map(n)));
      parts = tn("log.game_over", { names }); cls = "big"; break;
    }
    default: return null;
  }
  return h("li", { key, class: "log-" + ev.type + (cls ? " " + cls : "") }, parts);
}

/**
 * The log as one entry per turn: first the start (starting hands, token draft),
 * then each turn as one <li> holding its lines (what the player did and what it caused:
 * ships, payment, Black Tide, refresh). A turn that has no line yet (it just began) is not
 * shown; "X's turn" is never a line of its own.
 */
export function logEntries(view, room, events) {
  const groups = [{ key: "start", seat: null, lines: view ? startLines(view, room) : [] }];
  events.forEach((ev, i) => {
    if (ev.type === "turn_started") groups.push({ key: "t" + i, seat: ev.seat, lines: [] });
    else groups[groups.length - 1].lines.push(logLine(ev, room, "e" + i));
  });
  return groups.map((g) => ({ ...g, lines: g.lines.filter(Boolean) })).filter((g) => g.lines.length).map((g) =>
    h("li", { key: g.key, class: "turn-entry" + (g.seat === null ? " start" : "") }, h("ol", { class: "turn-lines" },
      g.lines)));
}

/** Log lines for the public starting hands (R-setup-3), shown first. */
export function startLines(view, room) {
  const hands = (view && view.starting_hands) || [];
  return hands.map((ids, seat) => h("li", { key: "s" + seat, class: "log-start" },
    tn("log.starting_hand", { name: nameNode(room, seat), cards: cardsNode(ids) })));
}
