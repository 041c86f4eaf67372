// The room before the start: seats, copy link + QR code, join form, Start and "add a bot"
// for the host. Built once (so a half-typed name survives updates), then update(room).
import { h as v, render } from "../vendor/preact.js";
import { h, fill, toast, appUrl } from "./dom.js";
import { t, tn } from "./i18n.js";
import { api } from "./net.js";
import { limitText } from "./clock.js";
import { PLAYER_COLORS, playerName, markerOf, isComputerSeat, rememberedName, rememberName, validName, errorText,
  nameTag, dot } from "./common.js";

export function roomUrl(code) { return location.origin + appUrl("/r/" + encodeURIComponent(code)); }

/** Copy the room link; falls back to selecting the text box. */
export async function copyLink(code, input) {
  try {
    await navigator.clipboard.writeText(roomUrl(code));
    toast(t("room.copied"), "ok");
  } catch {
    if (input) { input.focus(); input.select(); }
    try { document.execCommand("copy"); toast(t("room.copied"), "ok"); } catch { toast(t("room.copy_failed"),
      "ok"); }
  }
}

function ariaDisabled(btn, off, whyId) {
  if (off) { btn.setAttribute("aria-disabled", "true"); btn.setAttribute("aria-describedby", whyId); }
  else { btn.removeAttribute("aria-disabled"); btn.removeAttribute("aria-describedby"); }
}

export class WaitingView {
  /** root: container; code: room code; onJoined(): reconnect the socket with the new cookie. */
  constructor(root, code, onJoined) {
    this.code = code;
    this.onJoined = onJoined;
    this.room = null;
    this.el = {
      title: h("h1"),
      share: h("p", { class: "muted" }),
      link: h("input", { class: "link-box", readonly: true, value: roomUrl(code), "aria-label": "URL",
        onfocus: (e) => e.target.select() }),
      copy: h("button", { type: "button", class: "btn primary big-btn", id: "copy-link", onclick: () => copyLink(code,
        this.el.link) }),
      qr: h("img", { class: "qr", src: appUrl("/r/" + encodeURIComponent(code) + "/qr.svg"), width: 148, height: 148 }),
      seatsH: h("h2"),
      seats: h("ul", { class: "seats", id: "seats" }),
      join: h("div", { class: "join" }),
      host: h("div", { class: "host-tools" }),
      note: h("p", { class: "note" }),
      again: h("div"),
    };
    this.nameInput = h("input", { id: "join-name", maxlength: 24, required: true, autocomplete: "nickname",
      value: rememberedName() });
    this.joinErr = h("p", { class: "form-error", role: "alert" });
    this.joinLabel = h("span");
    this.joinBtn = h("button", { class: "btn primary", type: "submit", id: "join-btn" });
    this.joinH = h("h2");
    this.joinForm = h("form", { class: "form inline", onsubmit: (e) => this.join(e) },
      h("label", null, this.joinLabel, this.nameInput), this.joinBtn, this.joinErr);
    this.level = h("select", { id: "bot-level" });
    this.levelLabel = h("span");
    this.addBot = h("button", { type: "button", class: "btn", id: "add-bot", onclick: () => this.bot() });
    this.addBotWhy = h("span", { class: "why", id: "add-bot-why" });
    this.start = h("button", { type: "button", class: "btn primary big-btn", id: "start-btn",
      onclick: () => this.startGame() });
    this.startHint = h("p", { class: "muted", id: "start-hint" });
    // The turn timer: the host chooses it; everyone sees it.
    this.timer = h("select", { id: "timer-select", onchange: () => this.setTimer() });
    this.timerLabel = h("span");
    this.timerLine = h("div", { class: "bar-group timer-line", id: "timer-line" });
    // A visitor's first question is "how do I join?": the join form comes first (above the
    // invitation), empty for those already seated.
    fill(root, h("section", { class: "panel waiting" },
      this.el.title,
      this.el.again,
      this.el.join,
      h("div", { class: "share" },
        h("div", { class: "share-text" }, this.el.share, this.el.link, this.el.copy),
        this.el.qr),
      this.el.seatsH, this.el.seats, this.el.note, this.timerLine, this.el.host));
  }

  async join(e) {
    e.preventDefault();
    const n = validName(this.nameInput.value);
    this.joinErr.textContent = "";
    if (!n) { this.joinErr.textContent = t("form.name_bad"); return; }
    this.joinBtn.disabled = true;
    try {
      await api("POST", `/api/rooms/${encodeURIComponent(this.code)}/join`, { name: n });
      rememberName(n);
      this.onJoined();
    } catch (err) {
      this.joinErr.textContent = errorText(err.code, err.fields);
    } finally {
      this.joinBtn.disabled = false;
    }
  }

  // Buttons that cannot be used now stay focusable (aria-disabled, the reason linked by
  // aria-describedby); the server decides, and its refusal is shown in the page's language.
  async bot() {
    if (this.adding) return;
    this.adding = true;
    try { await api("POST", `/api/rooms/${encodeURIComponent(this.code)}/bots`, { level: this.level.value }); }
    catch (err) { toast(errorText(err.code, err.fields)); }
    finally { this.adding = false; }
  }

  /** (Host, before the start.) Take a computer player off seat `seat`. */
  async removeBot(seat, button) {
    button.disabled = true;
    // The button goes with the seat: the keyboard focus moves on to "Add a computer player".
    const refocus = document.activeElement === button;
    try {
      await api("DELETE", `/api/rooms/${encodeURIComponent(this.code)}/seats/${seat}`);
      if (refocus) this.addBot.focus();
    } catch (err) { toast(errorText(err.code, err.fields)); button.disabled = false; }
  }

  /** (Host.) The time per decision chosen in the select (0 = no timer). */
  async setTimer() {
    try { await api("POST", `/api/rooms/${encodeURIComponent(this.code)}/timer`,
      { turn_limit_s: Number(this.timer.value) }); }
    catch (err) { toast(errorText(err.code, err.fields)); }
  }

  async startGame() {
    if (this.starting) return;
    this.starting = true;
    try { await api("POST", `/api/rooms/${encodeURIComponent(this.code)}/start`); }
    catch (err) { toast(errorText(err.code, err.fields)); }
    finally { this.starting = false; }
  }

  /** True when every seat is taken. */
  full() { return !!this.room && this.room.players.length >= (this.room.max_seats || 4); }

  /** Redraw from a room summary. */
  update(room) {
    this.room = room;
    const e = this.el;
    e.title.textContent = t("room.waiting_title");
    e.share.textContent = t("room.share");
    e.copy.textContent = t("room.copy_link");
    e.qr.alt = t("room.qr_alt");
    e.seatsH.textContent = t("room.seats") + " (" + room.players.length + "/" + room.max_seats + ")";
    const isHost = room.you !== null && room.you === room.host_seat;
    const seats = [];
    for (let s = 0; s < (room.max_seats || 4); s++) {
      const p = room.players.find((x) => x.seat === s);
      if (!p) { seats.push(v("li", { key: s, class: "seat empty" }, v("span",
        { class: "swatch pc-" + PLAYER_COLORS[s % 4],
          "aria-hidden": "true" }), v("span", { class: "muted" }, t("room.empty_seat")))); continue; }
      const comp = isComputerSeat(room, s);
      seats.push(v("li", { key: s, class: "seat" + (s === room.you ? " mine" : ""), "data-seat": s },
        v("span", { class: "swatch pc-" + PLAYER_COLORS[s % 4] + (comp ? " bot" : ""), "aria-hidden": "true" },
          markerOf(room, s)),
        dot(room, p),
        v("b", { class: "pl-name" }, playerName(room, s)),
        s === room.host_seat ? v("span", { class: "badge" }, t("room.host")) : null,
        p.bot && !comp ? v("span", { class: "badge bot" }, t("room.bot", { level: t("level." + (p.bot_level
          || "normal")) })) : null,
        s === room.you ? v("span", { class: "badge you" }, t("room.you")) : null,
        isHost && p.bot ? v("button", { type: "button", class: "btn small remove-bot",
          title: t("room.remove_bot_title"),
          "aria-label": t("room.remove_bot_title") + ": " + playerName(room, s), onClick: (ev) => this.removeBot(s,
            ev.currentTarget) }, "✕ " + t("room.remove_bot")) : null));
    }
    render(seats, e.seats);
    if (room.game > 1) import("./games.js").then((m) => m.renderRematch(e.again, this.room));
    const full = room.players.length >= (room.max_seats || 4);
    if (room.you === null) {
      this.joinH.textContent = t("room.join_title");
      this.joinLabel.textContent = t("form.your_name");
      this.joinBtn.textContent = t("form.join_btn");
      if (full) { fill(e.join); e.note.textContent = t("room.full"); }
      else {
        if (!e.join.firstChild) {
          fill(e.join, this.joinH, this.joinForm);
          this.nameInput.focus({ preventScroll: true });
        }
        e.note.textContent = t("room.spectator");
      }
    } else {
      fill(e.join);
      fill(e.note, tn("room.you_are", { name: nameTag(room, room.you, { make: h }) }),
        isHost ? "" : " " + t("room.waiting_for_host"));
    }
    const limit = room.turn_limit_s || 0;
    if (isHost) {
      fill(this.timer, [0, ...(room.turn_limits || [])].map((n) => h("option", { value: String(n),
        selected: n === limit }, limitText(n))));
      this.timerLabel.textContent = t("timer.label") + " ";
      if (!this.timerLine.firstChild) fill(this.timerLine, h("label", null, this.timerLabel, this.timer));
    } else fill(this.timerLine, h("span", { class: "muted", id: "timer-text" },
      t("timer.label") + ": " + limitText(limit)));
    if (isHost) {
      const cur = this.level.value || "normal";
      fill(this.level, ["easy", "normal", "hard"].map((l) => h("option", { value: l, selected: l === cur },
        t("level." + l))));
      this.levelLabel.textContent = t("room.level") + " ";
      this.addBot.textContent = "+ " + t("room.add_bot");
      ariaDisabled(this.addBot, full, "add-bot-why");
      this.addBotWhy.textContent = full ? t("room.seats_full") : "";
      this.start.textContent = "▶ " + t("room.start");
      const n = room.players.length;
      ariaDisabled(this.start, !(n >= 2 && n <= 4), "start-hint");
      this.startHint.textContent = t("room.start_hint");
      if (!e.host.firstChild) fill(e.host, h("div", { class: "bar-group" }, h("label", null, this.levelLabel,
        this.level), this.addBot, this.addBotWhy), h("div", { class: "bar-group" }, this.start), this.startHint);
    } else fill(e.host);
  }
}
