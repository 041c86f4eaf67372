// The service worker's handlers (static/sw.js), without a browser: the file runs in a vm
// context of its own (no `registration`, so it wires no listeners), then each handler is
// called with stand-ins that record what it asked of the browser.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import vm from "node:vm";

const src = readFileSync(new URL("../../static/sw.js", import.meta.url), "utf-8");
const sw = vm.createContext({ URL });
vm.runInContext(src, sw);

const payload = { title: "Your turn in room ABC", body: "Ann took a card.", url: "https://x.example/osaka/r/ABC",
  off_url: "https://x.example/osaka/api/notify/off/tok", off_title: "Turn off", room: "ABC", lang: "en" };

function data(obj) {
  return { json: () => (typeof obj === "string" ? JSON.parse(obj) : obj) };
}

test("a push shows one notification: its tag is the room, its data the link and the turn-off URL", async () => {
  const shown = [];
  await sw.onPush({ showNotification: async (...a) => shown.push(a) }, data(payload));
  assert.equal(shown.length, 1);
  const [title, o] = shown[0];
  assert.equal(title, "Your turn in room ABC");
  assert.equal(o.body, "Ann took a card.");
  assert.equal(o.tag, "ABC");
  assert.equal(o.lang, "en");
  assert.deepEqual({ ...o.data }, { url: payload.url, off_url: payload.off_url });
  assert.deepEqual(JSON.parse(JSON.stringify(o.actions)), [{ action: "off", title: "Turn off" }]);  // (another realm)
});

test("a push without a payload, with one that is no JSON or has no link shows nothing", async () => {
  const shown = [];
  const reg = { showNotification: async (...a) => shown.push(a) };
  await sw.onPush(reg, null);
  await sw.onPush(reg, data("{not json"));
  await sw.onPush(reg, data({ title: "x" }));
  assert.deepEqual(shown, []);
});

function fakeClients(urls) {
  const did = [];
  const tabs = urls.map((url) => ({ url, focus: async () => did.push(["focus", url]) }));
  return { did, matchAll: async (o) => { did.push(["matchAll", o.type, o.includeUncontrolled]); return tabs; },
    openWindow: async (url) => did.push(["open", url]) };
}
const note = (d) => { const n = { data: d, closed: 0, close() { n.closed++; } }; return n; };

test("a click focuses an open tab of that room (its URL without query or fragment)", async () => {
  const c = fakeClients(["https://x.example/osaka/r/XYZ", "https://x.example/osaka/r/ABC?x=1#log"]);
  const n = note({ url: payload.url, off_url: payload.off_url });
  assert.equal(await sw.onClick(n, "", c, async () => assert.fail("no POST")), "focus");
  assert.equal(n.closed, 1);
  assert.deepEqual(c.did, [["matchAll", "window", true], ["focus", "https://x.example/osaka/r/ABC?x=1#log"]]);
});

test("a click with no tab of that room open opens the room's link", async () => {
  const c = fakeClients(["https://x.example/osaka/r/ABCD", "https://other.example/osaka/r/ABC"]);
  assert.equal(await sw.onClick(note({ url: payload.url }), "", c, null), "open");
  assert.deepEqual(c.did.at(-1), ["open", payload.url]);
});

test("the action off POSTs the turn-off URL and opens nothing", async () => {
  const c = fakeClients([payload.url]), posted = [];
  const n = note({ url: payload.url, off_url: payload.off_url });
  assert.equal(await sw.onClick(n, "off", c, async (u) => posted.push(u)), "off");
  assert.deepEqual(posted, [payload.off_url]);
  assert.deepEqual(c.did, []);
  assert.equal(n.closed, 1);
});

test("the worker wires its four listeners only where it is a service worker", () => {
  const on = [];
  const self = { registration: {}, clients: {}, skipWaiting() {}, addEventListener: (t) => on.push(t) };
  vm.runInContext(src, vm.createContext({ URL, self }));
  assert.deepEqual([...on], ["install", "activate", "push", "notificationclick"]);
});
