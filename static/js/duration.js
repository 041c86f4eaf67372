// Durations in one style on every page (clock, timer choice, away dialog, My games), by Intl.
import { t, currentLang } from "./i18n.js";

const unit = (n, u, display) => new Intl.NumberFormat(currentLang(), {
  style: "unit", unit: u, unitDisplay: display }).format(n);

/** `s` seconds: "m:ss" below an hour, "7 hr 12 min" below a day, else "1 day 3 hr" (de "7 Std.
 *  12 Min.", "1 Tg. 3 Std."). */
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
