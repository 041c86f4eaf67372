// The home and replay pages' stores (static/js/lobbystore.js, replaystore.js): what each message
// does to the page's data, without a browser (`node --test tests/js/`, part of `make test`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { initialLobby, reduceLobby } from "../../static/js/lobbystore.js";
import { initialReplay, reduceReplay } from "../../static/js/replaystore.js";
import { createStore } from "../../static/js/store.js";

const room = (code) => ({ code, seats_free: 2, seats: [{ seat: 0, name: "Ann" }] });

test("the lobby's rooms come from the HTTP list and then from each frame, whole", () => {
  const store = createStore(reduceLobby, initialLobby());
  store.dispatch({ type: "loaded", rooms: [room("AAA"), room("BBB")] });
  assert.deepEqual(store.get().rooms.map((r) => r.code), ["AAA", "BBB"]);
  store.dispatch({ type: "rooms", rooms: [room("CCC")] });
  assert.deepEqual(store.get().rooms.map((r) => r.code), ["CCC"]);
  store.dispatch({ type: "rooms" });  // a frame without the list: none open
  assert.deepEqual(store.get().rooms, []);
});

test("the lobby's socket state follows open and down; other frames change nothing", () => {
  let s = initialLobby();
  assert.equal(s.online, false);
  s = reduceLobby(s, { type: "open" });
  assert.equal(s.online, true);
  assert.equal(reduceLobby(s, { type: "pong" }), s);
  assert.equal(reduceLobby(s, { type: "open" }), s);
  s = reduceLobby(s, { type: "down" });
  assert.equal(s.online, false);
});

test("the lobby's states are frozen and the old one stays as it was", () => {
  const before = initialLobby();
  const rooms = [room("AAA")];
  const after = reduceLobby(before, { type: "rooms", rooms });
  assert.deepEqual(before.rooms, []);
  assert.ok(Object.isFrozen(after) && Object.isFrozen(after.rooms));
  rooms.push(room("BBB"));  // the frame's own list changing later does not reach the store
  assert.equal(after.rooms.length, 1);
});

const replay = (n) => ({
  players: [{ seat: 0, name: "Ann" }, { seat: 1, name: "Computer", bot_level: "easy" }],
  steps: Array.from({ length: n }, (_, k) => ({ seat: k ? 0 : null, events: [], view: { phase: "turn" } })),
});

test("a loaded replay shows its first moment and names old records' computer players", () => {
  const s = reduceReplay(initialReplay(), { type: "loaded", data: replay(5) });
  assert.equal(s.step, 0);
  assert.equal(s.failed, null);
  assert.deepEqual(s.room.players.map((p) => p.computer), [false, true]);
  assert.deepEqual(s.room.players.map((p) => p.bot), [false, true]);
});

test("going to a moment is clamped to the first and the last; nothing before the replay came", () => {
  assert.equal(reduceReplay(initialReplay(), { type: "go", to: 3 }).step, 0);
  let s = reduceReplay(initialReplay(), { type: "loaded", data: replay(5) });
  s = reduceReplay(s, { type: "go", to: 3 });
  assert.equal(s.step, 3);
  assert.equal(reduceReplay(s, { type: "go", to: 99 }).step, 4);
  assert.equal(reduceReplay(s, { type: "go", to: -1 }).step, 0);
  assert.equal(reduceReplay(s, { type: "go", to: 3 }), s);
});

test("a refused replay keeps the refusal's code and fields", () => {
  const s = reduceReplay(initialReplay(), { type: "failed", error: { code: "game_not_over", fields: { n: 2 },
    message: "…" } });
  assert.deepEqual(s.failed, { code: "game_not_over", fields: { n: 2 } });
  assert.equal(s.data, null);
});
