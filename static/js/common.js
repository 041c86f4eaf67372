// Shared bits of the room pages: names, player colours, remembering the typed name.
import { h } from "../vendor/preact.js";
import { t, has } from "./i18n.js";

/** Player colours of the box (white, pink, grey, tan), by seat: never a goods colour. */
export const PLAYER_COLORS = ["white", "pink", "grey", "tan"];

// The server names the computer players it seats "Bot (easy)" etc. (app/rooms.py BOT_NAMES);
// those are shown in the page's language. A person's seat handed to a computer keeps its name.
const SERVER_BOT_NAMES = ["Bot (easy)", "Bot (normal)", "Bot (hard)"];

function seatOf(room, seat) {
  return room && room.players ? room.players.find((x) => x.seat === seat) || null : null;
}

/** True when the seat was created as a computer player: a game record's player says so in
 *  `computer` (its name there is already "Computer 3 (easy)"); a room summary's has the server's
 *  bot name. A person's seat a computer player holds is not one (it keeps its name and marker). */
export function isComputerSeat(room, seat) {
  const p = seatOf(room, seat);
  if (p && typeof p.computer === "boolean") return p.computer;
  return !!(p && p.bot && SERVER_BOT_NAMES.includes(p.name));
}

/** A player's display name; "Computer (easy)" for a computer player; "Seat 3" without a name. */
export function playerName(room, seat) {
  const p = seatOf(room, seat);
  if (p && isComputerSeat(room, seat)) {
    // Several computer players: "Computer 3 (easy)" (its seat number) tells them apart.
    const several = room.players.filter((x) => isComputerSeat(room, x.seat)).length > 1;
    const level = t("level." + (p.bot_level || "normal"));
    return several ? t("bot.name_n", { n: seat + 1, level }) : t("bot.name", { level });
  }
  return p && p.name ? p.name : t("seat.n", { n: seat + 1 });
}

/**
 * The marker on a player's round piece and swatch, unique at the table: the initial of the
 * name, "⚙" for a computer player; the seat number (1–4) wherever two seats would share one.
 */
export function markerOf(room, seat) {
  const seats = room && room.players ? room.players.map((p) => p.seat) : [seat];
  if (!seats.includes(seat)) seats.push(seat);
  const mark = {};
  for (const s of seats) mark[s] = isComputerSeat(room, s) ? "⚙" : initialOf(playerName(room, s)) || String(s + 1);
  for (let round = 0; round < 3; round++) {
    const count = {};
    for (const s of seats) count[mark[s]] = (count[mark[s]] || 0) + 1;
    let dup = false;
    for (const s of seats) if (count[mark[s]] > 1 && mark[s] !== String(s + 1)) { mark[s] = String(s + 1); dup = true; }
    if (!dup) break;
  }
  return mark[seat];
}

/**
 * A name as shown everywhere (top bar, log, players, lobby, result): the seat's colour and
 * marker in a small swatch (decoration, aria-hidden), then the name, so two players are never
 * told apart by their names alone. A Preact vnode.
 * `room` needs only `players: [{seat, name, bot, bot_level}]` (a lobby entry's `seats` do).
 */
export function nameTag(room, seat, { tag = "span", cls = "" } = {}) {
  return h(tag, { class: ("nametag " + cls).trim() },
    h("span", { class: "swatch mini pc-" + PLAYER_COLORS[seat % 4] + (isComputerSeat(room, seat) ? " bot" : ""),
      "aria-hidden": "true" }, markerOf(room, seat)),
    playerName(room, seat));
}

export function dot(room, p) {
  const s = room.stale ? "unk" : p.connected || p.bot ? "on" : "off";
  return h("span", { class: "dot " + s, role: "img", title: t("dot." + s), "aria-label": t("dot." + s) });
}

/** First letter or digit of a name for the Reservation piece (text only), else null. */
export function initialOf(name) {
  const ch = String(name).match(/[\p{L}\p{N}]/u);
  return ch && ch[0].toUpperCase();
}

/** lazy(load) -> get(onLoad): the module once loaded, else null (it loads, then onLoad()). */
export function lazy(load) {
  let mod = null, loading = null;
  return (onLoad) => {
    if (!mod && !loading) loading = load().then((m) => { mod = m; if (onLoad) onLoad(); });
    return mod;
  };
}

/** hint.js ("What would the computer do?") once loaded, in a room whose host allows hints; else null. */
const hintMod = lazy(() => import("./hint.js"));
export const hints = (ctx) => (ctx.room && ctx.room.hints ? hintMod(ctx.redraw) : null);
/** learn.js (the "Learn to play" guide) once loaded, in a tutorial room; else null. */
const learnMod = lazy(() => import("./learn.js"));
export const guide = (ctx) => (ctx.room && ctx.room.tutorial && ctx.view ? learnMod(ctx.redraw) : null);

const NAME_KEY = "osaka_name";
export function rememberedName() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch { return ""; }
}
export function rememberName(n) {
  try { localStorage.setItem(NAME_KEY, n); } catch { /* ignore */ }
}

/** Trimmed name if it is 1..24 characters without control characters, else null. */
export function validName(n) {
  const v = String(n || "").trim();
  // eslint-disable-next-line no-control-regex -- control characters are what a name may not contain
  if (!v || Array.from(v).length > 24 || /[\u0000-\u001f\u007f]/.test(v)) return null;
  return v;
}

/** A refusal in the page's language: the text for its code with the parameters the server
 *  sent as fields (`retry_after_s`, `max_seats`, …; never read from its English message). */
export function errorText(code, fields) {
  const f = { ...(fields || {}), code };
  if (typeof f.retry_after_s === "number") f.n = f.retry_after_s;
  return has("err." + code) ? t("err." + code, f) : t("err.unknown", f);
}
