// Play again without pulling anyone off the result (docs/ui.md "Play again"): while this page
// shows the result of game n and its person has not moved on, what the server sends for a later
// game (its room summary, history, events, state) is kept aside, and the result gets a notice
// of it: who wants to play again, with "I'm in" and "Go to game n+1" ("Watch game n+1" for a
// spectator); once that game has started, "Game n+1 has started" with the way to its table;
// once it is over too, "Game n+1 is over" with the way to its result.
// Moving on hands the kept frames to the room page (room.js) as if they had just come.
// Loaded with games.js, at the end of a game.
import { h } from "../vendor/preact.js";
import { t, tn, listParts, loadPart } from "./i18n.js";
import { isComputerSeat, nameTag } from "./common.js";

/** Load the texts of this notice and of the end screen (games.js): the catalogue part
 *  i18n/games-<lang>.js (i18n.js loads it again after a switch). */
export function loadTexts() { return loadPart("games"); }

/**
 * A frame from the room's socket while the result is on the page → true when it belongs to a
 * later game and was kept (ctx.ahead: {room, history, events, state, at}); false for the room
 * page to take it as usual. The held summary (ctx.room, the finished game's) gets the new one's
 * presence and chat setting (a `presence` action, roomstore.js), so its dots and the chat stay true.
 */
export function hold(ctx, msg) {
  let a = ctx.ahead;
  if (msg.type === "room") {
    const r = msg.room;
    if (!ctx.view || ctx.view.phase !== "over" || ctx.leftGame === ctx.room.game || r.game <= ctx.room.game) {
      return false;
    }
    if (!a || a.room.game !== r.game) a = ctx.ahead = { room: r, history: null, events: [], state: null, at: 0 };
    a.room = r;
    ctx.dispatch({ type: "presence", room: r });  // the held summary's dots and chat setting (roomstore.js)
  } else if (!a) return false;
  else if (msg.type === "history") { a.history = msg; a.events = []; return true; }
  else if (msg.type === "event") { a.events.push(...(msg.events || [])); return true; }
  else if (msg.type === "state") { a.state = msg; a.at = performance.now(); }
  else return false;
  ctx.redraw();
  return true;
}

/** This page's person leaves the result: the kept frames of the next game are handed on (a
 *  running clock counted on by the time they waited); without any yet, they are taken as they
 *  come. */
export function moveOn(ctx) {
  if (!ctx.feed || !ctx.view || ctx.view.phase !== "over") return;  // not on a result (a second click)
  ctx.leftGame = ctx.room.game;
  const a = ctx.ahead;
  ctx.ahead = null;
  if (!a) return;
  ctx.feed({ type: "room", room: a.room });
  if (a.history) ctx.feed({ ...a.history, events: [...(a.history.events || []), ...a.events] });
  if (!a.state) return;
  const c = a.state.clock, d = performance.now() - a.at;
  ctx.feed({ ...a.state, clock: c && { ...c, turn_ms: c.turn_ms + d,
    left_ms: c.left_ms === null ? null : Math.max(0, c.left_ms - d) } });
}

/** True once the game after the one on the page has started (its "Play again" is over); it
 *  may be over too (nextOver). */
export function nextStarted(ctx) {
  return !!ctx.ahead && ctx.ahead.room.status !== "waiting";
}

/** True once the game after the one on the page is over (its room summary or its state says so). */
export function nextOver(ctx) {
  const a = ctx.ahead;
  return !!a && (a.room.status === "over" || (!!a.state && a.state.view.phase === "over"));
}

/** The notice of the next game (the result's #again-notice; null while there is none);
 *  `sayIn()` tells the server this page's player is in. */
export function noticeView(ctx, sayIn) {
  const a = ctx.ahead;
  if (!a) return null;
  const r = a.room, g = r.game;
  const me = ctx.seat === null ? null : r.players.find((p) => p.seat === ctx.seat);
  const go = (key, big) => h("button", { type: "button", class: "btn" + (big ? " primary big-btn" : ""),
    id: "notice-go", onClick: () => moveOn(ctx) }, t(key, { g }));
  if (nextOver(ctx)) {
    return [h("span", { class: "notice-text" }, t("again.over", { g })), " ", go("again.result", true)];
  }
  if (nextStarted(ctx)) {
    const v = a.state && a.state.view;
    const turn = me && v && v.phase !== "over" && v.to_act === ctx.seat;
    return [h("span", { class: "notice-text" }, t(turn ? "again.started_turn" : "again.started", { g })), " ",
      go(me ? "again.to_table" : "again.watch", true)];
  }
  const who = r.players.filter((p) => p.ready && p.seat !== ctx.seat && !isComputerSeat(r, p.seat))
    .map((p) => nameTag(r, p.seat));
  return [
    h("span", { class: "notice-text" }, tn(me ? "again.want" : "again.playing", { n: who.length,
      names: listParts(who), g })), " ",
    me && !me.ready ? [h("button", { type: "button", class: "btn primary", id: "notice-in",
      onClick: () => { moveOn(ctx); sayIn(); } }, "✓ " + t("again.im_in")), " "] : null,
    me && me.ready ? [h("span", { class: "notice-text" }, t("again.you_in")), " "] : null,
    go(me ? "again.go" : "again.watch", false),
  ];
}
