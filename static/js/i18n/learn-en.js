// Texts of the "Learn to play" guide (learn.js; loaded with it: i18n.js loadPart("learn")); the
// same keys as learn-de.js. Two sentences per rule (docs/rules.md ids in brackets in learn.js).
export default {
  "learn.title": "Learn to play",
  "learn.count": "Tip {n} of {all}",
  "learn.next": "Next",
  "learn.skip": "Skip tutorial",
  "learn.skipped": "Tutorial skipped: the game goes on without tips.",
  "learn.done.h": "Every rule explained",
  "learn.done.text": "That was every rule: the game is yours. Finish it, or start "
    + "a real one from the home page.",
  "learn.draft.h": "The token draft",
  "learn.draft.text": "Each player first chooses an Achievement token of one colour: it raises the price of "
    + "every sale of that colour you make. Open the choice and pick the ringed colour.",
  "learn.take.h": "Take a coin",
  "learn.take.text": "Every card is also money: taking one Market card into your hand is a whole turn. "
    + "Click the ringed card, then press Take (or “Play it”).",
  "learn.reserve.h": "Reserve a card",
  "learn.reserve.text": "Your Reservation piece keeps one Market or Farm card for you alone until you buy or take "
    + "it. Click the ringed card, then press Reserve.",
  "learn.buy.h": "Buy the whole Market",
  "learn.buy.text": "Buying takes every card in the Market at once as your goods, paid with hand cards worth at "
    + "least their total (no change). Press “Suggest payment”, then Buy.",
  "learn.ships.h": "Ships advance",
  "learn.ships.text": "Each colour bought moves its ship towards Edo: one step for one good, two for two or more. "
    + "A ship that reaches Edo makes everyone sell that colour.",
  "learn.payment.h": "A payment in Edo",
  "learn.payment.text": "Everyone with goods of a colour whose ship is in Edo sells them: highest card plus that "
    + "colour's tokens, times the number of cards, rounded up to 5, gives one VP per 5. Each seller also gains "
    + "a token of that colour, so later sales are worth more.",
  "learn.tide.h": "The Black Tide",
  "learn.tide.text": "At every payment, ships on the two Enshunada spaces sink and their uninsured goods are "
    + "lost. Before that, hand cards with insurance icons may be discarded to insure goods of their colour.",
  "learn.insure.h": "Insure your goods",
  "learn.insure.text": "Your goods of a sinking colour are at risk: each icon on a discarded card of that colour "
    + "saves one good. Open the choice; the ringed cards are the suggestion.",
  "learn.refresh.h": "The refresh",
  "learn.refresh.text": "After a purchase the Farm's cards move to the Market, then 2 new cards go to the Market "
    + "and 3 to the Farm. Reserved cards stay where they are.",
  "learn.end.h": "The end at 8 tokens",
  "learn.end.text": "The game ends at once when a player holds 8 Achievement tokens. Then the most VPs wins; "
    + "ties go to the most tokens.",
};
