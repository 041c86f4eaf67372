// The sea route as a small map: the coast from Osaka to Edo, the islands Oshima and Anori
// (the safe port), the rough water of Enshunada I/II (the Black Tide), and the four ships
// (hull in the goods colour, the goods symbol on the sail), stacked 2×2 per space. The
// picture is static/img/map.svg; this module adds the spaces, names and ships (Preact vnodes,
// drawn in place: a ship stays the same element from turn to turn). Ships move by CSS
// transform (animated under 400 ms, not at all with prefers-reduced-motion).
import { h } from "../vendor/preact.js";
import { t } from "./i18n.js";
import { COLORS } from "./cards.js";

const W = 720, H = 150, SP = W / 6;
const MAP = new URL("../img/map.svg", import.meta.url).href;
// The goods symbols (same shapes as on the cards): red ◆, blue ■, yellow ▲, green ●.
const SYM = { red: "M0-8 8 0 0 8-8 0Z", blue: "M-6.5-6.5h13v13h-13Z", yellow: "M0-8 8 6H-8Z",
  green: "M7 0A7 7 0 1 1-7 0 7 7 0 1 1 7 0Z" };

function shipShape(color) {
  // A junk: hull, mast, a battened sail carrying the goods symbol.
  return h("g", { class: "ship-body" },
    h("path", { class: "mast", d: "M0 2V-34" }),
    h("path", { class: "sail", d: "M-13-32h26l-2 26h-22Z" }),
    h("path", { class: "ship-sym", d: SYM[color], transform: "translate(0,-19)" }),
    h("path", { class: "hull", d: "M-21-3h42l-7 12h-28Z" }));
}

/** A space's label: the full name or (`short`, on a phone: CSS) "Ensh. I"; aria-label: the full name. */
function label(i, x, short) {
  const full = t("loc." + i), sh = t("loc." + i + "_short");
  const text = short && !sh.startsWith("loc.") ? sh : full;
  // A long name ("Enshunada II") is fitted inside its label plate.
  const fit = text.length > 10;
  return h("text", { class: "loc-name " + (short ? "short" : "long"), x: x + SP / 2, y: H - 10,
    "text-anchor": "middle", "data-loc": i, "data-short": short ? "1" : null, "aria-label": full,
    textLength: fit ? String(SP - 28) : null, lengthAdjust: fit ? "spacingAndGlyphs" : null }, text);
}

/** The map (<svg>) with the ships (`{"red": 0..5, …}`). `moved`: {color: location it left} since your
 *  last turn: a wake from there (and a rock, unless in `quiet`: shown before a reload). */
export function routeView(ships, moved = {}, quiet = new Set(), attrs = {}) {
  const spaces = [];
  for (let i = 0; i < 6; i++) {
    const x = i * SP;
    const kind = i === 2 ? "port" : i === 3 || i === 4 ? "danger" : i === 5 ? "edo" : i === 0 ? "osaka" : "sea";
    spaces.push(h("rect", { class: "space " + kind, x: x + 3, y: 3, width: SP - 6, height: H - 6, rx: 8,
      "data-loc": i }, h("title", null, t("loc." + i))));
    if (kind === "port") spaces.push(h("path", { class: "anchor", d: `M${x + 95} 36v18m-6-12h12m-15 6q9 12 18 0` }));
    spaces.push(label(i, x, false), label(i, x, true));
    if (kind === "danger") spaces.push(h("text", { class: "loc-warn", x: x + SP / 2, y: 44, "text-anchor": "middle" },
      "⚠"));
  }
  const perSpace = {}, names = [], trails = [], boats = [];
  for (const c of COLORS) {
    const at = ships ? ships[c] ?? 0 : 0;
    const k = perSpace[at] = (perSpace[at] || 0) + 1;
    // Stack up to four ships in a 2×2 grid inside the space.
    const x = at * SP + SP / 2 + (k % 2 === 1 ? -29 : 29);
    const y = k <= 2 ? 70 : 112;
    const from = moved[c];
    // The wake: a dashed arc from the space it left to where it is.
    const x0 = (from ?? at) * SP + SP / 2;
    trails.push(h("path", { class: "trail trail-" + c,
      d: from === undefined ? "" : `M${x0} ${y + 4}Q${(x0 + x) / 2} ${y - 30} ${x} ${y + 4}` }));
    const name = t("route.ship", { color: t("color." + c), loc: t("loc." + at) });
    names.push(name);
    boats.push(h("g", { class: "ship ship-" + c + (from !== undefined ? " moved" : "") + (quiet.has(c) ? " seen" : ""),
      "data-color": c, "data-loc": String(at), style: { transform: `translate(${x}px, ${y}px)` } },
    h("title", null, name), shipShape(c)));
  }
  const title = t("route.title") + ": " + names.join("; ") + ". " + t("loc.2") + ": " + t("route.port") + ". "
    + t("loc.3") + ", " + t("loc.4") + ": " + t("route.danger") + ".";
  return h("svg", { class: "route", viewBox: `0 0 ${W} ${H}`, role: "img", ...attrs },
    h("title", null, title), h("image", { href: MAP, width: W, height: H }), spaces, trails, boats);
}
