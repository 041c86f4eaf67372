// How to play, in English: short sections, each with the rule ids it summarises
// (docs/rules.md, served at /rules) and an optional picture drawn by howto.js.
// The same section ids, rules and pictures as howto-de.js (tested); a part of the catalogue
// (i18n.js loadPart("howto")).
export default {
  "howto.sections": [
  { id: "goal", rules: ["R-end-2"], pic: null, title: "The goal",
    text: ["Buy goods in Osaka and ship them to Edo. When a ship arrives, its goods are sold for Victory Points " +
      "(VP). The most VPs win."] },
  { id: "cards", rules: ["R-comp-1", "R-comp-2"], pic: "cards", title: "One card, three uses",
    text: ["In your hand a card is coins: its value (2, 3 or 5). In the Market it is goods of its colour: ◆ red, ■ " +
      "blue, ▲ yellow, ● green. Its insurance icons (two on a 2, one on a 3, none on a 5) protect goods from the " +
        "Black Tide."] },
  { id: "setup", rules: ["R-setup-2", "R-setup-3", "R-setup-4", "R-setup-5"], pic: null, title: "Setup and who starts",
    text: ["Five cards go to the Market and three to the Farm. Everyone draws a starting hand worth 8 or more, shown " +
      "to all. The smallest starting hand begins (a tie: fewer cards, then chance). From the start player on, each " +
        "player picks one Achievement token of any colour."] },
  { id: "turn", rules: ["R-turn-1", "R-turn-2", "R-turn-1a", "R-turn-3"], pic: null, title: "Your turn: one of three",
    text: ["First, if the Market holds no card you may take (it is empty or every card is reserved by someone else), " +
      "the table is refreshed for you: the Farm moves to the Market and new cards are dealt.",
      "Then do exactly one: take a coin, reserve a card, or buy. Only when none of them is possible (both piles are " +
        "used up) do you pass."] },
  { id: "farm", rules: ["R-take-1", "R-reserve-1", "R-reserve-2", "R-reserve-3"], pic: "reserve",
    title: "Take, reserve, and the Farm",
    text: ["Take a coin: one Market card into your hand. The Farm is the row of next goods: its cards can be " +
      "reserved but not taken, and they move into the Market after each purchase.",
      "Reserve: put your Reservation piece on a Market or Farm card. Now only you may take or buy it. The piece " +
        "comes back when you do; you have only one."] },
  { id: "buy", rules: ["R-buy-1", "R-buy-2", "R-buy-3", "R-buy-5", "R-refresh-1", "R-refresh-2"], pic: null,
    title: "Buy",
    text: ["You buy all the goods in the Market (not the cards others reserved) and pay their total with coins from " +
      "your hand. No change is given, and the payment must be minimal: no card may be left over that you could " +
        "take back and still cover the cost. The page suggests one.",
      "Each colour you bought moves its ship one step toward Edo, two steps for two or more goods of that colour. " +
        "Then the Farm moves into the Market, two new cards go to the Market and three to the Farm."] },
  { id: "pay", rules: ["R-pay-1", "R-pay-2", "R-pay-3"], pic: "route", title: "Payment in Edo",
    text: ["When a ship reaches Edo, everyone sells all their goods of that colour. Price = your highest card of the " +
      "colour + your tokens of that colour. Value = price × number of cards, rounded up to a multiple of 5; every " +
        "5 is 1 VP. Example: ◆5 ◆5 ◆5 with no red token: 5 × 3 = 15 → 3 VP.",
      "For each colour you sold you get one more token of that colour."] },
  { id: "end", rules: ["R-pay-4", "R-end-1"], pic: null, title: "The end comes after a payment",
    text: ["Right after a payment, if anyone holds 8 or more Achievement tokens (all colours together), the game " +
      "ends at once: no sinking, no more turns."] },
  { id: "tide", rules: ["R-pay-5", "R-pay-6", "R-pay-7", "R-pay-8"], pic: "tide", title: "Black Tide and insurance",
    text: ["At every payment that does not end the game, ships on the two wave spaces (Enshunada I and II) sink. " +
      "Their goods are lost unless insured: starting with the buyer, each player at risk may discard hand cards of " +
        "a sinking colour; each insurance icon saves one good of the card's colour. Anori (⚓) is a safe port.",
      "An insured good stays insured: it survives every later Black Tide until it is sold."] },
  { id: "ships", rules: ["R-pay-9"], pic: null, title: "Ships go back",
    text: ["After the payment, ships at Edo go back to Osaka, and sunk ships go back to Anori."] },
  { id: "win", rules: ["R-end-2", "R-end-3"], pic: null, title: "Who wins",
    text: ["The most VPs win. A tie goes to the most Achievement tokens; still tied, all of them share the win. " +
      "Goods and coins left at the end score nothing."] },
],
};
