// The standings of the room's series (docs/ui.md "Standings"): the room summary's `standings`
// (finished games only, added up by the server: app/standings.py) as one compact table, one
// row per name, in the server's order (wins, shared wins, VP per game). Shown on the end
// screen and in the waiting room of game 2 and later (games.js); its texts are in i18n/games-*.
import { h } from "../vendor/preact.js";
import { t, tn, currentLang } from "./i18n.js";
import { colorChip } from "./cards.js";

const num = (x) => new Intl.NumberFormat(currentLang(), { maximumFractionDigits: 1 }).format(x);

/** The standings table of `room` (a vnode), or null while the room has no finished game. */
export function standingsView(room) {
  const s = room && room.standings;
  if (!s || !s.players || !s.players.length) return null;
  const me = room.you !== null && room.you !== undefined
    ? (room.players.find((p) => p.seat === room.you) || {}).name : null;
  const th = (key, title) => h("th", { scope: "col", title: title ? t(title) : undefined }, t(key));
  return h("div", { class: "standings-box", id: "standings" },
    h("table", { class: "score standings" },
      h("caption", null, tn("st.caption", { n: s.games })),
      h("thead", null, h("tr", null, th("st.player"), th("st.wins", "st.wins_title"),
        th("st.shared", "st.shared_title"), th("st.vp", "st.vp_title"), th("st.best", "st.best_title"))),
      h("tbody", null, s.players.map((p) => h("tr", { key: p.name, class: p.name === me ? "mine" : "" },
        h("th", { scope: "row" }, p.name, p.computer ? h("span", { "aria-hidden": "true" },
          " ⚙") : null, p.name === me ? " (" + t("room.you") + ")" : null,
        h("span", { class: "st-games muted" }, tn("st.played_n", { n: p.played }))),
        h("td", { class: "num" }, String(p.wins)),
        h("td", { class: "num" }, String(p.shared_wins)),
        h("td", { class: "num" }, h("b", null, num(p.vp_per_game)),
          h("span", { class: "st-games muted", title: t("st.by_game") }, p.by_game.map((v) => v === null ? "–"
            : String(v)).join(" · "))),
        h("td", { class: "num" }, p.best_sale ? [t("st.sale", { n: p.best_sale.vp }), " ",
          colorChip(p.best_sale.color, false), h("span", { class: "st-games muted" },
            t("st.sale_game", { n: p.best_sale.game }))] : "–"))))));
}
