// The host's admin page (templates/admin.html; docs/ui.md "The admin page"): the token (kept in
// sessionStorage only, sent as `Authorization: Bearer`), then the rooms from GET
// /api/admin/rooms every few seconds, closing one after an in-page confirmation, and the
// maintenance notice every table shows (PUT/DELETE /api/admin/notice). One Preact tree.
import { h, render } from "../vendor/preact.js";
import { appUrl } from "./dom.js";
import { initI18n, loadPart, t, onLangChange, currentLang } from "./i18n.js";
import { ApiError } from "./net.js";
import { errorText } from "./common.js";
import { showNotice } from "./notice.js";

const KEY = "osaka_admin_token";
const REFRESH_MS = 5000;
const MINUTES = [1, 2, 5, 10, 15, 30, 60];
const MAX_TEXT = 200;
const S = { token: null, rooms: null, notice: null, error: "", closing: null, busy: false, at: null, text: "" };
let timer = null;
try { S.token = sessionStorage.getItem(KEY); } catch { /* storage blocked: asked every time */ }

/** fetch JSON with the admin token; throws ApiError with the server's code on 4xx/5xx. */
async function call(method, path, body) {
  let res;
  try {
    res = await fetch(appUrl(path), { method, headers: { Authorization: "Bearer " + S.token,
      ...(body ? { "Content-Type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });
  } catch (e) { throw new ApiError("network", String(e), 0); }
  const data = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(err.code || "unknown", "", res.status, err);
  }
  return data;
}

function failed(e) {
  if (e.status === 401) { signOut(); S.error = t("admin.bad_token"); } else S.error = errorText(e.code, e.fields);
  draw();
}

async function refresh() {
  if (!S.token) return;
  try {
    const data = await call("GET", "/api/admin/rooms");
    Object.assign(S, { rooms: data.rooms, notice: data.notice, at: new Date(), error: "" });
    showNotice(data.notice);
  } catch (e) { failed(e); return; }
  draw();
}

function signIn(ev) {
  ev.preventDefault();
  S.token = ev.target.elements.token.value.trim();
  if (!S.token) return;
  try { sessionStorage.setItem(KEY, S.token); } catch { /* kept in memory only */ }
  S.error = "";
  start();
}

function signOut() {
  S.token = null; S.rooms = null;
  clearInterval(timer);
  try { sessionStorage.removeItem(KEY); } catch { /* ignore */ }
  draw();
}

function start() { refresh(); clearInterval(timer); timer = setInterval(refresh, REFRESH_MS); }

async function setNotice(ev) {
  ev.preventDefault();
  const f = ev.target.elements, min = f.minutes.value;
  const text = f.text.value.trim() || null;
  await send("PUT", "/api/admin/notice", { restart_in_min: min ? Number(min) : null, text });
}
async function send(method, path, body) {
  S.busy = true; draw();
  try {
    const data = await call(method, path, body);
    if (data) { S.notice = data.notice; showNotice(data.notice); }
    S.error = "";
  } catch (e) { failed(e); }
  S.busy = false;
  await refresh();
}

function confirmClose(code) { S.closing = code; draw(); document.getElementById("close-dlg").showModal(); }
async function closeRoom(yes) {
  const code = S.closing;
  document.getElementById("close-dlg").close();
  S.closing = null;
  if (yes) await send("POST", `/api/admin/rooms/${encodeURIComponent(code)}/close`);
  else draw();
}

const when = (iso) => new Date(iso).toLocaleString(currentLang(), { dateStyle: "short", timeStyle: "short" });

function loginView() {
  return h("form", { class: "adm-form", id: "admin-login", onSubmit: signIn },
    h("label", null, t("admin.token"), h("input", { type: "password", name: "token", id: "admin-token",
      autocomplete: "current-password", required: true })),
    h("button", { class: "btn primary", type: "submit" }, t("admin.sign_in")));
}

function noticeView() {
  const n = S.notice;
  return h("section", { class: "panel", "aria-labelledby": "notice-h" },
    h("h2", { id: "notice-h" }, t("admin.notice_h")),
    h("p", { id: "notice-now" }, n ? [t("admin.notice_now") + " ",
      n.restart_at ? t("admin.restart_at", { time: when(n.restart_at) }) + " " : "",
      n.text ? t("admin.quoted", { text: n.text }) : ""]
      : h("span", { class: "muted" }, t("admin.no_notice"))),
    h("form", { class: "adm-form", id: "notice-form", onSubmit: setNotice },
      h("label", null, t("admin.restart_in"), h("select", { name: "minutes", id: "notice-minutes" },
        h("option", { value: "" }, t("admin.no_restart")),
        MINUTES.map((m) => h("option", { value: String(m) }, t("admin.minutes", { n: m }))))),
      h("label", null, t("admin.text") + " (" + S.text.length + "/" + MAX_TEXT + ")",
        h("input", { name: "text", id: "notice-text", maxlength: MAX_TEXT, value: S.text,
          onInput: (e) => { S.text = e.target.value; draw(); } })),
      h("button", { class: "btn primary", type: "submit", disabled: S.busy }, t("admin.show_notice")),
      n && h("button", { class: "btn", type: "button", id: "notice-clear", disabled: S.busy,
        onClick: () => send("DELETE", "/api/admin/notice") }, t("admin.clear_notice"))));
}

function seatView(p) {
  const who = p.bot ? t("admin.computer", { level: t("level." + p.bot_level) }) : t("admin.person");
  return h("li", null, h("span", { class: "dot" + (p.connected ? " on" : p.bot ? " bot" : ""), "aria-hidden": "true" }),
    h("b", null, p.name), " · " + who + (p.bot ? "" : " · " + t(p.connected ? "admin.connected" : "admin.offline")));
}

function roomView(r) {
  return h("li", { class: "adm-room", key: r.code, "data-code": r.code },
    h("div", { class: "adm-main" },
      h("h3", null, h("a", { href: appUrl("/r/" + r.code) }, r.code),
        h("span", { class: "badge " + r.status }, t("admin.status_" + r.status)),
        r.paused && h("span", { class: "badge paused" }, t("admin.paused")),
        h("span", { class: "badge" }, t("pace." + r.pace)),
        h("span", { class: "badge" }, t("admin.game", { n: r.game }))),
      h("ul", { class: "adm-seats" }, r.players.map(seatView)),
      h("p", { class: "muted adm-times" },
        t("admin.times", { active: when(r.active_at), created: when(r.created_at) }))),
    h("button", { class: "btn small", type: "button", onClick: () => confirmClose(r.code),
      "aria-label": t("admin.close") + ": " + r.code }, t("admin.close")));
}

function roomsView() {
  return h("section", { class: "panel", "aria-labelledby": "rooms-h" },
    h("div", { class: "adm-head" }, h("h2", { id: "rooms-h" }, t("admin.rooms_h", { n: S.rooms.length })),
      h("span", null,
        S.at && h("span", { class: "muted" }, t("admin.updated", { time: S.at.toLocaleTimeString(currentLang()) })),
        " ", h("button", { class: "btn small", type: "button", id: "admin-refresh", onClick: refresh },
          t("admin.refresh")))),
    S.rooms.length ? h("ul", { class: "adm-rooms", id: "admin-rooms" }, S.rooms.map(roomView))
      : h("p", { class: "muted" }, t("admin.no_rooms")));
}

function dialogView() {
  return h("dialog", { class: "dialog", id: "close-dlg", "aria-labelledby": "close-dlg-h",
    onCancel: (e) => { e.preventDefault(); closeRoom(false); } },
  h("h2", { id: "close-dlg-h" }, t("admin.close_q", { code: S.closing || "" })),
  h("p", null, t("admin.close_what")),
  h("div", { class: "dlg-actions" },
    h("button", { class: "btn", type: "button", onClick: () => closeRoom(false) }, t("admin.cancel")),
    " ", h("button", { class: "btn primary", type: "button", id: "close-yes", onClick: () => closeRoom(true) },
      t("admin.close"))));
}

function draw() {
  render([
    h("h1", { id: "admin-h" }, t("admin.title")),
    S.error && h("p", { class: "adm-err", role: "alert" }, S.error),
    !S.token ? [h("p", null, t("admin.intro")), loginView()]
      : [h("p", null, h("button", { class: "btn small", type: "button", onClick: signOut }, t("admin.sign_out"))),
        S.rooms === null ? h("p", { class: "muted" }, t("room.loading")) : [noticeView(), roomsView()],
        dialogView()],
  ], document.getElementById("admin"));
}

async function main() {
  await initI18n();
  await loadPart("admin");
  onLangChange(draw);
  document.getElementById("admin").textContent = "";
  draw();
  if (S.token) start();
}

main();
