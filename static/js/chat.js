// The room's chat (docs/protocol.md "Chat"): beside the game log, for players and
// spectators (marked). Messages are drawn as text only (Preact text nodes, never HTML). Anyone
// can mute another sender for themselves (remembered in localStorage per room). On a phone a
// button in the top bar shows the messages not yet seen and jumps to the chat. The messages
// are the store's (roomstore.js); the person's part is ctx.chat (initialChat).
import { h } from "../vendor/preact.js";
import { t } from "./i18n.js";
import { PLAYER_COLORS, errorText, initialOf, isComputerSeat, nameTag, rememberName, rememberedName,
  validName } from "./common.js";

const MUTE_KEY = "osaka_mute";
const ME = "me";
const CODE = document.body.dataset.code;

/** ctx.chat (roomstore.js initialUi). */
export function initialChat() {
  let muted;
  try { muted = new Set(JSON.parse(localStorage.getItem(MUTE_KEY) || "[]")); } catch { muted = new Set(); }
  return {
    text: "",        // what is typed in the box
    specName: null,  // a spectator's name (typed once)
    sent: null,      // {id, text} sent last, until it comes back (the box keeps it) or is refused
    note: "",        // why the last message was refused, under the box (never a toast over it)
    waitUntil: 0, waitTimer: null,
    unread: 0, seen: true, muted,
    toEnd: false,    // to the newest message after the next drawing
    live: false,     // the socket brought the room: a message can go
  };
}

/** A sender is a seat AND the name it sent under (a seat that changed hands is someone else). */
function key(m) { return CODE + ":" + (m.seat !== null ? "s" + m.seat + ":" + m.name : "w" + m.name); }

/** Was `m` sent by this page's player: its seat now, under the name that seat has now. */
function isMine(ctx, m) {
  const me = ctx.seat;
  if (me === null) return m.spectator && m.name === ctx.chat.specName;
  const p = ((ctx.room || {}).players || []).find((x) => x.seat === me);
  return m.seat === me && !!p && p.name === m.name;
}

/** A `chat` frame the store took (`was`: the state before): ours came back; the count not seen yet. */
export function chatArrived(ctx, was, frame) {
  const c = ctx.chat;
  c.toEnd = true;
  if (frame.history) return;
  const had = new Set(was.messages.map((m) => m.id));
  let fresh = 0;
  for (const m of ctx.messages) {
    if (had.has(m.id)) continue;
    if (c.sent && isMine(ctx, m) && m.text === c.sent.text) delivered(ctx);
    if (!isMine(ctx, m) && !c.muted.has(key(m))) fresh++;
  }
  if (fresh && !c.seen) c.unread += fresh;
}

/** Our message came back: empty the box unless something else was typed meanwhile. */
function delivered(ctx) {
  const c = ctx.chat;
  if (c.text.trim() === c.sent.text) c.text = "";
  c.sent = null;
  setNote(ctx, "");
}

/** An `error` frame: true when it refuses the message sent last (its echoed `id`). The text
 *  stays in the box and the reason shows under it; for the chat limit (`rate_limited` with
 *  `retry_after_s`, per seat, per address for spectators) when it can be sent, counting down. */
export function chatRefused(ctx, msg) {
  const c = ctx.chat;
  if (!c.sent || !msg.id || msg.id !== c.sent.id) return false;
  c.sent = null;
  if (msg.code === "rate_limited" && typeof msg.retry_after_s === "number") {
    c.waitUntil = Date.now() + msg.retry_after_s * 1000;
    tick(ctx);
  } else {
    setNote(ctx, errorText(msg.code, msg));
  }
  return true;
}

/** The chat limit's countdown, once a second, then "you can send it now". */
function tick(ctx) {
  const c = ctx.chat;
  clearTimeout(c.waitTimer);
  const n = Math.ceil((c.waitUntil - Date.now()) / 1000);
  if (n <= 0) { setNote(ctx, t("chat.wait_over")); return; }
  setNote(ctx, t(ctx.seat === null ? "chat.wait_address" : "chat.wait_seat", { n }));
  c.waitTimer = setTimeout(() => tick(ctx), 1000);
}

function setNote(ctx, text) {
  const c = ctx.chat;
  if (!text) clearTimeout(c.waitTimer);
  if (text === c.note) return;
  c.note = text;
  ctx.paint();
}

function toggleMute(ctx, m) {
  const c = ctx.chat, k = key(m);
  c.muted.has(k) ? c.muted.delete(k) : c.muted.add(k);
  try { localStorage.setItem(MUTE_KEY, JSON.stringify([...c.muted].slice(-200))); } catch { /* ignore */ }
  ctx.paint();
}

function submit(ctx, ev, send) {
  ev.preventDefault();
  const c = ctx.chat, text = c.text.trim();
  if (!text) return;
  const frame = { type: "chat", id: ME + Date.now().toString(36), text };
  if (ctx.seat === null) {
    const name = validName(c.specName);
    if (!name) { document.getElementById("chat-name").focus(); return; }
    frame.name = name;
    c.specName = name;  // a spectator types the name once (kept across redraws and visits)
    rememberName(name);
  }
  if (send(frame)) c.sent = { id: frame.id, text };
}

/** The sender as the message was sent: its stored `name`, never the seat's current one (a
 *  seat changes hands when someone leaves it before a game and another joins, also between
 *  games). A seat's message has that seat's colour; the marker of the seat's player while
 *  the seat still holds that name, else the stored name's initial. */
function senderName(ctx, m) {
  const room = ctx.room;
  if (m.seat === null) return h("b", { class: "lname" }, m.name);
  const p = room && (room.players || []).find((x) => x.seat === m.seat);
  if (p && !isComputerSeat(room, m.seat) && p.name === m.name) return nameTag(room, m.seat, { tag: "b",
    cls: "lname" });
  return h("b", { class: "nametag lname" },
    h("span", { class: "swatch mini pc-" + PLAYER_COLORS[m.seat % 4], "aria-hidden": "true" }, initialOf(m.name)
      || String(m.seat + 1)),
    m.name);
}

// Is the panel in view (on a phone the page may be scrolled away from it)?
let watched = null, io = null, chatRef = null;
function watchRef(ctx) {
  return chatRef ||= (el) => {
    if (!el || el === watched) return;
    watched = el;
    ctx.chat.toEnd = true;  // a new list (beside the table)
    if (!window.IntersectionObserver) return;
    io ||= new IntersectionObserver((es) => {
      ctx.chat.seen = es[es.length - 1].isIntersecting;
      if (ctx.chat.seen && ctx.chat.unread) { ctx.chat.unread = 0; ctx.paint(); }
    });
    io.disconnect();
    io.observe(el);
  };
}

/** After drawing: the list at its newest message when one came. */
export function chatToEnd(ctx) {
  if (!ctx.chat.toEnd) return;
  ctx.chat.toEnd = false;
  const list = document.getElementById("chat-list");
  if (list) list.scrollTop = list.scrollHeight;
}

/** The top bar's button to the chat (on a phone), with the count not seen. */
export function jumpView(ctx) {
  const n = ctx.chat.unread;
  return h("button", { type: "button", class: "btn small chat-jump" + (n ? " has" : ""), id: "chat-jump",
    "aria-label": t("chat.jump") + (n ? " · " + t("chat.unread", { n }) : ""),
    onClick: () => {
      const box = document.querySelector(".chatbox");
      if (box) box.scrollIntoView({ block: "end" });
      const i = document.getElementById("chat-input");
      if (i) i.focus();
    } }, n ? t("chat.unread", { n }) : t("chat.title"));
}

/** The chat panel; `send(frame)` over the socket, `onSpectators(open)`: the host's switch. */
export function chatView(ctx, send, onSpectators) {
  const c = ctx.chat, room = ctx.room || {}, me = ctx.seat;
  const closed = me === null && room.chat_spectators === false;
  const isHost = me !== null && me === room.host_seat;
  const mutedNames = new Map();
  if (!c.live) return h("section", { class: "panel chatbox", key: "chat", ref: watchRef(ctx) });
  const items = ctx.messages.map((m) => {
    const k = key(m);
    if (c.muted.has(k)) { mutedNames.set(k, m); return null; }
    return h("li", { key: m.id, class: "chat-msg" + (m.spectator ? " spect" : "") },
      senderName(ctx, m), m.spectator ? h("span", { class: "badge" }, t("chat.spectator")) : null, ": ",
      h("span", { class: "chat-text" }, m.text),
      isMine(ctx, m) ? null : h("button", { type: "button", class: "btn tiny mute",
        title: t("chat.mute") + ": " + m.name,
        "aria-label": t("chat.mute") + ": " + m.name, onClick: () => toggleMute(ctx, m) }, t("chat.mute")));
  });
  return h("section", { class: "panel chatbox", key: "chat", "aria-labelledby": "chat-h", ref: watchRef(ctx) },
    h("h2", { class: "small-h", id: "chat-h" }, t("chat.title")),
    h("div", { class: "chat-list", id: "chat-list", role: "log", "aria-live": "polite", "aria-labelledby": "chat-h",
      tabindex: "0" },
    h("ol", null, items.length ? items : h("li", { class: "muted" }, t("chat.empty")))),
    mutedNames.size ? h("p", { class: "muted small-p", id: "chat-muted" }, t("chat.muted"), " ",
      [...mutedNames.values()].map((m) => h("button", { type: "button", class: "btn tiny",
        onClick: () => toggleMute(ctx, m) }, t("chat.unmute") + ": " + m.name))) : null,
    closed ? h("p", { class: "muted small-p" }, t("chat.closed"))
      : h("form", { class: "chat-form", id: "chat-form", onSubmit: (e) => submit(ctx, e, send) },
        me === null ? h("input", { id: "chat-name", maxLength: 24,
          value: c.specName ?? (c.specName = rememberedName()),
          onInput: (e) => { c.specName = e.currentTarget.value; }, "aria-label": t("form.your_name"),
          placeholder: t("form.your_name") }) : null,
        h("input", { id: "chat-input", maxLength: 300, autocomplete: "off", "aria-label": t("chat.message"),
          placeholder: t("chat.message"), "aria-describedby": "chat-note", value: c.text,
          onInput: (e) => { c.text = e.currentTarget.value; } }),
        h("button", { type: "submit", class: "btn small", id: "chat-send" }, t("chat.send"))),
    closed ? null : h("p", { class: "small-p chat-note", id: "chat-note", role: "status" }, c.note),
    isHost ? h("label", { class: "small-p" }, h("input", { type: "checkbox", id: "chat-spectators",
      checked: room.chat_spectators !== false,
      onChange: (e) => onSpectators(e.currentTarget.checked) }), " ", t("chat.allow_spectators")) : null);
}
