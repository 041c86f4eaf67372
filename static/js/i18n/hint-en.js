// Texts of a hint, "what would the computer do?" (hint.js; loaded with it: i18n.js
// loadPart("hint")); the same keys as hint-de.js.
export default {
  "hint.ask": "What would the computer do?",
  "hint.asking": "The computer is thinking…",
  "hint.says": "The computer would {move}.",
  "hint.play": "Play it",
  "hint.why_search": "It compared {options} moves in {playouts} playouts; this one came out best, "
    + "with an estimated {win}\u00a0% chance to win.",
  "hint.why_only": "It is your only possible move.",
  "hint.why_prior": "Its quick evaluation rates this move best.",
  "hint.why_tutorial": "The tutorial's game was prepared with this move.",
  "hint.take": "take {card}",
  "hint.reserve": "reserve {card}",
  "hint.buy": "buy the Market, paying {cards}",
  "hint.pass": "pass",
  "hint.token": "choose the {color} token",
  "hint.insure": "discard {discard} and keep {goods}",
  "hint.insure_none": "insure nothing",
  "hint.nothing": "nothing",
};
