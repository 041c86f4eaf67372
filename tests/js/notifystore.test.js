// The notifications panel's store (static/js/notifystore.js): what each message does to the
// panel's data and which PUT bodies it makes, without a browser (`node --test tests/js/`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { initialNotify, reduceNotify, notifyBody, webhookBody, formOf } from "../../static/js/notifystore.js";
import { createStore } from "../../static/js/store.js";

const server = { webpush: false, apprise: "ntfy://ntfy.sh/…", quiet: { from: "23:00", to: "06:30",
  tz: "Europe/Berlin" }, lang: "de", failed: null, webhook: null };
const sub = { endpoint: "https://push.example/abc", keys: { p256dh: "BPk", auth: "au" } };
const ctx = { tz: "Europe/Berlin", lang: "en" };

function loaded(n = server) {
  const store = createStore(reduceNotify, initialNotify());
  store.dispatch({ type: "open" });
  store.dispatch({ type: "busy" });
  store.dispatch({ type: "loaded", notify: n });
  return store;
}

test("the form starts from the server's answer; Close forgets what was typed", () => {
  const store = loaded();
  const s = store.get();
  assert.equal(s.open, true);
  assert.equal(s.busy, false);
  assert.deepEqual({ ...s.form }, { ...formOf(server) });
  assert.equal(s.form.quiet, true);
  assert.equal(s.form.from, "23:00");
  store.dispatch({ type: "edit", field: "apprise", value: "json://x" });
  assert.equal(store.get().form.apprise, "json://x");
  store.dispatch({ type: "close" });
  assert.equal(store.get().open, false);
  assert.equal(store.get().form.apprise, "");
});

test("no message mutates the state it was given; an unknown one or field changes nothing", () => {
  const s = loaded().get();
  for (const m of [{ type: "edit", field: "quiet", value: false }, { type: "subscribed", sub },
    { type: "refused", code: "notify_bad_url", field: "apprise" }, { type: "off" }, { type: "close" }]) {
    const next = reduceNotify(s, m);
    assert.notEqual(next, s);
    assert.ok(Object.isFrozen(next) && Object.isFrozen(next.form));
  }
  assert.equal(s.form.quiet, true);
  assert.equal(reduceNotify(s, { type: "pong" }), s);
  assert.equal(reduceNotify(s, { type: "edit", field: "constructor", value: 1 }), s);
});

test("the PUT body keeps the address the server has unless it is removed or replaced", () => {
  const store = loaded();
  // Kept: the server only shows it redacted, so it is not sent back.
  assert.deepEqual(notifyBody(store.get(), ctx),
    { webpush: null, quiet: { from: "23:00", to: "06:30", tz: "Europe/Berlin" }, lang: "en" });
  assert.ok(!("apprise" in notifyBody(store.get(), ctx)));
  store.dispatch({ type: "edit", field: "dropApprise", value: true });
  assert.equal(notifyBody(store.get(), ctx).apprise, null);
  store.dispatch({ type: "edit", field: "apprise", value: "  json://127.0.0.1:9/hook " });
  assert.equal(notifyBody(store.get(), ctx).apprise, "json://127.0.0.1:9/hook");
  // None on the server: null.
  assert.equal(notifyBody(loaded({ ...server, apprise: null }).get(), ctx).apprise, null);
});

test("quiet hours go with the browser's time zone; off, none", () => {
  const store = loaded();
  store.dispatch({ type: "edit", field: "from", value: "21:30" });
  assert.deepEqual(notifyBody(store.get(), { tz: "Asia/Tokyo", lang: "de" }).quiet,
    { from: "21:30", to: "06:30", tz: "Asia/Tokyo" });
  store.dispatch({ type: "edit", field: "quiet", value: false });
  assert.equal(notifyBody(store.get(), ctx).quiet, null);
});

test("this browser's subscription: the new one, else the current one while on, null when off", () => {
  const store = loaded({ ...server, webpush: true });
  const current = { endpoint: "https://push.example/old", keys: { p256dh: "x", auth: "y" } };
  // On, but this browser knows no subscription (made in another one): left as the server has it.
  assert.ok(!("webpush" in notifyBody(store.get(), ctx)));
  assert.deepEqual(notifyBody(store.get(), { ...ctx, current }).webpush, current);
  store.dispatch({ type: "subscribed", sub });
  assert.deepEqual(notifyBody(store.get(), { ...ctx, current }).webpush, sub);
  store.dispatch({ type: "edit", field: "webpush", value: false });
  assert.equal(store.get().form.sub, null);
  assert.equal(notifyBody(store.get(), { ...ctx, current }).webpush, null);
});

test("a browser that cannot push says why and its switch goes off; turning it on again clears that", () => {
  const store = loaded();
  store.dispatch({ type: "busy" });
  store.dispatch({ type: "push", why: "denied" });
  assert.equal(store.get().push, "denied");
  assert.equal(store.get().form.webpush, false);
  assert.equal(store.get().busy, false);
  store.dispatch({ type: "edit", field: "webpush", value: true });
  assert.equal(store.get().push, null);
});

test("a refusal is kept with its field until the next change; a success says so", () => {
  const store = loaded();
  store.dispatch({ type: "busy" });
  store.dispatch({ type: "refused", code: "notify_private_url", fields: { code: "notify_private_url" },
    field: "apprise" });
  assert.deepEqual(store.get().error, { code: "notify_private_url", fields: { code: "notify_private_url" },
    field: "apprise" });
  store.dispatch({ type: "edit", field: "apprise", value: "json://example.org/x" });
  assert.equal(store.get().error, null);
  store.dispatch({ type: "loaded", notify: { ...server, apprise: "json://example.org/…" }, note: "saved" });
  assert.equal(store.get().note, "saved");
  assert.equal(store.get().server.apprise, "json://example.org/…");
});

test("the host's webhook: a PUT of the seat's own answer keeps it; its own PUT sets it", () => {
  const store = loaded({ ...server, webhook: "json://hooks.example/…" });
  const { webhook, ...seat } = server;
  assert.equal(webhook, null);
  store.dispatch({ type: "loaded", notify: seat, note: "saved" });
  assert.equal(store.get().server.webhook, "json://hooks.example/…");
  assert.equal(webhookBody(store.get(), "en"), null);  // nothing typed: no PUT
  store.dispatch({ type: "edit", field: "webhook", value: "ntfy://ntfy.sh/room" });
  assert.deepEqual(webhookBody(store.get(), "de"), { url: "ntfy://ntfy.sh/room", lang: "de" });
  store.dispatch({ type: "webhook", webhook: "ntfy://ntfy.sh/…" });
  assert.equal(store.get().server.webhook, "ntfy://ntfy.sh/…");
  assert.equal(store.get().form.webhook, "");
  store.dispatch({ type: "edit", field: "dropWebhook", value: true });
  assert.deepEqual(webhookBody(store.get(), "en"), { url: null, lang: "en" });
  // A seat that is not the host's has no webhook field at all.
  assert.ok(!("webhook" in loaded(seat).get().server));
});

test("Turn off: everything of the seat off, the room's webhook kept", () => {
  const store = loaded({ ...server, webpush: true, failed: { target: "apprise", reason: "HTTP 500", at: "x" },
    webhook: "json://h/…" });
  store.dispatch({ type: "off" });
  const s = store.get();
  assert.deepEqual([s.server.webpush, s.server.apprise, s.server.quiet, s.server.failed], [false, null, null, null]);
  assert.equal(s.server.webhook, "json://h/…");
  assert.equal(s.form.webpush, false);
  assert.equal(s.form.quiet, false);
  assert.equal(s.note, "off");
});
