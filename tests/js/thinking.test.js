// A computer player's thinking time on the table (issue 32, clock.js botThinking): when it shows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { botThinking } from "../../static/js/clock.js";

const view = { phase: "turn", to_act: 1 };
const bot = { seat: 1, bot: true }, person = { seat: 1, bot: false };

test("shown for the computer player to act while its decision's clock runs, not otherwise", () => {
  const clock = { seat: 1, turn_ms: 2000, left_ms: null };
  assert.equal(botThinking({ view, clock }, 1, bot), true);
  assert.equal(botThinking({ view, clock }, 1, person), false);                     // a person thinks in peace
  assert.equal(botThinking({ view, clock }, 0, { seat: 0, bot: true }), false);     // not its decision
  assert.equal(botThinking({ view, clock: { ...clock, paused: true } }, 1, bot), false);  // the host paused
  assert.equal(botThinking({ view, clock: null }, 1, bot), false);
  assert.equal(botThinking({ view: { ...view, phase: "over", to_act: null }, clock }, 1, bot), false);
});
