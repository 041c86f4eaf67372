// The room before the start: seats, copy link + QR code, join form, Start and "add a bot"
// for the host: a view of the room page's tree, drawn in place (a half-typed name and the
// focus survive updates); the person's part is ctx.waiting.
import { h } from "../vendor/preact.js";
import { toast, appUrl } from "./dom.js";
import { t, tn, loadPart } from "./i18n.js";
import { api } from "./net.js";
import { limitText } from "./clock.js";
import { PLAYER_COLORS, playerName, markerOf, isComputerSeat, rememberedName, rememberName, validName, errorText,
  nameTag, dot } from "./common.js";
import { games } from "./table.js";

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

const enc = encodeURIComponent;
const CODE = document.body.dataset.code;  // the room's code, as in the page's URL

/** The computer player's level chosen in the select ("normal" before it is drawn). */
function levelValue() {
  const sel = document.getElementById("bot-level");
  return (sel && sel.value) || "normal";
}

async function join(ctx, e, onJoined) {
  e.preventDefault();
  const w = ctx.waiting;
  const n = validName(document.getElementById("join-name").value);
  w.joinError = n ? "" : t("form.name_bad");
  w.joining = !!n;
  ctx.paint();
  if (!n) return;
  try {
    await api("POST", `/api/rooms/${enc(CODE)}/join`, { name: n });
    rememberName(n);
    onJoined();
  } catch (err) {
    w.joinError = errorText(err.code, err.fields);
  } finally {
    w.joining = false;
    ctx.paint();
  }
}

// Buttons that cannot be used now stay focusable (aria-disabled, the reason linked by
// aria-describedby); the server decides, and its refusal is shown in the page's language.
async function bot(ctx) {
  const w = ctx.waiting;
  if (w.adding) return;
  w.adding = true;
  try { await api("POST", `/api/rooms/${enc(CODE)}/bots`, { level: levelValue() }); }
  catch (err) { toast(errorText(err.code, err.fields)); }
  finally { w.adding = false; }
}

/** (Host, before the start.) Free seat `seat`: a computer player's or a person's. */
async function removeSeat(seat, button) {
  button.disabled = true;
  // The button goes with the seat: the keyboard focus moves on to "Add a computer player".
  const refocus = document.activeElement === button;
  try {
    await api("DELETE", `/api/rooms/${enc(CODE)}/seats/${seat}`);
    if (refocus) document.getElementById("add-bot").focus();
  } catch (err) { toast(errorText(err.code, err.fields)); button.disabled = false; }
}

/** The host's "✕ Remove" on seat `seat`: `title`, and the seat's `name` in its accessible name. */
function removeButton(seat, title, name) {
  return h("button", { type: "button", class: "btn small remove-bot", title, "aria-label": title + ": " + name,
    onClick: (ev) => removeSeat(seat, ev.currentTarget) }, "✕ " + t("room.remove_bot"));
}

/** (Host.) Hints allowed or not (POST /api/rooms/{code}/hints). */
async function setHints(allowed) {
  try { await api("POST", `/api/rooms/${enc(CODE)}/hints`, { allowed }); }
  catch (err) { toast(errorText(err.code, err.fields)); }
}

/** (Host.) The pace and time per decision chosen in the select ("live:0" = no timer). */
async function setTimer() {
  const [pace, s] = document.getElementById("timer-select").value.split(":");
  try { await api("POST", `/api/rooms/${enc(CODE)}/timer`, { pace, turn_limit_s: Number(s) }); }
  catch (err) { await loadPart("pace"); toast(errorText(err.code, err.fields)); }
}

async function startGame(ctx) {
  const w = ctx.waiting;
  if (w.starting) return;
  w.starting = true;
  try { await api("POST", `/api/rooms/${enc(CODE)}/start`); }
  catch (err) { toast(errorText(err.code, err.fields)); }
  finally { w.starting = false; }
}

// The name field keeps what was typed: its value is set once, when it is made (one ref
// function: Preact calls it again only for a new field), and it takes the focus then.
let nameEl = null;
function nameRef(el) {
  if (!el || el === nameEl) return;
  nameEl = el;
  el.value = rememberedName();
  el.focus({ preventScroll: true });
}

/** The waiting room (a <section>) of ctx.room; `onJoined()`: reconnect the socket with the new cookie. */
export function waitingView(ctx, onJoined) {
  const room = ctx.room, code = CODE, w = ctx.waiting;
  const isHost = room.you !== null && room.you === room.host_seat;
  const full = room.players.length >= (room.max_seats || 4);
  const n = room.players.length;
  // The game's seats are the room's first n (app/rooms.py start_game): a free one below a taken one
  // (a computer player removed, a player left before play again) is filled first.
  const taken = new Set(room.players.map((p) => p.seat));
  const gap = [...Array(n).keys()].find((s) => !taken.has(s));
  const limit = room.turn_limit_s || 0, pace = room.pace || "live";
  const cur = levelValue();
  const joinForm = room.you === null && !full;
  // A rematch's "who is in" (games.js, loaded for it).
  const g = room.game > 1 ? games(ctx.redraw) : null;
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
      // The seat link already while waiting: join on the laptop, play on the phone (seatlink.js).
      s === room.you ? h("button", { type: "button", class: "btn small", id: "seat-link", onClick: ctx.seatLink },
        t("room.seat_link")) : null,
      // The host frees any other seat: a computer player's, or a person's (someone filling a
      // listed room's seats, a friend in the wrong room), who then watches.
      isHost && s !== room.host_seat ? removeButton(s, t(p.bot ? "room.remove_bot_title" : "room.remove_person_title"),
        playerName(room, s)) : null));
  }
  const note = room.you !== null
    ? [tn("room.you_are", { name: nameTag(room, room.you) }), isHost ? "" : " " + t("room.waiting_for_host")]
    : t(full ? "room.full" : "room.spectator");
  // A visitor's first question is "how do I join?": the join form comes first (above the
  // invitation), empty for those already seated.
  return h("section", { class: "panel waiting", key: "waiting" },
    h("h1", null, t("room.waiting_title")),
    h("div", { id: "again" }, g ? g.rematchView(room) : null),
    h("div", { class: "join" }, joinForm ? [
      h("h2", { key: "h" }, t("room.join_title")),
      h("form", { key: "f", class: "form inline", onSubmit: (e) => join(ctx, e, onJoined) },
        h("label", null, h("span", null, t("form.your_name")),
          h("input", { id: "join-name", maxlength: 24, required: true, autocomplete: "nickname", ref: nameRef })),
        h("button", { class: "btn primary", type: "submit", id: "join-btn", disabled: !!w.joining },
          t("form.join_btn")),
        h("p", { class: "form-error", role: "alert" }, w.joinError)),
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
    // The pace and timer: the host chooses them; everyone sees them.
    h("div", { class: "bar-group timer-line", id: "timer-line" }, isHost
      ? h("label", null, h("span", null, t("timer.label") + " "),
        h("select", { id: "timer-select", onChange: () => setTimer() },
          [["live", [0, ...(room.turn_limits || [])]], ["turn", room.turn_based_limits || []]].map(([p, ls]) =>
            h("optgroup", { label: t("pace." + p), key: p }, ls.map((n) => h("option", { value: p + ":" + n, key: n,
              selected: p === pace && n === limit }, limitText(n)))))))
      : h("span", { class: "muted", id: "timer-text" }, t("timer.label") + ": " + limitText(limit)
        + " (" + t("pace." + pace) + ")")),
    // Hints allowed (the host's choice; everyone sees it): app/live/hints.py.
    h("div", { class: "bar-group hints-line", id: "hints-line" }, isHost
      ? h("label", { class: "check" }, h("input", { type: "checkbox", id: "hints-check", checked: !!room.hints,
        onChange: (e) => setHints(e.currentTarget.checked) }), " " + t("hints.allow"))
      : h("span", { class: "muted", id: "hints-text" }, t(room.hints ? "hints.on" : "hints.off"))),
    h("div", { class: "host-tools" }, isHost ? [
      h("div", { class: "bar-group", key: "bot" },
        h("label", null, h("span", null, t("room.level") + " "), h("select", { id: "bot-level" },
          ["easy", "normal", "hard"].map((l) => h("option", { value: l, key: l, selected: l === cur },
            t("level." + l))))),
        h("button", { type: "button", class: "btn", id: "add-bot", onClick: () => bot(ctx),
          ...ariaDisabled(full, "add-bot-why") }, "+ " + t("room.add_bot")),
        h("span", { class: "why", id: "add-bot-why" }, full ? t("room.seats_full") : "")),
      h("div", { class: "bar-group", key: "start" }, h("button", { type: "button", class: "btn primary big-btn",
        id: "start-btn", onClick: () => startGame(ctx), ...ariaDisabled(!(n >= 2 && n <= 4) || gap !== undefined,
          "start-hint") }, "▶ " + t("room.start"))),
      h("p", { class: "muted", id: "start-hint", key: "hint" },
        gap === undefined ? t("room.start_hint") : t("room.start_gap", { n: gap + 1 })),
    ] : null));
}
