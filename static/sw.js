// The service worker of the turn notifications (docs/ui.md "Notifications"): served at
// {ROOT_PATH}/sw.js with Service-Worker-Allowed {ROOT_PATH}/ (app/routes/static.py), registered
// by static/js/notify.js when a player turns on "In this browser". A classic script (every
// browser runs it): its handlers are plain functions of their inputs, which node's test runner
// calls on their own (tests/js/sw.test.js loads this file in a vm context without `registration`).
// The push payload (docs/protocol.md "Notifications"): {title, body, url, off_url, off_title,
// room, lang}; only public information (whose turn, the last move, the room's link).

/** showNotification's arguments for a push payload `p`: [title, options]; the room code is the
 *  tag (a newer notification of the same room replaces the older one), the link and the turn-off
 *  URL its data, one action "off". Null for a payload without a title or link. */
function notificationOf(p) {
  if (!p || typeof p.title !== "string" || typeof p.url !== "string") return null;
  const options = { body: p.body || "", tag: p.room || p.url, lang: p.lang || "", data: { url: p.url,
    off_url: p.off_url || null } };
  if (p.off_url) options.actions = [{ action: "off", title: p.off_title || "Off" }];
  return [p.title, options];
}

/** The push event's payload as JSON, or null (no data, not JSON). */
function payloadOf(data) {
  try { return data ? data.json() : null; } catch { return null; }
}

/** Show the notification of one push (`data`: the PushMessageData) on registration `reg`. */
async function onPush(reg, data) {
  const args = notificationOf(payloadOf(data));
  if (args) await reg.showNotification(...args);
}

/** The same page? `a` and `b` as URLs without query and fragment. */
function samePage(a, b) {
  try {
    const x = new URL(a), y = new URL(b);
    return x.origin === y.origin && x.pathname.replace(/\/$/, "") === y.pathname.replace(/\/$/, "");
  } catch { return false; }
}

/** A click on notification `n` (`action`: "" for the notification itself, "off" for its action):
 *  "off" POSTs its off_url (`post(url)`: fetch); else an open tab of that room gets the focus, or
 *  the room opens in a new one (`clients`: the worker's Clients). Returns what it did: "off",
 *  "focus", "open" or "none". */
async function onClick(n, action, clients, post) {
  n.close();
  const d = n.data || {};
  if (action === "off") {
    if (!d.off_url) return "none";
    await post(d.off_url);
    return "off";
  }
  if (!d.url) return "none";
  const tabs = await clients.matchAll({ type: "window", includeUncontrolled: true });
  const tab = tabs.find((c) => samePage(c.url, d.url));
  if (tab) { await tab.focus(); return "focus"; }
  await clients.openWindow(d.url);
  return "open";
}

if (typeof self !== "undefined" && self.registration) {
  self.addEventListener("install", () => self.skipWaiting());
  self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));
  self.addEventListener("push", (e) => e.waitUntil(onPush(self.registration, e.data)));
  self.addEventListener("notificationclick", (e) => e.waitUntil(onClick(e.notification, e.action, self.clients,
    (url) => fetch(url, { method: "POST", credentials: "omit" }))));
}
