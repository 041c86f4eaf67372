// Durations as people read them, one style on every page (the table's clock, the waiting room's
// timer choice, the away dialog, My games): Intl's unit names in the page's language.
import { t, currentLang } from "./i18n.js";

const unit = (n, u, display) => new Intl.NumberFormat(currentLang(), {
  style: "unit", unit: u, unitDisplay: display }).format(n);

/** `s` seconds left: "m:ss" below an hour, else "7 hr 12 min" (de "7 Std. 12 Min."), else
 *  "1 day 3 hr" (de "1 Tg. 3 Std."): Intl.NumberFormat's short units, so every page says it alike. */
export function durationText(s) {
  const d = Math.floor(s / 86400), hr = Math.floor(s / 3600) % 24, m = Math.floor(s / 60) % 60;
  if (d) return unit(d, "day", "short") + " " + unit(hr, "hour", "short");
  if (hr) return unit(hr, "hour", "short") + " " + unit(m, "minute", "short");
  return m + ":" + String(s % 60).padStart(2, "0");
}

/** "30 s", "1 min", "1 day" … for a timer of `s` seconds; "no timer" for none. */
export function limitText(s) {
  return !s ? t("timer.off") : s % 3600 ? s % 60 ? t("timer.s", { n: s }) : t("timer.min", { n: s / 60 })
    : s % 86400 ? unit(s / 3600, "hour", "long") : unit(s / 86400, "day", "long");
}
