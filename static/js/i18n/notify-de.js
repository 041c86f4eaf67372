// Texte des Benachrichtigungs-Fensters (notify.js, mit ihm geladen: i18n.js loadPart("notify"))
// und der Ablehnungen, die nur seine Anfragen bekommen; dieselben Schlüssel wie notify-en.js.
export default {
  "notify.title": "Benachrichtigungen für diesen Raum",
  "notify.intro": "Du erfährst, wann deine Entscheidung beginnt, und noch einmal, wenn 80 % ihrer Zeit um sind " +
    "(in einem Raum mit Uhr). Solange diese Seite offen und zu sehen ist, kommt nichts. Es kommt nur, was alle " +
    "am Tisch sehen: nie deine Hand.",
  "notify.browser_h": "In diesem Browser",
  "notify.browser": "Benachrichtigungen in diesem Browser",
  "notify.push_unsupported": "Dieser Browser kann keine Benachrichtigungen einer Webseite zeigen.",
  "notify.push_denied": "Benachrichtigungen sind für diese Seite gesperrt: erlaube sie in den Website-Einstellungen " +
    "des Browsers und versuch es noch einmal.",
  "notify.push_failed": "Dieser Browser konnte nicht für Benachrichtigungen angemeldet werden.",
  "notify.service_h": "Anderer Dienst",
  "notify.service_help": "Eine Apprise-URL (ntfy://ntfy.sh/dein-thema, tgram://…, discord://…, matrix://…) " +
    "oder eine E-Mail-Adresse.",
  "notify.services_link": "Alle Dienste (Apprise)",
  "notify.now": "Jetzt: {url}",
  "notify.removed": "{url} wird beim Speichern entfernt.",
  "notify.remove": "Entfernen",
  "notify.keep": "Behalten",
  "notify.replace": "Stattdessen eine neue Adresse",
  "notify.quiet_h": "Ruhezeit",
  "notify.quiet": "Nicht nachts: warten, bis die Ruhezeit vorbei ist",
  "notify.from": "Von",
  "notify.to": "Bis",
  "notify.tz": "Deine Zeitzone: {tz}",
  "notify.failed": "Deine Benachrichtigungen an {target} sind fehlgeschlagen: {reason}",
  "notify.this_browser": "diesen Browser",
  "notify.other": "den anderen Dienst",
  "notify.webhook_h": "Webhook des Raums (du bist Gastgeber)",
  "notify.webhook_help": "Eine Apprise-URL, die jeden Zug und das Ergebnis jedes Spiels bekommt.",
  "notify.busy": "Einen Moment…",
  "notify.note_saved": "Gespeichert.",
  "notify.note_off": "Benachrichtigungen für diesen Raum sind aus.",
  "notify.note_webhook_saved": "Gespeichert, mit dem Webhook des Raums.",
  "notify.save": "Speichern",
  "notify.off": "Ausschalten",
  "notify.close": "Schließen",
  "err.notify_bad_url": "Dorthin können wir nicht senden: gib eine Apprise-URL (wie ntfy://ntfy.sh/dein-thema) " +
    "oder eine E-Mail-Adresse an.",
  "err.notify_no_host": "Der Server findet den Host {host} nicht: prüfe die Adresse (oder dem Server fehlt DNS).",
  "err.notify_private_url": "Diese Adresse liegt in einem privaten Netz (oder auf diesem Rechner): " +
    "der Gastgeber erlaubt das nicht.",
  "err.notify_no_smtp": "Dieser Server verschickt keine E-Mails (der Gastgeber hat keine eingerichtet): " +
    "nimm einen anderen Dienst.",
};
