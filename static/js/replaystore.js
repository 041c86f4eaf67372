// The replay page's state (docs/ui.md "The pages' state"): the server's replay of a finished
// game (GET /api/rooms/{code}/games/{n}/replay, docs/protocol.md "Finished games"), the
// moment shown, or the refusal. Only `reduceReplay` changes it; no DOM, no imports
// (tests/js/pagestores.test.js).

/** The state when the page opens: {data: null (the replay: {players, steps}), room: null (its
 *  players as the room summary names them), step: 0 (index into data.steps), failed: null
 *  ({code, fields} of the refusal)}. */
export function initialReplay() {
  return Object.freeze({ data: null, room: null, step: 0, failed: null });
}

/** The state after one message: `loaded` {data} (the replay; the first moment shown),
 *  `failed` {error: {code, fields}}, `go` {to} (a moment, clamped to the first and the last;
 *  nothing before the replay is loaded). Unknown types change nothing; never mutates `s`. */
export function reduceReplay(s, m) {
  switch (m.type) {
    case "loaded": {
      // A record before `computer` marks a computer player by `bot_level` alone (app/replay.py).
      const players = m.data.players.map((p) => {
        const computer = p.computer ?? !!p.bot_level;
        return { ...p, bot: computer, computer };
      });
      return Object.freeze({ ...s, data: m.data, room: { players }, step: 0, failed: null });
    }
    case "failed":
      return Object.freeze({ ...s, failed: { code: m.error.code, fields: m.error.fields } });
    case "go": {
      if (!s.data) return s;
      const step = Math.max(0, Math.min(s.data.steps.length - 1, m.to));
      return step === s.step ? s : Object.freeze({ ...s, step });
    }
    default:
      return s;
  }
}
