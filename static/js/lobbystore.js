// The home page's state (docs/ui.md "The pages' state"): the open public rooms the server
// lists (GET /api/rooms, then the `rooms` frames of /ws/lobby, docs/protocol.md) and whether
// the lobby's socket is up. Only `reduceLobby` changes it; no DOM, no imports
// (tests/js/pagestores.test.js).

/** The state when the page opens: {rooms: [] (the server's room summaries), online: false}. */
export function initialLobby() {
  return Object.freeze({ rooms: [], online: false });
}

/** The state after one message: `loaded` {rooms} (the HTTP list), `rooms` {rooms} (a lobby
 *  frame), `open` / `down` (the socket). Unknown types change nothing; never mutates `s`. */
export function reduceLobby(s, m) {
  switch (m.type) {
    case "loaded":
    case "rooms":
      return Object.freeze({ ...s, rooms: Object.freeze([...(m.rooms || [])]) });
    case "open":
      return s.online ? s : Object.freeze({ ...s, online: true });
    case "down":
      return s.online ? Object.freeze({ ...s, online: false }) : s;
    default:
      return s;
  }
}
