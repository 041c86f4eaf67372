// A turn-based or paused room on the room page (issue 31; docs/ui.md "Turn-based rooms"): the
// pace and its time per decision, each away seat ("Bob: away until Tue 14:00", in the viewer's
// language and time zone), the paused banner, the host's Pause/Resume and a seated person's
// "Away until…" dialog. Loaded with import() only for such a room (room.js), with its words
// (i18n/pace-<lang>.js); a view of the room page's one tree, drawn from the room summary.
import { h } from "../vendor/preact.js";
import { t, currentLang, loadPart } from "./i18n.js";
import { api } from "./net.js";
import { toast } from "./dom.js";
import { errorText, playerName } from "./common.js";
import { limitText, durationText } from "./clock.js";
import { awaySeats, awayMax, inputValue, untilIso, whenText } from "./pacetext.js";

await loadPart("pace");

const CODE = document.body.dataset.code;
const path = (what) => `/api/rooms/${encodeURIComponent(CODE)}/${what}`;
let open = false, busy = false, error = "";

async function call(ctx, method, what, body) {
  if (busy) return false;
  busy = true;
  try { await api(method, path(what), body); return true; }
  catch (err) { error = errorText(err.code, err.fields); toast(error); return false; }
  finally { busy = false; ctx.redraw(); }
}

async function save(ctx, ev, clear) {
  ev.preventDefault();
  const until = clear ? null : untilIso(document.getElementById("away-input").value);
  if (!clear && !until) { error = t("err.bad_away_time"); ctx.redraw(); return; }
  if (await call(ctx, "PUT", "away", { until })) { open = false; error = ""; ctx.redraw(); }
}

// The dialog opens as a modal once drawn; closing it (Escape, Cancel) forgets it.
function dialogRef(el) { if (el && !el.open) el.showModal(); }

function awayDialog(ctx, me) {
  const now = Date.now(), max = awayMax(now, me.away_left_s);
  const value = inputValue(me.away_until ? Date.parse(me.away_until) : Math.min(max, now + 86400000));
  return h("dialog", { class: "dialog", id: "away-dialog", "aria-labelledby": "away-h", ref: dialogRef,
    onClose: () => { open = false; error = ""; ctx.redraw(); } },
  h("form", { onSubmit: (ev) => save(ctx, ev, false) },
    h("h2", { id: "away-h" }, t("pace.away_title")),
    h("p", { class: "muted" }, t("pace.away_hint", { left: durationText(me.away_left_s || 0) })),
    h("input", { type: "datetime-local", id: "away-input", value, min: inputValue(now + 60000), max: inputValue(max),
      required: true }),
    h("p", { class: "form-error", role: "alert", id: "away-error" }, error),
    h("div", { class: "dlg-actions" },
      h("button", { class: "btn primary", type: "submit", id: "away-save" }, t("pace.save")),
      me.away_until ? h("button", { class: "btn", type: "button", id: "away-clear",
        onClick: (ev) => save(ctx, ev, true) }, t("pace.back")) : null,
      h("button", { class: "btn", type: "button", id: "away-cancel", onClick: (ev) => ev.currentTarget.closest("dialog")
        .close() }, t("pace.cancel")))));
}

/** The pace's band above the waiting room or the table, for ctx.room (the summary). */
export function paceView(ctx) {
  const room = ctx.room, you = room.you, paused = !!room.paused_at, lang = currentLang();
  const me = you === null ? null : room.players.find((p) => p.seat === you);
  const host = me && you === room.host_seat && room.status === "playing";
  return h("div", { class: "pace-band", id: "pace", key: "pace" },
    room.pace === "turn" ? h("span", { class: "badge", id: "pace-text" }, t("pace.turn") + " · "
      + t("pace.per", { limit: limitText(room.turn_limit_s) })) : null,
    paused ? h("p", { class: "banner warn", id: "paused-banner", role: "status" }, t("pace.paused")) : null,
    awaySeats(room, Date.now()).map((a) => h("span", { class: "away", key: a.seat, "data-seat": a.seat },
      t("pace.away", { name: playerName(room, a.seat), when: whenText(a.until, lang) }))),
    host ? h("button", { type: "button", class: "btn small", id: paused ? "resume-btn" : "pause-btn",
      onClick: () => call(ctx, "POST", paused ? "resume" : "pause") }, t(paused ? "pace.resume" : "pace.pause")) : null,
    me && room.pace === "turn" && room.status !== "over" ? h("button", { type: "button", class: "btn small",
      id: "away-btn", onClick: () => { open = true; error = ""; ctx.redraw(); } }, t("pace.away_btn")) : null,
    open && me ? awayDialog(ctx, me) : null);
}
