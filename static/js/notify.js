// The notifications panel of the room page (docs/ui.md "Notifications"), loaded with import() on
// the first click of "Notify me" (room.js: the table page's weight). A modal <dialog> in the
// page's one tree (room.js draws `panel()` after <main>; this module never renders): this
// browser's Web Push (the service worker static/sw.js, the permission asked only when it is
// turned on), another service by an Apprise URL or an e-mail address, quiet hours in the
// browser's time zone, and for the host the room's webhook. Its state is notifystore.js's.
import { h } from "../vendor/preact.js";
import { t, currentLang, loadPart } from "./i18n.js";
import { api, ApiError } from "./net.js";
import { appUrl } from "./dom.js";
import { errorText } from "./common.js";
import { trapTab } from "./decide.js";
import { createStore } from "./store.js";
import { initialNotify, reduceNotify, notifyBody, webhookBody } from "./notifystore.js";

/** Apprise's list of the services its URLs reach. */
export const APPRISE_SERVICES = "https://github.com/caronc/apprise#supported-notifications";
const store = createStore(reduceNotify, initialNotify());
let code = "", paint = () => {};
const canPush = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
const tz = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
const path = (what) => `/api/rooms/${encodeURIComponent(code)}/${what}`;

/** Apply one message (notifystore.js) and draw: the page's tree again, then the dialog open or closed. */
function dispatch(m) {
  store.dispatch(m);
  paint();
  const dlg = document.getElementById("notify-dlg"), s = store.get();
  if (dlg && s.open && !dlg.open) dlg.showModal();
  else if (dlg && !s.open && dlg.open) dlg.close();
}

const refused = (e, field) => dispatch({ type: "refused", code: e instanceof ApiError ? e.code : "network",
  fields: e.fields, field });

/** Open the panel of room `room_code`; `redraw` draws the page's tree (room.js paint). Reads the
 *  seat's notifications from the server (GET /api/rooms/{code}/notify). */
export async function open(roomCode, redraw) {
  code = roomCode;
  paint = redraw;
  await loadPart("notify");
  dispatch({ type: "open" });
  try { dispatch({ type: "loaded", notify: await api("GET", path("notify")) }); } catch (e) { refused(e, "notify"); }
}

/** base64url of an ArrayBuffer (a subscription's applicationServerKey). */
function b64url(buf) {
  return btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** "In this browser" turned on: ask for the permission (only now), register the service worker
 *  for the whole app and subscribe with the server's VAPID key (GET /api/push/key, RFC 8292). */
async function pushOn() {
  if (store.get().busy) return;
  dispatch({ type: "busy" });
  try {
    if (await Notification.requestPermission() !== "granted") return dispatch({ type: "push", why: "denied" });
    const reg = await navigator.serviceWorker.register(appUrl("/sw.js"), { scope: appUrl("/") });
    const { public_key: key } = await api("GET", "/api/push/key");
    let sub = await reg.pushManager.getSubscription();
    // Made with another key (the server's changed): a new one.
    if (sub && sub.options.applicationServerKey && b64url(sub.options.applicationServerKey) !== key) {
      await sub.unsubscribe();
      sub = null;
    }
    sub ||= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    dispatch({ type: "subscribed", sub: sub.toJSON() });
  } catch (e) {
    if (e instanceof ApiError) refused(e, "push");
    else dispatch({ type: "push", why: "failed" });
  }
}

/** This browser's current subscription's JSON, or null. */
async function currentSub() {
  if (!canPush) return null;
  try {
    const reg = await navigator.serviceWorker.getRegistration(appUrl("/"));
    const sub = reg && await reg.pushManager.getSubscription();
    return sub ? sub.toJSON() : null;
  } catch { return null; }
}

/** Save: PUT the seat's notifications, then (the host) the room's webhook when it changed. */
async function save() {
  const s = store.get();
  if (s.busy) return;
  dispatch({ type: "busy" });
  const body = notifyBody(s, { tz: tz(), lang: currentLang(), current: s.form.webpush ? await currentSub() : null });
  try {
    dispatch({ type: "loaded", notify: await api("PUT", path("notify"), body), note: "saved" });
  } catch (e) {
    return refused(e, e.code && e.code.startsWith("notify_") ? "apprise" : "notify");
  }
  const hook = webhookBody(s, currentLang());
  if (!hook) return;
  dispatch({ type: "busy" });
  try { dispatch({ type: "webhook", webhook: (await api("PUT", path("webhook"), hook)).webhook }); }
  catch (e) { refused(e, "webhook"); }
}

/** "Turn off": DELETE, every notification of this seat off. */
async function turnOff() {
  if (store.get().busy) return;
  dispatch({ type: "busy" });
  try { await api("DELETE", path("notify")); } catch (e) { return refused(e, "notify"); }
  dispatch({ type: "off" });
  document.getElementById("notify-save").focus();  // "Turn off" is gone
}

const edit = (field) => (ev) => dispatch({ type: "edit", field,
  value: ev.currentTarget.type === "checkbox" ? ev.currentTarget.checked : ev.currentTarget.value });

function errorOf(s, field) {
  const e = s.error && s.error.field === field ? s.error : null;
  return h("p", { class: "form-error", id: "notify-err-" + field, role: "alert" },
    e ? errorText(e.code, e.fields) : "");
}

/** An address field: what the server has (redacted) with Remove, and a box for a new one. */
function addressField(s, id, field, drop, now) {
  return [
    now && h("p", { class: "small-p", id: id + "-now", key: id + "-now" },
      s.form[drop] ? t("notify.removed", { url: now }) : t("notify.now", { url: now }), " ",
      h("button", { type: "button", class: "btn small", id: id + "-drop",
        onClick: () => dispatch({ type: "edit", field: drop, value: !s.form[drop] }) },
      t(s.form[drop] ? "notify.keep" : "notify.remove"))),
    h("input", { type: "text", id, key: id, value: s.form[field], onInput: edit(field), inputmode: "url",
      autocomplete: "off", spellcheck: false, "aria-describedby": id + "-help notify-err-" + field,
      "aria-invalid": s.error && s.error.field === field ? "true" : null,
      placeholder: now ? t("notify.replace") : "" }),
  ];
}

function failedView(s) {
  const f = s.server && s.server.failed;
  if (!f) return null;
  const target = f.target === "webpush" ? t("notify.this_browser") : s.server.apprise || t("notify.other");
  return h("p", { class: "form-error", id: "notify-failed" }, t("notify.failed", { target, reason: f.reason }));
}

function pushWhy(s) {
  const why = canPush ? s.push : "unsupported";
  return why ? h("p", { class: "muted small-p", id: "notify-push-why" }, t("notify.push_" + why)) : null;
}

function body(s) {
  const f = s.form, sv = s.server, on = sv && (sv.webpush || sv.apprise || sv.quiet);
  return [
    h("h2", { id: "notify-h", key: "h" }, t("notify.title")),
    h("p", { key: "intro", class: "small-p" }, t("notify.intro")),
    failedView(s),
    h("form", { class: "form notify-form", key: "form", onSubmit: (ev) => { ev.preventDefault(); save(); } },
      h("h3", null, t("notify.browser_h")),
      h("label", { class: "check" }, h("input", { type: "checkbox", id: "notify-push", checked: f.webpush,
        disabled: !canPush, "aria-describedby": "notify-push-why",
        onChange: (ev) => { edit("webpush")(ev); if (ev.currentTarget.checked) pushOn(); } }),
      " ", t("notify.browser")),
      pushWhy(s), errorOf(s, "push"),
      h("h3", null, h("label", { for: "notify-apprise" }, t("notify.service_h"))),
      addressField(s, "notify-apprise", "apprise", "dropApprise", sv && sv.apprise),
      h("p", { class: "muted small-p", id: "notify-apprise-help" }, t("notify.service_help"), " ",
        h("a", { href: APPRISE_SERVICES, target: "_blank", rel: "noopener" }, t("notify.services_link"))),
      errorOf(s, "apprise"),
      h("h3", null, t("notify.quiet_h")),
      h("label", { class: "check" }, h("input", { type: "checkbox", id: "notify-quiet", checked: f.quiet,
        onChange: edit("quiet") }), " ", t("notify.quiet")),
      f.quiet && h("div", { class: "form inline" },
        h("label", null, t("notify.from"), h("input", { type: "time", id: "notify-from", value: f.from,
          onInput: edit("from"), required: true })),
        h("label", null, t("notify.to"), h("input", { type: "time", id: "notify-to", value: f.to,
          onInput: edit("to"), required: true }))),
      f.quiet && h("p", { class: "muted small-p" }, t("notify.tz", { tz: tz() })),
      sv && "webhook" in sv && [
        h("h3", { key: "wh" }, h("label", { for: "notify-webhook" }, t("notify.webhook_h"))),
        addressField(s, "notify-webhook", "webhook", "dropWebhook", sv.webhook),
        h("p", { class: "muted small-p", id: "notify-webhook-help", key: "whh" }, t("notify.webhook_help")),
        errorOf(s, "webhook")],
      errorOf(s, "notify"),
      h("p", { class: "muted", role: "status", id: "notify-status" }, s.busy ? t("notify.busy")
        : s.note ? t("notify.note_" + s.note) : ""),
      h("div", { class: "dlg-actions" },
        // (aria-disabled while busy: a disabled button would drop the focus)
        h("button", { type: "submit", class: "btn primary", id: "notify-save", disabled: !sv,
          "aria-disabled": s.busy ? "true" : null }, t("notify.save")), " ",
        on && h("button", { type: "button", class: "btn", id: "notify-off", "aria-disabled": s.busy ? "true" : null,
          onClick: turnOff }, t("notify.off")), " ",
        h("button", { type: "button", class: "btn", id: "notify-close", onClick: () => dispatch({ type: "close" }) },
          t("notify.close")))),
  ];
}

/** The panel's <dialog> (#notify-dlg), drawn by room.js after <main>: Escape or Close shut it
 *  (the browser gives the focus back to "Notify me"); Tab stays inside. */
export function panel() {
  const s = store.get();
  return h("dialog", { class: "dialog", id: "notify-dlg", key: "notify-dlg", "aria-labelledby": "notify-h",
    onCancel: () => dispatch({ type: "close" }), onKeyDown: (ev) => trapTab(ev, ev.currentTarget) },
  s.open ? body(s) : null);
}
