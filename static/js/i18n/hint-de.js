// Texts of a hint, "what would the computer do?" (hint.js; loaded with it: i18n.js
// loadPart("hint")); the same keys as hint-en.js.
export default {
  "hint.ask": "Was würde der Computer tun?",
  "hint.asking": "Der Computer überlegt …",
  "hint.says": "Der Computer würde {move}.",
  "hint.play": "So spielen",
  "hint.why_search": "Er hat {options} Züge in {playouts} Probespielen verglichen; dieser schnitt am besten ab, "
    + "mit geschätzt {win}\u00a0% Siegchance.",
  "hint.why_only": "Es ist dein einziger möglicher Zug.",
  "hint.why_prior": "Seine schnelle Bewertung hält diesen Zug für den besten.",
  "hint.why_tutorial": "Mit diesem Zug wurde das Übungsspiel vorbereitet.",
  "hint.take": "{card} nehmen",
  "hint.reserve": "{card} reservieren",
  "hint.buy": "den Markt kaufen und mit {cards} bezahlen",
  "hint.pass": "passen",
  "hint.token": "das Plättchen „{color}“ wählen",
  "hint.insure": "{discard} abwerfen und {goods} behalten",
  "hint.insure_none": "nichts versichern",
  "hint.nothing": "nichts",
};
