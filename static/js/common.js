// Shared bits of the room pages: names, player colours, remembering the typed name.
import { t } from "./i18n.js";

/** Player colours of the box (white, pink, grey, tan), by seat: never a goods colour. */
export const PLAYER_COLORS = ["white", "pink", "grey", "tan"];

/** A player's display name; "Seat 3" when the seat has no name. */
export function playerName(room, seat) {
  const p = room && room.players ? room.players.find((x) => x.seat === seat) : null;
  return p && p.name ? p.name : t("seat.n", { n: seat + 1 });
}

/** First letter of a name for the Reservation piece (text only). */
export function initialOf(name) {
  const ch = Array.from(String(name).trim())[0];
  return ch ? ch.toUpperCase() : "?";
}

const NAME_KEY = "osaka_name";
export function rememberedName() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch (e) { return ""; }
}
export function rememberName(n) {
  try { localStorage.setItem(NAME_KEY, n); } catch (e) { /* ignore */ }
}

/** Trimmed name if it is 1..24 characters without control characters, else null. */
export function validName(n) {
  const v = String(n || "").trim();
  if (!v || Array.from(v).length > 24 || /[\u0000-\u001f\u007f]/.test(v)) return null;
  return v;
}

/** A translated message for a refused request: our text for known codes, else the server's. */
export function errorText(code, message) {
  const k = "err." + code;
  const v = t(k);
  return v !== k ? v : (message || code);
}
