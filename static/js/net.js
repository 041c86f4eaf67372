// HTTP and WebSocket plumbing. The player token lives in an HttpOnly cookie that the browser
// sends by itself on same-origin fetch and WebSocket calls; scripts never see it.

/** An error the server refused with: {code, message, status, fields (the error object's
 *  parameters, e.g. retry_after_s)}. */
export class ApiError extends Error {
  constructor(code, message, status, fields) { super(message); this.code = code; this.status = status; this.fields = fields || {}; }
}

/** fetch JSON; throws ApiError with the server's {"error": {code, message}} on 4xx/5xx. */
export async function api(method, path, body) {
  let res;
  try {
    res = await fetch(path, {
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
  if (text) { try { data = JSON.parse(text); } catch (e) { data = null; } }
  if (!res.ok) {
    const err = (data && data.error) || {};
    let msg = err.message;
    if (!msg && data && data.detail) msg = typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail);
    throw new ApiError(err.code || (data && typeof data.detail === "string" ? data.detail : "http_" + res.status), msg || res.statusText, res.status, err);
  }
  return data;
}

/**
 * A WebSocket that reconnects by itself with exponential backoff (0.5 s doubling to 10 s,
 * with jitter) and pings every 25 s. Callbacks: onMessage(obj), onOpen(), onDown().
 */
export class LiveSocket {
  constructor(path, { onMessage, onOpen, onDown }) {
    this.path = path;
    this.onMessage = onMessage;
    this.onOpen = onOpen || (() => {});
    this.onDown = onDown || (() => {});
    this.delay = 500;
    this.ws = null;
    this.closed = false;
    this.timer = null;
    this.pinger = null;
    this.wasUp = false;
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return proto + "//" + location.host + this.path;
  }

  connect() {
    this.closed = false;
    clearTimeout(this.timer);
    let ws;
    try { ws = new WebSocket(this.url()); } catch (e) { this.retry(); return; }
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      this.wasUp = true;
      this.onOpen();
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      this.onDown();
      this.retry();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  retry() {
    const wait = this.delay * (0.8 + Math.random() * 0.4);
    this.delay = Math.min(this.delay * 2, 10000);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  /** Close and open again now (after joining, so the new cookie is sent). */
  reconnect() {
    const old = this.ws;
    this.ws = null;
    if (old) { try { old.close(); } catch (e) { /* ignore */ } }
    this.delay = 500;
    this.connect();
  }

  /** Send an object as JSON; false when the socket is not open. */
  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  isOpen() { return !!this.ws && this.ws.readyState === WebSocket.OPEN; }
}
