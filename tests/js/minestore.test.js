// The "My games" page's store (static/js/minestore.js): what each message does to the page's data
// and what the page reads from it, without a browser (`node --test tests/js/`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { initialMine, reduceMine, unread, secondsLeft, groups, headline } from "../../static/js/minestore.js";
import { createStore } from "../../static/js/store.js";

const room = (code, extra = {}) => ({ code, status: "playing", your_turn: false, chat_id: null, deadline: null,
  ...extra });

test("the list comes from the HTTP answer and then from each frame, whole, in the server's order", () => {
  const store = createStore(reduceMine, initialMine());
  assert.equal(store.get().rooms, null);  // not loaded: the page says nothing yet
  store.dispatch({ type: "loaded", rooms: [room("B"), room("A")] });
  assert.deepEqual(store.get().rooms.map((r) => r.code), ["B", "A"]);
  store.dispatch({ type: "mine", rooms: [room("C")] });
  assert.deepEqual(store.get().rooms.map((r) => r.code), ["C"]);
  store.dispatch({ type: "mine" });
  assert.deepEqual(store.get().rooms, []);
});

test("states are frozen; a frame's own objects changing later do not reach the store", () => {
  const before = initialMine();
  const rooms = [room("A")];
  const after = reduceMine(before, { type: "mine", rooms });
  assert.equal(before.rooms, null);
  assert.ok(Object.isFrozen(after) && Object.isFrozen(after.rooms) && Object.isFrozen(after.rooms[0]));
  rooms[0].code = "Z";
  rooms.push(room("B"));
  assert.deepEqual(after.rooms.map((r) => r.code), ["A"]);
});

test("open, down and unknown frames", () => {
  let s = initialMine();
  s = reduceMine(s, { type: "open" });
  assert.equal(s.online, true);
  assert.equal(reduceMine(s, { type: "open" }), s);
  assert.equal(reduceMine(s, { type: "pong" }), s);
  assert.equal(reduceMine(s, { type: "down" }).online, false);
});

test("unread chat: a message newer than the one the room page last showed here", () => {
  const s = reduceMine(initialMine(), { type: "seen", seen: { A: "7", B: 9 } });
  assert.equal(unread(room("A", { chat_id: 8 }), s.seen), true);
  assert.equal(unread(room("A", { chat_id: 7 }), s.seen), false);
  assert.equal(unread(room("B", { chat_id: 9 }), s.seen), false);
  assert.equal(unread(room("C", { chat_id: 1 }), s.seen), true);   // never opened here
  assert.equal(unread(room("C", { chat_id: null }), s.seen), false);  // no chat at all
});

test("seconds left until the deadline, never below zero; none without a timer", () => {
  const r = room("A", { deadline: "2026-01-01T12:00:30Z" });
  const noon = Date.parse("2026-01-01T12:00:00Z");
  assert.equal(secondsLeft(r, noon), 30);
  assert.equal(secondsLeft(r, noon + 40000), 0);
  assert.equal(secondsLeft(room("B"), noon), null);
  // Paused by the host: the time stands as it was at the pause, however late it is now.
  const paused = room("P", { deadline: "2026-01-01T12:00:30Z", paused: true, left_s: 13 });
  assert.equal(secondsLeft(paused, noon), 13);
  assert.equal(secondsLeft(paused, noon + 3600000), 13);
});

test("groups: your decision first, then playing, waiting, over, each in the server's order", () => {
  const g = groups([room("T1", { your_turn: true }), room("P"), room("T2", { your_turn: true }),
    room("W", { status: "waiting" }), room("O", { status: "over" })]);
  assert.deepEqual(Object.fromEntries(Object.entries(g).map(([k, v]) => [k, v.map((r) => r.code)])),
    { turn: ["T1", "T2"], playing: ["P"], waiting: ["W"], over: ["O"] });
});

test("the headline of a last move is its action's event, not the turn marker after it", () => {
  const last = { events: [{ type: "buy", seat: 0 }, { type: "refresh" }, { type: "turn_started", seat: 1 }] };
  assert.equal(headline(last).type, "buy");
  assert.equal(headline({ events: [{ type: "turn_started", seat: 1 }] }), null);
  assert.equal(headline(null), null);
});
