// Texte der Seite „Meine Spiele“ und des Platz-Link-Dialogs (i18n.js loadPart("mine")); dieselben
// Schlüssel wie mine-en.js.
export default {
  "mine.lede": "Die Spiele, in denen dieser Browser einen Platz hat. Über dich wird nichts gespeichert: Die Liste " +
    "kommt aus den Platz-Cookies dieses Browsers.",
  "mine.none": "Dieser Browser hat noch in keinem Spiel einen Platz.",
  "mine.group_turn": "Du bist dran",
  "mine.group_playing": "Laufende Spiele",
  "mine.group_waiting": "Warten auf den Start",
  "mine.group_over": "Beendet",
  "mine.your_turn": "Du bist dran",
  "mine.to_act": "{name} ist dran",
  "mine.status_playing": "Läuft",
  "mine.status_waiting": "Wartet",
  "mine.status_over": "Spiel vorbei",
  "mine.left": "noch {time}",
  "mine.paused": "Pausiert",
  "mine.away": "{name}: abwesend bis {when}",
  "mine.room_of": "Raum von {name}",
  "mine.you": "Du: {name}",
  "mine.with": "mit {names}",
  "mine.bot": "Gerade spielt ein Computer deinen Platz.",
  "mine.last": "Letzter Zug:",
  "mine.unread": "Neue Chatnachrichten",
  "mine.open": "Öffnen",
  "link.title": "Diesen Platz auf einem anderen Gerät spielen",
  "link.warning": "Wer diesen Link hat, spielt deinen Platz. Schick ihn nur dir selbst, und melde andere Geräte ab, " +
    "wenn du ihn verlierst.",
  "link.copy": "Kopieren",
  "link.copied": "Platz-Link kopiert.",
  "link.qr": "QR-Code des Platz-Links",
  "link.signout": "Andere Geräte abmelden",
  "link.signout_hint": "Gibt deinem Platz einen neuen Schlüssel: Jedes andere Gerät und jeder frühere Platz-Link " +
    "hört sofort auf zu gehen.",
  "link.signed_out": "Andere Geräte sind abgemeldet. Dieses Gerät behält den Platz.",
  "link.close": "Schließen",
};
