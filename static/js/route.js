// The sea route as an SVG strip: Osaka – Oshima – Anori (port) – Enshunada I/II (waves,
// danger) – Edo, with the four ships stacked per space. Built once; ships then move by CSS
// transform (animated under 400 ms, not at all with prefers-reduced-motion).
import { s } from "./dom.js";
import { t } from "./i18n.js";
import { COLORS } from "./cards.js";

const W = 600, H = 132, SP = W / 6;

function shipShape(color) {
  // A hull with a mast and sail; the goods symbol is drawn on the sail.
  const sym = {
    red: s("path", { d: "M0,-7 L6,0 L0,7 L-6,0 Z" }),
    blue: s("rect", { x: -5.5, y: -5.5, width: 11, height: 11 }),
    yellow: s("path", { d: "M0,-7 L7,5.5 L-7,5.5 Z" }),
    green: s("circle", { r: 6 }),
  }[color];
  sym.setAttribute("class", "ship-sym");
  sym.setAttribute("transform", "translate(0,-14)");
  return s("g", { class: "ship-body" },
    s("path", { class: "hull", d: "M-22,0 L22,0 L15,11 L-15,11 Z" }),
    s("line", { class: "mast", x1: 0, y1: 0, x2: 0, y2: -26 }),
    s("rect", { class: "sail", x: -10, y: -24, width: 20, height: 19, rx: 2 }),
    sym);
}

function waves(x) {
  const g = s("g", { class: "waves" });
  for (let row = 0; row < 3; row++) {
    let d = "";
    const y = 30 + row * 34;
    for (let i = 0; i < 5; i++) {
      const x0 = x + 6 + i * 18;
      d += `M${x0},${y} q4.5,-6 9,0 t9,0 `;
    }
    g.appendChild(s("path", { d }));
  }
  return g;
}

function anchor(x) {
  return s("g", { class: "anchor", transform: `translate(${x + SP / 2},15) scale(0.85)` },
    s("circle", { cx: 0, cy: -8, r: 3 }),
    s("line", { x1: 0, y1: -5, x2: 0, y2: 10 }),
    s("line", { x1: -5, y1: -2, x2: 5, y2: -2 }),
    s("path", { d: "M-7,5 Q0,14 7,5" }));
}

/** Build the route SVG (an <svg> element); call updateRoute(svg, ships) to place ships. */
export function buildRoute() {
  const svg = s("svg", { class: "route", viewBox: `0 0 ${W} ${H}`, role: "img" });
  const title = s("title", {});
  svg.appendChild(title);
  for (let i = 0; i < 6; i++) {
    const x = i * SP;
    const kind = i === 2 ? "port" : i === 3 || i === 4 ? "danger" : i === 5 ? "edo" : i === 0 ? "osaka" : "sea";
    svg.appendChild(s("rect", { class: "space " + kind, x: x + 2, y: 2, width: SP - 4, height: H - 4, rx: 8, "data-loc": i }, s("title", {})));
    if (kind === "danger") svg.appendChild(waves(x));
    if (kind === "port") svg.appendChild(anchor(x));
    // Two labels: the full name, and a short one shown instead on a phone ("Ensh. I"); CSS
    // picks one. The space's <title> always has the full name.
    svg.appendChild(s("text", { class: "loc-name long", x: x + SP / 2, y: H - 9, "text-anchor": "middle", "data-loc": i }));
    svg.appendChild(s("text", { class: "loc-name short", x: x + SP / 2, y: H - 9, "text-anchor": "middle", "data-loc": i, "data-short": "1" }));
    if (kind === "danger") svg.appendChild(s("text", { class: "loc-warn", x: x + SP / 2, y: 16, "text-anchor": "middle" }));
  }
  for (const c of COLORS) {
    const g = s("g", { class: "ship ship-" + c, "data-color": c });
    g.appendChild(s("title", {}));
    g.appendChild(shipShape(c));
    svg.appendChild(g);
  }
  return svg;
}

/** Place ships (`{"red": 0..5, …}`) and refresh the translated labels. */
export function updateRoute(svg, ships) {
  const names = [];
  for (const tx of svg.querySelectorAll("text.loc-name")) {
    const full = t("loc." + tx.dataset.loc);
    const short = t("loc." + tx.dataset.loc + "_short");
    const label = tx.dataset.short && !short.startsWith("loc.") ? short : full;
    tx.textContent = label;
    tx.setAttribute("aria-label", full);
    // A long name ("Enshunada II") is fitted inside its space with a margin on each side.
    if (label.length > 10) { tx.setAttribute("textLength", String(SP - 22)); tx.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
    else { tx.removeAttribute("textLength"); tx.removeAttribute("lengthAdjust"); }
  }
  for (const r of svg.querySelectorAll("rect.space")) r.querySelector("title").textContent = t("loc." + r.dataset.loc);
  for (const tx of svg.querySelectorAll("text.loc-warn")) tx.textContent = "⚠";
  const perSpace = {};
  for (const c of COLORS) {
    const at = ships ? ships[c] ?? 0 : 0;
    const k = perSpace[at] = (perSpace[at] || 0) + 1;
    const x = at * SP + SP / 2;
    // Stack up to four ships in a 2×2 grid inside the space.
    const dx = (k % 2 === 1 ? -1 : 1) * 22;
    const dy = k <= 2 ? 52 : 92;
    const g = svg.querySelector(".ship-" + c);
    g.style.transform = `translate(${x + dx}px, ${dy}px)`;
    const label = t("route.ship", { color: t("color." + c), loc: t("loc." + at) });
    g.querySelector("title").textContent = label;
    names.push(label);
  }
  svg.querySelector("title").textContent = t("route.title") + ": " + names.join("; ") + ". "
    + t("loc.2") + ": " + t("route.port") + ". " + t("loc.3") + ", " + t("loc.4") + ": " + t("route.danger") + ".";
}
