// Pure helpers of the turn-based room's parts (pace.js): who is away until when, the away
// dialog's limits and its date-time field's value (in the viewer's own time zone). No DOM, no
// imports: node's test runner loads it (tests/js/pace.test.js).

/** The seats of summary `room` whose player is away at `now` (ms): [{seat, until (ms)}]. */
export function awaySeats(room, now) {
  return (room.players || []).filter((p) => p.away_until && Date.parse(p.away_until) > now)
    .map((p) => ({ seat: p.seat, until: Date.parse(p.away_until) }));
}

/** The latest time (ms) the seat may say it is away until: `now` + its `away_left_s`, to the minute below. */
export function awayMax(now, leftS) {
  return Math.floor((now + Math.max(0, leftS || 0) * 1000) / 60000) * 60000;
}

const two = (n) => String(n).padStart(2, "0");
/** A time (ms) as the value of an <input type="datetime-local"> in the local time zone ("2026-12-05T14:00"). */
export function inputValue(ms) {
  const d = new Date(ms);
  return d.getFullYear() + "-" + two(d.getMonth() + 1) + "-" + two(d.getDate()) + "T" + two(d.getHours()) + ":"
    + two(d.getMinutes());
}

/** The value of that field (local time) as the ISO 8601 UTC the server takes, or null when empty or not a time. */
export function untilIso(value) {
  const ms = value ? new Date(value).getTime() : NaN;
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** "Tue 14:00" in language `lang` and the viewer's time zone (or `timeZone`). */
export function whenText(ms, lang, timeZone) {
  return new Intl.DateTimeFormat(lang, { weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23",
    ...(timeZone ? { timeZone } : {}) }).format(ms);
}
