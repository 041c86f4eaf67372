// "Learn to play" (learn.js): which tip the table's data calls for — pure functions of what the
// page already holds (the view, the events, this seat's hint), no drawing (tests/js/learntips.test.js).
import { CATALOGUE } from "./catalogue.js";

const cardValue = (id) => CATALOGUE.cards[id].value;

/** The rules the guide explains, in the order a first game meets them (bots/tutorial.py RULES):
 *  the token draft (R-setup-5), take (R-take), reserve (R-reserve), buying the whole Market
 *  (R-buy), ships advancing (R-buy-5), a payment with the token bonus (R-pay-1..3), the Black
 *  Tide (R-pay-5), insuring (R-pay-6), the refresh (R-refresh), the end at 8 tokens (R-pay-4). */
export const TIPS = ["draft", "take", "reserve", "buy", "ships", "payment", "tide", "insure", "refresh", "end"];
/** Tips about one of the person's own decisions, by the action's (and its event's) type. */
export const DECISIONS = { choose_token: "draft", take: "take", reserve: "reserve", buy: "buy", insure: "insure" };
/** The end's tip comes once someone holds this many Achievement tokens (the game ends at 8). */
export const END_NEAR = 6;

/** Is it this page's seat's decision now? */
export const myDecision = (ctx) => !!(ctx.view && ctx.seat !== null && ctx.view.phase !== "over"
  && ctx.view.to_act === ctx.seat);
/** This seat's hint of the current decision ({version, seat, action, why}), or null. */
export const myHint = (ctx) => (ctx.hint && ctx.hint.version === ctx.version && ctx.hint.seat === ctx.seat
  ? ctx.hint : null);
const tokens = (p) => Object.values(p.tokens || {}).reduce((a, b) => a + b, 0);

/** The tip the person's decision now calls for ("draft", "insure", or the hint's move), or null. */
export function decisionTip(ctx) {
  if (!myDecision(ctx)) return null;
  const v = ctx.view;
  if (v.phase === "token_draft") return "draft";
  if (v.phase === "insurance") return "insure";
  const x = myHint(ctx);
  return x ? DECISIONS[x.action.type] || null : null;
}

/** Every tip whose rule has come up so far, the decision's first (ids of TIPS, each once): a
 *  move of the person's own (made without its tip), a ship moved, a sale above its highest card
 *  (the token bonus), a Black Tide, a refresh, the end or someone near it. */
export function dueTips(ctx) {
  const out = [], me = ctx.seat, v = ctx.view;
  const now = decisionTip(ctx);
  if (now) out.push(now);
  for (const e of ctx.events || []) {
    if (e.seat === me && DECISIONS[e.type]) out.push(DECISIONS[e.type]);
    else if (e.type === "ship_moved") out.push("ships");
    else if (e.type === "sale" && e.price > Math.max(...e.cards.map(cardValue))) out.push("payment");
    else if (e.type === "black_tide") out.push("tide");
    else if (e.type === "refresh") out.push("refresh");
    else if (e.type === "game_over") out.push("end");
  }
  if (v && v.players.some((p) => tokens(p) >= END_NEAR)) out.push("end");
  return [...new Set(out)];
}
