// Texte des Wartungshinweises des Betreibers (notice.js, loadPart("notice")); dieselben Schlüssel wie notice-en.js.
export default {
  "notice.restart_in": "Der Server startet in {time} neu",
  "notice.restart_now": "Der Server startet jetzt neu",
  "notice.restart_min_one": "Der Server startet in etwa 1 Minute neu",
  "notice.restart_min": "Der Server startet in etwa {n} Minuten neu",
};
