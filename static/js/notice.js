// The host's maintenance notice (the `notice` frame, docs/protocol.md; docs/ui.md "The admin
// page and the host's notice"): the banner #notice of the top bar, "The server restarts in 4:59"
// counting down in the reader's language, then the host's text as typed. The countdown is
// aria-hidden; a screen reader hears the notice once, when it comes or changes. Loaded by the
// table and home pages with the first `notice` frame, with its texts (notice-<lang>.js).
import { t, onLangChange, loadPart } from "./i18n.js";

let shown = null, at = 0, timer = null;
const ready = loadPart("notice");

/** Show `notice` ({restart_in_s, text} or null: hide it); restart_in_s counts from now. */
export async function showNotice(notice) {
  await ready;
  shown = notice || null;
  at = performance.now();
  draw(true);
}

function draw(say) {
  const el = document.getElementById("notice");
  clearTimeout(timer);
  if (!el) return;
  el.hidden = !shown;
  if (!shown) { el.lastChild.textContent = el.firstChild.textContent = ""; return; }
  const has = typeof shown.restart_in_s === "number";
  const left = has ? Math.ceil(shown.restart_in_s - (performance.now() - at) / 1000) : 0;
  const line = (when) => [has ? when : "", shown.text || ""].filter(Boolean).join(" — ");
  el.firstChild.textContent = line(left > 0 ? t("notice.restart_in", { time: Math.floor(left / 60) + ":"
    + String(left % 60).padStart(2, "0") }) : t("notice.restart_now"));
  if (say) el.lastChild.textContent = line(left > 0 ? t("notice.restart_min", { n: Math.ceil(left / 60) })
    : t("notice.restart_now"));
  if (has && left > 0) timer = setTimeout(() => draw(false), 1000 - ((performance.now() - at) % 1000));
}

onLangChange(() => draw(true));
