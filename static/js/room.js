// The room page controller: one WebSocket (/ws/rooms/{code}) feeds the waiting room, the
// game table and the result. Reconnects by itself; a reload finds the seat again through
// the HttpOnly cookie the server set at create/join. The page is one Preact tree (RoomPage),
// drawn by draw() into #room-root; focus, scrolling, the dialog's showModal come after it.
import { h, render, Component, Fragment } from "../vendor/preact.js";
import { toast, banner, appUrl } from "./dom.js";
import { initI18n, t, onLangChange } from "./i18n.js";
import { api, LiveSocket } from "./net.js";
import { errorText, lazy, guide } from "./common.js";
import { waitingView, copyLink } from "./waiting.js";
import { tableView, tableChanges, pruneSelection, turnText } from "./table.js";
import { announce, keepFocus, installShortcuts, focusRow, ringFocus } from "./keys.js";
import { setClock, clockText, pauseClock, Clock } from "./clock.js";
import { initialChat, chatView, jumpView, chatArrived, chatRefused, chatToEnd } from "./chat.js";
import { dialogKey, openDialog, syncDialog, asideWhileTyping } from "./decide.js";
import { fitTopBar, handInView, watchFit } from "./fit.js";
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
  act: null, hostBot: null, takeBack: null, later: null,
  seatLink: () => import("./seatlink.js").then((m) => { link = m; links++; redraw(); }),  // its dialog (table.js)
  redraw: () => redraw(), paint: () => paint(),  // paint: the table's kept parts as they were
  dispatch: (m) => store.dispatch(m, performance.now()),  // a page action into the store (roomstore.js)
  feed: (m) => onMessage(m),  // a frame as if it had just come from the socket (nextgame.js)
  hold: null,                 // keeps a later game's frames while the result is read (nextgame.js)
  dialogKey: null, openDialog: null,  // the decision dialog's (decide.js, bar.js)
  askHint: null,              // "What would the computer do?" (hint.js)
};
for (const k of Object.keys(store.get())) {
  Object.defineProperty(ctx, k, { get: () => store.get()[k], enumerable: true });
}
Object.seal(ctx);
ctx.chat = initialChat();
ctx.dialogKey = () => dialogKey(ctx);
ctx.openDialog = () => openDialog(ctx);
let mode = null;        // null (loading), "waiting", "table", "missing" or "closed"
let tableAt = 0;        // counts redraw()s (Keep)
let onPage = null;      // the table drawn last ("table:<game>")
let wasMine = false;
let sock = null;
let wasDown = false;
let quiet = false, link = null, links = 0;  // the seat link dialog (seatlink.js, loaded when used)

// ---- sound (off by default; WebAudio beep when it becomes your decision) -----------------
const SOUND_KEY = "osaka_sound";
try { ctx.sound = localStorage.getItem(SOUND_KEY) === "1"; } catch { /* ignore */ }
let audio = null;
function beep() {
  if (!ctx.sound) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = 880; g.gain.value = 0.08;
    o.connect(g); g.connect(audio.destination);
    o.start(); o.stop(audio.currentTime + 0.18);
  } catch { /* no audio */ }
}
function toggleSound() {
  ctx.sound = !ctx.sound;
  try { localStorage.setItem(SOUND_KEY, ctx.sound ? "1" : "0"); } catch { /* ignore */ }
  paint();
  if (ctx.sound) beep();
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
// One pending "redraw later" (e.g. when a player may hand an offline seat to a computer).
let laterTimer = null, laterAt = 0;
ctx.later = (ms) => {
  const at = performance.now() + ms;
  if (laterTimer && laterAt <= at) return;
  clearTimeout(laterTimer);
  laterAt = at;
  laterTimer = setTimeout(() => { laterTimer = null; redraw(); }, Math.max(0, ms));
};
ctx.askHint = () => {
  // One hint per decision (the server answers the same one again); its refusal echoes the id.
  ctx.hintAsked = ctx.version;
  return sock.send({ type: "hint", id: "hint:" + ctx.version, version: ctx.version });
};
const sendChat = (f) => sock && sock.send(f);
async function chatSpectators(open) {
  try { await api("POST", `/api/rooms/${encodeURIComponent(code)}/chat`, { spectators: open }); }
  catch (e) { toast(errorText(e.code, e.fields)); }
}

/** A part of the table drawn again only by redraw(), not for a log line or chat message (paint). */
class Keep extends Component {
  shouldComponentUpdate(next) { return next.at !== this.props.at; }
  render() { return this.props.view(); }
}
const kept = (view) => h(Keep, { at: tableAt, view });

/** Whose turn or decision it is ({text, mine, nodes}); null before the room is known. */
function turnOf() {
  if (!ctx.room) return null;
  if (ctx.room.status === "waiting") return { text: t("turn.waiting"), mine: false };
  return turnText(ctx);
}

function soundView() {
  // A speaker (waves: on, crossed out: off), "Sound: on"; a phone hides "Sound:" but in the name.
  return h("button", { type: "button", class: "btn small icon" + (ctx.sound ? "" : " off"), id: "sound-btn",
    "aria-pressed": String(ctx.sound), title: t("room.sound"), onClick: toggleSound },
  h("span", { class: "ico", "aria-hidden": "true" }), h("span", { class: "btn-text" }, t("room.sound_word") + " "),
  h("span", { class: "snd-state" }, t(ctx.sound ? "room.on" : "room.off")));
}

// "Notify me": notify.js, its panel, comes with the first click (page weight).
let nfy = null;
const bell = () => h("button", { type: "button", class: "btn small icon", id: "notify-btn", onClick: () =>
  import("./notify.js").then((m) => (nfy = m).open(code, paint)) }, h("span", { class: "ico", "aria-hidden": "true" }),
h("span", { class: "btn-text" }, t("notify.btn")));

// The page chrome (brand, How to play, EN|DE, the banner) stays the server's; the tree's top bar takes it in.
const chrome = [".topbar > .brand", ".topnav", "#banner", "#notice"].map((q) => document.querySelector(q));
let topFit = null, topBarEl = null;
function chromeRef(el) {
  if (el && el.firstChild !== chrome[0]) { el.prepend(chrome[0]); el.append(...chrome.slice(1)); }
  if (el && el !== topBarEl) { topBarEl = el; topFit = fitTopBar(el); }
}
const gone = () => mode === "missing" || mode === "closed";

function topBar() {
  const tt = turnOf();
  return h("header", { class: "topbar", ref: chromeRef }, gone() ? null : [
    h("div", { class: "roominfo", key: "info" },
      h("span", { class: "code-label" }, h("span", null, t("room.room")), " ", h("b", { id: "room-code" }, code)),
      h("button", { type: "button", class: "btn small", id: "copy-top", onClick: () => copyLink(code) },
        t("room.copy_link"))),
    h("div", { id: "turn", class: "turn" + (tt && tt.mine ? " mine" : ""), key: "turn" }, tt && (tt.nodes || tt.text)),
    h(Clock, { key: "clock" }),
    jumpView(ctx),
    soundView(),
    link && h(link.SeatLink, { key: "sl" + links, code, sock, quiet: (q) => { quiet = q; } }),
    ctx.seat !== null && bell(),
  ]);
}

// The log sticks to its newest line unless the player scrolled up to read.
let logStick = true, logEl = null;
function logToEnd() {
  const log = document.getElementById("log");
  if (log && logStick) log.scrollTop = log.scrollHeight;
}
function logRef(el) {
  if (!el || el === logEl) return;
  logEl = el;
  el.addEventListener("scroll", () => { logStick = el.scrollTop + el.clientHeight >= el.scrollHeight - 12; },
    { passive: true });
  // Its box changes size when the panels above it do: keep the newest line in view.
  if (window.ResizeObserver) new ResizeObserver(() => logToEnd()).observe(el);
}

// pace.js: only for a turn-based or paused room.
// "Learn to play" (learn.js): only in a tutorial room, loaded when its table comes.
const learn = () => (mode === "table" ? guide(ctx) : null);
function learnPanel() { const m = learn(); return m ? m.learnView(ctx, "page") : null; }
function learnPick() { const m = learn(); if (m) m.pickLearn(ctx); }
function learnRing() { const m = learn(); if (m) m.ringLearn(ctx); }

const pace = lazy(() => import("./pace.js"));
function paceBand() {
  const m = (ctx.room.pace === "turn" || ctx.room.paused_at) && pace(redraw);
  return m ? m.paceView(ctx) : null;
}

function mainView() {
  if (gone()) {
    return h("section", { class: "panel", key: mode, id: "room-" + mode }, h("h1", null,
      t(mode === "closed" ? "room.closed" : "room.not_found")), h("a", { class: "btn", href: appUrl("/") },
      t("room.back_home")));
  }
  const chat = chatView(ctx, sendChat, chatSpectators);
  if (mode === "waiting") return [paceBand(), waitingView(ctx, () => sock.reconnect()), chat];
  // The next game's table is a new one.
  if (mode === "table") return h(Fragment, { key: "table:" + ctx.room.game }, learnPanel(), paceBand(),
    tableView(ctx, kept, chat, logRef));
  return h("p", { class: "muted", key: "loading" }, t("room.loading"));
}

function RoomPage() {
  return [topBar(), h("main", { id: "main" }, mainView()), ctx.seat !== null && nfy && nfy.panel(),
    asking && askView(asking)];
}

function draw() { render(h(RoomPage), root); if (topFit) topFit(); }

// ---- drawing ---------------------------------------------------------------------------------
// The tab title; on your own turn with the time left ("(0:42) ● Your turn — …").
function drawTitle(mine) {
  const left = mine ? clockText() : "";
  document.title = (left ? "(" + left + ") " : "") + (mine ? t("title.yours") + " " +
    "— " : "") + t("room.room") + " " + code + " — " + t("app.name");
}

function paint() {
  learnPick();
  draw();
  learnRing();
  logToEnd();
  chatToEnd(ctx);
}

/** The id of the chat's text field that has the focus ("chat-input", "chat-name"), or null. */
function typingIn() {
  const a = document.activeElement;
  return a && (a.id === "chat-input" || a.id === "chat-name") ? a.id : null;
}
/** The focus back in text field `id`, the caret after its text. */
function typeOn(id) {
  const el = document.getElementById(id);
  if (!el) return;
  el.focus();
  el.setSelectionRange(el.value.length, el.value.length);
}

function redraw() {
  learnPick();
  document.body.dataset.pending = ctx.pending ? "1" : "0";
  // Testing hook: what this page must decide now ("turn", "token_draft", "insurance" or "").
  const v = ctx.view;
  document.body.dataset.decision = v && ctx.seat !== null && v.phase !== "over" && v.to_act === ctx.seat ? v.phase : "";
  if (ctx.room && !gone()) {
    // The table comes with the game's first state.
    if (ctx.room.status === "waiting") {
      if (mode !== "waiting") ctx.waiting = initialUi().waiting;
      mode = "waiting";
    } else if (ctx.view) mode = "table";
  }
  tableAt++;
  if (mode !== "table") {
    onPage = null;
    draw();
  } else {
    pruneSelection(ctx);
    tableChanges(ctx);
    const fresh = onPage !== "table:" + ctx.room.game;
    onPage = "table:" + ctx.room.game;
    // Keys meant for the chat never act in the game: its box keeps the focus when the table
    // comes (a new box beside the log), and a decision that comes meanwhile waits (decide.js).
    const typing = typingIn();
    asideWhileTyping(ctx, typing);
    const drawTable = () => { draw(); syncDialog(ctx, document.getElementById("decision")); };
    // On a table that stays, the focus stays on the same control (keys.js).
    if (fresh) drawTable(); else keepFocus(drawTable, "#actionbar button");
    if (typing && document.activeElement === document.body) typeOn(typing);
    if (fresh) watchFit([document.querySelector(".topbar"), document.getElementById("actionbar"),
      document.getElementById("me")], () => wasMine);
    // After the answer to a move the focus shows where it is, also after a mouse click.
    if (ctx.answered) { ctx.answered = false; const a = document.activeElement;
      if (a && a.closest("#actionbar, [data-row]")) ringFocus(a); }
    // The game began under the player's focus (the Start button is gone): on to their hand.
    if (fresh && document.activeElement === document.body) focusRow(document.getElementById("hand")
      || document.getElementById("market"));
    if (ctx.view.phase === "over" && !ctx.resultShown) {
      // The end: the result takes the focus (the action bar is gone) and is read out.
      ctx.resultShown = true;
      const hd = document.getElementById("result-h");
      if (hd) { hd.focus(); announce(hd.textContent + ". " + hd.nextElementSibling.textContent); }
    }
  }
  learnRing();
  logToEnd();
  chatToEnd(ctx);
  const tt = turnOf();
  if (!tt) return;
  drawTitle(tt.mine);
  if (tt.mine && !wasMine) { beep(); announce(tt.text); handInView(); }
  wasMine = tt.mine;
}

// ---- messages --------------------------------------------------------------------------------
function onMessage(msg) {
  if (msg.type === "notice") return import("./notice.js").then((m) => m.showNotice(msg.notice));
  if (msg.type === "room_closed") { sock.stop(); mode = "closed"; banner(null); document.title = t("room.closed");
    return draw(); }  // by the server's host: no reconnect
  if (ctx.hold && ctx.hold(msg)) { ctx.chat.toEnd = true; return paint(); }  // a later game's, kept (nextgame.js)
  if (msg.type === "chat" || msg.type === "room") ctx.chat.live = true;
  if (msg.type === "chat") {
    try { localStorage.setItem("osaka_chat_" + code, msg.messages.at(-1).id); } catch { /* My games: unread */ }
    chatArrived(ctx, ctx.dispatch(msg), msg);
    return paint();
  }
  if (msg.type === "error") {
    if (msg.code === "bad_token" && !msg.id && !ctx.forgotSeat) {  // refused: its cookie holds no seat any more
      ctx.forgotSeat = true;  // once: after that the socket's own backoff applies
      forgetSeat().then(() => sock && sock.reconnect());
      return;
    }
    if (chatRefused(ctx, msg)) return;  // a refused chat message: said under the chat's box, text kept
  }
  // The frame's effect on the page's data is roomstore.js's `reduce`; what follows is drawing.
  const was = ctx.dispatch(msg);
  switch (msg.type) {
    case "room": {
      if (was.room && msg.room.game !== was.room.game) {  // play again
        ctx.resultShown = false;
        if (mode === "table") mode = null;  // the next game's table comes with its first state
      }
      ctx.chat.toEnd = true;
      redraw();
      break;
    }
    case "history":
    case "event":
      paint();
      break;
    case "review":
      redraw();
      break;
    case "hint":
      ctx.hintAsked = null;
      redraw();
      import("./hint.js").then((m) => { m.hintArrived(ctx); const g = learn(); if (g) g.hintSaid(ctx); });
      break;
    case "state":
      if (was.fresh && was.inflight) sock.send(was.inflight);  // reconnected: resend, same id
      else ctx.answered = !!was.inflight;
      document.body.dataset.version = String(msg.version);
      setClock(ctx.clock, !!ctx.clock && ctx.seat !== null && ctx.clock.seat === ctx.seat, () => drawTitle(wasMine));
      redraw();
      break;
    case "seat_lost":
      if (quiet) break;
      // The seat changed hands (this browser's player left it, or it went to someone else):
      // from now on this page watches. A spectator's history and state follow; the room is
      // read again so the server deletes the stale seat cookie (the next socket is a spectator's).
      toast(t("room.seat_lost"));
      // A new token of this browser's other tab (Sign out other devices) may land after this
      // frame: read a moment later, or the read with the old cookie deletes the new one.
      setTimeout(() => forgetSeat().then((r) => r && r.you !== null && sock.reconnect()), 1500);
      ctx.chat.toEnd = true;
      redraw();
      break;
    case "error":
      if (typeof msg.id === "string" && msg.id.startsWith("hint:")) ctx.hintAsked = null;
      // The refused move is no longer in flight; say why in the page's language.
      toast(errorText(msg.code, msg));
      redraw();
      break;
    default: break;
  }
}

/** Read the room again without a seat: the server deletes a seat cookie whose seat changed hands. */
async function forgetSeat() {
  try { return await api("GET", `/api/rooms/${encodeURIComponent(code)}`); } catch { /* the socket says the rest */ }
}

// The page's one open question, drawn by ask.js (loaded when asked: the page's weight), or null.
let asking = null, askView = null;
/** Ask in the page's dialog → a promise of true ("yes") or false ("no", Escape). */
async function ask(id, text, yes, no) {
  ({ askView } = await import("./ask.js"));
  return new Promise((resolve) => {
    asking = { id, text, yes, no, answer: (v) => { asking = null; draw(); resolve(v); } };
    draw();
  });
}

/** Open a seat link's seat on this browser; one this browser already holds in the room is
 * given up only when the person says so (409 seat_link_other_seat). */
async function claim(token) {
  const url = `/api/rooms/${encodeURIComponent(code)}/claim`;
  try { await api("POST", url, { token }); }
  catch (e) {
    if (e.code !== "seat_link_other_seat") { toast(errorText(e.code, e.fields)); return; }
    const keep = t("link.keep_mine", { name: e.fields && e.fields.name });
    if (!await ask("claim-ask", errorText(e.code, e.fields), t("link.take_other"), keep)) return;
    try { await api("POST", url, { token, replace: true }); }
    catch (e2) { toast(errorText(e2.code, e2.fields)); }
  }
}

async function main() {
  await initI18n();
  installShortcuts();
  root.textContent = "";  // the server's copy of the top bar and "Loading…": the tree's from now on
  draw();
  onLangChange(() => { ctx.chat.toEnd = true; redraw(); });
  const link = /^#seat=(.+)/.exec(location.hash);  // a seat link (seatlink.js): its token never stays in the URL
  if (link) {
    history.replaceState(null, "", location.pathname + location.search);
    await claim(link[1]);
  }
  try {
    ctx.dispatch({ type: "loaded", room: await api("GET", `/api/rooms/${encodeURIComponent(code)}`) });
  } catch (e) {
    if (e.status === 404) {
      mode = "missing";  // no "Loading…", and nothing of a room in the top bar
      draw();
      return;
    }
    toast(errorText(e.code, e.fields));
  }
  redraw();
  sock = new LiveSocket(`/ws/rooms/${encodeURIComponent(code)}`, {
    onMessage, visible: 1,
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
