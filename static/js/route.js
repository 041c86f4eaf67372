// The sea route as a small map: the coast from Osaka to Edo, the islands Oshima and Anori
// (the safe port), the rough water of Enshunada I/II (the Black Tide), and the four ships
// (hull in the goods colour, the goods symbol on the sail), stacked 2×2 per space. The
// picture is static/img/map.svg; this module adds the spaces, names and ships. Ships move
// by CSS transform (animated under 400 ms, not at all with prefers-reduced-motion).
import { s } from "./dom.js";
import { t } from "./i18n.js";
import { COLORS } from "./cards.js";

const W = 720, H = 150, SP = W / 6;
const MAP = new URL("../img/map.svg", import.meta.url).href;
// The goods symbols (same shapes as on the cards): red ◆, blue ■, yellow ▲, green ●.
const SYM = { red: "M0-8 8 0 0 8-8 0Z", blue: "M-6.5-6.5h13v13h-13Z", yellow: "M0-8 8 6H-8Z",
  green: "M7 0A7 7 0 1 1-7 0 7 7 0 1 1 7 0Z" };

function shipShape(color) {
  // A junk: hull, mast, a battened sail carrying the goods symbol.
  return s("g", { class: "ship-body" },
    s("path", { class: "mast", d: "M0 2V-34" }),
    s("path", { class: "sail", d: "M-13-32h26l-2 26h-22Z" }),
    s("path", { class: "ship-sym", d: SYM[color], transform: "translate(0,-19)" }),
    s("path", { class: "hull", d: "M-21-3h42l-7 12h-28Z" }));
}

/** Build the route SVG (an <svg> element); call updateRoute(svg, ships) to place ships. */
export function buildRoute() {
  const svg = s("svg", { class: "route", viewBox: `0 0 ${W} ${H}`, role: "img" });
  svg.appendChild(s("title", {}));
  svg.appendChild(s("image", { href: MAP, width: W, height: H }));
  for (let i = 0; i < 6; i++) {
    const x = i * SP;
    const kind = i === 2 ? "port" : i === 3 || i === 4 ? "danger" : i === 5 ? "edo" : i === 0 ? "osaka" : "sea";
    svg.appendChild(s("rect", { class: "space " + kind, x: x + 3, y: 3, width: SP - 6, height: H - 6, rx: 8,
      "data-loc": i }, s("title", {})));
    if (kind === "port") svg.appendChild(s("path", { class: "anchor", d: `M${x + 95} 36v18m-6-12h12m-15 6q9 12 18 0`,
      }));
    // Two labels: the full name, and a short one shown instead on a phone ("Ensh. I"); CSS
    // picks one. The space's <title> always has the full name.
    svg.appendChild(s("text", { class: "loc-name long", x: x + SP / 2, y: H - 10, "text-anchor": "middle",
      "data-loc": i }));
    svg.appendChild(s("text", { class: "loc-name short", x: x + SP / 2, y: H - 10, "text-anchor": "middle",
      "data-loc": i, "data-short": "1" }));
    if (kind === "danger") svg.appendChild(s("text", { class: "loc-warn", x: x + SP / 2, y: 44,
      "text-anchor": "middle" }));
  }
  for (const c of COLORS) svg.appendChild(s("path", { class: "trail trail-" + c }));
  for (const c of COLORS) {
    const g = s("g", { class: "ship ship-" + c, "data-color": c });
    g.appendChild(s("title", {}));
    g.appendChild(shipShape(c));
    svg.appendChild(g);
  }
  return svg;
}

/** Place ships (`{"red": 0..5, …}`) and refresh the translated labels. `moved`: {color:
 *  location it left} for ships that moved since your last turn: they get a wake from there
 *  (and rock, unless their colour is in `quiet`: shown before a reload). */
export function updateRoute(svg, ships, moved = {}, quiet = new Set()) {
  const names = [];
  for (const tx of svg.querySelectorAll("text.loc-name")) {
    const full = t("loc." + tx.dataset.loc);
    const short = t("loc." + tx.dataset.loc + "_short");
    const label = tx.dataset.short && !short.startsWith("loc.") ? short : full;
    tx.textContent = label;
    tx.setAttribute("aria-label", full);
    // A long name ("Enshunada II") is fitted inside its label plate.
    if (label.length > 10) { tx.setAttribute("textLength", String(SP - 28)); tx.setAttribute("lengthAdjust",
      "spacingAndGlyphs"); }
    else { tx.removeAttribute("textLength"); tx.removeAttribute("lengthAdjust"); }
  }
  for (const r of svg.querySelectorAll("rect.space")) r.querySelector("title").textContent = t("loc." + r.dataset.loc);
  for (const tx of svg.querySelectorAll("text.loc-warn")) tx.textContent = "⚠";
  const perSpace = {};
  for (const c of COLORS) {
    const at = ships ? ships[c] ?? 0 : 0;
    const k = perSpace[at] = (perSpace[at] || 0) + 1;
    // Stack up to four ships in a 2×2 grid inside the space.
    const x = at * SP + SP / 2 + (k % 2 === 1 ? -29 : 29);
    const y = k <= 2 ? 70 : 112;
    const g = svg.querySelector(".ship-" + c);
    g.style.transform = `translate(${x}px, ${y}px)`;
    g.dataset.loc = String(at);
    const from = moved[c];
    g.classList.toggle("moved", from !== undefined);
    g.classList.toggle("seen", quiet.has(c));
    // The wake: a dashed arc from the space it left to where it is.
    const x0 = (from ?? at) * SP + SP / 2, wake = svg.querySelector(".trail-" + c);
    wake.setAttribute("d", from === undefined ? "" : `M${x0} ${y + 4}Q${(x0 + x) / 2} ${y - 30} ${x} ${y + 4}`);
    const label = t("route.ship", { color: t("color." + c), loc: t("loc." + at) });
    g.querySelector("title").textContent = label;
    names.push(label);
  }
  svg.querySelector("title").textContent = t("route.title") + ": " + names.join("; ") + ". "
    + t("loc.2") + ": " + t("route.port") + ". " + t("loc.3") + ", " + t("loc.4") + ": " + t("route.danger") + ".";
}
