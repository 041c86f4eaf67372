// The host's maintenance notice (the `notice` frame, docs/protocol.md): a banner under the top
// bar of the table and home pages, "The server restarts in 4:59" counting down in the reader's
// language, then the host's text as typed. The countdown is drawn aria-hidden; a screen reader
// hears the notice once, when it comes or changes.
import { t, onLangChange } from "./i18n.js";

let shown = null, at = 0, timer = null;

/** Show `notice` ({restart_in_s, text} or null: hide it); restart_in_s counts from now. */
export function showNotice(notice) {
  shown = notice || null;
  at = performance.now();
  draw(true);
}

function restart(left) {
  if (left <= 0) return t("notice.restart_now");
  const s = Math.ceil(left), m = Math.floor(s / 60);
  return t("notice.restart_in", { time: m + ":" + String(s % 60).padStart(2, "0") });
}

function draw(say) {
  const el = document.getElementById("notice");
  clearTimeout(timer);
  if (!el) return;
  el.hidden = !shown;
  if (!shown) { el.lastChild.textContent = el.firstChild.textContent = ""; return; }
  const text = shown.text || "", has = shown.restart_in_s !== null && shown.restart_in_s !== undefined;
  const left = has ? shown.restart_in_s - (performance.now() - at) / 1000 : 0;
  el.firstChild.textContent = [has ? restart(left) : "", text].filter(Boolean).join(" — ");
  if (say) {
    const min = Math.max(0, Math.ceil(left / 60));
    el.lastChild.textContent = [has ? t("notice.restart_min", { n: min }) : "", text].filter(Boolean).join(" — ");
  }
  if (has && left > 0) timer = setTimeout(() => draw(false), 1000 - ((performance.now() - at) % 1000));
}

onLangChange(() => draw(true));
