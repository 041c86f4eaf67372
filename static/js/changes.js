// What changed since your last turn: Market and Farm cards drawn since, ships that
// moved (and from where), goods bought or lost, Achievement tokens gained. Read from the
// events this seat saw after its own last turn ended (a spectator: since the turn before the
// current one); the table marks them. Nothing here changes the game.

const TURN_ACTIONS = new Set(["take", "reserve", "buy", "pass"]);

/** Index of the event from which changes count: the start of the turn after this seat's
 *  last take/reserve/buy/pass; a spectator, or a seat that has not played yet, counts from
 *  the start of the previous turn / the beginning. */
export function sinceIndex(events, seat) {
  let i = events.length - 1;
  if (seat !== null && seat !== undefined) {
    while (i >= 0 && !(TURN_ACTIONS.has(events[i].type) && events[i].seat === seat)) i--;
    if (i < 0) return 0;
    while (i < events.length && events[i].type !== "turn_started") i++;
    return i;
  }
  for (let n = 0; i >= 0; i--) if (events[i].type === "turn_started" && ++n === 2) return i;
  return 0;
}

/** How many turns (take, reserve, buy, pass) this seat has played. */
export function turnsPlayed(events, seat) {
  return events.filter((e) => TURN_ACTIONS.has(e.type) && e.seat === seat).length;
}

/**
 * The changes since `sinceIndex`: {fresh: Set of Market/Farm card ids drawn since (still
 * there), moved: {color: location it left}, bought: Set of goods ids bought since, lost:
 * {seat: [card ids sunk]}, tokens: {seat: {color: n gained}}, any: bool}; `quiet` (card ids)
 * and `quietShips` (colours): marks only from the first `seen` events, drawn before a reload.
 */
export function changesSince(events, view, seat, seen = 0) {
  const out = { fresh: new Set(), moved: {}, bought: new Set(), lost: {}, tokens: {}, any: false,
    quiet: new Set(), quietShips: new Set() };
  if (!view) return out;
  const onTable = new Set([...view.market, ...view.farm].map((m) => m.card));
  const from = sinceIndex(events, seat);
  const mark = (set, id, i) => { set.add(id); if (i < seen) out.quiet.add(id); else out.quiet.delete(id); };
  events.slice(from).forEach((e, k) => {
    const i = from + k;
    if (e.type === "refresh") {
      for (const id of [...(e.market || []), ...(e.farm || [])]) if (onTable.has(id)) mark(out.fresh, id, i);
    } else if (e.type === "ship_moved" || e.type === "ship_returned") {
      if (!(e.color in out.moved)) out.moved[e.color] = e.from;
      if (i < seen) out.quietShips.add(e.color); else out.quietShips.delete(e.color);
    } else if (e.type === "buy") {
      for (const id of e.goods || []) mark(out.bought, id, i);
    } else if (e.type === "sunk") {
      (out.lost[e.seat] ||= []).push(...(e.cards || []));
    } else if (e.type === "token_gained") {
      const tk = (out.tokens[e.seat] ||= {});
      tk[e.color] = (tk[e.color] || 0) + 1;
    }
  });
  // A ship that came back to where it was has not moved for the reader.
  for (const c of Object.keys(out.moved)) if (out.moved[c] === (view.ships || {})[c]) delete out.moved[c];
  out.any = out.fresh.size > 0 || Object.keys(out.moved).length > 0 || out.bought.size > 0
    || Object.keys(out.lost).length > 0 || Object.keys(out.tokens).length > 0;
  return out;
}

/** How many events of `game` this tab drew for `seat` before a reload (sessionStorage), 0 if
 *  none; with `n`: remember that it drew `n`. */
export function shown(code, game, seat, n) {
  const k = "osaka_shown_" + code;
  try {
    if (n !== undefined) return sessionStorage.setItem(k, JSON.stringify({ game, seat, n }));
    const s = JSON.parse(sessionStorage.getItem(k));
    return s && s.game === game && s.seat === seat ? s.n : 0;
  } catch { return 0; }
}
