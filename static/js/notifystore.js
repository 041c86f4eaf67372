// The notifications panel's state (docs/ui.md "Notifications"): what the server said of this
// seat's notifications (GET/PUT /api/rooms/{code}/notify, docs/protocol.md) and what the person
// typed, changed only by `reduceNotify`, a pure function of one message, like the room page's
// store (roomstore.js). notify.js draws the panel from it. No DOM, no imports: node's test
// runner loads it as the page does (tests/js/notifystore.test.js).

/** The panel's data when the page opens: {open, busy, server, form, error, note, push}.
 *  `server`: the last GET/PUT answer ({webpush, apprise, quiet, lang, failed, webhook?}) or
 *  null before it; `form`: {webpush (on in this browser), sub (the PushSubscription's JSON
 *  once made), apprise (a new address typed; "" keeps the one the server has), dropApprise
 *  (that one removed), quiet (on), from, to ("HH:MM"), webhook (a new room webhook typed),
 *  dropWebhook}; `error`: {code, fields, field ("notify", "apprise", "webhook" or "push")} of
 *  the last refusal; `note`: "saved", "off" or "webhook_saved" after a success; `push`: why
 *  this browser cannot push ("unsupported", "denied") or null; `busy`: a request under way. */
export function initialNotify() {
  return Object.freeze({ open: false, busy: false, server: null, form: formOf(null), error: null, note: null,
    push: null });
}

/** The form as the server's answer `n` sets it (nothing typed yet). */
export function formOf(n) {
  const q = n && n.quiet;
  return Object.freeze({ webpush: !!(n && n.webpush), sub: null, apprise: "", dropApprise: false, quiet: !!q,
    from: q ? q.from : "22:00", to: q ? q.to : "07:00", webhook: "", dropWebhook: false });
}

/** The state after one message: `open` (its GET sent), `close`; `busy` (a request sent); `loaded` {notify}
 *  (GET's or PUT's answer: the form starts again from it, `note` given with a PUT's); `webhook`
 *  {webhook} (the room webhook's PUT answer); `off` (DELETE answered: everything off); `edit`
 *  {field, value} (a form field changed); `subscribed` {sub} (this browser's subscription made);
 *  `push` {why} (it cannot be: the webpush switch goes off again); `refused` {code, fields,
 *  field}. Unknown types change nothing; never mutates `s`. */
export function reduceNotify(s, m) {
  switch (m.type) {
    case "open":  // (and its GET sent)
      return freeze({ ...s, open: true, busy: true, error: null, note: null });
    case "close":
      return freeze({ ...s, open: false, form: formOf(s.server), error: null, note: null });
    case "busy":
      return freeze({ ...s, busy: true, error: null, note: null });
    case "loaded": {
      // The host's webhook comes with the GET; a PUT of the seat's own answer keeps it.
      const server = s.server && "webhook" in s.server && !("webhook" in m.notify)
        ? { ...m.notify, webhook: s.server.webhook } : m.notify;
      return freeze({ ...s, busy: false, server, form: formOf(server), error: null, note: m.note || null });
    }
    case "webhook":
      return freeze({ ...s, busy: false, server: { ...s.server, webhook: m.webhook },
        form: freeze({ ...s.form, webhook: "", dropWebhook: false }), error: null, note: "webhook_saved" });
    case "off": {
      const server = { ...s.server, webpush: false, apprise: null, quiet: null, failed: null };
      return freeze({ ...s, busy: false, server, form: formOf(server), error: null, note: "off" });
    }
    case "edit": {
      if (!Object.hasOwn(s.form, m.field)) return s;
      const form = { ...s.form, [m.field]: m.value };
      if (m.field === "webpush" && !m.value) form.sub = null;
      return freeze({ ...s, form: freeze(form), error: null, note: null,
        push: m.field === "webpush" && m.value ? null : s.push });
    }
    case "subscribed":
      return freeze({ ...s, busy: false, form: freeze({ ...s.form, webpush: true, sub: m.sub }), push: null });
    case "push":
      return freeze({ ...s, busy: false, form: freeze({ ...s.form, webpush: false, sub: null }), push: m.why });
    case "refused":
      return freeze({ ...s, busy: false, error: { code: m.code, fields: m.fields || {}, field: m.field || "notify" },
        note: null });
    default:
      return s;
  }
}

/** The PUT /api/rooms/{code}/notify body of state `s` ({webpush, apprise, quiet, lang}; `tz`:
 *  the browser's IANA time zone, `lang` the page's; a member left out stays as the server has
 *  it). `webpush`: null when the switch is off, else the new subscription or the one this
 *  browser already has (`current`, its JSON), else left out. `apprise` is left out while the
 *  person keeps the address the server has (it shows it only redacted), null when removed or none. */
export function notifyBody(s, { tz, lang, current = null }) {
  const f = s.form, body = {}, sub = f.sub || current;
  if (!f.webpush) body.webpush = null;
  else if (sub) body.webpush = sub;
  const typed = f.apprise.trim();
  if (typed) body.apprise = typed;
  else if (f.dropApprise || !(s.server && s.server.apprise)) body.apprise = null;
  body.quiet = f.quiet ? { from: f.from, to: f.to, tz } : null;
  body.lang = lang;
  return body;
}

/** The PUT /api/rooms/{code}/webhook body: {url (null: removed), lang (the page's: the
 *  webhook's texts)}, or null when nothing changed. */
export function webhookBody(s, lang) {
  const typed = s.form.webhook.trim();
  if (typed) return { url: typed, lang };
  return s.form.dropWebhook ? { url: null, lang } : null;
}

function freeze(s) { return Object.freeze(s); }
