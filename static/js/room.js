// The room page controller: one WebSocket (/ws/rooms/{code}) feeds the waiting room, the
// game table and the result. Reconnects by itself; a reload finds the seat again through
// the HttpOnly cookie the server set at create/join.
import { h, render } from "../vendor/preact.js";
import { toast, banner, appUrl } from "./dom.js";
import { initI18n, t, onLangChange } from "./i18n.js";
import { api, LiveSocket } from "./net.js";
import { errorText } from "./common.js";
import { WaitingView, copyLink } from "./waiting.js";
import { buildTable, renderTable, pruneSelection, turnText } from "./table.js";
import { logEntries } from "./logview.js";
import { announce, keepFocus, installShortcuts, focusRow, ringFocus } from "./keys.js";
import { setClock, clockText, pauseClock } from "./clock.js";
import { ChatPanel } from "./chat.js";
import { handInView, watchFit } from "./fit.js";
import { reduce, initialState, initialUi } from "./roomstore.js";
import { createStore } from "./store.js";

const code = document.body.dataset.code;
const root = document.getElementById("room-root");

const store = createStore(reduce, initialState());
/** What the page's views read and call (docs/ui.md "The room page's state"): the store's fields
 *  as read-only getters (ctx.room, ctx.view, ctx.seat, ctx.events, …: only a frame through
 *  `reduce` changes them; assigning one throws), the people's own state (initialUi) and the
 *  page's calls. Sealed: a field no one declared cannot be added. */
const ctx = {
  ...initialUi(),
  act: null, hostBot: null, takeBack: null, redraw: null, later: null,
  dispatch: (m) => store.dispatch(m, performance.now()),  // a page action into the store (roomstore.js)
  feed: (m) => onMessage(m),  // a frame as if it had just come from the socket (nextgame.js)
  hold: null,                 // keeps a later game's frames while the result is read (nextgame.js)
  dialogKey: null, openDialog: null,  // the decision dialog's (decide.js, table.js)
};
for (const k of Object.keys(store.get())) {
  Object.defineProperty(ctx, k, { get: () => store.get()[k], enumerable: true });
}
Object.seal(ctx);
let mode = null;        // "waiting" | "table" | "missing"
let waiting = null;     // WaitingView
let parts = null;       // table parts
let wasMine = false;
let sock = null;
let wasDown = false;
let chat = null;        // ChatPanel (chat.js), beside the log / under the waiting room

// ---- sound (off by default; WebAudio beep when it becomes your decision) -----------------
const SOUND_KEY = "osaka_sound";
let soundOn = false;
try { soundOn = localStorage.getItem(SOUND_KEY) === "1"; } catch { /* ignore */ }
let audio = null;
function beep() {
  if (!soundOn) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = 880; g.gain.value = 0.08;
    o.connect(g); g.connect(audio.destination);
    o.start(); o.stop(audio.currentTime + 0.18);
  } catch { /* no audio */ }
}
function drawSound() {
  const b = document.getElementById("sound-btn");
  // A speaker (with waves when on, crossed out when off) and the words "Sound: on"; a phone
  // shows the speaker and the state ("on" / "off"), "Sound:" stays in the button's name.
  render([h("span", { class: "ico", "aria-hidden": "true" }), h("span", { class: "btn-text" },
    t("room.sound_word") + " "), h("span", { class: "snd-state" }, t(soundOn ? "room.on" : "room.off"))], b);
  b.classList.toggle("off", !soundOn);
  b.setAttribute("aria-pressed", String(soundOn));
  b.title = t("room.sound");
}

// ---- actions ---------------------------------------------------------------------------------
function newId() {
  return (crypto.randomUUID ? crypto.randomUUID() : Date.now().toString(36) + Math.random().toString(36).slice(2));
}
ctx.act = (action) => {
  // Sent now, or when the connection is back (body[data-pending] and a note say so); the
  // same id is resent after a reconnect: the server applies an id once (docs/protocol.md).
  const frame = { type: "act", id: newId(), version: ctx.version, action };
  ctx.dispatch({ type: "sent", frame });
  if (!sock.send(frame)) banner(t("conn.lost_move"));
  // A move uses up the selection; the next decision starts from a clean table.
  ctx.sel.market = null;
  ctx.sel.pay.clear(); ctx.sel.discard.clear(); ctx.sel.goods.clear();
  redraw();
};
ctx.hostBot = async (seat, level) => {
  try { await api("POST", `/api/rooms/${encodeURIComponent(code)}/seats/${seat}/bot`, { level }); }
  catch (e) { toast(errorText(e.code, e.fields)); }  // not_yet: its retry_after_s field
};
ctx.takeBack = async () => {
  try { await api("DELETE", `/api/rooms/${encodeURIComponent(code)}/seats/${ctx.seat}/bot`); }
  catch (e) { toast(errorText(e.code, e.fields)); }
};
ctx.redraw = () => redraw();
// One pending "redraw later" (e.g. when a player may hand an offline seat to a computer).
let laterTimer = null, laterAt = 0;
ctx.later = (ms) => {
  const at = performance.now() + ms;
  if (laterTimer && laterAt <= at) return;
  clearTimeout(laterTimer);
  laterAt = at;
  laterTimer = setTimeout(() => { laterTimer = null; redraw(); }, Math.max(0, ms));
};

// ---- drawing ---------------------------------------------------------------------------------
function drawTurn() {
  const el = document.getElementById("turn");
  if (!ctx.room) return;
  let tt;
  if (ctx.room.status === "waiting") tt = { text: t("turn.waiting"), mine: false };
  else tt = turnText(ctx);
  render(tt.nodes || tt.text, el);
  el.className = "turn" + (tt.mine ? " mine" : "");
  drawTitle(tt.mine);
  if (tt.mine && !wasMine) { beep(); announce(tt.text); handInView(); }
  wasMine = tt.mine;
}

// The tab title; on your own turn with the time left ("(0:42) ● Your turn — …").
function drawTitle(mine) {
  const left = mine ? clockText() : "";
  document.title = (left ? "(" + left + ") " : "") + (mine ? t("title.yours") + " " +
    "— " : "") + t("room.room") + " " + code + " — " + t("app.name");
}

// The log: one entry per turn, one <li> per event line inside it (Preact, keyed; only new
// lines are added to the live region).
function drawLog() {
  if (!parts) return;
  parts.log.dataset.start = ctx.view ? "1" : "";
  render(logEntries(ctx.view, ctx.room, ctx.events), parts.log);
  logToEnd();
}

// The log sticks to its newest line unless the player scrolled up to read.
let logStick = true;
function logToEnd() { if (parts && logStick) parts.log.scrollTop = parts.log.scrollHeight; }
function watchLog(log) {
  log.addEventListener("scroll", () => { logStick = log.scrollTop + log.clientHeight >= log.scrollHeight - 12; },
    { passive: true });
  // Its box changes size when the panels above it do: keep the newest line in view.
  if (window.ResizeObserver) new ResizeObserver(() => logToEnd()).observe(log);
}

function redraw() {
  document.body.dataset.pending = ctx.pending ? "1" : "0";
  // Testing hook: what this page must decide now ("turn", "token_draft", "insurance" or "").
  const v = ctx.view;
  document.body.dataset.decision = v && ctx.seat !== null && v.phase !== "over" && v.to_act === ctx.seat ? v.phase : "";
  if (!ctx.room) return;
  const status = ctx.room.status;
  if (status === "waiting") {
    if (mode !== "waiting") { mode = "waiting"; parts = null; waiting = new WaitingView(root, code,
      () => sock.reconnect()); root.append(chat.el); }
    waiting.update(ctx.room);
  } else {
    if (!ctx.view) { drawTurn(); return; }
    let fresh = false;
    if (mode !== "table") { mode = "table"; waiting = null; parts = buildTable(root,
      ctx); root.querySelector(".table-side").append(chat.el); watchLog(parts.log); drawLog(true); fresh = true;
      watchFit([document.querySelector(".topbar"), parts.bar, parts.me], () => wasMine); }
    pruneSelection(ctx);
    keepFocus(() => renderTable(ctx, parts), "#actionbar button");
    // After the answer to a move the focus shows where it is (a card or a bar button), also
    // when the move was made with the mouse.
    if (ctx.answered) { ctx.answered = false; const a = document.activeElement;
      if (a && a.closest("#actionbar, [data-row]")) ringFocus(a); }
    // The game began under the player's focus (the Start button is gone): on to their hand.
    if (fresh && document.activeElement === document.body) focusRow(document.getElementById("hand")
      || document.getElementById("market"));
    if (parts.log.dataset.start !== "1") drawLog(true);
    logToEnd();
    if (ctx.view.phase === "over" && !ctx.resultShown) {
      // The end: the result takes the focus (the action bar is gone) and is read out.
      ctx.resultShown = true;
      const hd = document.getElementById("result-h");
      if (hd) { hd.focus(); announce(hd.textContent + ". " + hd.nextElementSibling.textContent); }
    }
  }
  drawTurn();
}

// ---- messages --------------------------------------------------------------------------------
function onMessage(msg) {
  if (ctx.hold && ctx.hold(msg)) return chat.draw();  // a later game's, kept while the result is read (nextgame.js)
  if (msg.type === "chat") return chat.add(msg);
  if (msg.type === "error") {
    if (msg.code === "bad_token" && !msg.id && !ctx.forgotSeat) {  // refused: its cookie holds no seat any more
      ctx.forgotSeat = true;  // once: after that the socket's own backoff applies
      forgetSeat().then(() => sock && sock.reconnect());
      return;
    }
    if (chat.refused(msg)) return;  // a refused chat message: said under the chat's box, text kept
  }
  // The frame's effect on the page's data is roomstore.js's `reduce`; what follows is drawing.
  const was = ctx.dispatch(msg);
  switch (msg.type) {
    case "room": {
      if (was.room && msg.room.game !== was.room.game) {  // play again
        ctx.resultShown = false;
        mode = null;  // the next game's table is a new one (nothing of the last game's stays on it)
      }
      const names = (room) => JSON.stringify(room.players.map((p) => p.name));
      redraw();
      chat.draw();
      if (was.room && names(was.room) !== names(msg.room)) drawLog(true);
      break;
    }
    case "history":
      drawLog(true);
      break;
    case "state":
      if (was.fresh && was.inflight) sock.send(was.inflight);  // reconnected: resend, same id
      else ctx.answered = !!was.inflight;
      document.body.dataset.version = String(msg.version);
      setClock(ctx.clock, !!ctx.clock && ctx.seat !== null && ctx.clock.seat === ctx.seat, () => drawTitle(wasMine));
      redraw();
      break;
    case "event":
      drawLog(false);
      break;
    case "seat_lost":
      // The seat changed hands (this browser's player left it, or it went to someone else):
      // from now on this page watches. A spectator's history and state follow; the room is
      // read again so the server deletes the stale seat cookie (the next socket is a spectator's).
      toast(t("room.seat_lost"));
      forgetSeat();
      redraw();
      chat.draw();
      break;
    case "error":
      // The refused move is no longer in flight; say why in the page's language.
      toast(errorText(msg.code, msg));
      redraw();
      break;
    default: break;
  }
}

function drawMissing() {
  render(h("section", { class: "panel" }, h("h1", null, t("room.not_found")), h("a", { class: "btn",
    href: appUrl("/") }, t("room.back_home"))), root);
}

/** Read the room again without a seat: the server deletes a seat cookie whose seat changed hands. */
async function forgetSeat() {
  try { await api("GET", `/api/rooms/${encodeURIComponent(code)}`); } catch { /* the socket says the rest */ }
}

async function main() {
  await initI18n();
  drawSound();
  document.getElementById("sound-btn").addEventListener("click", () => {
    soundOn = !soundOn;
    try { localStorage.setItem(SOUND_KEY, soundOn ? "1" : "0"); } catch { /* ignore */ }
    drawSound();
    if (soundOn) beep();
  });
  document.getElementById("copy-top").addEventListener("click", () => copyLink(code));
  installShortcuts();
  chat = new ChatPanel(ctx, code, (f) => sock && sock.send(f));
  chat.onSpectators = async (open) => {
    try { await api("POST", `/api/rooms/${encodeURIComponent(code)}/chat`, { spectators: open }); }
    catch (e) { toast(errorText(e.code, e.fields)); }
  };
  onLangChange(() => {
    if (mode === "missing") return drawMissing();
    drawSound(); redraw(); drawLog(true); chat.draw(); chat.setUnread(chat.unread);
  });
  try {
    ctx.dispatch({ type: "loaded", room: await api("GET", `/api/rooms/${encodeURIComponent(code)}`) });
  } catch (e) {
    if (e.status === 404) {
      mode = "missing";
      document.querySelectorAll(".roominfo, #turn, #clock, #chat-jump, #sound-btn").forEach((el) => el.remove());
      root.textContent = "";  // no "Loading…"
      drawMissing();
      return;
    }
    toast(errorText(e.code, e.fields));
  }
  redraw();
  sock = new LiveSocket(`/ws/rooms/${encodeURIComponent(code)}`, {
    onMessage,
    onOpen() {
      ctx.dispatch({ type: "open" });
      if (wasDown) { banner(null); toast(t("conn.back"), "ok"); }
      wasDown = false;
    },
    onDown() {
      // A move in flight stays pending and is resent after the reconnect.
      wasDown = true;
      ctx.dispatch({ type: "down" });
      pauseClock();
      banner(t(ctx.inflight ? "conn.lost_move" : ctx.restarting ? "conn.restarting" : "conn.lost"));
      redraw();
    },
  });
  sock.connect();
}

main();
