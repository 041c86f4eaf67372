// Texte rundenbasierter Räume, der Abwesenheit und der Pause (pace.js; mit ihm geladen:
// i18n.js loadPart("pace")); dieselben Schlüssel wie pace-en.js.
export default {
  "pace.per": "{limit} pro Entscheidung",
  "pace.paused": "Der Gastgeber hat das Spiel pausiert: niemandes Zeit läuft. Der Chat geht weiter.",
  "pace.pause": "Pause",
  "pace.resume": "Fortsetzen",
  "pace.away": "{name}: abwesend bis {when}",
  "pace.away_btn": "Abwesend bis…",
  "pace.away_title": "Abwesend bis",
  "pace.away_hint": "Solange du abwesend bist, läuft deine Zeit nicht (in diesem Spiel noch höchstens {left}).",
  "pace.save": "Speichern",
  "pace.back": "Ich bin zurück",
  "pace.cancel": "Abbrechen",
  "err.game_paused": "Das Spiel ist pausiert.",
  "err.not_paused": "Das Spiel ist nicht pausiert.",
  "err.not_turn_based": "Nur in einem rundenbasierten Raum.",
  "err.turn_based_room": "In einem rundenbasierten Raum gibt nur der Gastgeber einen Platz ab.",
  "err.bad_pace": "Dieses Tempo gibt es nicht.",
  "err.bad_pace_limit": "Wähle eine der Zeiten, die es für dieses Tempo gibt.",
  "err.bad_away_time": "Wähle eine Zeit in der Zukunft.",
  "err.away_too_long": "So viel Abwesenheit ist in diesem Spiel nicht mehr übrig.",
};
