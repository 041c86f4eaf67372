// The room's chat (docs/protocol.md "Chat"): beside the game log, for players and
// spectators (marked). Messages are drawn as text only (Preact text nodes, never HTML). Anyone
// can mute another sender for themselves (remembered in localStorage per room). On a phone a
// button in the top bar shows the messages not yet seen and jumps to the chat.
import { h, render } from "../vendor/preact.js";
import { t } from "./i18n.js";
import { PLAYER_COLORS, errorText, initialOf, isComputerSeat, nameTag, rememberName, rememberedName,
  validName } from "./common.js";

const MUTE_KEY = "osaka_mute";
const ME = "me";

function loadMuted() {
  try { return new Set(JSON.parse(localStorage.getItem(MUTE_KEY) || "[]")); } catch { return new Set(); }
}

export class ChatPanel {
  /** `ctx`: the room page's context (room, seat); `send(frame)`: over the room socket. */
  constructor(ctx, code, send) {
    this.ctx = ctx; this.code = code; this.send = send;
    this.msgs = []; this.ids = new Set(); this.unread = 0; this.seen = true;
    this.muted = loadMuted();
    // The message sent last ({id, text}) until it comes back or is refused: the typed text stays
    // in the box until then, so a refusal (the chat limit above all) loses nothing.
    this.sent = null;
    this.note = "";     // why the last message was refused, under the box (never a toast over it)
    this.waitUntil = 0; this.waitTimer = null;
    this.el = document.createElement("section");
    this.el.className = "panel chatbox";
    this.jump = document.getElementById("chat-jump");
    if (this.jump) {
      this.jump.onclick = () => {
        this.el.scrollIntoView({ block: "end" });
        const i = document.getElementById("chat-input");
        if (i) i.focus();
      };
    }
    if (window.IntersectionObserver) {
      new IntersectionObserver((es) => {
        this.seen = es[es.length - 1].isIntersecting;
        if (this.seen) this.setUnread(0);
      }).observe(this.el);
    }
  }

  /** A sender is a seat AND the name it sent under (a seat that changed hands is someone else). */
  key(m) { return this.code + ":" + (m.seat !== null ? "s" + m.seat + ":" + m.name : "w" + m.name); }

  /** Was `m` sent by this page's player: its seat now, under the name that seat has now. */
  isMine(m) {
    const me = this.ctx.seat;
    if (me === null) return m.spectator && m.name === this.specName;
    const p = ((this.ctx.room || {}).players || []).find((x) => x.seat === me);
    return m.seat === me && !!p && p.name === m.name;
  }

  /** A `chat` frame: the history on (re)connect, or new messages. */
  add(frame) {
    if (frame.history) { this.msgs = []; this.ids = new Set(); }
    let fresh = 0;
    for (const m of frame.messages || []) {
      if (this.ids.has(m.id)) continue;
      this.ids.add(m.id); this.msgs.push(m);
      if (!frame.history && this.sent && this.isMine(m) && m.text === this.sent.text) this.delivered();
      if (!frame.history && !this.isMine(m) && !this.muted.has(this.key(m))) fresh++;
    }
    this.msgs = this.msgs.slice(-200);
    if (fresh && !this.seen) this.setUnread(this.unread + fresh);
    this.draw();
  }

  setUnread(n) {
    this.unread = n;
    if (!this.jump) return;
    this.jump.textContent = n ? t("chat.unread", { n }) : t("chat.title");
    this.jump.classList.toggle("has", n > 0);
    this.jump.setAttribute("aria-label", t("chat.jump") + (n ? " · " + t("chat.unread", { n }) : ""));
  }

  toggleMute(m) {
    const k = this.key(m);
    this.muted.has(k) ? this.muted.delete(k) : this.muted.add(k);
    try { localStorage.setItem(MUTE_KEY, JSON.stringify([...this.muted].slice(-200))); } catch { /* ignore */ }
    this.draw();
  }

  submit(ev) {
    ev.preventDefault();
    const input = document.getElementById("chat-input"), text = input.value.trim();
    if (!text) return;
    const frame = { type: "chat", id: ME + Date.now().toString(36), text };
    if (this.ctx.seat === null) {
      const name = validName(document.getElementById("chat-name").value);
      if (!name) { document.getElementById("chat-name").focus(); return; }
      frame.name = name;
      this.specName = name;  // a spectator types the name once (kept across redraws and visits)
      rememberName(name);
    }
    if (this.send(frame)) this.sent = { id: frame.id, text };
  }

  /** Our message came back: empty the box unless something else was typed meanwhile. */
  delivered() {
    const input = document.getElementById("chat-input");
    if (input && input.value.trim() === this.sent.text) input.value = "";
    this.sent = null;
    this.setNote("");
  }

  /** An `error` frame: true when it refuses the message sent last (its echoed `id`). The text
   *  stays in the box and the reason shows under it; for the chat limit (`rate_limited` with
   *  `retry_after_s`, per seat, per address for spectators) when it can be sent, counting down. */
  refused(msg) {
    if (!this.sent || !msg.id || msg.id !== this.sent.id) return false;
    this.sent = null;
    if (msg.code === "rate_limited" && typeof msg.retry_after_s === "number") {
      this.waitUntil = Date.now() + msg.retry_after_s * 1000;
      this.tick();
    } else {
      this.setNote(errorText(msg.code, msg));
    }
    return true;
  }

  /** The chat limit's countdown, once a second, then "you can send it now". */
  tick() {
    clearTimeout(this.waitTimer);
    const n = Math.ceil((this.waitUntil - Date.now()) / 1000);
    if (n <= 0) { this.setNote(t("chat.wait_over")); return; }
    this.setNote(t(this.ctx.seat === null ? "chat.wait_address" : "chat.wait_seat", { n }));
    this.waitTimer = setTimeout(() => this.tick(), 1000);
  }

  setNote(text) {
    if (!text) clearTimeout(this.waitTimer);
    if (text === this.note) return;
    this.note = text;
    this.draw();
  }

  /** The sender as the message was sent: its stored `name`, never the seat's current one (a
   *  seat changes hands when someone leaves it before a game and another joins, also between
   *  games). A seat's message has that seat's colour; the marker of the seat's player while
   *  the seat still holds that name, else the stored name's initial. */
  name(m) {
    const room = this.ctx.room;
    if (m.seat === null) return h("b", { class: "lname" }, m.name);
    const p = room && (room.players || []).find((x) => x.seat === m.seat);
    if (p && !isComputerSeat(room, m.seat) && p.name === m.name) return nameTag(room, m.seat, { tag: "b",
      cls: "lname" });
    return h("b", { class: "nametag lname" },
      h("span", { class: "swatch mini pc-" + PLAYER_COLORS[m.seat % 4], "aria-hidden": "true" }, initialOf(m.name)
        || String(m.seat + 1)),
      m.name);
  }

  draw() {
    const room = this.ctx.room || {}, me = this.ctx.seat;
    const closed = me === null && room.chat_spectators === false;
    const isHost = me !== null && me === room.host_seat;
    const mutedNames = new Map();
    const items = this.msgs.map((m) => {
      const k = this.key(m);
      if (this.muted.has(k)) { mutedNames.set(k, m); return null; }
      return h("li", { key: m.id, class: "chat-msg" + (m.spectator ? " spect" : "") },
        this.name(m), m.spectator ? h("span", { class: "badge" }, t("chat.spectator")) : null, ": ",
        h("span", { class: "chat-text" }, m.text),
        this.isMine(m) ? null : h("button", { type: "button", class: "btn tiny mute",
          title: t("chat.mute") + ": " + m.name,
          "aria-label": t("chat.mute") + ": " + m.name, onClick: () => this.toggleMute(m) }, t("chat.mute")));
    });
    render([
      h("h2", { class: "small-h", id: "chat-h" }, t("chat.title")),
      h("div", { class: "chat-list", id: "chat-list", role: "log", "aria-live": "polite", "aria-labelledby": "chat-h",
        tabindex: "0" },
        h("ol", null, items.length ? items : h("li", { class: "muted" }, t("chat.empty")))),
      mutedNames.size ? h("p", { class: "muted small-p", id: "chat-muted" }, t("chat.muted"), " ",
        [...mutedNames.values()].map((m) => h("button", { type: "button", class: "btn tiny",
          onClick: () => this.toggleMute(m) }, t("chat.unmute") + ": " + m.name))) : null,
      closed ? h("p", { class: "muted small-p" }, t("chat.closed"))
        : h("form", { class: "chat-form", id: "chat-form", onSubmit: (e) => this.submit(e) },
          me === null ? h("input", { id: "chat-name", maxLength: 24,
            value: this.specName ?? (this.specName = rememberedName()),
            onInput: (e) => { this.specName = e.currentTarget.value; }, "aria-label": t("form.your_name"),
            placeholder: t("form.your_name") }) : null,
          h("input", { id: "chat-input", maxLength: 300, autocomplete: "off", "aria-label": t("chat.message"),
            placeholder: t("chat.message"), "aria-describedby": "chat-note" }),
          h("button", { type: "submit", class: "btn small", id: "chat-send" }, t("chat.send"))),
      closed ? null : h("p", { class: "small-p chat-note", id: "chat-note", role: "status" }, this.note),
      isHost ? h("label", { class: "small-p" }, h("input", { type: "checkbox", id: "chat-spectators",
        checked: room.chat_spectators !== false,
        onChange: (e) => this.onSpectators(e.currentTarget.checked) }), " ", t("chat.allow_spectators")) : null,
    ], this.el);
    this.el.setAttribute("aria-labelledby", "chat-h");
    const list = document.getElementById("chat-list");
    if (list) list.scrollTop = list.scrollHeight;
  }
}
