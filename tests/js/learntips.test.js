// "Learn to play" (learntips.js): which tip the table's data calls for — the decision's first, then
// what happened, each rule once, the token bonus only for a sale above its highest card.
import { test } from "node:test";
import assert from "node:assert/strict";
import { TIPS, dueTips, decisionTip } from "../../static/js/learntips.js";

const players = (tokens = [0, 0, 0]) => tokens.map((n) => ({ tokens: { red: n, blue: 0, yellow: 0, green: 0 } }));
const ctx = (o) => ({ seat: 0, version: 5, hint: null, events: [], ...o,
  view: { phase: "turn", to_act: 0, players: players(), ...(o.view || {}) } });

test("the ten tips, in the order of bots/tutorial.py RULES", () => {
  assert.deepEqual(TIPS, ["draft", "take", "reserve", "buy", "ships", "payment", "tide", "insure", "refresh", "end"]);
});

test("a decision's tip: the draft, the insurance, else the kind of the hint's move of this decision", () => {
  assert.equal(decisionTip(ctx({ view: { phase: "token_draft" } })), "draft");
  assert.equal(decisionTip(ctx({ view: { phase: "insurance" } })), "insure");
  assert.equal(decisionTip(ctx({})), null, "no hint yet");
  const hint = { version: 5, seat: 0, action: { type: "reserve", card: 3 } };
  assert.equal(decisionTip(ctx({ hint })), "reserve");
  assert.equal(decisionTip(ctx({ hint: { ...hint, version: 4 } })), null, "an older decision's hint");
  assert.equal(decisionTip(ctx({ hint, view: { to_act: 1 } })), null, "not this seat's decision");
  assert.equal(decisionTip(ctx({ hint, seat: null })), null, "a spectator");
});

test("what happened: ships, a sale with the token bonus, the Black Tide, the refresh, the end", () => {
  const hint = { version: 5, seat: 0, action: { type: "buy", payment: [1] } };
  // Card 0 is a red 2 and card 20 a red 5 (catalogue.js): price 3 over a highest 2 is a bonus, 5 over 5 is not.
  const events = [{ type: "ship_moved", color: "red", from: 0, to: 1 },
    { type: "refresh", moved: [], market: [], farm: [] },
    { type: "sale", seat: 1, color: "red", cards: [20], price: 5 }, { type: "black_tide", colors: ["red"] },
    { type: "take", seat: 0, card: 9 }, { type: "take", seat: 1, card: 10 }];
  assert.deepEqual(dueTips(ctx({ hint, events })), ["buy", "ships", "refresh", "tide", "take"]);
  const bonus = [...events, { type: "sale", seat: 2, color: "red", cards: [0], price: 3 }];
  assert.deepEqual(dueTips(ctx({ events: bonus })), ["ships", "refresh", "tide", "take", "payment"]);
  assert.deepEqual(dueTips(ctx({ view: { players: players([0, 6, 1]) } })), ["end"], "someone near 8 tokens");
  assert.deepEqual(dueTips(ctx({ events: [{ type: "game_over", reason: "tokens" }], view: { phase: "over",
    to_act: null } })), ["end"]);
});
