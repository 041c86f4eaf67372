// The turn clock: the countdown of the seat to act, from the `clock` of each `state`
// frame (docs/protocol.md; the server's clock decides). Shown in the top bar (#clock, Clock)
// and, on your own turn, in the tab title; screen readers hear it (the polite #announce region)
// at 30 and 10 seconds left on your own turn, not at every tick. Paused while the socket is down.
import { h, Component } from "../vendor/preact.js";
import { t, onLangChange } from "./i18n.js";
import { durationText } from "./duration.js";

export { durationText, limitText } from "./duration.js";
import { announce } from "./keys.js";

let clock = null, at = 0, timer = null, said = new Set(), mine = false, onTick = null, stop = null;
let shown = null;  // the Clock on the page
const now = () => stop ?? performance.now();

/** A new `clock` (or null) from a state frame; `isMine`: it is this page's decision;
 *  `tick()` is called every second while a countdown runs (e.g. to redo the title). */
export function setClock(c, isMine, tick) {
  if (!c || !clock || c.seat !== clock.seat || c.left_ms === null || Math.abs(left(c,
    performance.now()) - leftS()) > 1) said = new Set();
  clock = c || null; at = performance.now(); mine = isMine; onTick = tick; stop = null;
  clearInterval(timer); timer = null;
  if (clock && clock.left_ms !== null && !clock.paused) timer = setInterval(draw, 1000);
  draw();
}

/** The socket is down: stand still ("waiting for the server") until the next `setClock`. */
export function pauseClock() {
  if (stop === null) { stop = performance.now(); clearInterval(timer); draw(); }
}

function left(c, now) { return Math.max(0, Math.ceil((c.left_ms - (c.paused ? 0 : now - at)) / 1000)); }

/** Seconds left for the seat to act (null without a timer). */
export function leftS() { return clock && clock.left_ms !== null ? left(clock, now()) : null; }

/** Seconds since the seat to act got its decision (null when nobody is to act). */
export function idleS() { return clock ? (clock.turn_ms + now() - at) / 1000 : null; }

/** The seconds left, or "" without a timer. */
export function clockText() { const s = leftS(); return s === null ? "" : durationText(s); }

onLangChange(draw);

/** The top bar's countdown (hidden without a timer). */
export class Clock extends Component {
  componentDidMount() { shown = this; }
  componentWillUnmount() { if (shown === this) shown = null; }
  render() {
    const s = leftS(), paused = stop !== null, text = s === null ? "" : clockText();
    const title = paused ? t("timer.paused") : "";
    return h("span", { id: "clock", class: "clock" + (s !== null && s <= 10 && !paused ? " low" : "")
      + (mine ? " mine" : "") + (paused ? " paused" : ""), role: "timer", hidden: s === null, title,
    "aria-label": t("timer.left") + " " + text + (paused ? " (" + title + ")" : "") }, text);
  }
}

function draw() {
  const s = leftS();
  if (shown) shown.forceUpdate();
  for (const n of [30, 10]) {
    if (mine && s !== null && s <= n && s > 0 && !said.has(n)) { said.add(n); if (s > n - 2) announce(t("timer.say",
      { n })); }
  }
  if (s === 0 || s === null) { clearInterval(timer); timer = null; }
  if (onTick) onTick();
}

/** A computer player (`rp.bot`) is to act in `seat`, its clock running. */
export function botThinking(ctx, seat, rp) {
  const w = ctx.view, c = ctx.clock;
  return !!(w && w.phase !== "over" && w.to_act === seat && rp && rp.bot && c && c.seat === seat && !c.paused);
}

/** "thinking… 3 s" in its row (docs/ui.md "A computer player thinks"). */
export class Thinking extends Component {
  componentDidMount() { this.timer = setInterval(() => this.forceUpdate(), 1000); }
  componentWillUnmount() { clearInterval(this.timer); }
  render() { return h("span", { class: "badge thinking" }, t("table.thinking", { n: Math.floor(idleS() ?? 0) })); }
}
