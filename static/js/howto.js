// How to play: short sections (the catalogue part static/js/i18n/howto-<lang>.js), each linked to the rules it
// summarises on /rules (docs/rules.md, anchored by rule id), with small pictures drawn from
// the game's own card and route components.
import { h, render } from "../vendor/preact.js";
import { initI18n, t, raw, loadPart, onLangChange } from "./i18n.js";
import { cardEl } from "./cards.js";
import { routeView } from "./route.js";
import { ROOT, appUrl } from "./dom.js";

function routePic(ships, label) {
  return h("div", { class: "howto-route", role: "img", "aria-label": label },
    routeView(ships, {}, new Set(), { "aria-hidden": "true" }));
}

// Card ids (docs/engine.md): colour = id // 27; id % 27: 0..10 → 2, 11..19 → 3, 20..26 → 5.
const PICS = {
  cards: () => h("div", { class: "cards howto-pic" }, cardEl(0), cardEl(27 + 11), cardEl(81 + 20)),
  reserve: () => h("div", { class: "cards howto-pic" },
    cardEl(54 + 12, { reservedBy: { initial: "A", pcolor: "pink", name: "Ann" } }), cardEl(27 + 1)),
  route: () => routePic({ red: 5, blue: 2, yellow: 1, green: 0 }, t("howto.pic_route")),
  tide: () => h("div", null, routePic({ red: 3, blue: 4, yellow: 5, green: 2 }, t("howto.pic_tide")),
    h("p", { class: "cards howto-pic" }, cardEl(27 + 3, { insured: true }), h("span", { class: "muted" },
      t("card.insured")))),
};

function section(s) {
  return h("section", { key: s.id, id: "howto-" + s.id, "aria-labelledby": "h-" + s.id },
    h("h2", { id: "h-" + s.id }, s.title),
    s.pic ? PICS[s.pic]() : null,
    s.text.map((p, i) => h("p", { key: i }, p)),
    h("p", { class: "rule-ids" }, t("howto.rules"), " ",
      s.rules.map((r, i) => [i ? ", " : null, h("a", { href: "rules#" + r, lang: "en" }, r)])));
}

async function draw() {
  await loadPart("howto");
  render(raw("howto.sections").map(section), document.getElementById("howto-body"));
}

// Opened from a room (a new tab from the room's top bar, or a link): offer the way back.
function backToGame() {
  let ref;
  try { ref = new URL(document.referrer); } catch { return; }
  const path = ref.pathname.startsWith(ROOT + "/") ? ref.pathname.slice(ROOT.length) : "";
  const m = ref.origin === location.origin && path.match(/^\/r\/([A-Za-z0-9_-]{1,32})$/);
  if (!m) return;
  const a = document.getElementById("back-game");
  a.href = appUrl("/r/" + m[1]);
  a.hidden = false;
}

initI18n().then(() => { draw(); backToGame(); onLangChange(draw); });
