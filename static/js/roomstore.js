// The room page's state in one place (docs/ui.md "The room page's state"). What the server's
// frames say (the room summary, the game as this seat may see it, the log, the clock) and the
// state of the link (online, a move in flight) live in a store that only `reduce` fills: a pure
// function of the state and one frame, so every frame's effect on the page's data is in this
// file and is tested without a browser (tests/js/roomstore.test.js, `make test`). What the
// person at this page is doing (cards picked, a dialog put aside, the next game's frames kept
// while a result is read) is the `ui` part; its fields are all declared here too, and the page
// controller (room.js) seals the object that carries them, so no other file can add one.
// No DOM, no imports: the page's scripts and node's test runner load it alike.

/** The store's data when the page opens: {room, roomAt, view, result, version, seat, events,
 *  messages, clock, online, fresh, inflight, pending, restarting, hint, hints, review}. `room` is the summary (GET
 *  /api/rooms/{code} or the `room` frame, docs/protocol.md), `roomAt` the performance.now() ms
 *  it came at (its offline_s count from then), `view`/`result`/`version`/`clock` the last
 *  `state` frame's, `seat` this page's seat (null: watching), `events` the log this
 *  connection may see (the server filters it by visible_to), `messages` the chat's last 200,
 *  `inflight` the `act` frame
 *  awaiting its answer (resent with the same id after a reconnect), `fresh` true from a
 *  (re)connect until its first `state`, `hint` this seat's hint (the `hint` frame; dropped
 *  when the game moves on), `hints` the hints each seat used (the state's `hints`) and `review`
 *  the finished game's review status ({game, status, progress}: the `review` frame, or the GET
 *  the end screen makes, games.js). */
export function initialState() {
  return Object.freeze({
    room: null, roomAt: 0, view: null, result: null, version: 0, seat: null, events: [], messages: [], clock: null,
    online: false, fresh: true, inflight: null, pending: false, restarting: false, hint: null, hints: null,
    review: null,
  });
}

/** The state after one frame from the server or one of the page's own actions (`now`: the
 *  performance.now() ms it came at). Server frames (docs/protocol.md): room, history, state,
 *  event, hint, review, chat, seat_lost, error (only its answer to a move: refusals of chat and of a stale seat
 *  cookie are the controller's), server_restarting. The page's: `loaded` (the summary read over
 *  HTTP, as `room`), `sent` {frame} (a move sent or waiting for the link), `open`, `down`
 *  (the socket), `presence` {room} (a later game's summary while this page still shows the
 *  finished one: its dots and chat setting only, nextgame.js). Unknown types change nothing.
 *  Never mutates `s`; returns `s` itself when nothing changed. */
export function reduce(s, m, now = 0) {
  switch (m.type) {
    case "loaded":
    case "room": {
      // Play again: the summary of a later game starts the page's game data afresh.
      const again = s.room !== null && m.room.game !== s.room.game;
      const base = again ? { ...s, view: null, result: null, events: [], version: 0, clock: null, hint: null,
        hints: null, review: null } : s;
      return freeze({ ...base, room: m.room, roomAt: now, seat: m.room.you ?? null });
    }
    case "history":
      return freeze({ ...s, events: m.events || [], version: typeof m.version === "number" ? m.version : s.version });
    case "state": {
      // The first state after a reconnect is the connect's: a move in flight stays in flight
      // (the controller resends it); any other state answers it.
      const answer = s.fresh && s.inflight ? {} : { inflight: null, pending: false };
      const room = s.room && s.room.status === "waiting"
        ? { ...s.room, status: m.view.phase === "over" ? "over" : "playing" } : s.room;
      const seat = m.view.seat !== undefined && m.view.seat !== null ? m.view.seat : s.seat;
      return freeze({ ...s, ...answer, view: m.view, result: m.result || null, version: m.version,
        clock: m.clock || null, fresh: false, room, seat, hints: m.hints || null,
        hint: s.hint && s.hint.version === m.version ? s.hint : null });
    }
    case "event":
      return freeze({ ...s, events: [...s.events, ...(m.events || [])] });
    case "chat": {
      // history (on connect) replaces them; a message comes once (by id)
      const have = m.history ? [] : s.messages, ids = new Set(have.map((x) => x.id));
      const add = (m.messages || []).filter((x) => !ids.has(x.id) && ids.add(x.id));
      return freeze({ ...s, messages: [...have, ...add].slice(-200) });
    }
    case "hint":
      // This seat's hint (docs/protocol.md "Hints"); shown while the game is at its version.
      return freeze({ ...s, hint: { version: m.version, seat: m.seat, action: m.action, why: m.why } });
    case "review":
      // A finished game's review being computed (docs/protocol.md "Review"): {game, status, progress}.
      return freeze({ ...s, review: { game: m.game, status: m.status, progress: m.progress } });
    case "seat_lost":
      // This page watches from now on; the server sends a spectator's history and state next,
      // so nothing of the seat's own log stays (the log is the server's to filter).
      return freeze({ ...s, seat: null, inflight: null, pending: false, events: [], hint: null,
        room: s.room && { ...s.room, you: null } });
    case "error":
      // The refused move (or an error without an id while one is in flight) is answered.
      if (s.inflight && m.id && m.id !== s.inflight.id) return s;
      return freeze({ ...s, inflight: null, pending: false });
    case "server_restarting":
      return freeze({ ...s, restarting: true });
    case "sent":
      return freeze({ ...s, inflight: m.frame, pending: true });
    case "open":
      return freeze({ ...s, online: true, fresh: true, restarting: false });
    case "down":
      return freeze({ ...s, online: false, room: s.room && { ...s.room, stale: 1 } });
    case "presence": {
      if (!s.room) return s;
      const r = m.room;
      const players = s.room.players.map((p) => {
        const q = r.players.find((x) => x.seat === p.seat && x.name === p.name);
        return q ? { ...p, connected: q.connected, offline_s: q.offline_s, connected_s: q.connected_s } : p;
      });
      const room = { ...s.room, chat_spectators: r.chat_spectators, players };
      delete room.stale;
      return freeze({ ...s, room, roomAt: now });
    }
    default:
      return s;
  }
}

function freeze(s) { return Object.freeze(s); }

/** What the people at the page are doing, beside the server's data: {sel, rove, dismissed,
 *  returnFocus, pressedWhy, summaryClosed, ahead, leftGame, shown, changes, turnsPlayed,
 *  answered, resultShown, forgotSeat, waiting, chat, sound, hintAsked}, each named with the file that keeps it. */
export function initialUi() {
  return {
    sel: { market: null, pay: new Set(), discard: new Set(), goods: new Set() },  // the cards picked (table.js)
    rove: {},             // per card row: the card id that is its Tab stop (keys.js)
    dismissed: null,      // the decision dialog put aside with Escape (decide.js)
    returnFocus: null,    // where the focus goes back when that dialog closes (decide.js)
    pressedWhy: null,     // {id, why}: a disabled button pressed, and why it is (bar.js)
    summaryClosed: null,  // the last payment summary closed with × (summary.js)
    ahead: null,          // a later game's frames kept while the result is read (nextgame.js)
    leftGame: null,       // the game whose result this page left (nextgame.js)
    shown: null,          // what the log had when this page last showed the table (changes.js)
    changes: null,        // what changed since then (table.js)
    turnsPlayed: 0,       // this seat's turns in the game so far (table.js)
    answered: false,      // a move was just answered: its focus is shown (room.js)
    resultShown: false,   // the result took the focus once (room.js)
    forgotSeat: false,    // a refused seat cookie was given up once (room.js)
    waiting: { joinError: "", joining: false, adding: false, starting: false },  // (waiting.js)
    chat: null,           // the text typed, muted senders, unread… (chat.js initialChat)
    sound: false,         // the beep at your decision (room.js)
    hintAsked: null,      // the version a hint was asked for, until it comes (hint.js)
  };
}
