// The "My games" page's state (docs/ui.md "My games"): the rooms this browser holds a seat in, as
// the server lists them (GET /api/mine, then the `mine` frames of /ws/mine, docs/protocol.md),
// the last chat message id each room page showed (localStorage "osaka_chat_<code>", written by
// room.js), and whether the socket is up. Only `reduceMine` changes it; no DOM, no imports
// (tests/js/minestore.test.js).

/** The state when the page opens: {rooms: null (not loaded yet), seen: {}, online: false}. */
export function initialMine() {
  return Object.freeze({ rooms: null, seen: Object.freeze({}), online: false });
}

/** The state after one message: `loaded` / `mine` {rooms} (the whole list, in the server's
 *  order), `seen` {seen: {code: chat id}} (read from localStorage), `open` / `down` (the socket).
 *  Unknown types change nothing; never mutates `s`. */
export function reduceMine(s, m) {
  switch (m.type) {
    case "loaded":
    case "mine":
      return Object.freeze({ ...s, rooms: Object.freeze((m.rooms || []).map((r) => Object.freeze({ ...r }))) });
    case "seen":
      return Object.freeze({ ...s, seen: Object.freeze({ ...(m.seen || {}) }) });
    case "open":
      return s.online ? s : Object.freeze({ ...s, online: true });
    case "down":
      return s.online ? Object.freeze({ ...s, online: false }) : s;
    default:
      return s;
  }
}

/** True when room `r` has a chat message newer than the last one its page showed here. */
export function unread(r, seen) {
  if (r.chat_id === null || r.chat_id === undefined) return false;
  const last = seen[r.code];
  return last === undefined || last === null || Number(last) < r.chat_id;
}

/** Seconds left until room `r`'s deadline at `now` (ms since the epoch), 0 once past; null
 *  without a deadline. A paused game's stand still: `left_s`, as at the pause. */
export function secondsLeft(r, now) {
  if (r.paused) return r.left_s ?? null;
  if (!r.deadline) return null;
  return Math.max(0, Math.ceil((Date.parse(r.deadline) - now) / 1000));  // as the table's clock.js
}

/** The rooms in groups, in the server's order within each: {turn, playing, waiting, over}
 *  (your decision, the other games in play, waiting rooms, finished games). */
export function groups(rooms) {
  const out = { turn: [], playing: [], waiting: [], over: [] };
  for (const r of rooms || []) {
    const g = r.your_turn ? "turn" : r.status;
    if (out[g]) out[g].push(r);
  }
  return out;
}

/** The event of a last move that names it in one line (the action's own event: a buy, a take,
 *  a pass, a time-out …), or null. */
export function headline(last) {
  if (!last || !last.events) return null;
  const skip = new Set(["turn_started", "refresh", "reshuffle", "vp_total"]);
  return last.events.find((e) => !skip.has(e.type)) || null;
}
