// Texts of the notifications panel (notify.js, loaded with it: i18n.js loadPart("notify")) and
// the refusals only its requests get; the same keys as notify-de.js.
export default {
  "notify.title": "Notifications for this room",
  "notify.intro": "You are told when your decision starts, and once more when 80 % of its time has passed " +
    "(in a room with a clock). Nothing is sent while this page is open and in view. Only what everyone at the " +
    "table sees is sent: never your hand.",
  "notify.browser_h": "In this browser",
  "notify.browser": "Notifications in this browser",
  "notify.push_unsupported": "This browser cannot show notifications from a web page.",
  "notify.push_denied": "Notifications are blocked for this site: allow them in the browser's site settings, " +
    "then try again.",
  "notify.push_failed": "This browser could not be signed up for notifications.",
  "notify.service_h": "Another service",
  "notify.service_help": "An Apprise URL (ntfy://ntfy.sh/your-topic, tgram://…, discord://…, matrix://…) " +
    "or an e-mail address.",
  "notify.services_link": "All services (Apprise)",
  "notify.now": "Now: {url}",
  "notify.removed": "{url} is removed when you save.",
  "notify.remove": "Remove",
  "notify.keep": "Keep",
  "notify.replace": "A new address instead",
  "notify.quiet_h": "Quiet hours",
  "notify.quiet": "Not at night: wait until the quiet hours are over",
  "notify.from": "From",
  "notify.to": "To",
  "notify.tz": "Your time zone: {tz}",
  "notify.failed": "Your notifications to {target} failed: {reason}",
  "notify.this_browser": "this browser",
  "notify.other": "the other service",
  "notify.webhook_h": "Room webhook (you are the host)",
  "notify.webhook_help": "An Apprise URL that gets every player's turn and the result of each game.",
  "notify.busy": "One moment…",
  "notify.note_saved": "Saved.",
  "notify.note_off": "Notifications for this room are off.",
  "notify.note_webhook_saved": "Saved, with the room webhook.",
  "notify.save": "Save",
  "notify.off": "Turn off",
  "notify.close": "Close",
  "err.notify_bad_url": "We cannot send to this: give an Apprise URL (like ntfy://ntfy.sh/your-topic) or an " +
    "e-mail address.",
  "err.notify_no_host": "The server cannot find the host {host}: check the address (or the server has no DNS).",
  "err.notify_private_url": "This address is in a private network (or this computer): the host does not allow that.",
  "err.notify_no_smtp": "This server sends no e-mail (the host set none up): use another service.",
};
