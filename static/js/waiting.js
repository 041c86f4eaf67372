// The room before the start: seats, copy link + QR code, join form, Start and "add a bot"
// for the host: one Preact tree, drawn again by update(room) (in place, so a half-typed name
// and the focus survive updates).
import { h, render } from "../vendor/preact.js";
import { toast, appUrl } from "./dom.js";
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

/** A button that cannot be used now stays focusable: aria-disabled, its reason by id. */
function ariaDisabled(off, whyId) {
  return off ? { "aria-disabled": "true", "aria-describedby": whyId } : {};
}

export class WaitingView {
  /** root: container; code: room code; onJoined(): reconnect the socket with the new cookie. */
  constructor(root, code, onJoined) {
    this.code = code;
    this.onJoined = onJoined;
    this.room = null;
    this.joinError = "";
    this.nameInput = null;
    // The view's own box: the room page puts the chat after it in `root`.
    this.box = document.createElement("section");
    this.box.className = "panel waiting";
    root.textContent = "";
    root.append(this.box);
  }

  /** The computer player's level chosen in the select ("normal" before it is drawn). */
  levelValue() {
    const sel = document.getElementById("bot-level");
    return (sel && sel.value) || "normal";
  }

  async join(e) {
    e.preventDefault();
    const n = validName(this.nameInput.value);
    this.joinError = n ? "" : t("form.name_bad");
    this.joining = !!n;
    this.draw();
    if (!n) return;
    try {
      await api("POST", `/api/rooms/${encodeURIComponent(this.code)}/join`, { name: n });
      rememberName(n);
      this.onJoined();
    } catch (err) {
      this.joinError = errorText(err.code, err.fields);
    } finally {
      this.joining = false;
      this.draw();
    }
  }

  // Buttons that cannot be used now stay focusable (aria-disabled, the reason linked by
  // aria-describedby); the server decides, and its refusal is shown in the page's language.
  async bot() {
    if (this.adding) return;
    this.adding = true;
    try { await api("POST", `/api/rooms/${encodeURIComponent(this.code)}/bots`, { level: this.levelValue() }); }
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
      if (refocus) document.getElementById("add-bot").focus();
    } catch (err) { toast(errorText(err.code, err.fields)); button.disabled = false; }
  }

  /** (Host.) The time per decision chosen in the select (0 = no timer). */
  async setTimer() {
    try { await api("POST", `/api/rooms/${encodeURIComponent(this.code)}/timer`,
      { turn_limit_s: Number(document.getElementById("timer-select").value) }); }
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
    this.draw();
    if (room.game > 1) import("./games.js").then((m) => m.renderRematch(document.getElementById("again"), this.room));
  }

  draw() {
    const room = this.room, code = this.code;
    if (!room) return;
    const isHost = room.you !== null && room.you === room.host_seat;
    const full = room.players.length >= (room.max_seats || 4);
    const n = room.players.length;
    const limit = room.turn_limit_s || 0;
    const cur = this.levelValue();
    const joinForm = room.you === null && !full;
    // The name field keeps what was typed: its value is set once, when it is made.
    const nameRef = (el) => {
      if (!el || el === this.nameInput) return;
      el.value = rememberedName();
      this.nameInput = el;
      el.focus({ preventScroll: true });
    };
    if (!joinForm) this.nameInput = null;
    const seats = [];
    for (let s = 0; s < (room.max_seats || 4); s++) {
      const p = room.players.find((x) => x.seat === s);
      if (!p) {
        seats.push(h("li", { key: s, class: "seat empty" }, h("span", { class: "swatch pc-" + PLAYER_COLORS[s % 4],
          "aria-hidden": "true" }), h("span", { class: "muted" }, t("room.empty_seat"))));
        continue;
      }
      const comp = isComputerSeat(room, s);
      seats.push(h("li", { key: s, class: "seat" + (s === room.you ? " mine" : ""), "data-seat": s },
        h("span", { class: "swatch pc-" + PLAYER_COLORS[s % 4] + (comp ? " bot" : ""), "aria-hidden": "true" },
          markerOf(room, s)),
        dot(room, p),
        h("b", { class: "pl-name" }, playerName(room, s)),
        s === room.host_seat ? h("span", { class: "badge" }, t("room.host")) : null,
        p.bot && !comp ? h("span", { class: "badge bot" }, t("room.bot", { level: t("level." + (p.bot_level
          || "normal")) })) : null,
        s === room.you ? h("span", { class: "badge you" }, t("room.you")) : null,
        isHost && p.bot ? h("button", { type: "button", class: "btn small remove-bot",
          title: t("room.remove_bot_title"),
          "aria-label": t("room.remove_bot_title") + ": " + playerName(room, s), onClick: (ev) => this.removeBot(s,
            ev.currentTarget) }, "✕ " + t("room.remove_bot")) : null));
    }
    const note = room.you !== null
      ? [tn("room.you_are", { name: nameTag(room, room.you) }), isHost ? "" : " " + t("room.waiting_for_host")]
      : t(full ? "room.full" : "room.spectator");
    // A visitor's first question is "how do I join?": the join form comes first (above the
    // invitation), empty for those already seated.
    render([
      h("h1", null, t("room.waiting_title")),
      h("div", { id: "again" }),
      h("div", { class: "join" }, joinForm ? [
        h("h2", { key: "h" }, t("room.join_title")),
        h("form", { key: "f", class: "form inline", onSubmit: (e) => this.join(e) },
          h("label", null, h("span", null, t("form.your_name")),
            h("input", { id: "join-name", maxlength: 24, required: true, autocomplete: "nickname", ref: nameRef })),
          h("button", { class: "btn primary", type: "submit", id: "join-btn", disabled: !!this.joining },
            t("form.join_btn")),
          h("p", { class: "form-error", role: "alert" }, this.joinError)),
      ] : null),
      h("div", { class: "share" },
        h("div", { class: "share-text" }, h("p", { class: "muted" }, t("room.share")),
          h("input", { class: "link-box", readonly: true, value: roomUrl(code), "aria-label": "URL",
            onFocus: (e) => e.target.select() }),
          h("button", { type: "button", class: "btn primary big-btn", id: "copy-link",
            onClick: () => copyLink(code, document.querySelector(".link-box")) }, t("room.copy_link"))),
        h("img", { class: "qr", src: appUrl("/r/" + encodeURIComponent(code) + "/qr.svg"), width: 148, height: 148,
          alt: t("room.qr_alt") })),
      h("h2", null, t("room.seats") + " (" + room.players.length + "/" + room.max_seats + ")"),
      h("ul", { class: "seats", id: "seats" }, seats),
      h("p", { class: "note" }, note),
      // The turn timer: the host chooses it; everyone sees it.
      h("div", { class: "bar-group timer-line", id: "timer-line" }, isHost
        ? h("label", null, h("span", null, t("timer.label") + " "),
          h("select", { id: "timer-select", onChange: () => this.setTimer() },
            [0, ...(room.turn_limits || [])].map((n) => h("option", { value: String(n), key: n,
              selected: n === limit }, limitText(n)))))
        : h("span", { class: "muted", id: "timer-text" }, t("timer.label") + ": " + limitText(limit))),
      h("div", { class: "host-tools" }, isHost ? [
        h("div", { class: "bar-group", key: "bot" },
          h("label", null, h("span", null, t("room.level") + " "), h("select", { id: "bot-level" },
            ["easy", "normal", "hard"].map((l) => h("option", { value: l, key: l, selected: l === cur },
              t("level." + l))))),
          h("button", { type: "button", class: "btn", id: "add-bot", onClick: () => this.bot(),
            ...ariaDisabled(full, "add-bot-why") }, "+ " + t("room.add_bot")),
          h("span", { class: "why", id: "add-bot-why" }, full ? t("room.seats_full") : "")),
        h("div", { class: "bar-group", key: "start" }, h("button", { type: "button", class: "btn primary big-btn",
          id: "start-btn", onClick: () => this.startGame(), ...ariaDisabled(!(n >= 2 && n <= 4), "start-hint") },
        "▶ " + t("room.start"))),
        h("p", { class: "muted", id: "start-hint", key: "hint" }, t("room.start_hint")),
      ] : null)], this.box);
  }
}
