// HTTP and WebSocket plumbing. The player token lives in an HttpOnly cookie that the browser
// sends by itself on same-origin fetch and WebSocket calls; scripts never see it. Paths are
// the app's ("/api/rooms"): the page's URL prefix is put in front here (dom.js appUrl).
import { appUrl } from "./dom.js";

/** An error the server refused with: {code, message, status, fields (the error object's
 *  parameters, e.g. retry_after_s)}. */
export class ApiError extends Error {
  constructor(code, message, status,
    fields) { super(message); this.code = code; this.status = status; this.fields = fields || {}; }
}

/** fetch JSON; throws ApiError with the server's {"error": {code, message}} on 4xx/5xx. */
export async function api(method, path, body) {
  let res;
  try {
    res = await fetch(appUrl(path), {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError("network", String(e.message || e), 0);
  }
  let data = null;
  const text = await res.text();
  if (text) { try { data = JSON.parse(text); } catch { data = null; } }
  if (!res.ok) {
    const err = (data && data.error) || {};
    let msg = err.message;
    if (!msg && data && data.detail) msg = typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail);
    throw new ApiError(err.code || (data && typeof data.detail === "string" ? data.detail : "http_" + res.status), msg
      || res.statusText, res.status, err);
  }
  return data;
}

/** Heartbeat (application ping/pong, docs/protocol.md): a ping when nothing was heard for
 *  IDLE_MS; dead when nothing was heard for DEAD_MS (checked every CHECK_MS), or when a probe
 *  ping is not answered within PROBE_MS: sent on waking (visibilitychange, pageshow, resume,
 *  online) and by a check over LATE_MS late (a hidden tab's timers wake once a minute). Time
 *  the timers did not run is never silence. */
/** Close code of a socket whose room another server process serves now (protocol.md). */
const MOVED_CLOSE = 4307;
/** The first retry after `server_restarting` or a move: another replica may serve at once. */
const RESTART_FIRST_MS = 150;
export const HEARTBEAT = { CHECK_MS: 2000, IDLE_MS: 3000, DEAD_MS: 7000, PROBE_MS: 3000, LATE_MS: 2000 };

/**
 * A WebSocket that reconnects by itself with exponential backoff (0.5 s doubling to 10 s,
 * with jitter; after `server_restarting` or a close 4307 "moved" first 0.15 s, then at most
 * 1 s for 30 s) and notices a dead connection within
 * about 10 s, at once after the page wakes up or the network comes back. Callbacks:
 * onMessage(obj), onOpen(), onDown().
 */
export class LiveSocket {
  constructor(path, { onMessage, onOpen, onDown, visible }) {
    this.path = path;
    this.visible = visible;  // sends the room's `visible` frame (protocol.md)
    this.onMessage = onMessage;
    this.onOpen = onOpen || (() => {});
    this.onDown = onDown || (() => {});
    this.delay = 500;
    this.ws = null;
    this.closed = false;
    this.timer = null;
    this.beat = null;     // the next check, due at `due` (performance.now())
    this.due = 0;
    this.heard = 0;       // the last frame
    this.awake = 0;       // since when the timers run on time
    this.probeUntil = 0;  // an unanswered probe's deadline
    this.quick = 0;       // retries every 1 s until then (the server restarts)
    const wake = () => this.check();
    document.addEventListener("visibilitychange", () => {
      this.seen(); if (document.visibilityState === "visible") wake();
    });
    document.addEventListener("resume", wake);  // a frozen page runs again (Chrome)
    window.addEventListener("pageshow", wake);
    window.addEventListener("online", wake);
    window.addEventListener("offline", () => this.dead());
  }

  /** ws(s):// URL of the socket: the page's origin and prefix (wss: on an https page). */
  url() {
    const u = new URL(appUrl(this.path), location.href);
    u.protocol = u.protocol === "https:" ? "wss:" : "ws:";
    return u.href;
  }

  connect() {
    this.closed = false;
    clearTimeout(this.timer);
    let ws;
    try { ws = new WebSocket(this.url()); } catch { this.retry(); return; }
    this.ws = ws;
    this.opening = performance.now();
    ws.onopen = () => {
      if (this.ws !== ws) { try { ws.close(); } catch { /* ignore */ } return; }
      // The backoff starts over only when the server answers with something else than an
      // error: a socket refused at once (4429 too many connections, 1013 database away)
      // keeps doubling the wait.
      this.heard = this.awake = performance.now();
      this.probeUntil = 0;
      this.schedule();
      this.seen();
      this.onOpen();
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      this.heard = performance.now();
      this.probeUntil = 0;
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type !== "error") this.delay = msg.type === "server_restarting" ? RESTART_FIRST_MS : 500;
      this.quick = msg.type === "server_restarting" ? performance.now() + 30000 : 0;  // any other frame: backoff
      if (msg.type !== "pong") this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      if (ev && ev.code === MOVED_CLOSE) this.delay = RESTART_FIRST_MS;  // served elsewhere now: go there
      this.down();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  schedule() {
    clearTimeout(this.beat);
    this.due = performance.now() + HEARTBEAT.CHECK_MS;
    this.beat = setTimeout(() => this.tick(), HEARTBEAT.CHECK_MS);
  }

  tick() {
    if (!this.isOpen()) return;
    const now = performance.now(), late = now - this.due > HEARTBEAT.LATE_MS;
    this.schedule();
    // A probe the socket had time to answer (events run while timers sleep) and did not.
    if (this.probeUntil && now > this.probeUntil) { this.dead(); return; }
    if (late) {
      // The timers slept (a hidden tab): that says nothing of the socket. Ask it.
      this.awake = now;
      this.probe();
      return;
    }
    const quiet = now - Math.max(this.heard, this.awake);
    if (quiet > HEARTBEAT.DEAD_MS) { this.dead(); return; }
    if (now - this.heard > HEARTBEAT.IDLE_MS) this.send({ type: "ping" });
  }

  /** A ping that must be answered within PROBE_MS (an unanswered one keeps its deadline). */
  probe() {
    if (!this.probeUntil) this.probeUntil = performance.now() + HEARTBEAT.PROBE_MS;
    this.send({ type: "ping" });
  }

  /** Check the connection now (the page woke up, the network is back): reconnect at once when
   *  it is down; else ping and count it dead when nothing comes back within PROBE_MS. */
  check() {
    if (this.closed) return;
    // A handshake under way for less than PROBE_MS may still finish: no second socket.
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING
      && performance.now() - this.opening < HEARTBEAT.PROBE_MS) return;
    if (!this.isOpen()) { this.delay = 500; this.connect(); return; }
    this.awake = performance.now();
    this.probeUntil = this.awake + HEARTBEAT.PROBE_MS;
    this.send({ type: "ping" });
    clearTimeout(this.probeTimer);
    this.probeTimer = setTimeout(() => this.tick(), HEARTBEAT.PROBE_MS + 50);
  }

  /** The connection is dead although the browser did not say so: drop it and reconnect. */
  dead() {
    const ws = this.ws;
    if (!ws || this.closed) return;
    this.ws = null;
    try { ws.close(); } catch { /* ignore */ }
    this.delay = 500;
    this.down();
  }

  down() {
    clearTimeout(this.beat);
    clearTimeout(this.probeTimer);
    this.ws = null;
    if (this.closed) return;
    this.onDown();
    this.retry();
  }

  retry() {
    clearTimeout(this.timer);
    const wait = this.delay * (0.8 + Math.random() * 0.4);
    this.delay = Math.min(this.delay * 2, performance.now() < this.quick ? 1000 : 10000);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  /** Close and open again now (after joining, so the new cookie is sent). */
  reconnect() {
    const old = this.ws;
    this.ws = null;
    if (old) { try { old.close(); } catch { /* ignore */ } }
    this.delay = 500;
    this.connect();
  }

  /** Close for good (`room_closed`). */
  stop() { this.closed = true; clearTimeout(this.timer); this.ws?.close(); this.ws = null; }

  /** Is the page in view? (after each (re)connect and visibilitychange) */
  seen() { if (this.visible) this.send({ type: "visible", visible: document.visibilityState === "visible" }); }

  /** Send an object as JSON; false when the socket is not open. */
  send(obj) {
    if (!this.isOpen()) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  isOpen() { return !!this.ws && this.ws.readyState === WebSocket.OPEN; }
}
