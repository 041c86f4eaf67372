// Texts of turn-based rooms, away and the pause (pace.js; loaded with it: i18n.js
// loadPart("pace")); the same keys as pace-de.js.
export default {
  "pace.per": "{limit} per decision",
  "pace.paused": "The host has paused the game: nobody's time runs. Chat goes on.",
  "pace.pause": "Pause",
  "pace.resume": "Resume",
  "pace.away": "{name}: away until {when}",
  "pace.away_btn": "Away until…",
  "pace.away_title": "Away until",
  "pace.away_hint": "While you are away your time does not run (at most {left} left in this game).",
  "pace.save": "Save",
  "pace.back": "I'm back",
  "pace.cancel": "Cancel",
  "err.game_paused": "The host has paused the game.",
  "err.not_paused": "The game is not paused.",
  "err.not_turn_based": "Only in a turn-based room.",
  "err.turn_based_room": "In a turn-based room only the host hands a seat over.",
  "err.bad_pace": "There is no such pace.",
  "err.bad_pace_limit": "Choose one of the times offered for this pace.",
  "err.bad_away_time": "Choose a time in the future.",
  "err.away_too_long": "That is more away time than is left in this game.",
};
