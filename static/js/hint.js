// "What would the computer do?" (docs/ui.md "Hints"): in a room whose host allows hints, the
// seat whose decision it is may ask once per decision (the server answers the same hint again);
// the answer, for this seat alone, is drawn as a line with its reason and "Play it", its cards
// or token marked on the table (`hintedCards`), and read out through #announce.
import { h } from "../vendor/preact.js";
import { t, listText, loadPart } from "./i18n.js";
import { cardText } from "./cards.js";
import { announce } from "./keys.js";

await loadPart("hint");

/** The hint of this seat's current decision ({version, seat, action, why}), or null. */
export function currentHint(ctx) {
  const x = ctx.hint;
  return x && x.version === ctx.version && x.seat === ctx.seat ? x : null;
}

/** May this page ask for a hint now (hints allowed, its decision, the game running)? */
export function mayAsk(ctx) {
  const v = ctx.view;
  return !!(ctx.room && ctx.room.hints && !ctx.room.paused_at && ctx.seat !== null && v && v.phase !== "over"
    && v.to_act === ctx.seat);
}

/** The card ids the current hint names (the card to take or reserve, the payment, the insured cards). */
export function hintedCards(ctx) {
  const a = currentHint(ctx) && ctx.hint.action;
  if (!a) return new Set();
  return new Set(a.card !== undefined ? [a.card] : [...(a.payment || []), ...(a.discard || []), ...(a.goods || [])]);
}

/** The suggested colour of the token draft, or null. */
export function hintedColor(ctx) {
  const x = currentHint(ctx);
  return x && x.action.type === "choose_token" ? x.action.color : null;
}

const cards = (ids) => (ids && ids.length ? listText(ids.map(cardText)) : t("hint.nothing"));

/** The move in words: "take ■3", "buy the Market, paying ■2 ■1", … */
export function moveText(a) {
  switch (a.type) {
    case "take": case "reserve": return t("hint." + a.type, { card: cardText(a.card) });
    case "buy": return t("hint.buy", { cards: cards(a.payment) });
    case "choose_token": return t("hint.token", { color: t("color." + a.color) });
    case "insure": return (a.discard || []).length || (a.goods || []).length
      ? t("hint.insure", { discard: cards(a.discard), goods: cards(a.goods) }) : t("hint.insure_none");
    default: return t("hint.pass");
  }
}

/** Its one line of why, from the search's own numbers (bots/hint.py). */
export function whyText(why) {
  if (why.code === "search" && why.win !== null && why.win !== undefined) return t("hint.why_search", why);
  if (why.code === "tutorial") return t("hint.why_tutorial");
  return t(why.code === "only" ? "hint.why_only" : "hint.why_prior");
}

/** After a `hint` frame for this seat: say it. */
export function hintArrived(ctx) {
  const x = currentHint(ctx);
  if (x) announce(t("hint.says", { move: moveText(x.action) }) + " " + whyText(x.why));
}

/** The hint's part of the action bar or the decision dialog: the button, or the hint with "Play it". */
export function hintView(ctx, where) {
  if (!mayAsk(ctx)) return null;
  const x = currentHint(ctx), asking = ctx.hintAsked === ctx.version && !x;
  if (!x) {
    return h("div", { class: "bar-group hint-box", key: "hint-" + where },
      h("button", { type: "button", class: "btn", id: "btn-hint-" + where, "aria-disabled": asking ? "true" : null,
        onClick: () => { if (!asking && ctx.askHint()) ctx.redraw(); } },
      t(asking ? "hint.asking" : "hint.ask")));
  }
  return h("div", { class: "bar-group hint-box shown", key: "hint-" + where, role: "status", id: "hint-" + where },
    h("p", { class: "hint-text" }, h("b", null, t("hint.says", { move: moveText(x.action) })), " ",
      h("span", { class: "hint-why" }, whyText(x.why))),
    h("button", { type: "button", class: "btn primary", id: "btn-hint-play-" + where, "aria-disabled":
      ctx.pending ? "true" : null, onClick: () => { if (!ctx.pending) ctx.act(x.action); } }, t("hint.play")));
}
