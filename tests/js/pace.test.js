// The turn-based room's pure parts (issue 31): the clock's long texts (clock.js durationText,
// limitText's hours and days) and pacetext.js (who is away, the away dialog's limits and field).
import { test } from "node:test";
import assert from "node:assert/strict";
import { durationText, limitText } from "../../static/js/clock.js";
import { awaySeats, awayMax, inputValue, untilIso, whenText } from "../../static/js/pacetext.js";

test("time left: m:ss below an hour, then hours and minutes, then days and hours", () => {
  assert.equal(durationText(0), "0:00");
  assert.equal(durationText(59), "0:59");
  assert.equal(durationText(3599), "59:59");
  assert.equal(durationText(3600), "1 hr 0 min");
  assert.equal(durationText(7 * 3600 + 12 * 60 + 30), "7 hr 12 min");
  assert.equal(durationText(86400 + 3 * 3600 + 59), "1 day 3 hr");
  assert.equal(durationText(3 * 86400), "3 days 0 hr");
});

test("the turn-based times per decision read as hours and days (Intl, in the page's language)", () => {
  assert.equal(limitText(3600), "1 hour");
  assert.equal(limitText(28800), "8 hours");
  assert.equal(limitText(86400), "1 day");
  assert.equal(limitText(259200), "3 days");
  assert.equal(limitText(0), "timer.off");  // (no catalogue loaded here: the key)
  assert.equal(limitText(90), "timer.s");
});

test("who is away: only seats with a time still to come", () => {
  const now = Date.parse("2026-12-03T10:00:00Z");
  const room = { players: [
    { seat: 0, away_until: null }, { seat: 1, away_until: "2026-12-03T09:59:59Z" },
    { seat: 2, away_until: "2026-12-08T14:00:00Z" }, { seat: 3 }] };
  assert.deepEqual(awaySeats(room, now), [{ seat: 2, until: Date.parse("2026-12-08T14:00:00Z") }]);
  assert.deepEqual(awaySeats({}, now), []);
});

test("the away dialog: at most the seconds left, to the minute; its field's value and the ISO sent", () => {
  const now = Date.parse("2026-12-03T10:00:30Z");
  assert.equal(awayMax(now, 7 * 86400), Date.parse("2026-12-10T10:00:00Z"));
  assert.equal(awayMax(now, 0), Date.parse("2026-12-03T10:00:00Z"));
  assert.equal(awayMax(now, -5), Date.parse("2026-12-03T10:00:00Z"));
  const ms = Date.parse("2026-12-05T14:07:00Z");
  assert.match(inputValue(ms), /^\d{4}-\d\d-\d\dT\d\d:\d\d$/);
  assert.equal(untilIso(inputValue(ms)), "2026-12-05T14:07:00Z");  // local time there and back
  assert.equal(untilIso(""), null);
  assert.equal(untilIso("soon"), null);
});

test("away until: weekday and time in the viewer's language and time zone", () => {
  const ms = Date.parse("2026-12-08T13:00:00Z");  // a Tuesday
  assert.equal(whenText(ms, "en", "UTC"), "Tue 13:00");
  assert.equal(whenText(ms, "en", "Europe/Berlin"), "Tue 14:00");
  assert.match(whenText(ms, "de", "Europe/Berlin"), /^Di\.?,? 14:00$/);
});
