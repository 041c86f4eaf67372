// The room page's store (static/js/roomstore.js): what each frame from the server does to the
// page's data, without a browser. `make test` runs it with node's test runner (`node --test`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { reduce, initialState, initialUi } from "../../static/js/roomstore.js";
import { createStore } from "../../static/js/store.js";

const summary = (over = {}) => ({ code: "ABC", game: 1, status: "waiting", you: 0, chat_spectators: true,
  players: [{ seat: 0, name: "Ann", connected: true, offline_s: null, connected_s: 5 },
    { seat: 1, name: "Bo", connected: true, offline_s: null, connected_s: 5 }], ...over });
const view = (over = {}) => ({ phase: "turn", to_act: 0, seat: 0, players: [], ...over });
const run = (frames, s = initialState()) => frames.reduce((st, [m, now]) => reduce(st, m, now ?? 0), s);

test("the room summary sets the seat and the time it came at", () => {
  const s = run([[{ type: "loaded", room: summary({ you: 1 }) }, 120]]);
  assert.equal(s.seat, 1);
  assert.equal(s.roomAt, 120);
  assert.equal(s.room.code, "ABC");
  assert.equal(run([[{ type: "room", room: summary({ you: null }) }]]).seat, null);
});

test("a state frame answers the move in flight, except the first one after a reconnect", () => {
  const act = { type: "act", id: "m1", version: 3, action: { type: "take", card: 7 } };
  let s = run([[{ type: "loaded", room: summary() }], [{ type: "open" }],
    [{ type: "state", version: 3, view: view() }], [{ type: "sent", frame: act }]]);
  assert.equal(s.pending, true);
  assert.deepEqual(s.inflight, act);
  // The link drops; the connect's state (fresh) keeps the move in flight for the resend.
  s = run([[{ type: "down" }], [{ type: "open" }], [{ type: "state", version: 3, view: view() }]], s);
  assert.equal(s.room.stale, 1);
  assert.equal(s.fresh, false);
  assert.deepEqual(s.inflight, act);
  assert.equal(s.pending, true);
  // The answer to the resent move clears it.
  s = run([[{ type: "state", version: 4, view: view({ to_act: 1 }) }]], s);
  assert.equal(s.inflight, null);
  assert.equal(s.pending, false);
  assert.equal(s.version, 4);
  assert.equal(s.view.to_act, 1);
});

test("the first state of a game turns a waiting summary into a playing (or finished) one", () => {
  const s = run([[{ type: "loaded", room: summary() }], [{ type: "state", version: 1, view: view() }]]);
  assert.equal(s.room.status, "playing");
  const over = run([[{ type: "loaded", room: summary() }], [{ type: "state", version: 9, view: view({ phase: "over" }),
    result: { ranking: [0, 1] } }]]);
  assert.equal(over.room.status, "over");
  assert.deepEqual(over.result, { ranking: [0, 1] });
});

test("history replaces the log, events add to it, in order", () => {
  const e = (n) => ({ type: "take", n });
  const s = run([[{ type: "history", version: 5, events: [e(1), e(2)] }], [{ type: "event", events: [e(3)] }],
    [{ type: "event", events: [e(4), e(5)] }]]);
  assert.deepEqual(s.events.map((x) => x.n), [1, 2, 3, 4, 5]);
  assert.equal(s.version, 5);
  const again = run([[{ type: "history", version: 0, events: [e(9)] }]], s);
  assert.deepEqual(again.events.map((x) => x.n), [9]);
});

test("play again: a later game's summary starts the game data afresh", () => {
  let s = run([[{ type: "loaded", room: summary({ status: "playing" }) }],
    [{ type: "history", version: 40, events: [{ type: "take" }] }],
    [{ type: "state", version: 40, view: view({ phase: "over" }), result: { ranking: [1, 0] }, clock: { seat: 0 } }]]);
  s = run([[{ type: "room", room: summary({ status: "over" }) }]], s);
  assert.equal(s.view.phase, "over", "the same game's summary keeps the table");
  s = run([[{ type: "room", room: summary({ game: 2 }) }]], s);
  assert.equal(s.view, null);
  assert.equal(s.result, null);
  assert.deepEqual(s.events, []);
  assert.equal(s.version, 0);
  assert.equal(s.clock, null);
  assert.equal(s.room.game, 2);
});

test("a lost seat: the page watches, nothing of the seat's own log or move stays", () => {
  const act = { type: "act", id: "m2", version: 2, action: { type: "pass" } };
  const s = run([[{ type: "loaded", room: summary({ status: "playing" }) }],
    [{ type: "history", version: 2, events: [{ type: "draw", visible_to: 0 }, { type: "take", visible_to: null }] }],
    [{ type: "sent", frame: act }], [{ type: "seat_lost" }]]);
  assert.equal(s.seat, null);
  assert.equal(s.room.you, null);
  assert.equal(s.inflight, null);
  assert.equal(s.pending, false);
  assert.deepEqual(s.events, [], "the spectator's history, sent next, is the log");
});

test("an error answers the move it names (or any, without an id), not another one", () => {
  const act = { type: "act", id: "m3", version: 2, action: { type: "pass" } };
  const sent = run([[{ type: "sent", frame: act }]]);
  assert.equal(reduce(sent, { type: "error", code: "stale_version", id: "other" }), sent);
  assert.equal(reduce(sent, { type: "error", code: "stale_version", id: "m3" }).inflight, null);
  assert.equal(reduce(sent, { type: "error", code: "rate_limited" }).pending, false);
});

test("the server says it restarts until the socket is open again", () => {
  const s = run([[{ type: "server_restarting" }], [{ type: "down" }]]);
  assert.equal(s.restarting, true);
  assert.equal(s.online, false);
  const back = run([[{ type: "open" }]], s);
  assert.equal(back.restarting, false);
  assert.equal(back.online, true);
  assert.equal(back.fresh, true);
});

test("presence of a later game reaches the held summary's players only", () => {
  const s = run([[{ type: "loaded", room: summary({ status: "over" }) }], [{ type: "down" }]]);
  const later = summary({ game: 2, chat_spectators: false, players: [
    { seat: 0, name: "Ann", connected: false, offline_s: 12, connected_s: null },
    { seat: 1, name: "Cy", connected: true, offline_s: null, connected_s: 1 }] });
  const p = reduce(s, { type: "presence", room: later }, 900);
  assert.equal(p.room.game, 1, "still the finished game's summary");
  assert.equal(p.room.stale, undefined);
  assert.equal(p.room.chat_spectators, false);
  assert.deepEqual(p.room.players[0], { seat: 0, name: "Ann", connected: false, offline_s: 12, connected_s: null });
  assert.equal(p.room.players[1].name, "Bo", "another person in seat 1 is not this summary's player");
  assert.equal(p.room.players[1].connected, true);
  assert.equal(p.roomAt, 900);
});

test("frames never change the state they were given; unknown ones change nothing", () => {
  const s = run([[{ type: "loaded", room: summary() }], [{ type: "history", version: 1, events: [{ type: "a" }] }]]);
  const copy = JSON.stringify(s);
  for (const m of [{ type: "event", events: [{ type: "b" }] }, { type: "state", version: 2, view: view() },
    { type: "seat_lost" }, { type: "down" }, { type: "room", room: summary({ game: 2 }) }]) reduce(s, m);
  assert.equal(JSON.stringify(s), copy);
  assert.ok(Object.isFrozen(s));
  assert.equal(reduce(s, { type: "pong" }), s);
});

test("the store applies each frame and gives back the state before it", () => {
  const store = createStore(reduce, initialState());
  const before = store.dispatch({ type: "loaded", room: summary({ you: 1 }) }, 5);
  assert.equal(before.room, null);
  assert.equal(before.seat, null);
  assert.equal(store.get().seat, 1);
  assert.equal(store.get().roomAt, 5);
  const same = store.get();
  assert.equal(store.dispatch({ type: "pong" }), same);
  assert.equal(store.get(), same);
});

test("the people's own state starts empty, with fresh selections each time", () => {
  const a = initialUi(), b = initialUi();
  assert.equal(a.sel.pay.size, 0);
  assert.notEqual(a.sel.pay, b.sel.pay);
  assert.equal(a.ahead, null);
});

test("chat: the history replaces the messages, a message comes once, the last 200 stay", () => {
  const msg = (id, text = "hi") => ({ id, seat: 0, name: "Ann", text });
  let s = run([[{ type: "chat", history: true, messages: [msg(1), msg(2)] }],
    [{ type: "chat", messages: [msg(2), msg(3, "new")] }]]);
  assert.deepEqual(s.messages.map((m) => m.id), [1, 2, 3]);
  s = run([[{ type: "chat", history: true, messages: [msg(9)] }]], s);
  assert.deepEqual(s.messages.map((m) => m.id), [9]);
  const many = Array.from({ length: 250 }, (_, i) => msg(100 + i));
  s = run([[{ type: "chat", messages: many }]], s);
  assert.equal(s.messages.length, 200);
  assert.equal(s.messages[199].id, 349);
  // play again keeps the room's chat
  s = run([[{ type: "loaded", room: summary() }], [{ type: "room", room: summary({ game: 2 }) }]], s);
  assert.equal(s.messages.length, 200);
});

test("the standings come with the room summary; a later game's presence leaves the result's standings", () => {
  const standings = (n) => ({ games: n, numbers: [...Array(n).keys()].map((k) => k + 1), players: [
    { name: "Ann", computer: false, played: n, wins: n, shared_wins: 0, vp: 12 * n, vp_per_game: 12,
      by_game: Array(n).fill(12), best_sale: null }] });
  let s = run([[{ type: "room", room: summary({ status: "over", standings: standings(1) }) }]]);
  assert.equal(s.room.standings.games, 1);
  // Game 2 waits while this page still shows game 1's result: its presence only.
  s = reduce(s, { type: "presence", room: summary({ game: 2, standings: standings(1) }) });
  assert.deepEqual(s.room.standings, standings(1));
  // Game 2's end: its summary counts it.
  s = reduce(s, { type: "room", room: summary({ game: 2, status: "over", standings: standings(2) }) });
  assert.equal(s.room.standings.games, 2);
  // A summary without standings (an older server, a first game) has none.
  assert.equal(run([[{ type: "room", room: summary() }]]).room.standings, undefined);
});

test("a hint is this seat's while the game stays at its version; the state's counts are kept", () => {
  const hint = { type: "hint", version: 3, seat: 0, action: { type: "take", card: 7 }, why: { code: "only" } };
  let s = run([[{ type: "loaded", room: summary({ hints: true }) }], [{ type: "open" }],
    [{ type: "state", version: 3, view: view() }], [hint]]);
  assert.deepEqual(s.hint, { version: 3, seat: 0, action: { type: "take", card: 7 }, why: { code: "only" } });
  // Everyone's state after the hint (its use counted) keeps it; a refused hint (its own id) answers no move.
  const act = { type: "act", id: "m1", version: 3, action: { type: "take", card: 7 } };
  s = run([[{ type: "state", version: 3, view: view(), hints: [1, 0] }], [{ type: "sent", frame: act }],
    [{ type: "error", id: "hint:3", code: "hints_off" }]], s);
  assert.deepEqual(s.hints, [1, 0]);
  assert.equal(s.hint.version, 3);
  assert.deepEqual(s.inflight, act);
  s = run([[{ type: "state", version: 4, view: view({ to_act: 1 }), hints: [1, 0] }]], s);
  assert.equal(s.hint, null);  // the decision was made: its hint is gone, its count stays
  assert.deepEqual(s.hints, [1, 0]);
  assert.equal(run([[{ type: "seat_lost", seat: 0 }]], run([[hint]], s)).hint, null);
});
